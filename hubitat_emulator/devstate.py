"""Development-domain state of the emulated hub: code, app internals, rules, dashboards.

Kept apart from ``model.py`` so the shared model only gains one field (``HomeState.dev``).
``seed_dev`` builds the seeded code, apps, rules and dashboards.

Behaviour decisions where the reference is silent (tests pin them):

* **Compile**: a save is compiled by a tiny checker: a UTF-8 BOM or a non-JSON body gives
  ``Unknown error occurred``; unbalanced braces/parentheses give a Groovy-style
  ``startup failed`` message naming the line and column; apps/drivers need
  ``definition(name: ..., namespace: ...)``, libraries ``library(name: ..., namespace: ...)``;
  ``#include ns.Name`` must name an installed library. Messages ride verbatim in ``message``.
* **Version conflict**: an update whose ``version`` differs from the stored one answers
  ``{"success": false, "message": "Version mismatch: ..."}``; every successful save bumps the
  version by one and answers ``{"success": true, "id", "version", "message": null}``.
* **Deleting code in use**: ``deleteJsonSafe`` (apps) and ``deleteJson`` (drivers) answer
  ``{"status": false, "errorMessage": ...}`` while instances use the code.
* **RM**: the compiled ``broken`` flag of a rule with a deleted device stays ``false`` until its
  configure page is rendered (the lag the reference describes); ``Run Actions`` is the rule
  page's ``runRuleAct`` button, ``pausRule`` and ``stopRule`` are toggles.
* **Bundles**: ``uploadZipFromUrl`` only "downloads" URLs registered in ``DevState.bundle_urls``
  (the emulator has no internet) and answers ``{"success": bool, "message"}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import HomeState

APP_VRB = 40
APP_HPM = 210
APP_ANNOUNCER = 200
VRB_PORCH = 170
CODE_APP_ANNOUNCER = 1
CODE_APP_REPORT = 2
CODE_APP_HPM = 3
CODE_DRIVER_PLUG = 1
CODE_DRIVER_SPARE = 2
CODE_LIB_UTILS = 1
BUNDLE_HPM = 1


@dataclass
class CodeItem:
    id: int
    kind: str  # app | driver | library
    name: str
    namespace: str
    source: str
    version: int = 1
    modified: datetime | None = None
    author: str = ""
    description: str = ""
    oauth: bool = False
    capabilities: list[str] = field(default_factory=list)


@dataclass
class Bundle:
    id: int
    name: str
    namespace: str
    private: bool = False
    apps: list[str] = field(default_factory=list)
    drivers: list[str] = field(default_factory=list)
    libraries: list[str] = field(default_factory=list)

    def content(self) -> str:
        return (
            f"apps [{', '.join(self.apps)}], drivers [{', '.join(self.drivers)}], "
            f"libraries [{', '.join(self.libraries)}]"
        )


@dataclass
class AppInternals:
    """What configure/json and statusJson show for one installed app."""

    page_title: str
    inputs: list[dict[str, Any]] = field(default_factory=list)
    paragraphs: list[str] = field(default_factory=list)
    buttons: list[dict[str, str]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    subscriptions: list[str] = field(default_factory=list)
    version: int = 1
    runs: int = 0


@dataclass
class DevState:
    code: dict[tuple[str, int], CodeItem] = field(default_factory=dict)
    next_code_id: dict[str, int] = field(default_factory=dict)
    bundles: dict[int, Bundle] = field(default_factory=dict)
    bundle_urls: dict[str, Bundle] = field(default_factory=dict)
    internals: dict[int, AppInternals] = field(default_factory=dict)
    vrb: dict[int, dict[str, Any]] = field(default_factory=dict)
    broken_pending: set[int] = field(default_factory=set)
    easy_dashboards: dict[int, dict[str, Any]] = field(default_factory=dict)
    layouts: dict[int, dict[str, Any]] = field(default_factory=dict)
    pin_token: str = "pin-7f3a9c"
    next_app_id: int = 300

    def items(self, kind: str) -> list[CodeItem]:
        return sorted((c for (k, _i), c in self.code.items() if k == kind), key=lambda c: c.id)

    def add_code(self, item: CodeItem) -> CodeItem:
        self.code[(item.kind, item.id)] = item
        self.next_code_id[item.kind] = max(self.next_code_id.get(item.kind, 1), item.id + 1)
        return item

    def alloc_code_id(self, kind: str) -> int:
        n = self.next_code_id.get(kind, 1)
        self.next_code_id[kind] = n + 1
        return n

    def alloc_app_id(self) -> int:
        n = self.next_app_id
        self.next_app_id += 1
        return n


# ---------------------------------------------------------------------------- compile

_DEF_RE = re.compile(r"\b(definition|library)\s*\(([^)]*)\)", re.S)
_KV_RE = re.compile(r"(\w+)\s*:\s*\"([^\"]*)\"")
_INCLUDE_RE = re.compile(r"^\s*#include\s+([\w.]+)\s*$", re.M)


def _balance_error(source: str) -> str | None:
    pairs = {"}": "{", ")": "("}
    stack: list[tuple[str, int, int]] = []
    for lineno, line in enumerate(source.split("\n"), start=1):
        quote: str | None = None
        col = 0
        while col < len(line):
            ch = line[col]
            if quote:
                if ch == "\\":
                    col += 2
                    continue
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif line.startswith("//", col):
                break
            elif ch in "{(":
                stack.append((ch, lineno, col + 1))
            elif ch in "})":
                if not stack or stack[-1][0] != pairs[ch]:
                    return (
                        f"startup failed:\nScript1.groovy: {lineno}: Unexpected input: '{ch}' "
                        f"@ line {lineno}, column {col + 1}.\n1 error\n"
                    )
                stack.pop()
            col += 1
    if stack:
        ch, lineno, col = stack[-1]
        last = source.count("\n") + 1
        return (
            f"startup failed:\nScript1.groovy: {last}: Unexpected input: '{ch}' opened at line "
            f"{lineno}, column {col} is never closed @ line {last}, column 1.\n1 error\n"
        )
    return None


def compile_source(dev: DevState, kind: str, source: str) -> tuple[str | None, dict[str, str]]:
    """Return (error message or None, metadata {name, namespace, author, description})."""
    if source.startswith("\ufeff") or not source.strip():
        return "Unknown error occurred", {}
    err = _balance_error(source)
    if err:
        return err, {}
    want = "library" if kind == "library" else "definition"
    meta: dict[str, str] = {}
    for m in _DEF_RE.finditer(source):
        if m.group(1) == want:
            meta = dict(_KV_RE.findall(m.group(2)))
            break
    if not meta.get("name") or not meta.get("namespace"):
        return (
            f'Metadata Error: no {want}(name: "...", namespace: "...") found. '
            f"Please add a {want}() with a name and namespace.",
            {},
        )
    libs = {f"{c.namespace}.{c.name}" for c in dev.items("library")}
    for m in _INCLUDE_RE.finditer(source):
        if m.group(1) not in libs:
            line = source[: m.start()].count("\n") + 1
            return f"Library {m.group(1)} not found (line {line})", {}
    return None, meta


# ---------------------------------------------------------------------------- seed

ANNOUNCER_SOURCE = """definition(
    name: "Motion Announcer",
    namespace: "acme",
    author: "Acme",
    description: "Announce motion on a speaker",
    category: "Convenience",
    iconUrl: "",
    iconX2Url: ""
)

