"""The Integrated Mode Manager's triggers: the hub's wire shape <-> what they mean.

The wire shapes are the hub UI's own (``vue-hub2.min.js``: ``TimeCondition.updateData`` and
``DeviceCondition.updateData`` of the ``ModeController`` dialog, its trigger list ``Ube``
and device events ``Kbe``): every trigger has ``triggerType``, ``triggerCondition``,
``description`` and ``deviceIds``, plus its own keys (``timeOfDay`` as ``HH:MM``;
``minutesBeforeSunrise``...; ``presenceSensors`` + ``presenceSensorEvent``; ``switches`` +
``switchEvent``; ``buttons`` + ``buttonEvent`` + ``buttonIndex``; ``illuminanceSensors`` +
``illuminanceSensorEvent`` + ``illuminance``). A ``daysOfWeek`` entry (0 = Sunday) closes a
mode's list.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import ToolError
from ..hub.models import norm_id

DAY_NAMES = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
TRIGGER_TYPES = ("time", "sunrise", "sunset", "presence", "switch", "button", "illuminance")
# (triggerCondition, minutes key) by (sun event, sign of the offset)
_SUN = {
    ("sunrise", -1): ("beforeSunrise", "minutesBeforeSunrise"),
    ("sunrise", 0): ("sunrise", None),
    ("sunrise", 1): ("afterSunrise", "minutesAfterSunrise"),
    ("sunset", -1): ("beforeSunset", "minutesBeforeSunset"),
    ("sunset", 0): ("sunset", None),
    ("sunset", 1): ("afterSunset", "minutesAfterSunset"),
}
_SUN_BY_CONDITION = {cond: (event, sign, key) for (event, sign), (cond, key) in _SUN.items()}
PRESENCE_EVENTS = {"leaves": "Everyone leaves", "arrives": "Someone arrives"}
SWITCH_EVENTS = {"on": "Turns on", "off": "Turns off"}
SWITCH_STAYS = {"on": "Turns on and stays on for...", "off": "Turns off and stays off for..."}
BUTTON_EVENTS = {
    "pushed": "Pushed",
    "held": "Held",
    "released": "Released",
    "double_tapped": "Double tapped",
}
ILLUMINANCE_EVENTS = {
    "rises_above": "Illuminance has risen above...",
    "falls_below": "Illuminance has fallen below...",
}
_CLOCK_RE = re.compile(r"^\s*(\d{1,2}):(\d{2})(?::\d{2})?\s*([AaPp][Mm])?\s*$")
_TAG_RE = re.compile(r"<[^>]*>")


def _reverse(table: dict[str, str]) -> dict[str, str]:
    return {wire: word for word, wire in table.items()}


def _ids(value: Any) -> list[str]:
    items = value if isinstance(value, list) else []
    return [i for i in (norm_id(v) for v in items) if i is not None]


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(float(str(value)))
    except (TypeError, ValueError, OverflowError):
        return default


def plain(text: Any) -> str:
    """The hub's description without its HTML tags."""
    return _TAG_RE.sub("", str(text or "")).strip()


def is_days_entry(item: dict[str, Any]) -> bool:
    """The ``daysOfWeek`` entry that closes a mode's trigger list."""
    return item.get("triggerType") == "daysOfWeek"


def day_names(item: dict[str, Any]) -> list[str]:
    """A ``daysOfWeek`` entry's days as names (Sun..Sat)."""
    raw = item.get("daysOfWeek")
    days: list[Any] = raw if isinstance(raw, list) else []
    return [DAY_NAMES[d] for d in sorted({_int(d, -1) for d in days}) if 0 <= d < 7]


