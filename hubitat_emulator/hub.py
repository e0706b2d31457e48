"""The emulated hub: state mutations, event emission, HTTP plumbing, websockets and faults.

Behaviour decisions where the reference is silent (tests pin them):

* **Failed ``POST /login``** answers ``200 text/html`` with the login page carrying the text
  ``Invalid username or password`` and NO ``Set-Cookie`` header at all. A successful login
  answers ``302 Location: /`` with ``Set-Cookie: HUBSESSION=<new id>; Path=/``.
* **Security on, no valid session**: admin ``GET``/``HEAD`` answer ``200 text/html`` with the
  login page (the trap); any other method answers ``401``; websocket upgrades answer ``401``.
  ``/login``, ``/logout`` and ``/hubStatus`` are always open; the Maker API uses its token only.
* **Every response sets ``HUBSESSION``**: a valid session cookie is echoed back unchanged,
  anything else gets a fresh random (never valid) id. Only ids issued by a successful login are
  valid; ``expire_sessions()`` invalidates them all.
* **Content type**: every JSON body (Maker and admin) is served as ``text/html;charset=utf-8``
  (set ``HubEmulator.json_content_type`` to change the admin one); plain-text endpoints are
  ``text/plain``.
* **Disabled devices** silently ignore commands (Maker answers the pre-command JSON as usual,
  ``runmethod`` answers success) - no state change and no event.
* **Unchanged values** produce no event (like a driver's ``sendEvent`` without
  ``isStateChange``), except button events and ``force=True``.
* **Reboot**: the listening socket is closed (connection refused) for ``downtime`` seconds, then
  the hub answers ``/hubStatus`` with ``starting`` and every other path with ``503`` for
  ``starting`` seconds (websocket upgrades are already accepted then, so a reconnecting client
  sees the frame), then runs again and emits a HUB ``systemStart`` event.
* ``/hubStatus`` keeps answering ``running`` once booted (the reference says it may 404 then).
* **HSM**: ``/hsm/<cmd>`` answers the status right after the command (``armingAway``), which
  becomes ``armedAway`` after ``hsm_arming_delay``; ``armAll`` arms away, ``disarmAll`` gives
  ``allDisarmed``, ``armRules``/``disarmRules`` leave the status alone, ``cancelAlerts`` emits
  ``hsmAlert=cancel`` only while an alert is active. Only ``hsmStatus``/``hsmAlert`` events are
  emitted (no ``hsmSetArm``).
* **Accounting**: ``requests`` records every request (websocket upgrades and requests killed
  by faults included); ``in_flight``/``max_in_flight_seen`` count HTTP requests only (an open
  websocket is not "in flight").
* **Pings**: aiohttp's heartbeat: a ping after ``ping_interval`` s of silence; a client that does
  not answer with a pong within ``ping_interval / 2`` is disconnected.
* ``/logsocket`` ``time`` is naive UTC, like ``/logs/past/json``.
* Admin writes whose answer is undocumented (``/device/update``, ``/device/save``,
  ``/device/disable``, ``/room/delete``, ``/location/mode/update``) answer
  ``{"success": bool, "message": str|null}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web
from yarl import URL

from .catalog import DRIVERS, AttrDef, DriverSpec
from .clock import HUB_TZ, fmt_event, fmt_log, parse_hub_datetime, utcnow
from .commands import Change, describe, execute, number, to_attr_value, value_str
from .faults import Faults
from .model import (
    AttrState,
    Backup,
    Device,
    DeviceEvent,
    HubEvent,
    LocationEvent,
    LogEntry,
    Mode,
    Variable,
)
from .routes_files import seed_files
from .routes_ops import seed_ops
from .seed import new_device, seed_home

HSM_STATUSES = (
    "armedAway",
    "armingAway",
    "armedHome",
    "armingHome",
    "armedNight",
    "armingNight",
    "disarmed",
    "allDisarmed",
)
HSM_COMMANDS = (
    "armAway",
    "armHome",
    "armNight",
    "disarm",
    "armAll",
    "disarmAll",
    "armRules",
    "disarmRules",
    "cancelAlerts",
)
VARIABLE_TYPES = ("integer", "bigdecimal", "boolean", "string", "datetime")
MAX_DEVICE_EVENTS = 500
MAX_LOGS = 5000
OPEN_PATHS = frozenset({"/login", "/logout", "/hubStatus"})
WS_PATHS = frozenset({"/eventsocket", "/logsocket"})
NO_COOKIE = "X-Emulator-No-Cookie"  # internal marker, stripped before sending

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _camel_words(text: str) -> str:
    out = "".join(" " + c.lower() if c.isupper() else c for c in text)
    return out.strip()


LOGIN_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Hubitat Elevation&reg; - Login</title></head>
<body><div class="login">
<h2>Hubitat Elevation&reg;</h2>
{error}<form action="/login" method="post">
<input type="text" name="username" placeholder="Username" autocomplete="username">
<input type="password" name="password" placeholder="Password" autocomplete="current-password">
<input type="submit" name="submit" value="Login">
</form></div></body></html>
"""


