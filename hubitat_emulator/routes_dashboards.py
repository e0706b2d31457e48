"""Easy Dashboards (reference §13.1). Legacy dashboards are apps (``routes_apps.py``).

Decisions: ``/dashboard/all`` answers ``[]`` without the right ``pinToken``; create/update answer
``{"success": true, "installedAppId", "name"}``; update is wholesale (omitted keys fall back to
defaults, like the real hub blanks them); an unknown id answers ``{"success": false,
"message": "Dashboard not found"}``; ``deviceIds`` is stored and served as a string ``"[1,2]"``.

Legacy dashboards: ``/apps/api/<id>/dashboard/<id>`` (HTML carrying ``javascriptRequestToken``)
and ``.../layout`` need the dashboard's ``access_token`` (its statusJson ``accessToken``), else
401; the layout also needs ``requestToken``. ``POST .../layout`` replaces the layout when every
tile is an object with ``id``, ``template``, ``col`` and ``row`` and answers the saved layout;
otherwise ``{"success": false, "message": ...}``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from aiohttp import web

from .home import Home
from .responses import Responses
from .routes_common import Routes

BOOL_KEYS = (
    "showModeTile",
    "showClockTile",
    "showCalendarTile",
    "showHSMTile",
    "showEdit",
    "showNavigation",
    "showTutorial",
)


def setup(app: web.Application, home: Home, http: Responses) -> None:
    r = _DashRoutes(home, http)
    add = app.router
    add.add_get("/dashboard/select", r.select)
    add.add_get("/dashboard/all", r.all)
    add.add_get("/dashboard/create", r.create)
    add.add_get("/dashboard/update", r.update)
    add.add_get("/dashboard/delete", r.delete)
    add.add_get("/apps/api/{app_id}/dashboard/{dash_id}", r.legacy_page)
    add.add_get("/apps/api/{app_id}/dashboard/{dash_id}/layout", r.legacy_layout)
    add.add_post("/apps/api/{app_id}/dashboard/{dash_id}/layout", r.legacy_layout)


class _DashRoutes(Routes):
    def __init__(self, home: Home, http: Responses) -> None:
        super().__init__(home, http)
        self.request_tokens: set[str] = set()

    async def select(self, request: web.Request) -> web.StreamResponse:
        return self.http.html_page(
            "<html><head><script>var globalDashboardPinToken = "
            f"'{self.dev.pin_token}';</script></head><body></body></html>"
        )

    async def all(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("pinToken") != self.dev.pin_token:
            return self.http.json([])
        return self.http.json([dict(d) for d in self.dev.easy_dashboards.values()])

    def _config(self, q: Any, app_id: int) -> dict[str, Any]:
        ids = [s for s in str(q.get("deviceIds", "")).split(",") if s.strip().isdigit()]
        cfg: dict[str, Any] = {"installedAppId": app_id, "name": q.get("name", "")}
        for key in BOOL_KEYS:
            cfg[key] = q.get(key) == "true"
        cfg["navigationSelection"] = q.get("navigationSelection", "")
        cfg["theme"] = q.get("theme", "light")
        cfg["deviceIds"] = "[" + ",".join(ids) + "]"
        return cfg

    async def create(self, request: web.Request) -> web.StreamResponse:
        name = request.query.get("name", "").strip()
        if not name:
            return self.http.result(False, "Name is required")
        new_id = self.dev.alloc_app_id()
        self.dev.easy_dashboards[new_id] = self._config(request.query, new_id)
        return self.http.json({"success": True, "installedAppId": new_id, "name": name})

    async def update(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("id", "")
        if not raw.isdigit() or int(raw) not in self.dev.easy_dashboards:
            return self.http.result(False, "Dashboard not found")
        cfg = self._config(request.query, int(raw))
        self.dev.easy_dashboards[int(raw)] = cfg
        return self.http.json({"success": True, "installedAppId": int(raw), "name": cfg["name"]})

    async def delete(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("id", "")
        if request.query.get("pinToken") != self.dev.pin_token:
            return self.http.result(False, "Invalid pin token")
        if not raw.isdigit() or self.dev.easy_dashboards.pop(int(raw), None) is None:
            return self.http.result(False, "Dashboard not found")
        return self.http.json({"success": True, "message": "deleted"})

    # ------------------------------------------------------------------ legacy layouts

    def _legacy_ok(self, request: web.Request) -> int | None:
        raw = request.match_info["dash_id"]
        if raw != request.match_info["app_id"] or not raw.isdigit():
            return None
        internals = self.dev.internals.get(int(raw))
        if internals is None or int(raw) not in self.dev.layouts:
            return None
        token = internals.state.get("accessToken")
        return int(raw) if token and request.query.get("access_token") == token else None

    async def legacy_page(self, request: web.Request) -> web.StreamResponse:
        dash_id = self._legacy_ok(request)
        if dash_id is None:
            return self.http.text("Unauthorized", status=401)
        token = "req-" + secrets.token_hex(6)
        self.request_tokens.add(token)
        return self.http.html_page(
            f"<html><head><script>var javascriptRequestToken = '{token}';</script></head>"
            "<body></body></html>"
        )

    async def legacy_layout(self, request: web.Request) -> web.StreamResponse:
        dash_id = self._legacy_ok(request)
        if dash_id is None or request.query.get("requestToken") not in self.request_tokens:
            return self.http.text("Unauthorized", status=401)
        if request.method == "GET":
            return self.http.json(self.dev.layouts[dash_id])
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.http.result(False, "Invalid JSON")
        tiles = body.get("tiles") if isinstance(body, dict) else None
        if not isinstance(tiles, list) or not all(
            isinstance(t, dict) and {"id", "template", "col", "row"} <= set(t) for t in tiles
        ):
            return self.http.result(False, "Invalid layout")
        self.dev.layouts[dash_id] = body
        return self.http.json(body)
