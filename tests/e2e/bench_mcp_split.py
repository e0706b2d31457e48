"""Where a call's time goes inside Home Assistant: our API against mcp_server around it.

Not a test (the file name keeps pytest from collecting it): ``benchmarks/mcp_split.py`` runs
it with ``-s`` to print figures, in one process with a real ``hass``, the real mcp_server and
the emulated hub on loopback. It times the same read three ways: through mcp_server over
HTTP, straight through our ``llm.API`` instance (what mcp_server calls), and mcp_server's
``ping`` (its own floor: HTTP, auth, the MCP SDK). The difference is mcp_server's share.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from homeassistant.components.mcp_server import server as mcp_server
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import API_ID

from ..mcp_client import Mcp

REPS = 200


async def _median_ms(fn: Callable[[], Awaitable[Any]]) -> float:
    for _ in range(10):
        await fn()
    times = []
    for _ in range(REPS):
        start = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _median_sync_ms(fn: Callable[[], Any]) -> float:
    fn()
    times = []
    for _ in range(REPS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _list_result(tools: list[Any]) -> bytes:
    """The tools/list answer as the MCP SDK builds and writes it (its result model, then the
    JSON-RPC message, as its HTTP transport serialises it)."""
    from mcp import types

    result = types.ListToolsResult(tools=tools)
    message = types.JSONRPCResponse(
        jsonrpc="2.0", id=1, result=result.model_dump(by_alias=True, mode="json", exclude_none=True)
    )
    return message.model_dump_json(by_alias=True, exclude_none=True).encode()


async def test_split(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    mcp: Mcp,
    hass_admin_user: Any,
) -> None:
    """Print the figures (asserts only that the calls work)."""
    await mcp.rpc(
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    )
    listed = await mcp.ok("hub_list_devices", {"limit": 5})
    device_id = str(listed["devices"][0]["device_id"])
    context = llm.LLMContext(
        platform="mcp_server",
        context=Context(user_id=hass_admin_user.id),
        language="en",
        assistant="mcp_server",
        device_id=None,
    )

    async def direct(name: str, args: dict[str, Any]) -> None:
        api = await llm.async_get_api(hass, API_ID, context)
        result = await api.async_call_tool(llm.ToolInput(tool_name=name, tool_args=args))
        assert not result.error
        json.dumps(result.data)

    api = await llm.async_get_api(hass, API_ID, context)
    ping = await _median_ms(lambda: mcp.rpc("ping"))
    listing = await _median_ms(lambda: mcp.rpc("tools/list"))
    instance = await _median_ms(lambda: llm.async_get_api(hass, API_ID, context))
    render = _median_sync_ms(
        lambda: [mcp_server._format_tool(t, api.custom_serializer) for t in api.tools]
    )
    print(f"\nInside Home Assistant (one process), compact surface, {len(api.tools)} tools listed")
    print(f"  ping (mcp_server's floor)          {ping:6.2f} ms")
    print(f"  tools/list                         {listing:6.2f} ms")
    print(f"    our API instance (tool set)      {instance:6.3f} ms")
    print(f"    mcp_server rendering the tools   {render:6.3f} ms  (schemas from our cache)")
    tools = [mcp_server._format_tool(t, api.custom_serializer) for t in api.tools]
    body = _list_result(tools)
    dump = _median_sync_ms(lambda: _list_result(tools))
    print(
        f"    the MCP SDK's model and JSON     {dump:6.3f} ms  (the answer: {len(body):,} bytes; "
        "the rest is HTTP and the SDK's session)"
    )
    schemas = {t["name"]: t["inputSchema"] for t in (await mcp.rpc("tools/list"))["tools"]}
    check = _median_sync_ms(
        lambda: jsonschema.Draft202012Validator.check_schema(schemas["hub_list_devices"])
    )
    print(
        f"  checking hub_list_devices' input schema against JSON Schema's metaschema: "
        f"{check:5.2f} ms (the MCP SDK of Home Assistant 2026.10 does it on every call of a "
        "listed tool)"
    )
    for name, args in (("hub_get_device", {"device_id": device_id}), ("hub_list_devices", {})):
        via = await _median_ms(lambda name=name, args=args: mcp.ok(name, args))  # type: ignore[misc]
        ours = await _median_ms(lambda name=name, args=args: direct(name, args))  # type: ignore[misc]
        print(f"  {name:34} {via:6.2f} ms through mcp_server")
        print(
            f"    straight to our API              {ours:6.2f} ms  (our code and the hub); "
            f"mcp_server adds {via - ours:5.2f} ms"
        )
