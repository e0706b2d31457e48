"""The emulated Rule Machine 5.1 wizard's fields: which inputs a page shows, given the settings.

Rule Machine's pages reveal one field after the one before it is set (``docs/rule-machine-
pages.md``); the functions here compute, from a rule's stored settings, the inputs shown so far
and whether the group (a trigger, a condition, an action) is complete. They are pure: the hub's
devices, modes, variables and rules come in through :class:`Env`. Enum options are either
plain strings or one-key maps ``{value: label}`` (mode ids, action types), as the hub sends
them; the value written must be one of the option values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import rule_device_acts
from .rule_dates import DATES, date_fields
from .rule_periodic import MONTH_NAMES, WEEKDAY_NAMES, WEEKS

Inp = dict[str, Any]
Option = str | dict[str, str]

# trigger / condition capability option -> (device capability, attribute, states)
DEVICE_CAPS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "Switch": ("switch", "switch", ("on", "off")),
    "Motion": ("motionSensor", "motion", ("active", "inactive")),
    "Contact": ("contactSensor", "contact", ("open", "closed")),
    "Lock": ("lock", "lock", ("locked", "unlocked")),
    "Presence": ("presenceSensor", "presence", ("present", "not present")),
    "Water": ("waterSensor", "water", ("wet", "dry")),
    "Smoke": ("smokeDetector", "smoke", ("detected", "clear", "tested")),
    "Acceleration": ("accelerationSensor", "acceleration", ("active", "inactive")),
    "Door": ("doorControl", "door", ("open", "closed", "opening", "closing", "unknown")),
    "Garage door": (
        "garageDoorControl",
        "door",
        ("open", "closed", "opening", "closing", "unknown"),
    ),
    "Valve": ("valve", "valve", ("open", "closed")),
    "Window Shade": (
        "windowShade",
        "windowShade",
        ("open", "closed", "opening", "closing", "partially open", "unknown"),
    ),
}
NUMERIC_CAPS: dict[str, tuple[str, str]] = {
    "Temperature": ("temperatureMeasurement", "temperature"),
    "Humidity": ("relativeHumidityMeasurement", "humidity"),
    "Illuminance": ("illuminanceMeasurement", "illuminance"),
    "Battery": ("battery", "battery"),
    "Power": ("powerMeter", "power"),
    "Energy": ("energyMeter", "energy"),
    "Dimmer level": ("switchLevel", "level"),
}
CUSTOM = "Custom Attribute"
TIME_TRIGGER = "Certain Time (and optional date)"
PERIODIC = "Periodic Schedule"
BETWEEN = "Between two times"
PRIVATE_BOOLEAN = "Private Boolean"
TRIGGER_CAPS: tuple[str, ...] = (
    *DEVICE_CAPS,
    *NUMERIC_CAPS,
    CUSTOM,
    "Button",
    TIME_TRIGGER,
    "Mode",
    "Variable",
    PERIODIC,
)
EVENT_CAPS: tuple[str, ...] = (*DEVICE_CAPS, *NUMERIC_CAPS, CUSTOM, "Button", "Mode", "Variable")
CONDITION_CAPS: tuple[str, ...] = (
    *DEVICE_CAPS,
    *NUMERIC_CAPS,
    CUSTOM,
    "Mode",
    BETWEEN,
    DATES,
    "Variable",
)
COMPARATORS = ("=", "≠", "<", ">", "<=", ">=")
CHANGED = "*changed*"
BUTTON_STATES = ("pushed", "held", "doubleTapped", "released")
TIME_KINDS = ("A specific time", "Sunrise", "Sunset")
# the Periodic Schedule's frequencies (the on-hub server's periodic write block, live on 5.1.8)
PERIODS = ("Seconds", "Minutes", "Hourly", "Daily", "Weekly", "Monthly", "Yearly", "Cron String")
EVERY_N_MINUTES = ("1", "2", "3", "4", "5", "6", "10", "12", "15", "20", "30")
COND_KINDS: tuple[Option, ...] = ({"a": "New condition"}, {"b": "( sub-expression"}, {"c": "NOT"})
OPERATORS = ("AND", "OR", "XOR")
DELAY_KINDS = ("none", "hrs:min:sec")
PARAM_TYPES = ("number", "decimal", "string")

ACT_TYPES: dict[str, str] = {
    "switchActs": "Control Switches, Push Buttons",
    "dimmerActs": "Set Dimmers and Bulbs",
    "lockActs": "Control Locks, Garage Doors, Valves",
    "modeActs": "Set Mode or Variables, Run Custom Action",
    "messageActs": "Send, Speak or Log a Message",
    "delayActs": "Delay, Wait, Exit or Comment",
    "rulesActs": "Run, Pause or Cancel Rules",
    "condActs": "Conditional Actions",
    "repeatActs": "Repeat Actions",
    "deviceActs": "Capture, Restore, Disable Devices",  # the title: no evidence
}
SUB_TYPES: dict[str, dict[str, str]] = {
    "switchActs": {"getOnOffSwitch": "Turn switches on or off", "getToggleSwitch": "Toggle"},
    "dimmerActs": {"getSetDimmer": "Set dimmer"},
    "lockActs": {"getLULock": "Lock or unlock", "getSetHSM": "Set Safety Monitor"},
    "modeActs": {
        "getDefinedAction": "Run custom action",
        "getSetMode": "Set mode",
        "getSetVariable": "Set variable",
        "getWriteLocalFile": "Write to local file",
        "getAppendLocalFile": "Append to local file",
        "getDeleteLocalFile": "Delete local file",
    },
    "messageActs": {
        "getMsg": "Send or speak a message",
        "getLogMsg": "Log a message",
        # the on-hub server's names for these three; the labels as the on-hub server's matrix
        "getHTTPGet": "Send HTTP Get",
        "getHTTPPost": "Send HTTP Post",
        "getPingIP": "Ping IP address",
    },
    "delayActs": {
        "getDelay": "Delay actions",
        "getCancelDelay": "Cancel delayed actions",
        "getWaitEvents": "Wait for events",
        "getDelayPerMode": "Delay per mode",
        "getWaitRule": "Wait for expression",
        "getExitRule": "Exit rule",
        "getComment": "Comment",
    },
    "rulesActs": {
        "getRuleActions": "Run rule actions",
        "getPauseResumeRules": "Pause or resume rules",
        "getSetPrivateBoolean": "Set private boolean",
    },
    "condActs": {
        "getIfThen": "IF (expression) THEN",
        "getElseIf": "ELSE-IF (expression) THEN",
        "getElse": "ELSE",
        "getEndIf": "END-IF",
    },
    "deviceActs": {
        "getCapture": "Capture devices",
        "getRestore": "Restore devices",
        "getDisable": "Disable or enable devices",
    },
    "repeatActs": {
        "getRepeat": "Repeat actions",
        "getWhile": "Repeat while (expression)",
        "getStopRepeat": "End-Repeat",
    },
}
for _family, _subs in rule_device_acts.SUB_TYPES.items():  # per mode, fades, Cancel Rule Timers
    SUB_TYPES[_family].update(_subs)
EXPRESSION_SUBTYPES = ("getIfThen", "getElseIf", "getWhile", "getWaitRule")
# getSetHSM's alarm.<N> values (the on-hub server, live)
HSM_ALARMS = (
    *("armAway", "armHome", "armNight", "disarm"),
    *("rearm", "disarmAll", "armRules", "cancelAlerts"),
)
NO_DELAY_SUBTYPES = (
    "getDelay",
    "getCancelDelay",
    "getExitRule",
    "getComment",
    "getDelayPerMode",
    # its timeout is shown with the expression, before Done (the on-hub server, live)
    "getWaitRule",
    *("getIfThen", "getElseIf", "getElse", "getEndIf", "getWhile", "getStopRepeat"),
    "getRepeat",
    "getPingIP",  # the on-hub server's ping takes no delay
)
# Run custom action: the capability class names myCapab takes (the on-hub server, live)
CUSTOM_ACTION_CAPS: tuple[str, ...] = (
    "Switch",
    "SwitchLevel",
    "Lock",
    "PushableButton",
    "ColorControl",
    "ColorTemperature",
    "WindowShade",
    "WindowBlind",
    "FanControl",
    "MusicPlayer",
    "AudioVolume",
    "GarageDoorControl",
    "DoorControl",
    "Valve",
    "Thermostat",
    "Tone",
    "SpeechSynthesis",
)


class Env(Protocol):
    """What the fields need of the hub."""

    def device_name(self, dev_id: int) -> str | None: ...

    def has_capability(self, dev_id: int, capability: str) -> bool: ...

    def modes(self) -> list[tuple[str, str]]: ...

    def variables(self) -> list[str]: ...

    def variable_type(self, name: str) -> str | None: ...

    def attributes(self, ids: Sequence[int]) -> list[str]: ...

    def commands(self, ids: Sequence[int]) -> list[str]: ...

    def rules(self, exclude: int) -> list[tuple[str, str]]: ...

    def files(self) -> list[str]: ...


@dataclass
class Reveal:
    """The inputs a group shows so far, its hrefs, and whether it is complete."""

    inputs: list[Inp] = field(default_factory=list)
    hrefs: list[dict[str, Any]] = field(default_factory=list)
    complete: bool = False


def inp(
    name: str,
    kind: str,
    title: str,
    *,
    options: Sequence[Option] | None = None,
    multiple: bool = False,
) -> Inp:
    out: Inp = {"name": name, "type": kind, "title": title, "submitOnChange": True}
    if options is not None:
        out["options"] = list(options)
    if multiple:
        out["multiple"] = True
    return out


def option_values(options: Sequence[Option]) -> list[str]:
    return [o if isinstance(o, str) else next(iter(o)) for o in options]


def device_ids(value: Any) -> list[int]:
    """A stored device input (``"5,7"``) as ids."""
    return [int(p) for p in str(value or "").split(",") if p.strip().isdigit()]


def trigger_key(n: int) -> Callable[[str], str]:
    """Field names of trigger ``n``: ``tCapab`` -> ``tCapab1``."""
    return lambda base: f"{base}{n}"


def event_key(e: int) -> Callable[[str], str]:
    """Field names of Wait for Events event ``e``: ``tCapab`` -> ``tCapab-1``."""
    return lambda base: f"{base}-{e}"


class _Steps:
    """Builds a Reveal one field at a time: ``add`` answers whether the field is set."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.s = settings
        self.r = Reveal()

    def add(self, field_: Inp) -> bool:
        self.r.inputs.append(field_)
        return field_["name"] in self.s

    def all(self, fields: Sequence[Inp]) -> bool:
        for f in fields:
            self.r.inputs.append(f)
        return all(f["name"] in self.s for f in fields)

    def done(self, complete: bool = True) -> Reveal:
        self.r.complete = complete
        return self.r