def describe(item: dict[str, Any]) -> dict[str, Any]:
    """One wire trigger as what it means (unknown kinds keep their type and the hub's text)."""
    kind = str(item.get("triggerType") or "")
    out: dict[str, Any]
    if kind == "timeOfDay":
        out = {"type": "time", "at": item.get("timeOfDay")}
    elif kind == "sunriseSunset" and item.get("triggerCondition") in _SUN_BY_CONDITION:
        event, sign, key = _SUN_BY_CONDITION[str(item["triggerCondition"])]
        out = {"type": event, "offset_minutes": sign * _int(item.get(key)) if key else 0}
    elif kind == "presence":
        out = {
            "type": "presence",
            "event": _reverse(PRESENCE_EVENTS).get(str(item.get("presenceSensorEvent"))),
            "device_ids": _ids(item.get("presenceSensors") or item.get("deviceIds")),
        }
    elif kind == "switch":
        wire = str(item.get("switchEvent"))
        stays = _reverse(SWITCH_STAYS).get(wire)
        out = {
            "type": "switch",
            "event": stays or _reverse(SWITCH_EVENTS).get(wire),
            "device_ids": _ids(item.get("switches") or item.get("deviceIds")),
        }
        if stays:
            out["stays_minutes"] = _int(item.get("switchStaysMinutes"))
            out["stays_seconds"] = _int(item.get("switchStaysSeconds"))
    elif kind == "button":
        out = {
            "type": "button",
            "event": _reverse(BUTTON_EVENTS).get(str(item.get("buttonEvent"))),
            "button": _int(item.get("buttonIndex"), 1),
            "device_ids": _ids(item.get("buttons") or item.get("deviceIds")),
        }
    elif kind == "illuminance":
        out = {
            "type": "illuminance",
            "event": _reverse(ILLUMINANCE_EVENTS).get(str(item.get("illuminanceSensorEvent"))),
            "value": item.get("illuminance"),
            "device_ids": _ids(item.get("illuminanceSensors") or item.get("deviceIds")),
        }
    else:
        out = {"type": kind or "unknown"}
    if text := plain(item.get("description")):
        out["description"] = text
    return out


def _clock(value: Any) -> str:
    m = _CLOCK_RE.match(str(value or ""))
    if m is None:
        raise ToolError(f"A time trigger needs at='HH:MM' (24 h, e.g. 22:30); got {value!r}.")
    hour, minute, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").lower()
    if half:
        if not 1 <= hour <= 12:
            raise ToolError(f"'{value}' is not a time of day.")
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59:
        raise ToolError(f"'{value}' is not a time of day.")
    return f"{hour:02d}:{minute:02d}"


def _device_ids(spec: dict[str, Any], kind: str) -> list[int]:
    raw = spec.get("device_ids")
    items = raw if isinstance(raw, list) else [raw] if raw not in (None, "") else []
    ids: list[int] = []
    for v in items:
        text = str(v).strip()
        if not text.isdigit():
            raise ToolError(f"A {kind} trigger's device_ids must be numeric device ids; got {v!r}.")
        ids.append(int(text))
    if not ids:
        raise ToolError(f"A {kind} trigger needs device_ids (the devices it watches).")
    return ids


def _event(spec: dict[str, Any], kind: str, table: dict[str, str], default: str | None) -> str:
    word = str(spec.get("event") or default or "").strip().lower()
    if word not in table:
        raise ToolError(f"A {kind} trigger's event is one of {', '.join(table)}; got {word!r}.")
    return word


def _base(kind: str, description: str, ids: list[int] | None = None) -> dict[str, Any]:
    return {
        "triggerType": kind,
        "triggerCondition": None,
        "description": description,
        "deviceIds": ids or [],
    }


