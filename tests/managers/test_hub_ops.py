"""The hub operations manager (``managers/hub_ops.py``) on its own, no hass: the hub's
network tests (ping a host or the gateway, traceroute, speed test) asked on the hub's own
paths and read into figures and one sentence, a test slower than its bound answered as
unfinished, a call with too little time left refused before anything is sent, the identify
LED blinked, and a memory cleanup with the free memory before and after, over the emulated
hub.

Moved from tests/tools/test_hub_ops.py (the network test and hub action logic is the
manager's; the tools' host refusals, the advice naming hub_get_health_report and the
settings tool's gates and answers stay there; the time-zone change and the dark mode are
tested on the hub information manager in tests/managers/test_hub_info.py, the parsing of
hosts, test outputs and the network page in tests/hub/test_hub_ops.py)."""

from __future__ import annotations

import time

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers import hub_ops
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

CALL_S = 59.0  # what a tool call leaves the manager (its deadline less 1 s)


def deadline() -> float:
    return time.monotonic() + CALL_S


async def test_ping_traceroute_and_speed_test(emu: HubEmulator, manager_hub: Hub) -> None:
    ops = manager_hub.ops
    emu.network.ping_loss["8.8.8.8"] = 50
    ping = await ops.network_test("ping", "8.8.8.8", deadline())
    assert ping["finished"] is True and ping["packet_loss_percent"] == 50
    assert "50% packet loss" in ping["summary"] and ping["host"] == "8.8.8.8"
    assert ("GET", "/hub/networkTest/ping/8.8.8.8") in emu.requests
    default = await ops.network_test("ping", "1.1.1.1", deadline())
    assert default["host"] == "1.1.1.1" and default["packet_loss_percent"] == 0
    gw = await ops.network_test("ping_gateway", None, deadline())
    assert ("GET", "/hub/networkTest/ping/gateway") in emu.requests and "gateway" in gw["summary"]
    assert "host" not in gw
    trace = await ops.network_test("traceroute", "example.com", deadline())
    assert "3 hops" in trace["summary"] and "example.com" in trace["output"]
    emu.network.speed_mbps = 41.5
    speed = await ops.network_test("speed_test", None, deadline())
    assert speed["speed"] == "41.5 Mbps" and ("GET", "/hub/networkTest/speedtest") in emu.requests
    assert speed["summary"] == "Speed test: 41.5 Mbps"


async def test_slow_test_answers_unfinished(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(hub_ops.TEST_TIMEOUT_S, "speed_test", 3.0)
    emu.faults.delay_paths["/hub/networkTest/speedtest"] = 5.0
    data = await manager_hub.ops.network_test("speed_test", None, deadline())
    assert data["finished"] is False and "did not finish within 3 s" in data["summary"]


async def test_too_little_time_left_sends_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    before = len(emu.requests)
    with pytest.raises(ToolError, match="Not enough time left"):
        await manager_hub.ops.network_test("ping", "1.1.1.1", time.monotonic() + 2.0)
    assert not [p for _m, p in emu.requests[before:] if "networkTest" in p]


async def test_blink_led_and_free_memory(emu: HubEmulator, manager_hub: Hub) -> None:
    ops = manager_hub.ops
    blink = await ops.blink_led()
    assert emu.network.blinks == 1 and "blinking" in blink["summary"]
    emu.network.garbage_kb = 30000
    gc = await ops.free_memory(deadline())
    assert emu.network.gc_runs == 1 and gc["freed_kb"] == 30000
    assert gc["free_memory_kb_after"] - gc["free_memory_kb_before"] == 30000
    assert "+30000 KB" in gc["summary"] and "note" not in gc
    again = await ops.free_memory(deadline())
    assert again["freed_kb"] == 0 and "Nothing was freed" in again["note"]
    assert emu.network.gc_runs == 2
