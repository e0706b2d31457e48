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

Knob: ``spawns`` False: the ``setBut`` click answers success and creates nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .devstate import AppInternals
from .installed_apps import add_instance
from .model import App, HomeState

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

    def __init__(self, state: HomeState) -> None:
        self.st = state
        self.modes: dict[int, AddMode] = {}

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
