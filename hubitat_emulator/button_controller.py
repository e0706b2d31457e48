"""A Button Controller-5.1 (child of Button Controllers) and the add-button flow that makes
its Button Rules.

Evidence (the on-hub server, verified live on 2.5.0.143: ``mcp-native-rules-lib.groovy``
``_createButtonRuleViaController``, its spec, ``e2e_test.py``): the controller's main page
has ``buttonDev`` (``capability.pushableButton``, multiple, required, submitOnChange) and
``origLabel`` (text); configure/json ``settings.buttonDev`` is a map of device id -> label.
A Button Rule-5.1 gets its trigger (``tCapab1=Button``, ``tDev1``, ``tstate1``,
``ButtontDev1``) only from the controller: a click of ``true`` with ``stateAttribute=addBut``
enters add-button mode; the page's full-form settings submit then shows the button picker
(``newBut``, a multiple enum); a submit with ``newBut=["<n>"]`` shows the events of button
n; a click of ``"<n> <event>"`` with ``stateAttribute=setBut`` creates the rule (a child of
the controller). The mode lives only in that chain of answers: a GET of the page collapses it,
and a ``setBut`` click outside it does nothing (the answer still says success). A new rule
is "(Not Installed)" until it has an action (pending here). Its root page is
``selectActions`` (``origLabel``, a "Define Actions" link to ``selectActionsX``).
The rule's label (``<device>: button <n> <event>``) follows the on-hub server's test fixture only.

A Button Rule's actions are stored as Rule Machine stores its own (``actType.<n>``,
``actSubType.<n>`` and the action's fields; its action pages are not modelled: the hub UI makes
them, tests call :meth:`ButtonControllers.give_actions`). The rule then runs them on its trigger
as Rule Machine does: it is handed to the hub's rule engine (``rule_runner.py``) with its
button trigger (``tCapab1=Button``, the same fields as a Rule Machine button trigger), so
pushing (holding, ...) that button of the device runs them. Nothing on a Button Rule's pages
runs them otherwise (no Run Actions button).

Knob: ``spawns`` False: the ``setBut`` click answers success and creates nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .devstate import AppInternals
from .installed_apps import add_instance
from .model import App, HomeState
from .rule_definition import RuleDefinition, RuleEngine

CONTROLLER_APP = "Button Controller-5.1"
RULE_TYPE = "Button Rule-5.1"
RULE_TYPE_ID = 15
EVENTS = ("pushed", "held", "doubleTapped", "released")


def controller_inputs() -> list[dict[str, Any]]:
    """The inputs of a new controller's main page."""
    return [
        {
            "name": "buttonDev",
            "type": "capability.pushableButton",
            "title": "Select button devices",
            "multiple": True,
            "required": True,
            "submitOnChange": True,
        },
        {"name": "origLabel", "type": "text", "title": "Name this Button Controller"},
    ]


@dataclass
class AddMode:
    step: str  # "add" (clicked), "picker" (newBut shown), "defined" (events of `button`)
    button: int = 0


