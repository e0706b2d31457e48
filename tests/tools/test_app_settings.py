"""hub_update_app_settings: edit a classic app's page the way the hub UI does."""

from __future__ import annotations

import json
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, VRB_PORCH
from hubitat_emulator.seed import RULE_MOTION

from ..conftest import ToolCaller, add_entry


def inputs(hub: HubEmulator, app_id: int) -> dict[str, dict[str, Any]]:
    return {i["name"]: i for i in hub.state.dev.internals[app_id].inputs}


def posts(hub: HubEmulator, since: int) -> list[str]:
    return [p for m, p in hub.requests[since:] if m == "POST"]


def device_ids(hub: HubEmulator, *labels: str) -> list[str]:
    by_label = {d.display_name: str(d.id) for d in hub.state.devices.values()}
    return [by_label[label] for label in labels]


async def test_set_inputs_and_press_a_button(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = device_ids(hub, "Kitchen Motion", "Office Motion")
    start = len(hub.requests)
    result = await call_tool(
        "hub_update_app_settings",
        {
            "app_id": RULE_MOTION,
            "settings": {
                "origLabel": "Kitchen motion (edited)",
                "tDev0": motion,
                "logging": "Triggers",
                "modesRestrict": ["Night"],
            },
            "press": "updateRule",
        },
    )
    assert not result.error, result.data
    data = result.data
    assert sorted(data["applied"]) == ["logging", "modesRestrict", "origLabel", "tDev0"]
    assert data["pressed"] == "updateRule" and "not_applied" not in data
    now = inputs(hub, RULE_MOTION)
    assert now["origLabel"]["value"] == "Kitchen motion (edited)"
    assert now["tDev0"]["deviceIdsForDeviceList"] == [int(i) for i in motion]
    assert json.loads(now["modesRestrict"]["value"]) == ["Night"]
    assert now["logging"]["value"] == "Triggers"
    assert all(RULE_MOTION in hub.state.devices[int(i)].apps_using for i in motion)
    # the page after the change comes back, and the backup was taken before the submit
    assert data["config_page"]["sections"][0]["inputs"][0]["value"] == "Kitchen motion (edited)"
    backup = data["item_backup"]["backup"]
    snap = json.loads(hub.files.read(backup) or b"{}")
    assert snap["config"]["settings"]["origLabel"] == "Motion Lights - Kitchen"
    assert "native_export" in snap
    order = posts(hub, start)  # the backup (with its App Cloner export), then the submit
    submit = len(order) - 1 - order[::-1].index("/installedapp/update/json")
    assert order.index("/hub/fileManager/upload") < submit
    assert order[submit:] == ["/installedapp/update/json", "/installedapp/btn"]
    # a second edit within the hour keeps the pre-edit original
    again = await call_tool(
        "hub_update_app_settings", {"app_id": RULE_MOTION, "settings": {"origLabel": "x"}}
    )
    assert again.data["item_backup"] == {**again.data["item_backup"], "backup": backup}
    assert again.data["item_backup"]["reused"] is True


async def test_safe_repairs_and_ranges(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    result = await call_tool(
        "hub_update_app_settings",
        {"app_id": APP_ANNOUNCER, "settings": {"volume": "35", "quietAtNight": "false"}},
    )
    assert not result.error, result.data
    now = inputs(hub, APP_ANNOUNCER)
    assert now["volume"]["value"] == 35 and now["quietAtNight"]["value"] is False
    assert len(result.data["repairs"]) == 2
    start = len(hub.requests)
    too_loud = await call_tool(
        "hub_update_app_settings", {"app_id": APP_ANNOUNCER, "settings": {"volume": 150}}
    )
    assert too_loud.error and "0..100" in too_loud.data["message"]
    for bad in ("nan", "Infinity", "1e400", "1_0", "\uff15", "9" * 400, float("inf")):
        result = await call_tool(
            "hub_update_app_settings", {"app_id": APP_ANNOUNCER, "settings": {"volume": bad}}
        )
        assert result.error and result.data["error"] in ("invalid_request", "invalid_arguments")
    assert posts(hub, start) == []


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ({"settings": {"nope": 1}}, "Its inputs: "),
        ({"settings": {"logging": "Everything"}}, "Events, Triggers, Actions"),
        ({"settings": {"modesRestrict": ["Day", "Party"]}}, "got Party"),
        ({"settings": {"tDev0": ["99999"]}}, "No device with id 99999"),
        ({"settings": {"tDev0": ["kitchen"]}}, "device ids"),
        ({"settings": {"origLabel": ["a", "b"]}}, "takes text"),
        ({"press": "launchMissiles"}, "Its buttons: "),
        ({}, "Give settings, press"),
    ],
)
async def test_refusals_send_nothing(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    args: dict[str, Any],
    needle: str,
) -> None:
    start = len(hub.requests)
    result = await call_tool("hub_update_app_settings", {"app_id": RULE_MOTION, **args})
    assert result.error and result.data["error"] == "invalid_request", result.data
    assert needle in result.data["message"]
    assert posts(hub, start) == []


