"""MCP cases for the radio firmware tool (issue 17)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """A Z-Wave device firmware install: a node and file the emulated updater lists."""
    await mcp.ok("hub_create_backup")  # destructive: a backup from the last 24 hours
    status = await mcp.ok("hub_get_radio_details", {"radio": "zwave", "include": ["firmware"]})
    firmware = status["firmware"]
    return {
        "hub_install_radio_firmware": {
            "radio": "zwave",
            "node_id": firmware["devices"][0]["node_id"],
            "file_name": firmware["files"][0],
            "confirm": True,
        }
    }
