"""MCP cases for the catalog tools (search, guide, audit trail)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each catalog tool."""
    return {
        "hub_search_tools": {"query": "turn on the kitchen light"},
        "hub_get_tool_guide": {"section": "safety"},
        "hub_list_audit_entries": {"limit": 5},
    }
