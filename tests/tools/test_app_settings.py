"""hub_update_app_settings: edit a classic app's page the way the hub UI does.

The tool's part is here: its summary, its own argument checks (the settings' shape, a call
that gives nothing to do), the error codes and hints naming sibling tools, and the device
allowlist (for the settings and for an import). Setting the inputs and reading them back,
the press (the bare click, the submit after a submitOnChange button), the backup taken
before the submit, safe repairs and ranges, each refusal before anything is sent and a hub
error are tested without hass in tests/managers/test_app_settings.py."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.seed import RULE_MOTION

from ..conftest import ToolCaller, add_entry
from ..helpers.app_settings import device_ids, inputs, posts


async def test_update_app_settings_summary(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its summary over the manager's answer (the inputs set and read back,
    the press, the backup taken first: tests/managers/test_app_settings.py)."""
    motion = device_ids(hub, "Kitchen Motion", "Office Motion")
    result = await call_tool(
        "hub_update_app_settings",
        {
            "app_id": RULE_MOTION,
            "settings": {"origLabel": "Kitchen motion (edited)", "tDev0": motion},
            "press": "updateRule",
        },
    )
    assert not result.error, result.data
    data = result.data
    assert data["summary"] == (
        f"App {RULE_MOTION} (Motion Lights - Kitchen), page {data['page']}: set 2 of 2, "
        "pressed updateRule"
    )
    assert sorted(data["applied"]) == ["origLabel", "tDev0"] and data["item_backup"]["backup"]
    assert inputs(hub, RULE_MOTION)["origLabel"]["value"] == "Kitchen motion (edited)"
    pressed = await call_tool(
        "hub_update_app_settings", {"app_id": RULE_MOTION, "press": "stopRule"}
    )
    assert not pressed.error, pressed.data
    assert pressed.data["summary"].endswith(f"page {data['page']}: pressed stopRule")


@pytest.mark.parametrize(
    ("args", "needle", "hint"),
    [
        ({"settings": {"nope": 1}}, "Its inputs: ", "hub_get_app"),
        ({"press": "launchMissiles"}, "Its buttons: ", "hub_get_app"),
        ({"settings": {"tDev0": ["99999"]}}, "No device with id 99999", None),
        ({}, "Give settings, press", "hub_get_app"),
    ],
)
async def test_refusals_send_nothing(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    args: dict[str, Any],
    needle: str,
    hint: str | None,
) -> None:
    """The tool's part: the error code, the hints naming hub_get_app, and its own refusal of
    a call that gives nothing to do (each refusal of the manager, with its message:
    tests/managers/test_app_settings.py)."""
    start = len(hub.requests)
    result = await call_tool("hub_update_app_settings", {"app_id": RULE_MOTION, **args})
    assert result.error and result.data["error"] == "invalid_request", result.data
    assert needle in result.data["message"]
    if hint is not None:
        assert hint in result.data["hint"], result.data
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
