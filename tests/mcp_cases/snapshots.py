"""MCP cases for the configuration snapshot tools."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each snapshot tool."""
    taken = await mcp.ok("hub_create_snapshot")
    return {
        "hub_create_snapshot": {},
        "hub_list_snapshots": {},
        "hub_diff_snapshots": {"from_snapshot": taken["name"]},
    }
