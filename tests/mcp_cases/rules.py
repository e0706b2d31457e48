"""MCP cases for rule authoring (native Rule Machine rules from a spec)."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Arguments for a successful call of each rule-authoring tool."""
    devices = (await mcp.ok("hub_list_devices", {"text": "kitchen", "fields": ["label"]}))[
        "devices"
    ]
    by_label = {d["label"]: d["device_id"] for d in devices}
    motion, light = by_label["Kitchen Motion"], by_label["Kitchen Light"]
    spec = {
        "name": "MCP motion light",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"command": "on", "device_ids": [light]}],
    }
    # setup calls by name: unlisted tools are routed through their gateway by the API
    built = await mcp.ok("hub_create_rule", {"rule": spec})
    return {
        "hub_create_rule": {"rule": {**spec, "name": "MCP motion light 2"}},
        "hub_get_rule": {"app_id": built["app_id"]},
        "hub_update_rule": {
            "app_id": built["app_id"],
            "patch": [{"op": "replace", "path": "/name", "value": "MCP renamed"}],
        },
    }
