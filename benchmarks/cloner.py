"""App Cloner operations: time and hub requests per export, clone and import (loopback only).

Run: ``scripts/dev py -m benchmarks.cloner``. Drives the managers over a real HubClient
against the emulated hub, with the hub's observed habit of losing the first Clone and
Import click switched on (the realistic, slower path) and off. The emulator answers at
once, so the time is our own overhead plus loopback HTTP; on a real hub each request costs
its own time, which is why the request count is the figure to watch. Figures, not
assertions.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed import RULE_MOTION
from scripts.ha_launcher import hub_settings, running_hub

TARGET_REQUESTS = 30


async def _measure(
    emu: HubEmulator, op: Callable[[], Awaitable[Any]], reps: int
) -> tuple[float, float]:
    times: list[float] = []
    counts: list[int] = []
    for _ in range(reps):
        before = len(emu.requests)
        start = time.perf_counter()
        await op()
        times.append((time.perf_counter() - start) * 1000)
        counts.append(len(emu.requests) - before)
    return statistics.median(times), statistics.median(counts)


async def run(reps: int = 5) -> dict[str, tuple[float, float]]:
    """{operation: (median ms, median hub requests)}."""
    out: dict[str, tuple[float, float]] = {}
    async with running_hub() as emu, aiohttp.ClientSession() as session:
        apps = Hub(HubClient(session, HubConnection(**hub_settings(emu, maker=False)))).cloner
        rule = str(RULE_MOTION)
        doc = (await apps.export_app(rule, None))["export"]
        for swallow in (True, False):
            emu.cloner.knobs.swallow_first_click = swallow
            tag = "first click lost" if swallow else "every click lands"
            out[f"export ({tag})"] = await _measure(emu, lambda: apps.export_app(rule, None), reps)
            out[f"clone ({tag})"] = await _measure(
                emu, lambda: apps.clone_app(rule, None, False), reps
            )
            out[f"import ({tag})"] = await _measure(
                emu,
                lambda: apps.import_app(
                    export=doc,
                    from_file=None,
                    from_backup=None,
                    seed_app_id=None,
                    new_name=None,
                    enable=False,
                    allow_missing_devices=False,
                ),
                reps,
            )
    return out


def main() -> None:
    """Print the figures next to their target."""
    figures = asyncio.run(run())
    print("App Cloner operations (emulated hub, loopback; emulator time included)")
    for name, (ms, requests) in figures.items():
        print(
            f"  {name:32s} median {ms:6.1f} ms, {requests:3.0f} hub requests"
            f"   target <= {TARGET_REQUESTS} requests"
        )


if __name__ == "__main__":
    main()
