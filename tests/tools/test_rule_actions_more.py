"""More Rule Machine actions through the tools (hub_create_rule, hub_get_rule,
hub_update_rule): the tools' own part, their answers. A per-mode rule's dry run and build
answer their summaries, it reads back equal and is edited in place (the same app id,
edited_in_place) and run; a DateTime local variable is answered with a colon offset; a wrong
target is an error result with nothing sent; a read leaves out devices outside the device
allowlist.

Every action (per-mode device settings, fades and level changes, Set Variable from a device
or variable math, delays from a variable or at random, Cancel Rule Timers, DateTime local
variables in the hub's form) built, read back, edited in place and run, the schema and the
parser agreeing, and every wrong target refused are tested without hass in
tests/managers/test_rule_actions_more.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok
from ..helpers.rule_actions_more import _attr, _fire, _with_a_date
from ..home_util import dev_id


async def _made(call_tool: ToolCaller, spec: dict[str, Any]) -> str:
    made = await ok(call_tool, "hub_create_rule", {"rule": spec})
    app_id = str(made["app_id"])
    assert made["summary"] == f"Created rule {app_id} ({spec['name']})", made
    return app_id


async def _read(call_tool: ToolCaller, app_id: str) -> dict[str, Any]:
    got = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert got["undecompiled"] == [], got
    spec: dict[str, Any] = got["spec"]
    return spec


async def _updated(call_tool: ToolCaller, app_id: str, spec: dict[str, Any]) -> None:
    done = await ok(call_tool, "hub_update_rule", {"app_id": app_id, "rule": spec})
    assert done["summary"] == f"Updated rule {app_id} in place", done
    assert done["app_id"] == app_id and done["edited_in_place"] is True, done


async def test_a_per_mode_rule_is_checked_created_read_back_and_edited_in_place(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, dimmer = dev_id(hub, "Office Motion"), dev_id(hub, "Kitchen Light")
    spec: dict[str, Any] = {
        "name": "Lights by mode",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"set_level_per_mode": {"Day": 80, "Night": 10}, "device_ids": [dimmer]}],
    }
    dry = await ok(call_tool, "hub_create_rule", {"rule": spec, "validate_only": True})
    assert dry["summary"] == "Spec is valid; nothing was sent", dry
    assert "  Dim per mode: Kitchen Light: Day: 80, Night: 10" in dry["rule_text"]
    app_id = await _made(call_tool, spec)
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]
    hub.set_mode("Night")
    await _fire(hub, motion)
    assert _attr(hub, dimmer, "level") == 10

    spec["actions"][0] = {"set_level_per_mode": {"Day": 80, "Night": 25}, "device_ids": [dimmer]}
    await _updated(call_tool, app_id, spec)
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]
    await _fire(hub, motion)
    assert _attr(hub, dimmer, "level") == 25


async def test_datetime_local_variables_are_answered_with_a_colon_offset(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    spec = _with_a_date(motion)
    app_id = await _made(call_tool, spec)
    got = await _read(call_tool, app_id)  # answers show timestamps with a colon offset
    assert got["local_variables"] == [
        {"name": "due", "type": "datetime", "value": "2026-05-17T14:30:00.000-04:00"}
    ]
    assert hub.rule_machine.rules[int(app_id)].local.variables["due"]["value"].endswith("-0400")
    spec["local_variables"][0]["value"] = "2026-06-01T08:00:00Z"
    await _updated(call_tool, app_id, spec)
    got = await _read(call_tool, app_id)
    assert got["local_variables"][0]["value"] == "2026-06-01T08:00:00.000+00:00"


async def test_a_wrong_target_is_an_error_result_and_nothing_changes(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    base: dict[str, Any] = {
        "name": "Refused",
        "triggers": [
            {"device_id": dev_id(hub, "Office Motion"), "attribute": "motion", "is": "active"}
        ],
    }
    before = set(hub.rule_machine.rules)
    writes = len([r for r in hub.requests if r[0] != "GET"])
    result = await call_tool(
        "hub_create_rule", {"rule": {**base, "actions": [{"cancel_timers": ["99999"]}]}}
    )
    assert result.error and "99999" in result.data["message"], result.data
    bad_local = {
        **base,
        "local_variables": [{"name": "due", "type": "datetime", "value": "2026-05-17 14:30"}],
        "actions": [{"log": "x"}],
    }
    result = await call_tool("hub_create_rule", {"rule": bad_local})
    assert result.error and "UTC offset" in result.data["message"], result.data
    assert set(hub.rule_machine.rules) == before
    assert len([r for r in hub.requests if r[0] != "GET"]) == writes


async def test_a_read_leaves_out_devices_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES

    motion, porch = dev_id(hub, "Office Motion"), dev_id(hub, "Porch Light")
    guest, kitchen = dev_id(hub, "Guest Lamp"), dev_id(hub, "Kitchen Light")
    spec: dict[str, Any] = {
        "name": "Partly hidden",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {"stop_level_change": [guest, kitchen]},
            {"choose_per_mode": {"Night": {"on": [porch], "off": [guest]}}},
        ],
    }
    app_id = await _made(call_tool, spec)
    allowed = [motion, porch, kitchen]
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: allowed})
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    actions = got.data["spec"]["actions"]
    assert actions[0] == {"stop_level_change": [kitchen]}
    assert actions[1] == {"choose_per_mode": {"Night": {"on": [porch], "off": []}}}
    assert guest not in str(got.data)
