"""What tools/list shows: the compact surface (core tools + domain gateways) or flat.

Everything here is generic over ``TOOL_CLASSES``: a tool's ``domain``, ``kind`` and
``core`` decide where it appears. A non-core read tool is reached through
``hub_read_<domain>``, a non-core write or destructive tool through ``hub_manage_<domain>``.

Visibility has one source, ``safety.option_refusal``: a tool is hidden when the options of
every loaded hub refuse it (disable lists, Read/Write masters). A gateway with no visible
tool disappears. Calls still go through the chokepoint, which refuses hidden tools with
their distinct error code.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

import probatio as vol
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from ..const import (
    DEFAULT_SURFACE,
    DOMAIN,
    OPT_SURFACE,
    SURFACE_COMPACT,
    SURFACE_FLAT,
)
from ..errors import ToolError
from ..runtime import HubRuntime
from ..safety import ToolKind, loaded_runtimes, option_refusal, refusal_key, resolve_admin
from .base import GATEWAY_LABEL, HubTool, gateway_domain, input_schema, remember_schema

# Names the current call may reach (set per call by our APIInstance, which sees the list
# after mcp_server's read-only filter). Unset (e.g. inside a merged API): options only.
REACHABLE: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar(
    "hubitat_dev_tools_reachable", default=None
)

GATEWAY_HOW = "No args: schemas;"

# What tools/list may cost as mcp_server serves it (HTTP body bytes): the compact surface as
# a whole, the flat one per tool (every tool served on its own, about 1.1 KB each; the rule
# tools carry their spec grammar). Checked by tests/tools/test_catalog_surface.py and printed
# by benchmarks/catalog.py; a new tool brings its own share of the flat budget. 1144 became
# 1152 (+1 KB in all) when six tools took new inputs: restores from a URL or bytes, a code
# re-save and Done on its apps, S2 key subsets, a peer's mesh token, history paging and
# Button Rules; their descriptions were cut first.
COMPACT_BUDGET = 21 * 1024
FLAT_BUDGET_PER_TOOL = 1152


@cache
def required_args(tool: HubTool[Any]) -> tuple[str, ...]:
    """The names of a tool's required arguments, in schema order (tools are singletons
    whose schema never changes, so this is computed once per tool)."""
    schema = input_schema(tool.parameters)
    return tuple(str(n) for n in schema.get("required") or [])


def gateway_description(tools: list[HubTool[Any]]) -> str:
    """What a gateway says of its tools: each one's required arguments (``hub_`` left out),
    e.g. ``get_rule(app_id) call_rule(app_id,action)``; tools needing none are not named."""
    needs = [
        f"{t.name.removeprefix('hub_')}({','.join(args)})"
        for t in tools
        if (args := required_args(t))
    ]
    return f"{GATEWAY_HOW} needs {' '.join(needs)}" if needs else GATEWAY_HOW.rstrip(";")


@cache
def registry() -> dict[str, HubTool[Any]]:
    """Every tool instance by name, in catalog order (tools hold no per-call state)."""
    from . import all_tools

    return {tool.name: tool for tool in all_tools()}


def gateway_groups(tools: Iterable[HubTool[Any]]) -> dict[str, list[HubTool[Any]]]:
    """Gateway name -> its tools; domains in catalog order, read gateway before manage."""
    domains: list[str] = []
    groups: dict[str, list[HubTool[Any]]] = {}
    for tool in tools:
        name = tool.gateway()
        if name is None:
            continue
        if (domain := gateway_domain(tool.domain)) not in domains:
            domains.append(domain)
        groups.setdefault(name, []).append(tool)

    def key(name: str) -> tuple[int, int]:
        tool = groups[name][0]
        return (domains.index(gateway_domain(tool.domain)), 0 if tool.kind is ToolKind.READ else 1)

    return {name: groups[name] for name in sorted(groups, key=key)}


class GatewayTool(llm.Tool):
    """hub_read_<domain> / hub_manage_<domain>: one listed tool for a domain's tools."""

    def __init__(self, name: str, tools: list[HubTool[Any]], visible: frozenset[str]) -> None:
        self.name = name
        self.integration = DOMAIN
        self.all_tools = {t.name: t for t in tools}
        self.tools = [t for t in tools if t.name in visible]
        domain = gateway_domain(tools[0].domain)
        read = name.startswith("hub_read_")
        label = GATEWAY_LABEL.get(domain, domain.replace("_", " "))
        destructive = any(t.kind is ToolKind.DESTRUCTIVE or t.may_destroy for t in self.tools)
        # Kept short (it is paid in every tools/list): 'tool' lists the names, the
        # annotations say read-only/destructive, and the description the required arguments
        # of each tool that has some, so a call rarely needs the schema round trip first.
        self.title = f"{'Read' if read else 'Manage'} {label}"
        self.description = gateway_description(self.tools)
        names = [t.name for t in self.tools]
        self.parameters = vol.Schema(
            {
                vol.Optional("tool"): vol.In(names),
                vol.Optional("args"): dict,
            }
        )
        self.annotations = llm.ToolAnnotations(
            read_only=read,
            destructive=destructive,
            idempotent=all(t.idempotent for t in self.tools),
            open_world=any(t.open_world for t in self.tools),
        )

    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> llm.ToolResult:
        """No tool: the schemas. tool + args: run the tool through its chokepoint."""
        raw = tool_input.tool_args if isinstance(tool_input.tool_args, dict) else {}
        tool_name = raw.get("tool")
        args = raw.get("args")
        if args is not None and not isinstance(args, dict):
            return _error("invalid_arguments", "args must be an object.", None)
        if not tool_name:
            try:
                await resolve_admin(hass, llm_context)
            except ToolError as err:
                return _error(err.code, str(err), err.hint)
            if args:
                return _error(
                    "invalid_arguments",
                    f"{self.name} needs 'tool' together with 'args'.",
                    f"Pass tool=<one of {', '.join(t.name for t in self.tools)}>.",
                )
            return llm.ToolResult(
                data={
                    "gateway": self.name,
                    "call": f"{self.name}(tool=<name>, args={{...}})",
                    "tools": [describe(t) for t in self.tools],
                }
            )
        sub = self.all_tools.get(str(tool_name)) or self.all_tools.get(f"hub_{tool_name}")
        if sub is None:
            try:  # a known tool is refused by its own chokepoint (and audited); this is not
                await resolve_admin(hass, llm_context)
            except ToolError as err:
                return _error(err.code, str(err), err.hint)
            other = registry().get(str(tool_name))
            if other is not None and other.gateway() is not None:
                return _error(
                    "not_in_gateway",
                    f"{tool_name} is not in {self.name}; it is in {other.gateway()}.",
                    f"Call {other.gateway()} with tool='{tool_name}'.",
                )
            if other is not None:
                return _error(
                    "not_in_gateway",
                    f"{tool_name} is not in {self.name}; call it directly.",
                    None,
                )
            return _error(
                "unknown_tool",
                f"{self.name} has no tool '{tool_name}'. Its tools: "
                f"{', '.join(t.name for t in self.tools)}.",
                "Use hub_search_tools to find the right tool.",
            )
        sub_args = dict(args or {})
        if sub.hub_access and "hub" in raw and "hub" not in sub_args:  # next to 'tool'?
            sub_args["hub"] = raw["hub"]
        return await sub.execute(hass, sub_args, llm_context, via=self.name)


