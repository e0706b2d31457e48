"""The Hub Variables singleton app: the classic ``hubVar`` wizard (reference §10, §12.3).

Decisions (the on-hub server: ``libraries/mcp-variables-lib.groovy``): ``GET
/installedapp/direct/hubVariables`` installs the singleton on first visit and answers ``302
Location: /installedapp/configure/<id>`` (the same id every visit; the HTML page there is a
stub). Its configure/json and statusJson come from the generic routes in ``routes_apps.py``
(this module keeps its ``AppInternals`` current: the page's inputs reveal one another).
``POST /installedapp/btn`` for the singleton is handled here (other apps fall through):
``moreVar`` opens the add form (inputs ``hbVar`` and ``varType``), ``<name>`` +
``stateAttribute=deleteGV`` then ``delConfirm`` deletes, ``dateTimeDone`` finishes a DateTime
add. ``POST /installedapp/update/json`` takes only the fields the page shows at that moment
(``varType`` reveals ``varValue``, or ``varDate`` + ``varTime`` for a DateTime; a field
posted before it is shown is dropped, so one field per submit, in order, is what works);
``varTime`` must be ``HH:mm``. The variable is created once ``varValue`` lands; a DateTime
as soon as ``varDate`` lands (with the ``varTime`` of the same submit, else date-only, stored
as ``yyyy-MM-ddT99:99:99.999-9999``), which closes the form: a later ``varTime`` is dropped
and ``dateTimeDone`` then does nothing (the on-hub server issue #447, fw 2.5.1.181). Every submit
and click moves the page's ``version`` on. With
``drop_first_delete`` (default on: the real hub does it sometimes) the first
``delConfirm`` for a variable is answered with success and does nothing; the second lands.
Clicks answer ``{"status": "success"}``, submits the page model with it; refusals
``{"status": "error", "message"}``. Variables live in ``state.variables`` (what the Maker API
``/hubvariables`` serves, limited to ``maker.variable_names`` when set; ``/hub2/hubMeshJson``
lists every one, ``routes_mesh.py``); a create emits the usual ``variable:<name>`` event.
"""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from .devstate import AppInternals
from .drivers import DriverSpec
from .home import Home
from .model import App
from .responses import Responses, redirect
from .routes_apps import AppRoutes, page_answer, page_model_answer
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
_CLOCK_RE = re.compile(r"^\d{2}:\d{2}$")
CONNECTOR_TYPES = ("Variable", "Dimmer", "Volume", "ColorTemp", "Humidity", "Illuminance")
CONNECTORS_PARENT = DriverSpec(9100, "Variable Connectors", ("Actuator",), category="Virtual")
CONNECTOR_DRIVER = DriverSpec(9101, "Variable Connector", ("Sensor",), category="Virtual")
CONNECTOR_DRIVER_AS = DriverSpec(9102, "Variable Device Connector", ("Sensor",), category="Virtual")
DATE_ONLY = "T99:99:99.999-9999"  # a date-only DateTime's time part (the on-hub server issue #447)


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
        self.drop_first_delete = True  # knob: the first delConfirm of a variable is dropped
        self.dropped: set[str] = set()
        self.submits: list[dict[str, str]] = []  # every settings submit, as posted
        self.connector_for: str | None = None  # a Number/Decimal's connector chooser is open

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

    def _info(self, app: App) -> AppInternals:
        return self.dev.internals.setdefault(app.id, AppInternals(page_title="Hub Variables"))

    def _inputs(self) -> list[dict[str, Any]]:
        """The add form's inputs as far as the wizard has got (or the connector chooser)."""
        if self.connector_for is not None:
            kinds = list(CONNECTOR_TYPES)
            return [{"name": "capab", "type": "enum", "title": "Type", "options": kinds}]
        if not self.adding:
            return []
        out: list[dict[str, Any]] = [
            {"name": "hbVar", "type": "text", "title": "Variable name"},
            {"name": "varType", "type": "enum", "title": "Type", "options": list(WIZARD_TYPES)},
        ]
        if self.pending.get("varType") == "DateTime":
            out += [
                {"name": "varDate", "type": "date", "title": "Date"},
                {"name": "varTime", "type": "time", "title": "Time"},
            ]
        elif self.pending.get("varType") in WIZARD_TYPES:
            out.append({"name": "varValue", "type": "textarea", "title": "Value"})
        for inp in out:
            inp["value"] = self.pending.get(inp["name"])
        return out

    def _refresh(self, app: App) -> None:
        info = self._info(app)
        variables = self.st.variables.values()
        info.paragraphs = [f"{v.name} ({v.type}): {v.value}" for v in variables]
        info.inputs = self._inputs()
        buttons = [{"name": "moreVar", "title": "Create New Variable"}]
        buttons += [{"name": v.name, "title": f"Delete {v.name}"} for v in variables]
        if self.delete_name is not None:
            buttons.append({"name": "delConfirm", "title": "Delete"})
        if self.pending.get("varDate") and self.pending.get("varTime"):
            buttons.append({"name": "dateTimeDone", "title": "Done"})
        info.buttons = buttons
        info.state = {"adding": self.adding, "deleteGV": self.delete_name}

    def _ok(self, app: App) -> web.Response:
        self._info(app).version += 1
        self._refresh(app)
        return page_answer(self.http, True)

    def _page(self, app: App, page: str) -> web.Response:
        self._info(app).version += 1
        self._refresh(app)
        return page_model_answer(self.http, self.fallback.render_page(app, page))

    def _fail(self, message: str) -> web.Response:
        return page_answer(self.http, False, message)

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
        self.dev.clicks.append({str(k): str(v) for k, v in form.items()})
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
            doomed, self.delete_name = self.delete_name, None
            if doomed is None:
                return self._fail("Nothing to delete")
            if self.drop_first_delete and doomed not in self.dropped:
                self.dropped.add(doomed)  # the hub's dropped first try: success, no effect
                return self._ok(app)
            self.st.variables.pop(doomed, None)
            return self._ok(app)
        if attribute == "createCon":
            var = self.st.variables.get(name)
            if var is None:
                return self._fail(f"No hub variable {name}")
            if var.type in ("integer", "bigdecimal"):  # the chooser opens first
                self.connector_for = name
                return self._ok(app)
            self._connector(name, None)
            return self._ok(app)
        if name == "dateTimeDone":  # the variable was committed with varDate: nothing left
            return self._ok(app)
        return self._fail(f"No button {name}")

    async def update(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        app = self._singleton(install=False)
        if app is None or str(form.get("id", "")) != str(app.id):
            return await self.fallback.update(request)
        self.submits.append({str(k): str(v) for k, v in form.items()})
        page = str(form.get("currentPage") or "mainPage")
        shown = {inp["name"] for inp in self._inputs()}  # what the page showed when posted
        capab = str(form.get("settings[capab]") or "")
        if self.connector_for is not None and "capab" in shown and capab in CONNECTOR_TYPES:
            self._connector(self.connector_for, capab)
            self.connector_for = None
            return self._page(app, page)
        for key, value in form.items():
            m = _SETTING_RE.match(key)
            if m is None or m.group(1) not in shown:
                continue
            if m.group(1) == "varTime" and not _CLOCK_RE.match(str(value)):
                continue  # the time input takes HH:mm only
            self.pending[m.group(1)] = str(value)
        complete = {"hbVar", "varType", "varValue"} <= self.pending.keys()
        if self.adding and self.pending.get("varType") != "DateTime" and complete:
            return self._create(app, page=page)
        if self.adding and self.pending.get("varType") == "DateTime" and "varDate" in self.pending:
            day, clock = self.pending["varDate"], self.pending.get("varTime")
            self.pending["varValue"] = f"{day}T{clock}:00" if clock else day + DATE_ONLY
            return self._create(app, page=page)
        return self._page(app, page)

    def _connector(self, name: str, capab: str | None) -> None:
        """A connector: a child device of the hub's Variable Connectors parent (on-hub server),
        labelled with the variable's name (*(no evidence)* for the label and the driver names)."""
        parent = next(
            (d for d in self.st.devices.values() if d.driver.name == CONNECTORS_PARENT.name),
            None,
        )
        if parent is None:
            parent = self.home.create_device(CONNECTORS_PARENT, label="Variable Connectors")
        driver = CONNECTOR_DRIVER if capab in (None, "Variable") else CONNECTOR_DRIVER_AS
        child = self.home.create_device(driver, label=name)
        child.parent_id = parent.id
        child.data["hubVariable"] = name

    def _create(self, app: App, *, page: str | None = None) -> web.Response:
        """Create the pending variable; a submit (``page``) answers the page model."""
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
        return self._ok(app) if page is None else self._page(app, page)


_HubVarRoutes = HubVarRoutes  # the old name (tests patch it)
