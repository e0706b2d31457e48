"""Installed apps, Rule Machine and Visual Rules (reference §12). Decisions: ``devstate.py``.

More decisions: ``/installedapp/json/<missing>`` is a 404; ``/installedapp/btn`` answers
``{"status": "success"}`` and ``/installedapp/update/json`` the re-rendered page model with
``"status": "success"`` (hub UI: ``appUI.js`` tests ``status == "success"`` on both); a
refusal is ``{"status": "error", "message"}`` (its wording has no evidence: the client takes
any other status as a refusal). A Rule Machine click that carries ``formAction`` is taken for
a settings save (the on-hub server, live capture): the button does nothing, the answer says success.
Every click's form is kept in ``state.dev.clicks``. App names and labels are stored entity-escaped
in configure/json, statusJson and ``/installedapp/json`` (``Heat On &lt;67``, the on-hub server);
``/installedapp/disable`` answers ``{"success": true}``;
``forcedelete/<id>/quiet`` answers ``302 Location: /installedapp/list`` (an HTML page: the hub
UI navigates there) and ``delete/<id>`` answers ``{"success": bool, "message"}`` (the hub UI's
Remove reads it); both remove the children too;
a new Visual Rule from ``/app/createVisualRuleBuilderRule`` is announced as
``HubitatRuleBuilderAppId`` (the classic format) in the returned HTML.

Creating apps (``create/<typeId>``, ``createchild``, the Swap Device app):
``routes_app_create.py``.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from . import vrb_graph
from .button_controller import RULE_TYPE, ButtonControllers
from .devstate import APP_VRB
from .installed_apps import app_model, escaped
from .model import App
from .responses import Responses, redirect
from .routes_app_create import SWAP_TYPE, AppCreateRoutes
from .rule_machine import RuleMachine
from .scenes import CAPTURE_BUTTON, SCENE_TYPE, capture

__all__ = ["AppRoutes", "app_model", "escaped", "page_answer", "page_model_answer", "setup"]

RM_TYPES = ("Rule-5.1", "Rule-5.0", "Rule-4.1", "Rule-4.0")
VRB_TYPE = "Visual Rule Builder"


def page_answer(http: Responses, ok: bool, message: str | None = None) -> web.Response:
    """The answer of a click (or a refused settings submit): ``{"status": ...}``."""
    if ok:
        return http.json({"status": "success"})
    return http.json({"status": "error", "message": message})


def page_model_answer(http: Responses, page: dict[str, Any]) -> web.Response:
    """A settings submit's answer: the re-rendered page model with ``status: success``."""
    return http.json({"status": "success", **page})


def setup(app: web.Application, r: AppRoutes) -> None:
    add = app.router
    add.add_get("/installedapp/json/{id}", r.app_json)
    add.add_get("/installedapp/configure/json/{id}", r.configure)
    add.add_get("/installedapp/configure/json/{id}/{page}", r.configure)
    add.add_get("/installedapp/statusJson/{id}", r.status)
    add.add_post("/installedapp/disable", r.disable)
    add.add_post("/installedapp/btn", r.button)
    add.add_get("/installedapp/forcedelete/{id}/quiet", r.force_delete)
    add.add_post("/installedapp/forcedelete/{id}/quiet", r.force_delete)
    add.add_get("/installedapp/delete/{id}", r.delete)
    add.add_get("/installedapp/list", r.list_page)
    add.add_get("/installedapp/direct/swapDevice", r.swap_direct)
    add.add_get("/installedapp/create/{type_id}", r.create_instance)
    add.add_get("/app/ruleBuilderJson/{id}", r.rule_builder_get)
    add.add_post("/app/ruleBuilderJson/{id}", r.rule_builder_post)
    add.add_get("/app/ruleBuilder20Json/{id}", r.rule_builder20)
    add.add_post("/app/ruleBuilder20Json/{id}", r.rule_builder20)
    add.add_get("/app/createVisualRuleBuilderRule", r.create_vrb)
    add.add_get("/app/ruleBuilderPause/{id}/{paused}", r.vrb_pause)


