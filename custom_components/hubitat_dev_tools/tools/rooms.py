"""Room tools."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..errors import ToolError
from ..managers.devices import DeviceFilter
from ..safety import ToolKind
from .base import HubTool, ToolCall
from .devices import DEVICE_ID

ROOM = vol.All(vol.Coerce(str), vol.Length(min=1, max=100))
IDS = vol.All([DEVICE_ID], vol.Length(max=200))


def _check_allowed(call: ToolCall, ids: list[str]) -> None:
    hidden = [i for i in ids if not call.device_allowed(i)]
    if hidden:
        raise ToolError(
            f"Device(s) {', '.join(hidden)} are not available to the assistant (device "
            "restriction in the integration's options). Nothing was changed.",
            code="device_not_allowed",
        )


class ListRoomsTool(HubTool):
    """hub_list_rooms."""

    name = "hub_list_rooms"
    title = "List rooms"
    description = (
        "List the hub's rooms with their device counts and device ids. To see the devices of "
        "a room with their current states, use hub_get_room or hub_list_devices(room=...)."
    )
    domain = "rooms"
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return every room."""
        rooms = await call.hub.rooms.list_rooms(allowed=call.device_allowed)
        return {"rooms": rooms, "count": len(rooms)}


class GetRoomTool(HubTool):
    """hub_get_room."""

    name = "hub_get_room"
    title = "Get room"
    description = (
        "One room (by name or id) with its devices and their current states. To filter "
        "devices across rooms, use hub_list_devices."
    )
    domain = "rooms"
    kind = ToolKind.READ
    fields = {vol.Required("room", description="Room name or id"): ROOM}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the room and its devices."""
        room = await call.hub.rooms.resolve(args["room"])
        devices = await call.hub.devices.list_devices(
            DeviceFilter(room=room.id), allowed=call.device_allowed
        )
        return {
            "room_id": room.id,
            "name": room.name,
            "device_count": len(devices),
            "devices": [d.as_dict() for d in devices],
        }


class CreateRoomTool(HubTool):
    """hub_create_room."""

    name = "hub_create_room"
    title = "Create room"
    description = (
        "Create a room (names are unique, case-insensitively), optionally moving devices into "
        "it (they leave their current room). Rename or change devices later with "
        "hub_update_room."
    )
    domain = "rooms"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("name", description="Room name"): ROOM,
        vol.Optional("device_ids", default=list, description="Devices to move into it"): IDS,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Create it."""
        _check_allowed(call, args["device_ids"])
        result = await call.hub.rooms.create(args["name"], args["device_ids"])
        return {
            "summary": f"Created room {result['name']} (id {result['room_id']}) with "
            f"{len(result['device_ids'])} device(s)",
            **result,
        }


class UpdateRoomTool(HubTool):
    """hub_update_room."""

    name = "hub_update_room"
    title = "Update room"
    description = (
        "Rename a room and/or assign devices to it (add_device_ids moves them from their "
        "current room) or remove devices from it (they become unassigned). To move a single "
        "device you can also use hub_update_device(room=...)."
    )
    domain = "rooms"
    kind = ToolKind.WRITE
    idempotent = True
    fields = {
        vol.Required("room", description="Room name or id"): ROOM,
        vol.Optional("new_name", description="New room name"): ROOM,
        vol.Optional("add_device_ids", default=list, description="Devices to move in"): IDS,
        vol.Optional("remove_device_ids", default=list, description="Devices to take out"): IDS,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Apply the change."""
        if not (args.get("new_name") or args["add_device_ids"] or args["remove_device_ids"]):
            raise ToolError(
                "Nothing to change: give new_name, add_device_ids or remove_device_ids."
            )
        _check_allowed(call, args["add_device_ids"] + args["remove_device_ids"])
        result = await call.hub.rooms.update(
            args["room"],
            new_name=args.get("new_name"),
            add_device_ids=args["add_device_ids"],
            remove_device_ids=args["remove_device_ids"],
        )
        parts = []
        if result["renamed_from"]:
            parts.append(f"renamed from {result['renamed_from']}")
        if result["added"]:
            parts.append(f"added {len(result['added'])} device(s)")
        if result["removed"]:
            parts.append(f"removed {len(result['removed'])} device(s) (now unassigned)")
        return {
            "summary": f"Room {result['name']}: " + (", ".join(parts) or "unchanged"),
            **result,
        }


class DeleteRoomTool(HubTool):
    """hub_delete_room."""

    name = "hub_delete_room"
    title = "Delete room"
    description = (
        "Delete a room. Its devices are NOT deleted: they become unassigned (listed in the "
        "result). Needs confirm=true and a hub backup from the last 24 hours. To rename "
        "instead, use hub_update_room."
    )
    domain = "rooms"
    kind = ToolKind.DESTRUCTIVE
    idempotent = True
    fields = {vol.Required("room", description="Room name or id"): ROOM}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Delete it."""
        result = await call.hub.rooms.delete(args["room"])
        n = len(result["devices_now_unassigned"])
        return {
            "summary": f"Deleted room {result['name']}; {n} device(s) are now unassigned",
            **result,
        }


ORDER = 30

TOOLS: tuple[type[HubTool], ...] = (
    ListRoomsTool,
    GetRoomTool,
    CreateRoomTool,
    UpdateRoomTool,
    DeleteRoomTool,
)