async def test_refused_apps_and_shapes(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    visual = await call_tool("hub_update_app_settings", {"app_id": VRB_PORCH, "settings": {"x": 1}})
    assert visual.error and "hub_update_visual_rule" in visual.data["hint"]
    for settings in ({"bad name": 1}, {"x": {"nested": 1}}, "text"):
        shape = await call_tool(
            "hub_update_app_settings", {"app_id": RULE_MOTION, "settings": settings}
        )
        assert shape.error and shape.data["error"] == "invalid_arguments", settings
    assert posts(hub, start) == []


async def test_device_allowlist_applies_to_app_inputs(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    # the rule's trigger and the light it turns on (the seeded rule commands it)
    allowed = device_ids(hub, "Kitchen Motion", "Kitchen Light")
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: allowed})
    start = len(hub.requests)
    outside = device_ids(hub, "Office Motion")
    result = await call_tool(
        "hub_update_app_settings", {"app_id": RULE_MOTION, "settings": {"tDev0": outside}}
    )
    assert result.error and result.data["error"] == "device_not_allowed"
    assert posts(hub, start) == []
    inside = await call_tool(
        "hub_update_app_settings", {"app_id": RULE_MOTION, "settings": {"tDev0": allowed[:1]}}
    )
    assert not inside.error, inside.data
    # an import naming a device outside the allowlist is refused before the cloner runs
    export = await call_tool("hub_export_app", {"app_id": RULE_MOTION})
    doc = export.data["export"]
    doc["deviceReplacements"][outside[0]] = {"deviceLabel": "Office Motion"}
    start = len(hub.requests)
    imported = await call_tool("hub_import_app", {"export": doc})
    assert imported.error and imported.data["error"] == "device_not_allowed"
    assert not [p for _m, p in hub.requests[start:] if "appCloner" in p]


async def test_hub_error_is_reported(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.fail_paths = {"/installedapp/update/json": 500}
    result = await call_tool(
        "hub_update_app_settings", {"app_id": RULE_MOTION, "settings": {"origLabel": "y"}}
    )
    assert result.error and result.data["error"] == "hub_bad_response"
    assert inputs(hub, RULE_MOTION)["origLabel"]["value"] == "Motion Lights - Kitchen"


async def test_press_sends_the_bare_click_and_submits_after_a_submit_on_change_button(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    await call_tool("hub_get_app", {"app_id": RULE_MOTION})  # materialise the page internals
    internals = hub.state.dev.internals[RULE_MOTION]
    hub.state.dev.clicks.clear()
    start = len(hub.requests)
    result = await call_tool(
        "hub_update_app_settings",
        {"app_id": RULE_MOTION, "settings": {"origLabel": "x"}, "press": "stopRule"},
    )
    assert not result.error, result.data
    assert internals.state["stopped"] is True  # a click with page context would not have
    assert hub.state.dev.clicks == [
        {
            "id": str(RULE_MOTION),
            "name": "stopRule",
            "settings[stopRule]": "clicked",
            "stopRule.type": "button",
        }
    ]
    order = posts(hub, start)
    assert order[-2:] == ["/installedapp/update/json", "/installedapp/btn"]
    # a submitOnChange button: the click, then the page's submit (appUI.js changeSubmit)
    internals.buttons.append({"name": "hasRule", "title": "Done", "submitOnChange": True})
    start = len(hub.requests)
    pressed = await call_tool(
        "hub_update_app_settings", {"app_id": RULE_MOTION, "settings": {}, "press": "hasRule"}
    )
    assert not pressed.error, pressed.data
    assert posts(hub, start)[-2:] == ["/installedapp/btn", "/installedapp/update/json"]
    assert (
        hub.state.dev.clicks[-1]["name"] == "hasRule"
        and "formAction" not in (hub.state.dev.clicks[-1])
    )
