"""The emulated hub's clock: its notion of now, which tests can move forward, and its timers.

``now = real time + offset``. Nobody moves it in normal use, so the hub runs in real time and
timers (:meth:`EmuClock.call_at`) fire on the event loop when they fall due. A test moves it:

* ``await emu.clock.advance(minutes=5)`` steps through every timer that falls due in the
  window, in time order (ties in the order they were set), with the clock standing at each
  timer's instant while it fires, and lets the event loop run the consequences (commands,
  events, the next timers) after each one;
* ``emu.clock.set(datetime)`` jumps to an instant (either direction) and tells the clock's
  jump listeners (the rule runner re-plans its daily schedules); timers already due then fire
  on the loop right away, in order.

Everything that dates things (``clock.utcnow()``: events, logs, uptime) follows the offset.
The offset is process-wide (``clock.set_offset``), like a time freezer: while one emulator's
clock is moved, another emulator in the same process sees the same time. ``close()`` (the
emulator's ``stop()``) puts it back to real time.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from . import clock
from .clock import HUB_TZ

Callback = Callable[[], None]


class ClockTimer:
    """One pending :meth:`EmuClock.call_at`; ``cancel()`` it to stop it firing."""

    __slots__ = ("callback", "cancelled", "seq", "when")

    def __init__(self, when: datetime, seq: int, callback: Callback) -> None:
        self.when = when
        self.seq = seq
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __lt__(self, other: ClockTimer) -> bool:
        return (self.when, self.seq) < (other.when, other.seq)


class EmuClock:
    """The hub's clock (see the module docstring)."""

    def __init__(self, *, settle_rounds: int = 30) -> None:
        self._offset = timedelta(0)
        self._heap: list[ClockTimer] = []
        self._seq = itertools.count()
        self._handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._moved = False
        self.settle_rounds = settle_rounds
        self.jump_listeners: list[Callback] = []

    # ------------------------------------------------------------------ now

    def now(self) -> datetime:
        """Aware UTC now, as the hub sees it."""
        return datetime.now(UTC) + self._offset

    def local_now(self) -> datetime:
        """Now in the emulator's zone (``clock.HUB_TZ``)."""
        return self.now().astimezone(HUB_TZ)

    @property
    def offset(self) -> timedelta:
        """How far the hub's clock is ahead of (positive) or behind real time."""
        return self._offset

    def _set_offset(self, offset: timedelta) -> None:
        self._offset = offset
        self._moved = True
        clock.set_offset(offset)

    def set(self, when: datetime) -> None:
        """Jump to ``when`` (aware; naive is taken as hub-local). Timers now due fire soon, in
        order; jump listeners run first (synchronously)."""
        if when.tzinfo is None:
            when = when.replace(tzinfo=HUB_TZ)
        self._set_offset(when - datetime.now(UTC))
        for listener in list(self.jump_listeners):
            listener()
        self._arm()

    async def advance(
        self,
        seconds: float = 0.0,
        *,
        minutes: float = 0.0,
        hours: float = 0.0,
        days: float = 0.0,
    ) -> None:
        """Move the clock forward, firing every timer that falls due on the way (in order) and
        letting the loop run the consequences of each."""
        delta = timedelta(seconds=seconds, minutes=minutes, hours=hours, days=days)
        if delta < timedelta(0):
            raise ValueError("the clock only advances forward")
        final = self._offset + delta
        await self.settle()
        while True:
            timer = self._pop_due(datetime.now(UTC) + final)
            if timer is None:
                break
            step = timer.when - datetime.now(UTC)
            if step > self._offset:
                self._set_offset(min(step, final))
            timer.callback()
            await self.settle()
        self._set_offset(final)
        self._arm()
        await self.settle()

    async def settle(self) -> None:
        """Let the event loop run what is ready (a few rounds of ``sleep(0)``)."""
        for _ in range(self.settle_rounds):
            await asyncio.sleep(0)

    # ------------------------------------------------------------------ timers

    def call_at(self, when: datetime, callback: Callback) -> ClockTimer:
        """Run ``callback()`` once the hub's clock reaches ``when`` (aware)."""
        timer = ClockTimer(when, next(self._seq), callback)
        heapq.heappush(self._heap, timer)
        self._arm()
        return timer

    def call_later(self, seconds: float, callback: Callback) -> ClockTimer:
        return self.call_at(self.now() + timedelta(seconds=seconds), callback)

    async def sleep(self, seconds: float) -> None:
        """Sleep on the hub's clock (wakes when it is advanced past the end, or in real time)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not fut.done():
                fut.set_result(None)

        timer = self.call_later(seconds, wake)
        try:
            await fut
        finally:
            timer.cancel()

    @property
    def pending(self) -> int:
        """How many timers are waiting (cancelled ones not counted)."""
        return sum(1 for t in self._heap if not t.cancelled)

    def _pop_due(self, limit: datetime) -> ClockTimer | None:
        while self._heap:
            head = self._heap[0]
            if head.cancelled:
                heapq.heappop(self._heap)
                continue
            if head.when > limit:
                return None
            heapq.heappop(self._heap)
            return head
        return None

    def _arm(self) -> None:
        """(Re)schedule the real-time wake-up for the earliest timer."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        while self._heap and self._heap[0].cancelled:
            heapq.heappop(self._heap)
        if not self._heap:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet: the timers fire on advance() or the next call_at in a loop
        self._loop = loop
        delay = (self._heap[0].when - self.now()).total_seconds()
        self._handle = loop.call_later(max(0.0, delay), self._fire_due)

    def _fire_due(self) -> None:
        self._handle = None
        try:
            while (timer := self._pop_due(self.now())) is not None:
                try:
                    timer.callback()
                except Exception as err:  # one failing timer never stops the others
                    if self._loop is not None:
                        self._loop.call_exception_handler(
                            {"message": "emulated clock timer failed", "exception": err}
                        )
        finally:
            self._arm()

    def close(self) -> None:
        """Drop every timer and return to real time (when this clock had moved it)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        for timer in self._heap:
            timer.cancel()
        self._heap.clear()
        if self._moved:
            self._offset = timedelta(0)
            self._moved = False
            clock.set_offset(timedelta(0))
