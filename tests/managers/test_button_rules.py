"""Button Rules on the managers, no hass: made by their Button Controller's own add-button
flow (``managers/apps/button_rules.py`` through the app creator: the controller's clicks as
its UI sends them, the new rule's trigger, the controller left as it was, every refusal
before or during the flow, a hub that says success and makes nothing), the shapes of a
button text and of a device input, the emulated controller's add-button mode, and running a
Button Rule's actions through its button device's event (``managers/apps/rules.py``), alone
or batched, while a Visual Rule cannot be run over the LAN.

Moved from tests/tools/test_button_rules.py (the tool's answer and advice, its argument
check of the button text, how it answers a hub that makes nothing and the device allowlist
stay there) and from tests/tools/test_button_rule_run.py (the tool's answers, the
confirmation a lock action needs, the device allowlist and running the rule the list
describes stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.app_page import AppPage
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
from custom_components.hubitat_dev_tools.managers.apps.button_rules import (
    parse_button,
    picked_devices,
)
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.seed_specs import APP_BASIC_RULES

from ..contract import assert_same_shape, load_fixture, shape_errors
from ..helpers.button_rules import _dev, _settled, _switch_action, _value


def _allow_all(_device_id: str) -> bool:
    return True


def _pico(emu: HubEmulator) -> int:
    return _dev(emu, "Living Room Pico")


async def _create(manager_hub: Hub, app_type: str, **kw: Any) -> dict[str, Any]:
    """The app creator's call as hub_create_app makes it, with no device allowlist."""
    args: dict[str, Any] = {"parent_app_id": None, "settings": {}, "name": None, **kw}
    return await manager_hub.app_create.create(
        app_type, device_allowed=_allow_all, confirm=False, **args
    )


async def _controller(manager_hub: Hub, device: int | None) -> str:
    """A Button Controller (under a new Button Controllers parent), with ``device`` picked."""
    await _create(manager_hub, "Button Controllers")
    settings = {} if device is None else {"buttonDev": [str(device)], "origLabel": "Pico"}
    made = await _create(manager_hub, "Button Controller", name="Pico", settings=settings)
    return str(made["app_id"])


def _picked_devices_of(emu: HubEmulator, app_id: int) -> list[int]:
    inp = next(i for i in emu.state.dev.internals[app_id].inputs if i["name"] == "buttonDev")
    return list(inp["deviceIdsForDeviceList"])


# ------------------------------------------------------------------------------ shapes


def test_button_text_and_device_shapes() -> None:
    assert parse_button("3 pushed") == (3, "pushed")
    assert parse_button(" 12 doubleTapped ") == (12, "doubleTapped")
    for bad in ("1 wiggled", "0 pushed", "x pushed", "3"):
        with pytest.raises(ToolError, match="Nothing was sent"):
            parse_button(bad)
    page = AppPage(None, "5")  # type: ignore[arg-type]
    page.config = {"settings": {"buttonDev": {"43": "Pico", "44": "Other"}}}
    assert picked_devices(page, "buttonDev") == ["43", "44"]  # the on-hub server: id -> label
    page.config = load_fixture("apps/button_controller_page").answer
    page.inputs = {}  # the map in settings alone
    assert picked_devices(page, "buttonDev") == ["43"]
    page.config = {"settings": {"buttonDev": "43,44"}}
    assert picked_devices(page, "buttonDev") == ["43", "44"]
    page.config = {"settings": {"buttonDev": [{"id": 43}]}}
    assert picked_devices(page, "buttonDev") == ["43"]
    page.config = {"settings": {}}
    assert picked_devices(page, "buttonDev") == []


# ----------------------------------------------------------- made through the controller


async def test_button_rule_through_the_controller(emu: HubEmulator, manager_hub: Hub) -> None:
    pico = _pico(emu)
    ctrl = await _controller(manager_hub, pico)
    clicks_before = len(emu.state.dev.clicks)
    made = await _create(manager_hub, "Button Rule", parent_app_id=ctrl, button="3 held")
    new_id = int(made["app_id"])
    rule = emu.state.apps[new_id]
    assert rule.parent_id == int(ctrl) and rule.type == "Button Rule-5.1"
    assert made["type"] == "Button Rule-5.1" and made["parent_id"] == ctrl
    assert made["page"] == "selectActions" and made["installed"] is False
    assert made["created"] is True and "warning" not in made
    assert made["trigger"] == f"button 3 held of device(s) {pico}, set by the controller"
    assert made["next"].startswith("Add its actions on its pages")
    seeded = {i["name"]: i.get("value") for i in emu.state.dev.internals[new_id].inputs}
    assert seeded["tstate1"] == "held" and seeded["ButtontDev1"] == 3
    # the UI's clicks, bare (no page context): addBut, then setBut
    clicks = emu.state.dev.clicks[clicks_before:]
    assert [(c["name"], c.get("stateAttribute")) for c in clicks] == [
        ("true", "addBut"),
        ("3 held", "setBut"),
    ]
    assert all("formAction" not in c for c in clicks)
    # the controller is left as it was, out of add-button mode
    assert int(ctrl) not in emu.buttons.modes
    page = await AppPage.load(manager_hub.client, ctrl)
    fixture = load_fixture("apps/button_controller_page")
    assert not shape_errors(fixture.answer["settings"], page.config["settings"], ("$.buttonDev",))
    assert _picked_devices_of(emu, int(ctrl)) == [pico]


