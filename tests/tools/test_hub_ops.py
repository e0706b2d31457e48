"""Hub operations: network tests, identify LED, memory cleanup, time zone and dark mode.

Here stay the tools' part: each tool called by name with its answer, the network test's
host refusals and default host, the advice naming hub_get_health_report, and the hub
settings tool (time zone behind its confirmation and backup gates with the advice naming
hub_reboot_hub or hub_get_info, dark mode and its answer). Tested without hass elsewhere:
running the network tests (the paths asked, the figures read, a test slower than its bound,
too little time left), the identify LED and the memory cleanup in
tests/managers/test_hub_ops.py; the time-zone change (refused, verified, or answered as
rebooting) and the dark mode sent alone in tests/managers/test_hub_info.py; the parsing of
hosts, test outputs and the network page in tests/hub/test_hub_ops.py."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused


async def test_network_test_tool_asks_the_hub(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its default host and its answer (each test, its paths and figures:
    tests/managers/test_hub_ops.py::test_ping_traceroute_and_speed_test)."""
    hub.network.ping_loss["1.1.1.1"] = 25
    ping = await ok(call_tool, "hub_call_network_test", {"test": "ping"})
    assert ping["host"] == "1.1.1.1" and ping["finished"] is True
    assert ping["packet_loss_percent"] == 25 and "25% packet loss" in ping["summary"]
    assert ("GET", "/hub/networkTest/ping/1.1.1.1") in hub.requests
    gw = await ok(call_tool, "hub_call_network_test", {"test": "ping_gateway"})
    assert ("GET", "/hub/networkTest/ping/gateway") in hub.requests and "gateway" in gw["summary"]


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


async def test_blink_led_and_free_memory(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: each action by name, and the advice naming hub_get_health_report when
    nothing was freed (the figures: tests/managers/test_hub_ops.py)."""
    blink = await ok(call_tool, "hub_call_hub_action", {"action": "blink_led"})
    assert hub.network.blinks == 1 and "blinking" in blink["summary"]
    hub.network.garbage_kb = 30000
    gc = await ok(call_tool, "hub_call_hub_action", {"action": "free_memory"})
    assert hub.network.gc_runs == 1 and gc["freed_kb"] == 30000 and "note" not in gc
    again = await ok(call_tool, "hub_call_hub_action", {"action": "free_memory"})
    assert again["freed_kb"] == 0 and "Nothing was freed" in again["note"]
    assert "hub_get_health_report" in again["note"]


async def test_info_tool_answers_the_hub_information(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answer (the network part: tests/managers/test_hub_info.py)."""
    info = await ok(call_tool, "hub_get_info")
    assert info["network"]["mode"] == "dhcp"


async def test_time_zone_is_destructive_and_verified(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the confirmation and backup gates (nothing sent), the manager's
    refusal and its answer as the model sees them, with the advice naming hub_reboot_hub or
    hub_get_info (the change verified, the reboot noted, a hub rebooting before the read-back:
    tests/managers/test_hub_info.py)."""
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
    assert data["summary"] == "Hub settings changed: timeZone"
    assert hub.state.time_zone == "Europe/Paris"
    assert "reboot" in (data.get("note_time_zone") or data.get("note", ""))
    # the advice names the tool to reboot with, or to check the hub once it is back
    assert "hub_reboot_hub" in data.get("note_time_zone", "") or "hub_get_info" in data["note"]


async def test_dark_mode_is_sent_alone(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answer, and its zip_code beside the dark mode (sent alone with no location
    save, and beside a location change: tests/managers/test_hub_info.py::
    test_dark_mode_is_sent_alone)."""
    data = await ok(call_tool, "hub_update_hub_settings", {"dark_mode": True})
    assert hub.network.dark_mode is True and data["changed"] == {"dark_mode": {"to": True}}
    assert data["summary"] == "Hub settings changed: dark_mode"
    assert "no way to read it back" in data["dark_mode_note"]
    # beside a location change: the tool's zip_code reaches the hub as zipCode
    both = await ok(call_tool, "hub_update_hub_settings", {"dark_mode": False, "zip_code": "10001"})
    assert set(both["changed"]) == {"zipCode", "dark_mode"} and hub.state.zip_code == "10001"