def _mode_options(env: Env) -> list[Option]:
    return [{mid: name} for mid, name in env.modes()]


def _stays(st: _Steps, key: Callable[[str], str]) -> bool:
    if st.add(inp(key("stays"), "bool", "And stays?")) and st.s[key("stays")] is True:
        return st.all([inp(key(k), "number", k[1:]) for k in ("SHours", "SMins", "SSecs")])
    return True


def event_fields(
    s: dict[str, Any], key: Callable[[str], str], env: Env, *, caps: Sequence[str]
) -> Reveal:
    """A trigger (``tCapab<N>`` ...) or a Wait for Events event (``tCapab-<E>`` ...)."""
    st = _Steps(s)
    if not st.add(inp(key("tCapab"), "enum", "Select capability", options=caps)):
        return st.done(False)
    cap = s[key("tCapab")]
    dev = key("tDev")
    if cap in DEVICE_CAPS:
        capability, _attr, states = DEVICE_CAPS[cap]
        if not st.add(inp(dev, f"capability.{capability}", "Devices", multiple=True)):
            return st.done(False)
        if len(device_ids(s[dev])) > 1:
            st.add(inp(key("AlltDev"), "bool", "All of these?"))
        if not st.add(inp(key("tstate"), "enum", "State", options=[*states, CHANGED])):
            return st.done(False)
        return st.done(s[key("tstate")] == CHANGED or _stays(st, key))
    if cap in NUMERIC_CAPS or cap in (CUSTOM, "Variable"):
        if cap == "Variable":
            if not st.add(inp(key("xVar"), "enum", "Variable", options=env.variables())):
                return st.done(False)
        else:
            capability = NUMERIC_CAPS[cap][0] if cap in NUMERIC_CAPS else "*"
            if not st.add(inp(dev, f"capability.{capability}", "Devices", multiple=True)):
                return st.done(False)
        if cap == CUSTOM:
            attrs = env.attributes(device_ids(s[dev]))
            if not st.add(inp(key("tCustomAttr"), "enum", "Attribute", options=attrs)):
                return st.done(False)
        rel = key("ReltDev")
        if not st.add(inp(rel, "enum", "Comparison", options=[*COMPARATORS, CHANGED])):
            return st.done(False)
        if s[rel] == CHANGED:
            return st.done()
        kind = "decimal" if cap in NUMERIC_CAPS else "text"
        if not st.add(inp(key("tstate"), kind, "Value")):
            return st.done(False)
        # "and stays" is offered on every device trigger (the on-hub server's matrix: orthogonal to
        # the capability), numeric ones included
        return st.done(cap == "Variable" or _stays(st, key))
    if cap == "Button":
        if not st.add(inp(dev, "capability.pushableButton", "Button devices", multiple=True)):
            return st.done(False)
        if not st.add(inp(key("ButtontDev"), "number", "Button number")):
            return st.done(False)
        return st.done(st.add(inp(key("tstate"), "enum", "Action", options=BUTTON_STATES)))
    if cap == TIME_TRIGGER:
        if not st.add(inp(key("time"), "enum", "Time", options=TIME_KINDS)):
            return st.done(False)
        kind = s[key("time")]
        follow = {
            "A specific time": inp(key("atTime"), "time", "At"),
            "Sunrise": inp(key("atSunriseOffset"), "number", "Sunrise offset (minutes)"),
            "Sunset": inp(key("atSunsetOffset"), "number", "Sunset offset (minutes)"),
        }[kind]
        # the sun offsets are optional (0 when left out); a specific time is needed
        return st.done(st.add(follow) or kind != "A specific time")
    if cap == "Mode":
        return st.done(
            st.add(inp(key("modesX"), "enum", "Modes", options=_mode_options(env), multiple=True))
        )
    # Periodic Schedule: its fields live on the sub-page
    st.r.hrefs.append(
        {
            "element": "href",
            "name": f"periodic{key('')}",
            "page": "periodic",
            "title": "Define periodic schedule",
            "params": {"n": int(key(""))},
        }
    )
    return st.done(periodic_fields(s, int(key(""))).complete)


