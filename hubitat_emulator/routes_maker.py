"""Maker API: ``/apps/api/<appId>/...`` (GET only, token auth, JSON served as text/html).

Decisions where the reference is silent:

* wrong app id -> 404; bad/missing token -> 401 with ``<oauth><error>invalid_token</error></oauth>``
  (the app id is checked first);
* unknown or unauthorised device -> 404 ``{"error": "Device not found"}``;
* unknown command -> 404 ``{"error": "Command not found"}``; bad arguments -> 500
  ``{"error": "..."}``;
* bad hub-variable value -> 400 ``{"error": "..."}``; unknown variable -> 404;
* unknown mode id -> 404; unknown HSM command -> 404;
* ``/devices/<id>/events`` returns the newest ``num`` events (default 10), newest first.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from aiohttp import web

from . import render
from .commands import CommandError, UnknownCommand
from .home import Home
from .model import Device
from .responses import Responses
from .routes_common import Routes

INVALID_TOKEN = "<oauth><error>invalid_token</error></oauth>"


def setup(app: web.Application, home: Home, http: Responses) -> None:
    r = _MakerRoutes(home, http)
    app.router.add_route("*", "/apps/api/{app_id}/{tail:.*}", r.dispatch)
    app.router.add_route("*", "/apps/api/{app_id}", r.dispatch)


class _MakerRoutes(Routes):
    def ok(self, data: object, status: int = 200) -> web.Response:
        return self.http.json(data, status=status, maker=True)

    def err(self, status: int, message: str) -> web.Response:
        return self.http.json({"error": message}, status=status, maker=True)

    def _token(self, request: web.Request) -> str | None:
        token = request.query.get("access_token")
        if token:
            return token
        auth = request.headers.get("Authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        return None

    async def dispatch(self, request: web.Request) -> web.StreamResponse:
        maker = self.home.maker
        if request.match_info["app_id"] != str(maker.app_id):
            return self.http.html_page(
                "<html><body><h2>HTTP ERROR 404</h2></body></html>", status=404
            )
        if self._token(request) != maker.token:
            return web.Response(
                status=401, text=INVALID_TOKEN, content_type="application/xml", charset="utf-8"
            )
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, text="Method Not Allowed", headers={"Allow": "GET"})
        # split the raw path so URL-encoded '/' inside an argument survives
        raw_tail = request.raw_path.split("?", 1)[0]
        prefix = f"/apps/api/{maker.app_id}"
        parts = [unquote(p) for p in raw_tail[len(prefix) :].split("/") if p != ""]
        if not parts:
            return self.err(404, "Not found")
        head, rest = parts[0], parts[1:]
        if head == "devices":
            return self._devices(request, rest)
        if head == "modes":
            return self._modes(rest)
        if head == "hsm":
            return self._hsm(rest)
        if head == "hubvariables":
            return self._variables(rest)
        if head == "rooms" and not rest:
            return self._rooms()
        if head == "postURL":
            url = "/".join(rest) or None
            maker.post_url = url
            return self.ok({"url": url})
        return self.err(404, "Not found")

    # ------------------------------------------------------------------ devices

    def _authorised(self) -> list[Device]:
        ids = self.home.maker.device_ids
        return [d for d in self.st.devices.values() if ids is None or d.id in ids]

    def _find(self, raw: str) -> Device | None:
        try:
            dev_id = int(raw)
        except ValueError:
            return None
        ids = self.home.maker.device_ids
        if ids is not None and dev_id not in ids:
            return None
        return self.st.devices.get(dev_id)

    def _devices(self, request: web.Request, rest: list[str]) -> web.Response:
        st = self.st
        if not rest:
            return self.ok([render.maker_device_summary(st, d) for d in self._authorised()])
        if rest == ["all"]:
            return self.ok([render.maker_device_all(st, d) for d in self._authorised()])
        if rest == ["*"]:
            return self.ok([render.maker_device(st, d) for d in self._authorised()])
        dev = self._find(rest[0])
        if dev is None:
            return self.err(404, "Device not found")
        if len(rest) == 1:
            return self.ok(render.maker_device(st, dev))
        sub = rest[1]
        if sub == "events" and len(rest) == 2:
            try:
                num = int(request.query.get("num", "10"))
            except ValueError:
                num = 10
            events = list(reversed(dev.events))[: max(0, num)]
            return self.ok([render.maker_event(dev, e) for e in events])
        if sub == "commands" and len(rest) == 2:
            return self.ok(render.maker_commands(dev))
        if sub == "capabilities" and len(rest) == 2:
            return self.ok(render.maker_capabilities(dev))
        if sub == "attribute" and len(rest) == 3:
            attr = rest[2]
            defs = dev.attr_defs()
            if attr not in dev.attrs:
                return self.err(404, f"Attribute {attr} not found")
            value = render.typed_value(defs.get(attr), dev.value(attr))
            return self.ok({"id": str(dev.id), "attribute": attr, "value": value})
        if sub == "setLabel" and len(rest) == 2 and "label" in request.query:
            dev.label = request.query["label"] or None
            dev.version += 1
            return self.ok(render.maker_device(st, dev))
        # /devices/<id>/<command>[/<comma-joined args>]
        before = render.maker_device(st, dev)
        arg_text = "/".join(rest[2:])
        try:
            maker = self.home.maker
            app = self.home.state.apps.get(maker.app_id)
            producer = (maker.app_id, (app.label or app.name) if app is not None else "Maker API")
            self.home.run_command(dev.id, sub, _split_args(arg_text), producer=producer)
        except UnknownCommand:
            return self.err(404, "Command not found")
        except CommandError as e:
            return self.err(500, str(e))
        return self.ok(before)

    # ------------------------------------------------------------------ modes / hsm

    def _mode_list(self) -> list[dict[str, Any]]:
        cur = self.st.current_mode_id
        return [{"active": m.id == cur, "id": m.id, "name": m.name} for m in self.st.modes]

    def _modes(self, rest: list[str]) -> web.Response:
        if not rest:
            return self.ok(self._mode_list())
        try:
            mode = self.st.mode_by_id(int(rest[0]))
        except ValueError:
            mode = None
        if mode is None or len(rest) > 1:
            return self.err(404, "Mode not found")
        self.home.activate_mode(mode)
        return self.ok(self._mode_list())

    def _hsm(self, rest: list[str]) -> web.Response:
        if not rest:
            return self.ok({"hsm": self.st.hsm_status})
        try:
            status = self.home.hsm_command(rest[0])
        except ValueError:
            return self.err(404, f"Invalid HSM command {rest[0]}")
        return self.ok({"hsm": status})

    # ------------------------------------------------------------------ variables / rooms

    def _variables(self, rest: list[str]) -> web.Response:
        seen = self.home.maker.variable_names
        vars_ = {k: v for k, v in self.st.variables.items() if seen is None or k in seen}
        if not rest:
            return self.ok(
                [{"name": v.name, "value": v.value, "type": v.type} for v in vars_.values()]
            )
        var = vars_.get(rest[0])
        if var is None:
            return self.err(404, f"Hub variable {rest[0]} not found")
        if len(rest) > 1:
            raw = "/".join(rest[1:])
            try:
                self.home.set_variable(var.name, raw)
            except ValueError:
                return self.err(400, f"Invalid value '{raw}' for {var.type} variable {var.name}")
        return self.ok({"name": var.name, "value": var.value, "type": var.type})

    def _rooms(self) -> web.Response:
        st = self.st
        out = [
            {
                "id": r.id,
                "name": r.name,
                "deviceIds": sorted(d.id for d in st.devices.values() if d.room_id == r.id),
            }
            for r in st.rooms.values()
        ]
        return self.ok(out)


def _split_args(text: str) -> list[object]:
    """Comma-joined Maker arguments; a JSON object/array argument is kept whole."""
    if not text:
        return []
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        try:
            json.loads(stripped)
            return [stripped]
        except ValueError:
            pass
    return list(text.split(","))
