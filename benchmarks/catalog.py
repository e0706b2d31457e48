"""Catalog benchmark: the tools/list bytes as mcp_server serves them, compact and flat.

Run: ``scripts/dev py -m benchmarks.catalog``. Starts an emulated hub and a real Home
Assistant (as ``scripts/dev demo`` does, loopback only), adds the integration and
mcp_server through their config flows, then POSTs ``tools/list`` to
``/api/mcp/hubitat_dev_tools`` and counts the bytes of the HTTP response body, first on the
compact surface (the default), then on the flat surface (switched through the options
flow). Prints the figures against the targets; exits 1 if a target is missed.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import aiohttp

from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from custom_components.hubitat_dev_tools.tools.surface import (
    COMPACT_BUDGET,
    FLAT_BUDGET_PER_TOOL,
)
from scripts.ha_launcher import DOMAIN, HomeAssistantLauncher, tools_list

COMPACT_TARGET = COMPACT_BUDGET
FLAT_TARGET = FLAT_BUDGET_PER_TOOL * len(TOOL_CLASSES)  # the same budgets as the tests
# The on-hub MCP server's tools/list of its 117 tools, measured the same way.
ANCHOR = {"compact": 52.6 * 1024, "flat": 120.5 * 1024}


async def set_surface(
    session: aiohttp.ClientSession, url: str, token: str, entry_id: str, surface: str
) -> None:
    """Switch the tool surface through the options flow, as a user would."""
    headers = {"Authorization": f"Bearer {token}"}
    async with session.post(
        f"{url}/api/config/config_entries/options/flow",
        json={"handler": entry_id},
        headers=headers,
    ) as resp:
        form = await resp.json()
    async with session.post(
        f"{url}/api/config/config_entries/options/flow/{form['flow_id']}",
        json={"allow_read": True, "allow_write": True, "surface": surface},
        headers=headers,
    ) as resp:
        done = await resp.json()
    if done.get("type") != "create_entry":
        raise RuntimeError(f"options flow failed: {done}")


def reachable(tools: list[dict[str, Any]]) -> set[str]:
    """Every tool name a model can reach from a tools/list."""
    names: set[str] = set()
    for tool in tools:
        names.add(tool["name"])
        sub = tool["inputSchema"]["properties"].get("tool", {})
        if tool["name"].startswith(("hub_read_", "hub_manage_")) and "enum" in sub:
            names |= set(sub["enum"])
    return names


async def measure() -> dict[str, Any]:
    """Start everything, measure both surfaces, stop everything."""
    async with HomeAssistantLauncher(temp_prefix="hdt-bench-") as ha:
        mcp_url = f"{ha.url}/api/mcp/{DOMAIN}"
        out: dict[str, Any] = {}
        for surface in ("compact", "flat"):
            if surface != "compact":
                await set_surface(ha.session, ha.url, ha.token, ha.entry_id, surface)
            size, tools = await tools_list(ha.session, mcp_url, ha.token)
            out[surface] = {"bytes": size, "tools": len(tools), "reachable": reachable(tools)}
        return out


def main() -> int:
    """Print the table; exit 1 if a target is missed."""
    from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES

    result = asyncio.run(measure())
    every = {cls.name for cls in TOOL_CLASSES}
    ok = True
    print("tools/list as served by mcp_server (/api/mcp/hubitat_dev_tools, HTTP body bytes)")
    print(f"{'surface':8} {'bytes':>8} {'KiB':>7} {'target':>8} {'listed':>7} {'reach':>6}  on-hub")
    for surface, target in (("compact", COMPACT_TARGET), ("flat", FLAT_TARGET)):
        row = result[surface]
        all_reachable = every <= row["reachable"]
        within = row["bytes"] <= target
        ok &= within and all_reachable
        print(
            f"{surface:8} {row['bytes']:8d} {row['bytes'] / 1024:7.1f} {target // 1024:6d}Ki "
            f"{row['tools']:7d} {len(every & row['reachable']):3d}/{len(every):<3d} "
            f"{ANCHOR[surface] / 1024:5.1f}Ki  {'ok' if within and all_reachable else 'MISSED'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
