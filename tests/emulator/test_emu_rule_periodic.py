"""The emulated hub's Quartz cron engine and the cron each Periodic Schedule setting runs as."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from hubitat_emulator.clock import HUB_TZ
from hubitat_emulator.rule_periodic import Cron, CronError, periodic_cron

NOW = datetime(2026, 12, 3, 21, 50, 7, tzinfo=HUB_TZ)  # a Thursday


@pytest.mark.parametrize(
    ("cron", "due"),
    [
        ("0/5 * * * * ?", datetime(2026, 12, 3, 21, 50, 10)),
        ("0 0/15 * * * ?", datetime(2026, 12, 3, 22, 0)),
        ("0 30 7 ? * MON,FRI", datetime(2026, 12, 4, 7, 30)),
        ("0 0 8 ? 1/1 2#2", datetime(2026, 12, 14, 8, 0)),  # the second Monday
        ("0 0 9 ? * 6L", datetime(2026, 12, 25, 9, 0)),  # the last Friday
        ("0 0 12 L * ?", datetime(2026, 12, 31, 12, 0)),
        ("0 30 9 15 1/2 ?", datetime(2027, 1, 15, 9, 30)),
        ("0 0 12 ? JAN-MAR SUN 2028", datetime(2028, 1, 2, 12, 0)),
    ],
)
def test_the_next_instant(cron: str, due: datetime) -> None:
    assert Cron.parse(cron).next_after(NOW) == due.replace(tzinfo=HUB_TZ)


@pytest.mark.parametrize(
    "cron", ["0 0 12 * *", "0 0 25 * * ?", "0 0 12 ? * FUNDAY", "0 5-1 * * * ?"]
)
def test_a_bad_cron_is_refused(cron: str) -> None:
    with pytest.raises(CronError):
        Cron.parse(cron)


def test_periodic_settings_run_as_cron() -> None:
    t = "2000-01-01T07:30:00.000-0700"
    cases: list[tuple[dict[str, Any], str]] = [
        ({"whichPeriod1": "Seconds", "everyNSecs1": "10"}, "0/10 * * * * ?"),
        ({"whichPeriod1": "Minutes", "everyNMinutesC1": True, "everyNC1": "15"}, "0 0/15 * * * ?"),
        (
            {"whichPeriod1": "Hourly", "selectHoursC1": ["6", "18"], "startingHCX1": 5},
            "0 5 6,18 * * ?",
        ),
        ({"whichPeriod1": "Daily", "everyWeekDay1": True, "startingDC1": t}, "0 30 7 ? * 2-6"),
        ({"whichPeriod1": "Weekly", "selectDoWC1": ["Monday"], "startingWC1": t}, "0 30 7 ? * 2"),
        (
            {"whichPeriod1": "Yearly", "weeklyYC1": "Last", "dailyYC1": "Friday"}
            | {"yearlyMonthCX1": "June", "startingYC1": t},
            "0 30 7 ? 6 6L",
        ),
    ]
    for settings, cron in cases:
        assert periodic_cron(settings, 1) == cron
    assert periodic_cron({"whichPeriod1": "Monthly"}, 1) is None  # incomplete
