"""MCP cases for creating app instances (Add Built-In App / Add User App)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each app-creation tool."""
    return {"hub_create_app": {"app_type": "Basic Rule", "name": "MCP basic rule"}}
