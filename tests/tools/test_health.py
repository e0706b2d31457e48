"""Health report and device health through the tools: the report's history paging and the
argument refusals (the report and the device lists themselves: tests/managers/test_health.py)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.health import (
    fetch_database_size,
    fetch_free_os_memory,
    fetch_internal_temperature,
    history_time,
    parse_memory_history,
)
from custom_components.hubitat_dev_tools.tools.paging import encode_cursor
from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import utcnow

from ..conftest import ToolCaller, ok, refused
from ..contract import load_fixture
from ..fixture_client import fixture_client


def test_memory_history_times_carry_the_hubs_offset() -> None:
    denver = ZoneInfo("America/Denver")
    assert history_time("2026-07-14 08:05", denver) == "2026-07-14T08:05:00-06:00"
    assert history_time("2026-01-14 08:05:09", denver) == "2026-01-14T08:05:09-07:00"
    now = datetime(2026, 1, 10, 12, 0, tzinfo=denver)
    # no year: the most recent such date not in the future
    assert history_time("12-31 23:55:00", denver, now) == "2025-12-31T23:55:00-07:00"
    assert history_time("01-09 06:00:00", denver, now) == "2026-01-09T06:00:00-07:00"
    assert history_time("junk", denver) == "junk"


async def test_health_report_pages_every_history_row_since_boot(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    # up three days: 864 five-minute rows, three times the largest page
    hub.ops.history_rows = 10_000
    hub.state.boot_time = utcnow() - timedelta(days=3, minutes=2)
    first = await ok(call_tool, "hub_get_health_report", {"history_points": 288})
    summary = {k: v for k, v in first["history"].items() if k not in ("rows", "next_cursor")}
    total = summary["total"]
    assert total == summary["samples"] == 864
    rows: list[dict[str, Any]] = []
    page = first
    pages = 0
    while True:
        history = page["history"]
        assert len(history["rows"]) <= 288 and history["total"] == total
        # the summary is the same on every page: it covers every row
        assert {k: v for k, v in history.items() if k not in ("rows", "next_cursor")} == summary
        rows = history["rows"] + rows  # each page is older than the one before
        pages += 1
        if "next_cursor" not in history:
            break
        page = await ok(
            call_tool,
            "hub_get_health_report",
            {"history_points": 288, "history_cursor": history["next_cursor"]},
        )
    assert pages == 3 and len(rows) == total
    times = [str(r["time"]) for r in rows]
    assert times == sorted(times) and len(set(times)) == total  # every row once, in order
    assert times[0] == summary["from"] and times[-1] == summary["to"]
    assert first["history"]["rows"][-1]["time"] == summary["to"]  # page one: the newest
    frees = [r["free_os_kb"] for r in rows]
    assert min(frees) == summary["free_memory_kb"]["min"]
    assert max(frees) == summary["free_memory_kb"]["max"]
    # the default page: the newest 12 rows, oldest first
    default = await ok(call_tool, "hub_get_health_report")
    assert [r["time"] for r in default["history"]["rows"]] == times[-12:]
    # cursors this tool did not return, or past the end, are refused
    for bad in ("junk", encode_cursor(total + 1)):
        await refused(
            call_tool,
            "hub_get_health_report",
            {"history_points": 10, "history_cursor": bad},
            "invalid_cursor",
        )
    await refused(
        call_tool,
        "hub_get_health_report",
        {"history_points": 0, "history_cursor": encode_cursor(10)},
        "invalid_arguments",
    )
    await refused(call_tool, "hub_get_health_report", {"history_points": 289}, "invalid_arguments")


async def test_device_health_refuses_a_zero_battery_threshold(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The lists themselves: tests/managers/test_health.py::test_device_health."""
    await ok(call_tool, "hub_get_device_health")
    await refused(call_tool, "hub_get_device_health", {"battery_threshold": 0}, "invalid_arguments")


# ---------------------------------------------------------------------- contract fixtures


async def test_plain_number_fixtures_parse() -> None:
    assert await fetch_free_os_memory(fixture_client("health/free_os_memory")) == 914716
    temp = await fetch_internal_temperature(fixture_client("health/internal_temperature"))
    assert temp == 45.5
    assert await fetch_database_size(fixture_client("health/database_size")) == 21


def test_memory_history_fixture_parses_both_date_forms() -> None:
    text = load_fixture("health/memory_history").answer_text
    assert text is not None
    samples = parse_memory_history(text)
    # no zone known: hub-local ISO 8601; a date without a year is in the last twelve months
    assert [s.time for s in samples[:2]] == ["2026-04-19T10:00:00", "2026-04-19T10:05:00"]
    assert samples[2].time.endswith("-04-19T10:10:19")
    assert samples[0].free_os_kb == 200000 and samples[1].free_java_kb == 90000
    assert samples[2].cpu_avg_5m == 0.9 and samples[2].direct_java_kb == 2200
