"""A Periodic Schedule trigger's stored settings read back as the spec's ``periodic`` part.

The settings are the ones :mod:`.compile` writes (the on-hub server's periodic write block:
``whichPeriod<n>``, ``everyNSecs<n>``, ``selectMinutesC<n>``, ``everyNHoursC<n>`` /
``everyNHC<n>`` / ``startingHC<n>``, ``selectHoursC<n>`` / ``startingHCX<n>``, ``everyNDoMC<n>`` /
``everyNDC<n>``, ``everyWeekDay<n>``, ``selectDoMC<n>``, ``startingDC<n>``, ``selectDoWC<n>`` /
``startingWC<n>``, ``dayMC<n>`` / ``everyNMC<n>``, ``weeklyMC<n>`` / ``dailyMC<n>`` /
``everyNMCX<n>``, ``startingMC<n>``, ``weeklyYC<n>`` / ``dailyYC<n>`` / ``yearlyMonthCX<n>`` /
``startingYC<n>``, ``cronStr<n>``). None when they do not make a whole schedule.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from .spec import MONTHS, PERIODS, WEEKDAYS, WEEKS

_FREQUENCY = {v: k for k, v in PERIODS.items()}


def _hhmm(value: Any) -> str | None:
    text = str(value or "")
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).strftime("%H:%M")
    except ValueError:
        m = re.search(r"T(\d{2}:\d{2})", text)
        return m.group(1) if m else None


def _int(value: Any) -> int | None:
    try:
        number = float(str(value))
    except ValueError:
        return None
    return int(number) if number.is_integer() else None


def _ints(value: Any) -> list[int] | None:
    items = value
    if isinstance(value, str):
        text = value.strip()
        try:
            items = json.loads(text) if text.startswith("[") else text.split(",")
        except ValueError:
            return None
    if not isinstance(items, list) or not items:
        return None
    nums = [_int(str(v).strip()) for v in items]
    return sorted(n for n in nums if n is not None) if None not in nums else None


def _names(value: Any) -> list[str]:
    items = value
    if isinstance(value, str):
        text = value.strip()
        try:
            items = json.loads(text) if text.startswith("[") else text.split(",")
        except ValueError:
            return []
    return [str(v).strip().lower() for v in items] if isinstance(items, list) else []


def _one(value: Any, names: tuple[str, ...]) -> str | None:
    text = str(value or "").strip().lower()
    return text if text in names else None


def _true(value: Any) -> bool:
    return value is True or str(value).lower() == "true"


def read_periodic(s: dict[str, Any], n: int) -> dict[str, Any] | None:
    """The ``periodic`` part of trigger ``n``'s sub-page settings."""
    freq = _FREQUENCY.get(str(s.get(f"whichPeriod{n}")))

    def g(name: str) -> Any:
        return s.get(f"{name}{n}")

    out: dict[str, Any] = {"frequency": freq}
    if freq == "seconds":
        out["every"] = _int(g("everyNSecs"))
    elif freq == "minutes":
        out["minutes"] = _ints(g("selectMinutesC"))
    elif freq == "hourly":
        if _true(g("everyNHoursC")):
            out["every"] = _int(g("everyNHC"))
            if g("startingHC"):
                out["at"] = _hhmm(g("startingHC"))
        else:
            out["hours"] = _ints(g("selectHoursC"))
            out["minute"] = _int(g("startingHCX") or 0)
    elif freq == "daily":
        if _true(g("everyNDoMC")):
            out["every"] = _int(g("everyNDC"))
        elif _true(g("everyWeekDay")):
            out["weekdays_only"] = True
        else:
            out["days_of_month"] = _ints(g("selectDoMC"))
        out["at"] = _hhmm(g("startingDC"))
    elif freq == "weekly":
        days = set(_names(g("selectDoWC")))
        out["days"] = [d for d in WEEKDAYS if d in days] or None
        out["at"] = _hhmm(g("startingWC"))
    elif freq == "monthly":
        if g("weeklyMC"):
            out["week"] = _one(g("weeklyMC"), WEEKS)
            out["weekday"] = _one(g("dailyMC"), WEEKDAYS)
            out["every_months"] = _int(g("everyNMCX"))
        else:
            out["day"] = _int(g("dayMC"))
            out["every_months"] = _int(g("everyNMC"))
        out["at"] = _hhmm(g("startingMC"))
    elif freq == "yearly":
        out["week"] = _one(g("weeklyYC"), WEEKS)
        out["weekday"] = _one(g("dailyYC"), WEEKDAYS)
        out["month"] = _one(g("yearlyMonthCX"), MONTHS)
        out["at"] = _hhmm(g("startingYC"))
    elif freq == "cron":
        out["cron"] = " ".join(str(g("cronStr") or "").split()) or None
    else:
        return None
    if any(v is None for v in out.values()):
        return None
    # the spec's key order (Periodic.as_dict), so a read-back compares equal
    order = (
        *("frequency", "every", "minutes", "hours", "minute", "weekdays_only", "days_of_month"),
        *("days", "day", "week", "weekday", "month", "every_months", "at", "cron"),
    )
    return {k: out[k] for k in order if k in out}
