"""MCP cases for the home surface: devices, rooms, modes, HSM and hub variables."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each home-surface tool (setup through MCP too)."""
    light = (await mcp.ok("hub_list_devices", {"text": "Kitchen Light", "limit": 1}))["devices"][0][
        "device_id"
    ]
    # things the destructive cases delete, and the backup the destructive tier needs
    await mcp.ok("hub_create_backup")
    doomed = (await mcp.ok("hub_create_device", {"driver": "Virtual Switch", "label": "Tmp"}))[
        "device"
    ]["device_id"]
    shell = (
        await mcp.ok("hub_create_device", {"driver": "Generic Z-Wave Dimmer", "label": "Shell"})
    )["device"]["device_id"]
    await mcp.ok("hub_create_room", {"name": "Tmp Room"})
    await mcp.ok("hub_create_mode", {"name": "Tmp Mode"})
    await mcp.ok("hub_create_variable", {"name": "tmpVar", "type": "string", "value": "x"})
    return {
        "hub_get_device_attribute": {
            "device_id": light,
            "attribute": "switch",
            "expected_values": ["on", "off"],
            "timeout_ms": 1000,
        },
        "hub_list_device_events": {"device_id": light, "limit": 5},
        "hub_get_event_cause": {"device_id": light},
        "hub_update_device": {"device_id": light, "label": "Kitchen Light"},
        "hub_create_device": {"driver": "Virtual Dimmer", "label": "MCP Dimmer"},
        "hub_delete_device": {"device_id": doomed, "confirm": True},
        "hub_replace_device": {"old_device_id": light, "new_device_id": shell, "confirm": True},
        "hub_search_compatible_devices": {"text": "zooz", "protocol": "Z-Wave"},
        "hub_swap_device": {"old_device_id": light, "new_device_id": doomed, "confirm": True},
        "hub_get_room": {"room": "Kitchen"},
        "hub_create_room": {"name": "Sunroom"},
        "hub_update_room": {"room": "Office", "new_name": "Study"},
        "hub_delete_room": {"room": "Tmp Room", "confirm": True},
        "hub_list_modes": {},
        "hub_set_mode": {"mode": "Away"},
        "hub_create_mode": {"name": "Party"},
        "hub_update_mode": {"mode": "Evening", "new_name": "Dusk"},
        "hub_delete_mode": {"mode": "Tmp Mode", "confirm": True},
        "hub_get_hsm_status": {},
        "hub_set_hsm": {"command": "armHome", "confirm": True},
        "hub_list_variables": {},
        "hub_get_variable": {"name": "guestCount"},
        "hub_set_variable": {"name": "guestCount", "value": 3},
        "hub_create_variable": {"name": "mcpVar", "type": "integer", "value": 7},
        "hub_delete_variable": {"name": "tmpVar", "confirm": True},
    }
