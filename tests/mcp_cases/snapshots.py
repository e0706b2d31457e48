"""MCP cases for the configuration snapshot tools."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each snapshot tool."""
    taken = await mcp.ok("hub_create_snapshot")
    planned = await mcp.ok("hub_get_restore_plan", {"snapshot": taken["name"]})
    return {
        "hub_create_snapshot": {},
        "hub_list_snapshots": {},
        "hub_diff_snapshots": {"from_snapshot": taken["name"]},
        "hub_get_restore_plan": {"snapshot": taken["name"]},
        # the hub is as the snapshot has it: an empty plan, nothing to do
        "hub_restore_snapshot": {"snapshot": taken["name"], "plan_id": planned["plan_id"]},
    }
