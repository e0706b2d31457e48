"""MCP cases for the Mode Manager and the hub variable inventory tools."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each Mode Manager / variables-inventory tool."""
    return {
        "hub_update_mode_manager": {
            "mode": "Night",
            "triggers": [{"type": "time", "at": "22:30"}],
            "confirm": True,  # Mode Manager is a safety system
        },
        "hub_create_connector": {"name": "guestCount"},
    }
