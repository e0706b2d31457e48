"""Log, event, performance and job tools."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.health import parse_uptime
from custom_components.hubitat_dev_tools.hub.logs import (
    fetch_location_events,
    fetch_stats,
    parse_log_lines,
)
from custom_components.hubitat_dev_tools.hub.models import parse_hub_time
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..contract import load_fixture
from ..fixture_client import fixture_client


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


async def test_logs_newest_first_filters_and_paging(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_get_logs", {"limit": 5})
    times = [e["time"] for e in data["logs"]]
    assert times == sorted(times, reverse=True) and data["next_cursor"]
    errors = await ok(call_tool, "hub_get_logs", {"level": "error"})
    assert errors["logs"] and all(e["level"] == "error" for e in errors["logs"])
    leak = errors["logs"][0]
    assert leak["name"] == "Leak Alarm" and "\n" in leak["message"]  # continuation joined
    warn = await ok(call_tool, "hub_get_logs", {"level": "warn"})
    assert {e["level"] for e in warn["logs"]} <= {"warn", "error"}
    battery = await ok(
        call_tool, "hub_get_logs", {"patterns": ["battery", "low"], "pattern_mode": "all"}
    )
    assert battery["logs"] and all("battery is low" in e["message"] for e in battery["logs"])
    # server-side scoping to one source
    dev_id = battery["logs"][0]["source_id"]
    one = await ok(call_tool, "hub_get_logs", {"source_type": "dev", "source_id": dev_id})
    assert all(e["source_id"] == dev_id for e in one["logs"])
    assert any(p == f"/logs/past/json?type=dev&id={dev_id}" for _m, p in hub.requests)
    # paging is stable while new lines arrive
    page1 = await ok(call_tool, "hub_get_logs", {"limit": 3})
    hub.add_log("info", "a brand new line", source_type="dev", source_id=1, name="X")
    page2 = await ok(call_tool, "hub_get_logs", {"limit": 3, "cursor": page1["next_cursor"]})
    all_now = await ok(call_tool, "hub_get_logs", {"limit": 7})
    assert page1["logs"] + page2["logs"] == all_now["logs"][1:7]
    # time window
    since = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    recent = await ok(call_tool, "hub_get_logs", {"since": since, "limit": 200})
    assert all(e["time"] >= since[:19] for e in recent["logs"])
    window = await ok(call_tool, "hub_get_logs", {"hours_back": 1, "limit": 200})
    assert window["matched"] == recent["matched"]


async def test_logs_validation(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    await refused(call_tool, "hub_get_logs", {"level": "loud"}, "invalid_arguments")
    await refused(call_tool, "hub_get_logs", {"source_id": "12"}, "invalid_request")
    await refused(call_tool, "hub_get_logs", {"since": "yesterday"}, "invalid_request")
    await refused(call_tool, "hub_get_logs", {"cursor": "bogus"}, "invalid_cursor")
    await refused(call_tool, "hub_get_logs", {"source_type": "dev", "source_id": "1;drop"})
    assert hub.requests[before:] == []


async def test_events_and_jobs_tools_answer_and_refuse(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: arguments and refusals (what the manager reads: tests/managers)."""
    hub.set_mode("Night" if hub.current_mode != "Night" else "Evening")
    recent = await ok(call_tool, "hub_list_events", {"hours_back": 1, "name": "mode"})
    assert recent["events"] and recent["count"] == len(recent["events"])
    assert {e["name"] for e in recent["events"]} == {"mode"}
    await refused(call_tool, "hub_list_events", {"since": "soon"}, "invalid_request")
    await refused(call_tool, "hub_list_events", {"hours_back": 500}, "invalid_arguments")
    jobs = await ok(call_tool, "hub_get_jobs", {"limit": 1})
    assert len(jobs["scheduled"]) == 1 and jobs["scheduled_total"] == 4
    await refused(call_tool, "hub_get_performance_stats", {"sort_by": "x"}, "invalid_arguments")


# ---------------------------------------------------------------------- contract fixtures


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
