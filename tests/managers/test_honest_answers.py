"""Honest answers an owner asked for, given by the managers on their own, no hass: warnings
for a device named like another device, a room or a rule (device administration,
``managers/devices/admin.py``), rooms and variables refusing a name already in use
(``managers/rooms.py``, ``managers/variables.py``), the room a device is in as read back
after an edit, apps named by their label in the performance statistics
(``managers/logs.py``) and the devices that went quiet (the device filter of
``managers/devices/query.py``), over the emulated hub.

Moved from tests/tools/test_honest_answers.py (test_a_device_named_like_another_item_is_made_
with_a_warning, test_rooms_and_variables_keep_refusing_a_name_in_use,
test_an_update_answers_the_room_the_device_is_in, test_performance_names_apps_by_their_label,
test_list_devices_finds_the_devices_that_went_quiet); the changes list (read from this
integration's audit trail), the allowlist, the summaries and one call of each tool stay
there."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.devices import DeviceFilter, DeviceUpdate
from custom_components.hubitat_dev_tools.managers.devices.admin import NameWarning
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import RULE_GOODNIGHT

from ..helpers.honest_answers import _two_gone_quiet
from ..home_util import dev_id, sent


def _allow_all(_device_id: str) -> bool:
    return True


def _named(warnings: list[NameWarning]) -> set[tuple[str, str, str]]:
    return {(w["kind"], w["id"], w["name"]) for w in warnings}


async def test_a_device_named_like_another_item_is_made_with_a_warning(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    admin = manager_hub.devices.admin
    light = dev_id(emu, "Kitchen Light")
    made = await admin.create_device("Virtual Switch", "KITCHEN LIGHT")
    new_id = made["device"]["device_id"]
    assert emu.device(new_id)["label"] == "KITCHEN LIGHT"  # still made
    assert _named(made.get("warnings", [])) == {("device", light, "Kitchen Light")}
    assert light in made.get("warnings", [])[0]["message"]

    # renamed like a room (trimmed, case-insensitive), or named like a rule
    room = await admin.update_device(new_id, DeviceUpdate(label=" living room "))
    assert emu.device(new_id)["label"] == "living room"
    assert _named(room.get("warnings", [])) == {("room", "2", "Living Room")}
    rule = await admin.update_device(new_id, DeviceUpdate(name="goodnight"))
    assert _named(rule.get("warnings", [])) == {("rule", str(RULE_GOODNIGHT), "Goodnight")}

    # its own name is no clash; a name nothing else has: no warnings
    same = await admin.update_device(light, DeviceUpdate(label="Kitchen Light"))
    assert "warnings" not in same
    fresh = await admin.create_device("Virtual Switch", "Attic Fan Switch")
    assert "warnings" not in fresh
    # a device outside the allowlist is never named
    lamp = dev_id(emu, "Living Room Lamp")
    hidden = await admin.update_device(
        lamp, DeviceUpdate(label="Kitchen Light"), allowed=lambda d: d == lamp
    )
    assert "warnings" not in hidden, hidden


async def test_rooms_and_variables_keep_refusing_a_name_in_use(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = len(emu.requests)
    with pytest.raises(ToolError) as room:
        await manager_hub.rooms.create(" kitchen ", [])
    assert room.value.extra == {"existing": {"kind": "room", "id": "1", "name": "Kitchen"}}
    with pytest.raises(ToolError) as renamed:
        await manager_hub.rooms.update(
            "Office", new_name="LIVING ROOM", add_device_ids=[], remove_device_ids=[]
        )
    assert renamed.value.extra == {"existing": {"kind": "room", "id": "2", "name": "Living Room"}}
    with pytest.raises(ToolError) as variable:
        await manager_hub.variables.create_variable("GUESTCOUNT", "integer", 1)
    assert variable.value.extra is not None
    assert variable.value.extra["existing"]["name"] == "guestCount"
    # a variable the Maker API instance does not see is still one of that name
    emu.maker_variable_names = {"guestCount"}
    with pytest.raises(ToolError) as hidden:
        await manager_hub.variables.create_variable("VacationMode", "boolean", True)
    assert hidden.value.extra is not None
    assert hidden.value.extra["existing"]["name"] == "vacationMode"
    assert sent(emu, before) == []
    # a room may be named like a device: rooms clash with rooms only
    made = await manager_hub.rooms.create("Porch Light", [])
    assert made["name"] == "Porch Light"
    assert "Porch Light" in {r.name for r in emu.state.rooms.values()}


async def test_an_update_answers_the_room_the_device_is_in(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    admin = manager_hub.devices.admin
    lamp = dev_id(emu, "Living Room Lamp")
    data = await admin.update_device(lamp, DeviceUpdate(tags=["reading"]))
    assert data["room_name"] == "Living Room"
    moved = await admin.update_device(lamp, DeviceUpdate(room="office"))
    assert moved["room_name"] == "Office" == emu.device(lamp)["room"]
    out = await admin.update_device(lamp, DeviceUpdate(room="unassigned"))
    assert out["room_name"] is None and emu.device(lamp)["room"] is None


async def test_performance_names_apps_by_their_label(emu: HubEmulator, manager_hub: Hub) -> None:
    logs = manager_hub.logs
    data = await logs.performance("app", "pct", 200, device_allowed=_allow_all)
    by_id = {row["app_id"]: row for row in data["apps"]}
    goodnight = by_id[str(RULE_GOODNIGHT)]
    assert goodnight["name"] == "Goodnight" and goodnight["type"] == "Rule-5.1"
    assert not [row for row in data["apps"] if row["name"].startswith("Rule-")]
    by_name = await logs.performance("app", "name", 20, device_allowed=_allow_all)
    names = [row["name"].lower() for row in by_name["apps"]]
    assert names == sorted(names)
    # without the app list, the hub's own names
    emu.faults.fail_paths["/hub2/appsList"] = 500
    plain = await logs.performance("app", "pct", 200, device_allowed=_allow_all)
    assert {row["app_id"] for row in plain["apps"]} == set(by_id)
    assert plain["apps"] and any(row["name"].startswith("Rule-") for row in plain["apps"])


async def test_list_devices_finds_the_devices_that_went_quiet(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    now = datetime.now(UTC)
    quiet, never = _two_gone_quiet(emu, now)
    day = await manager_hub.devices.list_devices(
        DeviceFilter(silent_since=now - timedelta(hours=24))
    )
    assert {d.id for d in day} == {quiet, never}
    week = await manager_hub.devices.list_devices(
        DeviceFilter(silent_since=now - timedelta(hours=24 * 7))
    )
    assert [d.id for d in week] == [never]
