"""MCP cases for the live tools (log tail, recent events)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each live tool (they work without a live stream)."""
    return {
        "hub_tail_logs": {"window_s": 0.2},
        "hub_list_recent_events": {"limit": 5},
    }
