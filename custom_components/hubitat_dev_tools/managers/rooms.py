"""Rooms: list with device counts, read with states, create, rename, assign, delete."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from ..errors import ToolError
from ..hub.controllers import RoomsController
from ..hub.models import Room

Allowed = Callable[[str], bool]


class RoomSummary(TypedDict):
    """A room in the list: its (allowed) devices' count and ids."""

    room_id: str
    name: str
    device_count: int
    device_ids: list[str]


class CreatedRoom(TypedDict):
    """A new room and the devices moved into it."""

    room_id: str
    name: str
    device_ids: list[str]


class RoomUpdate(TypedDict):
    """What :meth:`RoomManager.update` changed (``renamed_from`` None when the name stayed)."""

    room_id: str
    name: str
    renamed_from: str | None
    added: list[str]
    removed: list[str]
    device_count: int


class DeletedRoom(TypedDict):
    """A deleted room and its devices, now in no room."""

    room_id: str
    name: str
    devices_now_unassigned: list[str]


def _allow_all(_device_id: str) -> bool:
    return True


class RoomManager:
    """Room reads and writes."""

    def __init__(
        self, rooms: RoomsController, devices_changed: Callable[[], None] | None = None
    ) -> None:
        self._rooms = rooms
        # Rooms show in the device list: a room write makes its next read re-read the hub.
        self._devices_changed = devices_changed or (lambda: None)

    async def list_rooms(self, *, allowed: set[str] | Allowed | None = None) -> list[RoomSummary]:
        """Every room with its device count and ids (restricted to allowed devices)."""
        ok = self._predicate(allowed)
        rooms = await self._rooms.list()
        out = []
        for room in rooms:
            ids = [d for d in room.device_ids if ok(d)]
            out.append(
                RoomSummary(room_id=room.id, name=room.name, device_count=len(ids), device_ids=ids)
            )
        return sorted(out, key=lambda r: str(r["name"]).lower())

    @staticmethod
    def _predicate(allowed: set[str] | Allowed | None) -> Allowed:
        if allowed is None:
            return _allow_all
        if isinstance(allowed, set):
            return allowed.__contains__
        return allowed

    async def resolve(self, room: str) -> Room:
        """A room by name (case-insensitive) or id, or a refusal listing the rooms."""
        rooms = await self._rooms.list()
        wanted = room.strip()
        for r in rooms:
            if r.id == wanted or r.name.lower() == wanted.lower():
                return r
        raise ToolError(
            f"No room '{room}' on the hub. Rooms: {', '.join(r.name for r in rooms) or 'none'}.",
            subject="room",
        )

    async def _check_name(self, name: str, *, except_id: str | None = None) -> str:
        """The name trimmed; refused when another room has it (case-insensitive). A device
        or rule of that name is no clash: rooms are compared with rooms only."""
        clean = name.strip()
        if not clean:
            raise ToolError("A room name cannot be empty.")
        for r in await self._rooms.list():
            if r.name.lower() == clean.lower() and r.id != except_id:
                raise ToolError(  # the hub refuses a second room of one name too
                    f"A room named '{r.name}' already exists (id {r.id}).",
                    hint="Pick another name, or change the existing room.",
                    subject="room_exists",
                    extra={"existing": {"kind": "room", "id": r.id, "name": r.name}},
                )
        return clean

    async def create(self, name: str, device_ids: list[str]) -> CreatedRoom:
        """Create a room, optionally moving devices into it."""
        clean = await self._check_name(name)
        await self._check_devices(device_ids)
        room_id = await self._rooms.save("0", clean, device_ids)
        self._devices_changed()
        return {"room_id": room_id, "name": clean, "device_ids": device_ids}

    async def _check_devices(self, device_ids: list[str]) -> None:
        if not device_ids:
            return
        known = {d for r in await self._rooms.list() for d in r.device_ids}
        known |= await self._rooms.device_ids()
        missing = [d for d in device_ids if d not in known]
        if missing:
            raise ToolError(
                f"No device with id {', '.join(missing)} on the hub. Nothing was changed.",
                subject="device_ids",
            )

    async def update(
        self,
        room: str,
        *,
        new_name: str | None,
        add_device_ids: list[str],
        remove_device_ids: list[str],
    ) -> RoomUpdate:
        """Rename a room and/or change its devices (the complete membership is re-sent)."""
        current = await self.resolve(room)
        name = current.name
        if new_name is not None and new_name.strip() != current.name:
            name = await self._check_name(new_name, except_id=current.id)
        not_members = [d for d in remove_device_ids if d not in current.device_ids]
        if not_members:
            raise ToolError(
                f"Device(s) {', '.join(not_members)} are not in room '{current.name}'. "
                "Nothing was changed."
            )
        await self._check_devices(add_device_ids)
        members = [d for d in current.device_ids if d not in remove_device_ids]
        members += [d for d in add_device_ids if d not in members]
        await self._rooms.save(current.id, name, members)
        self._devices_changed()
        return {
            "room_id": current.id,
            "name": name,
            "renamed_from": current.name if name != current.name else None,
            "added": [d for d in add_device_ids if d not in current.device_ids],
            "removed": remove_device_ids,
            "device_count": len(members),
        }

    async def delete(self, room: str, *, allowed: set[str] | Allowed | None = None) -> DeletedRoom:
        """Delete a room; its devices become unassigned.

        Deleting a room changes every device in it (the hub unassigns them), so a room that
        holds a device outside ``allowed`` is refused before anything is sent. The refusal
        gives only their count: an outside device is never named.
        """
        current = await self.resolve(room)
        ok = self._predicate(allowed)
        outside = sum(1 for d in current.device_ids if not ok(d))
        if outside:
            raise ToolError(
                f"Room '{current.name}' holds {outside} device(s) outside this integration's "
                "device allowlist; deleting it would unassign them. Nothing was changed.",
                code="device_not_allowed",
                hint="Move those devices out of the room in the hub's UI first, or widen the "
                "device allowlist in the integration's options.",
            )
        await self._rooms.delete(current.id)
        self._devices_changed()
        return {
            "room_id": current.id,
            "name": current.name,
            "devices_now_unassigned": current.device_ids,
        }
