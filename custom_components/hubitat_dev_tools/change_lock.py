"""One hub's calls that change it, kept apart from the calls whose judgement they could change.

The chokepoint judges a call by what it makes the hub do (``SensitivityModel``), reading the
hub's apps and devices, and only then acts. Two calls of one assistant can run at once
(mcp_server does not serialise them), so without this a call could change a rule between
another call's judgement of that rule and its press of Run Actions: the press would run what
was never judged.

Every call that writes holds the hub's ``ChangeLock`` from its judgement to its end:

- an **acting** call (a device or room command, a scene, a rule run, a mode, HSM, a variable
  value, pausing or disabling: what makes the home act without changing what anything is or
  does) holds it *shared*: acting calls run side by side;
- every other write (a rule, an app's settings, a device's driver, code, a restore...)
  holds it *alone*: no acting call is judged or acts while it changes the hub.

Waiting is first come, first served, and bounded: a call that cannot take it in time is
refused with ``hub_busy`` before anything is sent (and before an owner's approval is used
up). A step of a call that holds the lock (a gateway's tool, a snapshot restore's steps)
runs under its caller's hold. An acting call that has sent its command and only waits for
its effect lets go (``Hold.release``). A change cut off before its answer (cancelled, timed
out) may still land at the hub: it keeps the lock a while longer (``Hold.linger``), then the
sensitivity model forgets what it knew. Release never awaits, so a cancelled call cannot
leave the lock taken.

Changes made on the hub itself (its UI, its own apps) are outside this: the owner's.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from .errors import ToolError

# the locks the current call (and its steps) hold
_HELD: ContextVar[frozenset[ChangeLock]] = ContextVar("hdt_change_locks_held", default=frozenset())

# how long a call waits for another call's change to end (bounded by its own budget)
WAIT_S = 30.0


@dataclass(slots=True)
class _Waiter:
    shared: bool
    name: str
    future: asyncio.Future[None]


@dataclass(slots=True, eq=False)
class Hold:
    """One call's hold of a ``ChangeLock`` (nothing to release for a step of a holding call)."""

    lock: ChangeLock
    acting: bool
    name: str
    owned: bool
    _linger_s: float = 0.0
    _then: Callable[[], None] | None = None
    _timer: asyncio.TimerHandle | None = None

    def release(self) -> None:
        """Let go now (idempotent): an acting call whose command is sent and which only
        waits for its effect holds nothing another call could change under it."""
        if self.owned:
            self.owned = False
            self.lock._release(self.acting, self.name)

    def linger(self, seconds: float, then: Callable[[], None] | None = None) -> None:
        """At the end, keep holding for ``seconds`` more (then call ``then``): a change that
        was cut off (cancelled, timed out) may still land at the hub, and no call is judged
        until it has."""
        self._linger_s, self._then = seconds, then

    def end(self) -> None:
        """The call ends: release, at once or after its linger."""
        if not self.owned:
            return
        if self._linger_s <= 0:
            self.release()
            return
        self._timer = asyncio.get_running_loop().call_later(self._linger_s, self.finish)
        self.lock._lingering.add(self)

    def finish(self) -> None:
        """The linger is over (or the lock closes): release, then ``then``."""
        if self._timer is not None:
            self._timer.cancel()
        self.lock._lingering.discard(self)
        self.release()
        if self._then is not None:
            self._then()


@dataclass(slots=True, eq=False)  # compared and hashed by identity
class ChangeLock:
    """A first-come, first-served shared/alone lock for one hub's writes (see the module)."""

    _acting: Counter[str] = field(default_factory=Counter)
    _changing: tuple[str, float] | None = None
    _queue: deque[_Waiter] = field(default_factory=deque)
    # holds that linger (ended now by ``close``)
    _lingering: set[Hold] = field(default_factory=set)

    def close(self) -> None:
        """The hub goes away (its entry unloads, Home Assistant stops): end lingering holds
        now, so no timer outlives it."""
        for hold in list(self._lingering):
            hold.finish()

    @asynccontextmanager
    async def hold(self, name: str, *, acting: bool, wait_s: float = WAIT_S) -> AsyncIterator[Hold]:
        """Hold the lock for call ``name`` (shared if ``acting``), waiting at most ``wait_s``;
        ``hub_busy`` (nothing sent) when it stays taken. The ``Hold`` can let go early (an
        acting call that has sent its command and only waits) or linger (a change whose
        request may still land at the hub)."""
        held = _HELD.get()
        if self in held:  # a step of a call that already holds it
            yield Hold(self, acting, name, owned=False)
            return
        try:
            async with asyncio.timeout(max(wait_s, 0.0)):
                await self._acquire(acting, name)
        except TimeoutError:
            raise ToolError(
                f"Another call through these tools is still changing this hub "
                f"({self.describe()}), so {name} waited {wait_s:.0f} s and sent nothing.",
                code="hub_busy",
                hint="Call again when that change has finished.",
            ) from None
        hold = Hold(self, acting, name, owned=True)
        token = _HELD.set(held | {self})
        try:
            yield hold
        finally:
            _HELD.reset(token)
            hold.end()

    def describe(self) -> str:
        """Who holds it, for a refusal."""
        if self._changing is not None:
            name, since = self._changing
            return f"{name}, for {time.monotonic() - since:.0f} s"
        if self._acting:
            return ", ".join(sorted(self._acting))
        return "calls queued before this one"

    @property
    def busy(self) -> bool:
        """Whether any call holds or waits for it."""
        return self._changing is not None or bool(self._acting) or bool(self._queue)

    def _free_for(self, acting: bool) -> bool:
        return self._changing is None and (acting or not self._acting)

    def _take(self, acting: bool, name: str) -> None:
        if acting:
            self._acting[name] += 1
        else:
            self._changing = (name, time.monotonic())

    def _release(self, acting: bool, name: str) -> None:
        if acting:
            self._acting[name] -= 1
            if self._acting[name] <= 0:
                del self._acting[name]
        else:
            self._changing = None
        self._wake()

    def _wake(self) -> None:
        """Grant the queue's head while it fits (consecutive acting calls together)."""
        while self._queue:
            head = self._queue[0]
            if head.future.done():  # given up (timed out or cancelled)
                self._queue.popleft()
                continue
            if not self._free_for(head.shared):
                return
            self._queue.popleft()
            self._take(head.shared, head.name)
            head.future.set_result(None)

    async def _acquire(self, acting: bool, name: str) -> None:
        if not self._queue and self._free_for(acting):
            self._take(acting, name)
            return
        waiter = _Waiter(acting, name, asyncio.get_running_loop().create_future())
        self._queue.append(waiter)
        try:
            await waiter.future
        except BaseException:
            if waiter.future.done() and not waiter.future.cancelled():
                self._release(acting, name)  # granted as it was given up: hand it on
            else:
                waiter.future.cancel()
                self._wake()  # a call queued behind this one may fit now
            raise
