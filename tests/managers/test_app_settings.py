"""The settings editor (``managers/apps/settings.py``, with the page model of
``managers/apps/page_model.py``) on its own, no hass: a classic app's inputs set the way its
page does and read back (device lists, multi-selects, enums, text), a button pressed after
the submit (the bare click, and the page's submit after a submitOnChange button), the item
backup taken before the submit and kept for an edit series, safe repairs and ranges, every
refusal before anything is sent (unknown inputs and buttons, values outside an input's
options, unknown devices, a Visual Rule) and a hub error leaving the app as it was, over the
emulated hub.

Moved from tests/tools/test_app_settings.py (the settings logic is the manager's; the tool's
argument checks (the settings' shape, "give settings, press or sub_page"), the device
allowlist, the hints naming sibling tools and the summary stay there)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, VRB_PORCH
from hubitat_emulator.seed import RULE_MOTION

from ..helpers.app_settings import device_ids, inputs, posts


async def update(
    manager_hub: Hub,
    app_id: int,
    settings: dict[str, Any] | None = None,
    *,
    press: str | None = None,
) -> dict[str, Any]:
    """The manager's edit as the tool makes it, with no device allowlist."""
    return await manager_hub.app_settings.update_settings(
        str(app_id),
        page=None,
        settings=settings or {},
        press=press,
        device_allowed=lambda _device_id: True,
    )


async def test_set_inputs_and_press_a_button(emu: HubEmulator, manager_hub: Hub) -> None:
    motion = device_ids(emu, "Kitchen Motion", "Office Motion")
    start = len(emu.requests)
    data = await update(
        manager_hub,
        RULE_MOTION,
        {
            "origLabel": "Kitchen motion (edited)",
            "tDev0": motion,
            "logging": "Triggers",
            "modesRestrict": ["Night"],
        },
        press="updateRule",
    )
    assert sorted(data["applied"]) == ["logging", "modesRestrict", "origLabel", "tDev0"]
    assert data["pressed"] == "updateRule" and "not_applied" not in data
    assert data["name"] == "Motion Lights - Kitchen" and data["page"]
    now = inputs(emu, RULE_MOTION)
    assert now["origLabel"]["value"] == "Kitchen motion (edited)"
    assert now["tDev0"]["deviceIdsForDeviceList"] == [int(i) for i in motion]
    assert json.loads(now["modesRestrict"]["value"]) == ["Night"]
    assert now["logging"]["value"] == "Triggers"
    assert all(RULE_MOTION in emu.state.devices[int(i)].apps_using for i in motion)
    # the page after the change comes back, and the backup was taken before the submit
    assert data["config_page"]["sections"][0]["inputs"][0]["value"] == "Kitchen motion (edited)"
    backup = data["item_backup"]["backup"]
    snap = json.loads(emu.files.read(backup) or b"{}")
    assert snap["config"]["settings"]["origLabel"] == "Motion Lights - Kitchen"
    assert "native_export" in snap
    order = posts(emu, start)  # the backup (with its App Cloner export), then the submit
    submit = len(order) - 1 - order[::-1].index("/installedapp/update/json")
    assert order.index("/hub/fileManager/upload") < submit
    assert order[submit:] == ["/installedapp/update/json", "/installedapp/btn"]
    # a second edit within the hour keeps the pre-edit original
    again = await update(manager_hub, RULE_MOTION, {"origLabel": "x"})
    assert again["item_backup"] == {**again["item_backup"], "backup": backup}
    assert again["item_backup"]["reused"] is True


async def test_safe_repairs_and_ranges(emu: HubEmulator, manager_hub: Hub) -> None:
    result = await update(manager_hub, APP_ANNOUNCER, {"volume": "35", "quietAtNight": "false"})
    now = inputs(emu, APP_ANNOUNCER)
    assert now["volume"]["value"] == 35 and now["quietAtNight"]["value"] is False
    assert len(result["repairs"]) == 2
    start = len(emu.requests)
    with pytest.raises(ToolError) as too_loud:
        await update(manager_hub, APP_ANNOUNCER, {"volume": 150})
    assert too_loud.value.code == "invalid_request" and "0..100" in str(too_loud.value)
    for bad in ("nan", "Infinity", "1e400", "1_0", "\uff15", "9" * 400, float("inf")):
        with pytest.raises(ToolError) as err:
            await update(manager_hub, APP_ANNOUNCER, {"volume": bad})
        assert err.value.code == "invalid_request", bad
    assert posts(emu, start) == []
    assert inputs(emu, APP_ANNOUNCER)["volume"]["value"] == 35


