"""Reading a Rule Machine 5.1 rule's stored settings: values, triggers and conditions.

The settings names are the ones ``docs/rule-machine-pages.md`` lists. Triggers (``tCapab<N>``)
and the events of a Wait for Events (``tCapab-<E>``) share one shape, so both parse into a
:class:`EventSpec`; conditions (``rCapab_<C>``) evaluate against the home's current state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from .clock import HUB_TZ, parse_hub_datetime
from .model import HomeState
from .rule_dates import DATES, in_dates
from .rule_definition import ExprToken
from .rule_periodic import periodic_cron

# trigger / condition capability option -> the device attribute it reads
DEVICE_ATTRS: dict[str, str] = {
    "Switch": "switch",
    "Motion": "motion",
    "Contact": "contact",
    "Lock": "lock",
    "Presence": "presence",
    "Water": "water",
    "Smoke": "smoke",
    "Acceleration": "acceleration",
    "Door": "door",
    "Garage door": "door",
    "Valve": "valve",
    "Window Shade": "windowShade",
    "Temperature": "temperature",
    "Humidity": "humidity",
    "Illuminance": "illuminance",
    "Battery": "battery",
    "Power": "power",
    "Energy": "energy",
    "Dimmer level": "level",
}
CHANGED = "*changed*"
BUTTON_EVENTS = ("pushed", "held", "doubleTapped", "released")

SunTimes = Callable[[date], tuple[datetime, datetime]]
Key = Callable[[str], str]


def as_bool(value: object) -> bool:
    return value is True or str(value).strip().lower() == "true"


def as_float(value: object) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def as_int(value: object, default: int = 0) -> int:
    num = as_float(value)
    return int(num) if num is not None else default


def id_list(value: object) -> list[int]:
    """Device / mode / rule ids as the hub stores them: ``"5,7"``, ``[5, "7"]`` or ``5``."""
    if value is None or isinstance(value, bool):
        return []
    items: list[object]
    if isinstance(value, (list, tuple, set)):
        items = list(value)
    else:
        items = list(str(value).strip("[]").split(","))
    out: list[int] = []
    for item in items:
        text = str(item).strip().strip('"')
        if text.lstrip("-").isdigit():
            out.append(int(text))
    return out


def compare(value: object, op: str, target: object) -> bool:
    """``value <op> target``: numbers when both read as numbers, else text (``=``/``≠``)."""
    if op == CHANGED:
        return True
    a, b = as_float(value), as_float(target)
    if a is not None and b is not None:
        return {
            "=": a == b,
            "≠": a != b,
            "!=": a != b,
            "<": a < b,
            ">": a > b,
            "<=": a <= b,
            ">=": a >= b,
        }.get(op, False)
    sa, sb = str(value), str(target)
    if op == "=":
        return sa == sb
    if op in ("≠", "!="):
        return sa != sb
    return False


def duration(settings: dict[str, Any], hours: str, minutes: str, seconds: str) -> float:
    """Seconds from three numeric settings (missing ones count as 0)."""
    h, m, s = (as_float(settings.get(k)) or 0.0 for k in (hours, minutes, seconds))
    return h * 3600 + m * 60 + s


def eval_tokens(tokens: list[ExprToken], truth: Callable[[int], bool]) -> bool:
    """An expression as Rule Machine evaluates it: left to right, stopping at the first false
    before an AND or the first true before an OR (its author's description, and two live
    tests: ``F AND F OR T`` is false), a bracket a sub-expression evaluated on its own; XOR
    folds. ``[1, "AND", "(", 2, "OR", 3, ")"]``."""
    pos = 0

    def chain() -> bool:
        nonlocal pos
        result: bool | None = None
        op = "AND"
        while pos < len(tokens):
            tok = tokens[pos]
            pos += 1
            if tok == ")":
                break
            if isinstance(tok, str) and tok != "(" and not tok.isdigit():
                op = tok.upper()
                if (op == "AND" and result is False) or (op == "OR" and result is True):
                    _skip_chain()
                    break
                continue
            val = chain() if tok == "(" else truth(int(tok))
            if result is None or op in ("AND", "OR"):
                result = val  # an AND after true, an OR after false: the right side decides
            elif op == "XOR":
                result = result != val
        return bool(result) if result is not None else True

    def _skip_chain() -> None:
        nonlocal pos
        depth = 0
        while pos < len(tokens):
            tok = tokens[pos]
            if tok == ")" and depth == 0:
                pos += 1
                return
            depth += (tok == "(") - (tok == ")")
            pos += 1

    return chain()


# ---------------------------------------------------------------------------------- times


@dataclass(frozen=True)
class DayTime:
    """A time of day: a fixed local time, or sunrise/sunset plus an offset in minutes."""

    kind: str  # "time" | "Sunrise" | "Sunset"
    at: time = time(0)
    offset_min: float = 0.0

    def on(self, day: date, sun: SunTimes) -> datetime:
        """The instant on the local date ``day``."""
        if self.kind == "Sunrise":
            return sun(day)[0] + timedelta(minutes=self.offset_min)
        if self.kind == "Sunset":
            return sun(day)[1] + timedelta(minutes=self.offset_min)
        return datetime.combine(day, self.at, tzinfo=HUB_TZ)

    def next_after(self, now: datetime, sun: SunTimes) -> datetime:
        day = now.astimezone(HUB_TZ).date() - timedelta(days=1)
        for i in range(4):
            when = self.on(day + timedelta(days=i), sun)
            if when > now:
                return when
        return self.on(day + timedelta(days=4), sun)  # pragma: no cover - unreachable


def time_of_day(text: object) -> time | None:
    """The hub-local time of day of a stored time input (``2000-01-01T22:00:00.000-0700``)."""
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        dt = parse_hub_datetime(text)
    except ValueError:
        return None
    # the stored date is a placeholder: the hub takes that instant's time of day in its zone
    return dt.astimezone(HUB_TZ).time().replace(microsecond=0)


def dated(text: object) -> datetime | None:
    """A stored time whose date is a real one (not the 2000-01-01 placeholder of a daily
    time): the instant a Certain Time trigger fires once (the on-hub server's
    ``_rmNormalizeAtTime``: an ISO datetime is one-shot dated; *no evidence* of how Rule
    Machine tells the placeholder apart, the emulator takes the year 2000 for it)."""
    if not isinstance(text, str) or text.startswith("2000-"):
        return None
    try:
        return parse_hub_datetime(text)
    except ValueError:
        return None


def day_time(kind: object, at: object, rise_offset: object, set_offset: object) -> DayTime | None:
    if kind == "Sunrise":
        return DayTime("Sunrise", offset_min=as_float(rise_offset) or 0.0)
    if kind == "Sunset":
        return DayTime("Sunset", offset_min=as_float(set_offset) or 0.0)
    tod = time_of_day(at)
    return DayTime("time", at=tod) if tod is not None else None


def in_window(now: datetime, start: DayTime, end: DayTime, sun: SunTimes) -> bool:
    """Whether ``now`` is between ``start`` and ``end`` (end exclusive); a window whose end
    comes before its start wraps across midnight (Sunset to Sunrise)."""
    today = now.astimezone(HUB_TZ).date()
    for day in (today - timedelta(days=1), today):
        s = start.on(day, sun)
        e = end.on(day, sun)
        if e <= s:
            e = end.on(day + timedelta(days=1), sun)
        if s <= now < e:
            return True
    return False


# ---------------------------------------------------------------------------------- events


@dataclass
class EventSpec:
    """What a trigger or a wait event listens for."""

    kind: str  # "device" | "button" | "mode" | "variable" | "time" | "periodic"
    devices: list[int] = field(default_factory=list)
    attr: str = ""
    op: str = "="
    state: object = None
    all_devices: bool = False
    stays: float = 0.0  # seconds; 0 = no "and stays"
    modes: list[int] = field(default_factory=list)
    variable: str = ""
    when: DayTime | None = None
    cron: str | None = None  # a Periodic Schedule as Quartz cron (rule_periodic)
    at: datetime | None = None  # a Certain Time with a date: that instant, once

    def matches_value(self, value: object) -> bool:
        if self.op == CHANGED or self.state == CHANGED:
            return True
        return compare(value, self.op, self.state)


def parse_event(settings: dict[str, Any], key: Key) -> EventSpec | None:
    """One trigger (``key("tCapab") == "tCapab3"``) or wait event (``"tCapab-1"``)."""
    cap = settings.get(key("tCapab"))
    if not isinstance(cap, str):
        return None
    devices = id_list(settings.get(key("tDev")))
    rel = settings.get(key("ReltDev"))
    state = settings.get(key("tstate"))
    spec: EventSpec | None = None
    if cap in DEVICE_ATTRS:
        op = str(rel) if rel else ("=" if state != CHANGED else CHANGED)
        spec = EventSpec("device", devices, DEVICE_ATTRS[cap], op, state)
    elif cap == "Custom Attribute":
        attr = str(settings.get(key("tCustomAttr")) or "")
        spec = EventSpec("device", devices, attr, str(rel or "="), state)
    elif cap == "Button":
        number = as_int(settings.get(key("ButtontDev")), 1)
        spec = EventSpec("button", devices, str(state or "pushed"), "=", number)
    elif cap == "Mode":
        return EventSpec("mode", modes=id_list(settings.get(key("modesX"))))
    elif cap == "Variable":
        name = str(settings.get(key("xVar")) or "")
        return EventSpec("variable", variable=name, op=str(rel or "="), state=state)
    elif cap.startswith("Certain Time"):
        n = key("")
        when = day_time(
            settings.get(f"time{n}"),
            settings.get(f"atTime{n}"),
            settings.get(f"atSunriseOffset{n}"),
            settings.get(f"atSunsetOffset{n}"),
        )
        if when is None:
            return None
        return EventSpec("time", when=when, at=dated(settings.get(f"atTime{n}")))
    elif cap == "Periodic Schedule":
        n = key("")
        cron = periodic_cron(settings, int(n)) if n.isdigit() else None
        return EventSpec("periodic", cron=cron) if cron else None
    if spec is None:
        return None
    spec.all_devices = as_bool(settings.get(key("AlltDev")))
    if as_bool(settings.get(key("stays"))):
        spec.stays = duration(settings, key("SHours"), key("SMins"), key("SSecs"))
    return spec


# ---------------------------------------------------------------------------------- conditions


class Conditions:
    """Evaluates ``rCapab_<C>`` conditions against the home's state and the hub's clock."""

    def __init__(self, state: HomeState, now: Callable[[], datetime], sun: SunTimes) -> None:
        self.state = state
        self.now = now
        self.sun = sun

    def device_value(self, device_id: int, attr: str) -> object:
        dev = self.state.devices.get(device_id)
        if dev is None or attr not in dev.attrs:
            return None
        return dev.attrs[attr].value

    def variable_value(self, name: str) -> object:
        var = self.state.variables.get(name)
        return None if var is None else var.value

    def truth(
        self,
        settings: dict[str, Any],
        c: int,
        local_vars: dict[str, dict[str, Any]] | None = None,
        *,
        private: bool = True,
    ) -> bool:
        val = self._raw(settings, c, local_vars or {}, private)
        return not val if as_bool(settings.get(f"not{c}")) else val

    def expression(
        self,
        settings: dict[str, Any],
        tokens: list[ExprToken] | None,
        local_vars: dict[str, dict[str, Any]] | None = None,
        *,
        private: bool = True,
    ) -> bool:
        """The expression's value; ``local_vars``: the rule's own variables (they come first,
        as in the rule's variable pickers); ``private``: the rule's private boolean."""
        if not tokens:
            return True
        return eval_tokens(tokens, lambda c: self.truth(settings, c, local_vars, private=private))

    def _variable(self, name: str, local_vars: dict[str, dict[str, Any]]) -> object:
        local = local_vars.get(name)
        return local["value"] if local is not None else self.variable_value(name)

    def _raw(
        self, s: dict[str, Any], c: int, local_vars: dict[str, dict[str, Any]], private: bool
    ) -> bool:
        cap = s.get(f"rCapab_{c}")
        if cap == "Private Boolean":  # state_<C> "true" / "false"
            return private == as_bool(s.get(f"state_{c}"))
        if cap == "Mode":
            return self.state.current_mode_id in id_list(s.get(f"modes{c}"))
        if cap == "Between two times":
            start = day_time(
                s.get(f"starting{c}"),
                s.get(f"startingA{c}"),
                s.get(f"startSunriseOffset{c}"),
                s.get(f"startSunsetOffset{c}"),
            )
            end = day_time(
                s.get(f"ending{c}"),
                s.get(f"endingA{c}"),
                s.get(f"endSunriseOffset{c}"),
                s.get(f"endSunsetOffset{c}"),
            )
            if start is None or end is None:
                return False
            return in_window(self.now(), start, end, self.sun)
        if cap == DATES:
            return in_dates(self.now(), s, c)
        if cap == "Variable":
            value = self._variable(str(s.get(f"xVar_{c}") or ""), local_vars)
            want = s.get(f"state_{c}")
            if as_bool(s.get(f"isVar_{c}")):  # against another variable (xVarR_<C>)
                want = self._variable(str(s.get(f"xVarR_{c}") or ""), local_vars)
                if want is None:
                    return False
            return compare(value, str(s.get(f"RelrDev_{c}") or "="), want)
        if isinstance(cap, str) and cap in DEVICE_ATTRS:
            devices = id_list(s.get(f"rDev_{c}"))
            op = str(s.get(f"RelrDev_{c}") or "=")
            want = s.get(f"state_{c}")
            if as_bool(s.get(f"isDev_{c}")):  # the reference device's reading plus the offset
                refs = id_list(s.get(f"relDevice_{c}"))
                ref = as_float(self.device_value(refs[0], DEVICE_ATTRS[cap])) if refs else None
                if ref is None:
                    return False
                want = ref + (as_float(want) or 0.0)
            hits = [compare(self.device_value(d, DEVICE_ATTRS[cap]), op, want) for d in devices]
            if not hits:
                return False
            return all(hits) if as_bool(s.get(f"AllrDev_{c}")) else any(hits)
        return False  # a condition we do not model is false (RM shows it broken)
