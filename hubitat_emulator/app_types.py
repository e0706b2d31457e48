"""The app types the hub can add, and what a new instance of one looks like.

``/hub2/appsList`` carries ``systemAppTypes`` (built-in) and ``userAppTypes`` (user app
code) as ``{id, name, description, menu}`` (hub UI: the Add Built-In/User App drawer shows
``name`` and ``description``, filters by ``menu``: Apps, Automations, Integrations, and
navigates to ``/installedapp/create/<id>``). A create answers ``302`` to the new app's
``/installedapp/configure/<id>``; a singleton built-in app that is installed answers with
that instance (the on-hub server: "returns the EXISTING instance every time"). A built-in parent
installs on open (the on-hub server: the dashboard parent is "a self-installing singleton
(installOnOpen)", the RM family's parent "appears in /hub2/appsList right away"); other new
instances are pending shells (configure/json ``app.installed`` false) until their page's Done (the
on-hub server, live).

A user app's first page shows the ``input "name", "type"`` lines of its source (title,
``required``, ``multiple``), on the page its first ``page``/``dynamicPage`` names.

Built-in child apps come from ``createchild/<ns>/<app>/parent/<pid>`` under an installed
parent of the right type (the on-hub server's app-type registry; its dashboards lib for
``Dashboard``); a legacy dashboard installs itself and mints its access token (on-hub server), the
others wait for Done.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class SystemAppType:
    id: int
    name: str
    menu: str
    description: str
    singleton: bool = True
    installs_on_open: bool = False  # a parent container: installed the moment it is opened
    inputs: tuple[dict[str, Any], ...] = field(default_factory=tuple)


SYSTEM_APP_TYPES = (
    SystemAppType(301, "Hubitat® Safety Monitor", "Apps", "Intrusion, smoke, water alerts"),
    SystemAppType(302, "Mode Manager", "Automations", "Change modes by time or presence"),
    SystemAppType(303, "Rule Machine", "Automations", "Rules", installs_on_open=True),
    SystemAppType(304, "Room Lighting", "Automations", "Lights by room", installs_on_open=True),
    SystemAppType(305, "Basic Rules", "Automations", "Simple rules", installs_on_open=True),
    SystemAppType(
        306, "Button Controllers", "Automations", "Buttons to actions", installs_on_open=True
    ),
    SystemAppType(
        307, "Groups and Scenes", "Apps", "Device groups and scenes", installs_on_open=True
    ),
    SystemAppType(308, "Notifications", "Apps", "Notifiers", installs_on_open=True),
    SystemAppType(309, "Hubitat® Dashboard", "Apps", "Dashboards", installs_on_open=True),
    SystemAppType(
        310,
        "Maker API",
        "Integrations",
        "HTTP access to devices",
        singleton=False,
        inputs=(
            {"name": "devices", "type": "capability.*", "title": "Devices", "multiple": True},
            {"name": "allowLocal", "type": "bool", "title": "Local access", "value": True},
        ),
    ),
    SystemAppType(311, "Ecobee Integration", "Integrations", "Ecobee thermostats"),
)
SYSTEM_BY_ID = {t.id: t for t in SYSTEM_APP_TYPES}
SYSTEM_BY_NAME = {t.name: t for t in SYSTEM_APP_TYPES}


def system_type_id(name: str) -> int:
    """The built-in type id of a seeded parent app (0: not an addable type)."""
    found = SYSTEM_BY_NAME.get(name)
    return found.id if found else 0


@dataclass(frozen=True, slots=True)
class ChildAppType:
    namespace: str
    app_name: str
    parent_type: str
    type_id: int
    installs_on_open: bool = False


CHILD_APP_TYPES = (
    ChildAppType("hubitat", "Basic Rule-1.0", "Basic Rules", 8),
    ChildAppType("hubitat", "Button Controller-5.1", "Button Controllers", 12),
    ChildAppType("hubitat", "Group-2.1", "Groups and Scenes", 13),
    ChildAppType("hubitat", "Notifier", "Notifications", 14),
    ChildAppType("hubitat", "Dashboard", "Hubitat® Dashboard", 11, installs_on_open=True),
    ChildAppType("hubitat", "Room Lights", "Room Lighting", 6),
)
# A new Room Lights instance's mainPage: its lights and its name (jbaruch/hubitat-dev
# playwright-ui.md: ``roomDevsL``, ``origLabel``; saved only by Done, dropped on Cancel).
ROOM_LIGHTS_INPUTS = (
    {"name": "origLabel", "type": "text", "title": "Name this Room Lighting instance"},
    {
        "name": "roomDevsL",
        "type": "capability.switch",
        "multiple": True,
        "title": "Select Lights for this room",
    },
)


def child_type(namespace: str, app_name: str) -> ChildAppType | None:
    return next(
        (c for c in CHILD_APP_TYPES if (c.namespace, c.app_name) == (namespace, app_name)), None
    )


_INPUT_RE = re.compile(r"""\binput\s*\(?\s*["'](\w+)["']\s*,\s*["']([\w.*]+)["']([^\n]*)""")
_PAGE_RE = re.compile(r"""\b(?:dynamicPage|page)\s*\(\s*name\s*:\s*["'](\w+)["']""")
_TITLE_RE = re.compile(r"""title\s*:\s*["']([^"']*)["']""")


def user_first_page(source: str) -> tuple[str, list[dict[str, Any]]]:
    """(page name, inputs) of a user app's first page, read from its source."""
    page = m.group(1) if (m := _PAGE_RE.search(source)) else "mainPage"
    inputs = []
    for name, kind, rest in _INPUT_RE.findall(source):
        inp: dict[str, Any] = {"name": name, "type": kind}
        if t := _TITLE_RE.search(rest):
            inp["title"] = t.group(1)
        if re.search(r"\bmultiple\s*:\s*true", rest):
            inp["multiple"] = True
        if re.search(r"\brequired\s*:\s*true", rest):
            inp["required"] = True
        inputs.append(inp)
    return page, inputs


def type_rows(user_code: list[tuple[int, str, str]]) -> dict[str, list[dict[str, Any]]]:
    """appsList's ``systemAppTypes`` and ``userAppTypes`` (user code as (id, name, desc))."""
    return {
        "systemAppTypes": [
            {"id": t.id, "name": t.name, "description": t.description, "menu": t.menu}
            for t in SYSTEM_APP_TYPES
        ],
        "userAppTypes": [
            {"id": i, "name": n, "description": d, "menu": "Apps"} for i, n, d in user_code
        ],
    }
