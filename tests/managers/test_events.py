"""The live events manager (``managers/events.py``) on its own, no hass: log lines as they
arrive (from the live cache's log socket, or from one shared one-shot ``/logsocket`` when no
stream runs), filtered by level, source and text, with the recent lines already seen; and the
recent hub events, from the live cache's ring (no hub request) or, with no stream, from the
hub's own device or location history. With the live cache, the HSM status, the hub variables
and the modes are read from it too (the mode list re-read after our own edit), over the
emulated hub.

Also here: ``streaming``, the hub's live state cache over the emulated hub's event and log
sockets, started as the integration's event stream starts it (``event_stream.py``) but
without hass; the device manager tests use it too.

Moved from tests/tools/test_events.py and tests/tools/test_events_devices.py (the listening,
filtering, history reads and reads from the cache are the managers'; the tool's window limit,
the advice naming hub_get_logs, the freshness in the answers and one call of each tool
through the live stream stay there)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from custom_components.hubitat_dev_tools.managers.events import (
    NO_LOG_RING_NOTE,
    EventFilter,
    LogFilter,
)
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..conftest import a_switch, until
from .events_util import streaming


@pytest.fixture
async def live(manager_hub: Hub) -> AsyncIterator[StateCache]:
    """The manager hub with its live cache (event and log sockets connected)."""
    async with streaming(manager_hub) as cache:
        yield cache


def every_device(_device_id: str) -> bool:
    """No device allowlist."""
    return True


def later(delay: float, emu: HubEmulator, level: str, msg: str, **kw: Any) -> None:
    """Let the hub log ``msg`` after ``delay`` seconds (``kw`` as for ``emu.add_log``)."""
    asyncio.get_running_loop().call_later(delay, lambda: emu.add_log(level, msg, **kw))


async def tail(
    manager_hub: Hub, window: float, *, limit: int = 100, **filters: Any
) -> dict[str, Any]:
    """The manager's tail as the tool asks it (recent lines included, no allowlist)."""
    return await manager_hub.live.tail_logs(
        LogFilter(**filters), window, limit, include_recent=True, device_allowed=every_device
    )


