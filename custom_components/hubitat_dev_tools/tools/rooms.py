"""Room tools: list, read with device states, create, rename and assign, delete, and one
command to a room's lights, fans or switches.

The device ids a call names (``device_ids``, ``add_device_ids``, ``remove_device_ids``) are
checked against the device allowlist by the safety chokepoint before ``run``; the reads
filter what they list with ``call.device_allowed``. A room delete changes devices no argument
names (the hub unassigns every device in the room): the rooms manager refuses it when the room
holds one outside the allowlist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..managers.devices import DeviceFilter
from ..managers.room_control import DEVICE_TYPES
from ..safety import ToolKind
from .args import ToolArgs, arg, numeric_id, short_text
from .base import HubTool, ToolCall, connector, on_hub

TOOL_DOMAIN = "rooms"

ROOM = short_text()
IDS = vol.All([numeric_id("device_id")], vol.Length(max=200))


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomArgs(ToolArgs):
    room: str = arg(ROOM, "Room name or id", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateRoomArgs(ToolArgs):
    name: str = arg(ROOM, "Room name", required=True)
    device_ids: list[str] = arg(IDS, "Devices to move into it", default=list)


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateRoomArgs(ToolArgs):
    room: str = arg(ROOM, "Room name or id", required=True)
    new_name: str | None = arg(ROOM, "New room name")
    add_device_ids: list[str] = arg(IDS, "Devices to move in", default=list)
    remove_device_ids: list[str] = arg(IDS, "Devices to take out", default=list)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallRoomCommandArgs(ToolArgs):
    room: str = arg(ROOM, "Room name or id", required=True)
    command: str = arg(vol.All(str, vol.Length(min=1, max=100)), "Case-sensitive", required=True)
    arguments: list[Any] | None = arg(vol.All(list, vol.Length(max=10)), "Positional, e.g. [50]")
    device_type: str = arg(vol.In(DEVICE_TYPES), "Which devices", default="lights")
    confirm: bool = arg(bool, "true for security-sensitive devices", default=False)


ROOM_WAIT_S = 2.0


class CallRoomCommandTool(HubTool[CallRoomCommandArgs]):
    name = "hub_call_room_command"
    acting = True
    covers = (
        connector("hubitat_room_turn_on"),
        connector("hubitat_room_turn_off"),
        connector("hubitat_room_light_set"),
        connector("hubitat_room_fan_on", "device_type=fans"),
        connector("hubitat_room_fan_off", "device_type=fans"),
        connector("hubitat_room_fan_set_speed", "device_type=fans, setSpeed"),
    )
    title = "Call room command"
    description = (
        "Turn all lights (default), fans or switches of a room on, off or toggle, or "
        "setLevel [50], setColorTemperature [2700], setSpeed ['low'] (all: every device "
        "declaring it). "
        "Checked like hub_call_device_command (one refusal: nothing sent). Per device: ok "
        "(state read back), unconfirmed, skipped (why), failed."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CallRoomCommandArgs) -> dict[str, Any]:
        budget_s, _cut = call.wait_budget(ROOM_WAIT_S)
        return await call.hub.room_control.call(
            args.room,
            args.command,
            args.arguments,
            device_type=args.device_type,
            confirm=args.confirm,
            allowed=call.device_allowed,
            wait_ms=int(budget_s * 1000),
        )


class ListRoomsTool(HubTool[ToolArgs]):
    name = "hub_list_rooms"
    covers = (
        on_hub("hub_list_rooms"),
        connector("list_rooms"),
    )
    title = "List rooms"
    description = (
        "List the hub's rooms with their device counts and device ids. To see the devices of "
        "a room with their current states, use hub_get_room or hub_list_devices(room=...)."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        rooms = await call.hub.rooms.list_rooms(allowed=call.device_allowed)
        return {"rooms": rooms, "count": len(rooms)}


class GetRoomTool(HubTool[RoomArgs]):
    name = "hub_get_room"
    covers = (on_hub("hub_get_room"),)
    title = "Get room"
    description = (
        "One room (by name or id) with its devices and their current states. To filter "
        "devices across rooms, use hub_list_devices."
    )

    async def run(self, call: ToolCall, args: RoomArgs) -> dict[str, Any]:
        room = await call.hub.rooms.resolve(args.room)
        devices = await call.hub.devices.list_devices(
            DeviceFilter(room=room.id), allowed=call.device_allowed
        )
        return {
            "room_id": room.id,
            "name": room.name,
            "device_count": len(devices),
            "devices": [d.as_dict() for d in devices],
        }


class CreateRoomTool(HubTool[CreateRoomArgs]):
    name = "hub_create_room"
    covers = (on_hub("hub_create_room"),)
    title = "Create room"
    description = (
        "Create a room (a name no other room has), optionally moving devices into it (they "
        "leave their room). Rename or change it: hub_update_room."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CreateRoomArgs) -> dict[str, Any]:
        result = await call.hub.rooms.create(args.name, args.device_ids)
        return {
            "summary": f"Created room {result['name']} (id {result['room_id']}) with "
            f"{len(result['device_ids'])} device(s)",
            **result,
        }


class UpdateRoomTool(HubTool[UpdateRoomArgs]):
    name = "hub_update_room"
    covers = (on_hub("hub_update_room"),)
    title = "Update room"
    description = (
        "Rename a room and/or assign devices to it (add_device_ids moves them from their "
        "current room) or remove devices from it (they become unassigned). To move a single "
        "device you can also use hub_update_device(room=...)."
    )
    kind = ToolKind.WRITE
    idempotent = True

    async def run(self, call: ToolCall, args: UpdateRoomArgs) -> dict[str, Any]:
        if not (args.new_name or args.add_device_ids or args.remove_device_ids):
            raise ToolError(
                "Nothing to change: give new_name, add_device_ids or remove_device_ids."
            )
        result = await call.hub.rooms.update(
            args.room,
            new_name=args.new_name,
            add_device_ids=args.add_device_ids,
            remove_device_ids=args.remove_device_ids,
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


class DeleteRoomTool(HubTool[RoomArgs]):
    name = "hub_delete_room"
    covers = (on_hub("hub_delete_room"),)
    title = "Delete room"
    description = (
        "Delete a room. Its devices are NOT deleted: they become unassigned (listed in the "
        "result). To rename instead, use hub_update_room."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = True

    async def run(self, call: ToolCall, args: RoomArgs) -> dict[str, Any]:
        result = await call.hub.rooms.delete(args.room, allowed=call.device_allowed)
        n = len(result["devices_now_unassigned"])
        return {
            "summary": f"Deleted room {result['name']}; {n} device(s) are now unassigned",
            **result,
        }


ORDER = 30

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListRoomsTool,
    GetRoomTool,
    CreateRoomTool,
    UpdateRoomTool,
    DeleteRoomTool,
    CallRoomCommandTool,
)
