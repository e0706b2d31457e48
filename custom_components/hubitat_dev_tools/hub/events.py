"""Live hub streams: ``/eventsocket`` (every event on the hub) and ``/logsocket`` (log lines).

The client connects OUT to the hub (no inbound port), over Home Assistant's shared aiohttp
session, with the Hub Security cookie when configured (one re-login on a refused upgrade).

Frames (``docs/hub-endpoints.md``, the websocket rows, and helog): one JSON object per text frame;
empty fields are the string ``"null"``; ``deviceId``/``installedAppId`` are ints, ``0`` when they do
not apply. Anything else (junk text, non-objects, frames without a name) is counted and skipped. A
``/logsocket`` frame's ``time`` is the hub's LOCAL time without an offset (the hub UI shows it as
local time, unlike ``/logs/past/json``, which is UTC): it is read in the hub's time zone
(:attr:`HubClient.time_zone`, from ``/hub/details/json``) and given as ISO 8601 with offset.

Upgrades: with Hub Security on, ANY refused upgrade counts as a login problem (what a hub
answers an upgrade without a valid session is not known: 401, 403, a redirect to ``/login``
or the login page with 200 are all possible); we log in again once, then raise
:class:`HubAuthError`.

Sizes are bounded: an event frame over :data:`MAX_EVENT_FRAME_CHARS` or a log frame over
:data:`MAX_LOG_FRAME_CHARS` is junk (never parsed, never in a ring); a message over
:data:`MAX_WS_MESSAGE_BYTES` is refused by the websocket itself (the connection is dropped and
re-opened with backoff). Text fields of a kept entry are cut (a log message at
:data:`MAX_LOG_MESSAGE_CHARS`), so each ring entry stays small.

Liveness: the hub pings about every two minutes. We answer pings ourselves (``autoping`` off)
so a ping counts as a sign of life; no frame or ping for ``dead_peer_timeout`` seconds means a
dead peer, and we reconnect. Reconnects back off exponentially with jitter. ``on_connect`` runs
once per (re)connect, before any frame of that connection is handled (the state cache uses it
for its one bulk re-hydration).

No Home Assistant import here.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any

import aiohttp

from .client import HubClient
from .errors import HubAuthError, HubError, HubUnreachableError
from .logs import parse_log_time
from .models import norm_id

_LOGGER = logging.getLogger(__name__)

EVENT_PATH = "/eventsocket"
LOG_PATH = "/logsocket"
DEFAULT_DEAD_PEER_TIMEOUT = 130.0  # the hub pings about every 120 s (node-red uses 130 s)
DEFAULT_BACKOFF_INITIAL = 1.0
DEFAULT_BACKOFF_MAX = 120.0
# A connection that lasted this long counts as healthy: the next reconnect starts fresh.
HEALTHY_AFTER = 30.0
LOG_LEVELS = ("error", "warn", "info", "debug", "trace")
# Size bounds (characters of one frame's text; see the module docstring).
MAX_EVENT_FRAME_CHARS = 32 * 1024
MAX_LOG_FRAME_CHARS = 128 * 1024
MAX_WS_MESSAGE_BYTES = 1024 * 1024
MAX_LOG_MESSAGE_CHARS = 8 * 1024
MAX_LABEL_CHARS = 1024  # names, descriptions, units: one line of text


def _cut(text: str | None, limit: int) -> str | None:
    """``text`` cut to ``limit`` characters (marked), or as is."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]}... (+{len(text) - limit} chars)"


def _wall() -> float:
    return time.time()


def _nullish(value: Any) -> str | None:
    """Return a clean string, or None for JSON null, "null" and empty text."""
    if value is None:
        return None
    text = str(value)
    if text in ("null", ""):
        return None
    return text


def _iso(ts: float | None) -> str | None:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds") if ts else None


