"""Modes, HSM and hub variables: the tools' part.

Here stay each mode, HSM and hub variable tool called by name with its answer, the refusals
as the tools answer them, the confirmation and backup gates, the advice naming sibling
tools and the Maker API hint. Tested without hass elsewhere: the modes logic (set with or
without the Maker API, create, rename with the hub UI's body keeping icon and days, the
refusals that send nothing) in tests/managers/test_modes.py; the HSM logic (status, arming
with the sensors open now, alerts, the refusals, an unreadable hub messages page) in
tests/managers/test_hsm.py; the hub variables (values typed and set, their changes, a value
of the wrong type refused before a set) in tests/managers/test_variables.py; the library's
mode bodies, the Maker API mode and HSM answers, the hub messages parsing and the emulated
hub's answers to mode and location writes in tests/hub/test_modes.py and
tests/hub/test_hsm.py."""

from __future__ import annotations

from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok
from ..home_util import sent


async def test_mode_tools_create_rename_and_delete_with_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: each tool by name, delete behind its backup and confirm gate (the
    modes logic: tests/managers/test_modes.py)."""
    made = await ok(call_tool, "hub_create_mode", {"name": "Party", "icon": "fa-music"})
    assert made["summary"]
    listing = await ok(call_tool, "hub_list_modes")
    assert "Party" in [m["name"] for m in listing["modes"]] and "mode_manager" in listing
    hub.set_mode("Day")  # so that Night is a change, whatever hour the story left
    switched = await ok(call_tool, "hub_set_mode", {"mode": "Night"})
    assert switched["changed"] is True and hub.current_mode == "Night"
    renamed = await ok(call_tool, "hub_update_mode", {"mode": "Party", "new_name": "Fiesta"})
    assert renamed["renamed_from"] == "Party" and renamed["summary"]
    assert "Fiesta" in [m["name"] for m in hub.modes]
    hub.mark_backup_now()
    await ok(call_tool, "hub_delete_mode", {"mode": "Fiesta", "confirm": True})
    assert "Fiesta" not in [m["name"] for m in hub.modes]


async def test_mode_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The refusals as the tools answer them, the delete past its gates (every refusal of the
    manager: tests/managers/test_modes.py::test_mode_refusals_send_nothing)."""
    hub.mark_backup_now()
    before = len(hub.requests)
    for tool, args, word in (
        ("hub_set_mode", {"mode": "Vacation"}, "Day"),
        ("hub_delete_mode", {"mode": hub.current_mode, "confirm": True}, "active mode"),
    ):
        result = await call_tool(tool, args)
        assert result.error and word in result.data["message"], (tool, result.data)
    assert sent(hub, before) == []
    assert not [p for _m, p in hub.requests[before:] if "/modes/" in p and "json" not in p]


async def test_hsm(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    """The tools' part: the status read, the gate and the argument check as the model sees
    them, and the advice naming hub_get_app and hub_get_hsm_status (arming, alerts and the
    sensors open now: tests/managers/test_hsm.py)."""
    data = await ok(call_tool, "hub_get_hsm_status")
    assert data["status"] == "disarmed" and data["active_alert"] is None
    before = len(hub.requests)
    refused = await call_tool("hub_set_hsm", {"command": "armAway"})
    assert refused.error and refused.data["error"] == "confirmation_required"
    bad = await call_tool("hub_set_hsm", {"command": "armEverything", "confirm": True})
    assert bad.error and bad.data["error"] == "invalid_arguments"
    assert not [p for _m, p in hub.requests[before:] if "/hsm/" in p]
    window = hub.find_device("Living Room Window")["id"]
    hub.set_device_attribute(window, "contact", "open")
    data = await ok(call_tool, "hub_set_hsm", {"command": "armAway", "confirm": True})
    assert data["status"] == "armingAway" and "note" in data
    # arming says what is open right now, so the owner can close it first
    assert {"device_id": str(window), "label": "Living Room Window", "contact": "open"} in (
        data["open_now"]
    )
    assert "hub_get_app" in data["open_note"] and "hub_get_hsm_status" in data["note"]


async def test_maker_required_says_what_to_configure(
    hass: Any, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub, maker=False)
    status = await ok(call_tool, "hub_get_hsm_status")  # works without Maker
    assert status["can_change"] is False
    for tool, args in (
        ("hub_set_hsm", {"command": "armAway", "confirm": True}),
        ("hub_list_variables", {}),
        ("hub_get_variable", {"name": "guestCount"}),
        ("hub_set_variable", {"name": "guestCount", "value": 1}),
    ):
        result = await call_tool(tool, args)
        assert result.error and result.data["error"] == "maker_api_required", tool
        assert "Maker API" in result.data["hint"] and "Reconfigure" in result.data["hint"]


async def test_variables(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    """The tools' part: each variable tool by name, its count, summary and changes as the model
    sees them (typing, setting and reading back: tests/managers/test_variables.py::
    test_values_are_typed_set_and_their_changes_read)."""
    data = await ok(call_tool, "hub_list_variables")
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["guestCount"] == {"name": "guestCount", "type": "integer", "value": 2}
    assert data["count"] == len(data["variables"]) and "recent_changes" not in data
    data = await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": "4"})
    assert data["value"] == 4 and data["previous"] == 2
    assert data["summary"] == "Set guestCount to 4 (was 2)"
    await ok(call_tool, "hub_set_variable", {"name": "vacationMode", "value": True})
    data = await ok(call_tool, "hub_get_variable", {"name": "guestCount"})
    assert data["value"] == 4 and data["recent_changes"][0]["value"] == "4"
    changes = await ok(call_tool, "hub_list_variables", {"include_changes": True})
    assert {c["name"] for c in changes["recent_changes"]} >= {"guestCount", "vacationMode"}


async def test_variable_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The manager's refusals as the tools answer them (every wrong type, nothing set:
    tests/managers/test_variables.py::test_a_value_of_the_wrong_type_is_refused_before_a_set)."""
    before = len(hub.requests)
    for name, value in (("guestCount", "two"), ("vacationMode", "maybe")):
        result = await call_tool("hub_set_variable", {"name": name, "value": value})
        assert result.error and name in result.data["message"], (name, result.data)
        assert result.data["error"] == "invalid_request"
    assert hub.variables["guestCount"]["value"] == 2
    sets = [p for _m, p in hub.requests[before:] if p.split("?")[0].count("/") > 5]
    assert not [p for p in sets if "/hubvariables/" in p]  # only the type lookups were sent
    missing = await call_tool("hub_get_variable", {"name": "nope"})
    assert missing.error and missing.data["error"] == "not_found"