def periodic_fields(s: dict[str, Any], n: int) -> Reveal:
    """The periodic sub-page of trigger ``n``: ``whichPeriod<n>``, then the frequency's fields
    (the on-hub server's periodic write block and shape checks, live on 5.1.8). Where a frequency
    has modes (every N, or at chosen minutes / hours / days) their first fields show together
    and the one set picks the mode; Monthly's week-of-month hides its day-of-month.
    *No evidence:* the option labels of the hour, minute and day pickers (the emulator: the
    numbers as text) and which time fields are optional (the emulator: Hourly's)."""
    st = _Steps(s)
    if not st.add(inp(f"whichPeriod{n}", "enum", "Period", options=PERIODS)):
        return st.done(False)
    period = s[f"whichPeriod{n}"]

    def f(name: str, kind: str, title: str, **kw: Any) -> Inp:
        return inp(f"{name}{n}", kind, title, **kw)

    def on(name: str) -> bool:
        return s.get(f"{name}{n}") is True

    def starting(name: str) -> bool:
        return st.add(f(name, "time", "Starting at"))

    nums = [str(i) for i in range(60)]
    if period == "Seconds":
        return st.done(st.add(f("everyNSecs", "enum", "Seconds", options=EVERY_N_MINUTES)))
    if period == "Minutes":
        st.add(f("everyNMinutesC", "bool", "Every N minutes?"))
        if on("everyNMinutesC"):
            return st.done(st.add(f("everyNC", "enum", "Minutes", options=EVERY_N_MINUTES)))
        picker = f("selectMinutesC", "enum", "At these minutes", options=nums, multiple=True)
        return st.done(st.add(picker))
    if period == "Hourly":
        st.add(f("everyNHoursC", "bool", "Every N hours?"))
        if on("everyNHoursC"):
            ok = st.add(f("everyNHC", "number", "Hours"))
            if ok:
                starting("startingHC")  # optional: from midnight without it
            return st.done(ok)
        hours = f("selectHoursC", "enum", "At these hours", options=nums[:24], multiple=True)
        ok = st.add(hours)
        if ok:
            st.add(f("startingHCX", "number", "Minutes past the hour"))  # 0 when left out
        return st.done(ok)
    if period == "Daily":
        st.add(f("everyNDoMC", "bool", "Every N days?"))
        if on("everyNDoMC"):
            ok = st.add(f("everyNDC", "number", "Days"))
        else:
            st.add(f("everyWeekDay", "bool", "Weekdays only?"))
            days = f("selectDoMC", "enum", "Days of the month", options=nums[1:32], multiple=True)
            ok = on("everyWeekDay") or st.add(days)
        return st.done(ok and starting("startingDC"))
    if period == "Weekly":
        days = f("selectDoWC", "enum", "Days of the week", options=WEEKDAY_NAMES, multiple=True)
        return st.done(st.add(days) and starting("startingWC"))
    if period == "Monthly":
        week = f("weeklyMC", "enum", "Week of the month", options=WEEKS)
        if f"weeklyMC{n}" in s:  # the nth weekday: the day-of-month fields hide
            st.add(week)
            ok = st.add(f("dailyMC", "enum", "Day of the week", options=WEEKDAY_NAMES))
            ok = ok and st.add(f("everyNMCX", "number", "Every N months"))
        else:
            ok = st.add(f("dayMC", "number", "On day"))
            st.add(week)
            ok = ok and st.add(f("everyNMC", "number", "Every N months"))
        return st.done(ok and starting("startingMC"))
    if period == "Yearly":  # always an nth weekday (its month alone never completes)
        ok = st.add(f("weeklyYC", "enum", "Week of the month", options=WEEKS))
        ok = ok and st.add(f("dailyYC", "enum", "Day of the week", options=WEEKDAY_NAMES))
        ok = ok and st.add(f("yearlyMonthCX", "enum", "Month", options=MONTH_NAMES))
        return st.done(ok and starting("startingYC"))
    return st.done(st.add(f("cronStr", "text", "Cron string")))


