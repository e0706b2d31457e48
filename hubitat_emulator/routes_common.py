"""What the route modules share: the :class:`Routes` base and the app-page handler protocol."""

from __future__ import annotations

import json
from typing import Any, Protocol

from aiohttp import web

from .home import Home, OnHome
from .model import App
from .responses import Responses
from .server import HubServer


def to_int(value: object) -> int | None:
    """``value`` (its text, stripped) as an int, or None."""
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


async def json_body(request: web.Request) -> Any:
    """The request's body parsed as JSON (``ValueError`` when it is not JSON)."""
    raw = await request.text()
    return json.loads(raw)


class Routes(OnHome):
    """A group of handlers over the :class:`Home`, answering through :class:`Responses`."""

    def __init__(self, home: Home, http: Responses) -> None:
        self.home = home
        self.http = http

    def app_by_id(self, raw: str) -> App | None:
        """The installed app whose id is the text ``raw``, or None."""
        return self.apps.get(int(raw)) if raw.isdigit() else None


class ServerRoutes(Routes):
    """Routes that also drive the server (its status, reboots, sessions)."""

    def __init__(self, home: Home, http: Responses, server: HubServer) -> None:
        super().__init__(home, http)
        self.server = server


class AppPages(Protocol):
    """The installed-app page handlers a system app's routes fall through to when the request
    is not for one of their own instances (``/installedapp/configure``, ``btn``, ``update``)."""

    async def configure_page(self, request: web.Request) -> web.StreamResponse: ...

    async def configure(self, request: web.Request) -> web.StreamResponse: ...

    async def button(self, request: web.Request) -> web.StreamResponse: ...

    async def update(self, request: web.Request) -> web.StreamResponse: ...
