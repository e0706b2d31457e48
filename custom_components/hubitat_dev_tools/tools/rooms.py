"""Room tools."""

from __future__ import annotations

from typing import Any

from ..safety import ToolKind
from .base import HubTool, ToolCall


class ListRoomsTool(HubTool):
    """hub_list_rooms."""

    name = "hub_list_rooms"
    title = "List rooms"
    description = (
        "List the hub's rooms with their device counts and device ids. To see the devices of "
        "a room with their current states, use hub_list_devices with room=<name> instead."
    )
    domain = "rooms"
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return every room."""
        rooms = await call.runtime.rooms.list_rooms()
        return {"rooms": rooms, "count": len(rooms)}


ORDER = 30

TOOLS: tuple[type[HubTool], ...] = (ListRoomsTool,)
