"""The logs manager (``managers/logs.py``) on its own, no hass: hub and location events newest
first with their filters, the performance statistics and the jobs, over the emulated hub.

Moved from tests/tools/test_logs.py (the reading is the manager's; the tools' argument
refusals, the paging cursors and the log lines' allowlist stay there)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


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
