"""Hub operations that change nothing stored: network tests, the identify LED, memory cleanup."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

from ..errors import ToolError
from ..hub.controllers import HealthController, NetworkController
from ..hub.errors import HubError, HubTimeoutError
from ..hub.network import summarize_test
from ..hub.results import NetworkTest

# How long each test may take on the hub (the hub UI waits without a limit; the on-hub MCP
# server allows 30 s for a traceroute and 90 s for the speed test, a 10 MB download).
TEST_TIMEOUT_S = {"ping": 20.0, "ping_gateway": 20.0, "traceroute": 40.0, "speed_test": 90.0}
# What the hub needs after /hub/forceGC before the free-memory figure shows it.
GC_SETTLE_S = 1.0


class HubOpsManager:
    """Network tests, the identify LED and memory cleanup of one hub."""

    def __init__(self, network: NetworkController, health: HealthController) -> None:
        self._network = network
        self._health = health

    async def network_test(self, test: str, host: str | None, deadline: float) -> dict[str, Any]:
        """Run one of the hub's network tests (bounded by ``deadline``, monotonic)."""
        left = deadline - time.monotonic()
        timeout = min(TEST_TIMEOUT_S[test], left)
        if timeout < 3.0:
            raise ToolError("Not enough time left in this call to run a network test.")
        out: dict[str, Any] = {"test": test}
        if host is not None:
            out["host"] = host
        try:
            output = await self._network.test(cast(NetworkTest, test), host, timeout)
        except HubTimeoutError:
            out["finished"] = False
            out["summary"] = (
                f"The hub's {test.replace('_', ' ')} did not finish within {round(timeout)} s "
                "(this call's limit); the network may be slow or the host not answering."
            )
            return out
        out["finished"] = True
        out.update(summarize_test(test, output))
        if not out["output"]:
            out["summary"] = "The hub ran the test but reported nothing."
        else:
            out["summary"] = _summary(test, host, out)
        return out

    async def blink_led(self) -> dict[str, Any]:
        """Blink the hub's LED so the owner can find it."""
        await self._network.blink_led()
        return {
            "summary": "The hub's LED is blinking (as the hub UI's Identify button does)",
            "note": "The hub reports nothing back: look at the hub to see it.",
        }

    async def free_memory(self, deadline: float) -> dict[str, Any]:
        """Force a garbage collection; free memory before and after (KB)."""

        async def free_kb() -> float | None:
            try:
                return await self._health.free_os_memory()
            except HubError:
                return None

        before = await free_kb()
        await self._network.force_gc()
        await asyncio.sleep(max(0.0, min(GC_SETTLE_S, deadline - time.monotonic() - 2.0)))
        after = await free_kb()
        out: dict[str, Any] = {"free_memory_kb_before": before, "free_memory_kb_after": after}
        if before is None or after is None:
            out["summary"] = "Memory cleanup run; the hub's free-memory figure could not be read"
            return out
        delta = after - before
        out["freed_kb"] = delta
        out["summary"] = (
            f"Memory cleanup run: free memory {before:.0f} KB -> {after:.0f} KB "
            f"({'+' if delta >= 0 else ''}{delta:.0f} KB)"
        )
        if delta <= 0:
            out["note"] = (
                "Nothing was freed: the hub had little to collect. Steadily falling free "
                "memory is better found in the hub's memory history."
            )
        return out


def _summary(test: str, host: str | None, data: dict[str, Any]) -> str:
    """One sentence on a finished test."""
    if test in ("ping", "ping_gateway"):
        target = host or "the hub's gateway"
        loss = data.get("packet_loss_percent")
        if loss is None:
            return f"Ping to {target} ran; see output"
        avg = data.get("average_ms")
        rtt = f", average {avg} ms" if avg is not None else ""
        return f"Ping to {target}: {loss:g}% packet loss{rtt}"
    if test == "traceroute":
        hops = sum(1 for line in data["output"].splitlines() if line.strip()[:1].isdigit())
        return f"Traceroute to {host}: {hops} hops; see output"
    speed = data.get("speed")
    return f"Speed test: {speed}" if speed else "Speed test ran; see output"