def _error(code: str, message: str, hint: str | None) -> llm.ToolResult:
    data: dict[str, Any] = {"error": code, "message": message}
    if hint:
        data["hint"] = hint
    return llm.ToolResult(data=data, error=True)


def describe(tool: HubTool[Any]) -> dict[str, Any]:
    """A tool's full description as a gateway or search returns it."""
    return {
        "name": tool.name,
        "title": tool.title,
        "kind": str(tool.kind),
        "description": tool.description,
        "input_schema": input_schema(tool.parameters),
    }


def purpose(text: str, limit: int = 160) -> str:
    """The first sentence of a description (cut at ``limit`` characters)."""
    end = text.find(". ")
    first = text if end < 0 else text[: end + 1]
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


def brief(tool: HubTool[Any]) -> dict[str, Any]:
    """A tool in a few lines: purpose, required arguments with their meaning, the others
    by name (enough to call it without reading its schema first)."""
    schema = input_schema(tool.parameters)
    props: dict[str, Any] = schema.get("properties") or {}
    required = [n for n in schema.get("required") or [] if n in props]
    out: dict[str, Any] = {"name": tool.name, "kind": str(tool.kind)}
    out["purpose"] = purpose(tool.description)
    out["required"] = {
        n: str(props[n].get("description") or props[n].get("type") or "") for n in required
    }
    optional = [n for n in props if n not in required and n != "hub"]
    if optional:
        out["optional"] = optional
    return out


@dataclass(frozen=True, slots=True)
class Visibility:
    """Which tools the loaded hubs' options show, and which surface they chose."""

    visible: frozenset[str]
    surface: str


# What the tool set depends on, per loaded hub: what its options refuse
# (``safety.refusal_key``, beside the function that reads them) and the surface it picked.
# Equal keys give equal visibility, so the tool set is built once per options change or hub
# set-up (issue 27 item 5), without any invalidation to forget.
type _OptionsKey = tuple[tuple[tuple[str, tuple[str, ...], tuple[str, ...], bool, bool], str], ...]
_VISIBILITY: dict[_OptionsKey, Visibility] = {}
_CACHE_SIZE = 16


def _options_key(runtimes: list[HubRuntime]) -> _OptionsKey:
    return tuple(
        (refusal_key(rt), str(rt.entry.options.get(OPT_SURFACE, DEFAULT_SURFACE)))
        for rt in runtimes
    )


