"""Honest answers an owner asked for while testing the tools on the emulated hub: device edits
in "what changed" (and checks left out of it, read from this integration's audit trail),
warnings for names already in use, the room a device is in as read back, apps named by their
label in the performance statistics, and the devices that went quiet.

The tools' part is here: the changes list and its allowlist, the warnings in the answer and
its summary, the allowlist applied to the warnings, the existing item carried in a refusal,
the hours the tool turns into a time and its refusal, one call of each tool. The managers'
part (who is warned about, the refusals and that they send nothing, the room read back, the
apps' labels and sorting, which devices went quiet) is tested without hass in
tests/managers/test_honest_answers.py."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import RULE_GOODNIGHT

from ..conftest import ToolCaller, ok, refused
from ..helpers.honest_answers import _two_gone_quiet
from ..helpers.rule_authoring import porch_spec
from ..home_util import dev_id, sent

# ---------------------------------------------------------------- 1. hub_list_changes


async def test_changes_list_device_edits_and_leave_out_checks(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp = dev_id(hub, "Living Room Lamp")
    prefs = (await ok(call_tool, "hub_get_device", {"device_id": lamp}))["device"]["preferences"]
    pref = next(p["name"] for p in prefs if p["type"] == "bool")
    await ok(
        call_tool,
        "hub_update_device",
        {
            "device_id": lamp,
            "label": "Reading Lamp",
            "room": "Office",
            "preferences": {pref: False},
        },
    )
    check = await ok(call_tool, "hub_create_rule", {"rule": porch_spec(hub), "validate_only": True})
    assert check["sent"] is False

    changes = (await ok(call_tool, "hub_list_changes", {"hours_back": 1}))["changes"]
    edits = {c["name"]: c for c in changes if c.get("type") == "edit"}
    assert set(edits) == {"label", "room", "preferences"}, changes
    assert edits["label"]["value"] == "Reading Lamp" and edits["room"]["value"] == "Office"
    assert edits["preferences"]["value"] == [pref]  # the trail keeps no preference value
    for row in edits.values():
        assert row["kind"] == "device" and row["device_id"] == lamp
        assert row["device"] == "Reading Lamp"  # the device as it is called now
        assert row["by"]["tool"] == "hub_update_device"
    assert not [c for c in changes if c.get("name") == "hub_create_rule"]  # nothing was sent
    assert len({c["date"][-6:] for c in changes}) == 1  # one offset: the hub's

    # one device: its edits too
    mine = await ok(call_tool, "hub_list_changes", {"hours_back": 1, "device_ids": [lamp]})
    assert {c["name"] for c in mine["changes"] if c.get("type") == "edit"} == set(edits)
    other = dev_id(hub, "Kitchen Light")
    theirs = await ok(call_tool, "hub_list_changes", {"hours_back": 1, "device_ids": [other]})
    assert not [c for c in theirs["changes"] if c.get("type") == "edit"]

    # the audit trail: the edit is a change, the validate_only call at most a check
    audit = (await ok(call_tool, "hub_list_audit_entries", {"limit": 200}))["entries"]
    update = next(e for e in audit if e["tool"] == "hub_update_device")
    assert update["outcome"] == "ok" and "check" not in update
    checks = [e for e in audit if e["tool"] == "hub_create_rule"]
    assert all(e.get("check") is True for e in checks), checks


async def test_changes_leave_out_edits_of_devices_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp, light = dev_id(hub, "Living Room Lamp"), dev_id(hub, "Kitchen Light")
    for device in (lamp, light):
        await ok(call_tool, "hub_update_device", {"device_id": device, "tags": ["edited"]})
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [lamp]})
    changes = (await ok(call_tool, "hub_list_changes", {"hours_back": 1}))["changes"]
    assert {c["device_id"] for c in changes if c.get("type") == "edit"} == {lamp}


# ---------------------------------------------------------------- 2. names already in use


def _named(warnings: list[dict[str, Any]]) -> set[tuple[str, str, str]]:
    return {(w["kind"], w["id"], w["name"]) for w in warnings}


async def test_a_device_named_like_another_item_is_made_with_a_warning(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the warnings in the answer and its summary (who is warned about:
    tests/managers/test_honest_answers.py)."""
    light = dev_id(hub, "Kitchen Light")
    made = await ok(
        call_tool, "hub_create_device", {"driver": "Virtual Switch", "label": "KITCHEN LIGHT"}
    )
    new_id = made["device"]["device_id"]
    assert _named(made["warnings"]) == {("device", light, "Kitchen Light")}
    assert "warning" in made["summary"] and light in made["warnings"][0]["message"]
    rule = await ok(call_tool, "hub_update_device", {"device_id": new_id, "name": "goodnight"})
    assert _named(rule["warnings"]) == {("rule", str(RULE_GOODNIGHT), "Goodnight")}
    fresh = await ok(
        call_tool, "hub_create_device", {"driver": "Virtual Switch", "label": "Attic Fan Switch"}
    )
    assert "warnings" not in fresh and "warning" not in fresh["summary"]