async def test_button_rule_refusals(emu: HubEmulator, manager_hub: Hub) -> None:
    bare = await _controller(manager_hub, None)
    before = set(emu.state.apps)

    async def refused(match: str, app_type: str = "Button Rule", **kw: Any) -> None:
        with pytest.raises(ToolError, match=match):
            await _create(manager_hub, app_type, **kw)

    await refused("no button device", parent_app_id=bare, button="1 pushed")
    await refused(
        "not a Button Controller-5.1", parent_app_id=str(APP_BASIC_RULES), button="1 pushed"
    )
    await refused("takes app_type='Button Rule', parent_app_id", parent_app_id=bare)
    await refused("Nothing was sent", "Basic Rule", button="1 pushed")
    await refused("button must be", parent_app_id=bare, button="1 wiggled")
    await refused("not taken", parent_app_id=bare, button="1 pushed", name="x")
    assert set(emu.state.apps) == before
    # a button the device does not have: refused at the picker, mode ended by the read
    ctrl = await _controller(manager_hub, _pico(emu))
    await refused("no button 9", parent_app_id=ctrl, button="9 pushed")
    assert int(ctrl) not in emu.buttons.modes
    # the hub says success and makes nothing: the effect check says so
    emu.buttons.spawns = False
    count = len(emu.state.apps)
    with pytest.raises(HubBadResponseError, match="no new child app"):
        await _create(manager_hub, "Button Rule", parent_app_id=ctrl, button="1 pushed")
    assert len(emu.state.apps) == count


async def test_a_page_read_ends_add_button_mode(emu: HubEmulator, manager_hub: Hub) -> None:
    """The emulator's faithfulness: the flow with a GET in it makes nothing (on-hub server)."""
    ctrl = await _controller(manager_hub, _pico(emu))
    page = await AppPage.load(manager_hub.client, ctrl)
    assert_same_shape("apps/button_click", await page.click("true", state_attribute="addBut"))
    form = page.settings_form({})
    answer = await page.post_update(form, what="submit")
    assert page.take_answer(answer) and page.inputs["newBut"].multiple  # the picker
    assert emu.buttons.modes[int(ctrl)].step == "picker"
    await page.reload()  # collapses the mode
    assert int(ctrl) not in emu.buttons.modes
    count = len(emu.state.apps)
    await page.click("1 pushed", state_attribute="setBut")
    assert len(emu.state.apps) == count


# ------------------------------------------------------------------- running the actions


async def _button_rule(
    emu: HubEmulator, manager_hub: Hub, button: str, actions: dict[str, Any]
) -> str:
    """A Button Rule on the Pico made by its controller, given ``actions`` (action 1) as the
    hub UI would."""
    ctrl = await _controller(manager_hub, _pico(emu))
    made = await _create(manager_hub, "Button Rule", parent_app_id=ctrl, button=button)
    emu.buttons.give_actions(int(made["app_id"]), actions, [1])
    return str(made["app_id"])


async def test_a_button_rule_runs_through_its_button(emu: HubEmulator, manager_hub: Hub) -> None:
    rules = manager_hub.rules
    assert _value(emu, "Office Light", "switch") == "on"
    rule = await _button_rule(
        emu, manager_hub, "2 held", _switch_action(emu, "Office Light", False)
    )
    data = await rules.call_rule(rule, "run_actions")
    assert data["app_id"] == rule and "hold 2" in data["via"], data
    assert f"device {_pico(emu)}" in data["via"]
    assert _value(emu, "Living Room Pico", "held") == 2
    assert await _settled(lambda: _value(emu, "Office Light", "switch") == "off")
    # its only action: stop/start are refused, nothing sent
    sent = len(emu.requests)
    for action in ("stop", "start"):
        with pytest.raises(ToolError) as stop:
            await rules.call_rule(rule, action)
        assert "Button Rule" in str(stop.value) and "run_actions" in str(stop.value)
    assert [m for m, _p in emu.requests[sent:] if m == "POST"] == []
    # batched with an RM rule: both run
    emu.home.set_device_attribute(_dev(emu, "Office Light"), "switch", "on")
    runs = emu.state.dev.internals[140].runs
    done = await rules.call_rules([rule, "140"], "run_actions")
    assert done["failed"] == 0 and done["count"] == 2, done
    assert emu.state.dev.internals[140].runs == runs + 1
    assert await _settled(lambda: _value(emu, "Office Light", "switch") == "off")


async def test_a_visual_rule_cannot_be_run(emu: HubEmulator, manager_hub: Hub) -> None:
    sent = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await manager_hub.rules.call_rule(str(VRB_PORCH), "run_actions")
    assert "Visual Rule" in str(refused.value) and "over the LAN" in str(refused.value)
    assert [m for m, _p in emu.requests[sent:] if m == "POST"] == []