def build(spec: Any) -> dict[str, Any]:
    """One trigger as the hub stores it, from what it means; ToolError on a bad spec."""
    if not isinstance(spec, dict):
        raise ToolError(f"Each trigger is an object with a type; got {spec!r}.")
    kind = str(spec.get("type") or "").strip().lower()
    if kind == "time":
        clock = _clock(spec.get("at"))
        return {**_base("timeOfDay", f"At {clock}"), "timeOfDay": clock}
    if kind in ("sunrise", "sunset"):
        offset = _int(spec.get("offset_minutes"), 0)
        if abs(offset) > 1439:
            raise ToolError("offset_minutes is at most 1439 either way.")
        sign = (offset > 0) - (offset < 0)
        condition, key = _SUN[(kind, sign)]
        when = "before" if offset < 0 else "after"
        text = f"{abs(offset)} minutes {when} {kind}" if offset else f"At {kind}"
        out = {**_base("sunriseSunset", text), "triggerCondition": condition}
        if key:
            out[key] = abs(offset)
        return out
    if kind == "presence":
        ids = _device_ids(spec, kind)
        wire = PRESENCE_EVENTS[_event(spec, kind, PRESENCE_EVENTS, None)]
        return {
            **_base("presence", f"When {wire.lower()}", ids),
            "presenceSensors": ids,
            "presenceSensorEvent": wire,
        }
    if kind == "switch":
        ids = _device_ids(spec, kind)
        word = _event(spec, kind, SWITCH_EVENTS, None)
        minutes, seconds = _int(spec.get("stays_minutes")), _int(spec.get("stays_seconds"))
        wire = SWITCH_STAYS[word] if minutes or seconds else SWITCH_EVENTS[word]
        out = {
            **_base("switch", f"When a switch {wire.lower()}", ids),
            "switches": ids,
            "switchEvent": wire,
        }
        if minutes or seconds:
            out |= {"switchStaysMinutes": minutes, "switchStaysSeconds": seconds}
        return out
    if kind == "button":
        ids = _device_ids(spec, kind)
        wire = BUTTON_EVENTS[_event(spec, kind, BUTTON_EVENTS, "pushed")]
        index = _int(spec.get("button"), 1)
        if index < 1:
            raise ToolError("A button trigger's button number starts at 1.")
        return {
            **_base("button", f"When button {index} {wire.lower()}", ids),
            "buttons": ids,
            "buttonEvent": wire,
            "buttonIndex": index,
        }
    if kind == "illuminance":
        ids = _device_ids(spec, kind)
        wire = ILLUMINANCE_EVENTS[_event(spec, kind, ILLUMINANCE_EVENTS, None)]
        value = _int(spec.get("value"), -1)
        if not 0 <= value <= 10000:
            raise ToolError("An illuminance trigger needs value (0-10000 lux).")
        return {
            **_base("illuminance", f"When {wire.lower().rstrip('.')} {value} lux", ids),
            "illuminanceSensors": ids,
            "illuminanceSensorEvent": wire,
            "illuminance": value,
        }
    raise ToolError(f"Unknown trigger type {kind!r}. Use one of {', '.join(TRIGGER_TYPES)}.")


def days_entry(days: list[int], index: int) -> dict[str, Any]:
    """The ``daysOfWeek`` entry the hub UI appends (``appendDaysOfWeekCondition``)."""
    names = ", ".join(DAY_NAMES[d] for d in days)
    return {
        "deviceIds": [],
        "index": index,
        "triggerType": "daysOfWeek",
        "daysOfWeek": days,
        "description": f"When day is {names}",
        "type": "when",
    }


def parse_days(days: list[str]) -> list[int]:
    """Day names (Sun..Sat, any case, 3+ letters) or numbers 0-6 as sorted day numbers."""
    out: set[int] = set()
    for day in days:
        text = str(day).strip().lower()
        if text.isdigit() and int(text) < 7:
            out.add(int(text))
            continue
        match = [i for i, name in enumerate(DAY_NAMES) if text[:3] == name.lower()]
        if len(text) < 3 or not match:
            raise ToolError(f"'{day}' is not a day; use Sun, Mon, Tue, Wed, Thu, Fri or Sat.")
        out.add(match[0])
    if not out:
        raise ToolError("days needs at least one day.")
    return sorted(out)


def same_trigger(sent: dict[str, Any], read: dict[str, Any]) -> bool:
    """Whether the hub kept a trigger as sent (its text and extra keys aside)."""
    for key, value in sent.items():
        if key == "description":
            continue
        got = read.get(key)
        if isinstance(value, list):
            if _ids(value) != _ids(got) and value != got:
                return False
        elif value != got and str(value) != str(got):
            return False
    return True
