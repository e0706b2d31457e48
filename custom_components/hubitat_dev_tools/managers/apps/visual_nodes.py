"""The classic Visual Rule node schema (``whenNodes``/``thenNodes``/``elseNodes``) and its
structural check. Long form with sources: ``docs/visual-rules.md``.

Evidence: the hub UI's Visual Rules Builder (``vue-hub2.min.js``): the trigger, condition
and action lists (every ``name`` below), the dialogs' ``handleSave`` (the keys each node
type stores, ``deviceIds`` mirroring the type's device list), their capability filters
(which devices a type offers) and their option lists (the exact event and state
sentences); the builder's save refuses a rule whose when-list holds no real trigger. The on-hub
server's ``TOOL_GUIDE.md`` "Visual Rules Builder reference" agrees. No Home Assistant import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from ...errors import ToolError

Kind = Literal["trigger", "condition", "action"]
LISTS = (("when_nodes", "whenNodes"), ("then_nodes", "thenNodes"), ("else_nodes", "elseNodes"))
HHMM = re.compile(r"^(?:[01]\d|2[0-3])[0-5]\d$")
# Keys the hub UI adds for its own drawing and strips before a save.
UI_ONLY = ("rect", "flowNodeId", "icon", "position")
_STAYS = " and "  # an event sentence with " and " ("... and stays on for...") needs a duration


@dataclass(frozen=True, slots=True)
class NodeType:
    """One node type: where its devices are, what it reads or commands, what else it needs."""

    name: str
    kind: Kind
    devices: str | None = None  # the per-type device list key (pushButton: single ``button``)
    attribute: str | None = None  # what a trigger/condition reads on its devices
    commands: tuple[str, ...] = ()  # what an action sends to its devices (any one of)
    choice: str | None = None  # the key holding the event/state sentence or sub-condition
    options: tuple[str, ...] = ()
    values: tuple[str, ...] = ()  # further keys the node needs
    stays: str | None = None  # prefix of the ...StaysMinutes/...StaysSeconds pair
    sensitive: bool = False  # commands a lock, valve or garage door

    @property
    def single(self) -> bool:
        return self.devices == "button"


def _sensor(name: str, devices: str, attribute: str, choice: str, *opts: str) -> NodeType:
    stays = name if any(_STAYS in o for o in opts) else None
    return NodeType(name, "trigger", devices, attribute, choice=choice, options=opts, stays=stays)


def _level(name: str, devices: str, attribute: str, choice: str, *opts: str) -> NodeType:
    stays = "power" if name == "power" else None
    return NodeType(
        name, "trigger", devices, attribute, choice=choice, options=opts, values=(attribute,),
        stays=stays,
    )  # fmt: skip


def _cond(name: str, devices: str, attribute: str, choice: str, *opts: str) -> NodeType:
    level = attribute in ("temperature", "humidity", "illuminance", "power")
    return NodeType(
        name, "condition", devices, attribute, choice=choice, options=opts,
        values=(attribute,) if level else (),
    )  # fmt: skip


def _act(
    name: str, devices: str | None, *commands: str, values: tuple[str, ...] = (), **kw: Any
) -> NodeType:
    return NodeType(name, "action", devices, commands=commands, values=values, **kw)


_SUN = ("beforeSunrise", "sunrise", "afterSunrise", "beforeSunset", "sunset", "afterSunset")
_MUSIC = (
    "previousTrack", "play", "pause", "nextTrack", "volumeUp", "volumeDown", "mute", "unmute",
    "togglePlayPause", "toggleMuteUnmute", "stop", "setVolume",
)  # fmt: skip

_ALL: tuple[NodeType, ...] = (
        # triggers (when list)
        NodeType("timeOfDay", "trigger", values=("timeOfDay",)),
        NodeType("sunriseSunset", "trigger", choice="triggerCondition", options=_SUN),
        _sensor("motion", "motionSensors", "motion", "motionSensorEvent",
                "Motion starts", "Motion stops", "Motion stops and stays inactive for..."),
        _sensor("contact", "contactSensors", "contact", "contactSensorEvent",
                "Contact opens", "Contact opens and stays open for...", "Contact closes",
                "Contact closes and stays closed for..."),
        _sensor("presence", "presenceSensors", "presence", "presenceSensorEvent",
                "Everyone leaves", "Someone arrives"),
        _sensor("acceleration", "accelerationSensors", "acceleration",
                "accelerationSensorEvent", "Acceleration or vibration has started",
                "Acceleration or vibration has stopped",
                "Acceleration or vibration has stopped and stayed inactive for..."),
        _sensor("water", "waterSensors", "water", "waterSensorEvent",
                "Water is leaking", "Water sensor is dry"),
        _sensor("smoke", "smokeSensors", "smoke", "smokeSensorEvent",
                "Smoke is present", "Smoke has cleared"),
        _sensor("co", "coSensors", "carbonMonoxide", "coSensorEvent",
                "Carbon monoxide is present", "Carbon monoxide has cleared"),
        _level("temperature", "temperatureSensors", "temperature", "temperatureSensorEvent",
               "Temperature has risen above...", "Temperature has fallen below..."),
        _level("humidity", "humiditySensors", "humidity", "humiditySensorEvent",
               "Humidity has risen above...", "Humidity has fallen below..."),
        _level("illuminance", "illuminanceSensors", "illuminance", "illuminanceSensorEvent",
               "Illuminance has risen above...", "Illuminance has fallen below..."),
        _level("power", "powerMeters", "power", "powerMeterEvent",
               "Power has risen above...", "Power has fallen below...",
               "Power has become and stayed above...", "Power has become and stayed below..."),
        _sensor("switch", "switches", "switch", "switchEvent", "Turns on", "Turns off",
                "Turns on and stays on for...", "Turns off and stays off for..."),
        NodeType("button", "trigger", "buttons", "pushed", choice="buttonEvent",
                 options=("Pushed", "Held", "Released", "Double tapped"),
                 values=("buttonIndex",)),
        _sensor("lock", "locks", "lock", "lockEvent", "Locked", "Unlocked"),
        _sensor("shock", "shockSensors", "shock", "shockSensorEvent",
                "Shock has been detected", "Shock has been cleared"),
        NodeType("systemMode", "trigger", values=("modes",)),
        # conditions (when list, after the triggers)
        NodeType("timeIsBetween", "condition", choice="triggerCondition",
                 options=("specificTimes", "sunriseToSunset", "sunsetToSunrise")),
        NodeType("daysOfWeek", "condition", values=("daysOfWeek",)),
        _cond("motionCondition", "motionSensors", "motion", "motionSensorState",
              "Motion is active", "Motion is inactive"),
        _cond("contactCondition", "contactSensors", "contact", "contactSensorState",
              "Contact is open", "Contact is closed"),
        _cond("presenceCondition", "presenceSensors", "presence", "presenceSensorState",
              "No presence is detected", "Presence is detected"),
        _cond("accelerationCondition", "accelerationSensors", "acceleration",
              "accelerationSensorState", "No acceleration or vibration is detected",
              "Acceleration or vibration is detected"),
        _cond("waterCondition", "waterSensors", "water", "waterSensorState",
              "Water leak is detected", "Water sensor is dry"),
        _cond("smokeCondition", "smokeSensors", "smoke", "smokeSensorState",
              "Smoke is detected", "Smoke is clear"),
        _cond("coCondition", "coSensors", "carbonMonoxide", "coSensorState",
              "Carbon monoxide is detected", "Carbon monoxide is clear"),
        _cond("temperatureCondition", "temperatureSensors", "temperature",
              "temperatureSensorState", "Temperature is above...", "Temperature is below..."),
        _cond("humidityCondition", "humiditySensors", "humidity", "humiditySensorState",
              "Humidity is above...", "Humidity is below..."),
        _cond("illuminanceCondition", "illuminanceSensors", "illuminance",
              "illuminanceSensorState", "Illuminance is above...", "Illuminance is below..."),
        _cond("powerCondition", "powerMeters", "power", "powerMeterState",
              "Power is above...", "Power is below..."),
        _cond("switchCondition", "switches", "switch", "switchState", "Turned on", "Turned off"),
        _cond("lockCondition", "locks", "lock", "lockState", "Locked", "Unlocked"),
        NodeType("systemModeCondition", "condition", values=("modes",)),
        # actions (then and else lists)
        _act("turnOn", "switches", "on"),
        _act("turnOff", "switches", "off"),
        _act("toggle", "switches", "on"),
        _act("setBrightness", "dimmers", "setLevel", values=("brightness",)),
        _act("setColorTemp", "colorTempBulbs", "setColorTemperature", values=("colorTemp",)),
        _act("setColor", "colorBulbs", "setColor", values=("color",)),
        _act("lock", "locks", "lock", sensitive=True),
        _act("unlock", "locks", "unlock", sensitive=True),
        _act("openValve", "valves", "open", sensitive=True),
        _act("closeValve", "valves", "close", sensitive=True),
        _act("openGarageDoor", "garageDoors", "open", sensitive=True),
        _act("closeGarageDoor", "garageDoors", "close", sensitive=True),
        _act("openWindowShade", "windowShades", "open"),
        _act("closeWindowShade", "windowShades", "close"),
        _act("pushButton", "button", "push", "hold", "release", "doubleTap",
             values=("buttonIndex",), choice="buttonAction",
             options=("Push", "Hold", "Release", "Double Tap")),
        _act("sendNotification", "notificationDevices", "deviceNotification",
             values=("notificationMessage",)),
        _act("speakNotification", "speechDevices", "speak", values=("speakMessage",)),
        _act("controlPlayer", "musicPlayers", choice="musicPlayerAction", options=_MUSIC),
        _act("controlThermostat", "thermostats", "setThermostatMode",
             "setHeatingSetpoint", "setCoolingSetpoint", "setThermostatFanMode"),
        _act("setMode", None, values=("mode",)),
        _act("setModeUnlessAway", None, values=("mode",)),
        _act("exitAwayMode", None),
        _act("wait", None, values=("minutes", "seconds")),
        _act("cancelWait", None),
)  # fmt: skip

# triggerType values (when list) and actionType values (then/else lists): "lock" is both.
WHEN_TYPES = {t.name: t for t in _ALL if t.kind != "action"}
ACTION_TYPES = {t.name: t for t in _ALL if t.kind == "action"}
# Every key a node keeps its devices under (besides ``deviceIds``, which mirrors it).
DEVICE_KEYS = tuple(sorted({t.devices for t in _ALL if t.devices}))
TRIGGERS = tuple(n for n, t in WHEN_TYPES.items() if t.kind == "trigger")
CONDITIONS = tuple(n for n, t in WHEN_TYPES.items() if t.kind == "condition")
ACTIONS = tuple(ACTION_TYPES)
# The builder's placeholders for a node not yet filled in (kept by the hub, do nothing).
SAMPLES = ("sample", "sampleTrigger", "sampleCondition")


@dataclass(frozen=True, slots=True)
class DeviceUse:
    """A device a node names, and what the node reads (attribute) or sends (commands)."""

    path: str  # then_nodes[0].switches[1]
    device_id: str
    node: NodeType
    list_key: str  # when_nodes / then_nodes / else_nodes


@dataclass(slots=True)
class CheckedNodes:
    """Node lists after the structural check: normalised copies and the devices they use."""

    lists: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    uses: list[DeviceUse] = field(default_factory=list)


def _refuse(path: str, problem: str, fix: str, subject: str | None = None) -> ToolError:
    return ToolError(f"{path}: {problem} Nothing was sent.", hint=fix, subject=subject)


def _type_of(node: dict[str, Any], path: str, list_key: str) -> NodeType:
    action = list_key != "when_nodes"
    key = "actionType" if action else "triggerType"
    known = ACTIONS if action else TRIGGERS + CONDITIONS
    name = node.get(key)
    if name is None:
        other = "triggerType" if action else "actionType"
        wrong = f" ({other} belongs in {'when_nodes' if action else 'then/else_nodes'})"
        raise _refuse(
            f"{path}.{key}",
            f"missing{wrong if other in node else ''}.",
            f"Give {key}, one of: {', '.join(known)}.",
        )
    node_type = (ACTION_TYPES if action else WHEN_TYPES).get(str(name))
    if node_type is None:
        raise _refuse(
            f"{path}.{key}",
            f"unknown node type '{name}'.",
            f"Known {key} values here: {', '.join(known)} (docs/visual-rules.md).",
        )
    return node_type


def _ids(value: Any, path: str, *, single: bool) -> list[int]:
    items = [value] if single else value
    if not isinstance(items, list) or not items:
        raise _refuse(path, "needs device ids.", "Give device ids.", "device_ids")
    out: list[int] = []
    for idx, item in enumerate(items):
        text = str(item).strip()
        if isinstance(item, bool) or not text.isdigit():
            where = path if single else f"{path}[{idx}]"
            raise _refuse(where, f"'{item}' is not a device id.", "Use numeric device ids.")
        out.append(int(text))
    return out


def _check_values(node: dict[str, Any], t: NodeType, path: str) -> None:
    if t.choice is not None:
        choice = node.get(t.choice)
        if choice not in t.options:
            raise _refuse(
                f"{path}.{t.choice}",
                f"{'missing' if choice is None else repr(choice) + ' is not an option'}.",
                f"One of (exact text): {' | '.join(t.options)}.",
            )
        if t.stays and _STAYS in str(choice):
            for unit in ("Minutes", "Seconds"):
                node.setdefault(f"{t.stays}Stays{unit}", 0)
        if t.name == "sunriseSunset" and str(choice).startswith(("before", "after")):
            key = f"minutes{str(choice)[:1].upper()}{str(choice)[1:]}"
            if not isinstance(node.get(key), int | float):
                raise _refuse(f"{path}.{key}", "missing.", f"Give {key} (a number of minutes).")
        if t.name == "timeIsBetween" and choice == "specificTimes":
            for key in ("startTime", "endTime"):
                if not HHMM.match(str(node.get(key, ""))):
                    raise _refuse(f"{path}.{key}", "needs a time.", 'Give "HHMM", e.g. "2230".')
    for key in t.values:
        value = node.get(key)
        if value is None:
            raise _refuse(f"{path}.{key}", "missing.", f"Give {key} (docs/visual-rules.md).")
        if key == "timeOfDay" and not HHMM.match(str(value)):
            raise _refuse(f"{path}.{key}", "needs a time.", 'Give "HHMM", e.g. "0730".')
        if key in ("modes", "daysOfWeek") and not (isinstance(value, list) and value):
            fix, subject = _LIST_FIX[key]
            raise _refuse(f"{path}.{key}", "needs a non-empty list.", fix, subject)


_LIST_FIX = {  # (hint, subject)
    "modes": ("Give mode ids.", "mode_ids"),
    "daysOfWeek": ("Give day numbers 0-6 (0 = Sunday).", None),
}


def check_nodes(lists: dict[str, list[Any]]) -> CheckedNodes:
    """Check node lists (keyed when_nodes/then_nodes/else_nodes) against the schema.

    Returns normalised copies (``deviceIds`` mirrors the type's device list, ids as numbers,
    ``type``/``index`` as the builder writes them) and every device use, with its path.
    Raises a ToolError naming the first wrong node (``then_nodes[2].switches``) and the fix.
    """
    out = CheckedNodes()
    for list_key, wire in LISTS:
        if list_key not in lists:
            continue
        checked: list[dict[str, Any]] = []
        for idx, raw in enumerate(lists[list_key]):
            path = f"{list_key}[{idx}]"
            if not isinstance(raw, dict):
                raise _refuse(path, "is not an object.", "Each node is a JSON object.")
            node = {k: v for k, v in raw.items() if k not in UI_ONLY}
            t = _type_of(node, path, list_key)
            _check_values(node, t, path)
            ids: list[int] = []
            if t.devices is not None:
                ids = _ids(node.get(t.devices), f"{path}.{t.devices}", single=t.single)
                given = node.get("deviceIds")
                if given is not None and sorted(_ids(given, f"{path}.deviceIds", single=False)) != (
                    sorted(ids)
                ):
                    raise _refuse(
                        f"{path}.deviceIds",
                        f"does not match {t.devices}.",
                        f"deviceIds mirrors {t.devices}: give the same ids (or omit deviceIds).",
                    )
                node[t.devices] = ids[0] if t.single else ids
                for pos, did in enumerate(ids):
                    where = f"{path}.{t.devices}" + ("" if t.single else f"[{pos}]")
                    out.uses.append(DeviceUse(where, str(did), t, list_key))
            node["deviceIds"] = ids
            node["type"] = wire[:-5]  # when / then / else
            node["index"] = idx
            checked.append(node)
        out.lists[list_key] = checked
    return out


def has_trigger(nodes: list[Any]) -> bool:
    """True when a when-list holds a real trigger (the builder refuses to save otherwise)."""
    return any(isinstance(n, dict) and n.get("triggerType") in TRIGGERS for n in nodes)


def node_problems(definition: dict[str, Any]) -> list[str]:
    """What makes a stored classic rule unable to run, without asking the hub anything:
    no trigger, no action, unknown node types (devices are checked by the caller)."""
    problems: list[str] = []
    when = definition.get("whenNodes") or []
    then = definition.get("thenNodes") or []
    if not has_trigger(when if isinstance(when, list) else []):
        problems.append("no trigger: whenNodes holds no trigger node, so the rule never runs")
    if not any(
        isinstance(n, dict) and n.get("actionType") in ACTIONS
        for n in (then if isinstance(then, list) else [])
    ):
        problems.append("no action: thenNodes holds no action node, so the rule does nothing")
    for list_key, wire in LISTS:
        nodes = definition.get(wire) or []
        key = "triggerType" if wire == "whenNodes" else "actionType"
        known = TRIGGERS + CONDITIONS if wire == "whenNodes" else ACTIONS
        for idx, node in enumerate(nodes if isinstance(nodes, list) else []):
            name = node.get(key) if isinstance(node, dict) else None
            if name not in known and name not in SAMPLES:
                problems.append(f"{list_key}[{idx}]: unknown node type {name!r}")
    return problems


def stored_uses(definition: dict[str, Any]) -> list[DeviceUse]:
    """The devices a stored rule's known nodes name (unknown or malformed nodes skipped)."""
    uses: list[DeviceUse] = []
    for list_key, wire in LISTS:
        nodes = definition.get(wire) or []
        for idx, node in enumerate(nodes if isinstance(nodes, list) else []):
            if not isinstance(node, dict):
                continue
            if wire == "whenNodes":
                t = WHEN_TYPES.get(str(node.get("triggerType")))
            else:
                t = ACTION_TYPES.get(str(node.get("actionType")))
            if t is None or t.devices is None:
                continue
            value = node.get(t.devices)
            for pos, item in enumerate([value] if t.single else value or []):
                if str(item).strip().isdigit():
                    where = f"{list_key}[{idx}].{t.devices}" + ("" if t.single else f"[{pos}]")
                    uses.append(DeviceUse(where, str(item).strip(), t, list_key))
    return uses
