"""Rule Machine's Periodic Schedule as the emulated hub runs it, and a Quartz cron engine.

A rule schedules its periodic trigger with the hub's ``schedule(cronExpr, handler)`` (the
on-hub server's ``docs/testing.md``: "the time / periodic trigger branches register via
``schedule(cronExpr, handler)``"), so each setting of the ``periodic`` sub-page becomes a
Quartz cron string (:func:`periodic_cron`) and the engine (:class:`Cron`) finds its next
instant on the emulated clock. The fields are the on-hub server's periodic write block
(``mcp-native-rules-lib.groovy``, live on 5.1.8); *no evidence* of the exact cron Rule Machine
builds for each one: the emulator's is the Quartz reading of the page's words (every N days
from the 1st of the month, every N hours from the starting hour, ...).

The cron engine takes ``*``, ``?``, values, names (``MON``, ``JAN``), ranges, steps, lists,
``L`` in the day of month, ``nL`` (the last weekday n) and ``n#k`` (the k-th weekday n) in the
day of week (1 = Sunday), and an optional year field.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from .clock import HUB_TZ

WEEKDAY_NAMES = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
WEEKS = ("First", "Second", "Third", "Fourth", "Last")
MONTH_NAMES = tuple(calendar.month_name[1:])
_DOW_NAMES = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
_MONTH_ABBR = tuple(m[:3].lower() for m in MONTH_NAMES)
_BOUNDS = ((0, 59), (0, 59), (0, 23), (1, 31), (1, 12), (1, 7), (1970, 2099))


class CronError(ValueError):
    """A cron string the engine does not take."""


def _value(text: str, index: int) -> int:
    low, high = _BOUNDS[index]
    names = _MONTH_ABBR if index == 4 else _DOW_NAMES if index == 5 else ()
    if text.isdigit() and low <= int(text) <= high:
        return int(text)
    if text.lower() in names:
        return names.index(text.lower()) + 1
    raise CronError(f"bad value {text!r}")


def _set(text: str, index: int) -> set[int]:
    low, high = _BOUNDS[index]
    out: set[int] = set()
    for part in text.split(","):
        base, _, step_text = part.partition("/")
        step = int(step_text) if step_text else 1
        if step_text and (not step_text.isdigit() or step < 1):
            raise CronError(f"bad step {part!r}")
        if base in ("*", "?"):
            lo, hi = low, high
        elif "-" in base:
            lo_t, hi_t = base.split("-", 1)
            lo, hi = _value(lo_t, index), _value(hi_t, index)
        else:
            lo = _value(base, index)
            hi = high if step_text else lo
        if hi < lo:
            raise CronError(f"bad range {part!r}")
        out.update(range(lo, hi + 1, step))
    return out


@dataclass
class Cron:
    """A parsed Quartz cron string."""

    seconds: set[int]
    minutes: set[int]
    hours: set[int]
    dom: str
    months: set[int]
    dow: str
    years: set[int]

    @classmethod
    def parse(cls, text: str) -> Cron:
        f = text.split()
        if len(f) not in (6, 7):
            raise CronError("a Quartz cron string has 6 or 7 fields")
        years = _set(f[6], 6) if len(f) == 7 else set(range(1970, 2100))
        for i in (3, 5):  # checked now, read per day
            cls._day_ok(f[i], i, date(2000, 1, 3))
        return cls(_set(f[0], 0), _set(f[1], 1), _set(f[2], 2), f[3], _set(f[4], 4), f[5], years)

    @staticmethod
    def _day_ok(text: str, index: int, day: date) -> bool:
        if text == "?":
            return True
        last = calendar.monthrange(day.year, day.month)[1]
        if index == 3:
            if text == "L":
                return day.day == last
            return day.day in _set(text, 3)
        dow = (day.weekday() + 1) % 7 + 1  # Quartz: 1 = Sunday
        m = re.fullmatch(r"(\w+?)(L|#([1-5]))", text)
        if m and not text.isdigit():
            want = _value(m.group(1), 5)
            if dow != want:
                return False
            if m.group(2) == "L":
                return day.day + 7 > last
            return (day.day - 1) // 7 + 1 == int(m.group(3))
        return dow in _set(text, 5)

    def _day(self, day: date) -> bool:
        if day.month not in self.months or day.year not in self.years:
            return False
        dom_any = self.dom == "?"
        dow_any = self.dow == "?"
        ok_dom = dom_any or self._day_ok(self.dom, 3, day)
        ok_dow = dow_any or self._day_ok(self.dow, 5, day)
        return ok_dom and ok_dow

    def next_after(self, now: datetime) -> datetime | None:
        """The first instant after ``now`` (hub-local), or None within ten years."""
        local = now.astimezone(HUB_TZ)
        day = local.date()
        for _ in range(3700):
            if self._day(day):
                today = day == local.date()
                for h in sorted(self.hours):
                    if today and h < local.hour:
                        continue
                    for mi in sorted(self.minutes):
                        if today and h == local.hour and mi < local.minute:
                            continue
                        for se in sorted(self.seconds):
                            t = datetime(day.year, day.month, day.day, h, mi, se, tzinfo=HUB_TZ)
                            if t > local:
                                return t
            day += timedelta(days=1)
        return None


def _hm(value: Any) -> tuple[int, int]:
    m = re.search(r"T(\d{2}):(\d{2})", str(value or ""))
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def _ints(value: Any) -> list[int]:
    items = value if isinstance(value, list) else str(value or "").strip("[]").split(",")
    return sorted(int(str(v).strip().strip("\"'")) for v in items if str(v).strip().strip("\"'"))


def _names(value: Any) -> list[str]:
    items = value if isinstance(value, list) else str(value or "").strip("[]").split(",")
    return [str(v).strip().strip("\"'") for v in items if str(v).strip()]


def _true(value: Any) -> bool:
    return value is True or str(value).lower() == "true"


def _num(value: Any, default: int = 1) -> int:
    try:
        return max(1, int(float(str(value))))
    except ValueError:
        return default


def _dow(name: Any) -> str:
    text = str(name or "")
    return str(WEEKDAY_NAMES.index(text) + 1) if text in WEEKDAY_NAMES else "?"


def _nth(week: Any, weekday: Any) -> str:
    dow = _dow(weekday)
    return f"{dow}L" if week == "Last" else f"{dow}#{WEEKS.index(str(week)) + 1}"


def periodic_cron(s: dict[str, Any], n: int) -> str | None:
    """The Quartz cron string of trigger ``n``'s periodic settings (None: incomplete)."""

    def g(name: str) -> Any:
        return s.get(f"{name}{n}")

    which = g("whichPeriod")
    try:
        if which == "Seconds":
            return f"0/{_num(g('everyNSecs'))} * * * * ?"
        if which == "Minutes":
            if g("everyNC") not in (None, ""):
                return f"0 0/{_num(g('everyNC'))} * * * ?"
            return f"0 {','.join(map(str, _ints(g('selectMinutesC'))))} * * * ?"
        if which == "Hourly":
            if _true(g("everyNHoursC")) or (g("everyNHC") and g("selectHoursC") is None):
                h, m = _hm(g("startingHC"))
                return f"0 {m} {h}/{_num(g('everyNHC'))} * * ?"
            hours = ",".join(map(str, _ints(g("selectHoursC"))))
            return f"0 {int(g('startingHCX') or 0)} {hours} * * ?"
        if which == "Daily":
            h, m = _hm(g("startingDC"))
            if _true(g("everyNDoMC")):
                return f"0 {m} {h} 1/{_num(g('everyNDC'))} * ?"
            if _true(g("everyWeekDay")):
                return f"0 {m} {h} ? * 2-6"
            return f"0 {m} {h} {','.join(map(str, _ints(g('selectDoMC'))))} * ?"
        if which == "Weekly":
            h, m = _hm(g("startingWC"))
            return f"0 {m} {h} ? * {','.join(_dow(d) for d in _names(g('selectDoWC')))}"
        if which == "Monthly":
            h, m = _hm(g("startingMC"))
            if g("weeklyMC"):
                nth = _nth(g("weeklyMC"), g("dailyMC"))
                return f"0 {m} {h} ? 1/{_num(g('everyNMCX'))} {nth}"
            return f"0 {m} {h} {int(g('dayMC'))} 1/{_num(g('everyNMC'))} ?"
        if which == "Yearly":
            h, m = _hm(g("startingYC"))
            month = MONTH_NAMES.index(str(g("yearlyMonthCX"))) + 1
            return f"0 {m} {h} ? {month} {_nth(g('weeklyYC'), g('dailyYC'))}"
        if which == "Cron String":
            return str(g("cronStr") or "") or None
    except (ValueError, TypeError):
        return None
    return None


