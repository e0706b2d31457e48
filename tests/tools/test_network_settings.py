"""hub_update_network_settings: static IP / DHCP, links, cloud; the entry follows the hub.

The tool's gates, its own refusals (no change, more than one), the following of the hub to
its new address and the hub identified before it is followed are here; what is sent and
saved for a static IP or DHCP with a DNS override, every unusable configuration refused, a
hub answering a page, the Ethernet link kept when it is the only one, the Wi-Fi link, the
cloud connection and the Ethernet speed are tested without hass in
tests/managers/test_network.py, and the recorded shape of the network page after a change
in tests/hub/test_network.py."""

from __future__ import annotations

import asyncio
import time

import pytest
import pytest_socket
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import CONF_HOST
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools import address_follow
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused

STATIC = {
    "mode": "static",
    "address": "127.0.0.2",
    "netmask": "255.0.0.0",
    "gateway": "127.0.0.254",
    "dns_servers": ["9.9.9.9"],
    "confirm": True,
}


@pytest.fixture(autouse=True)
def _fast_follow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(address_follow, "FOLLOW_INTERVAL_S", 0.1)
    monkeypatch.setattr(address_follow, "FOLLOW_WINDOW_S", 8.0)


def _allow_other_addresses() -> None:
    """The hub's new addresses are other loopback addresses (127.0.0.2, .3); Home Assistant's
    test plugin allows 127.0.0.1 only (set after the fixtures, so here in the test)."""
    pytest_socket.socket_allow_hosts(["127.0.0.1", "127.0.0.2", "127.0.0.3"], True)


async def _until(check: object, seconds: float = 8.0) -> None:
    end = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.05)


async def test_static_ip_reboots_and_the_entry_follows(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its gates, its answer and Home Assistant following the hub to its new
    address (what is sent and saved: tests/managers/test_network.py)."""
    _allow_other_addresses()
    await refused(call_tool, "hub_update_network_settings", {**STATIC, "confirm": False})
    await refused(call_tool, "hub_update_network_settings", STATIC, "backup_required")
    hub.mark_backup_now()
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.1
    data = await ok(call_tool, "hub_update_network_settings", STATIC)
    assert data["rebooting"] is True and data["saved"]["static"]["address"] == "127.0.0.2"
    assert "reset button" in data["warning"] and "watches 127.0.0.2" in data["follow"]
    await _until(lambda: entry.data[CONF_HOST] == "127.0.0.2")
    await hass.async_block_till_done()
    await _until(lambda: entry.state is ConfigEntryState.LOADED)
    assert hub.url.startswith("http://127.0.0.2:")
    info = await ok(call_tool, "hub_get_info")
    assert info["network"]["mode"] == "static" and info["ip"] == "127.0.0.2"


async def test_new_address_not_answering_keeps_the_entry(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _allow_other_addresses()
    monkeypatch.setattr(address_follow, "FOLLOW_WINDOW_S", 1.0)
    hub.mark_backup_now()
    hub.reboot_downtime = 0.2
    hub.network.answer_at_new_address = False
    data = await ok(call_tool, "hub_update_network_settings", STATIC)
    assert "find.hubitat.com" in data["warning"] and "Reconfigure" in data["warning"]
    await asyncio.sleep(1.5)
    assert entry.data[CONF_HOST] == "127.0.0.1" and hub.server.status == "down"


async def test_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's own refusals (no change, two changes) and the manager's as the tool answers
    them (every refusal of the manager: tests/managers/test_network.py)."""
    hub.mark_backup_now()
    start = len(hub.requests)
    for args in (
        {"confirm": True},
        {"mode": "static", "disconnect": "wifi", "confirm": True},
        {**STATIC, "gateway": "10.0.0.1"},
        {**STATIC, "address": "127.0.0.2; reboot"},
    ):
        await refused(call_tool, "hub_update_network_settings", args)
    both = await refused(
        call_tool, "hub_update_network_settings", {**STATIC, "cloud_enabled": False}
    )
    assert "exactly one" in both["message"] and "hub_get_info" in both["hint"]
    assert not [p for _, p in hub.requests[start:] if "/hub/advanced/" in p]
    assert hub.network.pending_mode is None


async def test_disconnect_ethernet_follows_to_wifi(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: Home Assistant follows the hub to its Wi-Fi address (the only link
    kept, the address to follow: tests/managers/test_network.py)."""
    _allow_other_addresses()
    hub.mark_backup_now()
    args = {"disconnect": "ethernet", "confirm": True}
    hub.network.wlan_address, hub.network.wifi_network = "127.0.0.3", "HomeNet"
    data = await ok(call_tool, "hub_update_network_settings", args)
    assert "127.0.0.3" in data["follow"]
    await _until(lambda: entry.data[CONF_HOST] == "127.0.0.3")
    await hass.async_block_till_done()
    await _until(lambda: entry.state is ConfigEntryState.LOADED)
    info = await ok(call_tool, "hub_get_info")
    assert info["network"]["wifi_address"] == "127.0.0.3"


async def test_identifies_only_the_same_hub(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    _allow_other_addresses()
    assert await address_follow.identifies_as(hass, entry, "127.0.0.1") is True
    assert await address_follow.identifies_as(hass, entry, "127.0.0.3") is False  # nothing there
    hass.config_entries.async_update_entry(entry, unique_id="another-hub")
    assert await address_follow.identifies_as(hass, entry, "127.0.0.1") is False


async def test_identifies_a_secure_hub_with_its_credentials(
    hass: HomeAssistant, secure_hub: HubEmulator
) -> None:
    from ..conftest import add_entry

    entry = await add_entry(hass, secure_hub)
    start = len(secure_hub.requests)
    assert await address_follow.identifies_as(hass, entry, "127.0.0.1") is True
    # asked without the credentials first, then logged in
    sent = [p for _, p in secure_hub.requests[start:]]
    assert sent[0] == "/hub/details/json" and "/login" in sent


async def test_ethernet_speed_gates_and_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the backup gate, one change a call and the speed's values (setting it
    and reading it back: tests/managers/test_network.py)."""
    args = {"ethernet_speed": "FIXED_100", "confirm": True}
    await refused(call_tool, "hub_update_network_settings", args, "backup_required")
    assert hub.network.lan_autoneg == "AUTONEG"
    hub.mark_backup_now()
    data = await ok(call_tool, "hub_update_network_settings", args)
    assert data["network"]["ethernet_speed"] == "FIXED_100"
    both = await call_tool("hub_update_network_settings", {**args, "cloud_enabled": True})
    assert both.error and "exactly one" in both.data["message"]
    bad = await call_tool("hub_update_network_settings", {"ethernet_speed": "1G", "confirm": True})
    assert bad.error and bad.data["error"] == "invalid_arguments"
