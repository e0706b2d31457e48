"""MCP cases for room control and Groups and Scenes scenes."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each room-control and scene tool."""
    return {
        "hub_call_room_command": {"room": "Kitchen", "command": "setLevel", "arguments": [40]},
        "hub_list_scenes": {},
        "hub_call_scene": {"scene": "Movie Time"},
    }
