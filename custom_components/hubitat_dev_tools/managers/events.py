"""Live events: log lines as they happen and the ring of recent hub events.

While the event stream runs, answers come from the state cache (its rings and live log
waiters); without it, from a one-shot ``/logsocket`` or from the hub's own event history.
The one-shot socket is shared: concurrent tails of one hub listen on the same socket
(:class:`SharedLogTail`), so callers cannot open sockets without bound.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from ..device_refs import DeviceScreen
from ..errors import ToolError
from ..hub.client import HubClient
from ..hub.controllers import DevicesController, EventsController
from ..hub.events import LOG_PATH, HubEvent, HubSocket, LogLine, level_rank, parse_log_frame
from ..hub.state_cache import EventPredicate, LogPredicate, StateCache
from ..redact import redact

DeviceAllowed = Callable[[str], bool]


class _Shown(Protocol):
    """A log line (past or live) as a tool shows it: :meth:`as_dict`, then redacted."""

    def as_dict(self) -> dict[str, Any]: ...


def shown_line(line: _Shown, screen: DeviceScreen | None = None) -> dict[str, Any]:
    """A log line as the tools return it (redacted; with ``screen``, the labels of devices
    outside the allowlist replaced). Text filters match THIS, never the raw line, so a
    filter cannot tell anything about a secret or a device the answer hides."""
    shown: dict[str, Any] = redact(line.as_dict())
    if screen is not None and screen.active:
        for key in ("name", "message"):
            if isinstance(shown.get(key), str):
                shown[key] = screen.text(shown[key])
    return shown


def line_allowed(
    source_type: str | None, source_id: str | None, device_allowed: DeviceAllowed
) -> bool:
    """Whether a log line may be shown: a device's line only while its device is in the
    allowlist (lines of apps, of the hub, or of no known device always)."""
    return source_type != "dev" or not source_id or device_allowed(source_id)


def device_visible(device_id: object, device_allowed: DeviceAllowed) -> bool:
    """Whether an event (or a statistics row) may be shown: one of a device only while the
    device is in the allowlist; one of no device always."""
    return device_id is None or device_allowed(str(device_id))


def refuse_outside_source(
    source_type: str | None, source_id: str | None, device_allowed: DeviceAllowed
) -> None:
    """Refuse a log query scoped to one device outside the allowlist (before any request)."""
    if source_type == "dev" and source_id and not device_allowed(source_id):
        raise ToolError(
            f"Device(s) {source_id} are outside the assistant's device allowlist. "
            "Nothing was sent to the hub.",
            code="device_not_allowed",
            hint="Do not retry with the same device. An admin can change the allowlist in the "
            "integration's options.",
            subject="log_source",
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class LogFilter:
    """Which live log lines match (every given condition)."""

    level: str | None = None  # this severity and more severe
    source_type: str | None = None  # dev | app
    source_id: str | None = None
    source: str | None = None  # part of the device or app name
    text: str | None = None  # part of the message

    def predicate(
        self, device_allowed: DeviceAllowed, screen: DeviceScreen | None = None
    ) -> LogPredicate:
        """The line predicate; device lines outside the allowlist never match, and the
        name and text filters only see the redacted line (:func:`shown_line`)."""
        max_rank = level_rank(self.level or "trace")
        name = (self.source or "").strip().lower()
        text = (self.text or "").strip().lower()

        def match(line: LogLine) -> bool:
            if level_rank(line.level) > max_rank:
                return False
            if not line_allowed(line.source_type, line.source_id, device_allowed):
                return False
            if self.source_type and line.source_type != self.source_type:
                return False
            if self.source_id and line.source_id != self.source_id:
                return False
            if not (name or text):
                return True
            shown = shown_line(line, screen)  # the text the answer shows: secrets replaced
            if name and name not in str(shown.get("name") or "").lower():
                return False
            return not text or text in str(shown.get("message") or "").lower()

        return match


@dataclass(frozen=True, slots=True, kw_only=True)
class EventFilter:
    """Which recent hub events match (every given condition)."""

    device_id: str | None = None
    source: str | None = None  # DEVICE | APP | HUB | LOCATION
    name: str | None = None
    since_s: float | None = None  # only the last N seconds

    def predicate(self, device_allowed: DeviceAllowed) -> EventPredicate:
        """The event predicate; events of devices outside the allowlist never match."""
        since = time.time() - self.since_s if self.since_s else None

        def match(event: HubEvent) -> bool:
            if self.device_id and event.device_id != self.device_id:
                return False
            if not device_visible(event.device_id, device_allowed):
                return False
            if self.source and event.source != self.source:
                return False
            if self.name and event.name != self.name:
                return False
            return since is None or event.received_at >= since

        return match


def history_row(row: dict[str, Any], source: str) -> dict[str, Any]:
    """One event of the hub's own history in the shape of a live event."""
    out = {
        "time": row.get("date"),
        "source": source,
        "name": row.get("name"),
        "value": row.get("value"),
    }
    if row.get("deviceId") is not None:
        out["device_id"] = str(row["deviceId"])
    if row.get("descriptionText"):
        out["description"] = row["descriptionText"]
    redacted: dict[str, Any] = redact(out)
    return redacted


