"""Waiting for a device attribute condition (event-driven with the live cache, else polling)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from ...errors import ToolError
from .values import to_number, values_equal

if TYPE_CHECKING:
    from ...hub.state_cache import StateCache

COMPARATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "between")
# Under mcp_server's 60 s request timeout with room for the command and the answer.
MAX_WAIT_MS = 45_000
# A read that is still running when the wait is over may take this much longer.
READ_GRACE_S = 2.0
POLL_INTERVAL = 0.25


class WaitResult(TypedDict):
    """How a wait ended: matched (or timed out), how long it took, the last values read."""

    matched: bool
    condition: str
    mode: str
    waited_ms: int
    values: dict[str, Any]
    matched_devices: list[str]


@dataclass(slots=True)
class AttributeCondition:
    """``value <comparator> expected``: eq/ne take one or more values, between two numbers."""

    comparator: str
    expected: list[Any]

    def validate(self, *, values_arg: str = "expected_values") -> None:
        """Refuse conditions that cannot be evaluated (before anything is sent);
        ``values_arg`` names the caller's list argument in the refusal."""
        if self.comparator not in COMPARATORS:
            raise ToolError(f"comparator must be one of {', '.join(COMPARATORS)}")
        if not self.expected:
            raise ToolError("Give expected_value (or expected_values) to wait for.")
        if self.comparator in ("gt", "gte", "lt", "lte") and (
            len(self.expected) != 1 or to_number(self.expected[0]) is None
        ):
            raise ToolError(f"comparator {self.comparator} needs one numeric value")
        if self.comparator == "between" and (
            len(self.expected) != 2 or any(to_number(v) is None for v in self.expected)
        ):
            raise ToolError(f"comparator between needs {values_arg} [low, high] (numbers)")

    def matches(self, value: Any) -> bool:
        """Return True when ``value`` satisfies the condition."""
        if self.comparator == "eq":
            return any(values_equal(value, e) for e in self.expected)
        if self.comparator == "ne":
            return not any(values_equal(value, e) for e in self.expected)
        number = to_number(value)
        if number is None:
            return False
        bounds = [to_number(e) or 0.0 for e in self.expected]
        if self.comparator == "between":
            return min(bounds) <= number <= max(bounds)
        limit = bounds[0]
        return {
            "gt": number > limit,
            "gte": number >= limit,
            "lt": number < limit,
            "lte": number <= limit,
        }[self.comparator]

    def describe(self) -> str:
        """Human text, e.g. ``switch eq on``."""
        shown = self.expected[0] if len(self.expected) == 1 else self.expected
        return f"{self.comparator} {shown}"


class AttributeWaits:
    """Waits on device attributes.

    ``read_attribute``: an attribute's current value on each device, by id
    (``DeviceManager.read_attribute``)."""

    def __init__(
        self, read_attribute: Callable[[list[str], str], Awaitable[dict[str, Any]]]
    ) -> None:
        self._read_attribute = read_attribute
        # The live state cache (handed on by ``DeviceManager``): waits wake on its events.
        self.cache: StateCache | None = None

    async def wait_attribute(
        self,
        device_ids: list[str],
        attribute: str,
        condition: AttributeCondition,
        *,
        mode: str = "all",
        stable_for_ms: int = 0,
        timeout_ms: int = 10_000,
    ) -> WaitResult:
        """Wait until the condition holds (on any/all devices) for ``stable_for_ms``.

        Event-driven while the live cache runs (reads from the cache, wakes on the next
        event for these devices and attribute, at the end of a stable_for_ms window, on a
        re-sync or on timeout: no hub request); polls the hub otherwise. Same contract.
        Ends by ``timeout_ms`` (plus READ_GRACE_S for a slow read) whatever the hub does.
        """
        timeout = min(timeout_ms, MAX_WAIT_MS) / 1000
        start = time.monotonic()
        state: dict[str, Any] = {"values": {}}
        try:
            async with asyncio.timeout(timeout + READ_GRACE_S):
                return await self._wait(
                    device_ids, attribute, condition, mode, stable_for_ms / 1000, timeout, state
                )
        except TimeoutError:
            return {
                "matched": False,
                "condition": f"{attribute} {condition.describe()}",
                "mode": mode,
                "waited_ms": int((time.monotonic() - start) * 1000),
                "values": state["values"],
                "matched_devices": [],
            }

    async def _wait(
        self,
        device_ids: list[str],
        attribute: str,
        condition: AttributeCondition,
        mode: str,
        stable: float,
        timeout: float,
        state: dict[str, Any],
    ) -> WaitResult:
        start = time.monotonic()
        since: dict[str, float] = {}
        while True:
            values = await self._read_attribute(device_ids, attribute)
            state["values"] = values
            now = time.monotonic()
            for dev_id, value in values.items():
                if condition.matches(value):
                    since.setdefault(dev_id, now)
                else:
                    since.pop(dev_id, None)
            settled = [d for d in device_ids if d in since and now - since[d] >= stable]
            done = bool(settled) if mode == "any" else len(settled) == len(device_ids)
            elapsed = now - start
            if done or elapsed >= timeout:
                return {
                    "matched": done,
                    "condition": f"{attribute} {condition.describe()}",
                    "mode": mode,
                    "waited_ms": int(elapsed * 1000),
                    "values": values,
                    "matched_devices": settled,
                }
            cache = self.cache
            if cache is not None and cache.live:
                ends = [since[d] + stable - now for d in since if d not in settled]
                await cache.wait_for(
                    lambda e: (
                        e.kind == "device" and e.device_id in device_ids and e.name == attribute
                    ),
                    max(0.0, min([timeout - elapsed, *ends])),
                    wake_on_resync=True,
                )
            else:
                await asyncio.sleep(max(0.02, min(POLL_INTERVAL, timeout - elapsed)))
