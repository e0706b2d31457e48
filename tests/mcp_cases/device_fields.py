"""MCP cases for the device-page fields' part: the Hub Mesh read (its write: mesh_links.py).

(hub_update_device's and hub_list_events' cases live in home.py and ops.py; their new
fields are exercised directly in test_device_fields.py and test_app_events.py.)
"""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each tool of this part."""
    return {
        "hub_get_hub_mesh": {},
    }
