"""Live events benchmark: cached reads, event-driven waits, event throughput (loopback only).

Run: ``scripts/dev py -m benchmarks.events`` (or ``python -m benchmarks.events`` in the venv).
Prints figures; asserts nothing about timing.
"""

from __future__ import annotations

import asyncio
import functools
import operator
import statistics
import time
from typing import Any

import aiohttp

from benchmarks._figures import p95
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.devices import fetch_devices
from custom_components.hubitat_dev_tools.hub.events import EVENT_PATH, HubSocket
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from scripts.ha_launcher import hub_settings, running_hub


def _ms(values: list[float]) -> str:
    return (
        f"median {statistics.median(values) * 1000:.3f} ms, p95 {p95(values) * 1000:.3f} ms, "
        f"max {max(values) * 1000:.3f} ms"
    )


async def run(
    devices: int = 200, reads: int = 1000, waits: int = 100, burst: int = 5000
) -> dict[str, Any]:
    """Run the benchmark against a fresh emulated hub; return the figures."""
    figures: dict[str, Any] = {"devices": devices}
    async with running_hub(device_count=devices) as emu, aiohttp.ClientSession() as session:
        client = HubClient(session, HubConnection(**hub_settings(emu)))
        cache = StateCache(client)
        sock = HubSocket(client, EVENT_PATH, cache.handle_event_text, on_connect=cache.hydrate)
        cache.event_socket = sock
        task = asyncio.create_task(sock.run())
        try:
            if not await sock.wait_connected(10):
                raise RuntimeError("the event stream did not connect")

            # 1. reads: hub vs cache
            start = time.perf_counter()
            for _ in range(20):
                await fetch_devices(client)
            figures["hub_read_ms"] = (time.perf_counter() - start) / 20 * 1000
            before = len(emu.requests)
            start = time.perf_counter()
            for _ in range(reads):
                await cache.read_devices()
            figures["cached_read_ms"] = (time.perf_counter() - start) / reads * 1000
            figures["hub_requests_per_cached_read"] = (len(emu.requests) - before) / reads
            start = time.perf_counter()
            for _ in range(reads):
                await cache.read_mode()
                await cache.read_hsm()
            figures["cached_mode_hsm_read_us"] = (time.perf_counter() - start) / reads * 1e6

            # 2. wait resolution latency after the event is emitted on the hub
            dev_id = next(d for d in emu.device_ids() if "switch" in emu.device(d)["attributes"])
            latencies: list[float] = []
            before = len(emu.requests)
            for i in range(waits):
                value = "on" if i % 2 else "off"
                if emu.device(dev_id)["attributes"]["switch"] == value:
                    emu.set_device_attribute(dev_id, "switch", "on" if value == "off" else "off")
                    await cache.wait_device_attribute(
                        str(dev_id), "switch", functools.partial(operator.ne, value), 5.0
                    )
                waiter = asyncio.ensure_future(
                    cache.wait_device_attribute(
                        str(dev_id), "switch", functools.partial(operator.eq, value), 5.0
                    )
                )
                await asyncio.sleep(0)
                emitted = time.perf_counter()
                emu.set_device_attribute(dev_id, "switch", value)
                outcome = await waiter
                assert outcome.met
                latencies.append(time.perf_counter() - emitted)
            figures["wait_latency"] = _ms(latencies)
            figures["wait_latency_median_ms"] = statistics.median(latencies) * 1000
            figures["hub_requests_during_waits"] = len(emu.requests) - before

            # 3. throughput: a burst of events, cache current at the end
            seen = cache.events_seen
            start = time.perf_counter()
            last = asyncio.ensure_future(
                cache.wait_for(
                    lambda e: e.name == "variable:benchCounter" and e.value == str(burst), 60.0
                )
            )
            await asyncio.sleep(0)
            for i in range(burst):
                emu.set_variable("benchCounter", i + 1)
            await last
            elapsed = time.perf_counter() - start
            figures["burst_events"] = cache.events_seen - seen
            figures["events_per_s"] = burst / elapsed
        finally:
            await sock.stop()
            await asyncio.wait([task], timeout=3)
            task.cancel()
    return figures


def main() -> None:
    """Print the figures."""
    figures = asyncio.run(run())
    print("Live events benchmark (emulated hub on loopback)")
    print(f"  devices in the home:                 {figures['devices']}")
    print(f"  device list read from the hub:       {figures['hub_read_ms']:.2f} ms")
    print(f"  device list read from the cache:     {figures['cached_read_ms']:.3f} ms")
    print(f"  hub requests per cached read:        {figures['hub_requests_per_cached_read']:g}")
    print(f"  mode + HSM read from the cache:      {figures['cached_mode_hsm_read_us']:.1f} us")
    print(f"  wait resolution after the event:     {figures['wait_latency']}")
    print(f"  hub requests during the waits:       {figures['hub_requests_during_waits']}")
    print(
        f"  events absorbed (cache current):     {figures['events_per_s']:.0f} events/s "
        f"({figures['burst_events']} events, emulator send cost included)"
    )


if __name__ == "__main__":
    main()