def condition_fields(s: dict[str, Any], c: int, env: Env, *, required: bool = False) -> Reveal:
    """One condition of an expression (``rCapab_<C>`` ...), then its ``not<C>``; ``required``:
    the Required Expression's, whose capability list alone offers Private Boolean (an action's
    lacks it: rule-storage notes 5.2, live on 2.5.1.140)."""
    st = _Steps(s)
    caps = (*CONDITION_CAPS, PRIVATE_BOOLEAN) if required else CONDITION_CAPS
    if not st.add(inp(f"rCapab_{c}", "enum", "Select capability", options=caps)):
        return st.done(False)
    cap = s[f"rCapab_{c}"]
    ok: bool
    if cap == PRIVATE_BOOLEAN:  # no device: true or false (the on-hub server's wire format)
        ok = st.add(inp(f"state_{c}", "enum", "Private Boolean is", options=("true", "false")))
    elif cap in DEVICE_CAPS:
        capability, _attr, states = DEVICE_CAPS[cap]
        ok = st.add(inp(f"rDev_{c}", f"capability.{capability}", "Devices", multiple=True))
        ok = ok and st.add(inp(f"state_{c}", "enum", "State", options=states))
    elif cap in NUMERIC_CAPS or cap in ("Variable", CUSTOM):
        if cap == "Variable":
            ok = st.add(inp(f"xVar_{c}", "enum", "Variable", options=env.variables()))
        else:
            dev = f"capability.{NUMERIC_CAPS[cap][0] if cap in NUMERIC_CAPS else '*'}"
            ok = st.add(inp(f"rDev_{c}", dev, "Devices", multiple=True))
        if ok and cap == CUSTOM:
            attrs = env.attributes(device_ids(s[f"rDev_{c}"]))
            ok = st.add(inp(f"rCustomAttr_{c}", "enum", "Attribute", options=attrs))
        ok = ok and st.add(inp(f"RelrDev_{c}", "enum", "Comparison", options=COMPARATORS))
        kind = "decimal" if cap in NUMERIC_CAPS else "text"
        if ok and cap in NUMERIC_CAPS:
            ok = _relative_device(st, c, NUMERIC_CAPS[cap][0])
        elif ok and cap == "Variable":
            ok = _relative_variable(st, c, env)
        else:
            ok = ok and st.add(inp(f"state_{c}", kind, "Value"))
    elif cap == "Mode":
        modes = _mode_options(env)
        ok = st.add(inp(f"modes{c}", "enum", "Modes", options=modes, multiple=True))
    elif cap == DATES:
        ok = date_fields(st, c, inp)
    else:  # Between two times
        ok = _time_end(st, c, "starting", "startingA", "start") and _time_end(
            st, c, "ending", "endingA", "end"
        )
    if ok:
        st.add(inp(f"not{c}", "bool", "NOT?"))
    return st.done(ok)


