"""The health manager (``managers/health.py``) on its own, no hass: the memory trend over
the hub's memory history, the health report (partial when an endpoint is missing; its
history summary over every row since boot, each row once and in order) and the device
health lists; and the hub's memory history times and recorded answers as the library reads
them.

Moved from tests/tools/test_health.py (the report and the lists are the manager's; the
tool's history paging and argument refusals stay there)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from aiohttp import web

from custom_components.hubitat_dev_tools.hub.health import (
    fetch_database_size,
    fetch_free_os_memory,
    fetch_internal_temperature,
    history_time,
    parse_memory_history,
)
from custom_components.hubitat_dev_tools.managers.health import memory_trend
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import utcnow

from ..contract import load_fixture
from ..fixture_client import fixture_client


def test_memory_history_both_date_forms() -> None:
    text = (
        "Date/time,Free OS,5m CPU avg,Total Java,Free Java,Direct Java\n"
        "2026-04-19 10:00,200000,0.5,500000,100000,2000\n"
        "04-12 03:20:19,150000,0.6,500000, 90000\n"
    )
    rows = parse_memory_history(text)
    assert [r.free_os_kb for r in rows] == [200000, 150000]
    assert rows[1].direct_java_kb is None and rows[1].free_java_kb == 90000
    trend = memory_trend(rows)
    assert trend["samples"] == 2 and trend["free_memory_kb"]["min"] == 150000


async def test_health_report(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await manager_hub.health.report()
    assert data["model"] == "C-8 Pro" and data["firmware"] == emu.state.version
    assert data["free_memory_kb"] > 0 and data["temperature_c"] == 38.2
    assert data["cpu"] == {"processors": 4, "load_average": 0.15}
    assert data["uptime_seconds"] > 0 and data["database_size"] == 21
    assert data["status"] == "ok" and data["alerts"] == []
    history = data["history"]
    assert history["samples"] > 10 and len(history["rows"]) == 12
    assert history["memory_trend"] == "falling"  # the emulator leaks ~900 KB per 5 min
    assert data["newest_backup"]["age_hours"] > 24
    emu.ops.alerts.update(hubLowMemory=True, zigbeeOffline=True, platformUpdateAvailable=True)
    emu.ops.alerts["platformUpdateVersion"] = "2.5.1.1"
    alerting = await manager_hub.health.report(history_points=0)
    keys = [a["key"] for a in alerting["alerts"]]
    assert keys == ["hubLowMemory", "platformUpdateAvailable", "zigbeeOffline"]
    assert alerting["status"] == "error" and "rows" not in alerting["history"]
    assert "2.5.1.1" in alerting["alerts"][1]["detail"]
    assert [a["key"] for a in await manager_hub.health.alerts()] == keys


async def test_health_report_partial_when_endpoints_missing(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.faults.delay_paths = {}
    # a C-4 has no /hub/cpuInfo: the report still answers and says what is missing
    for resource in list(emu.app.router.resources()):
        if resource.canonical == "/hub/cpuInfo":
            for route in resource:
                route._handler = _not_found
    data = await manager_hub.health.report()
    assert data["cpu"] is None and data["unavailable"] == {"cpu": "not_found"}
    assert data["free_memory_kb"] > 0  # the rest of the report is still there


async def _not_found(request: web.Request) -> web.StreamResponse:
    return web.Response(status=404, text="Not Found")


async def _device_health(hub: Hub, stale_hours: float | None = None) -> dict[str, Any]:
    """The device health lists with the tool's defaults, every device allowed."""
    return await hub.health.device_health(
        stale_hours=stale_hours,
        battery_threshold=20,
        error_hours=24,
        include_virtual=False,
        device_allowed=lambda _device_id: True,
        limit=50,
    )


async def test_device_health(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await _device_health(manager_hub)
    assert data["checked_devices"] > 40
    low = data["low_battery"]
    assert low and all(d["battery"] < 20 for d in low)
    assert [d["battery"] for d in low] == sorted(d["battery"] for d in low)
    assert any(d["label"] for d in data["disabled"])
    # the disabled, long-silent device is explained, not silently left out
    old = next(d for d in data["disabled"] if d["label"] == "Old Hallway Sensor")
    assert old["last_activity"] and "not checked for silence" in data["disabled_note"]
    assert all(s["label"] != "Old Hallway Sensor" for s in data["silent"])
    with_errors = data["with_log_errors"]
    assert with_errors and all(e["warnings"] + e["errors"] > 0 for e in with_errors)
    # make one device silent for a week
    dev_id = low[0]["device_id"]
    emu.device_obj(dev_id).last_activity = utcnow() - timedelta(days=7)
    data = await _device_health(manager_hub)
    silent = {d["device_id"]: d for d in data["silent"]}
    assert dev_id in silent and silent[dev_id]["silent_hours"] > 160
    assert silent[dev_id]["threshold_hours"] == 25.0
    strict = await _device_health(manager_hub, stale_hours=0.1)
    assert strict["silent_total"] >= data["silent_total"]
    assert strict["thresholds"]["silent_hours"] == 0.1


async def test_history_summary_covers_every_row_since_boot(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """Up three days: 864 five-minute rows; the summary is over all of them and the rows
    come oldest first, each once (the tool pages them: tests/tools/test_health.py)."""
    emu.ops.history_rows = 10_000
    emu.state.boot_time = utcnow() - timedelta(days=3, minutes=2)
    data = await manager_hub.health.report(history_points=10_000)
    history = data["history"]
    rows = history["rows"]
    assert history["samples"] == len(rows) == 864
    times = [str(r["time"]) for r in rows]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert times[0] == history["from"] and times[-1] == history["to"]
    frees = [r["free_os_kb"] for r in rows]
    assert min(frees) == history["free_memory_kb"]["min"]
    assert max(frees) == history["free_memory_kb"]["max"]
    newest = await manager_hub.health.report()
    assert [r["time"] for r in newest["history"]["rows"]] == times[-12:]


def test_memory_history_times_carry_the_hubs_offset() -> None:
    denver = ZoneInfo("America/Denver")
    assert history_time("2026-07-14 08:05", denver) == "2026-07-14T08:05:00-06:00"
    assert history_time("2026-01-14 08:05:09", denver) == "2026-01-14T08:05:09-07:00"
    now = datetime(2026, 1, 10, 12, 0, tzinfo=denver)
    # no year: the most recent such date not in the future
    assert history_time("12-31 23:55:00", denver, now) == "2025-12-31T23:55:00-07:00"
    assert history_time("01-09 06:00:00", denver, now) == "2026-01-09T06:00:00-07:00"
    assert history_time("junk", denver) == "junk"


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
