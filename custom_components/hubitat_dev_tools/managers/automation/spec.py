"""The automation spec: one JSON document that says what a rule does.

The model (frozen dataclasses, each with ``as_dict``: the canonical spec form) and the
vocabulary. Reading one is :mod:`.parse`; what the hub must confirm, :mod:`.check`; how it
becomes Rule Machine pages, :mod:`.compile`. ``docs/automation-spec.md`` documents the format.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

OPS = {"eq": "=", "ne": "≠", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}
SUN = ("sunrise", "sunset")
LOGGING = ("events", "triggers", "actions")
# A rule's local variables: their type as the rule's state keeps it -> Rule Machine's
# varType option (the on-hub server _rmAddLocalVariable, live). A DateTime's value is written and
# kept in the hub's stored form, yyyy-MM-ddTHH:mm:ss.SSS+hhmm (the on-hub server's local-variable
# test writes varValue so and reads allLocalVars {type: datetime, value} back).
LOCAL_TYPES = {
    "integer": "Number",
    "bigdecimal": "Decimal",
    "string": "String",
    "boolean": "Boolean",
    "datetime": "DateTime",
}
MAX_LOCALS = 20
MINUTE_STEPS = (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30)  # RM's "every n minutes" choices
BUTTON_EVENTS = ("pushed", "held", "doubleTapped", "released")

TRIGGER_KINDS = (
    "device (device_id|device_ids + attribute + is|op/value|changes, stays_for, all)",
    "button (button_device_id + button + event)",
    "time (HH:MM, + date YYYY-MM-DD: once on that day)",
    "sun (sunrise|sunset + offset_minutes)",
    "every ({minutes} or {hours})",
    "periodic ({frequency: seconds|minutes|hourly|daily|weekly|monthly|yearly|cron, ...})",
    "mode (list of mode names)",
    "variable (name + op + value)",
    "any of these + only_if (one condition: a conditional trigger)",
)
# Periodic Schedule: the spec's frequency -> Rule Machine's whichPeriod<n> option (the on-hub
# server's periodic write block, live on 5.1.8)
PERIODS = {
    "seconds": "Seconds",
    "minutes": "Minutes",
    "hourly": "Hourly",
    "daily": "Daily",
    "weekly": "Weekly",
    "monthly": "Monthly",
    "yearly": "Yearly",
    "cron": "Cron String",
}
WEEKDAYS = ("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")
WEEKS = ("first", "second", "third", "fourth", "last")  # an nth weekday's week of the month
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
CONDITION_KINDS = (
    "device (device_id + attribute + is|op/value)",
    "mode (list of mode names)",
    "between ({from, to}: HH:MM, sunrise, sunset, or {sun, offset_minutes})",
    "dates ({from, to}: MM-DD, or MM-DD HH:MM; across New Year is fine)",
    "variable (name + op + value)",
    "compare_to ({device_id, offset}: a numeric attribute against another device's; "
    "{variable}: a variable against another variable; replaces value)",
    "private_boolean (true or false: this rule's private boolean; in conditions only)",
    "not (one condition)",
    "all / any (a list of conditions or of groups: a group in brackets)",
)
# getSetHSM's alarm.<N> values (the on-hub server, live: bare commands; no armAll, armRules instead)
HSM_COMMANDS = (
    "armAway",
    "armHome",
    "armNight",
    "disarm",
    "rearm",
    "disarmAll",
    "armRules",
    "cancelAlerts",
)
ACTION_KINDS = (
    "command (+ device_ids, arguments, delay, cancelable)",
    "delay ({hours, minutes, seconds}, cancelable, random: a random time up to it)",
    "delay_from_variable (a number variable: seconds; cancelable, random)",
    "delay_per_mode ({mode name: delay}, cancelable)",
    "wait (list of device events, each optionally with stays_for; timeout)",
    "wait_until (a condition, timeout)",
    "set_mode",
    "set_variable (+ value, from_variable, from_device {device_id, attribute} or "
    "math {left, op, right})",
    "notify (+ device_ids)",
    "log",
    "if (+ then, else_if, else)",
    "repeat_while (+ every, do, stoppable)",
    "repeat (times, + every, do, stoppable)",
    "cancel_delays",
    "run_rule",
    "pause_rules / resume_rules (rule ids)",
    "cancel_timers (rule ids: their delays, waits and repeats)",
    "set_private_boolean (true or false, + rule_ids; none: this rule)",
    "set_hsm (" + " ".join(HSM_COMMANDS) + ")",
    "exit_rule (true: stop here)",
    "comment (text; does nothing)",
    "capture (device ids: their states) / restore (true: what the last capture saved)",
    "disable_devices / enable_devices (device ids; disabling needs confirm)",
    "write_file / append_file (File Manager name + text) / delete_file (name; confirm)",
    "http_get (a URL; confirm) / http_post (a URL + body, content_type; confirm)",
    "ping (an IP address)",
    "set_level_per_mode ({mode: level}, + device_ids)",
    "switch_per_mode ({mode: on|off}, + device_ids)",
    "choose_per_mode ({mode: {on: [ids], off: [ids]}})",
    "color_per_mode ({mode: {color, level}}, + device_ids)",
    "color_temperature_per_mode ({mode: {kelvin, level}}, + device_ids)",
    "fade_level (target level, + minutes, direction raise|lower, device_ids)",
    "fade_color_temperature (target kelvin, + minutes, direction, device_ids)",
    "start_level_change (raise|lower, + device_ids) / stop_level_change (device ids)",
    "adjust_level (-100..100, + device_ids)",
)
# the spec's device actions of Rule Machine's dimmerActs / switchActs subtypes (the on-hub
# server's fields): the key's value, then the extra keys each takes (``params``)
DEVICE_ACTION_KINDS = (
    "set_level_per_mode",
    "switch_per_mode",
    "choose_per_mode",
    "color_per_mode",
    "color_temperature_per_mode",
    "fade_level",
    "fade_color_temperature",
    "start_level_change",
    "stop_level_change",
    "adjust_level",
)
PER_MODE_KINDS = DEVICE_ACTION_KINDS[:5]
# the kinds whose value is itself the device list (no device_ids key)
DEVICES_IN_VALUE = ("choose_per_mode", "stop_level_change")
# http_post's content type when the spec names none (the on-hub server's builder default)
DEFAULT_CONTENT_TYPE = "application/x-www-form-urlencoded"
NOT_EXPRESSIBLE = {
    "hsm": "an HSM status trigger or condition (no evidence of Rule Machine's fields for it; "
    "use the HSM tools, or a mode the HSM rules follow)",
    "days": "a days-of-week condition (no evidence of Rule Machine's fields for it)",
}
# the spec's name for Rule Machine's Private Boolean condition (this rule's own boolean)
PRIVATE_BOOLEAN = "private_boolean"


@dataclass(frozen=True, slots=True)
class Duration:
    """A length of time."""

    hours: int = 0
    minutes: int = 0
    seconds: int = 0

    @property
    def total(self) -> int:
        """In seconds."""
        return self.hours * 3600 + self.minutes * 60 + self.seconds

    def as_dict(self) -> dict[str, int]:
        """The spec form (zero parts left out)."""
        out = {"hours": self.hours, "minutes": self.minutes, "seconds": self.seconds}
        return {k: v for k, v in out.items() if v} or {"seconds": 0}


@dataclass(frozen=True, slots=True)
class DeviceTest:
    """A device attribute test: ``is`` a state, an ``op``/``value`` comparison, or a change."""

    device_ids: tuple[str, ...]
    attribute: str
    op: str  # eq ne lt lte gt gte, or "changes"
    value: Any = None
    all: bool = False
    # a Wait for Events event's "and stays" (a trigger's is Trigger.stays_for)
    stays_for: Duration | None = None

    def as_dict(self) -> dict[str, Any]:
        """The spec form."""
        out: dict[str, Any] = (
            {"device_id": self.device_ids[0]}
            if len(self.device_ids) == 1
            else {"device_ids": list(self.device_ids)}
        )
        out["attribute"] = self.attribute
        if self.op == "changes":
            out["changes"] = True
        elif self.op == "eq" and isinstance(self.value, str):
            out["is"] = self.value
        else:
            out["op"], out["value"] = self.op, self.value
        if self.all:
            out["all"] = True
        if self.stays_for is not None:
            out["stays_for"] = self.stays_for.as_dict()
        return out


@dataclass(frozen=True, slots=True)
class TimePoint:
    """A time of day: ``at`` HH:MM, or a sun event with an offset in minutes."""

    at: str | None = None
    sun: str | None = None
    offset_minutes: int = 0

    def as_value(self) -> Any:
        """The spec form."""
        if self.at is not None:
            return self.at
        if self.offset_minutes:
            return {"sun": self.sun, "offset_minutes": self.offset_minutes}
        return self.sun


@dataclass(frozen=True, slots=True)
class Periodic:
    """A Periodic Schedule (see ``docs/automation-spec.md``): ``frequency`` (a :data:`PERIODS`
    key) with the parts that frequency takes; ``at`` the time of day (``HH:MM``)."""

    frequency: str
    every: int | None = None  # every N seconds / minutes / hours / days
    minutes: tuple[int, ...] = ()  # minutes: at these minutes of the hour
    hours: tuple[int, ...] = ()  # hourly: at these hours
    minute: int | None = None  # hourly at hours: this minute past
    weekdays_only: bool = False  # daily
    days_of_month: tuple[int, ...] = ()  # daily: on these days of the month
    days: tuple[str, ...] = ()  # weekly: these weekdays (WEEKDAYS order)
    day: int | None = None  # monthly: this day of the month
    every_months: int | None = None  # monthly: every N months
    week: str | None = None  # monthly / yearly: the nth weekday's week (WEEKS)
    weekday: str | None = None  # monthly / yearly: the nth weekday's day (WEEKDAYS)
    month: str | None = None  # yearly (MONTHS)
    at: str | None = None
    cron: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The spec form (the parts set, in a fixed order)."""
        out: dict[str, Any] = {"frequency": self.frequency}
        parts: tuple[tuple[str, Any], ...] = (
            ("every", self.every),
            ("minutes", list(self.minutes) or None),
            ("hours", list(self.hours) or None),
            ("minute", self.minute),
            ("weekdays_only", self.weekdays_only or None),
            ("days_of_month", list(self.days_of_month) or None),
            ("days", list(self.days) or None),
            ("day", self.day),
            ("week", self.week),
            ("weekday", self.weekday),
            ("month", self.month),
            ("every_months", self.every_months),
            ("at", self.at),
            ("cron", self.cron),
        )
        out.update((k, v) for k, v in parts if v is not None)
        return out