def _remember[K, V](store: dict[K, V], key: K, value: V) -> V:
    if len(store) >= _CACHE_SIZE:
        store.clear()
    store[key] = value
    return value


def visibility(hass: HomeAssistant) -> Visibility:
    """The visible tools and the surface from every loaded hub's options (cached per
    options: see ``_options_key``)."""
    runtimes = loaded_runtimes(hass)
    key = _options_key(runtimes)
    if (known := _VISIBILITY.get(key)) is not None:
        return known
    return _remember(_VISIBILITY, key, _compute_visibility(runtimes))


def _compute_visibility(runtimes: list[HubRuntime]) -> Visibility:
    tools = registry()
    if not runtimes:
        return Visibility(frozenset(tools), DEFAULT_SURFACE)
    visible = frozenset(
        name
        for name, tool in tools.items()
        if not all(
            option_refusal(rt, name, tool.kind, gateway=tool.gateway(), hub_access=tool.hub_access)
            for rt in runtimes
        )
    )
    surfaces = {rt.entry.options.get(OPT_SURFACE, DEFAULT_SURFACE) for rt in runtimes}
    surface = SURFACE_FLAT if surfaces == {SURFACE_FLAT} else SURFACE_COMPACT
    return Visibility(visible, surface)


_GATEWAYS: dict[frozenset[str], tuple[GatewayTool, ...]] = {}
_SERVED: dict[tuple[frozenset[str], str], tuple[llm.Tool, ...]] = {}
# the names reachable from a served tool set (tools compare and hash by identity)
_REACHABLE_OF: dict[tuple[llm.Tool, ...], frozenset[str]] = {}


def build_gateways(visible: frozenset[str]) -> list[GatewayTool]:
    """The gateways that have at least one visible tool (built once per visible set;
    gateways hold no per-call state)."""
    if (known := _GATEWAYS.get(visible)) is None:
        groups = gateway_groups(registry().values())
        known = _remember(
            _GATEWAYS,
            visible,
            tuple(
                GatewayTool(name, tools, visible)
                for name, tools in groups.items()
                if any(t.name in visible for t in tools)
            ),
        )
    return list(known)


def served_tools(hass: HomeAssistant, surface: str | None = None) -> list[llm.Tool]:
    """The tools/list of this moment: compact (core + gateways) or flat (every tool).

    A new list each time (mcp_server filters it in place for its read-only option) of
    tool objects built once per visible set and surface.
    """
    vis = visibility(hass)
    chosen = SURFACE_FLAT if (surface or vis.surface) == SURFACE_FLAT else SURFACE_COMPACT
    if (known := _SERVED.get((vis.visible, chosen))) is None:
        tools: list[llm.Tool] = [t for t in registry().values() if t.name in vis.visible]
        if chosen == SURFACE_COMPACT:
            tools = [t for t in tools if isinstance(t, HubTool) and t.core]
            tools += build_gateways(vis.visible)
        for tool in tools:
            remember_schema(tool.parameters)
        known = _remember(_SERVED, (vis.visible, chosen), tuple(tools))
    return list(known)


def reachable_names(listed: Iterable[llm.Tool]) -> frozenset[str]:
    """Tool names reachable from a tools/list: listed tools and listed gateways' tools.

    A served tool set is one cached tuple of tool objects (``served_tools``), so the answer
    is remembered by the identity of the tools it was given."""
    listed = tuple(listed)
    if (known := _REACHABLE_OF.get(listed)) is None:
        known = _remember(_REACHABLE_OF, listed, _reachable_names(listed))
    return known


def _reachable_names(listed: Iterable[llm.Tool]) -> frozenset[str]:
    names: set[str] = set()
    for tool in listed:
        if isinstance(tool, GatewayTool):
            names.update(t.name for t in tool.tools)
        else:
            names.add(tool.name)
    return frozenset(names)


def current_reachable(hass: HomeAssistant) -> frozenset[str]:
    """What the current call may reach: set by our APIInstance, else by options alone."""
    reachable = REACHABLE.get()
    if reachable is not None:
        return reachable
    return visibility(hass).visible


def how_to_call(tool: HubTool[Any], surface: str) -> str:
    """Tell the model how to call a tool on the served surface."""
    gateway = tool.gateway()
    if surface == SURFACE_FLAT or gateway is None:
        return f"{tool.name}(...)"
    return f"{gateway}(tool='{tool.name}', args={{...}})"


__all__ = [
    "REACHABLE",
    "SURFACE_COMPACT",
    "SURFACE_FLAT",
    "GatewayTool",
    "Visibility",
    "brief",
    "build_gateways",
    "current_reachable",
    "describe",
    "gateway_groups",
    "how_to_call",
    "purpose",
    "reachable_names",
    "registry",
    "served_tools",
    "visibility",
]
