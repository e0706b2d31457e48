"""Dashboards (evidence: hub UI ``vue-hub2.min.js``, the on-hub server
``mcp-dashboards-lib.groovy``).

``/dashboard/all`` answers ``[]`` without the right ``pinToken`` and otherwise lists Easy
dashboards (``version`` "2.0") and the legacy ones (``version`` "1.0": the children of the
Hubitat® Dashboard app that have an access token), each with its ``accessToken``. Stored
the way the hub lists them: ``deviceIds`` and ``navigationSelection`` as strings
``"[1,2]"``; an unset ``dashboardPin`` as ``""``, an unset ``hsmPin`` as ``"null"``; legacy
entries carry ``"None"`` for both.

``/dashboard/create`` / ``update`` replace the whole configuration: omitted keys fall back
to defaults (flags off, no PINs, theme "legacy"); ``navigationSelection`` is parsed as a
plain comma list (an item that is not a number, like ``"[1"``, reads as 0); PINs are stored
as sent (a ``"null"`` sent is a PIN "null"). They answer ``{"success": true, "id": <id>}``
(the keys the hub UI reads); an unknown id answers ``{"success": false, "message": ...}``.
``/dashboard/delete?id=`` needs no pin token, deletes an Easy dashboard (never a legacy
one) and answers ``{"success": false}`` either way, like the real hub.

Knobs (``DevState``): ``dash_create_answer`` replaces the create answer (e.g. without an
id); ``dash_writes_apply`` False makes create/update/delete and the legacy layout save
answer as usual and change nothing.

Legacy dashboards *(no evidence beyond the on-hub server's own code)*:
``/apps/api/<id>/dashboard/<id>`` (HTML carrying ``javascriptRequestToken``) and ``.../layout`` need
the dashboard's ``access_token`` (its statusJson ``accessToken``), else 401; the layout also needs
``requestToken``. ``POST .../layout`` replaces the layout when every tile is an object with
``id``, ``template``, ``col`` and ``row`` and answers the saved layout; otherwise
``{"success": false, "message": ...}``.

Request tokens. Evidence (the on-hub server's ``mcp-dashboards-lib.groovy``,
``_legacyMintRequestToken``): every page load mints a fresh token, "tokens are timestamped
server-side and stale ones are rejected", so the on-hub server mints one per layout read and per
layout POST. Here each page load mints a token for that dashboard, stamped with the emulated clock
(``clock.utcnow``: tests move it). Assumptions (no evidence of the details): a token older than
``DevState.legacy_token_ttl_s`` (60 s; the real lifetime is unknown) is stale; a token works
ONCE, then is spent (stricter than the evidence: it makes a client that reuses one fail here); a
token works only for the dashboard whose page minted it; a refused token is answered 401
``Unauthorized`` like a wrong ``access_token`` (what the real hub answers is unknown).
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any

from aiohttp import web

from .clock import utcnow
from .home import Home
from .responses import Responses
from .routes_common import Routes

DASHBOARD_PARENT = "Hubitat® Dashboard"
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


def _navigation(raw: str) -> str:
    """A plain comma list as the hub parses it, stored as ``"[1,2]"``."""
    if not raw.strip():
        return ""
    items = [int(t) if t.strip().isdigit() else 0 for t in raw.split(",")]
    return "[" + ",".join(str(i) for i in items) + "]"


class _DashRoutes(Routes):
    async def select(self, request: web.Request) -> web.StreamResponse:
        return self.http.html_page(
            "<html><head><script>var globalDashboardPinToken = "
            f"'{self.dev.pin_token}';</script></head><body></body></html>"
        )

    def _legacy_entries(self) -> list[dict[str, Any]]:
        out = []
        for app in self.apps.values():
            internals = self.dev.internals.get(app.id)
            parent = self.apps.get(app.parent_id) if app.parent_id is not None else None
            if parent is None or parent.type != DASHBOARD_PARENT or internals is None:
                continue
            picked = next((i for i in internals.inputs if i["name"] == "devicesPicked"), {})
            ids = picked.get("deviceIdsForDeviceList") or []
            out.append(
                {
                    "installedAppId": app.id,
                    "name": app.label or app.name,
                    "version": "1.0",
                    "accessToken": str(internals.state.get("accessToken", "")),
                    "deviceIds": "[" + ",".join(str(i) for i in ids) + "]",
                    "dashboardPin": "None",
                    "hsmPin": "None",
                }
            )
        return out

    async def all(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("pinToken") != self.dev.pin_token:
            return self.http.json([])
        easy = [dict(d) for d in self.dev.easy_dashboards.values()]
        return self.http.json(easy + self._legacy_entries())

    def _config(self, q: Any, app_id: int, kept: dict[str, Any]) -> dict[str, Any]:
        ids = [s for s in str(q.get("deviceIds", "")).split(",") if s.strip().isdigit()]
        cfg: dict[str, Any] = {
            "installedAppId": app_id,
            "name": q.get("name", ""),
            "version": kept.get("version", q.get("version", "2.0")),
            "accessToken": kept.get("accessToken", secrets.token_hex(8)),
        }
        for key in BOOL_KEYS:
            cfg[key] = q.get(key) == "true"
        cfg["navigationSelection"] = _navigation(q.get("navigationSelection", ""))
        cfg["dashboardPin"] = q.get("dashboardPin", "")
        cfg["hsmPin"] = q.get("hsmPin") or "null"
        cfg["theme"] = q.get("theme") or "legacy"
        cfg["deviceIds"] = "[" + ",".join(ids) + "]"
        return cfg

    async def create(self, request: web.Request) -> web.StreamResponse:
        name = request.query.get("name", "").strip()
        if not name:
            return self.http.result(False, "Name is required")
        new_id = self.dev.alloc_app_id()
        if self.dev.dash_writes_apply:
            self.dev.easy_dashboards[new_id] = self._config(request.query, new_id, {})
        if self.dev.dash_create_answer is not None:
            return self.http.json(self.dev.dash_create_answer)
        return self.http.json({"success": True, "id": new_id})

    async def update(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("id", "")
        if not raw.isdigit() or int(raw) not in self.dev.easy_dashboards:
            return self.http.result(False, "Dashboard not found")
        if self.dev.dash_writes_apply:
            old = self.dev.easy_dashboards[int(raw)]
            self.dev.easy_dashboards[int(raw)] = self._config(request.query, int(raw), old)
        return self.http.json({"success": True, "id": int(raw)})

    async def delete(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("id", "")
        if raw.isdigit() and self.dev.dash_writes_apply:
            self.dev.easy_dashboards.pop(int(raw), None)
        return self.http.json({"success": False})

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
        tokens, now = self.dev.legacy_request_tokens, utcnow()
        for old in [t for t, (_d, at) in tokens.items() if self._stale(at, now)]:
            tokens.pop(old)  # a stale token is never accepted again: forget it
        token = "req-" + secrets.token_hex(6)
        tokens[token] = (dash_id, now)
        return self.http.html_page(
            f"<html><head><script>var javascriptRequestToken = '{token}';</script></head>"
            "<body></body></html>"
        )

    def _stale(self, minted: datetime, now: datetime) -> bool:
        return (now - minted).total_seconds() > self.dev.legacy_token_ttl_s

    def _take_token(self, request: web.Request, dash_id: int) -> bool:
        """Spend the request's ``requestToken``: True when it was minted for this dashboard
        and is neither spent nor stale (see the module docstring: evidence vs assumption)."""
        minted = self.dev.legacy_request_tokens.pop(request.query.get("requestToken", ""), None)
        return minted is not None and minted[0] == dash_id and not self._stale(minted[1], utcnow())

    async def legacy_layout(self, request: web.Request) -> web.StreamResponse:
        dash_id = self._legacy_ok(request)
        if dash_id is None or not self._take_token(request, dash_id):
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
        if self.dev.dash_writes_apply:
            self.dev.layouts[dash_id] = body
        return self.http.json(body)
