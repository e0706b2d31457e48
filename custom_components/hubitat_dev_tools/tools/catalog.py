"""Catalog tools: find a tool and read the guide (the audit trail is in tools/audit.py).

They never talk to a hub (``hub_access = False``): no ``hub`` argument, the Read/Write
masters do not apply; the admin check and the disable lists do, like for every tool.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import probatio as vol

from ..const import SURFACE_FLAT
from ..errors import ToolError
from .args import ToolArgs, arg
from .base import HubTool, ToolCall, on_hub
from .guide import build_sections
from .search import Bm25Index, tool_text
from .surface import brief, current_reachable, describe, how_to_call, registry, visibility

TOOL_DOMAIN = "catalog"


@cache
def _index() -> Bm25Index:
    return Bm25Index({name: tool_text(tool) for name, tool in registry().items()})


def _reachable_on(call: ToolCall) -> tuple[frozenset[str], str]:
    """The tools this call may reach, and the surface they are served on."""
    return current_reachable(call.hass), visibility(call.hass).surface


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchToolsArgs(ToolArgs):
    query: str = arg(vol.All(str, vol.Length(min=1, max=300)), "What you want to do", required=True)
    max_results: int = arg(vol.All(int, vol.Range(min=1, max=20)), default=5)
    schemas: bool = arg(bool, "true: each match's full input schema", default=False)


class SearchToolsTool(HubTool[SearchToolsArgs]):
    name = "hub_search_tools"
    covers = (on_hub("hub_search_tools"),)
    title = "Search tools"
    description = (
        "Find the tool for a task in plain words or a whole sentence (e.g. 'dim the kitchen "
        "lights'): best matches with purpose, required args and how to call them "
        "(schemas=true: full schemas)."
    )
    core = True
    hub_access = False

    async def run(self, call: ToolCall, args: SearchToolsArgs) -> dict[str, Any]:
        """Rank every reachable tool against the query."""
        reachable, surface = _reachable_on(call)
        reachable = reachable - {self.name}  # never answer "use the search tool"
        hits = _index().search(args.query, reachable)[: args.max_results]
        tools = registry()
        results = []
        for hit in hits:
            tool = tools[hit.name]
            entry = describe(tool) if args.schemas else brief(tool)
            entry["call"] = how_to_call(tool, surface)
            entry["score"] = hit.score
            results.append(entry)
        out: dict[str, Any] = {"query": args.query, "results": results}
        if not results:
            out["hint"] = (
                "No tool matched. Try other words, or read hub_get_tool_guide(section='overview')."
            )
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolGuideArgs(ToolArgs):
    section: str | None = arg(str, "Section name, e.g. safety")


class GetToolGuideTool(HubTool[ToolGuideArgs]):
    name = "hub_get_tool_guide"
    covers = (on_hub("hub_get_tool_guide"),)
    title = "Get tool guide"
    description = (
        "How to use these tools, by section: overview, safety (confirm, backups, error "
        "codes), devices (commands), paging, audit, rules, or a domain. Gateways: call "
        "with tool and args."
    )
    core = True
    hub_access = False

    async def run(self, call: ToolCall, args: ToolGuideArgs) -> dict[str, Any]:
        """Return one section (or the overview and the section names)."""
        reachable, surface = _reachable_on(call)
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
        wanted = (args.section or "overview").strip().lower()
        if wanted not in sections:
            raise ToolError(
                f"No guide section '{wanted}'. Sections: {', '.join(sections)}.",
                hint="Call again with one of the listed sections.",
            )
        return {"section": wanted, "text": sections[wanted], "sections": list(sections)}


ORDER = 900

TOOLS: tuple[type[HubTool[Any]], ...] = (SearchToolsTool, GetToolGuideTool)
