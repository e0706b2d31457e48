"""The emulated Rule Machine 5.1 child rules: creation and the wizard pages (no HTTP here).

``GET /installedapp/createchild/hubitat/Rule-5.1/parent/<rm_id>`` (the on-hub server:
``hubitat-mcp-server.groovy``, "Create: ... → 302"; served by ``routes_rule_machine.py``)
creates a rule under the installed "Rule Machine" app (:meth:`RuleMachine.create`) and answers
``302 Location: /installedapp/configure/<id>``; another app name or a parent that is not Rule
Machine is a 404. The rule's pages (``mainPage``, ``selectTriggers``, ``periodic``,
``selectActions``, ``doActPage``, ``STPage``: ``rule_model.py``) are served by the generic
``/installedapp/configure/json``, ``update/json`` and ``btn`` routes (``routes_apps.py``), which
hand requests for these rules here and answer with what comes back (a page model, or a click's
``(ok, message)``):

* a settings submit stores only fields the ``currentPage`` shows (one field per submit is
  what works), then follows an ``_action_href_<name>|<page>|<i>`` marker (with
  ``params_for_action_href_...``) or ``_action_previous=Done`` and answers that page;
* a wizard button (``true``, ``N``, ``hasAll``, ``actionDone``, ``moreParams``) acts with or
  without page context (a trigger's hasAll without it leaves its "Conditional trigger?"
  prompt, ``isCondTrig.<N>``, on the page); ``hasRule`` seals the Required Expression only as
  a settings write (a click does nothing, the on-hub server live); an IF's expression on doActPage
  is also sealed by a click with page context (the on-hub server clicks it there); mainPage's
  buttons (``updateRule``, ``pausRule``, ``stopRule``, ``runRuleAct``) act only without
  ``formAction`` (with it, Rule Machine takes the click for a settings save, as for the
  seeded rules); ``updateRule`` copies ``origLabel`` to the app's label (on-hub server);
* ``updateRule``, pause/resume and stop/start hand a :class:`RuleDefinition` to the hub's
  :class:`RuleEngine` (``install``), ``runRuleAct`` runs the actions, removing the rule calls
  ``remove``. The stored settings, the wizard state (``state()``) and the rule text are kept
  in the app's :class:`AppInternals`, so statusJson and ruleBuilderJson show them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from . import rule_edits
from .catalog import unique_commands
from .devstate import AppInternals
from .home import Home, OnHome
from .installed_apps import app_model
from .model import App
from .rule_definition import RuleDefinition, RuleEngine
from .rule_model import MAIN_BUTTONS, PAGES, PARENT_PAGE, Page, RuleModel

RULE_TYPE = "Rule-5.1"
RULE_TYPE_ID = 4
RM_PARENT_TYPE = "Rule Machine"
_HREF_RE = re.compile(r"^_action_href_([^|]*)\|(\w+)\|(\d+)$")
_SETTING_RE = re.compile(r"^settings\[(.+)\]$")
DELETE_ATTRIBUTES = {
    "trash": "selectActions",
    "deleteCon": "selectTriggers",
    "cancelST": "STPage",
    "deleteGV": "selectActions",
    "deleteConfirm": "selectActions",
    "delAct": "selectActions",  # one action row (the on-hub server's _rmDeleteAction)
}


class RecordingRuleEngine:
    """The default engine: runs nothing, records what the pages handed it (tests read it)."""

    def __init__(self) -> None:
        self.installed: dict[int, RuleDefinition] = {}
        self.removed: list[int] = []
        self.runs: list[int] = []

    def install(self, rule: RuleDefinition) -> None:
        self.installed[rule.app_id] = rule

    def remove(self, app_id: int) -> None:
        self.installed.pop(app_id, None)
        self.removed.append(app_id)

    def run_actions(self, app_id: int) -> None:
        self.runs.append(app_id)

    def shutdown(self) -> None:
        """Nothing runs here, so nothing to stop."""

    def set_private_boolean(self, app_ids: list[int], value: bool) -> None:
        """Nothing reads it here; the pages keep their own copy (``RuleModel.private``)."""


class HubEnv:
    """The hub's devices, modes, variables and rules as the fields need them."""

    def __init__(self, home: Home) -> None:
        self.home = home

    def device_name(self, dev_id: int) -> str | None:
        dev = self.home.state.devices.get(dev_id)
        return None if dev is None else dev.label or dev.name

    def has_capability(self, dev_id: int, capability: str) -> bool:
        dev = self.home.state.devices.get(dev_id)
        if dev is None:
            return False
        if capability == "*":
            return True
        return capability.lower() in {c.lower() for c in dev.driver.capabilities}

    def modes(self) -> list[tuple[str, str]]:
        return [(str(m.id), m.name) for m in self.home.state.modes]

    def variables(self) -> list[str]:
        return sorted(self.home.state.variables)

    def variable_type(self, name: str) -> str | None:
        var = self.home.state.variables.get(name)
        return None if var is None else var.type

    def attributes(self, ids: Sequence[int]) -> list[str]:
        out: list[str] = []
        for i in ids:
            dev = self.home.state.devices.get(i)
            for name in dev.attrs if dev else ():
                if name not in out:
                    out.append(name)
        return sorted(out)

    def commands(self, ids: Sequence[int]) -> list[str]:
        out: list[str] = []
        for i in ids:
            dev = self.home.state.devices.get(i)
            for _cap, cmd in unique_commands(dev.driver) if dev else ():
                if cmd.name not in out:
                    out.append(cmd.name)
        return sorted(out)

    def files(self) -> list[str]:
        return self.home.files.names()

    def rules(self, exclude: int) -> list[tuple[str, str]]:
        return [
            (str(a.id), re.sub(r"<[^>]+>", "", a.label or a.name))
            for a in self.home.state.apps.values()
            if a.type == RULE_TYPE and a.id != exclude
        ]