def _relative_device(st: _Steps, c: int, capability: str) -> bool:
    """After a numeric condition's comparator: ``isDev_<C>`` ("relative to a device?"); when
    on, the reference device ``relDevice_<C>`` (one, of the same capability) and ``state_<C>``
    as the offset, which may stay unset (0); else ``state_<C>`` the value (the on-hub server,
    compareToDevice, live on 2.5.0.143)."""
    if st.add(inp(f"isDev_{c}", "bool", "Relative to a device?")) and st.s[f"isDev_{c}"] is True:
        ok = st.add(inp(f"relDevice_{c}", f"capability.{capability}", "Reference device"))
        if ok:
            st.add(inp(f"state_{c}", "decimal", "Offset"))
        return ok
    return st.add(inp(f"state_{c}", "decimal", "Value"))


def _relative_variable(st: _Steps, c: int, env: Env) -> bool:
    """After a Variable condition's comparator: ``isVar_<C>``; when on, the right-hand
    variable ``xVarR_<C>``, else ``state_<C>`` (the on-hub server, compareToVariable, live
    2026-05-17)."""
    if st.add(inp(f"isVar_{c}", "bool", "Compare to variable?")) and st.s[f"isVar_{c}"] is True:
        return st.add(inp(f"xVarR_{c}", "enum", "Variable", options=env.variables()))
    return st.add(inp(f"state_{c}", "text", "Value"))


