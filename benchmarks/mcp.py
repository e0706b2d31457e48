"""What a call costs through the real mcp_server, against the raw hub requests behind it.

Run: ``scripts/dev py -m benchmarks.mcp``. Starts an emulated hub and a real Home Assistant
(as ``scripts/dev demo`` does, loopback only), then times, in one run:

- ``tools/list`` on our URL (compact surface) and on mcp_server's configured URL;
- a few read tools called through ``tools/call`` (``hub_get_device``, ``hub_list_devices``,
  ``hub_get_info``), and ``ping`` (what mcp_server costs with no tool at all);
- the raw hub requests each tool sent (recorded by the emulated hub, replayed one after
  another with the same session).

Prints medians, p95 and each figure as a ratio to the raw requests behind it (for
``tools/list``: to the raw ``hub_get_device`` request, the cheapest hub answer, and to the
raw requests behind ``hub_get_info``, the baseline issue 27 measured against). Issue 27
targets at most 3x for ``tools/list`` and a read tool. Figures, not assertions.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

from benchmarks._figures import stats_ms, timed
from scripts.ha_launcher import DOMAIN, HomeAssistantLauncher

REPS = 40


async def _time(fn: Callable[[], Awaitable[Any]], n: int = REPS) -> list[float]:
    return await timed(fn, n, warm_up=3)


_ms = stats_ms


class _Mcp:
    def __init__(self, session: aiohttp.ClientSession, url: str, token: str) -> None:
        self.session = session
        self.url = url
        self.headers = {
            "Authorization": f"Bearer {token}",
            "Accept": "application/json, text/event-stream",
        }

    async def rpc(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        async with self.session.post(self.url, json=body, headers=self.headers) as resp:
            data = await resp.read()
            if resp.status != 200:
                raise RuntimeError(f"{method}: HTTP {resp.status} {data[:200]!r}")
        answer: dict[str, Any] = json.loads(data)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer["result"]
        return result

    async def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        result = await self.rpc("tools/call", {"name": name, "arguments": args})
        if result.get("isError"):
            raise RuntimeError(f"{name}: {result['content'][0]['text'][:300]}")
        return result


async def run() -> None:
    """Start everything, print the figures, stop everything."""
    async with HomeAssistantLauncher(temp_prefix="hdt-bench-") as ha:
        ours = _Mcp(ha.session, f"{ha.url}/api/mcp/{DOMAIN}", ha.token)
        hub = ha.hub
        listed = await ours.call("hub_list_devices", {"limit": 5})
        text = listed["content"][0]["text"]
        device_id = str(json.loads(text)["devices"][0]["device_id"])

        async def raw_requests(name: str, args: dict[str, Any]) -> list[str]:
            before = len(hub.requests)
            await ours.call(name, args)
            return [path for method, path in hub.requests[before:] if method == "GET"]

        async def replay(paths: list[str]) -> None:
            for path in paths:
                async with ha.session.get(f"{hub.url}{path}") as resp:
                    await resp.read()

        cases = [
            ("hub_get_device", {"device_id": device_id}),
            ("hub_list_devices", {}),
            ("hub_get_info", {}),
        ]
        print("Through mcp_server (/api/mcp/hubitat_dev_tools), compact surface")
        raw_device: list[float] = []
        rows: list[tuple[str, list[float], list[float], int]] = []
        for name, args in cases:
            # served from the live cache: compare with the list request it saves
            paths = await raw_requests(name, args) or ["/hub2/devicesList"]
            raw = await _time(lambda paths=paths: replay(paths))  # type: ignore[misc]
            via = await _time(lambda name=name, args=args: ours.call(name, args))  # type: ignore[misc]
            rows.append((name, via, raw, len(paths)))
            if name == "hub_get_device":
                raw_device = raw
        listing = await _time(lambda: ours.rpc("tools/list", {}))
        rows.insert(0, ("tools/list", listing, raw_device, 1))
        for name, via, raw, count in rows:
            ratio = statistics.median(via) / statistics.median(raw)
            over = (statistics.median(via) - statistics.median(raw)) * 1000
            print(f"  {name:18} {_ms(via)}")
            print(
                f"  {'':18} raw ({count} hub request{'s' if count != 1 else ''}) {_ms(raw)}"
                f"   ratio {ratio:5.1f}x  over raw {over:6.2f} ms"
            )

        info_raw = next(raw for name, _via, raw, _count in rows if name == "hub_get_info")
        print(
            f"  {'tools/list':18} as a ratio to hub_get_info's raw requests (issue 27's own "
            f"baseline): {statistics.median(listing) / statistics.median(info_raw):5.1f}x"
        )
        floor = await _time(lambda: ours.rpc("ping", {}))
        print(f"  {'ping':18} {_ms(floor)}   (mcp_server's own floor: HTTP, auth, MCP SDK)")
        for name, via, raw, _count in rows:
            mine = (statistics.median(via) - statistics.median(floor)) / statistics.median(raw)
            print(f"  {name:18} over the floor, as a ratio to its raw requests: {mine:5.1f}x")

        merged = _Mcp(ha.session, f"{ha.url}/api/mcp", ha.token)
        served = (await merged.rpc("tools/list", {}))["tools"]
        listing = await _time(lambda: merged.rpc("tools/list", {}))
        print(f"Configured URL (/api/mcp, {len(served)} tools)")
        print(f"  tools/list         {_ms(listing)}")


def main() -> int:
    """Print the table."""
    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
