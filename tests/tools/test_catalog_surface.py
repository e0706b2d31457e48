"""The catalog: served sizes, search, guide, size cap, pagination, the reviewed snapshot."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import (
    OPT_SURFACE,
    RESULT_MAX_BYTES,
    SURFACE_COMPACT,
    SURFACE_FLAT,
)
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from custom_components.hubitat_dev_tools.tools.base import cap_result, json_size
from custom_components.hubitat_dev_tools.tools.paging import (
    decode_cursor,
    encode_cursor,
    paginate,
)
from custom_components.hubitat_dev_tools.tools.surface import (
    COMPACT_BUDGET,
    FLAT_BUDGET_PER_TOOL,
    registry,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..mcp_client import HEADERS, Mcp

COMPACT_MAX = COMPACT_BUDGET
FLAT_MAX = FLAT_BUDGET_PER_TOOL * len(TOOL_CLASSES)


async def served_bytes(mcp: Mcp) -> tuple[int, list[dict[str, Any]]]:
    """tools/list exactly as mcp_server serves it over HTTP: (body bytes, tools)."""
    resp = await mcp.client.post(
        mcp.path,
        headers=HEADERS,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
    )
    body = await resp.read()
    assert resp.status == 200
    return len(body), json.loads(body)["result"]["tools"]


async def test_served_sizes_within_targets(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp
) -> None:
    compact, tools = await served_bytes(mcp)
    reachable = set()
    for tool in tools:
        enum = tool["inputSchema"]["properties"].get("tool", {}).get("enum")
        reachable |= set(enum) if tool["name"].startswith(("hub_read_", "hub_manage_")) else set()
        reachable.add(tool["name"])
    assert {c.name for c in TOOL_CLASSES} <= reachable  # every capability reachable
    # A model that learned a sub-tool's name (from search) may call it directly: it runs
    # through its gateway.
    is_error, data = await mcp.call("hub_list_rooms")
    assert not is_error, data
    assert data["count"] > 0
    hass.config_entries.async_update_entry(entry, options={OPT_SURFACE: SURFACE_FLAT})
    flat, flat_tools = await served_bytes(mcp)
    assert len(flat_tools) == len(TOOL_CLASSES)
    assert compact <= COMPACT_MAX, f"compact tools/list is {compact} bytes"
    assert flat <= FLAT_MAX, f"flat tools/list is {flat} bytes"


def test_gateway_names_never_shadow_tools() -> None:
    from custom_components.hubitat_dev_tools.tools.surface import gateway_groups

    gateways = set(gateway_groups(registry().values()))
    assert not gateways & set(registry()), "a tool is named like a gateway"
    for cls in TOOL_CLASSES:
        assert cls.title and cls.description, cls.name


# (query, a tool (or tools, any of which) must be among the top 3). Entries whose tool does
# not exist (yet) are skipped, so the list can name tools other domains add.
SEARCHES: list[tuple[str, str | tuple[str, ...]]] = [
    ("turn on the kitchen light", "hub_call_device_command"),
    ("dim the bedroom lamp to 30 percent", "hub_call_device_command"),
    ("which devices are in the living room", ("hub_list_devices", "hub_get_room")),
    (
        "show the current state of the hallway motion sensor",
        ("hub_list_devices", "hub_get_device_attribute", "hub_get_device"),
    ),
    ("what commands does this device support", "hub_get_device"),
    ("make a backup of the hub before changes", "hub_create_backup"),
    ("who changed things through the assistant", "hub_list_audit_entries"),
    ("rename a room", "hub_update_room"),
    ("switch the house to night mode", "hub_set_mode"),
    ("arm the alarm when away", "hub_set_hsm"),
    ("list hub variables", "hub_list_variables"),
    ("read a file from the file manager", "hub_read_file"),
    ("what firmware version is the hub on", "hub_get_info"),
    ("delete a device permanently", "hub_delete_device"),
    ("show groovy source code of a driver", "hub_get_code"),
    ("pause a rule machine rule", "hub_set_rule_paused"),
    ("when did the front door open history", "hub_list_device_events"),
    ("which devices have a battery below 20 percent", "hub_list_devices"),
    ("which lights are on in the kitchen", "hub_list_devices"),
    ("restore a hub backup", "hub_restore_backup"),
    ("does this integration work with my hub firmware", "hub_check_compatibility"),
    (
        "a tool gave an unexpected answer, what do I attach to a bug report",
        "hub_check_compatibility",
    ),
    ("what changed on the hub this week", "hub_diff_snapshots"),
    ("save the hub configuration to yaml for version control", "hub_create_snapshot"),
    ("which configuration snapshots do I have", "hub_list_snapshots"),
]


@pytest.mark.parametrize(("query", "expected"), SEARCHES)
async def test_search_finds_the_right_tool(
    entry: MockConfigEntry, call_tool: ToolCaller, query: str, expected: str | tuple[str, ...]
) -> None:
    wanted = [
        e for e in ((expected,) if isinstance(expected, str) else expected) if e in registry()
    ]
    if not wanted:
        pytest.skip(f"{expected} does not exist")
    result = await call_tool("hub_search_tools", {"query": query})
    assert not result.error, result.data
    names = [r["name"] for r in result.data["results"]]
    found = [w for w in wanted if w in names[:3]]
    assert found, (query, names)
    hit = result.data["results"][names.index(found[0])]
    assert isinstance(hit["required"], dict) and hit["purpose"]
    assert hit["call"].startswith(registry()[found[0]].gateway() or found[0])
    assert "hub_search_tools" not in names


def test_search_indexes_every_argument() -> None:
    """Parameter names and descriptions are searchable (read from the arguments dataclass)."""
    from custom_components.hubitat_dev_tools.tools.args import schema_fields
    from custom_components.hubitat_dev_tools.tools.search import tool_text

    for tool in registry().values():
        text = tool_text(tool)
        for marker in schema_fields(tool.args_type):
            assert str(marker.schema).replace("_", " ") in text, (tool.name, marker.schema)
    assert "Local: the file name; cloud: the path" in tool_text(registry()["hub_delete_backup"])


async def test_search_call_form_follows_surface(
    hass: HomeAssistant, entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    hass.config_entries.async_update_entry(entry, options={OPT_SURFACE: SURFACE_FLAT})
    result = await call_tool("hub_search_tools", {"query": "create a backup"})
    hit = next(r for r in result.data["results"] if r["name"] == "hub_create_backup")
    assert hit["call"] == "hub_create_backup(...)"
    nothing = await call_tool("hub_search_tools", {"query": "zzzz qqqq"})
    assert nothing.data["results"] == []
    assert "hint" in nothing.data


async def test_guide_sections(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    overview = await call_tool("hub_get_tool_guide")
    assert not overview.error, overview.data
    assert overview.data["section"] == "overview"
    sections = overview.data["sections"]
    assert {"overview", "safety", "devices", "paging", "audit"} <= set(sections)
    # every tool domain has a section that lists its tools
    for cls in TOOL_CLASSES:
        assert cls.domain in sections
    rooms = await call_tool("hub_get_tool_guide", {"section": "rooms"})
    assert "hub_list_rooms" in rooms.data["text"]
    bad = await call_tool("hub_get_tool_guide", {"section": "nope"})
    assert bad.error
    assert "safety" in bad.data["message"]
    # error results point at the right section
    refused = await call_tool("hub_delete_room", {"room": "Kitchen"})
    assert refused.data["error"] == "confirmation_required"
    assert "section='safety'" in refused.data["hint"]


@dataclass(frozen=True)
class _Page:
    limit: int
    cursor: str | None = None


def test_pagination_round_trip() -> None:
    items = list(range(237))
    seen: list[int] = []
    args = _Page(limit=50)
    pages = 0
    while True:
        page = paginate(items, args, key="items")
        assert page["total"] == 237
        seen += page["items"]
        pages += 1
        if "next_cursor" not in page:
            break
        args = _Page(limit=50, cursor=page["next_cursor"])
    assert seen == items
    assert pages == 5
    assert decode_cursor(encode_cursor(120)) == 120
    for bad in ("abc", "12", encode_cursor(10)[:-1] + "!"):
        with pytest.raises(ToolError, match="cursor"):
            decode_cursor(bad)
    with pytest.raises(ToolError, match="cursor"):
        paginate(items[:5], _Page(limit=50, cursor=encode_cursor(99)))


def test_size_cap_is_explicit_and_keeps_paging() -> None:
    big = {"entries": [{"i": i, "pad": "x" * 1000} for i in range(300)]}
    page = paginate(big["entries"], _Page(limit=200), key="entries")
    capped, ok = cap_result(page, "narrow it")
    assert ok
    assert json_size(capped) <= RESULT_MAX_BYTES
    marker = capped["response_truncated"]
    shown = marker["shown"]
    assert 0 < shown < 200
    assert marker["how_to_narrow"] == "narrow it"
    assert decode_cursor(capped["next_cursor"]) == shown  # continues at the first cut item
    # A huge string is cut with a marker; something that cannot be cut is an error.
    text, ok = cap_result({"content": "y" * 300_000}, "read in chunks")
    assert ok
    assert text["response_truncated"]["total_chars"] == 300_000
    blob, ok = cap_result({"a": {"b": "z" * 300_000}}, "narrow")
    assert not ok
    assert blob["error"] == "response_too_large"
    small, ok = cap_result({"x": 1}, "n")
    assert ok
    assert small == {"x": 1}


async def test_audit_tool_pages_and_caps(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    shared = get_domain_data(hass)
    assert shared is not None
    for i in range(230):
        shared.audit.record(
            user="u",
            user_id="id",
            tool="hub_set_mode" if i % 2 else "hub_create_backup",
            hub="Home Hub",
            args={f"k{j}": "v" * 190 for j in range(12)},
            outcome="ok",
            detail=f"#{i}",
        )
    details: list[str] = []
    args: dict[str, Any] = {"limit": 200}
    truncated = False
    while True:
        result = await call_tool("hub_list_audit_entries", args)
        assert not result.error, result.data
        assert json_size(result.data) <= RESULT_MAX_BYTES
        truncated |= "response_truncated" in result.data
        details += [e["detail"] for e in result.data["entries"]]
        if "next_cursor" not in result.data:
            break
        args = {"limit": 200, "cursor": result.data["next_cursor"]}
    assert truncated  # 200 records of ~2.5 KB do not fit in one result
    assert details == [f"#{i}" for i in reversed(range(230))]  # newest first, none lost
    only = await call_tool("hub_list_audit_entries", {"tool": "hub_set_mode", "limit": 5})
    assert only.data["total"] == 115
    assert {e["tool"] for e in only.data["entries"]} == {"hub_set_mode"}


@pytest.mark.parametrize("surface", [SURFACE_COMPACT, SURFACE_FLAT])
async def test_diagnostics_show_surface_and_audit(
    hass: HomeAssistant, entry: MockConfigEntry, call_tool: ToolCaller, surface: str
) -> None:
    from custom_components.hubitat_dev_tools.diagnostics import (
        async_get_config_entry_diagnostics,
    )

    hass.config_entries.async_update_entry(
        entry, options={OPT_SURFACE: surface, "disabled_tools": ["hub_list_rooms"]}
    )
    await call_tool("hub_create_backup")  # by name: listed (flat) or via its gateway
    diag = await async_get_config_entry_diagnostics(hass, entry)
    assert diag["tool_surface"]["surface"] == surface
    assert "hub_list_rooms" in diag["tool_surface"]["hidden"]
    assert diag["audit_total"] >= 1
    assert diag["audit_recent"][0]["tool"] == "hub_create_backup"


def test_generated_files_are_current() -> None:
    """catalog.yaml, README's tool table and coverage.md's "Our tool(s)" cells are written
    from the tool classes: a change to a tool shows in them, reviewed with the change."""
    from scripts.catalog import REPO, generated

    for path, text in generated().items():
        current = path.read_text() if path.exists() else ""
        assert current == text, (
            f"{path.relative_to(REPO)} differs from the tools: review the change, then run "
            "`scripts/dev py scripts/catalog.py` and commit it"
        )


def test_readme_table_lists_every_tool_once() -> None:
    from scripts.catalog import README_PATH, TABLE_BEGIN, TABLE_END

    text = README_PATH.read_text()
    table = text[text.index(TABLE_BEGIN) : text.index(TABLE_END)]
    listed = [line.split("`")[1] for line in table.splitlines() if line.startswith("| `hub_")]
    assert listed[:-1] == [cls.name for cls in TOOL_CLASSES]  # then the gateways' row


def test_covers_name_rows_of_the_coverage_document() -> None:
    """Every peer tool a class says it covers is a row of docs/coverage.md, and every row
    the document calls full or partial has a tool that covers it."""
    from scripts.catalog import COVERAGE_PATH, coverage_lines, coverage_rows

    def _row_lines(text: str) -> list[tuple[str, str, int]]:
        return [(peer, their, i) for peer, their, i, _line in coverage_lines(text)]

    text = COVERAGE_PATH.read_text()
    rows = coverage_rows(text)
    assert len(rows) == len(set(rows)), "a peer tool has two rows"
    declared = {(c.peer, c.tool) for cls in TOOL_CLASSES for c in cls.covers}
    assert declared - set(rows) == set(), "covers name a row the document does not have"
    lines = text.splitlines()
    for line in (lines[i] for _peer, _their, i in _row_lines(text)):
        if "| **full** |" in line or "| **partial** |" in line:
            assert "`hub_" in line, f"a covered row names no tool: {line[:120]}"


def test_examples_are_valid_calls() -> None:
    """A tool's example call passes its own schema (the mcp_server test runs it)."""
    from custom_components.hubitat_dev_tools.tools.surface import (
        registry,
    )

    for tool in registry().values():
        if tool.example is not None:
            tool.parameters(dict(tool.example))


def test_every_covered_row_names_tests_that_call_its_tools() -> None:
    """docs/coverage.md: a full or partial row names test modules, and each of its tools is
    called by name in one of them (the generator keeps a cell while that holds)."""
    from scripts.catalog import COVERAGE_PATH, calls_tool, coverage_lines, sources_of_tests

    sources = sources_of_tests()
    text = COVERAGE_PATH.read_text()
    for peer, their, _i, line in coverage_lines(text):
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[-3] not in ("**full**", "**partial**"):
            continue
        tools = re.findall(r"`(hub_[a-z_]+)`", cells[2 if peer == "on_hub" else 1])
        named = re.findall(r"`([^`]+\.py)`", cells[-1])
        assert named, f"{their}: no test named"
        assert all(f in sources for f in named), f"{their}: {named}"
        for tool in tools:
            assert any(calls_tool(sources[f], tool) for f in named), f"{their}: {tool} untested"