def _time_end(st: _Steps, c: int, which: str, at: str, prefix: str) -> bool:
    if not st.add(inp(f"{which}{c}", "enum", which.capitalize(), options=TIME_KINDS)):
        return False
    follow = {
        "A specific time": inp(f"{at}{c}", "time", "At"),
        "Sunrise": inp(f"{prefix}SunriseOffset{c}", "number", "Sunrise offset (minutes)"),
        "Sunset": inp(f"{prefix}SunsetOffset{c}", "number", "Sunset offset (minutes)"),
    }[st.s[f"{which}{c}"]]
    return st.add(follow)


def action_fields(s: dict[str, Any], n: int, env: Env, app_id: int) -> Reveal:
    """The subtype fields of a plain action (the stateful subtypes are the pages' own)."""
    st = _Steps(s)
    sub = s.get(f"actSubType.{n}")

    def f(name: str, kind: str, title: str, **kw: Any) -> Inp:
        return inp(f"{name}.{n}", kind, title, **kw)

    if sub == "getOnOffSwitch":
        ok = st.add(f("onOffSwitch", "capability.switch", "Switches", multiple=True))
        ok = ok and st.add(f("onOff", "bool", "Turn on?"))
    elif sub == "getToggleSwitch":
        ok = st.add(f("toggleSwitch", "capability.switch", "Switches", multiple=True))
    elif sub == "getSetDimmer":
        ok = st.add(f("dimA", "capability.switchLevel", "Dimmers", multiple=True))
        ok = ok and st.add(f("dimLA", "number", "Level"))
        if ok:
            st.add(f("dimRA", "decimal", "Transition time (seconds)"))  # optional (on-hub server)
    elif sub == "getLULock":
        ok = st.add(f("lockRL", "bool", "Unlock?"))
        ok = ok and st.add(f("lockLockUnlock", "capability.lock", "Locks", multiple=True))
    elif sub == "getSetMode":
        ok = st.add(f("mode", "enum", "Mode", options=_mode_options(env)))
    elif sub == "getSetVariable":
        ok = st.add(f("xVarV", "enum", "Variable", options=env.variables()))
        ops: tuple[str, ...] = ("number", "variable", "device attribute", "variable math")
        # a number, a device attribute and math only for a Number or Decimal target (the
        # on-hub server, live: numOp shows no such source for String, Boolean or DateTime)
        if ok and env.variable_type(str(s[f"xVarV.{n}"])) not in ("integer", "bigdecimal"):
            ops = ("variable",)
        ok = ok and st.add(f("numOp", "enum", "Set to", options=ops))
        if ok and s[f"numOp.{n}"] == "number":
            ok = st.add(f("valNumber", "number", "Value"))
        elif ok and s[f"numOp.{n}"] == "variable":
            ok = st.add(f("xVar3", "enum", "Variable", options=env.variables()))
        elif ok:  # a device attribute, or variable math
            ok = rule_device_acts.variable_source_fields(st, s, n, env, inp)
    elif sub == "getMsg":
        ok = st.add(f("msg", "text", "Message"))
        ok = ok and st.add(f("note", "capability.notification", "Devices", multiple=True))
    elif sub == "getLogMsg":
        ok = st.add(f("logmsg", "text", "Message"))
    # the on-hub server's fields; the input types: no evidence
    elif sub in ("getHTTPGet", "getHTTPPost"):
        ok = st.add(f("httper", "text", "URL"))
        if sub == "getHTTPPost":
            ok = ok and st.add(f("httpPostBody", "text", "Body"))
            ok = ok and st.add(f("httpPostType", "text", "Content type"))
    elif sub == "getPingIP":
        ok = st.add(f("pingIP", "text", "IP address"))
    elif sub == "getDelay":  # a variable's length (uVar), or hours, minutes, seconds
        ok = rule_device_acts.delay_fields(st, s, n, inp, env)
    elif sub in rule_device_acts.SUBTYPES:
        ok = rule_device_acts.device_action_fields(st, s, n, str(sub), env, inp)
    elif sub == "getRuleActions":
        ok = st.add(f("runRuleType", "enum", "Rule type", options=["Rule Machine"]))
        rules: list[Option] = [{rid: label} for rid, label in env.rules(app_id)]
        ok = ok and st.add(f("ruleAct", "enum", "Rules", options=rules, multiple=True))
    # the on-hub server's order: pR, pauseRuleType, pauseRule (live)
    elif sub == "getPauseResumeRules":
        ok = st.add(f("pR", "bool", "Resume?"))
        ok = ok and st.add(f("pauseRuleType", "enum", "Rule type", options=["Rule Machine"]))
        rules = [{rid: label} for rid, label in env.rules(app_id)]
        ok = ok and st.add(f("pauseRule", "enum", "Rules", options=rules, multiple=True))
    # the on-hub server's order: pvRuleType, pvTF, privateT (live)
    elif sub == "getSetPrivateBoolean":
        ok = st.add(f("pvRuleType", "enum", "Rule type", options=["Rule Machine"]))
        ok = ok and st.add(f("pvTF", "bool", "True or False?"))
        rules = [{"*": "This rule"}, *({rid: label} for rid, label in env.rules(app_id))]
        ok = ok and st.add(f("privateT", "enum", "Rules", options=rules, multiple=True))
    elif sub == "getSetHSM":
        ok = st.add(f("alarm", "enum", "Safety Monitor", options=list(HSM_ALARMS)))
    # the on-hub server's order: the interval, how many times, then Stoppable? (live)
    elif sub == "getRepeat":
        keys = ("repeatHour", "repeatMinute", "repeatSecond")
        ok = st.all([f(k, "number", k[6:]) for k in keys])
        ok = ok and st.add(f("repeatN", "number", "Times"))
        if ok:
            st.add(f("stopRepeat", "bool", "Stoppable?"))
    # the modes (ids), then each one's delay by its name (on-hub server)
    elif sub == "getDelayPerMode":
        ok = st.add(f("delayModes", "enum", "Modes", options=_mode_options(env), multiple=True))
        names = dict(env.modes())
        for mode_id in s.get(f"delayModes.{n}") or [] if ok else []:
            name = names.get(str(mode_id), str(mode_id))
            keys = ("delayHour", "delayMinute", "delaySecond")
            ok = st.all([f(f"{k}{name}", "number", k[5:]) for k in keys]) and ok
        if ok:
            st.add(f("cancelAct", "bool", "Cancelable?"))
    elif sub == "getWriteLocalFile":  # the on-hub server, live
        ok = st.add(f("localFile", "text", "File name"))
        ok = ok and st.add(f("fileContents", "text", "Contents"))
    elif sub == "getAppendLocalFile":  # the name picks an existing file (the on-hub server, live)
        ok = st.add(f("localFile", "enum", "File", options=env.files()))
        ok = ok and st.add(f("fileContents", "text", "Contents"))
    elif sub == "getDeleteLocalFile":  # a picker of existing files, as append's *(no evidence)*
        ok = st.add(f("deleteFile", "enum", "File", options=env.files()))
    elif sub == "getCapture":
        ok = st.add(f("capture", "capability.*", "Devices", multiple=True))
    elif sub == "getDisable":  # the on-hub server's order: disEn, devDisable (live)
        ok = st.add(f("disEn", "bool", "Enable?"))
        ok = ok and st.add(f("devDisable", "capability.*", "Devices", multiple=True))
    elif sub == "getComment":
        ok = st.add(f("comment", "text", "Comment"))
    elif sub == "getDefinedAction":
        ok = st.add(f("useLastDev", "bool", "Use last event device?"))
        capabs = list(CUSTOM_ACTION_CAPS)
        ok = ok and st.add(f("myCapab", "enum", "Capability", options=capabs))
        if ok:
            klass = str(s[f"myCapab.{n}"])
            capability = klass[0].lower() + klass[1:]
            ok = st.add(f("devices", f"capability.{capability}", "Devices", multiple=True))
        if ok:
            cmds = env.commands(device_ids(s[f"devices.{n}"]))
            ok = st.add(f("cCmd", "enum", "Command", options=cmds))
    else:  # no fields of their own
        ok = sub in (
            *("getCancelDelay", "getElse", "getEndIf", "getStopRepeat", "getExitRule"),
            "getRestore",
        )
    return st.done(ok)


