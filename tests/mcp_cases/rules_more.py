"""MCP cases for the rule additions: several rules in one call, graph Visual Rule drafts."""

from __future__ import annotations

from typing import Any

from ..mcp_client import Mcp


async def cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """A graph draft checked through MCP in setup; hub_call_rule's case is the batch form."""
    draft = await mcp.ok(
        "hub_create_visual_rule",
        {
            "name": "MCP graph draft",
            "nodes": [
                {"id": "trigger-1", "type": "trigger", "triggerType": "timeOfDay",
                 "timeOfDay": "0730"},
                {"id": "action-1", "type": "action", "actionType": "setMode", "mode": 1},
            ],
            "edges": [{"from": "trigger-1", "to": "action-1", "port": "next"}],
            "validate_only": True,
        },
    )  # fmt: skip
    assert draft["valid"] is True, draft
    return {"hub_call_rule": {"app_ids": ["140"], "action": "stop"}}
