"""Per-hub live state cache, kept current by ``/eventsocket`` events.

* Hydrated by ONE bulk read at every (re)connect (events may have been missed while down):
  device states (``fetch_devices``: two requests), mode and HSM (``/hub/messages``: one
  request) and hub variables (Maker ``/hubvariables``: one request, when configured).
* Then every event updates it: device attributes, the active mode, HSM status/alert, hub
  variables. A bounded ring keeps the recent events (and another the recent log lines).
* Reads answer from the cache with zero hub requests while it is live (socket connected and
  hydrated), and fall back to the hub otherwise. Each answer carries ``freshness``.
* Waiters resolve on the event itself (no polling); a waiter that also has a state check is
  re-checked after every hydration, so a change made while the stream was down still counts.

No Home Assistant import here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from .client import HubClient
from .devices import fetch_devices
from .errors import HubError, HubUnreachableError
from .events import HubEvent, HubSocket, LogLine, parse_event_frame, parse_log_frame
from .hsm import fetch_messages
from .models import DeviceSummary, coerce_numeric_text

_LOGGER = logging.getLogger(__name__)

DEFAULT_EVENT_RING = 1000
DEFAULT_LOG_RING = 500

EventPredicate = Callable[[HubEvent], bool]
LogPredicate = Callable[[LogLine], bool]


def _copy(dev: DeviceSummary) -> DeviceSummary:
    """A copy callers may change without touching the cache (cheaper than deepcopy)."""
    return replace(
        dev,
        states=dict(dev.states),
        capabilities=list(dev.capabilities),
        child_ids=list(dev.child_ids),
        tags=list(dev.tags),
    )


def _iso(ts: float | None) -> str | None:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds") if ts else None


def _apply_state(devices: dict[str, DeviceSummary], event: HubEvent) -> None:
    """A device event's new attribute value, on the device it names (if known)."""
    dev = devices.get(event.device_id) if event.device_id is not None else None
    if dev is not None:
        dev.states[event.name] = coerce_numeric_text(event.value)
        dev.last_activity = _iso(event.received_at)


@dataclass(slots=True)
class _Waiter:
    predicate: EventPredicate
    future: asyncio.Future[HubEvent | None]
    # Re-evaluated after each hydration: a truthy answer resolves the waiter (with None).
    state_check: Callable[[], bool] | None = None
    # Resolve (with None) when the cache re-synchronises or goes stale: the caller re-reads.
    wake_on_resync: bool = False


@dataclass(slots=True)
class _LogWaiter:
    predicate: LogPredicate
    sink: list[LogLine]
    limit: int
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(slots=True)
class WaitOutcome:
    """What a wait saw: ``met`` and the event that met it (None if already true/hydrated)."""

    met: bool
    event: HubEvent | None = None
    waited_s: float = 0.0
    via: str = "event"  # event | state | timeout

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        out: dict[str, Any] = {"met": self.met, "waited_s": round(self.waited_s, 3)}
        out["via"] = self.via
        if self.event is not None:
            out["event"] = self.event.as_dict()
        return out


# How long a device stays read-from-hub after our command when no event comes back.
DIRTY_TTL = 2.0