NO_LOG_RING_NOTE = "No live log ring for this hub (the event stream is not running)."


@dataclass(slots=True)
class _Listener:
    """One caller of the shared tail: its filter, its lines, its own window."""

    match: LogPredicate
    limit: int
    window: float
    lines: list[LogLine] = field(default_factory=list)
    deadline: float | None = None  # monotonic; set once the socket is open
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(slots=True)
class _TailRun:
    """One open one-shot socket and the callers listening on it."""

    listeners: list[_Listener] = field(default_factory=list)
    accepting: bool = True  # False once it is closing: a new caller starts a new run
    opened: bool = False
    error: BaseException | None = None
    task: asyncio.Task[None] | None = None


class SharedLogTail:
    """At most one one-shot ``/logsocket`` per hub at a time, shared by concurrent callers.

    A caller joining an open socket gets the lines from then on for its own window; the
    socket closes when the last caller's window (or line limit) is reached. While a socket is
    closing, a new caller opens the next one, so at most two exist for a moment.
    """

    def __init__(self, client: HubClient) -> None:
        self._client = client
        self._run: _TailRun | None = None
        self.sockets_opened = 0

    @property
    def listening(self) -> int:
        """Callers listening now."""
        run = self._run
        return len([x for x in run.listeners if not x.done.is_set()]) if run else 0

    async def listen(self, match: LogPredicate, window: float, limit: int) -> list[LogLine]:
        """The matching lines arriving within ``window`` seconds (at most ``limit``)."""
        run = self._run
        if run is None or not run.accepting:
            run = self._run = _TailRun()
            run.task = asyncio.get_running_loop().create_task(self._serve(run))
        listener = _Listener(match, limit, window)
        if run.opened:
            listener.deadline = time.monotonic() + window
        run.listeners.append(listener)
        try:
            await listener.done.wait()
        finally:
            listener.done.set()  # a cancelled caller leaves; the socket ends without it
        if run.error is not None:
            raise run.error
        return listener.lines

    def _remaining(self, run: _TailRun) -> float | None:
        """Seconds until the next caller's window ends; None when nobody listens."""
        now = time.monotonic()
        run.opened = True
        left: list[float] = []
        for listener in run.listeners:
            if listener.done.is_set():
                continue
            if listener.deadline is None:
                listener.deadline = now + listener.window
            if listener.deadline <= now:
                listener.done.set()
            else:
                left.append(listener.deadline - now)
        if not left:
            run.accepting = False
            return None
        return min(left)

    def _feed(self, run: _TailRun, text: str) -> None:
        line = parse_log_frame(text, self._client.time_zone)
        if line is None:
            return
        for listener in run.listeners:
            if not listener.done.is_set() and listener.match(line):
                listener.lines.append(line)
                if len(listener.lines) >= listener.limit:
                    listener.done.set()

    async def _serve(self, run: _TailRun) -> None:
        self.sockets_opened += 1
        socket = HubSocket(self._client, LOG_PATH, lambda _t: None)
        try:
            await socket.read_while(
                lambda: self._remaining(run), lambda text: self._feed(run, text)
            )
        except Exception as err:  # every caller of this run gets it
            run.error = err
        finally:
            run.accepting = False
            if self._run is run:
                self._run = None
            for listener in run.listeners:
                listener.done.set()


