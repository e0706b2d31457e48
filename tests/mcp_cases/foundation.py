"""MCP cases for the hub, device and room tools."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def first_device_id(mcp: Mcp, **flt: Any) -> str:
    """Find a device id through the MCP path itself."""
    listing = await mcp.ok("hub_list_devices", {**flt, "limit": 1})
    device_id: str = listing["devices"][0]["device_id"]
    return device_id


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each foundation tool."""
    dimmer = await first_device_id(mcp, capability="SwitchLevel")
    return {
        "hub_get_info": {},
        "hub_check_compatibility": {},
        "hub_create_backup": {},
        "hub_update_hub_settings": {"temperature_scale": "C"},
        "hub_list_devices": {"room": "Kitchen"},
        "hub_get_device": {"device_id": dimmer},
        "hub_get_home_summary": {"battery_threshold": 30},
        "hub_call_device_command": {"device_id": dimmer, "command": "on"},
        "hub_list_rooms": {},
    }
