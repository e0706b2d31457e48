"""The Hub Variables singleton app: the classic ``hubVar`` wizard (reference §10, §12.3).

Decisions: ``GET /installedapp/direct/hubVariables`` installs the singleton on first visit and
answers ``302 Location: /installedapp/configure/<id>`` (the same id every visit; the HTML page
there is a stub). Its configure/json and statusJson come from the generic routes in
``routes_apps.py`` (this module keeps its ``AppInternals`` current). ``POST /installedapp/btn``
for the singleton is handled here (other apps fall through to ``routes_apps``):
``moreVar`` opens the add form, ``<name>`` + ``stateAttribute=deleteGV`` then ``delConfirm``
deletes, ``dateTimeDone`` finishes a DateTime add. ``POST /installedapp/update/json`` with
``settings[hbVar]``, ``settings[varType]`` (Number|Decimal|String|Boolean|DateTime) and
``settings[varValue]`` (DateTime: ``varDate`` + ``varTime``) creates the variable once all are
set; answers ``{"success": bool, "message"}``. Variables live in ``state.variables`` (what the
Maker API ``/hubvariables`` serves); a create emits the usual ``variable:<name>`` event.
"""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from .devstate import AppInternals
from .home import Home
from .model import App
from .responses import Responses, redirect
from .routes_apps import AppRoutes
from .routes_common import Routes

HUBVARS_TYPE = "Hub Variables"
HUBVARS_TYPE_ID = 140
WIZARD_TYPES = {
    "Number": "integer",
    "Decimal": "bigdecimal",
    "String": "string",
    "Boolean": "boolean",
    "DateTime": "datetime",
}
_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_SETTING_RE = re.compile(r"^settings\[(\w+)\]$")


def setup(app: web.Application, r: HubVarRoutes) -> None:
    """Register before ``routes_apps`` so the singleton's button clicks land here first."""
    add = app.router
    add.add_get("/installedapp/direct/hubVariables", r.direct)
    add.add_get("/installedapp/configure/{id}", r.configure_page)
    add.add_post("/installedapp/btn", r.button)
    add.add_post("/installedapp/update/json", r.update)


class HubVarRoutes(Routes):
    """The singleton's wizard; requests for other apps go to ``fallback`` (see
    :class:`~hubitat_emulator.routes_common.AppPages`, which this class implements)."""

    def __init__(self, home: Home, http: Responses, *, fallback: AppRoutes) -> None:
        super().__init__(home, http)
        self.fallback = fallback
        self.pending: dict[str, str] = {}  # wizard settings of the add form
        self.adding = False
        self.delete_name: str | None = None

    def _singleton(self, *, install: bool) -> App | None:
        apps = self.apps
        for app in apps.values():
            if app.type == HUBVARS_TYPE:
                return app
        if not install:
            return None
        new_id = self.dev.alloc_app_id()
        apps[new_id] = App(new_id, HUBVARS_TYPE, None, HUBVARS_TYPE, app_type_id=HUBVARS_TYPE_ID)
        self._refresh(apps[new_id])
        return apps[new_id]

    def _refresh(self, app: App) -> None:
        info = self.dev.internals.setdefault(app.id, AppInternals(page_title="Hub Variables"))
        variables = self.st.variables.values()
        info.paragraphs = [f"{v.name} ({v.type}): {v.value}" for v in variables]
        info.buttons = [{"name": "moreVar", "title": "Create New Variable"}]
        info.state = {"adding": self.adding, "deleteGV": self.delete_name}

    def _ok(self, app: App) -> web.Response:
        self._refresh(app)
        return self.http.result(True)

    def _fail(self, message: str) -> web.Response:
        return self.http.result(False, message)

    async def direct(self, request: web.Request) -> web.StreamResponse:
        app = self._singleton(install=True)
        assert app is not None
        self._refresh(app)
        return redirect(f"/installedapp/configure/{app.id}")

    async def configure_page(self, request: web.Request) -> web.StreamResponse:
        app = self._singleton(install=False)
        if app is None or request.match_info["id"] != str(app.id):
            return self.http.not_found()
        return self.http.html_page("<html><body><h2>Hub Variables</h2></body></html>")

    async def configure(self, request: web.Request) -> web.StreamResponse:
        return await self.fallback.configure(request)

    async def button(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        app = self._singleton(install=False)
        if app is None or str(form.get("id", "")) != str(app.id):
            return await self.fallback.button(request)
        name = str(form.get("name", ""))
        attribute = str(form.get("stateAttribute", ""))
        if name == "moreVar":
            self.adding, self.pending = True, {}
            return self._ok(app)
        if attribute == "deleteGV":
            if name not in self.st.variables:
                return self._fail(f"No hub variable {name}")
            self.delete_name = name
            return self._ok(app)
        if name == "delConfirm":
            if self.delete_name is None:
                return self._fail("Nothing to delete")
            self.st.variables.pop(self.delete_name, None)
            self.delete_name = None
            return self._ok(app)
        if name == "dateTimeDone":
            date, time = self.pending.get("varDate"), self.pending.get("varTime")
            if not (date and time):
                return self._fail("Set varDate and varTime first")
            self.pending["varValue"] = f"{date}T{time}"
            return self._create(app)
        return self._fail(f"No button {name}")

    async def update(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        app = self._singleton(install=False)
        if app is None or str(form.get("id", "")) != str(app.id):
            return await self.fallback.update(request)
        for key, value in form.items():
            if m := _SETTING_RE.match(key):
                self.pending[m.group(1)] = str(value)
        if not self.adding:
            return self._ok(app)
        if self.pending.get("varType") == "DateTime" and "varValue" not in self.pending:
            return self._ok(app)  # waits for varDate + varTime + dateTimeDone
        if {"hbVar", "varType", "varValue"} <= self.pending.keys():
            return self._create(app)
        return self._ok(app)

    def _create(self, app: App) -> web.Response:
        name, wizard_type = self.pending.get("hbVar", ""), self.pending.get("varType", "")
        value: Any = self.pending.get("varValue", "")
        self.adding, self.pending = False, {}
        if not _NAME_RE.match(name):
            return self._fail(f"Invalid variable name '{name}'")
        if name in self.st.variables:
            return self._fail(f"Variable {name} already exists")
        vtype = WIZARD_TYPES.get(wizard_type)
        if vtype is None:
            return self._fail(f"Unknown variable type '{wizard_type}'")
        if vtype == "string" and not value:
            return self._fail("A String variable needs a value")
        try:
            self.home.convert_variable(vtype, value)
        except ValueError:
            return self._fail(f"Invalid {wizard_type} value '{value}'")
        self.home.set_variable(name, value, vtype=vtype)
        return self._ok(app)


_HubVarRoutes = HubVarRoutes  # the old name (tests patch it)
