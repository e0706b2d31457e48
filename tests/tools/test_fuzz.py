"""Property-based fuzzing of every tool's arguments through the real llm.API.

Hypothesis draws argument dicts from each tool's published JSON schema, mixed with junk
(wrong types, nulls, huge numbers, path traversal, HTML, unknown keys). The properties:
- the call returns an ``llm.ToolResult`` (never raises: an escaped exception would become a
  JSON-RPC error in mcp_server), whose data is JSON-serialisable;
- a call refused for its arguments sent nothing to the hub.
Hypothesis runs in a worker thread and submits each call to hass's event loop.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import probatio
import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.safety import ToolKind
from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", " ", "0", "-1", "../../etc/passwd", "<b>x</b>", "null", "1e309", "é✓"]),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def _for_schema(schema: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """A strategy for values of one JSON-schema node, mostly valid-looking."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    typ = schema.get("type")
    if typ == "string":
        if "pattern" in schema and schema["pattern"] == "^\\d+$":
            return st.from_regex(r"\A\d{1,4}\Z")
        return st.text(max_size=40)
    if typ == "integer":
        lo = schema.get("minimum", -1000)
        hi = schema.get("maximum", 100_000)
        return st.integers(min_value=lo, max_value=hi)
    if typ == "number":
        return st.floats(allow_nan=False, allow_infinity=False, width=32)
    if typ == "boolean":
        return st.booleans()
    if typ == "array" and depth < 2:
        items = schema.get("items") or {}
        return st.lists(_for_schema(items, depth + 1), max_size=3)
    if typ == "object" and depth < 2 and schema.get("properties"):
        return _args_strategy(schema, depth + 1)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([_for_schema(s, depth + 1) for s in schema[key]])
    return JUNK


def _args_strategy(schema: dict[str, Any], depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    props: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    value = {k: st.one_of(_for_schema(v, depth), JUNK) for k, v in props.items()}
    base = st.fixed_dictionaries(
        {k: v for k, v in value.items() if k in required},
        optional={k: v for k, v in value.items() if k not in required},
    )
    extra = st.dictionaries(st.sampled_from(["id", "x", "__proto__"]), JUNK, max_size=1)
    return st.builds(lambda a, b: {**b, **a}, base, extra)


def tool_strategy(cls: type[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Argument dicts for one tool; destructive tools never get confirm=true here."""
    tool = cls()
    schema = probatio.to_openapi(tool.parameters, openapi_version="3.1.0")
    strategy = _args_strategy(schema)
    if cls.kind is ToolKind.DESTRUCTIVE:
        strategy = strategy.map(lambda a: {k: v for k, v in a.items() if k != "confirm"})
    return strategy


SHARDS = 4  # the tools in four parts, so that the test processes share the work


@pytest.mark.parametrize("shard", range(SHARDS))
async def test_fuzz_every_tool(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    shard: int,
) -> None:
    loop = asyncio.get_running_loop()
    hub.faults.delay = 0.0
    calls = 0

    def run_tool(name: str, strategy: st.SearchStrategy[dict[str, Any]]) -> None:
        @settings(
            max_examples=12,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @given(args=strategy)
        def prop(args: dict[str, Any]) -> None:
            nonlocal calls
            calls += 1
            before = len(hub.requests)
            future = asyncio.run_coroutine_threadsafe(call_tool(name, args), loop)
            result = future.result(timeout=60)
            assert isinstance(result, llm.ToolResult), (name, args)
            json.dumps(result.data)  # JSON-safe
            if result.error and isinstance(result.data, dict):
                assert result.data.get("error") != "internal_error", (name, args, result.data)
                if result.data.get("error") == "invalid_arguments":
                    assert len(hub.requests) == before, (name, args, "sent after refusal")

        prop()

    mine = TOOL_CLASSES[shard::SHARDS]

    def run_all() -> None:
        for cls in mine:
            run_tool(cls.name, tool_strategy(cls))

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="fuzz") as pool:
        await loop.run_in_executor(pool, run_all)
    assert mine and calls >= len(mine) * 5