async def test_tail_logs_live_with_filters(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    emu.add_log("info", "before the call", source_type="dev", source_id=5, name="Lamp")
    await until(lambda: len(live.logs) >= 1)
    later(0.1, emu, "debug", "noise", source_type="dev", source_id=5, name="Lamp")
    later(0.15, emu, "warn", "battery &low <1>", source_type="dev", source_id=5, name="Lamp")
    later(0.2, emu, "error", "boom", source_type="app", source_id=9, name="Rule 1")
    data = await tail(manager_hub, 0.6, level="warn")
    assert data["via"] == "live_stream"
    msgs = [(line["level"], line["message"]) for line in data["lines"]]
    assert msgs == [("warn", "battery &low <1>"), ("error", "boom")]
    assert data["listened_s"] >= 0.5
    assert data["recent"] == []  # "before the call" is info: below warn

    later(0.05, emu, "info", "hello kitchen", source_type="app", source_id=9, name="Rule 1")
    later(0.06, emu, "info", "hello hall", source_type="dev", source_id=5, name="Lamp")
    by_text = await tail(manager_hub, 0.4, text="HELLO", source_type="app")
    assert [line["message"] for line in by_text["lines"]] == ["hello kitchen"]
    by_name = await tail(manager_hub, 0, source="lamp")
    recent = [line["message"] for line in by_name["recent"]]
    assert recent[0] == "before the call" and recent[-1] == "hello hall"
    assert by_name["lines"] == []


async def test_tail_logs_limit_returns_early(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    for i in range(5):
        later(0.05, emu, "info", f"line {i}")
    data = await tail(manager_hub, 30, limit=3)
    assert data["count"] == 3
    assert data["listened_s"] < 5
    assert "truncated" in data


async def test_tail_logs_without_stream_uses_one_shot_socket(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    assert manager_hub.cache is None
    later(0.2, emu, "error", "one shot", source_type="dev", source_id=3, name="X")
    data = await tail(manager_hub, 0.7)
    assert data["via"] == "one_shot_socket"
    assert [line["message"] for line in data["lines"]] == ["one shot"]
    assert data["recent"] == [] and data["recent_note"] == NO_LOG_RING_NOTE
    assert manager_hub.live.log_tail.sockets_opened == 1
    await until(lambda: emu.log_socket_count == 0, what="the one-shot socket closed")


async def test_recent_events_from_the_ring_need_no_requests(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    dev_id = a_switch(emu)
    emu.set_device_attribute(dev_id, "switch", "on", force=True)
    emu.set_variable("ringVar", "a")
    await until(lambda: "ringVar" in live.variables)
    recent = manager_hub.live.recent_events
    before = len(emu.requests)
    data = await recent(EventFilter(), 10, every_device)
    assert len(emu.requests) == before
    names = [e["name"] for e in data["events"]]
    assert names[0] == "variable:ringVar" and "switch" in names
    assert data["freshness"]["source"] == "live_cache"
    only_dev = await recent(EventFilter(device_id=str(dev_id)), 50, every_device)
    assert {e["device_id"] for e in only_dev["events"]} == {str(dev_id)}
    loc = await recent(EventFilter(source="LOCATION", since_s=60), 50, every_device)
    assert all(e["source"] == "LOCATION" for e in loc["events"])
    assert loc["count"] >= 1
    assert len(emu.requests) == before


async def test_recent_events_without_stream_read_hub_history(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    assert manager_hub.cache is None
    emu.set_mode(next(m["name"] for m in emu.modes if m["name"] != emu.current_mode))
    recent = manager_hub.live.recent_events
    data = await recent(EventFilter(name="mode"), 50, every_device)
    assert data["freshness"]["source"] == "hub_history"
    assert data["events"] and data["events"][0]["name"] == "mode"
    assert "location event history" in data["note"]
    dev_id = a_switch(emu)
    emu.set_device_attribute(dev_id, "switch", "on", force=True)
    dev = await recent(EventFilter(device_id=str(dev_id)), 3, every_device)
    assert dev["events"][0]["device_id"] == str(dev_id)
    assert dev["count"] <= 3 and "device history" in dev["note"]


# ---------------------------------------------------------------- other reads on the live cache


async def test_hsm_and_variables_from_the_cache(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    emu.set_hsm("armedHome")
    emu.set_variable("cachedVar", 41)
    emu.set_variable("cachedVar", 42)
    await until(lambda: live.variables.get("cachedVar", {}).get("value") == "42")
    await until(lambda: live.hsm_status == "armedHome")
    # a variable first seen in an event has no type yet: one hub read, then cached
    await manager_hub.variables.list_variables()
    before = len(emu.requests)
    hsm = await manager_hub.hsm.status()
    assert hsm["status"] == "armedHome"
    assert hsm["freshness"]["source"] == "live_cache"
    variables = await manager_hub.variables.list_variables()
    assert len(emu.requests) == before, emu.requests[before:]
    found = [v for v in variables if v["name"] == "cachedVar"]
    assert found and found[0]["value"] == 42


async def test_modes_from_the_cache(emu: HubEmulator, manager_hub: Hub, live: StateCache) -> None:
    """The active mode is event-driven; the mode list is re-read at most once a minute."""
    modes = manager_hub.modes
    first = await modes.list_with_manager()
    target = next(m["name"] for m in first["modes"] if not m["active"])
    emu.set_mode(target)  # changed on the hub itself
    await until(lambda: live.mode == target)
    before = len(emu.requests)
    again = await modes.list_with_manager()
    assert again["active_mode"] == target
    assert len(emu.requests) == before  # answered from the cache
    await modes.create("Vacation", None)
    listed = await modes.list_modes()  # our own edit: re-read
    assert "Vacation" in [m["name"] for m in listed["modes"]]
    back = next(m["name"] for m in listed["modes"] if m["name"] != target)
    switched = await modes.set_mode(back)
    assert switched["changed"] is True and switched["mode"] == back
    assert (await modes.list_modes())["active_mode"] == back
