"""The audit trail of changes made through these tools.

It never talks to a hub (``hub_access = False``): no ``hub`` argument, the Read/Write
masters do not apply; the admin check and the disable lists do, like for every tool.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..audit import OUTCOMES
from ..domain_data import get_domain_data
from .args import ToolArgs, arg
from .base import HubTool, ToolCall
from .paging import cursor_arg, limit_arg, paginate

TOOL_DOMAIN = "hub"


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditEntriesArgs(ToolArgs):
    tool: str | None = arg(str, "Only this tool")
    outcome: str | None = arg(vol.In(list(OUTCOMES)), "Only this outcome")
    hub_name: str | None = arg(str, "Only this hub")
    limit: int = limit_arg(default=50, maximum=200)
    cursor: str | None = cursor_arg()


class ListAuditEntriesTool(HubTool[AuditEntriesArgs]):
    name = "hub_list_audit_entries"
    title = "List audit entries"
    description = (
        "The audit trail of changes made through these tools, newest first: time, Home "
        "Assistant user, tool, gateway, hub, redacted arguments, outcome (ok, refused, "
        "failed, interrupted; started while running). Answers 'who changed X' or 'what did "
        "the assistant do'."
    )
    hub_access = False

    async def run(self, call: ToolCall, args: AuditEntriesArgs) -> dict[str, Any]:
        """Filter and page the stored records."""
        shared = get_domain_data(call.hass)
        records = shared.audit.recent(None) if shared else []
        if tool := args.tool:
            records = [r for r in records if r.get("tool") == tool or r.get("gateway") == tool]
        if outcome := args.outcome:
            records = [r for r in records if r.get("outcome") == outcome]
        if hub := args.hub_name:
            records = [r for r in records if str(r.get("hub") or "").lower() == hub.lower()]
        return paginate(records, args, key="entries", default_limit=50)


# Right after the catalog tools (ORDER 900), as when they shared one module.
ORDER = 901

TOOLS: tuple[type[HubTool[Any]], ...] = (ListAuditEntriesTool,)