def login_page(error: str | None = None) -> str:
    err = f'<div class="alert alert-danger">{html.escape(error)}</div>\n' if error else ""
    return LOGIN_PAGE.format(error=err)


def error_page(status: int, reason: str) -> str:
    return (
        f'<html><head><meta charset="utf-8"><title>Error {status} {reason}</title></head>'
        f"<body><h2>HTTP ERROR {status} {reason}</h2><table><tr><th>STATUS:</th><td>{status}</td>"
        f"</tr><tr><th>MESSAGE:</th><td>{reason}</td></tr></table></body></html>"
    )


def _raw_ws_frame(fin: bool, opcode: int, payload: bytes) -> bytes:
    b0 = (0x80 if fin else 0x00) | opcode
    n = len(payload)
    if n < 126:
        header = bytes((b0, n))
    elif n < 65536:
        header = bytes((b0, 126)) + n.to_bytes(2, "big")
    else:
        header = bytes((b0, 127)) + n.to_bytes(8, "big")
    return header + payload


@dataclass(eq=False)
class _Socket:
    ws: web.WebSocketResponse
    request: web.Request
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)


class HubEmulator:
    """A stateful fake Hubitat Elevation hub served by aiohttp (see the package docstring)."""

    def __init__(
        self,
        *,
        security: bool = False,
        username: str = "admin",
        password: str = "hubpass",
        maker_app_id: int = 12,
        maker_token: str = "maker-token-0001",
        device_count: int | None = None,
        seed: int = 1,
        ping_interval: float = 120.0,
        command_delay: float = 0.0,
        hsm_arming_delay: float = 0.2,
        door_travel_time: float = 0.2,
        reboot_starting_time: float = 0.5,
    ) -> None:
        self.security = security
        self.username = username
        self.password = password
        self.maker_app_id = maker_app_id
        self.maker_token = maker_token
        self.ping_interval = ping_interval
        self.command_delay = command_delay
        self.hsm_arming_delay = hsm_arming_delay
        self.door_travel_time = door_travel_time
        self.reboot_starting_time = reboot_starting_time
        self.reboot_downtime = 10.0  # used by POST /hub/reboot
        self.state = seed_home(seed, device_count, maker_app_id=maker_app_id)
        self.faults = Faults()
        self.requests: list[tuple[str, str]] = []
        self.max_in_flight_seen = 0
        self.in_flight = 0
        self.url = ""
        self.status = "running"  # running | starting | down
        self.json_content_type = "text/html"
        # None = every device is authorised in the Maker API instance
        self.maker_device_ids: set[int] | None = None
        self.post_url: str | None = None  # Maker postURL (deliveries only to loopback hosts)
        self.post_location_events = False  # Maker "Include location events" toggle
        self._post_queue: list[tuple[str, dict[str, Any]]] = []
        self._post_worker: asyncio.Task[Any] | None = None
        self.backup_in_progress = False
        self._sessions: set[str] = set()
        self._event_sockets: set[_Socket] = set()
        self._log_sockets: set[_Socket] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._pending: dict[tuple[int, str], asyncio.Task[Any]] = {}
        self._hsm_task: asyncio.Task[Any] | None = None
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        self._host = "127.0.0.1"
        self._port = 0
        self.files = seed_files()  # the File Manager (routes_files.py)
        self.ops = seed_ops(self.state)  # alerts, radios, firmware (routes_ops.py)
        self.cloner: Any = None  # the App Cloner routes and knobs (routes_cloner.py)
        # keys left out of /hub/details/json (older firmwares lack some, e.g. ttsCurrent)
        self.details_omit: set[str] = set()
        self.hubvar_routes: Any = None  # the Hub Variables singleton (routes_hubvars.py)
        self.app = self._build_app()

    # ------------------------------------------------------------------ app / lifecycle

    def _build_app(self) -> web.Application:
        from . import (
            routes_admin,
            routes_apps,
            routes_cloner,
            routes_code,
            routes_dashboards,
            routes_files,
            routes_hub,
            routes_hubvars,
            routes_maker,
            routes_ops,
        )

        app = web.Application(middlewares=[self._middleware])
        app.on_response_prepare.append(self._on_response_prepare)
        app.router.add_get("/eventsocket", self._eventsocket)
        app.router.add_get("/logsocket", self._logsocket)
        routes_hub.setup(app, self)
        routes_admin.setup(app, self)
        routes_dashboards.setup(app, self)  # before Maker: legacy layouts under /apps/api
        routes_cloner.setup(app, self)  # before Maker and the app routes it falls through to
        routes_maker.setup(app, self)
        routes_files.setup(app, self)
        routes_ops.setup(app, self)
        routes_code.setup(app, self)
        routes_hubvars.setup(app, self)  # before routes_apps: the singleton's buttons
        routes_apps.setup(app, self)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Start serving on a real TCP socket; returns the base URL."""
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        self._host = host
        await self._listen(port)
        self.url = f"http://{host}:{self._port}"
        return self.url

    async def _listen(self, port: int) -> None:
        assert self._runner is not None and self._runner.server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self._runner.server, self._host, port, reuse_address=True
        )
        self._port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Stop serving; cancels background work and closes every connection."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for sock in list(self._event_sockets | self._log_sockets):
            try:
                await asyncio.wait_for(sock.ws.close(code=1001, message=b"Server shutdown"), 1.0)
            except (TimeoutError, ConnectionError, RuntimeError):
                self._abort(sock.request)
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> HubEmulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @staticmethod
    def _abort(request: web.Request) -> None:
        transport = request.transport
        if transport is not None:
            transport.abort()

    # ------------------------------------------------------------------ faults & helpers

    def expire_sessions(self) -> None:
        """Invalidate every HUBSESSION cookie issued so far."""
        self._sessions.clear()

    def drop_sockets(self) -> None:
        """Abruptly close (TCP abort, no close frame) every /eventsocket and /logsocket."""
        for sock in list(self._event_sockets | self._log_sockets):
            self._abort(sock.request)

    def reboot(self, downtime: float = 10.0, *, starting: float | None = None) -> asyncio.Task[Any]:
        """Simulate a reboot. Synchronously drops sockets and stops listening (connection refused);
        the returned task completes once the hub is ``running`` again (awaiting it is optional)."""
        self.drop_sockets()
        self.status = "down"
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._runner is not None and self._runner.server is not None:
            for handler in self._runner.server.connections:
                if handler.transport is not None:
                    handler.transport.abort()
        for key, task in list(self._pending.items()):
            task.cancel()
            self._pending.pop(key, None)
        wait_start = self.reboot_starting_time if starting is None else starting
        return self._spawn(self._come_back(downtime, wait_start))

    async def _come_back(self, downtime: float, starting: float) -> None:
        await asyncio.sleep(downtime)
        if self._runner is None:
            return
        await self._listen(self._port)
        self.status = "starting"
        self.state.boot_time = utcnow()
        await asyncio.sleep(starting)
        self.status = "running"
        self._hub_event(
            "systemStart", self.state.version, f"System startup with build: {self.state.version}"
        )

    # ------------------------------------------------------------------ HTTP plumbing

    def json(self, data: object, *, status: int = 200, maker: bool = False) -> web.Response:
        ctype = "text/html" if maker else self.json_content_type
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return web.Response(text=body, status=status, content_type=ctype, charset="utf-8")

    @staticmethod
    def text(body: str, *, status: int = 200, ctype: str = "text/plain") -> web.Response:
        return web.Response(text=body, status=status, content_type=ctype, charset="utf-8")

    def html_page(self, body: str, *, status: int = 200) -> web.Response:
        return web.Response(text=body, status=status, content_type="text/html", charset="utf-8")

    def session_valid(self, request: web.Request) -> bool:
        token = request.cookies.get("HUBSESSION")
        return token is not None and token in self._sessions

    def new_session(self) -> str:
        token = "node0" + secrets.token_hex(12)
        self._sessions.add(token)
        return token

    @staticmethod
    def is_maker(path: str) -> bool:
        return path.startswith("/apps/api/")

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        self.requests.append((request.method, request.path_qs))
        is_ws = request.path in WS_PATHS
        if not is_ws:
            self.in_flight += 1
            self.max_in_flight_seen = max(self.max_in_flight_seen, self.in_flight)
        try:
            return await self._guarded(request, handler, is_ws)
        finally:
            if not is_ws:
                self.in_flight -= 1

    async def _guarded(
        self, request: web.Request, handler: Handler, is_ws: bool
    ) -> web.StreamResponse:
        if self.faults.down or self.status == "down":
            self._abort(request)
            return web.Response(status=503, headers={NO_COOKIE: "1"})
        wait = self.faults.delay_for(request.path)
        if wait > 0:
            await asyncio.sleep(wait)
        if self.faults.error_burst > 0:
            self.faults.error_burst -= 1
            status = self.faults.error_status
            reason = web.Response(status=status).reason or "Error"
            return self.html_page(error_page(status, reason), status=status)
        if (failing := self.faults.fail_status(request.path)) is not None:
            reason = web.Response(status=failing).reason or "Error"
            return self.html_page(error_page(failing, reason), status=failing)
        if self.status == "starting" and request.path != "/hubStatus" and not is_ws:
            return self.html_page(error_page(503, "Hub is starting"), status=503)
        path = request.path
        admin = not self.is_maker(path) and path not in OPEN_PATHS
        if admin and self.faults.html_login and not is_ws:
            return self.html_page(login_page())
        if admin and self.security and not self.session_valid(request):
            if is_ws or request.method not in ("GET", "HEAD"):
                return self.text("Unauthorized", status=401)
            return self.html_page(login_page())
        return await handler(request)

    async def _on_response_prepare(
        self, request: web.Request, response: web.StreamResponse
    ) -> None:
        if response.headers.pop(NO_COOKIE, None) is not None:
            return
        if "HUBSESSION=" in ",".join(response.headers.getall("Set-Cookie", [])):
            return
        token = request.cookies.get("HUBSESSION")
        if self.security:
            if token is None or token not in self._sessions:
                token = "node0" + secrets.token_hex(12)
        elif not token:
            token = "node0" + secrets.token_hex(12)
        response.headers.add("Set-Cookie", f"HUBSESSION={token}; Path=/")

    # ------------------------------------------------------------------ websockets

    async def _eventsocket(self, request: web.Request) -> web.StreamResponse:
        return await self._serve_socket(request, self._event_sockets)

    async def _logsocket(self, request: web.Request) -> web.StreamResponse:
        return await self._serve_socket(request, self._log_sockets)

    async def _serve_socket(
        self, request: web.Request, registry: set[_Socket]
    ) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=self.ping_interval, autoping=True)
        await ws.prepare(request)
        sock = _Socket(ws, request)
        registry.add(sock)
        sender = asyncio.get_running_loop().create_task(self._socket_sender(sock))
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            registry.discard(sock)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
        return ws

    async def _socket_sender(self, sock: _Socket) -> None:
        while True:
            text = await sock.queue.get()
            if sock.ws.closed:
                return
            try:
                if self.faults.junk_frames:
                    await sock.ws.send_str("Hubitat: not a JSON frame")
                if self.faults.split_frames and len(text) > 1:
                    self._send_fragmented(sock, text)
                else:
                    await sock.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    @staticmethod
    def _send_fragmented(sock: _Socket, text: str) -> None:
        transport = sock.request.transport
        if transport is None or transport.is_closing():
            raise ConnectionResetError("socket closed")
        half = len(text) // 2
        transport.write(_raw_ws_frame(False, 0x1, text[:half].encode()))
        transport.write(_raw_ws_frame(True, 0x0, text[half:].encode()))

    def _broadcast(self, registry: set[_Socket], frame: dict[str, Any]) -> None:
        if not registry:
            return
        text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
        for sock in registry:
            sock.queue.put_nowait(text)

    def _event_frame(
        self,
        source: str,
        name: str,
        value: str | None,
        *,
        display_name: str | None = None,
        etype: str | None = None,
        unit: str | None = None,
        device_id: int = 0,
        app_id: int = 0,
        description: str | None = None,
    ) -> None:
        frame = {
            "source": source,
            "name": name,
            "displayName": display_name or "null",
            "value": value if value is not None else "null",
            "type": etype or "null",
            "unit": unit or "null",
            "deviceId": device_id,
            "hubId": 0,
            "installedAppId": app_id,
            "descriptionText": description or "null",
        }
        self._broadcast(self._event_sockets, frame)
        self._post_event(frame)

    def _post_event(self, frame: dict[str, Any]) -> None:
        """Maker API postURL delivery (loopback URLs only; never leaves the machine)."""
        url = self.post_url
        if not url or frame["source"] not in ("DEVICE", "LOCATION"):
            return
        if frame["source"] == "LOCATION" and not self.post_location_events:
            return
        host = URL(url).host or ""
        if host not in ("127.0.0.1", "localhost", "::1"):
            return

        def nul(key: str) -> object:
            return None if frame[key] == "null" else frame[key]

        content = {
            "name": frame["name"],
            "value": nul("value"),
            "displayName": nul("displayName"),
            "descriptionText": nul("descriptionText"),
            "deviceId": str(frame["deviceId"]) if frame["source"] == "DEVICE" else None,
            "unit": nul("unit"),
            "type": nul("type"),
            "data": None,
        }
        self._post_queue.append((url, {"content": content}))
        if self._post_worker is None or self._post_worker.done():
            self._post_worker = self._spawn(self._deliver_all())

    async def _deliver_all(self) -> None:
        """Deliver queued postURL bodies in order, one at a time."""
        timeout = aiohttp.ClientTimeout(total=5)
        connector = aiohttp.TCPConnector(resolver=aiohttp.ThreadedResolver())
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            while self._post_queue:
                url, body = self._post_queue.pop(0)
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with session.post(url, json=body) as resp:
                        await resp.read()

    # ------------------------------------------------------------------ device state

    def _dev(self, device_id: int | str) -> Device:
        try:
            return self.state.devices[int(device_id)]
        except (KeyError, ValueError):
            raise KeyError(f"no device {device_id}") from None

    def device_obj(self, device_id: int | str) -> Device:
        """The live :class:`Device` model object (mutable)."""
        return self._dev(device_id)

    def device(self, device_id: int | str) -> dict[str, Any]:
        """A plain-dict snapshot of a device for assertions."""
        dev = self._dev(device_id)
        return {
            "id": dev.id,
            "name": dev.name,
            "label": dev.label,
            "type": dev.driver.name,
            "deviceTypeId": dev.driver.id,
            "dni": dev.dni,
            "room_id": dev.room_id,
            "room": self.state.room_name(dev.room_id),
            "parent_id": dev.parent_id,
            "disabled": dev.disabled,
            "tags": list(dev.tags),
            "notes": dev.notes,
            "version": dev.version,
            "capabilities": list(dev.driver.capabilities),
            "attributes": {k: st.value for k, st in dev.attrs.items()},
            "settings": {k: s.value for k, s in dev.settings.items()},
            "last_activity": dev.last_activity,
            "events": len(dev.events),
        }

    def device_ids(self) -> list[int]:
        return sorted(self.state.devices)

    def find_device(self, label: str) -> dict[str, Any]:
        """Snapshot of the device with this label (or name)."""
        for dev in self.state.devices.values():
            if label in (dev.label, dev.name):
                return self.device(dev.id)
        raise KeyError(label)

    def device_events(self, device_id: int) -> list[DeviceEvent]:
        return list(self._dev(device_id).events)

    @property
    def hub_uid(self) -> str:
        return self.state.hub_uid

    @property
    def hub_name(self) -> str:
        return self.state.hub_name

    @property
    def rooms(self) -> dict[int, dict[str, Any]]:
        return {
            r.id: {
                "id": r.id,
                "name": r.name,
                "deviceIds": sorted(d.id for d in self.state.devices.values() if d.room_id == r.id),
            }
            for r in self.state.rooms.values()
        }

    @property
    def modes(self) -> list[dict[str, Any]]:
        cur = self.state.current_mode_id
        return [{"id": m.id, "name": m.name, "active": m.id == cur} for m in self.state.modes]

    @property
    def current_mode(self) -> str:
        return self.state.current_mode.name

    @property
    def hsm_status(self) -> str:
        return self.state.hsm_status

    @property
    def variables(self) -> dict[str, dict[str, Any]]:
        return {
            v.name: {"name": v.name, "type": v.type, "value": v.value}
            for v in self.state.variables.values()
        }

    @property
    def backups(self) -> list[Backup]:
        return list(self.state.backups)

    @property
    def location_events(self) -> list[LocationEvent]:
        return list(self.state.location_events)

    @property
    def hub_events(self) -> list[HubEvent]:
        return list(self.state.hub_events)

    @property
    def logs(self) -> list[LogEntry]:
        return list(self.state.logs)

    @property
    def event_socket_count(self) -> int:
        return len(self._event_sockets)

    @property
    def log_socket_count(self) -> int:
        return len(self._log_sockets)

    def apply_changes(
        self, dev: Device, changes: list[Change], *, etype: str | None = "digital"
    ) -> list[DeviceEvent]:
        """Apply attribute changes to a device, recording events and notifying listeners."""
        out: list[DeviceEvent] = []
        defs = dev.attr_defs()
        for ch in changes:
            adef = defs.get(ch.attr)
            if adef is None:
                is_num = isinstance(ch.value, (int, float)) and not isinstance(ch.value, bool)
                adef = AttrDef(ch.attr, "NUMBER" if is_num else "STRING")
                dev.extra_attr_defs[ch.attr] = adef
                defs[ch.attr] = adef
            value = to_attr_value(adef, ch.value)
            if ch.attr in dev.attrs and dev.attrs[ch.attr].value == value and not ch.force:
                continue
            now = utcnow()
            dev.attrs[ch.attr] = AttrState(value, now)
            dev.last_activity = now
            if ch.attr == "speed" and value not in ("off", "on", "auto"):
                dev.state["lastSpeed"] = value
            desc = describe(dev, ch.attr, value, adef.unit)
            ev = DeviceEvent(
                id=self.state.alloc_event_id(),
                device_id=dev.id,
                name=ch.attr,
                value=value_str(value),
                unit=adef.unit,
                description=desc,
                date=now,
                type=etype,
            )
            dev.events.append(ev)
            if len(dev.events) > MAX_DEVICE_EVENTS:
                del dev.events[: len(dev.events) - MAX_DEVICE_EVENTS]
            out.append(ev)
            self._event_frame(
                "DEVICE",
                ch.attr,
                ev.value,
                display_name=dev.display_name,
                etype=etype,
                unit=adef.unit,
                device_id=dev.id,
                description=desc,
            )
            txt = dev.settings.get("txtEnable")
            if txt is None or txt.value in (True, "true"):
                self.add_log(
                    "info", desc, source_type="dev", source_id=dev.id, name=dev.display_name
                )
        return out

    def set_device_attribute(
        self,
        device_id: int,
        name: str,
        value: object,
        *,
        force: bool = False,
        etype: str | None = "physical",
    ) -> None:
        """An 'on the hub' attribute change (a physical event by default)."""
        dev = self._dev(device_id)
        self.apply_changes(dev, [Change(name, value, force)], etype=etype)

    def run_command(self, device_id: int | str, command: str, args: list[object]) -> None:
        """Run a device command (raises CommandError / UnknownCommand); effects may be delayed by
        ``command_delay`` and, for doors/shades, by ``door_travel_time``."""
        dev = self._dev(device_id)
        outcome = execute(dev, command, args, travel=self.door_travel_time)
        if dev.disabled:
            return
        for ch in outcome.changes:
            self._cancel_pending(dev.id, ch.attr)
        if self.command_delay > 0:
            self._spawn(self._apply_later(dev, self.command_delay, outcome.changes))
        else:
            self.apply_changes(dev, outcome.changes)
        for delay, later in outcome.later:
            task = self._spawn(self._apply_later(dev, self.command_delay + delay, later))
            for ch in later:
                self._pending[(dev.id, ch.attr)] = task

    def _cancel_pending(self, device_id: int, attr: str) -> None:
        task = self._pending.pop((device_id, attr), None)
        if task is not None:
            task.cancel()

    async def _apply_later(self, dev: Device, delay: float, changes: list[Change]) -> None:
        await asyncio.sleep(delay)
        for ch in changes:
            if self._pending.get((dev.id, ch.attr)) is asyncio.current_task():
                self._pending.pop((dev.id, ch.attr), None)
        if dev.id in self.state.devices:
            self.apply_changes(dev, changes)

    def create_device(self, driver: DriverSpec, *, label: str | None = None) -> Device:
        dev_id = self.state.next_device_id
        self.state.next_device_id += 1
        dev = new_device(
            self.state,
            driver,
            device_id=dev_id,
            label=label,
            dni=f"{dev_id:X}" if not driver.virtual else str(1_700_000_000_000 + dev_id),
            now=utcnow(),
        )
        self.state.devices[dev_id] = dev
        self.add_log("info", f"Device created: {driver.name}", source_id=dev_id, name=dev.name)
        return dev

    def delete_device(self, device_id: int) -> bool:
        dev = self.state.devices.pop(int(device_id), None)
        if dev is None:
            return False
        for child in [d for d in self.state.devices.values() if d.parent_id == dev.id]:
            self.state.devices.pop(child.id, None)
        return True

    def driver(self, type_id: int | str) -> DriverSpec | None:
        try:
            return DRIVERS.get(int(type_id))
        except ValueError:
            return None

    # ------------------------------------------------------------------ location

    def _location_event(self, name: str, value: str, description: str, etype: str) -> None:
        now = utcnow()
        self.state.location_events.append(
            LocationEvent(self.state.alloc_event_id(), name, value, description, etype, now)
        )
        self._event_frame(
            "LOCATION",
            name,
            value,
            display_name=self.state.location_name,
            description=description,
        )

    def _hub_event(self, name: str, value: str, description: str) -> None:
        self.state.hub_events.append(
            HubEvent(self.state.alloc_event_id(), name, value, description, utcnow())
        )
        self._event_frame(
            "HUB", name, value, display_name=self.state.hub_name, description=description
        )

    def emit_app_event(
        self, app_id: int, name: str, value: object, description: str | None = None
    ) -> None:
        """Broadcast an APP-source eventsocket frame (e.g. from a rule)."""
        self._event_frame("APP", name, value_str(value), app_id=app_id, description=description)

    def activate_mode(self, mode: Mode) -> None:
        if mode.id == self.state.current_mode_id:
            return
        self.state.current_mode_id = mode.id
        self._location_event("mode", mode.name, f"Mode changed to {mode.name}", "API")

    def set_mode(self, name: str) -> None:
        """Change the location mode by name ('on the hub')."""
        mode = self.state.mode_by_name(name)
        if mode is None:
            raise ValueError(f"unknown mode {name!r}")
        self.activate_mode(mode)

    def _set_hsm_status(self, status: str) -> None:
        if status == self.state.hsm_status:
            return
        self.state.hsm_status = status
        self._location_event("hsmStatus", status, f"HSM {_camel_words(status)}", "API")

    def set_hsm(self, status: str) -> None:
        """Set the HSM status directly ('on the hub')."""
        if status not in HSM_STATUSES:
            raise ValueError(f"unknown HSM status {status!r}")
        self._cancel_hsm()
        self._set_hsm_status(status)

    def hsm_alert(self, alert: str) -> None:
        """Raise an HSM alert (intrusion, smoke, water, rule, cancel...)."""
        self.state.hsm_alert = None if alert == "cancel" else alert
        self._location_event("hsmAlert", alert, f"HSM alert: {alert}", "API")

    def _cancel_hsm(self) -> None:
        if self._hsm_task is not None:
            self._hsm_task.cancel()
            self._hsm_task = None

    def hsm_command(self, cmd: str) -> str:
        """Run a Maker ``/hsm/<cmd>``; returns the status right after the command."""
        if cmd not in HSM_COMMANDS:
            raise ValueError(cmd)
        arm = {"armAway": "Away", "armHome": "Home", "armNight": "Night", "armAll": "Away"}
        if cmd in arm:
            self._cancel_hsm()
            target = arm[cmd]
            if self.state.hsm_status != f"armed{target}":
                self._set_hsm_status(f"arming{target}")
                self._hsm_task = self._spawn(self._finish_arming(target))
        elif cmd == "disarm":
            self._cancel_hsm()
            self._set_hsm_status("disarmed")
        elif cmd == "disarmAll":
            self._cancel_hsm()
            self._set_hsm_status("allDisarmed")
        elif cmd == "cancelAlerts" and self.state.hsm_alert is not None:
            self.hsm_alert("cancel")
        return self.state.hsm_status

    async def _finish_arming(self, target: str) -> None:
        await asyncio.sleep(self.hsm_arming_delay)
        self._hsm_task = None
        self._set_hsm_status(f"armed{target}")

    # ------------------------------------------------------------------ variables

    @staticmethod
    def convert_variable(vtype: str, value: object) -> object:
        """Convert/validate a value for a hub variable type; raises ValueError."""
        if vtype == "integer":
            if isinstance(value, bool):
                raise ValueError("not an integer")
            if isinstance(value, float):
                if not value.is_integer():
                    raise ValueError("not an integer")
                return int(value)
            return int(str(value).strip())
        if vtype == "bigdecimal":
            if isinstance(value, bool):
                raise ValueError("not a number")
            return number(value)
        if vtype == "boolean":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text not in ("true", "false"):
                raise ValueError("not a boolean")
            return text == "true"
        if vtype == "datetime":
            if isinstance(value, datetime):
                return fmt_event(value)
            return fmt_event(parse_hub_datetime(str(value)))
        return str(value)

    def set_variable(self, name: str, value: object, *, vtype: str | None = None) -> None:
        """Set (or create, with ``vtype`` or an inferred type) a hub variable ('on the hub')."""
        var = self.state.variables.get(name)
        if var is None:
            if vtype is None:
                vtype = (
                    "boolean"
                    if isinstance(value, bool)
                    else "integer"
                    if isinstance(value, int)
                    else "bigdecimal"
                    if isinstance(value, float)
                    else "string"
                )
            if vtype not in VARIABLE_TYPES:
                raise ValueError(vtype)
            var = Variable(name, vtype, None)
            self.state.variables[name] = var
        converted = self.convert_variable(var.type, value)
        changed = converted != var.value
        var.value = converted
        if changed:
            self._location_event(
                f"variable:{name}",
                value_str(converted) or "",
                "hub variable updated",
                "HUB_VARIABLE_SET",
            )

    # ------------------------------------------------------------------ logs & backups

    def add_log(
        self,
        level: str,
        msg: str,
        *,
        source_type: str = "dev",
        source_id: int = 0,
        name: str = "",
    ) -> None:
        """Append a hub log line (past logs + a /logsocket frame). Extra lines of a multi-line
        ``msg`` become continuation lines."""
        first, *rest = msg.split("\n")
        now = utcnow()
        entry = LogEntry(now, level.lower(), source_type, source_id, name, first, rest)
        self.state.logs.append(entry)
        if len(self.state.logs) > MAX_LOGS:
            del self.state.logs[: len(self.state.logs) - MAX_LOGS]
        self._broadcast(
            self._log_sockets,
            {
                "name": name,
                "msg": html.escape(msg),
                "id": source_id,
                "time": fmt_log(now),
                "type": source_type,
                "level": level.lower(),
            },
        )

    def mark_backup_now(self) -> Backup:
        """Add a fresh local backup created now."""
        now = utcnow()
        stamp = now.astimezone(HUB_TZ).strftime("%Y-%m-%d~%H-%M-%S")
        backup = Backup(
            f"{stamp}~{self.state.version}.lzf", now, 18_900_000 + len(self.state.backups)
        )
        self.state.backups.append(backup)
        return backup