def param_fields(s: dict[str, Any], n: int, params: Sequence[int]) -> Reveal:
    """The parameters of a Run Custom Action (``cpType<P>.<N>`` → ``cpVal<P>.<N>``)."""
    st = _Steps(s)
    ok = True
    for p in params:
        ok = st.add(inp(f"cpType{p}.{n}", "enum", "Parameter type", options=PARAM_TYPES)) and ok
        if f"cpType{p}.{n}" in s:
            ok = st.add(inp(f"cpVal{p}.{n}", "text", "Parameter value")) and ok
    return st.done(ok)


def delay_fields(s: dict[str, Any], n: int) -> Reveal:
    """The optional delay of an action (``delayAct.<N>``)."""
    st = _Steps(s)
    if not st.add(inp(f"delayAct.{n}", "enum", "Delay?", options=DELAY_KINDS)):
        return st.done()
    if s[f"delayAct.{n}"] != "hrs:min:sec":
        return st.done()
    ok = st.all([inp(f"{k}.{n}", "number", k[5:]) for k in ("delayHor", "delayMin", "delaySec")])
    if ok:
        st.add(inp(f"cancelAct.{n}", "bool", "Cancelable?"))
    return st.done(ok)


def repeat_fields(s: dict[str, Any], n: int) -> Reveal:
    """A Repeat While's interval, then its optional Stoppable? (the on-hub server's getWhile
    fields, live: the interval, times, stopRepeat; this page has no times)."""
    st = _Steps(s)
    keys = ("repeatHour", "repeatMinute", "repeatSecond")
    ok = st.all([inp(f"{k}.{n}", "number", k[6:]) for k in keys])
    if ok:
        st.add(inp(f"stopRepeat.{n}", "bool", "Stoppable?"))
    return st.done(ok)
