"""Rule Machine's "Between two dates" condition, in the settings a scan of a live hub's rules
found (GordonThelander/hubitat-automation-map, ``tests/fixtures/ham-decode-detail.json``,
2026-10-07, two rules; its decoder test pins the keys): ``startDateType<C>`` (``mm-dd``,
the only type seen), ``monthStart<C>`` and ``dayStart<C>`` (numbers as strings, ``"10"``,
``"31"``), ``timeStart<C>`` (``"15:00"``, or ``""`` for none), then the same for the end
(``endDateType``, ``monthEnd``, ``dayEnd``, ``timeEnd``). The page shows "Between October 31
at 15:00 and October 31 at 23:00", or "Between December 20 and December 25".

*No evidence:* the order the page reveals the fields in (the emulator: type, month, day,
time, for the start and then the end, a time never required), the inputs' types (enums of
the month and day numbers, a text time), the other date types, and whether the window is
inclusive (the emulator: from the start day's time, or midnight, to the end day's time, or
its end; across New Year when the end comes first).
"""

from __future__ import annotations

import calendar
from datetime import datetime, time, timedelta
from typing import Any, Protocol

from .clock import HUB_TZ

DATES = "Between two dates"
DATE_TYPES = ("mm-dd",)
MONTHS = [str(m) for m in range(1, 13)]
DAYS = [str(d) for d in range(1, 32)]


class Steps(Protocol):
    s: dict[str, Any]

    def add(self, field_: dict[str, Any]) -> bool: ...


def date_fields(st: Steps, c: int, inp: Any) -> bool:
    """The fields, in the emulator's order; True when the condition is complete."""
    ok = True
    for side in ("Start", "End"):
        kind = "startDateType" if side == "Start" else "endDateType"
        ok = ok and st.add(inp(f"{kind}{c}", "enum", f"{side} date type", options=DATE_TYPES))
        ok = ok and st.add(inp(f"month{side}{c}", "enum", f"{side} month", options=MONTHS))
        ok = ok and st.add(inp(f"day{side}{c}", "enum", f"{side} day", options=DAYS))
        if ok:
            st.add(inp(f"time{side}{c}", "text", f"{side} time (HH:MM, optional)"))
    return ok


def _point(s: dict[str, Any], side: str, c: int) -> tuple[int, int, str]:
    return (
        int(s.get(f"month{side}{c}") or 1),
        int(s.get(f"day{side}{c}") or 1),
        str(s.get(f"time{side}{c}") or ""),
    )


def date_text(s: dict[str, Any], c: int) -> str:
    """The condition's text on the rule page."""
    parts = []
    for side in ("Start", "End"):
        month, day, at = _point(s, side, c)
        parts.append(f"{calendar.month_name[month]} {day}" + (f" at {at}" if at else ""))
    return f"Between {parts[0]} and {parts[1]}"


def _moment(year: int, month: int, day: int, at: str, *, end: bool) -> datetime:
    day = min(day, calendar.monthrange(year, month)[1])
    if at:
        hour, minute = (int(x) for x in at.split(":")[:2])
        return datetime(year, month, day, hour, minute)
    start = datetime.combine(datetime(year, month, day).date(), time())
    return start + timedelta(days=1) if end else start


def in_dates(now: datetime, s: dict[str, Any], c: int) -> bool:
    """Whether ``now`` (local) is inside the window."""
    (m1, d1, t1), (m2, d2, t2) = _point(s, "Start", c), _point(s, "End", c)
    local = now.astimezone(HUB_TZ).replace(tzinfo=None)
    for year in (local.year - 1, local.year):
        start = _moment(year, m1, d1, t1, end=False)
        end = _moment(year, m2, d2, t2, end=not t2)
        if end < start:  # across New Year
            end = _moment(year + 1, m2, d2, t2, end=not t2)
        if start <= local < end or (t2 and local == end):
            return True
    return False
