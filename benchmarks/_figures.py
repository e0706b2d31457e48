"""Helpers the benchmark modules share (the leading underscore: not a benchmark to run)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any


def p95(values: Sequence[float]) -> float:
    """The 95th percentile of ``values`` (nearest rank, rounded down), as every table gives it."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


async def timed(fn: Callable[[], Awaitable[Any]], n: int, *, warm_up: int = 1) -> list[float]:
    """``n`` timings (seconds) of awaiting ``fn()``, after ``warm_up`` untimed calls."""
    for _ in range(warm_up):
        await fn()
    out = []
    for _ in range(n):
        start = time.perf_counter()
        await fn()
        out.append(time.perf_counter() - start)
    return out


async def paired(
    first: Callable[[], Awaitable[Any]],
    second: Callable[[], Awaitable[Any]],
    n: int,
    *,
    warm_up: int = 3,
) -> tuple[list[float], list[float], list[float], list[float]]:
    """``n`` interleaved timings of ``first`` and ``second``, each pair's difference, and each
    pair's difference in this process's CPU time.

    Run one after the other, pair by pair, so that a busy spell on the machine falls on both:
    the median of the differences is steadier than the difference of two medians. The CPU
    time is steadier still on a shared machine: another process's work is not counted (the
    emulated hub runs in this process, and serves the same requests to both).
    """
    for _ in range(warm_up):
        await first()
        await second()
    a: list[float] = []
    b: list[float] = []
    cpu: list[float] = []
    for _ in range(n):
        start, start_cpu = time.perf_counter(), time.process_time()
        await first()
        middle, middle_cpu = time.perf_counter(), time.process_time()
        await second()
        a.append(middle - start)
        b.append(time.perf_counter() - middle)
        cpu.append((time.process_time() - middle_cpu) - (middle_cpu - start_cpu))
    return a, b, [y - x for x, y in zip(a, b, strict=True)], cpu


def stats_ms(values: list[float]) -> str:
    """Median and p95 in milliseconds, as every table prints them."""
    return f"median {statistics.median(values) * 1000:7.2f} ms  p95 {p95(values) * 1000:7.2f} ms"