class StateCache:
    """The live picture of one hub."""

    def __init__(
        self,
        client: HubClient,
        *,
        event_ring: int = DEFAULT_EVENT_RING,
        log_ring: int = DEFAULT_LOG_RING,
    ) -> None:
        self._client = client
        self.devices: dict[str, DeviceSummary] = {}
        self.mode: str | None = None
        self.hsm_status: str | None = None
        self.hsm_alert: str | None = None
        self.variables: dict[str, dict[str, Any]] = {}
        self.events: deque[HubEvent] = deque(maxlen=event_ring)
        self.logs: deque[LogLine] = deque(maxlen=log_ring)
        self.hydrated = False
        self.hydrations = 0
        self.hydrated_at: float | None = None
        self.last_event_at: float | None = None
        self.events_seen = 0
        # events of apps and of the hub itself (an app installed, changed or removed; a
        # device added): what others derived from the hub's apps may be out of date
        self.app_events_seen = 0
        self.junk_frames = 0
        self.event_socket: HubSocket | None = None
        self.log_socket: HubSocket | None = None
        self._waiters: list[_Waiter] = []
        self._log_waiters: list[_LogWaiter] = []
        # Devices we just sent a command to: their event has not arrived yet, so reads of
        # them go to the hub until it does (or the mark expires). Read-after-write is exact.
        self._dirty: dict[str, float] = {}
        # A device was created or edited through us: the next device list re-reads the hub.
        self._devices_stale = False
        # (monotonic time, /modes/json payload) kept by ModeManager; None = read the hub.
        self.modes_payload: tuple[float, dict[str, Any]] | None = None

    # ------------------------------------------------------------------ state

    @property
    def live(self) -> bool:
        """True when reads can be answered from the cache (connected and hydrated)."""
        sock = self.event_socket
        return self.hydrated and sock is not None and sock.connected

    @property
    def logs_live(self) -> bool:
        """True when the log socket is connected."""
        return self.log_socket is not None and self.log_socket.connected

    def freshness(self) -> dict[str, Any]:
        """How fresh a cached answer is."""
        now = time.time()
        ref = self.last_event_at or self.hydrated_at
        return {
            "source": "live_cache" if self.live else "hub",
            "live": self.live,
            "hydrated_at": _iso(self.hydrated_at),
            "last_event_at": _iso(self.last_event_at),
            "age_s": round(now - ref, 3) if ref else None,
        }

    @staticmethod
    def from_hub() -> dict[str, Any]:
        """Freshness of an answer read from the hub just now."""
        return {"source": "hub", "live": False, "age_s": 0.0}

    def mark_stale(self) -> None:
        """The socket went down: stop answering from the cache until re-hydrated."""
        self.hydrated = False
        self._wake_resync_waiters()

    def _wake_resync_waiters(self) -> None:
        for waiter in self._waiters:
            if waiter.wake_on_resync and not waiter.future.done():
                waiter.future.set_result(None)

    def diagnostics(self) -> dict[str, Any]:
        """Stream and cache state for diagnostics."""
        stats = self.event_socket.stats if self.event_socket else None
        return {
            "connected": stats.connected if stats else False,
            "last_event_at": _iso(self.last_event_at),
            "reconnects": stats.reconnects if stats else 0,
            "cache_size": {
                "devices": len(self.devices),
                "variables": len(self.variables),
                "events": len(self.events),
                "logs": len(self.logs),
            },
            "live": self.live,
            "hydrations": self.hydrations,
            "hydrated_at": _iso(self.hydrated_at),
            "events_seen": self.events_seen,
            "junk_frames": self.junk_frames,
            "waiters": len(self._waiters),
            "event_socket": self.event_socket.stats.as_dict() if self.event_socket else None,
            "log_socket": self.log_socket.stats.as_dict() if self.log_socket else None,
        }

    # ------------------------------------------------------------------ hydration

    async def hydrate(self) -> None:
        """One bulk read of everything the cache holds (raises HubError on failure)."""
        self.hydrated = False
        client = self._client
        devices = await fetch_devices(client)
        messages = await fetch_messages(client)
        variables: dict[str, dict[str, Any]] | None = None
        if client.connection.has_maker:
            try:
                raw = await client.maker_get("hubvariables")
            except HubError as err:
                _LOGGER.debug("Hub variables not hydrated: %s", err)
            else:
                variables = {}
                if isinstance(raw, list):
                    for item in raw:
                        if isinstance(item, dict) and item.get("name") is not None:
                            name = str(item["name"])
                            variables[name] = {
                                "name": name,
                                "value": item.get("value"),
                                "type": item.get("type"),
                            }
        self.devices = {d.id: d for d in devices}
        self._devices_stale = False
        self.mode = messages.mode
        self.hsm_status = messages.hsm
        self.hsm_alert = messages.hsm_alert
        if variables is not None:
            self.variables = variables
        self.hydrated = True
        self.hydrations += 1
        self.hydrated_at = time.time()

    def resynced(self) -> None:
        """The socket is connected again after a hydration: re-check waiters on the new state.
        (The owner calls it once the socket reports connected, so ``live`` is True here.)"""
        self._recheck_waiters()

    # ------------------------------------------------------------------ events

    def handle_event_text(self, text: str) -> None:
        """Socket callback: parse and apply one frame (junk is counted and skipped)."""
        event = parse_event_frame(text)
        if event is None:
            self.junk_frames += 1
            return
        self.apply(event)

    def handle_log_text(self, text: str) -> None:
        """Socket callback for ``/logsocket``."""
        line = parse_log_frame(text, self._client.time_zone)
        if line is None:
            self.junk_frames += 1
            return
        self.add_log(line)

    def mark_dirty(self, device_id: str, ttl: float = DIRTY_TTL) -> None:
        """A command was just sent to ``device_id``: read it from the hub until its event."""
        self._dirty[device_id] = time.monotonic() + ttl

    def is_dirty(self, device_id: str | None = None) -> bool:
        """Is this device (or, with no id, any device) waiting for its post-command event?"""
        now = time.monotonic()
        for key in [k for k, deadline in self._dirty.items() if deadline <= now]:
            del self._dirty[key]
        return bool(self._dirty) if device_id is None else device_id in self._dirty

    def apply(self, event: HubEvent) -> None:
        """Apply one event to the cache, record it, resolve matching waiters."""
        self.events_seen += 1
        self.last_event_at = event.received_at
        self.events.append(event)
        kind = event.kind
        if event.source in ("APP", "HUB"):
            self.app_events_seen += 1
        if kind == "device" and event.device_id is not None:
            self._dirty.pop(event.device_id, None)
            _apply_state(self.devices, event)
        elif kind == "mode":
            self.mode = event.value
        elif kind == "hsm_status":
            self.hsm_status = event.value
        elif kind == "hsm_alert":
            self.hsm_alert = None if event.value in (None, "cancel") else event.value
        elif kind == "variable" and (name := event.variable_name):
            var = self.variables.setdefault(name, {"name": name, "value": None, "type": None})
            var["value"] = event.value
        if self._waiters:
            for waiter in list(self._waiters):
                if waiter.future.done():
                    continue
                try:
                    hit = waiter.predicate(event)
                except Exception:
                    _LOGGER.exception("Wait predicate failed")
                    hit = False
                if hit:
                    waiter.future.set_result(event)

    def add_log(self, line: LogLine) -> None:
        """Record one log line; feed live log waiters."""
        self.logs.append(line)
        for waiter in self._log_waiters:
            if len(waiter.sink) >= waiter.limit:
                continue
            try:
                hit = waiter.predicate(line)
            except Exception:
                hit = False
            if hit:
                waiter.sink.append(line)
                if len(waiter.sink) >= waiter.limit:
                    waiter.done.set()

    def _recheck_waiters(self) -> None:
        self._wake_resync_waiters()
        for waiter in list(self._waiters):
            if waiter.future.done() or waiter.state_check is None:
                continue
            try:
                if waiter.state_check():
                    waiter.future.set_result(None)
            except Exception:
                _LOGGER.exception("Wait state check failed")

    # ------------------------------------------------------------------ waits

    async def wait_for(
        self,
        predicate: EventPredicate,
        timeout: float,
        *,
        state_check: Callable[[], bool] | None = None,
        wake_on_resync: bool = False,
    ) -> WaitOutcome:
        """Wait for an event matching ``predicate`` (or ``state_check`` true now/after a
        hydration), at most ``timeout`` seconds. Never polls the hub.

        ``wake_on_resync``: also return (``met`` True, ``via`` "resync", no event) when the
        cache is re-hydrated or goes stale, so a caller looping over cache reads re-reads."""
        start = time.monotonic()
        if state_check is not None and self.live and state_check():
            return WaitOutcome(True, None, 0.0, "state")
        future: asyncio.Future[HubEvent | None] = asyncio.get_running_loop().create_future()
        waiter = _Waiter(predicate, future, state_check, wake_on_resync)
        self._waiters.append(waiter)
        try:
            event = await asyncio.wait_for(future, max(0.0, timeout))
        except TimeoutError:
            return WaitOutcome(False, None, time.monotonic() - start, "timeout")
        finally:
            self._waiters.remove(waiter)
        via = "event" if event is not None else ("resync" if wake_on_resync else "state")
        return WaitOutcome(True, event, time.monotonic() - start, via)

    async def wait_device_attribute(
        self,
        device_id: str,
        attribute: str,
        condition: Callable[[Any], bool],
        timeout: float,
    ) -> WaitOutcome:
        """Wait until a device attribute satisfies ``condition`` (typed like the cache)."""

        def on_event(event: HubEvent) -> bool:
            return (
                event.kind == "device"
                and event.device_id == device_id
                and event.name == attribute
                and condition(coerce_numeric_text(event.value))
            )

        def state_now() -> bool:
            dev = self.devices.get(device_id)
            return dev is not None and attribute in dev.states and condition(dev.states[attribute])

        return await self.wait_for(on_event, timeout, state_check=state_now)

    async def collect_logs(
        self, predicate: LogPredicate, window: float, *, limit: int = 200
    ) -> list[LogLine]:
        """Log lines matching ``predicate`` arriving within ``window`` seconds (or until
        ``limit`` lines)."""
        waiter = _LogWaiter(predicate, [], limit)
        self._log_waiters.append(waiter)
        try:
            if window > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter.done.wait(), window)
        finally:
            self._log_waiters.remove(waiter)
        return list(waiter.sink)

    def recent_events(
        self, predicate: EventPredicate | None = None, *, limit: int = 100
    ) -> list[HubEvent]:
        """Newest first, from the ring."""
        out: list[HubEvent] = []
        for event in reversed(self.events):
            if predicate is None or predicate(event):
                out.append(event)
                if len(out) >= limit:
                    break
        return out

    def recent_logs(
        self, predicate: LogPredicate | None = None, *, limit: int = 100
    ) -> list[LogLine]:
        """Newest first, from the ring."""
        out: list[LogLine] = []
        for line in reversed(self.logs):
            if predicate is None or predicate(line):
                out.append(line)
                if len(out) >= limit:
                    break
        return out

    # ------------------------------------------------------------------ reads (cache first)

    def remove_device(self, device_id: str) -> None:
        """A device (and its children) is gone from the hub: drop it."""
        self._dirty.pop(device_id, None)
        dev = self.devices.pop(device_id, None)
        for child in dev.child_ids if dev is not None else []:
            self.remove_device(child)

    def invalidate_devices(self) -> None:
        """Devices were created or edited (label, room...): re-read the list on next use."""
        self._devices_stale = True

    async def _refresh_devices(self) -> list[DeviceSummary]:
        """Re-read the device list; events that arrived meanwhile are applied on top."""
        seen = self.events_seen
        devices = await fetch_devices(self._client)
        fresh = {d.id: d for d in devices}
        missed = min(self.events_seen - seen, len(self.events))
        for event in list(self.events)[len(self.events) - missed :]:
            if event.kind == "device":
                _apply_state(fresh, event)
        self.devices = fresh
        self._devices_stale = False
        return list(fresh.values())

    async def read_devices(self) -> tuple[list[DeviceSummary], dict[str, Any]]:
        """Every device with states: from the cache when live (copies), else the hub."""
        if self.live and self._devices_stale:
            return [_copy(d) for d in await self._refresh_devices()], self.from_hub()
        if self.live:
            return [_copy(d) for d in self.devices.values()], self.freshness()
        return await fetch_devices(self._client), self.from_hub()

    def cached_device(self, device_id: str) -> DeviceSummary | None:
        """A copy of one cached device, or None when not live or unknown."""
        if not self.live:
            return None
        dev = self.devices.get(device_id)
        return _copy(dev) if dev is not None else None

    async def read_mode(self) -> tuple[str | None, dict[str, Any]]:
        """The active mode name."""
        if self.live and self.mode is not None:
            return self.mode, self.freshness()
        mode = (await fetch_messages(self._client)).mode
        return mode, self.from_hub()

    async def read_hsm(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """HSM status and alert."""
        if self.live and self.hsm_status is not None:
            return {"status": self.hsm_status, "alert": self.hsm_alert}, self.freshness()
        messages = await fetch_messages(self._client)
        return {"status": messages.hsm, "alert": messages.hsm_alert}, self.from_hub()

    def cached_variables(self) -> list[dict[str, Any]] | None:
        """Copies of the cached variables when live and every type is known (a variable first
        seen in an event has no type yet); None means: read the hub."""
        if not self.live or not self.variables:
            return None
        if not all(v.get("type") for v in self.variables.values()):
            return None
        return [dict(v) for v in self.variables.values()]

    def learn_variables(self, items: list[dict[str, Any]]) -> None:
        """Take the names, values and types of a fresh hub read of the variables."""
        if not self.hydrated:
            return
        for item in items:
            if isinstance(item, dict) and item.get("name") is not None:
                name = str(item["name"])
                self.variables[name] = {
                    "name": name,
                    "value": item.get("value"),
                    "type": item.get("type"),
                }

    async def read_variables(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Hub variables (Maker API) as ``[{name, value, type}]``."""
        if (cached := self.cached_variables()) is not None:
            return cached, self.freshness()
        raw = await self._client.maker_get("hubvariables")
        out = [
            {"name": str(v.get("name")), "value": v.get("value"), "type": v.get("type")}
            for v in (raw if isinstance(raw, list) else [])
            if isinstance(v, dict)
        ]
        self.learn_variables(out)
        return out, self.from_hub()

    def clear_waiters(self) -> None:
        """Shutdown: resolve every pending wait as not met."""
        for waiter in self._waiters:
            if not waiter.future.done():
                waiter.future.set_exception(
                    HubUnreachableError("The hub event stream stopped (integration unloading)")
                )
        for log_waiter in self._log_waiters:
            log_waiter.done.set()
