"""Health report and device health through the tools: the report's history paging and the
argument refusals (the report with its history summary, the device lists, the memory
history times and the recorded hub answers: tests/managers/test_health.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.tools.paging import encode_cursor
from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import utcnow

from ..conftest import ToolCaller, ok, refused


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
