"""``GET /installedapp/createchild/<ns>/<app>/parent/<pid>``: a Rule Machine rule
(``Rule-5.1``) is created by :class:`~.rule_machine.RuleMachine` (302 to its configure page, or
404); every other child app goes to the app routes' ``createchild``
(:meth:`~.routes_app_create.AppCreateRoutes.create_child`). The rules' pages are served by the
generic app routes (``routes_apps.py``)."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from .home import Home
from .model import App
from .responses import Responses, redirect
from .routes_common import Routes
from .rule_machine import RULE_TYPE, RuleMachine

# createchild of an app other than a rule: (namespace, app name, parent) -> the answer
OtherChildren = Callable[[str, str, App | None], web.StreamResponse]


def setup(app: web.Application, r: RuleMachineRoutes) -> None:
    app.router.add_get("/installedapp/createchild/{ns}/{app_name}/parent/{pid}", r.create_child)


class RuleMachineRoutes(Routes):
    """``createchild``: rules to the Rule Machine, other child apps to ``other_children``."""

    def __init__(
        self, home: Home, http: Responses, rules: RuleMachine, other_children: OtherChildren
    ) -> None:
        super().__init__(home, http)
        self.rules = rules
        self.other_children = other_children

    async def create_child(self, request: web.Request) -> web.StreamResponse:
        m = request.match_info
        parent = self.app_by_id(m["pid"])
        if m["app_name"] != RULE_TYPE:
            return self.other_children(m["ns"], m["app_name"], parent)  # other child apps
        new_id = self.rules.create(m["ns"], parent)
        if new_id is None:
            return self.http.not_found()
        return redirect(f"/installedapp/configure/{new_id}")