@dataclass(frozen=True, slots=True)
class HubEvent:
    """One ``/eventsocket`` frame, normalised."""

    source: str  # DEVICE | APP | HUB | LOCATION (upper-cased; anything else kept as sent)
    name: str
    value: str | None
    display_name: str | None = None
    type: str | None = None  # physical | digital | None
    unit: str | None = None
    device_id: str | None = None
    app_id: str | None = None
    description: str | None = None
    received_at: float = field(default_factory=_wall)  # wall clock (epoch s)

    @property
    def kind(self) -> str:
        """One of device, mode, hsm_status, hsm_alert, hsm_set_arm, variable, app, hub,
        location (or the lower-cased source)."""
        if self.source == "DEVICE":
            return "device"
        if self.source == "LOCATION":
            if self.name == "mode":
                return "mode"
            if self.name == "hsmStatus":
                return "hsm_status"
            if self.name == "hsmAlert":
                return "hsm_alert"
            if self.name == "hsmSetArm":
                return "hsm_set_arm"
            if self.name.startswith("variable:"):
                return "variable"
            return "location"
        if self.source == "APP":
            return "app"
        if self.source == "HUB":
            return "hub"
        return self.source.lower() or "unknown"

    @property
    def variable_name(self) -> str | None:
        """The hub variable's name for ``variable:<name>`` events."""
        if self.source == "LOCATION" and self.name.startswith("variable:"):
            return self.name.removeprefix("variable:")
        return None

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data (absent fields left out)."""
        out: dict[str, Any] = {
            "time": _iso(self.received_at),
            "source": self.source,
            "kind": self.kind,
            "name": self.name,
            "value": self.value,
        }
        for key, val in (
            ("device_id", self.device_id),
            ("display_name", self.display_name),
            ("app_id", self.app_id),
            ("unit", self.unit),
            ("type", self.type),
            ("description", self.description),
        ):
            if val is not None:
                out[key] = val
        return out


def parse_event_frame(text: str | bytes) -> HubEvent | None:
    """Parse one eventsocket frame; None for junk (non-JSON, non-object, no name, too large)."""
    if len(text) > MAX_EVENT_FRAME_CHARS:
        return None
    try:
        raw = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(raw, dict):
        return None
    name = _nullish(raw.get("name"))
    if name is None or len(name) > MAX_LABEL_CHARS:
        return None
    source = (_nullish(raw.get("source")) or "UNKNOWN").upper()[:MAX_LABEL_CHARS]
    return HubEvent(
        source=source,
        name=name,
        # The value is kept whole (the frame cap bounds it): a cut value would be a wrong
        # state, and a cut JSON value (lockCodes) could no longer be redacted.
        value=_nullish(raw.get("value")),
        display_name=_cut(_nullish(raw.get("displayName")), MAX_LABEL_CHARS),
        type=_cut(_nullish(raw.get("type")), MAX_LABEL_CHARS),
        unit=_cut(_nullish(raw.get("unit")), MAX_LABEL_CHARS),
        device_id=norm_id(raw.get("deviceId")) if source == "DEVICE" else None,
        app_id=norm_id(raw.get("installedAppId")),
        description=_cut(_nullish(raw.get("descriptionText")), MAX_LABEL_CHARS),
    )


@dataclass(frozen=True, slots=True)
class LogLine:
    """One ``/logsocket`` frame, normalised (``msg`` HTML-unescaped)."""

    level: str  # error | warn | info | debug | trace (as sent, lower-cased)
    source_type: str | None  # dev | app
    source_id: str | None
    name: str | None
    message: str
    time: str | None  # ISO 8601 (with offset when the hub's time zone is known)
    received_at: float = field(default_factory=_wall)

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        return {
            "time": self.time or _iso(self.received_at),
            "level": self.level,
            "source_type": self.source_type,
            "source_id": self.source_id,
            "name": self.name,
            "message": self.message,
        }


def log_frame_time(text: str | None, tz: tzinfo | None) -> str | None:
    """A ``/logsocket`` ``time`` (hub-local ``yyyy-MM-dd HH:mm:ss.SSS``) as ISO 8601.

    With the hub's time zone the result carries its offset; without it (unknown zone) it is
    the local time without an offset. Text in no known form is kept as it came.
    """
    if text is None:
        return None
    local = parse_log_time(text.strip(), tz)
    return local.isoformat(timespec="milliseconds") if local is not None else text


def parse_log_frame(text: str | bytes, tz: tzinfo | None = None) -> LogLine | None:
    """Parse one logsocket frame; None for junk (too large included).

    ``tz`` is the hub's time zone: the frame's ``time`` is hub-local."""
    if len(text) > MAX_LOG_FRAME_CHARS:
        return None
    try:
        raw = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(raw, dict) or "msg" not in raw:
        return None
    msg = raw.get("msg")
    message = html.unescape(str(msg)) if msg is not None else ""
    return LogLine(
        level=(_nullish(raw.get("level")) or "info").lower()[:16],
        source_type=_cut(_nullish(raw.get("type")), MAX_LABEL_CHARS),
        source_id=norm_id(raw.get("id")),
        name=_cut(_nullish(raw.get("name")), MAX_LABEL_CHARS),
        message=_cut(message, MAX_LOG_MESSAGE_CHARS) or "",
        time=log_frame_time(_cut(_nullish(raw.get("time")), 64), tz),
    )


def _asks_for_login(err: aiohttp.WSServerHandshakeError) -> bool:
    """Whether a refused upgrade looks like Hub Security: 401/403, a redirect to the login
    page, or a 200 (the login page instead of an upgrade)."""
    location = ""
    if err.headers is not None:
        location = str(err.headers.get("Location", ""))
    redirected = 300 <= err.status < 400 and (not location or "login" in location.lower())
    return err.status in (200, 401, 403) or redirected


def backoff_delay(attempt: int, initial: float, maximum: float) -> float:
    """Exponential backoff with jitter: uniform in [d/2, d], d = initial * 2**attempt."""
    delay = min(maximum, initial * (2 ** min(attempt, 30)))
    return random.uniform(delay / 2, delay)


@dataclass(slots=True)
class SocketStats:
    """What diagnostics and the Repairs check need to know about one socket."""

    connected: bool = False
    connects: int = 0  # successful connections (the first one included)
    failures: int = 0  # failed attempts and lost connections
    frames: int = 0
    junk_frames: int = 0
    pings: int = 0
    last_frame_at: float | None = None  # wall clock
    last_alive_at: float | None = None  # wall clock: last frame, ping or connect
    last_alive_mono: float | None = None
    connected_since: float | None = None
    down_since: float | None = None
    last_error: str | None = None
    auth_failed: bool = False  # the last attempt failed on Hub Security credentials

    @property
    def reconnects(self) -> int:
        """Connections after the first one."""
        return max(0, self.connects - 1)

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        return {
            "connected": self.connected,
            "connects": self.connects,
            "reconnects": self.reconnects,
            "failures": self.failures,
            "frames": self.frames,
            "junk_frames": self.junk_frames,
            "pings": self.pings,
            "last_frame_at": _iso(self.last_frame_at),
            "last_alive_at": _iso(self.last_alive_at),
            "connected_since": _iso(self.connected_since),
            "down_since": _iso(self.down_since),
            "last_error": self.last_error,
        }


class HubSocket:
    """One auto-reconnecting websocket to the hub (``/eventsocket`` or ``/logsocket``).

    ``run()`` loops until ``stop()``; the owner runs it as a task. ``on_text`` gets every text
    frame (it must not raise; it is called synchronously, in order). ``on_connect`` runs once per
    connection before its frames are read; if it raises, the connection is closed and retried
    with backoff (so a failing hydration never turns into a request storm).
    """

    def __init__(
        self,
        client: HubClient,
        path: str,
        on_text: Callable[[str], None],
        *,
        on_connect: Callable[[], Awaitable[None]] | None = None,
        on_state: Callable[[], None] | None = None,
        dead_peer_timeout: float = DEFAULT_DEAD_PEER_TIMEOUT,
        backoff_initial: float = DEFAULT_BACKOFF_INITIAL,
        backoff_max: float = DEFAULT_BACKOFF_MAX,
        connect_timeout: float = 10.0,
    ) -> None:
        self._client = client
        self.path = path
        self._on_text = on_text
        self._on_connect = on_connect
        self._on_state = on_state
        self.dead_peer_timeout = dead_peer_timeout
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.connect_timeout = connect_timeout
        self.stats = SocketStats()
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._closing = False
        self._attempt = 0
        self._connected_event = asyncio.Event()

    @property
    def url(self) -> str:
        """Return ws(s)://host[:port]/path."""
        base = self._client.base_url
        return "ws" + base.removeprefix("http") + self.path

    @property
    def connected(self) -> bool:
        """Return True while a connection is open (and ``on_connect`` has succeeded)."""
        return self.stats.connected

    async def wait_connected(self, timeout: float) -> bool:
        """Wait until connected; False on timeout."""
        try:
            await asyncio.wait_for(self._connected_event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _notify(self) -> None:
        if self._on_state is not None:
            try:
                self._on_state()
            except Exception:
                _LOGGER.exception("Stream state callback failed")

    def _alive(self) -> None:
        self.stats.last_alive_at = time.time()
        self.stats.last_alive_mono = time.monotonic()

    async def run(self) -> None:
        """Connect, read, reconnect with backoff, until ``stop()``."""
        self._alive()  # the silence clock starts now
        self.stats.down_since = time.time()
        while not self._stopping():
            started = time.monotonic()
            try:
                await self._connect_and_read()
            except asyncio.CancelledError:
                raise
            except HubAuthError as err:
                self.stats.last_error = f"Hub Security login failed: {err}"
                self.stats.auth_failed = True
            except HubError as err:
                self.stats.last_error = str(err)
            except (aiohttp.ClientError, OSError, TimeoutError) as err:
                self.stats.last_error = self._client.redact(
                    f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
                )
            except Exception as err:  # never let the stream task die
                _LOGGER.exception("Unexpected error in the hub %s stream", self.path)
                self.stats.last_error = f"{type(err).__name__}: {err}"
            was_connected = self.stats.connected
            self.stats.connected = False
            self._connected_event.clear()
            self._ws = None
            if self._stopping():
                break
            self.stats.failures += 1
            if was_connected or self.stats.down_since is None:
                self.stats.down_since = time.time()
            self._notify()
            if time.monotonic() - started >= HEALTHY_AFTER:
                self._attempt = 0
            delay = backoff_delay(self._attempt, self.backoff_initial, self.backoff_max)
            self._attempt += 1
            _LOGGER.debug(
                "Hub %s stream down (%s); reconnecting in %.2f s",
                self.path,
                self.stats.last_error,
                delay,
            )
            await asyncio.sleep(delay)

    async def _open(self) -> aiohttp.ClientWebSocketResponse:
        client = self._client
        conn = client.connection
        retried = False
        while True:
            if conn.has_security and client.session_cookie is None:
                await client.ensure_login()
            cookie = client.session_cookie
            headers = {"Cookie": f"{cookie[0]}={cookie[1]}"} if cookie else None
            try:
                return await client.session.ws_connect(
                    self.url,
                    headers=headers,
                    autoping=False,
                    heartbeat=None,
                    ssl=not conn.use_ssl,
                    timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=2.0),
                    max_msg_size=MAX_WS_MESSAGE_BYTES,
                )
            except aiohttp.WSServerHandshakeError as err:
                # What a hub answers an upgrade without a valid session is not known (401,
                # 403, a redirect to /login, the login page with 200): with Hub Security on,
                # any refusal is a login problem.
                if conn.has_security and not retried:
                    retried = True
                    await client.ensure_login(stale=cookie)
                    continue
                if conn.has_security:
                    raise HubAuthError(
                        f"The hub refused {self.path} (HTTP {err.status}) even after logging "
                        "in again with the configured Hub Security credentials",
                        subject="login",
                    ) from err
                if _asks_for_login(err):
                    raise HubAuthError(
                        f"The hub refused {self.path} (HTTP {err.status}): Hub Security is on "
                        "and no credentials are configured",
                        subject="no_credentials",
                    ) from err
                raise HubError(f"The hub refused {self.path} (HTTP {err.status})") from err

    async def _connect_and_read(self) -> None:
        ws = await asyncio.wait_for(self._open(), self.connect_timeout)
        self._ws = ws
        try:
            if self._closing:
                return
            if self._on_connect is not None:
                await self._on_connect()
            self.stats.connects += 1
            self.stats.auth_failed = False
            self.stats.connected = True
            self.stats.connected_since = time.time()
            self.stats.down_since = None
            self.stats.last_error = None
            self._alive()
            self._connected_event.set()
            self._notify()
            await self._read(ws)
        finally:
            if not ws.closed:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        while True:
            try:
                msg = await ws.receive(timeout=self.dead_peer_timeout)
            except TimeoutError:
                self.stats.last_error = (
                    f"no frame or ping from the hub for {self.dead_peer_timeout:g} s (dead peer)"
                )
                return
            mtype = msg.type
            if mtype is aiohttp.WSMsgType.TEXT:
                self._alive()
                self.stats.frames += 1
                self.stats.last_frame_at = self.stats.last_alive_at
                self._on_text(msg.data)
            elif mtype is aiohttp.WSMsgType.BINARY:
                self._alive()
                self.stats.frames += 1
                self._on_text(msg.data.decode("utf-8", errors="replace"))
            elif mtype is aiohttp.WSMsgType.PING:
                self._alive()
                self.stats.pings += 1
                with contextlib.suppress(Exception):
                    await ws.pong(msg.data)
            elif mtype is aiohttp.WSMsgType.PONG:
                self._alive()
            else:  # CLOSE, CLOSING, CLOSED, ERROR
                if mtype is aiohttp.WSMsgType.ERROR:
                    self.stats.last_error = f"socket error: {ws.exception()!r}"
                elif mtype is aiohttp.WSMsgType.CLOSE:
                    reason = msg.extra or "no reason"
                    self.stats.last_error = f"the hub closed the socket ({msg.data}: {reason})"
                elif not self._closing:
                    self.stats.last_error = "the connection to the hub was lost"
                return

    async def stop(self) -> None:
        """Close the socket; ``run()`` returns soon after (the owner awaits its task)."""
        self._closing = True
        ws = self._ws
        if ws is not None and not ws.closed:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2.0)

    async def read_for(self, window: float, on_text: Callable[[str], bool]) -> None:
        """One-shot: connect once, feed text frames to ``on_text`` for ``window`` seconds
        (or until it returns True), then close. Pings are answered. Raises HubError."""
        deadline: float | None = None
        stop = False

        def remaining() -> float | None:
            nonlocal deadline
            now = time.monotonic()
            if deadline is None:  # the window starts once connected
                deadline = now + window
            return None if stop else deadline - now

        def feed(text: str) -> None:
            nonlocal stop
            stop = stop or on_text(text)

        await self.read_while(remaining, feed)

    async def read_while(
        self, remaining: Callable[[], float | None], on_text: Callable[[str], None]
    ) -> None:
        """One-shot: connect once, then feed text frames to ``on_text`` while ``remaining()``
        (asked once connected and after every frame) gives seconds left; None or <= 0 ends it.
        The socket is closed at the end, or when the hub closes it. Raises HubError."""
        try:
            ws = await asyncio.wait_for(self._open(), self.connect_timeout)
        except (aiohttp.ClientError, OSError, TimeoutError) as err:
            raise HubUnreachableError(
                f"Cannot open {self.path} on the hub: {type(err).__name__}"
            ) from err
        try:
            while (left := remaining()) is not None and left > 0:
                try:
                    msg = await ws.receive(timeout=left)
                except TimeoutError:
                    continue
                if msg.type is aiohttp.WSMsgType.TEXT:
                    on_text(msg.data)
                elif msg.type is aiohttp.WSMsgType.PING:
                    with contextlib.suppress(Exception):
                        await ws.pong(msg.data)
                elif msg.type in (
                    aiohttp.WSMsgType.CLOSE,
                    aiohttp.WSMsgType.CLOSING,
                    aiohttp.WSMsgType.CLOSED,
                    aiohttp.WSMsgType.ERROR,
                ):
                    return
        finally:
            with contextlib.suppress(Exception):
                await ws.close()

    def _stopping(self) -> bool:
        """Return True once ``stop()`` was called (a method: not narrowed by mypy)."""
        return self._closing


