"""The seeded development domains: code, app internals, rules and dashboards."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from .devstate import (
    APP_ANNOUNCER,
    APP_HPM,
    APP_VRB,
    BUNDLE_HPM,
    CODE_APP_ANNOUNCER,
    CODE_APP_HPM,
    CODE_APP_REPORT,
    CODE_DRIVER_PLUG,
    CODE_DRIVER_SPARE,
    CODE_LIB_UTILS,
    VRB_PORCH,
    AppInternals,
    Bundle,
    CodeItem,
)
from .model import App, Dashboard, HomeState
from .seed_specs import (
    APP_BASIC_RULES,
    APP_DASHBOARD,
    APP_ECOBEE,
    APP_HSM,
    APP_MODE_MANAGER,
    APP_ROOM_LIGHTING,
    APP_RULE_MACHINE,
    BR_PORCH,
    DASH_MAIN,
    DASH_TABLET,
    RL_OFFICE,
    RULE_GOODNIGHT,
    RULE_LEAK,
    RULE_MOTION,
)

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


def seed_apps(state: HomeState, maker_app_id: int) -> None:
    apps = [
        App(APP_HSM, "Hubitat® Safety Monitor", None, "Hubitat® Safety Monitor", app_type_id=301),
        App(APP_MODE_MANAGER, "Mode Manager", None, "Mode Manager", app_type_id=302),
        App(APP_RULE_MACHINE, "Rule Machine", None, "Rule Machine", app_type_id=303),
        App(
            RULE_MOTION,
            "Rule-5.1",
            "<b>Motion Lights - Kitchen</b>",
            "Rule-5.1",
            parent_id=APP_RULE_MACHINE,
            app_type_id=4,
        ),
        App(
            RULE_LEAK,
            "Rule-5.1",
            "<b>Leak Alarm</b>",
            "Rule-5.1",
            parent_id=APP_RULE_MACHINE,
            app_type_id=4,
        ),
        App(
            RULE_GOODNIGHT,
            "Rule-5.1",
            "Goodnight",
            "Rule-5.1",
            parent_id=APP_RULE_MACHINE,
            app_type_id=4,
        ),
        App(APP_ROOM_LIGHTING, "Room Lighting", None, "Room Lighting", app_type_id=304),
        App(
            RL_OFFICE,
            "Room Lights",
            "Office Lights",
            "Room Lights",
            parent_id=APP_ROOM_LIGHTING,
            app_type_id=6,
        ),
        App(APP_BASIC_RULES, "Basic Rules", None, "Basic Rules", app_type_id=305),
        App(
            BR_PORCH,
            "Basic Rule",
            "Porch light at sunset",
            "Basic Rule",
            parent_id=APP_BASIC_RULES,
            app_type_id=8,
        ),
        App(APP_ECOBEE, "Ecobee Integration", None, "Ecobee Integration", app_type_id=311),
        App(APP_DASHBOARD, "Hubitat® Dashboard", None, "Hubitat® Dashboard", app_type_id=309),
        App(DASH_MAIN, "Dashboard", "Main", "Dashboard", parent_id=APP_DASHBOARD, app_type_id=11),
        App(
            DASH_TABLET,
            "Dashboard",
            "Kitchen Tablet",
            "Dashboard",
            parent_id=APP_DASHBOARD,
            app_type_id=11,
        ),
        App(maker_app_id, "Maker API", "Maker API - Home Assistant", "Maker API", app_type_id=310),
    ]
    state.apps = {a.id: a for a in apps}
    state.dashboards = {
        DASH_MAIN: Dashboard(DASH_MAIN, "Main"),
        DASH_TABLET: Dashboard(DASH_TABLET, "Kitchen Tablet"),
    }


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
    label: str,
    trigger: str,
    actions: list[str],
    settings: list[dict[str, Any]],
    subscriptions: list[str],
    **state: Any,
) -> AppInternals:
    """A seeded Rule Machine 5.1 rule whose stored settings are what its text says, in the
    names a rule built through the pages keeps (``tCapab<N>``, ``actSubType.<N>``: see
    ``rule_model.py`` and ``docs/rule-machine-pages.md``), and the subscriptions its trigger
    makes. The restriction to modes Day and Evening is the ``modesRestrict`` input, shown
    in the text. Its state has no ``actionList``: the actions run in number order (the
    order a reader falls back to, as for rows made before the hub kept one)."""
    return AppInternals(
        page_title=f"Edit Rule {label}",
        inputs=[
            {"name": "origLabel", "type": "text", "title": "Name this Rule", "value": label},
            *settings,
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
        paragraphs=[
            f"<b>Trigger Events</b>: {trigger}",
            "<b>Restriction</b>: only in modes Day, Evening",
            "<b>Actions</b>",
            *actions,
        ],
        buttons=[
            {"name": "updateRule", "title": "Update Rule"},
            {"name": "runRuleAct", "title": "Run Actions"},
            {"name": "stopRule", "title": "Stop Rule"},
            {"name": "pausRule", "title": "Pause Rule"},
        ],
        state={"paused": False, "stopped": False, "privateBoolean": True, **state},
        subscriptions=subscriptions,
        version=3,
    )


def _enum(name: str, title: str, value: Any, *, multiple: bool = False) -> dict[str, Any]:
    return {"name": name, "type": "enum", "title": title, "multiple": multiple, "value": value}


def _setting(name: str, kind: str, title: str, value: bool | int | str) -> dict[str, Any]:
    """A setting of a seeded rule, its value as text ("true", "5"): the value shapes the
    hub's answers hold (fixtures ``apps/settings_submit``, ``apps/status_json``)."""
    value = str(value).lower() if isinstance(value, bool) else str(value)
    return {"name": name, "type": kind, "title": title, "multiple": False, "value": value}


