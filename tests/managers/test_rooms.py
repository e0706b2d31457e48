"""The rooms manager (``managers/rooms.py``) on its own, no hass: list, resolve by name or
id, create, rename, assign, unassign, delete (as the hub UI deletes, refused when the room
holds a device outside the allowed ones), and the refusals that send nothing.

Moved from tests/tools/test_rooms.py (the rooms logic is the manager's; the tools' summaries,
the confirmation gate, the device allowlist as the tools apply it, the "nothing to change"
refusal and the error a failing hub answers stay there; the parsing of the hub's recorded
room answers, the save and the delete decided by listing the rooms again and the emulated
hub's room save answer are the library's: tests/hub/test_rooms.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.rooms import RoomManager, RoomUpdate
from hubitat_emulator import HubEmulator

from ..home_util import dev_id, sent


def room_of(hub: HubEmulator, label: str) -> str | None:
    room: str | None = hub.find_device(label)["room"]
    return room


async def test_list_and_resolve_room(manager_hub: Hub) -> None:
    rooms = await manager_hub.rooms.list_rooms()
    names = [r["name"] for r in rooms]
    assert names == sorted(names, key=str.lower)
    kitchen = next(r for r in rooms if r["name"] == "Kitchen")
    assert kitchen["device_count"] == len(kitchen["device_ids"]) > 0
    by_name = await manager_hub.rooms.resolve("kitchen")
    assert by_name.name == "Kitchen" and by_name.device_ids == kitchen["device_ids"]
    by_id = await manager_hub.rooms.resolve(kitchen["room_id"])
    assert by_id.name == "Kitchen"
    with pytest.raises(ToolError, match="Kitchen") as missing:
        await manager_hub.rooms.resolve("Attic")
    assert "No room 'Attic'" in str(missing.value)


async def test_create_update_delete_room(emu: HubEmulator, manager_hub: Hub) -> None:
    rooms = manager_hub.rooms
    lamp, fan = dev_id(emu, "Guest Lamp"), dev_id(emu, "Living Room Fan")
    made = await rooms.create("Sunroom", [lamp])
    assert made["name"] == "Sunroom" and made["device_ids"] == [lamp]
    assert room_of(emu, "Guest Lamp") == "Sunroom"
    data = await rooms.update(
        "sunroom", new_name="Conservatory", add_device_ids=[fan], remove_device_ids=[]
    )
    assert data["renamed_from"] == "Sunroom" and data["added"] == [fan]
    assert data["room_id"] == made["room_id"] and data["device_count"] == 2
    assert room_of(emu, "Living Room Fan") == "Conservatory"
    assert room_of(emu, "Guest Lamp") == "Conservatory"  # existing members kept
    data = await rooms.update(
        "Conservatory", new_name=None, add_device_ids=[], remove_device_ids=[fan]
    )
    assert data["renamed_from"] is None and data["removed"] == [fan]
    assert room_of(emu, "Living Room Fan") is None
    deleted = await rooms.delete("Conservatory")
    assert deleted["devices_now_unassigned"] == [lamp]
    assert room_of(emu, "Guest Lamp") is None
    assert "Conservatory" not in [r["name"] for r in await rooms.list_rooms()]


async def _update(
    rooms: RoomManager,
    room: str,
    *,
    new_name: str | None = None,
    remove_device_ids: list[str] | None = None,
) -> RoomUpdate:
    return await rooms.update(
        room, new_name=new_name, add_device_ids=[], remove_device_ids=remove_device_ids or []
    )


async def test_room_refusals_send_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    rooms = manager_hub.rooms
    lamp = dev_id(emu, "Guest Lamp")
    before = len(emu.requests)
    attempts: list[tuple[Callable[[], Awaitable[Any]], str]] = [
        (lambda: rooms.create("kitchen", []), "already exists"),
        (lambda: rooms.create("Attic", ["99999"]), "99999"),
        (lambda: _update(rooms, "Office", new_name="Kitchen"), "already exists"),
        (lambda: _update(rooms, "Office", remove_device_ids=[lamp]), "not in room"),
        (lambda: _update(rooms, "Attic", new_name="X"), "No room"),
    ]
    for attempt, word in attempts:
        with pytest.raises(ToolError) as refused:
            await attempt()
        assert word in str(refused.value), (word, str(refused.value))
    assert sent(emu, before) == []


async def test_delete_refuses_a_room_holding_devices_outside_allowed(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """The manager's own check behind the allowlist: a room holding a device outside
    ``allowed`` is refused before anything is sent, its devices counted, never named."""
    lamp = dev_id(emu, "Guest Lamp")
    guest = next(r for r in emu.rooms.values() if r["name"] == "Guest Bedroom")
    outside = [str(d) for d in guest["deviceIds"] if str(d) != lamp]
    assert outside  # the seeded room holds devices besides the lamp
    listed = await manager_hub.rooms.list_rooms(allowed={lamp})
    assert [d for r in listed for d in r["device_ids"]] == [lamp]
    before = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await manager_hub.rooms.delete("Guest Bedroom", allowed={lamp})
    assert refused.value.code == "device_not_allowed"
    message = str(refused.value)
    assert f"holds {len(outside)} device(s) outside" in message and "Nothing was changed" in message
    assert not any(str(emu.device(d)["label"]) in message for d in outside)
    assert [p for _m, p in emu.requests[before:] if p.startswith("/room/")] == []
    assert room_of(emu, "Guest Lamp") == "Guest Bedroom" and guest["id"] in emu.rooms
    # a room of allowed devices only (or none) still deletes
    made = await manager_hub.rooms.create("Attic", [lamp])
    deleted = await manager_hub.rooms.delete("Attic", allowed={lamp})
    assert deleted["room_id"] == made["room_id"] and deleted["devices_now_unassigned"] == [lamp]


async def test_room_delete_follows_the_hub_ui(emu: HubEmulator, manager_hub: Hub) -> None:
    """The delete is the hub UI's GET of /room/delete/<id>, and the room's devices become
    unassigned (the emulated hub's save answer in the recorded shape:
    tests/hub/test_rooms.py::test_room_save_and_delete_follow_the_hub_ui)."""
    lamp = dev_id(emu, "Guest Lamp")
    made = await manager_hub.rooms.create("Attic", [lamp])
    before = len(emu.requests)
    data = await manager_hub.rooms.delete("Attic")
    assert data["devices_now_unassigned"] == [lamp] and room_of(emu, "Guest Lamp") is None
    deletes = [(m, p) for m, p in emu.requests[before:] if p.startswith("/room/delete/")]
    assert deletes == [("GET", f"/room/delete/{made['room_id']}")]