@pytest.mark.parametrize(
    ("settings", "press", "needle", "subject"),
    [
        ({"nope": 1}, None, "Its inputs: ", "page_input"),
        ({"logging": "Everything"}, None, "Events, Triggers, Actions", None),
        ({"modesRestrict": ["Day", "Party"]}, None, "got Party", None),
        ({"tDev0": ["99999"]}, None, "No device with id 99999", None),
        ({"tDev0": ["kitchen"]}, None, "device ids", None),
        ({"origLabel": ["a", "b"]}, None, "takes text", None),
        ({}, "launchMissiles", "Its buttons: ", "page_button"),
    ],
)
async def test_refusals_send_nothing(
    emu: HubEmulator,
    manager_hub: Hub,
    settings: dict[str, Any],
    press: str | None,
    needle: str,
    subject: str | None,
) -> None:
    start = len(emu.requests)
    with pytest.raises(ToolError) as err:
        await update(manager_hub, RULE_MOTION, settings, press=press)
    assert err.value.code == "invalid_request" and needle in str(err.value)
    if subject is not None:
        assert err.value.subject == subject
    assert posts(emu, start) == []
    assert inputs(emu, RULE_MOTION)["origLabel"]["value"] == "Motion Lights - Kitchen"


async def test_a_visual_rule_is_not_edited_here(emu: HubEmulator, manager_hub: Hub) -> None:
    start = len(emu.requests)
    with pytest.raises(ToolError) as err:
        await update(manager_hub, VRB_PORCH, {"x": 1})
    assert err.value.code == "invalid_request" and err.value.subject == "settings_not_editable"
    assert "Nothing was sent" in str(err.value)
    assert posts(emu, start) == []


async def test_hub_error_leaves_the_app_as_it_was(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.faults.fail_paths = {"/installedapp/update/json": 500}
    with pytest.raises(HubError) as err:
        await update(manager_hub, RULE_MOTION, {"origLabel": "y"})
    assert err.value.code == "hub_bad_response"
    assert inputs(emu, RULE_MOTION)["origLabel"]["value"] == "Motion Lights - Kitchen"


async def test_press_sends_the_bare_click_and_submits_after_a_submit_on_change_button(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    # materialise the page internals
    await manager_hub.apps.get_app(str(RULE_MOTION), None, include_state=True)
    internals = emu.state.dev.internals[RULE_MOTION]
    emu.state.dev.clicks.clear()
    start = len(emu.requests)
    result = await update(manager_hub, RULE_MOTION, {"origLabel": "x"}, press="stopRule")
    assert result["pressed"] == "stopRule"
    assert internals.state["stopped"] is True  # a click with page context would not have
    assert emu.state.dev.clicks == [
        {
            "id": str(RULE_MOTION),
            "name": "stopRule",
            "settings[stopRule]": "clicked",
            "stopRule.type": "button",
        }
    ]
    order = posts(emu, start)
    assert order[-2:] == ["/installedapp/update/json", "/installedapp/btn"]
    # a submitOnChange button: the click, then the page's submit (appUI.js changeSubmit)
    internals.buttons.append({"name": "hasRule", "title": "Done", "submitOnChange": True})
    start = len(emu.requests)
    pressed = await update(manager_hub, RULE_MOTION, {}, press="hasRule")
    assert pressed["pressed"] == "hasRule" and pressed["applied"] == []
    assert posts(emu, start)[-2:] == ["/installedapp/btn", "/installedapp/update/json"]
    assert (
        emu.state.dev.clicks[-1]["name"] == "hasRule"
        and "formAction" not in (emu.state.dev.clicks[-1])
    )
