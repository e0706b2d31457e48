"""The emulated hub's HTTP server: the aiohttp app, its middleware and its lifecycle.

The middleware records every request, counts the ones in flight, applies the fault knobs
(:class:`~hubitat_emulator.faults.Faults`), answers ``503`` while the hub is starting and
enforces Hub Security; every response gets a ``HUBSESSION`` cookie. ``/eventsocket`` and
``/logsocket`` are served here from the :class:`Home`'s event and log frames. Behaviour
decisions: see :mod:`hubitat_emulator.hub`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .clock import utcnow
from .faults import Faults
from .home import Home
from .network_state import NetworkState
from .responses import NO_COOKIE, Responses, login_page, redirect
from .security import HubSecurity
from .sockets import SocketChannel, abort
from .tasks import Tasks

OPEN_PATHS = frozenset({"/login", "/logout", "/hubStatus"})
WS_PATHS = frozenset({"/eventsocket", "/logsocket"})

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def is_maker(path: str) -> bool:
    return path.startswith("/apps/api/")


class HubServer:
    """Serves a :class:`Home` over HTTP; routes are added to :attr:`app` by the caller."""

    def __init__(
        self,
        home: Home,
        *,
        http: Responses,
        security: HubSecurity,
        faults: Faults,
        tasks: Tasks,
        ping_interval: float = 120.0,
        reboot_starting_time: float = 0.5,
    ) -> None:
        self.home = home
        self.http = http
        self.security = security
        self.faults = faults
        self.tasks = tasks
        self.ping_interval = ping_interval
        self.reboot_starting_time = reboot_starting_time
        self.reboot_downtime = 10.0  # used by POST /hub/reboot
        # what a websocket upgrade without a valid session gets: 302 (to /login), 200 (the
        # login page), 401 or 403 (no evidence says which a real hub sends)
        self.ws_refusal_status = 401
        self.requests: list[tuple[str, str]] = []
        self.max_in_flight_seen = 0
        self.in_flight = 0
        self.url = ""
        self.status = "running"  # running | starting | down
        self.event_sockets = SocketChannel(faults)
        self.log_sockets = SocketChannel(faults)
        home.event_listeners.append(self.event_sockets.broadcast)
        home.log_listeners.append(self.log_sockets.broadcast)
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        self.host = "127.0.0.1"
        self._port = 0
        self.network = NetworkState()
        self.app = web.Application(middlewares=[self._middleware])
        self.app.on_response_prepare.append(self._on_response_prepare)
        self.app.router.add_get("/eventsocket", self._eventsocket)
        self.app.router.add_get("/logsocket", self._logsocket)

    # ------------------------------------------------------------------ lifecycle

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Start serving on a real TCP socket; returns the base URL."""
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        self.host = host
        await self._listen(port)
        self.url = f"http://{host}:{self._port}"
        return self.url

    async def _listen(self, port: int) -> None:
        assert self._runner is not None and self._runner.server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self._runner.server, self.host, port, reuse_address=True
        )
        self._port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Stop serving; cancels background work and closes every connection."""
        await self.tasks.cancel_all()
        await self.event_sockets.close()
        await self.log_sockets.close()
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def drop_sockets(self) -> None:
        """Abruptly close (TCP abort, no close frame) every /eventsocket and /logsocket."""
        self.event_sockets.drop()
        self.log_sockets.drop()

    def drop_connections(self) -> None:
        """Stop listening and abort every open connection (connection refused from now)."""
        self.drop_sockets()
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._runner is not None and self._runner.server is not None:
            for handler in self._runner.server.connections:
                if handler.transport is not None:
                    handler.transport.abort()

    def move_soon(self, host: str) -> None:
        """Answer at ``host`` (same port) instead, shortly after this request is answered."""

        async def later() -> None:
            await asyncio.sleep(0.05)
            self.drop_connections()
            await self._listen_at(host)

        self.tasks.spawn(later())

    async def _listen_at(self, host: str) -> None:
        self.host = host
        await self._listen(self._port)
        self.url = f"http://{host}:{self._port}"

    def reboot(self, downtime: float = 10.0, *, starting: float | None = None) -> asyncio.Task[Any]:
        """Simulate a reboot. Synchronously drops sockets and stops listening (connection refused);
        the returned task completes once the hub is ``running`` again (awaiting it is optional)."""
        self.status = "down"
        self.drop_connections()
        self.home.cancel_pending()
        self.home.state.mesh.apply_at_reboot()  # Hub Mesh on/off waits for a reboot
        wait_start = self.reboot_starting_time if starting is None else starting
        return self.tasks.spawn(self._come_back(downtime, wait_start))

    def reboot_soon(
        self, downtime: float | None = None, *, before: Callable[[], None] | None = None
    ) -> None:
        """Reboot shortly after the current request is answered (``downtime`` defaults to
        ``reboot_downtime``); ``before`` runs just before the reboot."""

        async def later() -> None:
            await asyncio.sleep(0.05)
            if before is not None:
                before()
            self.reboot(self.reboot_downtime if downtime is None else downtime)

        self.tasks.spawn(later())

    async def _come_back(self, downtime: float, starting: float) -> None:
        await asyncio.sleep(downtime)
        if self._runner is None:
            return
        host = self.network.boot_address(self.host)
        if host != self.host and not self.network.answer_at_new_address:
            self.host = host
            return  # a network change wrong for this network: the hub answers nowhere
        await self._listen_at(host)
        self.status = "starting"
        state = self.home.state
        state.boot_time = utcnow()
        await asyncio.sleep(starting)
        self.status = "running"
        self.home.hub_event(
            "systemStart", state.version, f"System startup with build: {state.version}"
        )

    # ------------------------------------------------------------------ middleware

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
            abort(request)
            return web.Response(status=503, headers={NO_COOKIE: "1"})
        wait = self.faults.delay_for(request.path)
        if wait > 0:
            await asyncio.sleep(wait)
        if self.faults.error_burst > 0:
            self.faults.error_burst -= 1
            return self.http.error(self.faults.error_status)
        if (failing := self.faults.fail_status(request.path)) is not None:
            return self.http.error(failing)
        if self.status == "starting" and request.path != "/hubStatus" and not is_ws:
            return self.http.error(503, "Hub is starting")
        path = request.path
        admin = not is_maker(path) and path not in OPEN_PATHS
        if admin and self.faults.html_login and not is_ws:
            return self.http.html_page(login_page())
        if admin and self.security.enabled and not self.session_valid(request):
            if is_ws:
                return self._refuse_upgrade()
            if request.method not in ("GET", "HEAD"):
                return self.http.text("Unauthorized", status=401)
            return self.http.html_page(login_page())
        response = self.faults.reshaped(path, await handler(request), self.http)
        pad = self.faults.pad_for(path)
        if pad and isinstance(response, web.Response) and isinstance(response.body, bytes):
            response.body = response.body + b" " * pad
        return response

    def _refuse_upgrade(self) -> web.Response:
        """A websocket upgrade without a valid session, answered as ``ws_refusal_status``
        says (no evidence shows what a real hub answers: 302 to ``/login``, the login page
        with 200, 401 or 403)."""
        status = self.ws_refusal_status
        if status == 302:
            return redirect("/login")
        if status == 200:
            return self.http.html_page(login_page())
        return self.http.text("Unauthorized" if status == 401 else "Forbidden", status=status)

    def session_valid(self, request: web.Request) -> bool:
        return self.security.is_valid(request.cookies.get("HUBSESSION"))

    async def _on_response_prepare(
        self, request: web.Request, response: web.StreamResponse
    ) -> None:
        if response.headers.pop(NO_COOKIE, None) is not None:
            return
        if "HUBSESSION=" in ",".join(response.headers.getall("Set-Cookie", [])):
            return
        token = self.security.cookie_token(request.cookies.get("HUBSESSION"))
        response.headers.add("Set-Cookie", f"HUBSESSION={token}; Path=/")

    # ------------------------------------------------------------------ websockets

    async def _eventsocket(self, request: web.Request) -> web.StreamResponse:
        return await self.event_sockets.serve(request, heartbeat=self.ping_interval)

    async def _logsocket(self, request: web.Request) -> web.StreamResponse:
        return await self.log_sockets.serve(request, heartbeat=self.ping_interval)