def _devices(name: str, capability: str, ids: list[int], title: str = "Devices") -> dict[str, Any]:
    """A device input as the pages store it: the ids joined, and listed for the page."""
    return {
        "name": name,
        "type": f"capability.{capability}",
        "title": title,
        "multiple": True,
        "value": ",".join(str(d) for d in ids),
        "deviceIdsForDeviceList": list(ids),
    }


def _act(n: int, act_type: str, sub: str) -> list[dict[str, Any]]:
    return [
        _enum(f"actType.{n}", "Select Action Type", act_type),
        _enum(f"actSubType.{n}", "Select Which Action", sub),
    ]


def _event(key: str, capability: str, devices: dict[str, Any], state: str) -> list[dict[str, Any]]:
    """A trigger (``key`` "0": ``tCapab0`` ...) or Wait for Events event ("-1")."""
    return [
        _enum(f"tCapab{key}", "Select capability", capability),
        devices,
        _enum(f"tstate{key}", "State", state),
    ]


# the devices the Leak Alarm rule names that were deleted since (its text shows them BROKEN)
GONE_LEAK_SENSOR = 9001
GONE_HALL_SIREN = 9002


def _seed_rules(state: HomeState) -> None:
    """The three seeded Rule Machine rules (see :func:`_rm_internals`)."""
    dev = state.dev
    kitchen_motion = [d.id for d in state.devices.values() if d.label == "Kitchen Motion"]
    dev.internals[RULE_MOTION] = _rm_internals(
        "Motion Lights - Kitchen",
        "Kitchen Motion active",
        ["On: Kitchen Lights", "Wait for event: Kitchen Motion inactive and stays 5:00"],
        [
            *_event(
                "0",
                "Motion",
                _devices("tDev0", "motionSensor", kitchen_motion, "Trigger devices"),
                "active",
            ),
            *_act(1, "switchActs", "getOnOffSwitch"),
            _devices("onOffSwitch.1", "switch", _device_id(state, "Kitchen Light", "Switch")),
            _setting("onOff.1", "bool", "On or Off?", True),
            *_act(2, "delayActs", "getWaitEvents"),
            *_event("-1", "Motion", _devices("tDev-1", "motionSensor", kitchen_motion), "inactive"),
            # per-event "and stays" (the on-hub server, live)
            _setting("stays-1", "bool", "And stays?", True),
            _setting("SHours-1", "number", "Hours", 0),
            _setting("SMins-1", "number", "Mins", 5),
            _setting("SSecs-1", "number", "Secs", 0),
        ],
        ["motion"] * len(kitchen_motion),
        allLocalVars={"timeout": {"type": "integer", "value": 300}},
    )
    # the trigger's leak sensor and the siren were deleted: the page shows them BROKEN and
    # the settings still hold their ids; the siren is Rule Machine's Control Siren action
    # (soundActs / getSiren, siren.<N>, sirenAct.<N>: the on-hub server's
    # mcp-native-rules-lib.groovy, not verified live), which the spec has no form for
    dev.internals[RULE_LEAK] = _rm_internals(
        "Leak Alarm",
        "**BROKEN** Basement Leak Sensor wet",
        ["Siren: **BROKEN** Hall Siren", "Notify: Phones"],
        [
            *_event(
                "0",
                "Water",
                _devices("tDev0", "waterSensor", [GONE_LEAK_SENSOR], "Trigger devices"),
                "wet",
            ),
            *_act(1, "soundActs", "getSiren"),
            _devices("siren.1", "alarm", [GONE_HALL_SIREN]),
            _enum("sirenAct.1", "Siren action", "siren"),
            *_act(2, "messageActs", "getMsg"),
            _setting("msg.2", "text", "Message", "Water leak in the basement"),
            _devices("note.2", "notification", _device_id(state, "Family Phone", "Notification")),
        ],
        ["water"],
    )
    dev.broken_pending.add(RULE_LEAK)
    night = [str(m.id) for m in state.modes if m.name == "Night"]
    lights = [
        d.id
        for d in state.devices.values()
        if "lights" in d.tags and RULE_GOODNIGHT in d.apps_using
    ]
    dev.internals[RULE_GOODNIGHT] = _rm_internals(
        "Goodnight",
        "Mode becomes Night",
        ["Off: all lights", "Lock: Front Door"],
        [
            _enum("tCapab0", "Select capability", "Mode"),
            _enum("modesX0", "Modes", night, multiple=True),
            *_act(1, "switchActs", "getOnOffSwitch"),
            _devices("onOffSwitch.1", "switch", lights),
            _setting("onOff.1", "bool", "On or Off?", False),
            *_act(2, "lockActs", "getLULock"),
            # true unlocks (the on-hub server, live)
            _setting("lockRL.2", "bool", "Lock or Unlock?", False),
            _devices("lockLockUnlock.2", "lock", _device_id(state, "Front Door Lock", "Lock")),
        ],
        ["mode"],
    )


