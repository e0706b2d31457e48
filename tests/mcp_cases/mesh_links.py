"""MCP case for hub_update_hub_mesh (settings, switch, links and the page's buttons)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """A setting and a button in one call (both safe to repeat on the seeded hub)."""
    return {"hub_update_hub_mesh": {"full_refresh_interval_s": 300, "action": "full_sync"}}