def _clock(value: Any) -> str:
    h, m = _hm(value)
    return datetime(2000, 1, 1, h, m).strftime("%I:%M %p").lstrip("0")


def periodic_line(s: dict[str, Any], n: int) -> str:
    """The trigger's text on the rule page (*no evidence* of Rule Machine's wording)."""

    def g(name: str) -> Any:
        return s.get(f"{name}{n}")

    which = g("whichPeriod")
    if which == "Seconds":
        return f"every {g('everyNSecs')} seconds"
    if which == "Minutes":
        if g("everyNC") not in (None, ""):
            return f"every {g('everyNC')} minutes"
        return f"every hour at minutes {', '.join(map(str, _ints(g('selectMinutesC'))))}"
    if which == "Hourly":
        if _true(g("everyNHoursC")) or g("selectHoursC") is None:
            start = f" starting at {_clock(g('startingHC'))}" if g("startingHC") else ""
            return f"every {g('everyNHC')} hours{start}"
        hours = ", ".join(map(str, _ints(g("selectHoursC"))))
        return f"at {int(g('startingHCX') or 0)} minutes past hours {hours}"
    if which == "Daily":
        at = _clock(g("startingDC"))
        if _true(g("everyNDoMC")):
            return f"every {g('everyNDC')} days at {at}"
        if _true(g("everyWeekDay")):
            return f"every weekday at {at}"
        return f"on days {', '.join(map(str, _ints(g('selectDoMC'))))} at {at}"
    if which == "Weekly":
        return f"every {', '.join(_names(g('selectDoWC')))} at {_clock(g('startingWC'))}"
    if which == "Monthly":
        at = _clock(g("startingMC"))
        if g("weeklyMC"):
            return f"on the {g('weeklyMC')} {g('dailyMC')} of every {g('everyNMCX')} months at {at}"
        return f"on day {g('dayMC')} of every {g('everyNMC')} months at {at}"
    if which == "Yearly":
        return (
            f"on the {g('weeklyYC')} {g('dailyYC')} of {g('yearlyMonthCX')} at "
            f"{_clock(g('startingYC'))}"
        )
    return f"cron {g('cronStr')}"