async def test_name_warnings_never_name_a_device_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp = dev_id(hub, "Living Room Lamp")
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [lamp]})
    data = await ok(call_tool, "hub_update_device", {"device_id": lamp, "label": "Kitchen Light"})
    assert "warnings" not in data, data


async def test_rooms_and_variables_keep_refusing_a_name_in_use(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the existing item carried in the refusal (the refusals themselves
    and that they send nothing: tests/managers/test_honest_answers.py)."""
    before = len(hub.requests)
    room = await refused(call_tool, "hub_create_room", {"name": " kitchen "})
    assert room["existing"] == {"kind": "room", "id": "1", "name": "Kitchen"}
    renamed = await refused(
        call_tool, "hub_update_room", {"room": "Office", "new_name": "LIVING ROOM"}
    )
    assert renamed["existing"] == {"kind": "room", "id": "2", "name": "Living Room"}
    variable = await refused(
        call_tool, "hub_create_variable", {"name": "GUESTCOUNT", "type": "integer", "value": 1}
    )
    assert variable["existing"]["name"] == "guestCount"
    assert sent(hub, before) == []


# ---------------------------------------------------------------- 3. the room as read back


async def test_an_update_answers_the_room_the_device_is_in(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the room in its answer (read back after each edit:
    tests/managers/test_honest_answers.py)."""
    lamp = dev_id(hub, "Living Room Lamp")
    data = await ok(call_tool, "hub_update_device", {"device_id": lamp, "tags": ["reading"]})
    assert data["room_name"] == "Living Room"
    out = await ok(call_tool, "hub_update_device", {"device_id": lamp, "room": "unassigned"})
    assert out["room_name"] is None


# ---------------------------------------------------------------- 4. performance statistics


async def test_performance_names_apps_by_their_label(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its answer (the labels, the sorting and the hub's own names without
    the app list: tests/managers/test_honest_answers.py)."""
    data = await ok(call_tool, "hub_get_performance_stats", {"type": "app", "limit": 200})
    by_id = {row["app_id"]: row for row in data["apps"]}
    goodnight = by_id[str(RULE_GOODNIGHT)]
    assert goodnight["name"] == "Goodnight" and goodnight["type"] == "Rule-5.1"


# ---------------------------------------------------------------- 5. devices gone quiet


async def test_list_devices_finds_the_devices_that_went_quiet(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: silent_for_hours read as a time before now, and refused when it is
    no span (which devices went quiet: tests/managers/test_honest_answers.py)."""
    now = datetime.now(UTC)
    quiet, never = _two_gone_quiet(hub, now)
    data = await ok(call_tool, "hub_list_devices", {"silent_for_hours": 24, "fields": ["label"]})
    assert {d["device_id"] for d in data["devices"]} == {quiet, never}
    week = await ok(call_tool, "hub_list_devices", {"silent_for_hours": 24 * 7})
    assert [d["device_id"] for d in week["devices"]] == [never]
    await refused(call_tool, "hub_list_devices", {"silent_for_hours": 0}, "invalid_arguments")