def level_rank(level: str) -> int:
    """Rank of a log level (error = 0 ... trace = 4); unknown levels rank as info."""
    try:
        return LOG_LEVELS.index(level.lower().removesuffix("ing"))
    except ValueError:
        return 2


# ---------------------------------------------------------------------------- producers

# A device event's ``producedBy`` (the hub's device events page; live sample, jbaruch's
# client: ``"producedBy":"<a href='/installedapp/configure/583' ...>HomeKit Integration</a>"``
# on a ``command-on`` event): an HTML link to what called the command, or plain text.
_PRODUCER_LINK = re.compile(
    r"""href=['"]/(installedapp/configure|device/edit)/(\d+)[^'"]*['"][^>]*>([^<]*)</a>""",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Producer:
    """What the hub recorded as having produced an event: an app, a device, or a name."""

    kind: str  # app | device | other
    id: str | None
    name: str

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        out: dict[str, Any] = {"kind": self.kind, "name": self.name}
        if self.id is not None:
            out["id"] = self.id
        return out


def parse_produced_by(value: Any) -> Producer | None:
    """A ``producedBy`` value as a :class:`Producer` (None when absent or empty)."""
    if not isinstance(value, str) or not value.strip() or value.strip() == "null":
        return None
    m = _PRODUCER_LINK.search(value)
    if m:
        kind = "app" if m.group(1).lower().startswith("installedapp") else "device"
        return Producer(kind, m.group(2), html.unescape(m.group(3)).strip() or m.group(2))
    text = html.unescape(re.sub(r"<[^>]+>", "", value)).strip()
    return Producer("other", None, text) if text else None
