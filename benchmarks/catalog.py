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
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

from hubitat_emulator import HubEmulator
from scripts.demo import (
    DOMAIN,
    REPO,
    config_flow,
    free_port,
    long_lived_token,
    onboard,
    wait_for_http,
    write_config,
)

COMPACT_TARGET = 21 * 1024
FLAT_TARGET = 100 * 1024
# The on-hub MCP server's equivalents (reference/anchor-mcp-servers.md).
ANCHOR = {"compact": 52.6 * 1024, "flat": 120.5 * 1024}


async def served_tools_list(
    session: aiohttp.ClientSession, mcp_url: str, token: str
) -> tuple[int, list[dict[str, Any]]]:
    """(bytes of the tools/list response body, the tools)."""
    async with session.post(
        mcp_url,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
        headers={
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
        },
    ) as resp:
        body = await resp.read()
        if resp.status != 200:
            raise RuntimeError(f"tools/list: HTTP {resp.status} {body[:200]!r}")
    return len(body), json.loads(body)["result"]["tools"]


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
    hub = HubEmulator()
    hub_url = await hub.start()
    port = free_port()
    config_dir = Path(tempfile.mkdtemp(prefix="hdt-bench-"))
    write_config(config_dir, port)
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    stderr = (config_dir / "hass-stderr.log").open("wb")
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "homeassistant",
        "--config",
        str(config_dir),
        "--skip-pip",
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=stderr,
    )
    try:
        async with aiohttp.ClientSession() as session:
            await wait_for_http(session, url, timeout=180)
            token = await long_lived_token(session, url, await onboard(session, url))
            host, _, hub_port = hub_url.removeprefix("http://").partition(":")
            created = await config_flow(
                session,
                url,
                token,
                DOMAIN,
                {
                    "host": host,
                    "port": int(hub_port),
                    "maker_app_id": str(hub.maker_app_id),
                    "maker_token": hub.maker_token,
                },
            )
            await config_flow(session, url, token, "mcp_server", {})
            mcp_url = f"{url}/api/mcp/{DOMAIN}"
            out: dict[str, Any] = {}
            for surface in ("compact", "flat"):
                if surface != "compact":
                    await set_surface(session, url, token, created["result"]["entry_id"], surface)
                size, tools = await served_tools_list(session, mcp_url, token)
                out[surface] = {"bytes": size, "tools": len(tools), "reachable": reachable(tools)}
            return out
    finally:
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except TimeoutError:
                proc.kill()
        await hub.stop()
        stderr.close()
        shutil.rmtree(config_dir, ignore_errors=True)


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