class ButtonControllers:
    """The controllers' add-button mode, per app id."""

    spawns: bool = True

    def __init__(self, state: HomeState, engine: Callable[[], RuleEngine] | None = None) -> None:
        self.st = state
        self.modes: dict[int, AddMode] = {}
        self.engine = engine  # the hub's rule engine (hub.py), which runs the Button Rules
        self.rules: set[int] = set()  # Button Rules handed to the engine

    def owns(self, app: App) -> bool:
        return app.type == CONTROLLER_APP and not app.user

    def _devices(self, app: App) -> list[int]:
        inp = self._input(app, "buttonDev")
        ids = inp.get("deviceIdsForDeviceList") if inp else None
        return [int(i) for i in ids] if isinstance(ids, list) else []

    def _input(self, app: App, name: str) -> dict[str, Any] | None:
        internals = self.st.dev.internals.get(app.id)
        inputs = internals.inputs if internals else []
        return next((i for i in inputs if i["name"] == name), None)

    def picked(self, app: App) -> dict[str, str] | None:
        """configure/json ``settings.buttonDev``: device id -> label (None: none picked)."""
        devs = self.st.devices
        named = {str(i): (d.label or d.name) for i in self._devices(app) if (d := devs.get(i))}
        return named or None

    def collapse(self, app: App) -> None:
        """A GET of the page: add-button mode is gone."""
        self.modes.pop(app.id, None)

    def _buttons(self, app: App) -> int:
        counts = [
            int(str(d.value("numberOfButtons") or 0))
            for i in self._devices(app)
            if (d := self.st.devices.get(i)) is not None
        ]
        return max(counts, default=0)

    def click(self, app: App, form: dict[str, str]) -> tuple[bool, str | None]:
        """``/installedapp/btn`` on a controller: (ok, message)."""
        name, attr = form.get("name", ""), form.get("stateAttribute")
        mode = self.modes.get(app.id)
        if attr == "addBut" and name == "true":
            if not self._devices(app):
                return False, "Select a button device first"
            self.modes[app.id] = AddMode("add")
            return True, None
        if attr == "setBut":
            number, _, event = name.partition(" ")
            if (
                mode is None
                or mode.step != "defined"
                or number != str(mode.button)
                or event not in EVENTS
                or not self.spawns
            ):
                return True, None  # outside the chain the hub does nothing, and says success
            self._spawn(app, mode.button, event)
            self.modes.pop(app.id, None)
            return True, None
        return False, f"No button {name}"

    def submitted(self, app: App, form: dict[str, str]) -> None:
        """A settings submit on a controller moves add-button mode on (after the inputs)."""
        mode = self.modes.get(app.id)
        if mode is None:
            return
        picked = form.get("settings[newBut]")
        if mode.step == "add":
            mode.step = "picker"
        elif mode.step == "picker" and picked:
            try:
                numbers = [int(x) for x in json.loads(picked)]
            except (ValueError, TypeError):
                numbers = []
            if len(numbers) == 1 and 1 <= numbers[0] <= self._buttons(app):
                self.modes[app.id] = AddMode("defined", numbers[0])

    def section(self, app: App) -> dict[str, Any] | None:
        """The add-button part of the page while the mode lasts (a POST answer only)."""
        mode = self.modes.get(app.id)
        if mode is None or mode.step == "add":
            return None
        if mode.step == "picker":
            options = [str(n) for n in range(1, self._buttons(app) + 1)]
            inputs: list[dict[str, Any]] = [
                {
                    "name": "newBut",
                    "type": "enum",
                    "title": "Select button numbers",
                    "multiple": True,
                    "options": options,
                    "submitOnChange": True,
                }
            ]
        else:
            inputs = [
                {
                    "name": f"{mode.button} {event}",
                    "type": "button",
                    "title": f"Button {mode.button} {event}",
                    "stateAttribute": "setBut",
                }
                for event in EVENTS
            ]
        return {"title": "Add a button", "input": inputs, "body": []}

    def give_actions(self, rule_id: int, settings: dict[str, Any], actions: list[int]) -> None:
        """The hub UI gave Button Rule ``rule_id`` its actions (``settings``: the actions'
        fields, Rule Machine's own; ``actions``: their numbers in order). The rule is installed
        (no longer "(Not Installed)") and runs them when its button event comes."""
        app = self.st.apps[rule_id]
        internals = self.st.dev.internals[rule_id]
        kept = [i for i in internals.inputs if i["name"] not in settings]
        for name, value in settings.items():
            inp: dict[str, Any] = {"name": name, "type": _kind(value), "value": value}
            if re.match(r"^[A-Za-z]+\.\d+$", name) and isinstance(value, str) and _ids(value):
                # a device input of an action (``onOffSwitch.1 = "5,7"``)
                inp["type"] = "capability.*"
                inp["deviceIdsForDeviceList"] = _ids(value)
                for dev_id in _ids(value):
                    dev = self.st.devices.get(dev_id)
                    if dev is not None and rule_id not in dev.apps_using:
                        dev.apps_using.append(rule_id)
            kept.append(inp)
        internals.inputs = kept
        internals.state["actionList"] = [str(n) for n in actions]
        internals.state["actions"] = {
            str(n): {"method": settings.get(f"actSubType.{n}"), "indent": "", "quick": False}
            for n in actions
        }
        self.st.dev.pending.discard(rule_id)
        self._install(app, internals, actions)

    def _install(self, app: App, internals: AppInternals, actions: list[int]) -> None:
        if self.engine is None:
            return
        values = {i["name"]: i.get("value") for i in internals.inputs}
        self.engine().install(
            RuleDefinition(app.id, app.label or app.name, values, triggers=[1], actions=actions)
        )
        self.rules.add(app.id)

    def forget(self, app_id: int) -> None:
        """The Button Rule was removed: the engine forgets it."""
        if app_id in self.rules and self.engine is not None:
            self.rules.discard(app_id)
            self.engine().remove(app_id)

    def _spawn(self, app: App, button: int, event: str) -> None:
        devices = self._devices(app)
        first = self.st.devices.get(devices[0]) if devices else None
        new_id = add_instance(
            self.st, RULE_TYPE, RULE_TYPE_ID, [], user=False, parent_id=app.id, pending=True
        )
        rule = self.st.apps[new_id]
        rule.label = f"{first.label if first else 'Button'}: button {button} {event}"
        self.st.dev.internals[new_id] = AppInternals(
            page_title=rule.label,
            inputs=[
                {"name": "origLabel", "type": "text", "value": rule.label},
                {"name": "tCapab1", "type": "enum", "value": "Button"},
                {
                    "name": "tDev1",
                    "type": "capability.pushableButton",
                    "value": ",".join(map(str, devices)),
                    "deviceIdsForDeviceList": devices,
                },
                {"name": "tstate1", "type": "enum", "value": event},
                {"name": "ButtontDev1", "type": "number", "value": button},
            ],
        )
        for dev_id in devices:  # the hub lists the rule among the apps using its device
            dev = self.st.devices.get(dev_id)
            if dev is not None and new_id not in dev.apps_using:
                dev.apps_using.append(new_id)


def _ids(value: str) -> list[int]:
    parts = [p.strip() for p in value.split(",")]
    return [int(p) for p in parts] if parts and all(p.isdigit() for p in parts) else []


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return "enum" if isinstance(value, list) else "text"
