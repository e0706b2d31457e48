"""Log, event, performance and job tools: their arguments reach the manager, their
argument refusals (nothing sent) and their answers. The filtering, the scoping on the hub,
the stable paging and the manager's refusals of past logs, the events, performance
statistics and jobs themselves, and the parsing of the hub's log lines and recorded answers
are tested without hass in tests/managers/test_logs.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused


async def test_logs_arguments_reach_the_reading(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its arguments (level, patterns with pattern_mode, the source, the
    cursor, since and hours_back) reach the reading and its answer is the manager's (the
    filters, the scoping on the hub and the stable paging themselves:
    tests/managers/test_logs.py::test_logs_newest_first_filters_and_paging)."""
    data = await ok(call_tool, "hub_get_logs", {"limit": 5})
    times = [e["time"] for e in data["logs"]]
    assert len(times) == 5 and times == sorted(times, reverse=True) and data["next_cursor"]
    errors = await ok(call_tool, "hub_get_logs", {"level": "error"})
    assert errors["logs"] and all(e["level"] == "error" for e in errors["logs"])
    battery = await ok(
        call_tool, "hub_get_logs", {"patterns": ["battery", "low"], "pattern_mode": "all"}
    )
    assert battery["logs"] and all("battery is low" in e["message"] for e in battery["logs"])
    dev_id = battery["logs"][0]["source_id"]
    one = await ok(call_tool, "hub_get_logs", {"source_type": "dev", "source_id": dev_id})
    assert one["logs"] and all(e["source_id"] == dev_id for e in one["logs"])
    page1 = await ok(call_tool, "hub_get_logs", {"limit": 3})
    page2 = await ok(call_tool, "hub_get_logs", {"limit": 3, "cursor": page1["next_cursor"]})
    both = await ok(call_tool, "hub_get_logs", {"limit": 6})
    assert page1["logs"] + page2["logs"] == both["logs"]
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
