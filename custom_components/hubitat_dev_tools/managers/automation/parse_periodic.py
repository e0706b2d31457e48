"""Reading a trigger's ``periodic`` part (Rule Machine's Periodic Schedule), a time trigger's
``date``, and a cron string, with errors that name the wrong part and what it may be.

Which parts each frequency takes follows the on-hub server's periodic write block and its shape
checks (``mcp-native-rules-lib.groovy``: ``_rmPeriodicShapeError``, the count enum of Seconds and
Minutes, Monthly's two exclusive modes, Yearly always an nth weekday). The cron string is a
Quartz one (seconds first), as the hub's ``schedule()`` takes.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from ...errors import ToolError
from .parse_base import _bool, _fail, _int, _list, _obj, _unknown
from .spec import MINUTE_STEPS, MONTHS, PERIODS, WEEKDAYS, WEEKS, Periodic

_HHMM_RE = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
_YMD_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
# the parts each frequency may take (beside frequency); the first group: one of them is needed
_PARTS: dict[str, set[str]] = {
    "seconds": {"every"},
    "minutes": {"every", "minutes"},
    "hourly": {"every", "at", "hours", "minute"},
    "daily": {"every", "weekdays_only", "days_of_month", "at"},
    "weekly": {"days", "at"},
    "monthly": {"day", "every_months", "week", "weekday", "at"},
    "yearly": {"week", "weekday", "month", "at"},
    "cron": {"cron"},
}
_EXAMPLES = {
    "seconds": '{"frequency": "seconds", "every": 5}',
    "minutes": '{"frequency": "minutes", "every": 15} or {"frequency": "minutes", '
    '"minutes": [0, 30]}',
    "hourly": '{"frequency": "hourly", "every": 2, "at": "00:15"} or {"frequency": "hourly", '
    '"hours": [6, 18], "minute": 15}',
    "daily": '{"frequency": "daily", "every": 1, "at": "07:30"}, {"frequency": "daily", '
    '"weekdays_only": true, "at": "07:30"} or {"frequency": "daily", "days_of_month": [1, 15], '
    '"at": "07:30"}',
    "weekly": '{"frequency": "weekly", "days": ["monday", "friday"], "at": "07:30"}',
    "monthly": '{"frequency": "monthly", "day": 15, "every_months": 1, "at": "09:30"} or '
    '{"frequency": "monthly", "week": "second", "weekday": "monday", "every_months": 1, '
    '"at": "08:00"}',
    "yearly": '{"frequency": "yearly", "week": "first", "weekday": "monday", "month": '
    '"december", "at": "08:00"}',
    "cron": '{"frequency": "cron", "cron": "0 0 12 ? * MON-FRI"}',
}


def _hhmm(value: Any, path: str) -> str:
    if not isinstance(value, str) or not _HHMM_RE.match(value):
        raise _fail(path, f"must be HH:MM (24 h), got {value!r}", "e.g. 07:30.")
    return value


def _numbers(value: Any, path: str, low: int, high: int, what: str) -> tuple[int, ...]:
    items = _list(value, path, minimum=1)
    nums = [_int(v, f"{path}[{i}]", low=low, high=high) for i, v in enumerate(items)]
    if len(set(nums)) != len(nums):
        raise _fail(path, f"names a {what} twice", "Name each once.")
    return tuple(sorted(nums))


def _name(value: Any, path: str, names: tuple[str, ...], what: str) -> str:
    text = value.strip().lower() if isinstance(value, str) else None
    if text not in names:
        raise _fail(path, f"must be a {what}: {', '.join(names)}; got {value!r}", "Fix it.")
    return text


def _need(per: dict[str, Any], keys: tuple[str, ...], freq: str, path: str) -> None:
    missing = [k for k in keys if k not in per]
    if missing:
        raise _fail(
            path,
            f"a {freq} schedule needs {' and '.join(missing)}",
            f"e.g. {_EXAMPLES[freq]}.",
        )


def _one_mode(per: dict[str, Any], modes: tuple[str, ...], freq: str, path: str) -> str:
    given = [m for m in modes if m in per]
    if len(given) != 1:
        raise _fail(
            path,
            f"a {freq} schedule takes one of {', '.join(modes)}"
            + (f", not {' and '.join(given)}" if given else ""),
            f"e.g. {_EXAMPLES[freq]}.",
        )
    return given[0]


def parse_periodic(value: Any, path: str) -> Periodic:
    """A ``periodic`` part: its frequency and the parts that frequency takes."""
    per = _obj(value, path)
    freq = per.get("frequency")
    if freq not in PERIODS:
        raise _fail(
            f"{path}.frequency",
            f"must be one of {', '.join(PERIODS)}, got {freq!r}",
            "Pick the frequency Rule Machine's Periodic Schedule offers.",
        )
    _unknown(per, {"frequency", *_PARTS[freq]}, path)
    at = _hhmm(per["at"], f"{path}.at") if "at" in per else None
    if freq == "seconds" or (freq == "minutes" and "minutes" not in per):
        _need(per, ("every",), freq, path)
        every = _int(per["every"], f"{path}.every", low=1, high=30)
        if every not in MINUTE_STEPS:
            raise _fail(
                f"{path}.every",
                f"Rule Machine repeats every {', '.join(map(str, MINUTE_STEPS))} {freq} only",
                "Pick one of those.",
            )
        if "minutes" in per:
            raise _fail(path, "takes every or minutes, not both", f"e.g. {_EXAMPLES[freq]}.")
        return Periodic(freq, every=every)
    if freq == "minutes":
        minutes = _numbers(per["minutes"], f"{path}.minutes", 0, 59, "minute")
        return Periodic(freq, minutes=minutes)
    if freq == "hourly":
        mode = _one_mode(per, ("every", "hours"), freq, path)
        if mode == "every":
            if "minute" in per:
                raise _fail(f"{path}.minute", "goes with hours", 'Give "at" (HH:MM) instead.')
            every = _int(per["every"], f"{path}.every", low=1, high=23)
            return Periodic(freq, every=every, at=at)
        if "at" in per:
            raise _fail(f"{path}.at", "goes with every", 'Give "minute" (0-59) instead.')
        hours = _numbers(per["hours"], f"{path}.hours", 0, 23, "hour")
        minute = _int(per["minute"], f"{path}.minute", low=0, high=59) if "minute" in per else 0
        return Periodic(freq, hours=hours, minute=minute)
    if freq == "cron":
        _need(per, ("cron",), freq, path)
        return Periodic(freq, cron=parse_cron(per["cron"], f"{path}.cron"))
    _need(per, ("at",), freq, path)
    if freq == "daily":
        mode = _one_mode(per, ("every", "weekdays_only", "days_of_month"), freq, path)
        if mode == "every":
            every = _int(per["every"], f"{path}.every", low=1, high=31)
            return Periodic(freq, every=every, at=at)
        if mode == "weekdays_only":
            if not _bool(per["weekdays_only"], f"{path}.weekdays_only"):
                raise _fail(f"{path}.weekdays_only", "can only be true", "Drop it, or use every.")
            return Periodic(freq, weekdays_only=True, at=at)
        days = _numbers(per["days_of_month"], f"{path}.days_of_month", 1, 31, "day")
        return Periodic(freq, days_of_month=days, at=at)
    if freq == "weekly":
        _need(per, ("days",), freq, path)
        items = _list(per["days"], f"{path}.days", minimum=1)
        names = {_name(d, f"{path}.days[{i}]", WEEKDAYS, "weekday") for i, d in enumerate(items)}
        return Periodic(freq, days=tuple(d for d in WEEKDAYS if d in names), at=at)
    if freq == "monthly":
        if "day" in per and ("week" in per or "weekday" in per):
            raise _fail(
                path,
                "day (a calendar day) and week/weekday (the nth weekday) are two different "
                "monthly schedules",
                "Keep one of them.",
            )
        if "day" in per:
            _need(per, ("every_months",), freq, path)
            return Periodic(
                freq,
                day=_int(per["day"], f"{path}.day", low=1, high=31),
                every_months=_int(per["every_months"], f"{path}.every_months", low=1, high=12),
                at=at,
            )
        _need(per, ("week", "weekday", "every_months"), freq, path)
        return Periodic(
            freq,
            week=_name(per["week"], f"{path}.week", WEEKS, "week of the month"),
            weekday=_name(per["weekday"], f"{path}.weekday", WEEKDAYS, "weekday"),
            every_months=_int(per["every_months"], f"{path}.every_months", low=1, high=12),
            at=at,
        )
    _need(per, ("week", "weekday", "month"), freq, path)  # yearly: always an nth weekday
    return Periodic(
        freq,
        week=_name(per["week"], f"{path}.week", WEEKS, "week of the month"),
        weekday=_name(per["weekday"], f"{path}.weekday", WEEKDAYS, "weekday"),
        month=_name(per["month"], f"{path}.month", MONTHS, "month"),
        at=at,
    )


def parse_date(value: Any, path: str) -> str:
    """A time trigger's day, ``YYYY-MM-DD`` (a real date, 2001 to 2099)."""
    m = _YMD_RE.match(value.strip()) if isinstance(value, str) else None
    try:
        day = date(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None
    except ValueError:
        day = None
    if day is None or not 2001 <= day.year <= 2099:
        raise _fail(path, f"must be a date as YYYY-MM-DD, got {value!r}", "e.g. 2026-12-25.")
    return day.isoformat()


# ----------------------------------------------------------------------------- cron

_CRON_FIELDS = (
    ("second", 0, 59, ()),
    ("minute", 0, 59, ()),
    ("hour", 0, 23, ()),
    ("day of month", 1, 31, ()),
    ("month", 1, 12, tuple(m[:3] for m in MONTHS)),
    ("day of week", 1, 7, tuple(d[:3] for d in WEEKDAYS)),  # Quartz: 1 = SUN
    ("year", 1970, 2099, ()),
)
_CRON_HINT = (
    "A Quartz cron string, seconds first: second minute hour day-of-month month day-of-week "
    "[year], e.g. '0 0 12 ? * MON-FRI' (noon on weekdays) or '0 0/15 * * * ?'; one of "
    "day-of-month and day-of-week is '?'."
)


def _cron_value(text: str, low: int, high: int, names: tuple[str, ...]) -> int | None:
    if text.isdigit():
        n = int(text)
        return n if low <= n <= high else None
    up = text.lower()
    if up in names:
        return names.index(up) + 1
    return None


def _cron_field(text: str, index: int) -> bool:
    """Whether one field is well formed (``*``, ``?``, values, ranges, steps, lists; ``L`` on
    the day of month, ``nL`` and ``n#k`` on the day of week)."""
    _what, low, high, names = _CRON_FIELDS[index]
    if text == "?":
        return index in (3, 5)
    for part in text.split(","):
        base, _, step = part.partition("/")
        if step and not (step.isdigit() and 1 <= int(step) <= high):
            return False
        if index == 3 and base == "L" and not step:
            continue
        if index == 5 and not step and re.fullmatch(r"[A-Za-z0-9]+(L|#[1-5])", base):
            head = base[:-1] if base.endswith("L") else base.split("#")[0]
            if _cron_value(head, low, high, names) is None:
                return False
            continue
        if base == "*":
            continue
        lo_text, dash, hi_text = base.partition("-")
        lo = _cron_value(lo_text, low, high, names)
        hi = _cron_value(hi_text, low, high, names) if dash else lo
        if lo is None or hi is None or hi < lo:
            return False
    return True


def parse_cron(value: Any, path: str) -> str:
    """A Quartz cron string, checked field by field (the hub refuses a bad one)."""
    if not isinstance(value, str) or not value.strip():
        raise ToolError(f"{path}: must be a cron string. Nothing was sent.", hint=_CRON_HINT)
    fields = value.split()
    if len(fields) not in (6, 7):
        raise ToolError(
            f"{path}: {value!r} has {len(fields)} fields; a Quartz cron string has 6 or 7. "
            "Nothing was sent.",
            hint=_CRON_HINT,
        )
    for i, text in enumerate(fields):
        if not _cron_field(text, i):
            raise ToolError(
                f"{path}: the {_CRON_FIELDS[i][0]} field {text!r} of {value!r} is not valid. "
                "Nothing was sent.",
                hint=_CRON_HINT,
            )
    if (fields[3] == "?") == (fields[5] == "?"):
        raise ToolError(
            f"{path}: {value!r} must have '?' in exactly one of day-of-month and day-of-week. "
            "Nothing was sent.",
            hint=_CRON_HINT,
        )
    return " ".join(fields)