@dataclass(frozen=True, slots=True)
class Trigger:
    """One trigger: ``kind`` device, button, time, every, periodic, mode or variable;
    ``only_if`` the condition Rule Machine binds to a conditional trigger."""

    kind: str
    test: DeviceTest | None = None
    stays_for: Duration | None = None
    time: TimePoint | None = None
    every: Duration | None = None
    modes: tuple[str, ...] = ()
    variable: str | None = None
    op: str | None = None
    value: Any = None
    button: int | None = None
    event: str | None = None
    periodic: Periodic | None = None
    date: str | None = None  # a time trigger's day (YYYY-MM-DD): it fires once
    only_if: Condition | None = None

    def as_dict(self) -> dict[str, Any]:
        """The spec form."""
        out = self._base()
        if self.only_if is not None:
            out["only_if"] = self.only_if.as_dict()
        return out

    def _base(self) -> dict[str, Any]:
        if self.kind == "device" and self.test is not None:
            out = self.test.as_dict()
            if self.stays_for is not None:
                out["stays_for"] = self.stays_for.as_dict()
            return out
        if self.kind == "button" and self.test is not None:
            return {
                "button_device_id": self.test.device_ids[0],
                "button": self.button,
                "event": self.event,
            }
        if self.kind == "time" and self.time is not None:
            if self.time.at is not None:
                dated = {"date": self.date} if self.date is not None else {}
                return {"time": self.time.at, **dated}
            return {"sun": self.time.sun, "offset_minutes": self.time.offset_minutes}
        if self.kind == "every" and self.every is not None:
            return {"every": self.every.as_dict()}
        if self.kind == "periodic" and self.periodic is not None:
            return {"periodic": self.periodic.as_dict()}
        if self.kind == "mode":
            return {"mode": list(self.modes)}
        if self.op == "changes":
            return {"variable": self.variable, "changes": True}
        return {"variable": self.variable, "op": self.op, "value": self.value}


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition (a leaf of an expression): device, mode, between, dates (``value``: the
    from and to as canonical ``MM-DD`` or ``MM-DD HH:MM`` text) or variable."""

    kind: str
    test: DeviceTest | None = None
    modes: tuple[str, ...] = ()
    start: TimePoint | None = None
    end: TimePoint | None = None
    variable: str | None = None
    op: str | None = None
    value: Any = None
    negated: bool = False
    # compare_to: the right-hand side is another device's reading (plus an offset) or another
    # variable, instead of ``value``
    ref_device: str | None = None
    offset: int | float = 0
    ref_variable: str | None = None

    def compare_to(self) -> dict[str, Any] | None:
        """The spec form of the right-hand side when it is a device or a variable."""
        if self.ref_device is not None:
            ref: dict[str, Any] = {"device_id": self.ref_device}
            if self.offset:
                ref["offset"] = self.offset
            return ref
        if self.ref_variable is not None:
            return {"variable": self.ref_variable}
        return None

    def as_dict(self) -> dict[str, Any]:
        """The spec form."""
        out: dict[str, Any]
        ref = self.compare_to()
        if self.kind == "device" and self.test is not None:
            out = self.test.as_dict()
            if ref is not None:
                out = {k: v for k, v in out.items() if k not in ("is", "value")}
                out["op"], out["compare_to"] = self.test.op, ref
        elif self.kind == "private_boolean":
            out = {"private_boolean": bool(self.value)}
        elif self.kind == "mode":
            out = {"mode": list(self.modes)}
        elif self.kind == "between" and self.start is not None and self.end is not None:
            out = {"between": {"from": self.start.as_value(), "to": self.end.as_value()}}
        elif self.kind == "dates":
            out = {"dates": {"from": self.value[0], "to": self.value[1]}}
        elif ref is not None:
            out = {"variable": self.variable, "op": self.op, "compare_to": ref}
        else:
            out = {"variable": self.variable, "op": self.op, "value": self.value}
        return {"not": out} if self.negated else out


@dataclass(frozen=True, slots=True)
class Expression:
    """Conditions joined by one operator (AND or OR); an item may itself be a group in
    brackets (Rule Machine's sub-expression)."""

    conditions: tuple[Condition | Expression, ...]
    operator: str = "AND"

    def leaves(self, path: str) -> Iterator[tuple[str, Condition]]:
        """Every condition with its path (``path[i]`` per item, ``path`` for a lone one)."""
        for i, item in enumerate(self.conditions):
            here = f"{path}[{i}]" if len(self.conditions) > 1 else path
            if isinstance(item, Expression):
                yield from item.leaves(here)
            else:
                yield here, item

    def nested(self) -> bool:
        """Whether a group sits inside this one."""
        return any(isinstance(c, Expression) for c in self.conditions)

    def as_dict(self) -> dict[str, Any]:
        """The spec form."""
        if len(self.conditions) == 1:
            return self.conditions[0].as_dict()
        key = "all" if self.operator == "AND" else "any"
        return {key: [c.as_dict() for c in self.conditions]}


@dataclass(frozen=True, slots=True)
class Action:
    """One action; ``kind`` is one of :data:`ACTION_KINDS` (the first word)."""

    kind: str
    device_ids: tuple[str, ...] = ()
    command: str | None = None
    arguments: tuple[Any, ...] = ()
    delay: Duration | None = None
    cancelable: bool = False
    events: tuple[DeviceTest, ...] = ()
    timeout: Duration | None = None
    text: str | None = None  # mode name, variable name, message, log text
    value: Any = None
    from_variable: str | None = None
    condition: Expression | None = None
    then: tuple[Action, ...] = ()
    elifs: tuple[Action, ...] = ()  # an if's ELSE-IF branches (kind "else_if": condition, then)
    otherwise: tuple[Action, ...] = ()
    every: Duration | None = None
    rule_ids: tuple[str, ...] = ()
    per_mode: tuple[tuple[str, Duration], ...] = ()  # delay_per_mode: (mode name, delay)
    content_type: str | None = None  # http_post's
    # the extra keys of the newer kinds, in their canonical spec form (minutes, direction,
    # interval_seconds, random, from_device, math ...)
    params: tuple[tuple[str, Any], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The spec form."""
        k = self.kind
        out: dict[str, Any]
        if k == "command":
            out = {"command": self.command, "device_ids": list(self.device_ids)}
            if self.arguments:
                out["arguments"] = list(self.arguments)
            if self.delay is not None:
                out["delay"] = self.delay.as_dict()
        elif k == "delay" and self.delay is not None:
            out = {"delay": self.delay.as_dict(), **dict(self.params)}
        elif k == "delay_from_variable":
            out = {k: self.text, **dict(self.params)}
        elif k in DEVICE_ACTION_KINDS:
            out = {k: self.value}
            if k not in DEVICES_IN_VALUE:
                out["device_ids"] = list(self.device_ids)
            out.update(self.params)
        elif k == "delay_per_mode":
            out = {k: {mode: d.as_dict() for mode, d in self.per_mode}}
        elif k == "wait":
            out = {"wait": [e.as_dict() for e in self.events]}
            if self.timeout is not None:
                out["timeout"] = self.timeout.as_dict()
        elif k == "wait_until" and self.condition is not None:
            out = {"wait_until": self.condition.as_dict()}
            if self.timeout is not None:
                out["timeout"] = self.timeout.as_dict()
        elif k == "set_mode":
            out = {"set_mode": self.text}
        elif k == "set_variable":
            out = {"set_variable": self.text}
            if self.from_variable is not None:
                out["from_variable"] = self.from_variable
            elif self.params:
                out.update(self.params)
            else:
                out["value"] = self.value
        elif k == "notify":
            out = {"notify": self.text, "device_ids": list(self.device_ids)}
        elif k == "log":
            out = {"log": self.text}
        elif k == "if" and self.condition is not None:
            out = {"if": self.condition.as_dict(), "then": [a.as_dict() for a in self.then]}
            if self.elifs:
                out["else_if"] = [
                    {"if": e.condition.as_dict(), "then": [a.as_dict() for a in e.then]}
                    for e in self.elifs
                    if e.condition is not None
                ]
            if self.otherwise:
                out["else"] = [a.as_dict() for a in self.otherwise]
        elif k == "repeat_while" and self.condition is not None and self.every is not None:
            out = {
                "repeat_while": self.condition.as_dict(),
                "every": self.every.as_dict(),
                **dict(self.params),  # stoppable
                "do": [a.as_dict() for a in self.then],
            }
        elif k == "repeat" and self.every is not None:
            out = {
                "repeat": self.value,
                "every": self.every.as_dict(),
                **dict(self.params),  # stoppable
                "do": [a.as_dict() for a in self.then],
            }
        elif k == "cancel_delays":
            out = {"cancel_delays": True}
        elif k in ("pause_rules", "resume_rules", "cancel_timers"):
            out = {k: list(self.rule_ids)}
        elif k == "set_private_boolean":
            out = {k: bool(self.value)}
            if self.rule_ids:
                out["rule_ids"] = list(self.rule_ids)
        elif k == "set_hsm":
            out = {k: self.text}
        elif k == "exit_rule":
            out = {k: True}
        elif k == "comment":
            out = {k: self.text}
        elif k in ("capture", "disable_devices", "enable_devices"):
            out = {k: list(self.device_ids)}
        elif k == "restore":
            out = {k: True}
        elif k in ("write_file", "append_file"):
            out = {k: self.text, "text": self.value}
        elif k in ("delete_file", "http_get", "ping"):
            out = {k: self.text}
        elif k == "http_post":
            out = {k: self.text, "body": self.value, "content_type": self.content_type}
        else:
            out = {"run_rule": list(self.rule_ids)}
        if self.cancelable and k in ("command", "delay", "delay_per_mode", "delay_from_variable"):
            out["cancelable"] = True
        return out

    def walk(self) -> list[Action]:
        """This action and every action nested in it, in order."""
        found: list[Action] = [self]
        for sub in (*self.then, *self.elifs, *self.otherwise):
            found.extend(sub.walk())
        return found


@dataclass(frozen=True, slots=True)
class LocalVariable:
    """One of the rule's own variables (Rule Machine's Local Variables), with its start value."""

    name: str
    type: str  # a LOCAL_TYPES key
    value: Any

    def as_dict(self) -> dict[str, Any]:
        """The canonical form."""
        return {"name": self.name, "type": self.type, "value": self.value}


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """A whole rule."""

    name: str
    triggers: tuple[Trigger, ...]
    actions: tuple[Action, ...]
    conditions: Expression | None = None
    paused: bool = False
    enabled: bool = True
    logging: tuple[str, ...] = field(default_factory=tuple)
    local_variables: tuple[LocalVariable, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        """The canonical spec (what a read-back is compared with)."""
        out: dict[str, Any] = {
            "name": self.name,
            "triggers": [t.as_dict() for t in self.triggers],
            "actions": [a.as_dict() for a in self.actions],
        }
        if self.conditions is not None:
            out["conditions"] = self.conditions.as_dict()
        if self.paused:
            out["paused"] = True
        if not self.enabled:
            out["enabled"] = False
        if self.logging:
            out["logging"] = list(self.logging)
        if self.local_variables:
            out["local_variables"] = [
                v.as_dict() for v in sorted(self.local_variables, key=lambda v: v.name.lower())
            ]
        return out

    def all_actions(self) -> list[Action]:
        """Every action, nested ones included, in order."""
        return [sub for a in self.actions for sub in a.walk()]
