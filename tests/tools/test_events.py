"""hub_tail_logs and hub_list_recent_events, with and without a live stream."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools import event_stream
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from hubitat_emulator import HubEmulator

from ..conftest import FAST, ToolCaller, a_switch, add_entry, until

pytestmark = pytest.mark.usefixtures("fast_stream")


@pytest.fixture
async def live(live: StateCache) -> StateCache:
    """The stream live (conftest), its log socket too."""
    await until(lambda: live.logs_live, what="log socket")
    return live


def later(delay: float, hub: HubEmulator, level: str, msg: str, **kw: Any) -> None:
    """Let the hub log ``msg`` after ``delay`` seconds (``kw`` as for ``hub.add_log``)."""
    asyncio.get_running_loop().call_later(delay, lambda: hub.add_log(level, msg, **kw))


async def test_tail_logs_live_with_filters(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    hub.add_log("info", "before the call", source_type="dev", source_id=5, name="Lamp")
    await until(lambda: len(live.logs) >= 1)
    later(0.1, hub, "debug", "noise", source_type="dev", source_id=5, name="Lamp")
    later(0.15, hub, "warn", "battery &low <1>", source_type="dev", source_id=5, name="Lamp")
    later(0.2, hub, "error", "boom", source_type="app", source_id=9, name="Rule 1")
    result = await call_tool("hub_tail_logs", {"window_s": 0.6, "level": "warn"})
    assert not result.error, result.data
    assert result.data["via"] == "live_stream"
    msgs = [(line["level"], line["message"]) for line in result.data["lines"]]
    assert msgs == [("warn", "battery &low <1>"), ("error", "boom")]
    assert result.data["listened_s"] >= 0.5
    assert result.data["recent"] == []  # "before the call" is info: below warn

    later(0.05, hub, "info", "hello kitchen", source_type="app", source_id=9, name="Rule 1")
    later(0.06, hub, "info", "hello hall", source_type="dev", source_id=5, name="Lamp")
    by_text = await call_tool(
        "hub_tail_logs", {"window_s": 0.4, "text": "HELLO", "source_type": "app"}
    )
    assert [line["message"] for line in by_text.data["lines"]] == ["hello kitchen"]
    by_name = await call_tool("hub_tail_logs", {"window_s": 0, "source": "lamp"})
    recent = [line["message"] for line in by_name.data["recent"]]
    assert recent[0] == "before the call" and recent[-1] == "hello hall"
    assert by_name.data["lines"] == []


async def test_tail_logs_limit_returns_early(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    for i in range(5):
        later(0.05, hub, "info", f"line {i}")
    result = await call_tool("hub_tail_logs", {"window_s": 30, "limit": 3})
    assert result.data["count"] == 3
    assert result.data["listened_s"] < 5
    assert "truncated" in result.data


async def test_tail_logs_without_stream_uses_one_shot_socket(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(event_stream, "STREAM_CONFIG", replace(FAST, enabled=False))
    entry = await add_entry(hass, hub)
    assert entry.runtime_data.hub.cache is None
    later(0.2, hub, "error", "one shot", source_type="dev", source_id=3, name="X")
    result = await call_tool("hub_tail_logs", {"window_s": 0.7})
    assert not result.error, result.data
    assert result.data["via"] == "one_shot_socket"
    assert [line["message"] for line in result.data["lines"]] == ["one shot"]
    assert hub.log_socket_count == 0 or await _closed(hub)


async def _closed(hub: HubEmulator) -> bool:
    await until(lambda: hub.log_socket_count == 0)
    return True


async def test_tail_logs_rejects_long_windows(
    hass: HomeAssistant, entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_tail_logs", {"window_s": 61})
    assert result.error and result.data["error"] == "invalid_arguments"


async def test_recent_events_from_the_ring_need_no_requests(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    hub.set_device_attribute(dev_id, "switch", "on", force=True)
    hub.set_variable("ringVar", "a")
    await until(lambda: "ringVar" in live.variables)
    before = len(hub.requests)
    result = await call_tool("hub_list_recent_events", {"limit": 10})
    assert not result.error, result.data
    assert len(hub.requests) == before
    names = [e["name"] for e in result.data["events"]]
    assert names[0] == "variable:ringVar" and "switch" in names
    assert result.data["freshness"]["source"] == "live_cache"
    only_dev = await call_tool("hub_list_recent_events", {"device_id": str(dev_id)})
    assert {e["device_id"] for e in only_dev.data["events"]} == {str(dev_id)}
    loc = await call_tool("hub_list_recent_events", {"source": "location", "since_s": 60})
    assert all(e["source"] == "LOCATION" for e in loc.data["events"])
    assert loc.data["count"] >= 1


async def test_recent_events_without_stream_read_hub_history(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(event_stream, "STREAM_CONFIG", replace(FAST, enabled=False))
    entry = await add_entry(hass, hub)
    assert entry.runtime_data.hub.cache is None
    hub.set_mode(next(m["name"] for m in hub.modes if m["name"] != hub.current_mode))
    result = await call_tool("hub_list_recent_events", {"name": "mode"})
    assert not result.error, result.data
    assert result.data["freshness"]["source"] == "hub_history"
    assert result.data["events"] and result.data["events"][0]["name"] == "mode"
    dev_id = a_switch(hub)
    hub.set_device_attribute(dev_id, "switch", "on", force=True)
    dev = await call_tool("hub_list_recent_events", {"device_id": str(dev_id), "limit": 3})
    assert not dev.error, dev.data
    assert dev.data["events"][0]["device_id"] == str(dev_id)
