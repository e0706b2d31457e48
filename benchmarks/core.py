"""Setup cost and memory of one hub with 500 devices (loopback only).

Run: ``scripts/dev py -m benchmarks.core``. Measures what the integration itself holds for
one hub: the client, its managers and the state cache hydrated with 500 devices
(tracemalloc, so only Python allocations made by this code are counted), and the time of
the setup path (identity read + one bulk hydration). Figures, not assertions.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
import tracemalloc

import aiohttp

from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.info import fetch_identity
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from scripts.ha_launcher import hub_settings, running_hub

TARGET_MEMORY_MB = 10.0
TARGET_SETUP_S = 2.0


async def run(devices: int = 500, reps: int = 5) -> dict[str, float]:
    """Return setup time and retained memory for one hub of ``devices`` devices."""
    times: list[float] = []
    retained = 0
    async with running_hub(device_count=devices) as emu, aiohttp.ClientSession() as session:
        conn = HubConnection(**hub_settings(emu))
        for i in range(reps):
            gc.collect()
            if i == reps - 1:
                tracemalloc.start()
            start = time.perf_counter()
            client = HubClient(session, conn)
            await fetch_identity(client)
            cache = StateCache(client)
            await cache.hydrate()
            times.append(time.perf_counter() - start)
            if i == reps - 1:
                gc.collect()
                retained, _peak = tracemalloc.get_traced_memory()
                tracemalloc.stop()
            assert len(cache.devices) >= devices
    return {
        "devices": devices,
        "setup_median_s": statistics.median(times),
        "setup_max_s": max(times),
        "memory_mb": retained / 1e6,
    }


def main() -> None:
    """Print the figures next to their targets."""
    fig = asyncio.run(run())
    print(f"One hub with {fig['devices']:.0f} devices (emulated, loopback; emulator time included)")
    print(
        f"  setup (identity + hydration): median {fig['setup_median_s']:.3f} s, "
        f"max {fig['setup_max_s']:.3f} s   target <= {TARGET_SETUP_S:.1f} s"
    )
    print(
        f"  memory held by client + cache: {fig['memory_mb']:.2f} MB"
        f"   target <= {TARGET_MEMORY_MB:.0f} MB"
    )


if __name__ == "__main__":
    main()
