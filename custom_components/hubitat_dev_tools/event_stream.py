"""Home Assistant glue for the live hub streams of one entry.

``async_setup_event_stream(hass, entry, runtime)`` creates the entry's :class:`StateCache`
(``runtime.hub.cache``), starts ``/eventsocket`` and ``/logsocket`` as config-entry background
tasks, watches their health for Repairs, and returns an async ``stop`` that closes both sockets
and waits for the tasks (nothing is left behind; HA stop does the same).

Repairs: one issue per hub (``event_stream_down_<entry_id>``) when the event stream has been
down, or silent (no frame and no ping), for longer than ``StreamConfig.stale_after``; it says
why and how to fix, and is deleted as soon as the stream is back (or the entry unloads).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.event import async_track_time_interval

from .const import DOMAIN
from .hub.events import (
    DEFAULT_BACKOFF_INITIAL,
    DEFAULT_BACKOFF_MAX,
    DEFAULT_DEAD_PEER_TIMEOUT,
    EVENT_PATH,
    LOG_PATH,
    HubSocket,
)
from .hub.state_cache import StateCache
from .runtime import HubitatConfigEntry, HubRuntime

_LOGGER = logging.getLogger(__name__)

ISSUE_STREAM_DOWN = "event_stream_down"


@dataclass(slots=True)
class StreamConfig:
    """Timings (tests patch ``STREAM_CONFIG`` with small values)."""

    dead_peer_timeout: float = DEFAULT_DEAD_PEER_TIMEOUT
    backoff_initial: float = DEFAULT_BACKOFF_INITIAL
    backoff_max: float = DEFAULT_BACKOFF_MAX
    stale_after: float = 300.0  # Repairs issue after this long down or silent
    check_interval: float = 30.0
    connect_timeout: float = 10.0
    logs: bool = True  # also follow /logsocket
    enabled: bool = True  # False: no stream (reads and waits go to the hub, as before)


STREAM_CONFIG = StreamConfig()


def issue_id(entry_id: str) -> str:
    """The Repairs issue id of one hub entry."""
    return f"{ISSUE_STREAM_DOWN}_{entry_id}"


class EventStream:
    """The live streams, cache and health of one hub entry."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry: HubitatConfigEntry,
        runtime: HubRuntime,
        config: StreamConfig,
    ) -> None:
        self.hass = hass
        self.entry = entry
        self.runtime = runtime
        self.config = config
        self.cache = StateCache(runtime.hub.client)
        self.events = HubSocket(
            runtime.hub.client,
            EVENT_PATH,
            self.cache.handle_event_text,
            on_connect=self.cache.hydrate,
            on_state=self._on_state,
            dead_peer_timeout=config.dead_peer_timeout,
            backoff_initial=config.backoff_initial,
            backoff_max=config.backoff_max,
            connect_timeout=config.connect_timeout,
        )
        self.cache.event_socket = self.events
        self.logs: HubSocket | None = None
        if config.logs:
            self.logs = HubSocket(
                runtime.hub.client,
                LOG_PATH,
                self.cache.handle_log_text,
                dead_peer_timeout=config.dead_peer_timeout,
                backoff_initial=config.backoff_initial,
                backoff_max=config.backoff_max,
                connect_timeout=config.connect_timeout,
            )
            self.cache.log_socket = self.logs
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubs: list[Callable[[], None]] = []
        self._stop_unsub: Callable[[], None] | None = None
        self.issue_raised = False
        self.reauth_started = False
        self._stopped = False

    @callback
    def start(self) -> None:
        """Start the sockets and the health check."""
        for sock in (self.events, self.logs):
            if sock is None:
                continue
            self._tasks.append(
                self.entry.async_create_background_task(
                    self.hass, sock.run(), f"{DOMAIN} {sock.path} {self.entry.entry_id}"
                )
            )
        self._unsubs.append(
            async_track_time_interval(
                self.hass,
                self._periodic_check,
                timedelta(seconds=self.config.check_interval),
                name=f"{DOMAIN} stream health",
                cancel_on_shutdown=True,
            )
        )
        self._stop_unsub = self.hass.bus.async_listen_once(
            EVENT_HOMEASSISTANT_STOP, self._on_hass_stop
        )

    async def _on_hass_stop(self, _event: Event) -> None:
        self._stop_unsub = None  # a once-listener removes itself
        await self.async_stop()

    async def async_stop(self) -> None:
        """Close both sockets, wait for the tasks, clear the issue. Safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        for unsub in self._unsubs:
            unsub()
        self._unsubs.clear()
        if self._stop_unsub is not None:
            self._stop_unsub()
            self._stop_unsub = None
        self.cache.clear_waiters()
        for sock in (self.events, self.logs):
            if sock is not None:
                await sock.stop()
        if self._tasks:
            _done, pending = await asyncio.wait(self._tasks, timeout=3.0)
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._tasks.clear()
        self.cache.mark_stale()
        ir.async_delete_issue(self.hass, DOMAIN, issue_id(self.entry.entry_id))
        self.issue_raised = False
        if self.runtime.hub.cache is self.cache:
            self.runtime.hub.cache = None

    # ------------------------------------------------------------------ health

    @callback
    def _on_state(self) -> None:
        if self.events.connected:
            self.cache.resynced()
        else:
            self.cache.mark_stale()
        if self.events.stats.auth_failed and not self.reauth_started and not self._stopped:
            # The hub rejected our Hub Security credentials: ask an admin for new ones
            # (the stream keeps retrying with backoff meanwhile).
            self.reauth_started = True
            _LOGGER.warning(
                "Hub %s: Hub Security refused the stored credentials; starting re-authentication",
                self.runtime.title,
            )
            self.entry.async_start_reauth(self.hass)
        self.check_health()

    @callback
    def _periodic_check(self, _now: Any) -> None:
        self.check_health()

    def silence_s(self) -> float:
        """Seconds since the event stream last showed a sign of life."""
        mono = self.events.stats.last_alive_mono
        return time.monotonic() - mono if mono is not None else 0.0

    @callback
    def check_health(self) -> None:
        """Raise or clear the Repairs issue."""
        if self._stopped:
            return
        stats = self.events.stats
        silence = self.silence_s()
        healthy = stats.connected and silence <= self.config.stale_after
        if healthy:
            if self.issue_raised:
                _LOGGER.info("Hub %s: live event stream is back", self.runtime.title)
                ir.async_delete_issue(self.hass, DOMAIN, issue_id(self.entry.entry_id))
                self.issue_raised = False
            return
        if silence <= self.config.stale_after:
            return
        reason = stats.last_error or (
            "the connection is open but the hub sent nothing, not even its ping"
            if stats.connected
            else "the hub did not accept the connection"
        )
        if not self.issue_raised:
            _LOGGER.warning(
                "Hub %s: no live events for %.0f s (%s)", self.runtime.title, silence, reason
            )
        ir.async_create_issue(
            self.hass,
            DOMAIN,
            issue_id(self.entry.entry_id),
            is_fixable=False,
            is_persistent=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key=ISSUE_STREAM_DOWN,
            translation_placeholders={
                "hub": self.runtime.title,
                "host": self.runtime.hub.client.base_url,
                "minutes": str(max(1, round(silence / 60))),
                "reason": reason,
            },
        )
        self.issue_raised = True

    def diagnostics(self) -> dict[str, Any]:
        """Stream state for diagnostics (``runtime.hub.cache.diagnostics()`` has the same)."""
        return {"issue_raised": self.issue_raised, **self.cache.diagnostics()}


async def async_setup_event_stream(
    hass: HomeAssistant,
    entry: HubitatConfigEntry,
    runtime: HubRuntime,
    config: StreamConfig | None = None,
    *,
    wait_live: float = 0.0,
) -> Callable[[], Coroutine[Any, Any, None]]:
    """Start the live streams of one hub; return the async stop (call it on unload).

    ``wait_live``: wait up to that many seconds for the first connection and hydration, so
    the first tool calls are already answered from the cache (setup continues either way).
    """
    config = config or STREAM_CONFIG
    if not config.enabled:

        async def _nothing_to_stop() -> None:
            return None

        return _nothing_to_stop
    stream = EventStream(hass, entry, runtime, config)
    runtime.hub.cache = stream.cache
    stream.start()
    if wait_live > 0:
        deadline = time.monotonic() + wait_live
        for sock in (stream.events, stream.logs):
            if sock is not None:
                await sock.wait_connected(max(0.01, deadline - time.monotonic()))
    return stream.async_stop
