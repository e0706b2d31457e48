"""Easy Dashboards (reference §13.1). Legacy dashboards are apps (``routes_apps.py``).

Decisions: ``/dashboard/all`` answers ``[]`` without the right ``pinToken``; create/update answer
``{"success": true, "installedAppId", "name"}``; update is wholesale (omitted keys fall back to
defaults, like the real hub blanks them); an unknown id answers ``{"success": false,
"message": "Dashboard not found"}``; ``deviceIds`` is stored and served as a string ``"[1,2]"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .devstate import DevState

if TYPE_CHECKING:
    from .hub import HubEmulator

BOOL_KEYS = (
    "showModeTile",
    "showClockTile",
    "showCalendarTile",
    "showHSMTile",
    "showEdit",
    "showNavigation",
    "showTutorial",
)


def setup(app: web.Application, emu: HubEmulator) -> None:
    r = _DashRoutes(emu)
    add = app.router
    add.add_get("/dashboard/select", r.select)
    add.add_get("/dashboard/all", r.all)
    add.add_get("/dashboard/create", r.create)
    add.add_get("/dashboard/update", r.update)
    add.add_get("/dashboard/delete", r.delete)


class _DashRoutes:
    def __init__(self, emu: HubEmulator) -> None:
        self.emu = emu

    @property
    def dev(self) -> DevState:
        dev: DevState = self.emu.state.dev
        return dev

    async def select(self, request: web.Request) -> web.StreamResponse:
        return self.emu.html_page(
            "<html><head><script>var globalDashboardPinToken = "
            f"'{self.dev.pin_token}';</script></head><body></body></html>"
        )

    async def all(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("pinToken") != self.dev.pin_token:
            return self.emu.json([])
        return self.emu.json([dict(d) for d in self.dev.easy_dashboards.values()])

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
            return self.emu.json({"success": False, "message": "Name is required"})
        new_id = self.dev.alloc_app_id()
        self.dev.easy_dashboards[new_id] = self._config(request.query, new_id)
        return self.emu.json({"success": True, "installedAppId": new_id, "name": name})

    async def update(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("id", "")
        if not raw.isdigit() or int(raw) not in self.dev.easy_dashboards:
            return self.emu.json({"success": False, "message": "Dashboard not found"})
        cfg = self._config(request.query, int(raw))
        self.dev.easy_dashboards[int(raw)] = cfg
        return self.emu.json({"success": True, "installedAppId": int(raw), "name": cfg["name"]})

    async def delete(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("id", "")
        if request.query.get("pinToken") != self.dev.pin_token:
            return self.emu.json({"success": False, "message": "Invalid pin token"})
        if not raw.isdigit() or self.dev.easy_dashboards.pop(int(raw), None) is None:
            return self.emu.json({"success": False, "message": "Dashboard not found"})
        return self.emu.json({"success": True, "message": "deleted"})
