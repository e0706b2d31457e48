"""Hub operations: network tests, identify LED, memory cleanup, time zone and dark mode."""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.network import (
    network_config_from,
    summarize_test,
    valid_host,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..contract import load_fixture


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("1.1.1.1", "1.1.1.1"),
        ("Example.COM", "example.com"),
        ("router-1.lan", "router-1.lan"),
        ("300.1.1.1", None),
        ("1.1.1", None),
        ("gateway", None),
        ("default", None),
        ("-bad.com", None),
        ("a..b", None),
        ("x" * 64 + ".com", None),
    ],
)
def test_valid_host(text: str, host: str | None) -> None:
    assert valid_host(text) == host


def test_summaries_read_the_figures() -> None:
    ping = (
        "4 packets transmitted, 3 packets received, 25% packet loss\n"
        "round-trip min/avg/max = 1.0/2.5/4.0 ms"
    )
    assert summarize_test("ping", ping) == {
        "packet_loss_percent": 25.0,
        "average_ms": 2.5,
        "output": ping,
    }
    assert summarize_test("speed_test", "Download: 41.5 Mbps")["speed"] == "41.5 Mbps"
    long = summarize_test("traceroute", "x" * 5000)
    assert len(long["output"]) == 4000 and long["output_truncated"] is True


def test_network_configuration_fixture_parses() -> None:
    answer = load_fixture("network/network_configuration").answer
    cfg = network_config_from(answer)
    assert cfg.lan_address == "192.168.1.40" and cfg.dns_servers == ["192.168.1.1"]
    assert cfg.static_name_servers == ["9.9.9.9"] and not cfg.using_static_ip
    # the page also copes with the static name servers as one text
    text = network_config_from({**answer, "staticNameServers": "1.1.1.1, 8.8.8.8"})
    assert text.static_name_servers == ["1.1.1.1", "8.8.8.8"]


async def test_ping_traceroute_and_speed_test(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.network.ping_loss["8.8.8.8"] = 50
    ping = await ok(call_tool, "hub_call_network_test", {"test": "ping", "host": "8.8.8.8"})
    assert ping["finished"] is True and ping["packet_loss_percent"] == 50
    assert "50% packet loss" in ping["summary"]
    assert ("GET", "/hub/networkTest/ping/8.8.8.8") in hub.requests
    default = await ok(call_tool, "hub_call_network_test", {"test": "ping"})
    assert default["host"] == "1.1.1.1" and default["packet_loss_percent"] == 0
    gw = await ok(call_tool, "hub_call_network_test", {"test": "ping_gateway"})
    assert ("GET", "/hub/networkTest/ping/gateway") in hub.requests and "gateway" in gw["summary"]
    trace = await ok(
        call_tool, "hub_call_network_test", {"test": "traceroute", "host": "example.com"}
    )
    assert "3 hops" in trace["summary"] and "example.com" in trace["output"]
    hub.network.speed_mbps = 41.5
    speed = await ok(call_tool, "hub_call_network_test", {"test": "speed_test"})
    assert speed["speed"] == "41.5 Mbps" and ("GET", "/hub/networkTest/speedtest") in hub.requests


async def test_network_test_refuses_bad_hosts_without_sending(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    for host in ("1.1.1.1;reboot", "a b", "$(id)", "../../hub/reboot", "x/y", "a%2Fb", "\n"):
        await refused(
            call_tool, "hub_call_network_test", {"test": "ping", "host": host}, "invalid_request"
        )
    for host in ("gateway", "999.1.1.1"):
        await refused(call_tool, "hub_call_network_test", {"test": "traceroute", "host": host})
    await refused(call_tool, "hub_call_network_test", {"test": "speed_test", "host": "a.com"})
    assert not [p for _, p in hub.requests[start:] if "networkTest" in p]


async def test_slow_test_answers_unfinished(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    from custom_components.hubitat_dev_tools.managers import hub_ops

    monkeypatch.setitem(hub_ops.TEST_TIMEOUT_S, "speed_test", 3.0)
    hub.faults.delay_paths["/hub/networkTest/speedtest"] = 5.0
    data = await ok(call_tool, "hub_call_network_test", {"test": "speed_test"})
    assert data["finished"] is False and "did not finish within 3 s" in data["summary"]


async def test_blink_led_and_free_memory(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    blink = await ok(call_tool, "hub_call_hub_action", {"action": "blink_led"})
    assert hub.network.blinks == 1 and "blinking" in blink["summary"]
    hub.network.garbage_kb = 30000
    gc = await ok(call_tool, "hub_call_hub_action", {"action": "free_memory"})
    assert hub.network.gc_runs == 1 and gc["freed_kb"] == 30000
    assert gc["free_memory_kb_after"] - gc["free_memory_kb_before"] == 30000
    again = await ok(call_tool, "hub_call_hub_action", {"action": "free_memory"})
    assert again["freed_kb"] == 0 and "Nothing was freed" in again["note"]


async def test_info_tool_answers_the_hub_information(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answer (the network part: tests/managers/test_hub_info.py)."""
    info = await ok(call_tool, "hub_get_info")
    assert info["network"]["mode"] == "dhcp"


async def test_time_zone_is_destructive_and_verified(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    await refused(
        call_tool, "hub_update_hub_settings", {"time_zone": "Europe/Paris"}, "confirmation_required"
    )
    args = {"time_zone": "Europe/Paris", "confirm": True}
    await refused(call_tool, "hub_update_hub_settings", args, "backup_required")
    assert not [p for m, p in hub.requests[start:] if m == "POST"]
    hub.mark_backup_now()
    bad = await refused(call_tool, "hub_update_hub_settings", {**args, "time_zone": "Mars/Base"})
    assert "not one of the hub's time zones" in bad["message"]
    hub.reboot_downtime = 0.3
    data = await ok(call_tool, "hub_update_hub_settings", args)
    assert data["changed"]["timeZone"]["to"] == "Europe/Paris"
    assert hub.state.time_zone == "Europe/Paris"
    assert "reboot" in (data.get("note_time_zone") or data.get("note", ""))


async def test_dark_mode_is_sent_alone(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    data = await ok(call_tool, "hub_update_hub_settings", {"dark_mode": True})
    assert hub.network.dark_mode is True and data["changed"] == {"dark_mode": {"to": True}}
    assert "no way to read it back" in data["dark_mode_note"]
    assert not [p for m, p in hub.requests[start:] if m == "POST"]  # no location save
    both = await ok(call_tool, "hub_update_hub_settings", {"dark_mode": False, "zip_code": "10001"})
    assert set(both["changed"]) == {"zipCode", "dark_mode"} and hub.network.dark_mode is False