# Secrets the seeded home holds so the tests can prove none of them reaches a result, a log,
# diagnostics or an item backup (each kind a real hub has: see redact.py).
SEEDED_APP_SECRETS = {
    "maker_state_token": "maker-state-token-e41b9",
    "ecobee_password": "ecobee-pw-Zq81x",
    "ecobee_client_secret": "ecobee-oauth-secret-77afc",
    "ecobee_refresh_token": "ecobee-refresh-3c9d2",
    "ecobee_state_client_secret": "ecobee-state-secret-a05e",
    "announcer_password": "announcer-pw-c7d3",
}


def _seed_secrets(state: HomeState) -> None:
    """The Maker API instance's token in its state (as on real hubs), and an integration
    with a password-type setting, an OAuth client secret setting and OAuth tokens in state."""
    dev = state.dev
    for app in state.apps.values():
        if app.name == "Maker API":
            token = SEEDED_APP_SECRETS["maker_state_token"]
            dev.internals[app.id].state["accessToken"] = token
            dev.internals[app.id].paragraphs.append(  # as the real Maker API page shows it
                f"Get All Devices: http://hub.local/apps/api/{app.id}/devices/all"
                f"?access_token={token}"
            )
    dev.internals[APP_ECOBEE] = AppInternals(
        page_title="Ecobee Integration",
        inputs=[
            {
                "name": "ecobeeLogin",
                "type": "password",
                "title": "Ecobee account password",
                "value": SEEDED_APP_SECRETS["ecobee_password"],
            },
            {"name": "clientId", "type": "text", "title": "OAuth client id", "value": "ecobee-app"},
            {
                "name": "clientSecret",
                "type": "text",
                "title": "OAuth client secret",
                "value": SEEDED_APP_SECRETS["ecobee_client_secret"],
            },
            {"name": "pollMinutes", "type": "number", "title": "Poll every", "value": 5},
        ],
        state={
            "refreshToken": SEEDED_APP_SECRETS["ecobee_refresh_token"],
            "oauth": {"client_secret": SEEDED_APP_SECRETS["ecobee_state_client_secret"]},
            "thermostats": 1,
        },
    )