class RuleMachine(OnHome):
    """The native rules created through ``createchild`` (seeded rules stay generic)."""

    def __init__(self, home: Home, engine: RuleEngine | None = None) -> None:
        self.home = home
        self.engine: RuleEngine = engine if engine is not None else RecordingRuleEngine()
        self.env = HubEnv(home)
        self.rules: dict[int, RuleModel] = {}
        # fault knob: fields (regexes) the pages never show, as on a firmware whose Rule
        # Machine names or orders them differently (tests of a build that cannot finish)
        self.hidden_fields: list[str] = []
        # fault knob: ELSE and END-IF rows stored without their ``actType.<n>``, as rows
        # made with Rule Machine's own buttons are (rule-storage notes, live: 8 of 217 rows)
        self.closers_without_act_type = False
        # fault knob: a submit writing `cond` or `oper` answers with the page as it was
        # before the write (the on-hub server, live 2026-06-21: that echo lags a render behind)
        self.lagging_echo = False

    def _page(self, model: RuleModel, name: str, params: dict[str, Any] | None = None) -> Page:
        built = model.page(name, self.env, params=params)
        if self.hidden_fields:
            built.inputs = [
                i
                for i in built.inputs
                if not any(re.fullmatch(h, str(i["name"])) for h in self.hidden_fields)
            ]
        return built

    def owns(self, app: App) -> bool:
        return app.id in self.rules

    def create(self, ns: str, parent: App | None) -> int | None:
        """``createchild`` of a rule: its new app id, or None (a 404) when the namespace is not
        ``hubitat`` or the parent is not the installed Rule Machine app."""
        if ns != "hubitat" or parent is None or parent.type != RM_PARENT_TYPE:
            return None
        new_id = self.dev.alloc_app_id()
        self.apps[new_id] = App(
            new_id, RULE_TYPE, None, RULE_TYPE, parent_id=parent.id, app_type_id=RULE_TYPE_ID
        )
        # condition numbers run on across the parent's rules (the on-hub server:
        # docs/rm_wire_format.md)
        siblings = [
            m.hw_cond
            for m in self.rules.values()
            if (a := self.apps.get(m.app_id)) is not None and a.parent_id == parent.id
        ]
        self.rules[new_id] = RuleModel(new_id, hw_cond=max(siblings, default=0))
        self._sync(self.apps[new_id])
        return new_id

    def forget(self, app_id: int) -> None:
        """The rule was deleted (``forcedelete`` / ``delete``, or its parent was)."""
        if self.rules.pop(app_id, None) is not None:
            self.engine.remove(app_id)

    # ------------------------------------------------------------------ pages

    def configure(self, app: App, page: str) -> dict[str, Any]:
        """configure/json of one of the rule's pages."""
        # a page's render runs its method: a bare button click after it acts on that page
        # (the hub UI clicks on the page it shows)
        if page in PAGES:
            self.rules[app.id].last_page = page
        return self.render(app, page)

    def render(self, app: App, page: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        model = self.rules[app.id]
        self._sync(app)
        built = self._page(model, page, params)
        return self._page_json(app, model, page, built)

    def _page_json(self, app: App, model: RuleModel, name: str, page: Page) -> dict[str, Any]:
        internals = self._internals(app)
        inputs = []
        for spec in page.inputs:
            shown = dict(spec)
            if spec["type"] != "button":
                form = model.local.form or {}  # the Local Variables form's fields
                shown["value"] = model.settings.get(spec["name"], form.get(spec["name"]))
                ids = model.meta.get(spec["name"], {}).get("deviceIdsForDeviceList")
                if ids is not None:
                    shown["deviceIdsForDeviceList"] = ids
            inputs.append(shown)
        body: list[dict[str, Any]] = [
            {"element": "paragraph", "description": p} for p in page.paragraphs
        ]
        body += page.hrefs
        return {
            "app": app_model(app, internals.version),
            "configPage": {
                "name": name,
                "title": page.title,
                "previousPage": None if name == "mainPage" else PARENT_PAGE.get(name, "mainPage"),
                "refreshInterval": 0,
                "install": True,
                "error": page.error,
                "sections": [{"title": "", "input": inputs, "body": body}],
            },
            "settings": dict(model.settings),
            "childApps": [],
        }

    def _internals(self, app: App) -> AppInternals:
        return self.dev.internals.setdefault(app.id, AppInternals(page_title="Edit Rule"))

    def _sync(self, app: App) -> None:
        """Mirror the rule into its AppInternals (statusJson, ruleBuilderJson, exports)."""
        model = self.rules[app.id]
        internals = self._internals(app)
        internals.page_title = f"Edit Rule {app.label or ''}".strip()
        internals.inputs = [
            {"name": k, "value": v, **model.meta.get(k, {})} for k, v in model.settings.items()
        ]
        internals.paragraphs = model.rule_text(self.env)
        internals.buttons = [{"name": b, "title": b} for b in MAIN_BUTTONS]
        internals.state = model.state(self.env)
        internals.subscriptions = list(model.subscriptions)
        ids = {i for m in model.meta.values() for i in m.get("deviceIdsForDeviceList", [])}
        for dev in self.st.devices.values():
            if dev.id in ids and app.id not in dev.apps_using:
                dev.apps_using.append(app.id)
            elif dev.id not in ids and app.id in dev.apps_using:
                dev.apps_using.remove(app.id)

    # ------------------------------------------------------------------ submits

    def update(self, app: App, form: dict[str, str]) -> dict[str, Any]:
        """A settings submit: the page model it answers (the page it leads to)."""
        model = self.rules[app.id]
        page = form.get("currentPage") or "mainPage"
        params = _json_map(form.get("paramsForPage"))
        model.last_page = page
        shown = self._page(model, page, params).shown()
        stale = self.render(app, page, params) if self.lagging_echo else None
        for key, raw in form.items():
            m = _SETTING_RE.match(key)
            if m is None or m.group(1) not in shown:
                continue  # not on the page: Rule Machine ignores it
            name = m.group(1)
            model.write(shown[name], raw, form.get(f"{name}.multiple"), self.env)
        if page == "selectActions":
            model.act_init = True  # the page's own hook sets state.actNdx
        if not app.disabled:  # RM ignores deletes on a disabled rule (the on-hub server, live)
            rule_edits.after_submit(model, page, form, set(shown))
        target, target_params = page, params
        for key in form:
            href = _HREF_RE.match(key)
            if href is not None:
                target = href.group(2)
                target_params = _json_map(form.get(f"params_for_action_href_{key[13:]}"))
        if "_action_previous" in form:
            target = PARENT_PAGE.get(page, "mainPage")
        if target != page:
            model.navigate(page, target, target_params)
            if self.closers_without_act_type:
                for n in model.actions:
                    if model.sub(n) in ("getElse", "getEndIf"):
                        model.settings.pop(f"actType.{n}", None)
                        model.meta.pop(f"actType.{n}", None)
        self._internals(app).version += 1
        wrote = {m.group(1) for k in form if (m := _SETTING_RE.match(k)) is not None}
        if stale is not None and target == page and wrote & {"cond", "oper"}:
            # the stale page shows the picker with the value just written, so only a fresh
            # read shows what the write revealed
            for section in stale.get("configPage", {}).get("sections", []):
                for field in section.get("input", []):
                    if field.get("name") in wrote:
                        field["value"] = form.get(f"settings[{field['name']}]")
            return stale
        return self.render(app, target, target_params)

    def button(self, app: App, form: dict[str, str]) -> tuple[bool, str | None]:
        """A button click: (ok, the refusal's message)."""
        model = self.rules[app.id]
        name = form.get("name", "")
        page = form.get("currentPage") or ("mainPage" if name in MAIN_BUTTONS else model.last_page)
        if "currentPage" not in form and form.get("stateAttribute") in DELETE_ATTRIBUTES:
            # a button's handler runs without the page: the attribute names what it deletes
            page = DELETE_ATTRIBUTES[form["stateAttribute"]]
        internals = self._internals(app)
        if name in MAIN_BUTTONS:
            if page != "mainPage":
                return False, f"No button {name}"
            internals.version += 1
            if "formAction" not in form:
                self._main_button(app, model, name)
            return True, None
        if name == "hasRule":
            # on STPage a click leaves the conditions unused (the on-hub server, live: only a
            # settings write seals); the on-hub server seals an IF's expression on doActPage by a
            # click with page context
            internals.version += 1
            shown = self._page(model, page).shown()
            if page == "doActPage" and "formAction" in form and name in shown:
                model.last_page = page
                model.write(shown[name], "clicked", None, self.env)
                self._sync(app)
            return True, None
        bare = "formAction" not in form
        if app.disabled and form.get("stateAttribute") in DELETE_ATTRIBUTES:
            # taken and ignored (the on-hub server, live on 2.5.1.135)
            return True, None
        if not model.click(page, name, form.get("stateAttribute", ""), self.env, bare=bare):
            return False, f"No button {name}"
        internals.version += 1
        self._sync(app)
        return True, None

    def refresh(self, app: App) -> None:
        """Mirror what a run changes behind the pages' back: the local variables (a Set
        Variable action writes the pages' own dict; pause and private boolean come through
        their hooks, which mirror the whole rule)."""
        model = self.rules.get(app.id)
        if model is not None:
            self._internals(app).state["allLocalVars"] = model.local.state()

    def set_private(self, app_id: int, value: bool) -> None:
        """A Set Private Boolean action set this rule's private boolean."""
        model, app = self.rules.get(app_id), self.apps.get(app_id)
        if model is not None and app is not None:
            model.private = value
            self._sync(app)
        elif app is not None and app.type == RULE_TYPE:
            # a seeded rule (generic pages): its state keeps it as its Start button resets it
            # (routes_apps.py)
            internals = self.dev.internals.get(app_id)
            if internals is not None:
                internals.state["privateBoolean"] = value

    def set_paused(self, app_id: int, paused: bool) -> None:
        """Pause or resume a rule as its Pause button does (a Pause Rules action)."""
        model, app = self.rules.get(app_id), self.apps.get(app_id)
        if model is None or app is None or model.paused == paused:
            return
        self._main_button(app, model, "pausRule")

    def _main_button(self, app: App, model: RuleModel, name: str) -> None:
        if name == "runRuleAct":
            self.engine.run_actions(app.id)
            return
        if name == "pausRule":
            model.paused = not model.paused
        elif name == "stopRule":
            model.stopped = not model.stopped
            if not model.stopped:  # Start resets it (the on-hub server's rm_native_test_matrix.md)
                model.private = True
                self.engine.set_private_boolean([app.id], True)
        if name == "updateRule" and model.settings.get("origLabel"):
            # RM copies it on updateRule (on-hub server)
            app.label = str(model.settings["origLabel"])
        model.initialise()
        self._sync(app)
        label = re.sub(r"<[^>]+>", "", app.label or app.name)
        self.engine.install(model.definition(label))


def _json_map(raw: str | None) -> dict[str, Any] | None:
    if not raw:
        return None
    try:
        parsed = json.loads(raw)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None
