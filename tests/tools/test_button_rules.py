"""hub_create_app app_type="Button Rule": a rule made by its Button Controller's own
add-button flow (the on-hub server, live), against the emulated controller."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.app_page import AppPage
from custom_components.hubitat_dev_tools.managers.apps.button_rules import (
    parse_button,
    picked_devices,
)
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import APP_BASIC_RULES

from ..conftest import ToolCaller, add_entry
from ..contract import assert_same_shape, load_fixture, shape_errors


def _pico(hub: HubEmulator) -> int:
    return next(d.id for d in hub.state.devices.values() if d.label == "Living Room Pico")


async def _controller(call_tool: ToolCaller, device: int | None) -> str:
    parents = await call_tool("hub_create_app", {"app_type": "Button Controllers"})
    assert not parents.error, parents.data
    args: dict[str, Any] = {"app_type": "Button Controller", "name": "Pico"}
    if device is not None:
        args["settings"] = {"buttonDev": [str(device)], "origLabel": "Pico"}
    made = await call_tool("hub_create_app", args)
    assert not made.error, made.data
    return str(made.data["app_id"])


def test_button_text_and_device_shapes() -> None:
    assert parse_button("3 pushed") == (3, "pushed")
    assert parse_button(" 12 doubleTapped ") == (12, "doubleTapped")
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


async def test_button_rule_through_the_controller(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    pico = _pico(hub)
    ctrl = await _controller(call_tool, pico)
    clicks_before = len(hub.state.dev.clicks)
    result = await call_tool(
        "hub_create_app",
        {"app_type": "Button Rule", "parent_app_id": ctrl, "button": "3 held"},
    )
    assert not result.error, result.data
    new_id = int(result.data["app_id"])
    rule = hub.state.apps[new_id]
    assert rule.parent_id == int(ctrl) and rule.type == "Button Rule-5.1"
    assert result.data["type"] == "Button Rule-5.1" and result.data["parent_id"] == ctrl
    assert result.data["page"] == "selectActions" and result.data["installed"] is False
    assert "hub_update_app_settings" in result.data["next"] and "warning" not in result.data
    seeded = {i["name"]: i.get("value") for i in hub.state.dev.internals[new_id].inputs}
    assert seeded["tstate1"] == "held" and seeded["ButtontDev1"] == 3
    # the UI's clicks, bare (no page context): addBut, then setBut
    clicks = hub.state.dev.clicks[clicks_before:]
    assert [(c["name"], c.get("stateAttribute")) for c in clicks] == [
        ("true", "addBut"),
        ("3 held", "setBut"),
    ]
    assert all("formAction" not in c for c in clicks)
    # the controller is left as it was, out of add-button mode
    assert int(ctrl) not in hub.buttons.modes
    page = await AppPage.load(hub_client(entry), ctrl)
    fixture = load_fixture("apps/button_controller_page")
    assert not shape_errors(fixture.answer["settings"], page.config["settings"], ("$.buttonDev",))
    assert picked_devices_of(hub, int(ctrl)) == [pico]


def picked_devices_of(hub: HubEmulator, app_id: int) -> list[int]:
    inp = next(i for i in hub.state.dev.internals[app_id].inputs if i["name"] == "buttonDev")
    return list(inp["deviceIdsForDeviceList"])


async def test_button_rule_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    bare = await _controller(call_tool, None)
    before = set(hub.state.apps)

    async def create(args: dict[str, Any]) -> Any:
        return await call_tool("hub_create_app", {"app_type": "Button Rule", **args})

    no_dev = await create({"parent_app_id": bare, "button": "1 pushed"})
    assert no_dev.error and "no button device" in no_dev.data["message"], no_dev.data
    not_ctrl = await create({"parent_app_id": str(APP_BASIC_RULES), "button": "1 pushed"})
    assert not_ctrl.error and "not a Button Controller-5.1" in not_ctrl.data["message"]
    no_button = await create({"parent_app_id": bare})
    assert no_button.error and "button" in no_button.data["message"]
    stray = await call_tool("hub_create_app", {"app_type": "Basic Rule", "button": "1 pushed"})
    assert stray.error and "Nothing was sent" in stray.data["message"]
    bad = await create({"parent_app_id": bare, "button": "1 wiggled"})
    assert bad.error
    named = await create({"parent_app_id": bare, "button": "1 pushed", "name": "x"})
    assert named.error and "not taken" in named.data["message"]
    assert set(hub.state.apps) == before
    # a button the device does not have: refused at the picker, mode ended by the read
    ctrl = await _controller(call_tool, _pico(hub))
    missing = await create({"parent_app_id": ctrl, "button": "9 pushed"})
    assert missing.error and "no button 9" in missing.data["message"], missing.data
    assert int(ctrl) not in hub.buttons.modes
    # the hub says success and makes nothing: the effect check says so
    hub.buttons.spawns = False
    count = len(hub.state.apps)
    silent = await create({"parent_app_id": ctrl, "button": "1 pushed"})
    assert silent.error and silent.data["error"] == "hub_bad_response", silent.data
    assert "no new child app" in silent.data["message"] and len(hub.state.apps) == count


async def test_a_page_read_ends_add_button_mode(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The emulator's faithfulness: the flow with a GET in it makes nothing (on-hub server)."""
    ctrl = await _controller(call_tool, _pico(hub))
    client = hub_client(entry)
    page = await AppPage.load(client, ctrl)
    assert_same_shape("apps/button_click", await page.click("true", state_attribute="addBut"))
    form = page.settings_form({})
    answer = await page.post_update(form, what="submit")
    assert page.take_answer(answer) and page.inputs["newBut"].multiple  # the picker
    assert hub.buttons.modes[int(ctrl)].step == "picker"
    await page.reload()  # collapses the mode
    assert int(ctrl) not in hub.buttons.modes
    count = len(hub.state.apps)
    await page.click("1 pushed", state_attribute="setBut")
    assert len(hub.state.apps) == count


def hub_client(entry: MockConfigEntry) -> Any:
    return entry.runtime_data.hub.client


async def test_controller_device_outside_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    pico = _pico(hub)
    other = next(
        d.id
        for d in hub.state.devices.values()
        if "PushableButton" in d.driver.capabilities and d.id != pico
    )
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(other)]})
    ctrl = await _controller(call_tool, other)
    inp = next(i for i in hub.state.dev.internals[int(ctrl)].inputs if i["name"] == "buttonDev")
    inp["deviceIdsForDeviceList"] = [pico]  # picked in the hub UI, outside the allowlist
    count = len(hub.state.apps)
    refused = await call_tool(
        "hub_create_app", {"app_type": "Button Rule", "parent_app_id": ctrl, "button": "1 pushed"}
    )
    assert refused.error and refused.data["error"] == "device_not_allowed", refused.data
    assert len(hub.state.apps) == count and int(ctrl) not in hub.buttons.modes