def _device_id(state: HomeState, label: str, capability: str) -> list[int]:
    """The device labelled so, else the first with that capability (a trimmed home)."""
    devices = list(state.devices.values())
    found = next((d for d in devices if d.label == label), None) or next(
        (d for d in devices if capability in d.driver.capabilities), None
    )
    return [found.id] if found else []


def seed_dev(state: HomeState) -> None:
    """Add the development domains to a freshly seeded home."""
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
    # the classic node shapes the hub UI's builder saves (docs/visual-rules.md)
    motion = _device_id(state, "Front Porch Motion", "MotionSensor")
    light = _device_id(state, "Porch Light", "Switch")
    dev.vrb[VRB_PORCH] = {
        "name": "Porch light on motion",
        "rulePaused": False,
        "whenNodes": [
            {
                "triggerType": "motion",
                "description": "When <b>Front Porch Motion</b> detects motion",
                "deviceIds": motion,
                "triggerCondition": None,
                "motionSensors": motion,
                "motionSensorEvent": "Motion starts",
                "id": "when-0-porch",
                "type": "when",
                "index": 0,
            }
        ],
        "thenNodes": [
            {
                "actionType": "turnOn",
                "description": "Turn on <b>Porch Light</b>",
                "deviceIds": light,
                "switches": light,
                "id": "then-0-porch",
                "type": "then",
                "index": 0,
            }
        ],
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
            {
                "name": "speakerLogin",
                "type": "password",
                "title": "Speaker account password",
                "value": SEEDED_APP_SECRETS["announcer_password"],
            },
        ],
        state={"announcements": 12},
        subscriptions=["motion.active"],
    )
    _seed_secrets(state)
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
    _seed_rules(state)
    dev.easy_dashboards[400] = {
        "installedAppId": 400,
        "name": "Living Room",
        "version": "2.0",
        "accessToken": "easy-token-400",
        "showModeTile": True,
        "showClockTile": False,
        "showCalendarTile": False,
        "showHSMTile": False,
        "showEdit": True,
        "showNavigation": True,
        "showTutorial": False,
        "navigationSelection": "[0,401]",
        "dashboardPin": "",
        "hsmPin": "null",
        "theme": "dark",
        "deviceIds": "[]",
    }
    dev.easy_dashboards[401] = {
        **dev.easy_dashboards[400],
        "installedAppId": 401,
        "name": "Bedroom",
        "accessToken": "easy-token-401",
        "showModeTile": False,
        "navigationSelection": "",
        "dashboardPin": "2580",
        "theme": "legacy",
    }
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
    dev.next_app_id = max(max(state.apps), max(dev.easy_dashboards)) + 1  # ids are shared
