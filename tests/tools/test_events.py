"""hub_tail_logs and hub_list_recent_events through the tools, with and without a live stream.

The tools' part is here: the listening window's limit, the filters reaching the manager, the
advice naming hub_get_logs when no log ring runs, and one call of each tool. The listening
itself (live and one-shot sockets, level, source and text filters, the line limit, the recent
lines) and the recent events (the live ring with no hub request, the hub's own history
without a stream) are tested without hass in tests/managers/test_events.py."""

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


async def test_tail_logs_live_passes_its_filters(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    later(0.1, hub, "debug", "noise", source_type="dev", source_id=5, name="Lamp")
    later(0.15, hub, "warn", "battery &low <1>", source_type="dev", source_id=5, name="Lamp")
    later(0.2, hub, "error", "boom", source_type="app", source_id=9, name="Rule 1")
    result = await call_tool("hub_tail_logs", {"window_s": 0.6, "level": "warn"})
    assert not result.error, result.data
    assert result.data["via"] == "live_stream"
    msgs = [(line["level"], line["message"]) for line in result.data["lines"]]
    assert msgs == [("warn", "battery &low <1>"), ("error", "boom")]
    assert "recent_note" not in result.data and "pending" not in result.data


async def test_tail_logs_without_stream_advises_hub_get_logs(
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
    note = result.data["recent_note"]
    assert "not running" in note and note.endswith("Use hub_get_logs for past lines.")


async def test_tail_logs_rejects_long_windows(
    hass: HomeAssistant, entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_tail_logs", {"window_s": 61})
    assert result.error and result.data["error"] == "invalid_arguments"


async def test_recent_events_pass_their_filters(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    hub.set_device_attribute(dev_id, "switch", "on", force=True)
    await until(lambda: any(e.device_id == str(dev_id) for e in live.events))
    before = len(hub.requests)
    result = await call_tool(
        "hub_list_recent_events", {"device_id": str(dev_id), "source": "device", "limit": 10}
    )
    assert not result.error, result.data
    assert len(hub.requests) == before
    assert result.data["events"] and result.data["freshness"]["source"] == "live_cache"
    assert {(e["device_id"], e["source"]) for e in result.data["events"]} == {
        (str(dev_id), "DEVICE")
    }
