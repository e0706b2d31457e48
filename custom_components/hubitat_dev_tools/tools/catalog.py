"""Catalog tools: find a tool, read the guide, read the audit trail.

They never talk to a hub (``hub_access = False``): no ``hub`` argument, the Read/Write
masters do not apply; the admin check and the disable lists do, like for every tool.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import probatio as vol

from ..const import SURFACE_FLAT
from ..domain_data import get_domain_data
from ..errors import ToolError
from ..safety import ToolKind
from .base import HubTool, ToolCall
from .guide import build_sections
from .paging import paginate, paging_fields
from .search import Bm25Index, tool_text
from .surface import current_reachable, describe, how_to_call, registry, visibility


@cache
def _index() -> Bm25Index:
    return Bm25Index({name: tool_text(tool) for name, tool in registry().items()})


class SearchToolsTool(HubTool):
    """hub_search_tools."""

    name = "hub_search_tools"
    title = "Search tools"
    description = (
        "Find the tool for a task in plain words (e.g. 'dim the kitchen lights'): best "
        "matches with their input schemas and how to call them."
    )
    domain = "catalog"
    kind = ToolKind.READ
    core = True
    hub_access = False
    fields = {
        vol.Required("query", description="What you want to do"): vol.All(
            str, vol.Length(min=1, max=300)
        ),
        vol.Optional("max_results", default=5): vol.All(int, vol.Range(min=1, max=20)),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Rank every reachable tool against the query."""
        reachable = current_reachable(call.hass)
        surface = visibility(call.hass).surface
        reachable = reachable - {self.name}  # never answer "use the search tool"
        hits = _index().search(args["query"], reachable)[: args["max_results"]]
        tools = registry()
        results = []
        for hit in hits:
            tool = tools[hit.name]
            entry = describe(tool)
            entry["call"] = how_to_call(tool, surface)
            entry["score"] = hit.score
            results.append(entry)
        out: dict[str, Any] = {"query": args["query"], "results": results}
        if not results:
            out["hint"] = (
                "No tool matched. Try other words, or read hub_get_tool_guide(section='overview')."
            )
        return out


class GetToolGuideTool(HubTool):
    """hub_get_tool_guide."""

    name = "hub_get_tool_guide"
    title = "Get tool guide"
    description = (
        "How to use these tools, by section: overview, safety (confirm, backups, error "
        "codes), devices (commands), paging, audit, or a domain. Gateways (hub_read_*, "
        "hub_manage_*): call with no arguments for their tools' schemas, then with tool "
        "and args."
    )
    domain = "catalog"
    kind = ToolKind.READ
    core = True
    hub_access = False
    fields = {vol.Optional("section", description="Section name, e.g. safety"): str}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return one section (or the overview and the section names)."""
        reachable = current_reachable(call.hass)
        surface = visibility(call.hass).surface
        rows = [
            {
                "name": t.name,
                "title": t.title,
                "kind": str(t.kind),
                "domain": t.domain,
                "gateway": t.gateway() if surface != SURFACE_FLAT else None,
            }
            for t in registry().values()
            if t.name in reachable
        ]
        sections = build_sections(rows)
        wanted = (args.get("section") or "overview").strip().lower()
        if wanted not in sections:
            raise ToolError(
                f"No guide section '{wanted}'. Sections: {', '.join(sections)}.",
                hint="Call again with one of the listed sections.",
            )
        return {"section": wanted, "text": sections[wanted], "sections": list(sections)}


class ListAuditEntriesTool(HubTool):
    """hub_list_audit_entries."""

    name = "hub_list_audit_entries"
    title = "List audit entries"
    description = (
        "The audit trail of changes made through these tools, newest first: time, Home "
        "Assistant user, tool, gateway, hub, redacted arguments, outcome (ok, refused, "
        "failed). Answers 'who changed X' or 'what did the assistant do'."
    )
    domain = "hub"
    kind = ToolKind.READ
    hub_access = False
    fields = {
        vol.Optional("tool", description="Only this tool"): str,
        vol.Optional("outcome", description="Only this outcome"): vol.In(
            ["ok", "refused", "failed"]
        ),
        vol.Optional("hub_name", description="Only this hub"): str,
        **paging_fields(default_limit=50, max_limit=200),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Filter and page the stored records."""
        shared = get_domain_data(call.hass)
        records = shared.audit.recent(None) if shared else []
        if tool := args.get("tool"):
            records = [r for r in records if r.get("tool") == tool or r.get("gateway") == tool]
        if outcome := args.get("outcome"):
            records = [r for r in records if r.get("outcome") == outcome]
        if hub := args.get("hub_name"):
            records = [r for r in records if str(r.get("hub") or "").lower() == hub.lower()]
        return paginate(records, args, key="entries", default_limit=50)


ORDER = 900

TOOLS: tuple[type[HubTool], ...] = (
    SearchToolsTool,
    GetToolGuideTool,
    ListAuditEntriesTool,
)