#include acme.Utils

preferences {
    section("Devices") {
        input "motion", "capability.motionSensor", title: "Motion sensor"
        input "speaker", "capability.speechSynthesis", title: "Speaker"
    }
}

def installed() { initialize() }

def updated() {
    unsubscribe()
    initialize()
}

def initialize() {
    subscribe(motion, "motion.active", handler)
}

def handler(evt) {
    speaker.speak("Motion on ${evt.displayName}")
}
"""

PLUG_SOURCE = """metadata {
    definition(name: "Acme Smart Plug", namespace: "acme", author: "Acme") {
        capability "Switch"
        capability "PowerMeter"
        capability "Refresh"
    }
}

def on() { sendEvent(name: "switch", value: "on") }

def off() { sendEvent(name: "switch", value: "off") }

def refresh() { }
"""

SPARE_SOURCE = """metadata {
    definition(name: "Spare Test Driver", namespace: "acme", author: "Acme") {
        capability "Sensor"
    }
}
"""

UTILS_SOURCE = """library(
    name: "Utils",
    namespace: "acme",
    author: "Acme",
    description: "Shared helpers"
)

def logDebug(msg) { if (settings.debug) log.debug msg }
"""

HPM_SOURCE = """definition(
    name: "Hubitat Package Manager",
    namespace: "dcm.hpm",
    author: "Dominick Meglio",
    description: "Install and update community packages"
)

