"""Helpers the benchmark modules share (the leading underscore: not a benchmark to run)."""

from __future__ import annotations

from collections.abc import Sequence


def p95(values: Sequence[float]) -> float:
    """The 95th percentile of ``values`` (nearest rank, rounded down), as every table gives it."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