class AppRoutes(AppCreateRoutes):
    """Installed-app pages and rule builders (the generic handlers, see :class:`AppPages`);
    creating instances: :class:`AppCreateRoutes`."""

    # the native Rule Machine rules' pages (rule_machine.py): their requests are handed there
    rule_machine: RuleMachine | None = None
    buttons: ButtonControllers | None = None  # Button Controllers' add-button flow

    def _controller(self, app: App) -> ButtonControllers | None:
        b = self.buttons
        return b if b is not None and b.owns(app) else None

    def _rule(self, app: App | None) -> RuleMachine | None:
        rm = self.rule_machine
        return rm if app is not None and rm is not None and rm.owns(app) else None

    def _app(self, request: web.Request) -> App | None:
        return self.app_by_id(request.match_info["id"])

    async def app_json(self, request: web.Request) -> web.StreamResponse:
        app = self._app(request)
        if app is None:
            return self.http.not_found()
        return self.http.json(
            {
                "id": app.id,
                "name": escaped(app.label or app.name),
                "type": app.type,
                "disabled": app.disabled,
                "user": app.user,
            }
        )

    async def configure(self, request: web.Request) -> web.StreamResponse:
        app = self._app(request)
        if app is None:
            return self.http.not_found()
        root = "selectActions" if app.type == RULE_TYPE else "mainPage"  # the on-hub server
        page = request.match_info.get("page", root)
        if rm := self._rule(app):
            return self.http.json(rm.configure(app, page))
        if bc := self._controller(app):
            bc.collapse(app)  # a page GET ends add-button mode
        return self.http.json(self._render(app, page))

    def render_page(self, app: App, page: str) -> dict[str, Any]:
        """The configure/json answer of ``page`` (the page model a submit answers too)."""
        return self._render(app, page)

    def _render(self, app: App, page: str) -> dict[str, Any]:
        internals = self._internals(app)
        if app.id in self.dev.broken_pending:  # rendering re-validates the rule
            self.dev.broken_pending.discard(app.id)
        settings = {i["name"]: i.get("value") for i in internals.inputs if i["type"] != "button"}
        inputs = [dict(i) for i in internals.inputs]
        sections: list[dict[str, Any]] = [
            {
                "title": "",
                "input": inputs,
                "body": [{"element": "paragraph", "description": p} for p in internals.paragraphs],
            }
        ]
        if bc := self._controller(app):
            settings["buttonDev"] = bc.picked(app)  # {id: label} (on-hub server)
            if extra := bc.section(app):
                sections.append(extra)
        if internals.buttons:
            sections.append(
                {
                    "title": "Controls",
                    "input": [
                        {
                            "name": b["name"],
                            "type": "button",
                            "title": b["title"],
                            **({"submitOnChange": True} if b.get("submitOnChange") else {}),
                        }
                        for b in internals.buttons
                    ],
                    "body": [],
                }
            )
        kids = [a for a in self.apps.values() if a.parent_id == app.id]
        return {
            "app": app_model(app, internals.version, installed=app.id not in self.dev.pending),
            "configPage": {
                "name": page,
                "title": internals.page_title,
                "previousPage": None if page == "mainPage" else "mainPage",
                "refreshInterval": 0,
                "install": True,
                "error": None,
                "sections": sections,
            },
            "settings": settings,
            "childApps": [{"id": k.id, "label": k.label or k.name} for k in kids],
        }

    async def status(self, request: web.Request) -> web.StreamResponse:
        app = self._app(request)
        if app is None:
            return self.http.not_found()
        rule = self._rule(app)
        if rule is not None:
            rule.refresh(app)  # its state as it is now: a run changes local variables
        internals = self._internals(app)
        app_state = [
            {"name": k, "value": json.dumps(v) if k == "manifests" else v}
            for k, v in internals.state.items()
        ]
        return self.http.json(
            {
                "id": app.id,
                "installedApp": {
                    "id": app.id,
                    "name": app.name,
                    "label": escaped(app.label),
                    "systemAppType": not app.user,
                    "disabled": app.disabled,
                },
                "appSettings": [
                    {
                        "name": i["name"],
                        "value": i.get("value"),
                        "type": i["type"],
                        "multiple": bool(i.get("multiple")),
                        **(
                            {"deviceIdsForDeviceList": i["deviceIdsForDeviceList"]}
                            if "deviceIdsForDeviceList" in i
                            else {}
                        ),
                    }
                    for i in internals.inputs
                ],
                "appState": app_state,
                "eventSubscriptions": [{"name": s} for s in internals.subscriptions],
                "scheduledJobs": [],
                "childAppCount": sum(1 for a in self.apps.values() if a.parent_id == app.id),
                "childDeviceCount": 0,
            }
        )

    async def disable(self, request: web.Request) -> web.StreamResponse:
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.http.error(500, "Server Error")
        app = self.apps.get(int(body.get("id", 0))) if isinstance(body, dict) else None
        if app is None:
            return self.http.result(False, "App not found")
        app.disabled = bool(body.get("disable"))
        return self.http.json({"success": True})

    async def button(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        self.dev.clicks.append({str(k): str(v) for k, v in form.items()})
        app = self.app_by_id(str(form.get("id", "")))
        name = str(form.get("name", ""))
        if app is None:
            return page_answer(self.http, False, "App not found")
        if rm := self._rule(app):
            return page_answer(
                self.http, *rm.button(app, {str(k): str(v) for k, v in form.items()})
            )
        if bc := self._controller(app):
            return page_answer(self.http, *bc.click(app, {str(k): str(v) for k, v in form.items()}))
        internals = self._internals(app)
        if name not in {b["name"] for b in internals.buttons}:
            return page_answer(self.http, False, f"No button {name}")
        if name in self.dropped_buttons:
            return page_answer(self.http, True)
        if app.type in RM_TYPES and "formAction" in form:
            # the on-hub server (live capture): page-context fields make Rule Machine take the click
            # for a settings save; the button's own action is dropped, the answer still says success
            internals.version += 1
            return page_answer(self.http, True)
        st = internals.state
        if name == "pausRule":
            st["paused"] = not st.get("paused")
        elif name == "stopRule":
            st["stopped"] = not st.get("stopped")
            if not st["stopped"] and "privateBoolean" in st:
                # Start resets it (the on-hub server docs/rm_native_test_matrix.md)
                st["privateBoolean"] = True
        elif app.type == SWAP_TYPE and name == "swapDevices":
            problem = self._swap(internals)
            if problem:
                return page_answer(self.http, False, problem)
        elif app.type == SCENE_TYPE and name == CAPTURE_BUTTON:
            capture(self.home.state, internals)
        elif name == "runRuleAct":
            internals.runs += 1
            self.home.emit_app_event(app.id, "runRuleAct", internals.runs, "Actions run")
        return page_answer(self.http, True)

    async def update(self, request: web.Request) -> web.StreamResponse:
        """The settings submit of a classic app page: known inputs take the posted values.

        Values are stored as the hub keeps them: bool/number/decimal typed, multi-select
        enums as the posted JSON text, device inputs as the id list (``deviceIdsForDeviceList``,
        and the devices' "in use by"). Names that are not inputs of the app are ignored. The
        answer is the re-rendered page, as for a form refresh; an unknown app gets
        ``{"status": "error"}``.
        """
        form = await request.post()
        app = self.app_by_id(str(form.get("id", "")))
        if app is None:
            return page_answer(self.http, False, "App not found")
        if rm := self._rule(app):
            return page_model_answer(
                self.http, rm.update(app, {str(k): str(v) for k, v in form.items()})
            )
        internals = self._internals(app)
        by_name = {i["name"]: i for i in internals.inputs}
        for key, value in form.items():
            if not (key.startswith("settings[") and key.endswith("]")):
                continue
            name = key[len("settings[") : -1]
            inp = by_name.get(name)
            if inp is None:
                continue
            inp["value"] = self._typed(app.id, inp, str(value), str(form.get(f"{name}.type", "")))
        if "label" in form and not self.dev.label_ignored:  # the page's name field (a bare
            # ``label`` input in the hub UI)
            app.label = str(form["label"]).strip() or None
        named = by_name.get("origLabel", {}).get("value") if app.type == "Room Lights" else None
        if named:  # a Room Lights instance is named by its origLabel (jbaruch's notes)
            app.label = str(named)
        if form.get("_action_update") == "Done" and not self.dev.done_ignored:
            # Done runs installed() on a pending app and updated() on an installed one, with
            # the code its app type has now (a user app: its Apps Code item)
            if app.id not in self.dev.pending:
                internals.updated_runs += 1
            code = self.dev.code.get(("app", app.app_type_id)) if app.user else None
            internals.ran_code_version = code.version if code is not None else None
            self.dev.pending.discard(app.id)
        internals.version += 1
        if bc := self._controller(app):
            bc.submitted(app, {str(k): str(v) for k, v in form.items()})
        if app.type == SWAP_TYPE:
            chosen = {i["name"]: i.get("value") for i in internals.inputs}
            if chosen.get("oldDev") and chosen.get("newDev"):
                internals.buttons = [{"name": "swapDevices", "title": "Swap devices"}]
        return page_model_answer(
            self.http, self._render(app, str(form.get("currentPage") or "mainPage"))
        )

    def _typed(self, app_id: int, inp: dict[str, Any], value: str, posted_type: str) -> Any:
        kind = posted_type or str(inp.get("type"))
        if kind == "bool":
            return value == "true"
        if kind in ("number", "decimal"):
            try:
                return int(value) if kind == "number" else float(value)
            except ValueError:
                return value  # the hub keeps what it cannot parse as text
        if kind.startswith(("capability.", "device.")):
            ids = [int(p) for p in value.split(",") if p.strip().isdigit()]
            uses = self.apps[app_id].type != SWAP_TYPE  # the swap picker is not a use
            for dev in self.st.devices.values():
                if uses and dev.id in ids and app_id not in dev.apps_using:
                    dev.apps_using.append(app_id)
            inp["deviceIdsForDeviceList"] = ids
            return ",".join(str(i) for i in ids)
        return value

    def _remove(self, app_id: int) -> None:
        for kid in [a.id for a in self.apps.values() if a.parent_id == app_id]:
            self._remove(kid)
        if self.rule_machine is not None:
            self.rule_machine.forget(app_id)
        if self.buttons is not None:
            self.buttons.forget(app_id)
        self.apps.pop(app_id, None)
        self.dev.pending.discard(app_id)
        self.dev.internals.pop(app_id, None)
        self.dev.vrb.pop(app_id, None)
        self.dev.vrb_graph.pop(app_id, None)
        for d in self.st.devices.values():
            if app_id in d.apps_using:
                d.apps_using.remove(app_id)

    # knobs (tests set them): the soft delete refuses with this message and keeps the app;
    # or it deletes and answers {"success": false} anyway
    delete_refusal: str | None = None
    delete_lies: bool = False
    # a hub that answers success and does nothing: these buttons, Visual Rule saves and pauses
    dropped_buttons: frozenset[str] = frozenset()
    drop_rule_writes: bool = False
    # firmware whose create page opens the 2.0 (graph) editor
    vrb_creates_graph: bool = False

    async def delete(self, request: web.Request) -> web.StreamResponse:
        """The hub UI's Remove: JSON ``{success, message}`` (hub UI: vue-hub2.min.js)."""
        app = self._app(request)
        if app is None:
            return self.http.result(False, "App not found")
        if self.delete_refusal is not None:
            return self.http.result(False, self.delete_refusal)
        self._remove(app.id)
        return self.http.result(not self.delete_lies, "Error" if self.delete_lies else None)

    async def force_delete(self, request: web.Request) -> web.StreamResponse:
        app = self._app(request)
        if app is not None:
            self._remove(app.id)
        return redirect("/installedapp/list")

    async def list_page(self, request: web.Request) -> web.StreamResponse:
        rows = "".join(f"<li>{a.label or a.name}</li>" for a in self.apps.values())
        return self.http.html_page(f"<html><body><ul>{rows}</ul></body></html>")

    # ------------------------------------------------------------------ rule builder

    async def rule_builder_get(self, request: web.Request) -> web.StreamResponse:
        app = self._app(request)
        if app is None:
            return self.http.json({})
        if app.id in self.dev.vrb:
            return self.http.json(self.dev.vrb[app.id])
        internals = self._internals(app)
        if app.type in RM_TYPES:
            marked = any("**BROKEN**" in p for p in internals.paragraphs)
            state = internals.state
            # the compiled state (rule-storage notes, live): the expressions and the order
            return self.http.json(
                {
                    "broken": marked and app.id not in self.dev.broken_pending,
                    "paused": bool(state.get("paused")),
                    "hasPredicate": bool(state.get("hasPredicate")),
                    "predCapabs": list(state.get("predCapabs") or []),
                    "eval": dict(state.get("eval") or {}),
                    "parens": dict(state.get("parens") or {}),
                    "actionList": list(state.get("actionList") or []),
                    "capabsfalse": dict(state.get("capabsfalse") or {}),
                }
            )
        return self.http.json(dict(internals.state))

    async def rule_builder_post(self, request: web.Request) -> web.StreamResponse:
        app = self._app(request)
        if app is None or app.id not in self.dev.vrb:
            return self.http.result(False, "Not a Visual Rule")
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.http.result(False, "Invalid JSON")
        keys = ("whenNodes", "thenNodes", "elseNodes")
        if not isinstance(body, dict) or not all(
            isinstance(body.get(k, []), list) and all(isinstance(n, dict) for n in body.get(k, []))
            for k in keys
        ):
            return self.http.result(False, "Invalid rule definition")
        if self.drop_rule_writes:
            return self.http.json({"success": True})
        rule = self.dev.vrb[app.id]
        for key in ("name", "rulePaused", "whenNodes", "thenNodes", "elseNodes"):
            if key in body:
                rule[key] = body[key]
        if body.get("name"):
            app.label = str(body["name"])
        return self.http.json({"success": True})

    async def rule_builder20(self, request: web.Request) -> web.StreamResponse:
        """A graph rule ``{name, rulePaused, ruleJson (text), validationErrors}``; every
        other id (classic rules included) ``{"success": false}`` (hub UI, the on-hub server)."""
        app = self._app(request)
        if app is None or app.id not in self.dev.vrb_graph:
            return self.http.result(False, "Rule builder instance not found")
        rule = self.dev.vrb_graph[app.id]
        if request.method == "POST":
            answer, name = vrb_graph.save(rule, await request.text(), drop=self.drop_rule_writes)
            if name:
                app.label = name
            return self.http.json(answer)
        return self.http.json(rule)

    async def create_vrb(self, request: web.Request) -> web.StreamResponse:
        new_id = self.dev.alloc_app_id()
        self.apps[new_id] = App(
            new_id,
            VRB_TYPE,
            "New Visual Rule",
            VRB_TYPE,
            parent_id=APP_VRB,
            hidden=True,
            app_type_id=109,
        )
        if self.vrb_creates_graph:
            self.dev.vrb_graph[new_id] = vrb_graph.new_graph_rule()
        else:
            self.dev.vrb[new_id] = {
                "name": "New Visual Rule",
                "rulePaused": False,
                "whenNodes": [],
                "thenNodes": [],
                "elseNodes": [],
                "promptHistory": [],
            }
        return self.http.html_page(vrb_graph.create_page(new_id, graph=self.vrb_creates_graph))

    async def vrb_pause(self, request: web.Request) -> web.StreamResponse:
        app = self._app(request)
        rule = None if app is None else self.dev.vrb.get(app.id) or self.dev.vrb_graph.get(app.id)
        if rule is None:
            return self.http.json({"success": False})
        if self.drop_rule_writes:
            return self.http.json({"success": True})
        rule["rulePaused"] = request.match_info["paused"] == "true"
        return self.http.json({"success": True})
