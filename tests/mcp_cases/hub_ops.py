"""MCP cases for the hub-operation tools (network tests, LED and memory, network settings)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each hub-operation tool."""
    await mcp.ok("hub_create_backup")  # the network settings tool is destructive
    return {
        "hub_call_network_test": {"test": "ping", "host": "1.1.1.1"},
        "hub_call_hub_action": {"action": "blink_led"},
        "hub_update_network_settings": {"cloud_enabled": False, "confirm": True},
    }
