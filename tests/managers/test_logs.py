"""The logs manager (``managers/logs.py``) on its own, no hass: past logs newest first with
their filters (level and above, patterns, one source scoped on the hub, a time window),
stable paging while new lines arrive and the refusals it makes before anything is sent (a
source id without its type, a time that is not ISO, a cursor it did not make); hub and
location events newest first with their filters, the performance statistics and the jobs,
over the emulated hub; and the parsing of the hub's log lines and recorded answers.

Moved from tests/tools/test_logs.py (the reading, filtering and paging are the manager's;
the tools' argument refusals, the log lines' allowlist and one call of each tool stay
there)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.health import parse_uptime
from custom_components.hubitat_dev_tools.hub.logs import (
    fetch_location_events,
    fetch_stats,
    parse_log_lines,
)
from custom_components.hubitat_dev_tools.hub.models import parse_hub_time
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.logs import LogQuery, parse_when, window_start
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..fixture_client import fixture_client


def _allow_all(_device_id: str) -> bool:
    return True


async def test_events(emu: HubEmulator, manager_hub: Hub) -> None:
    logs = manager_hub.logs
    data = await logs.events("all", 50, None, None, device_allowed=_allow_all)
    sources = {e["source"] for e in data["events"]}
    assert sources == {"hub", "location"}
    dates = [e["date"] for e in data["events"]]
    assert dates == sorted(dates, reverse=True)
    hub_only = await logs.events("hub", 50, None, None, device_allowed=_allow_all)
    assert {e["name"] for e in hub_only["events"]} == {"systemStart"}
    target = "Night" if emu.current_mode != "Night" else "Evening"  # a change from now
    emu.set_mode(target)
    modes = await logs.events("location", 50, None, "mode", device_allowed=_allow_all)
    assert modes["events"][0]["value"] == target
    since = datetime.now(UTC) - timedelta(hours=1)
    recent = await logs.events("all", 50, since, None, device_allowed=_allow_all)
    assert target in [e["value"] for e in recent["events"]]
    assert 0 < recent["count"] < data["count"]


async def test_performance_and_jobs(emu: HubEmulator, manager_hub: Hub) -> None:
    logs = manager_hub.logs
    data = await logs.performance("device", "pct", 3, device_allowed=_allow_all)
    assert len(data["devices"]) == 3 and "apps" not in data
    pcts = [d["busy_share_pct"] for d in data["devices"]]
    assert pcts == sorted(pcts, reverse=True)
    assert "not hub CPU" in data["meaning"]
    assert data["uptime_seconds"] and data["uptime_seconds"] > 0
    by_count = await logs.performance("both", "count", 20, device_allowed=_allow_all)
    counts = [d["count"] for d in by_count["devices"]]
    assert counts == sorted(counts, reverse=True)
    # the apps' rows account for the apps' total run time (no empty list next to a total)
    apps = by_count["apps"]
    assert apps and sum(a["total_ms"] for a in apps) == by_count["apps_total_ms"]
    assert abs(sum(a["busy_share_pct"] for a in apps) - 100) < 1
    emu.state.apps.clear()
    empty = await logs.performance("app", "pct", 20, device_allowed=_allow_all)
    assert empty["apps"] == [] and "no per-app statistics" in empty["apps_note"]
    jobs = await logs.jobs(100)
    assert set(jobs) >= {"scheduled", "running", "hub_commands"}
    assert jobs["scheduled_total"] == 4 and jobs["scheduled"][0]["methodName"] == "periodicHandler"
    assert all(j["nextRun"] for j in jobs["scheduled"])


def test_parser_joins_continuations_and_strips_html() -> None:
    lines = [
        "2026-07-16 20:12:40.424\tERROR\tapp|4|<b>Leak</b> Rule|boom | with pipe",
        "\tat Foo.bar(Foo.groovy:1)",
        "2026-07-16 20:12:41.000\tINFO\tdev|7|Lamp|switch is <b>on</b>&amp;more",
        "App 1\tinfo\tOld style\t2026-04-19 10:00:00.000\ttype",
    ]
    parsed = parse_log_lines(lines)
    assert len(parsed) == 3
    first = parsed[0]
    assert (first.level, first.source_type, first.source_id, first.name) == (
        "error",
        "app",
        "4",
        "Leak Rule",
    )
    assert first.message == "boom | with pipe\nat Foo.bar(Foo.groovy:1)"
    assert first.time == datetime(2026, 7, 16, 20, 12, 40, 424000, tzinfo=UTC)
    assert parsed[1].message == "switch is on&more"
    assert parsed[2].name == "App 1" and parsed[2].message == "Old style"


async def test_logs_newest_first_filters_and_paging(emu: HubEmulator, manager_hub: Hub) -> None:
    logs = manager_hub.logs

    async def read(query: LogQuery) -> dict[str, Any]:
        return await logs.logs(query, device_allowed=_allow_all)

    data = await read(LogQuery(limit=5))
    times = [e["time"] for e in data["logs"]]
    assert len(times) == 5 and times == sorted(times, reverse=True) and data["next_cursor"]
    errors = await read(LogQuery(level="error"))
    assert errors["logs"] and all(e["level"] == "error" for e in errors["logs"])
    assert set(errors["matched_by_level"]) == {"error"}
    leak = errors["logs"][0]
    assert leak["name"] == "Leak Alarm" and "\n" in leak["message"]  # continuation joined
    warn = await read(LogQuery(level="warn"))
    assert {e["level"] for e in warn["logs"]} <= {"warn", "error"}
    battery = await read(LogQuery(patterns=("battery", "low"), match_all=True))
    assert battery["logs"] and all("battery is low" in e["message"] for e in battery["logs"])
    either = await read(LogQuery(patterns=("battery", "no such words"), limit=200))
    assert either["matched"] >= battery["matched"]  # any pattern, not every one
    # server-side scoping to one source
    dev_id = battery["logs"][0]["source_id"]
    one = await read(LogQuery(source_type="dev", source_id=dev_id))
    assert one["logs"] and all(e["source_id"] == dev_id for e in one["logs"])
    assert any(p == f"/logs/past/json?type=dev&id={dev_id}" for _m, p in emu.requests)
    # paging is stable while new lines arrive
    page1 = await read(LogQuery(limit=3))
    emu.add_log("info", "a brand new line", source_type="dev", source_id=1, name="X")
    page2 = await read(LogQuery(limit=3, cursor=page1["next_cursor"]))
    all_now = await read(LogQuery(limit=7))
    assert all_now["logs"][0]["message"] == "a brand new line"
    assert page1["logs"] + page2["logs"] == all_now["logs"][1:7]
    # time window
    since = datetime.now(UTC) - timedelta(hours=1)
    recent = await read(LogQuery(since=since, limit=200))
    assert all(e["time"] >= since.isoformat()[:19] for e in recent["logs"])
    window = await read(LogQuery(since=window_start(None, 1), limit=200))
    assert window["matched"] == recent["matched"]


async def test_logs_refusals_send_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    logs = manager_hub.logs
    before = len(emu.requests)
    with pytest.raises(ToolError, match="source_id needs source_type"):
        await logs.logs(LogQuery(source_id="12"), device_allowed=_allow_all)
    with pytest.raises(ToolError, match="not an ISO date-time"):
        parse_when("yesterday", "since")
    with pytest.raises(ToolError) as bogus:
        await logs.logs(LogQuery(cursor="bogus"), device_allowed=_allow_all)
    assert bogus.value.code == "invalid_cursor"
    assert emu.requests[before:] == []
    assert parse_when(None, "since") is None and parse_when(" ", "since") is None


def test_past_logs_fixture_parses_in_utc_with_continuations() -> None:
    lines = parse_log_lines(load_fixture("logs/past_logs").answer)
    assert len(lines) == 3
    first, error, warn = lines
    assert first.time == datetime(2026, 7, 14, 14, 5, 53, 760000, tzinfo=UTC)
    assert (first.source_type, first.source_id, first.name) == ("dev", "12", "Kitchen Light")
    assert error.level == "error" and error.message.endswith("\nat line 12 of the app")
    assert warn.message == "message with | a bar"


async def test_runtime_stats_and_location_events_fixtures() -> None:
    stats = await fetch_stats(fixture_client("logs/runtime_stats"))
    assert parse_uptime(stats["uptime"]) == 5 * 86400 + 2 * 3600 + 3 * 60 + 4
    assert stats["deviceStats"][0]["stateSize"] == 1000
    events = await fetch_location_events(fixture_client("events/location_events"))
    assert [e["name"] for e in events] == ["mode", "hsmStatus", "variable:guestCount"]
    when = parse_hub_time(events[0]["date"])
    assert when == datetime(2026, 6, 3, 0, 19, 0, 73000, tzinfo=UTC)
