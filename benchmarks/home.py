"""Home-surface benchmark: tool overhead, hub_list_devices at 40/500 devices, batch vs single.

Run: ``scripts/dev py -m benchmarks.home``. Talks only to emulated hubs on 127.0.0.1.
Prints figures; asserts nothing about timing.

"Tool" here is the tool's own code path (schema validation + ``run`` + JSON-safe result)
over the real HubClient; Home Assistant's llm/MCP plumbing around it is not included (it
is the same for every tool and measured by the MCP tests' wall time, not here).
"""

from __future__ import annotations

import asyncio
import functools
import json
import statistics
from types import SimpleNamespace
from typing import Any, cast

import aiohttp

from benchmarks._figures import paired, stats_ms, timed
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.tools.args import build_args
from custom_components.hubitat_dev_tools.tools.base import HubTool, ToolCall, shaped_result
from custom_components.hubitat_dev_tools.tools.devices import (
    CallDeviceCommandTool,
    GetDeviceTool,
    ListDevicesTool,
)
from hubitat_emulator import HubEmulator
from scripts.ha_launcher import hub_settings, running_hub

_stats = stats_ms
_time = timed


class _Bench:
    def __init__(self, emu: HubEmulator, session: aiohttp.ClientSession) -> None:
        self.emu = emu
        self.session = session
        self.client = HubClient(session, HubConnection(**hub_settings(emu)))
        # No live stream here (hub.cache is None): every read goes to the hub.
        runtime = SimpleNamespace(hub=Hub(self.client))
        self.call = ToolCall(
            hass=cast(Any, None), runtime=cast(Any, runtime), caller=cast(Any, None), tool_name=""
        )

    async def tool(self, tool: HubTool[Any], args: dict[str, Any]) -> Any:
        validated = tool.parameters(args)
        typed = validated if tool.args_type is None else build_args(tool.args_type, validated)
        data = await tool.run(self.call, typed)
        # As a call's answer leaves the tool: JSON-safe, ISO timestamps, redacted, capped.
        return shaped_result(data, None, tool.narrow_hint)[0]

    async def raw(self, path: str) -> Any:
        async with self.session.get(f"{self.emu.url}{path}") as resp:
            return json.loads(await resp.text())

    async def sent(self, tool: HubTool[Any], args: dict[str, Any]) -> list[str]:
        """The GET requests one call of the tool sends (as the emulated hub saw them)."""
        before = len(self.emu.requests)
        await self.tool(tool, args)
        return [path for method, path in self.emu.requests[before:] if method == "GET"]

    async def replay(self, paths: list[str]) -> None:
        """Send those requests again, all at once, and read every answer.

        At once, not one after another: the raw side never waits longer than the tool could
        (a tool that sends its requests together would otherwise look cheaper than it is).
        """

        async def one(path: str) -> None:
            async with self.session.get(f"{self.emu.url}{path}") as resp:
                await resp.read()

        await asyncio.gather(*(one(path) for path in paths))


async def run(reps: int = 30) -> None:
    """Run every figure and print it."""
    async with (
        aiohttp.ClientSession() as session,
        running_hub(device_count=40) as small,
        running_hub(device_count=500) as big,
    ):
        b40, b500 = _Bench(small, session), _Bench(big, session)
        list_tool, get_tool, cmd_tool = (
            ListDevicesTool(),
            GetDeviceTool(),
            CallDeviceCommandTool(),
        )
        dev_id = str(sorted(small.device_ids())[0])

        print("1. Tool overhead over the raw hub requests it sends (40-device hub)")
        overhead_cases: tuple[tuple[str, HubTool[Any], dict[str, Any]], ...] = (
            ("hub_get_device", get_tool, {"device_id": dev_id}),
            ("hub_list_devices", list_tool, {}),
        )
        for label, tool, args in overhead_cases:
            paths = await b40.sent(tool, args)
            raw, via, extra, cpu = await paired(
                functools.partial(b40.replay, paths),
                functools.partial(b40.tool, tool, args),
                reps * 4,
            )
            print(f"   raw: {', '.join(p.split('?')[0] for p in paths)}")
            print(f"   {'raw requests, sent together':34} {_stats(raw)}")
            print(f"   {label:34} {_stats(via)}")
            apart = (statistics.median(via) - statistics.median(raw)) * 1000
            print(
                f"   {'overhead (median of pairs)':34} {statistics.median(extra) * 1000:7.2f} ms"
                f"  (difference of medians {apart:.2f} ms)"
            )
            print(
                f"   {'overhead in CPU time (median)':34} {statistics.median(cpu) * 1000:7.2f} ms"
                "  (this process only: steadier on a shared machine)"
            )

        print("2. hub_list_devices by home size")
        for label, bench in (("40", b40), ("500", b500)):
            for variant, args in (
                ("full", {"limit": 1000}),
                (
                    "fields=label,states.switch",
                    {"limit": 1000, "fields": ["label", "states.switch"]},
                ),
                ("room filter", {"room": "Kitchen"}),
            ):
                times = await _time(functools.partial(bench.tool, list_tool, args), reps)
                size = len(json.dumps(await bench.tool(list_tool, args)))
                print(f"   {label:>3} devices, {variant:<28} {_stats(times)}  {size:>8} bytes")

        print("3. 20 commands: one batch call vs 20 single calls vs one command")
        switches = [
            d["device_id"]
            for d in (await b40.tool(list_tool, {"capability": "Switch", "limit": 1000}))["devices"]
            if not d.get("disabled")
        ][:20]
        if len(switches) < 20:
            switches = (switches * 20)[:20]
        batch_args = {"commands": [{"device_id": i, "command": "on"} for i in switches]}

        async def singles() -> None:
            for i in switches:
                await b40.tool(cmd_tool, {"device_id": i, "command": "on"})

        one = await _time(
            lambda: b40.tool(cmd_tool, {"device_id": switches[0], "command": "on"}), reps
        )
        batch = await _time(lambda: b40.tool(cmd_tool, batch_args), max(5, reps // 3))
        serial = await _time(singles, max(5, reps // 3))
        print(f"   one command                        {_stats(one)}")
        print(f"   batch of 20 (1 call, <=4 parallel) {_stats(batch)}")
        print(f"   20 single calls in a row           {_stats(serial)}")
        print(f"   max requests in flight (client side): {b40.client.max_in_flight_seen}")


if __name__ == "__main__":
    asyncio.run(run())
