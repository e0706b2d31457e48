"""The Mode Manager: the Integrated Mode Manager's triggers and the manager selection.

Decisions (hub UI bundle ``vue-hub2.min.js``: the modes page and ``ModeController``; the on-hub
server ``libraries/mcp-system-lib.groovy``; reference §8.2): ``GET /modes/easyModeManager/json``
answers the whole trigger object (``"<modeId>"``, ``"alt-<modeId>"``, ``"exitAway"`` -> trigger
lists; ``{}`` when none); ``POST`` of the same path REPLACES it whole and answers ``{success,
message}`` (a body that is not a JSON object is refused). ``GET /modes/setModeManager/<id>``
takes ``builtIn`` and ``none`` always, ``app`` when the classic Mode Manager app is installed,
``legacy`` when a legacy app is; anything else (``easy`` included) answers ``{"success":
false, "message": "Invalid mode manager"}``. ``/modes/json`` (``routes_admin``) carries the
selection and the apps' ids. Each mode's ``conditions`` texts in ``/modes/json`` follow the
saved triggers' descriptions. Fault knob ``state.mode_manager.drop_saves``: that many POSTs
answer success and store nothing (the tests prove the client reads back).
"""

from __future__ import annotations

import json

from aiohttp import web

from .home import Home
from .responses import Responses
from .routes_common import Routes

_ALWAYS = ("builtIn", "none")


def setup(app: web.Application, home: Home, http: Responses) -> None:
    r = ModeManagerRoutes(home, http)
    app.router.add_get("/modes/easyModeManager/json", r.conditions)
    app.router.add_post("/modes/easyModeManager/json", r.save_conditions)
    app.router.add_get("/modes/setModeManager/{id}", r.select)


class ModeManagerRoutes(Routes):
    """The Mode Manager endpoints over ``state.mode_manager``."""

    async def conditions(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(self.st.mode_manager.conditions)

    async def save_conditions(self, request: web.Request) -> web.StreamResponse:
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.http.result(False, "Invalid JSON")
        if not isinstance(body, dict) or not all(isinstance(v, list) for v in body.values()):
            return self.http.result(False, "Invalid conditions")
        mm = self.st.mode_manager
        if mm.drop_saves > 0:
            mm.drop_saves -= 1
            return self.http.result(True)
        mm.conditions = body
        for mode in self.st.modes:
            items = body.get(str(mode.id)) or []
            mode.conditions = [
                str(t.get("description") or "")
                for t in items
                if isinstance(t, dict) and t.get("triggerType") != "daysOfWeek"
            ]
        return self.http.result(True)

    async def select(self, request: web.Request) -> web.StreamResponse:
        wanted = request.match_info["id"]
        mm = self.st.mode_manager
        offered = set(_ALWAYS)
        if mm.app_id:
            offered.add("app")
        if mm.legacy_app_id:
            offered.add("legacy")
        if wanted not in offered:
            return self.http.result(False, "Invalid mode manager")
        mm.selected = wanted
        return self.http.result(True)