def installed() { }
"""


def _report_source() -> str:
    head = (
        'definition(name: "Big Report", namespace: "acme", author: "Acme", '
        'description: "A large generated app")\n\n'
    )
    body = "".join(
        f'def section{i:04d}() {{\n    log.info "report section {i:04d} ' + "x" * 60 + '"\n}\n\n'
        for i in range(1500)
    )
    return head + body


def _rm_internals(
    label: str, trigger: str, actions: list[str], devices: list[int], **state: Any
) -> AppInternals:
    return AppInternals(
        page_title=f"Edit Rule {label}",
        inputs=[
            {"name": "origLabel", "type": "text", "title": "Name this Rule", "value": label},
            {
                "name": "tDev0",
                "type": "capability.motionSensor",
                "title": "Trigger devices",
                "multiple": True,
                "value": ",".join(str(d) for d in devices),
            },
            {
                "name": "logging",
                "type": "enum",
                "title": "Logging",
                "options": ["Events", "Triggers", "Actions"],
                "value": ["Events"],
            },
            {
                "name": "modesRestrict",
                "type": "enum",
                "title": "Only in these modes",
                "multiple": True,
                "options": [{"Day": "Day"}, {"Evening": "Evening"}, {"Night": "Night"}],
                "value": '["Day","Evening"]',
            },
        ],
        paragraphs=[f"<b>Trigger Events</b>: {trigger}", "<b>Actions</b>", *actions],
        buttons=[
            {"name": "updateRule", "title": "Update Rule"},
            {"name": "runRuleAct", "title": "Run Actions"},
            {"name": "stopRule", "title": "Stop Rule"},
            {"name": "pausRule", "title": "Pause Rule"},
        ],
        state={"paused": False, "stopped": False, "privateBoolean": True, **state},
        subscriptions=["motion", "contact"],
        version=3,
    )


def seed_dev(state: HomeState) -> None:
    """Add the development domains to a freshly seeded home."""
    from .model import App

    dev = state.dev
    now = state.boot_time
    dev.add_code(
        CodeItem(
            CODE_APP_ANNOUNCER,
            "app",
            "Motion Announcer",
            "acme",
            ANNOUNCER_SOURCE,
            version=4,
            modified=now - timedelta(days=9),
            author="Acme",
            description="Announce motion on a speaker",
        )
    )
    dev.add_code(
        CodeItem(
            CODE_APP_REPORT,
            "app",
            "Big Report",
            "acme",
            _report_source(),
            version=2,
            modified=now - timedelta(days=30),
            author="Acme",
        )
    )
    dev.add_code(
        CodeItem(
            CODE_APP_HPM,
            "app",
            "Hubitat Package Manager",
            "dcm.hpm",
            HPM_SOURCE,
            version=12,
            modified=now - timedelta(days=60),
            author="Dominick Meglio",
        )
    )
    dev.add_code(
        CodeItem(
            CODE_DRIVER_PLUG,
            "driver",
            "Acme Smart Plug",
            "acme",
            PLUG_SOURCE,
            version=7,
            modified=now - timedelta(days=3),
            author="Acme",
            capabilities=["Switch", "PowerMeter", "Refresh"],
        )
    )
    dev.add_code(
        CodeItem(
            CODE_DRIVER_SPARE,
            "driver",
            "Spare Test Driver",
            "acme",
            SPARE_SOURCE,
            version=1,
            modified=now - timedelta(days=1),
            author="Acme",
            capabilities=["Sensor"],
        )
    )
    dev.add_code(
        CodeItem(
            CODE_LIB_UTILS,
            "library",
            "Utils",
            "acme",
            UTILS_SOURCE,
            version=2,
            modified=now - timedelta(days=10),
            author="Acme",
            description="Shared helpers",
        )
    )
    dev.bundles[BUNDLE_HPM] = Bundle(
        BUNDLE_HPM,
        "HubitatPackageManager_Bundle",
        "dcm.hpm",
        apps=["Hubitat Package Manager"],
    )
    dev.bundle_urls["https://example.com/bundles/acme-tools.zip"] = Bundle(
        0, "AcmeTools", "acme", drivers=["Acme Contact"], libraries=[]
    )
    # user app instances, the HPM instance, Visual Rules
    state.apps[APP_ANNOUNCER] = App(
        APP_ANNOUNCER,
        "Motion Announcer",
        "Hall motion announcer",
        "Motion Announcer",
        user=True,
        app_type_id=CODE_APP_ANNOUNCER,
    )
    state.apps[APP_HPM] = App(
        APP_HPM,
        "Hubitat Package Manager",
        None,
        "Hubitat Package Manager",
        user=True,
        app_type_id=CODE_APP_HPM,
    )
    state.apps[APP_VRB] = App(
        APP_VRB, "Visual Rules Builder", None, "Visual Rules Builder", app_type_id=108
    )
    state.apps[VRB_PORCH] = App(
        VRB_PORCH,
        "Visual Rule Builder",
        "Porch light on motion",
        "Visual Rule Builder",
        parent_id=APP_VRB,
        hidden=True,
        app_type_id=109,
    )
    dev.vrb[VRB_PORCH] = {
        "name": "Porch light on motion",
        "rulePaused": False,
        "whenNodes": [
            {"type": "device", "deviceIds": [], "attribute": "motion", "value": "active"}
        ],
        "thenNodes": [{"type": "command", "deviceIds": [], "command": "on"}],
        "elseNodes": [],
        "promptHistory": [],
    }
    for app in state.apps.values():
        dev.internals[app.id] = AppInternals(page_title=app.label or app.name)
    dev.internals[APP_ANNOUNCER] = AppInternals(
        page_title="Motion Announcer",
        inputs=[
            {"name": "motion", "type": "capability.motionSensor", "title": "Motion sensor"},
            {"name": "speaker", "type": "capability.speechSynthesis", "title": "Speaker"},
            {
                "name": "volume",
                "type": "number",
                "title": "Volume",
                "range": "0..100",
                "value": 60,
            },
            {"name": "quietAtNight", "type": "bool", "title": "Quiet at night", "value": True},
        ],
        state={"announcements": 12},
        subscriptions=["motion.active"],
    )
    dev.internals[APP_HPM] = AppInternals(
        page_title="Hubitat Package Manager",
        state={
            "manifests": {
                "https://example.com/acme/packageManifest.json": {
                    "packageName": "Acme Tools",
                    "version": "1.4.2",
                    "beta": False,
                    "apps": [{"id": "a1", "name": "Motion Announcer", "heID": CODE_APP_ANNOUNCER}],
                    "drivers": [{"id": "d1", "name": "Acme Smart Plug", "heID": CODE_DRIVER_PLUG}],
                },
                "https://example.com/hpm/packageManifest.json": {
                    "packageName": "Hubitat Package Manager",
                    "version": "1.9.3",
                    "beta": False,
                    "apps": [{"id": "h1", "name": "Hubitat Package Manager", "heID": 3}],
                    "drivers": [],
                },
            }
        },
    )
    from .seed import RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

    dev.internals[RULE_MOTION] = _rm_internals(
        "Motion Lights - Kitchen",
        "Kitchen Motion active",
        ["On: Kitchen Lights", "Wait for event: Kitchen Motion inactive and stays 5:00"],
        [],
        allLocalVars={"timeout": {"type": "integer", "value": 300}},
    )
    dev.internals[RULE_LEAK] = _rm_internals(
        "Leak Alarm",
        "**BROKEN** Basement Leak Sensor wet",
        ["Siren: **BROKEN** Hall Siren", "Notify: Phones"],
        [],
    )
    dev.broken_pending.add(RULE_LEAK)
    dev.internals[RULE_GOODNIGHT] = _rm_internals(
        "Goodnight", "Mode becomes Night", ["Off: all lights", "Lock: Front Door"], []
    )
    dev.easy_dashboards[400] = {
        "installedAppId": 400,
        "name": "Living Room",
        "showModeTile": True,
        "showClockTile": False,
        "showCalendarTile": False,
        "showHSMTile": False,
        "showEdit": True,
        "showNavigation": True,
        "showTutorial": False,
        "navigationSelection": "",
        "theme": "dark",
        "deviceIds": "[]",
    }
    from .seed import DASH_MAIN, DASH_TABLET

    some = sorted(state.devices)[:4]
    for dash_id, name in ((DASH_MAIN, "Main"), (DASH_TABLET, "Kitchen Tablet")):
        dev.internals[dash_id] = AppInternals(
            page_title=name,
            inputs=[
                {
                    "name": "devicesPicked",
                    "type": "capability.*",
                    "title": "Authorized devices",
                    "multiple": True,
                    "value": [str(d) for d in some],
                    "deviceIdsForDeviceList": list(some),
                },
                {"name": "localAccess", "type": "bool", "title": "Local access", "value": True},
            ],
            state={"accessToken": f"dash-token-{dash_id}"},
        )
        dev.layouts[dash_id] = {
            "name": name,
            "cols": 6,
            "rows": 4,
            "bgColor": "#000000",
            "tiles": [
                {"id": 0, "template": "clock", "col": 1, "row": 1, "colSpan": 1, "rowSpan": 1},
                {
                    "id": 1,
                    "template": "attribute",
                    "device": str(some[0]),
                    "col": 2,
                    "row": 1,
                    "colSpan": 1,
                    "rowSpan": 1,
                },
            ],
        }
    dev.next_app_id = max(max(state.apps) + 1, 401)