class LiveEventsManager:
    """Live log lines and recent events (the cache is set while the event stream runs)."""

    def __init__(
        self, devices: DevicesController, events: EventsController, log_tail: SharedLogTail
    ) -> None:
        self._devices = devices
        self._events = events
        self.cache: StateCache | None = None
        self.log_tail = log_tail

    async def tail_logs(
        self,
        log_filter: LogFilter,
        window: float,
        limit: int,
        *,
        include_recent: bool,
        device_allowed: DeviceAllowed,
        screen: DeviceScreen | None = None,
    ) -> dict[str, Any]:
        """Log lines arriving within ``window`` seconds (and, optionally, recent ones)."""
        refuse_outside_source(log_filter.source_type, log_filter.source_id, device_allowed)
        match = log_filter.predicate(device_allowed, screen)
        cache = self.cache
        started = time.monotonic()
        recent: list[LogLine] = []
        if cache is not None and include_recent:
            recent = cache.recent_logs(match, limit=limit)
        if cache is not None and cache.logs_live:
            lines = await cache.collect_logs(match, window, limit=limit)
            via = "live_stream"
        else:
            lines = await self._listen_logs(match, window, limit)
            via = "one_shot_socket"
        out: dict[str, Any] = {
            "lines": [shown_line(line, screen) for line in lines],
            "count": len(lines),
            "listened_s": round(time.monotonic() - started, 2),
            "via": via,
        }
        if include_recent:
            out["recent"] = [shown_line(line, screen) for line in reversed(recent)]
            if cache is None:
                out["recent_note"] = NO_LOG_RING_NOTE
        if len(lines) >= limit:
            out["truncated"] = f"Stopped at {limit} lines; narrow with level/source/text."
        return out

    async def _listen_logs(self, match: LogPredicate, window: float, limit: int) -> list[LogLine]:
        """Live log lines for ``window`` seconds over the shared one-shot ``/logsocket``."""
        if window <= 0:
            return []
        return await self.log_tail.listen(match, window, limit)

    async def recent_events(
        self, event_filter: EventFilter, limit: int, device_allowed: DeviceAllowed
    ) -> dict[str, Any]:
        """Newest first from the ring; without a running stream, from the hub's history."""
        cache = self.cache
        if cache is not None:
            events = cache.recent_events(event_filter.predicate(device_allowed), limit=limit)
            return {
                "events": [redact(e.as_dict()) for e in events],
                "count": len(events),
                "ring_size": len(cache.events),
                "freshness": cache.freshness(),
            }
        # No live stream: the hub's own history (one request).
        device_id = event_filter.device_id
        if device_id:
            raw = cast(list[dict[str, Any]], await self._devices.events(device_id))
            rows = [history_row(r, "DEVICE") | {"device_id": device_id} for r in raw]
        else:
            raw = cast(list[dict[str, Any]], await self._events.location())
            rows = [history_row(r, "LOCATION") for r in raw]
        rows = [r for r in rows if device_visible(r.get("device_id"), device_allowed)]
        if event_filter.source:
            rows = [r for r in rows if r["source"] == event_filter.source]
        if event_filter.name:
            rows = [r for r in rows if r["name"] == event_filter.name]
        return {
            "events": rows[:limit],
            "count": min(len(rows), limit),
            "freshness": {"source": "hub_history", "live": False},
            "note": "The live event stream is not running for this hub; this is the hub's "
            + ("device history." if device_id else "location event history."),
        }
