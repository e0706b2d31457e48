"""The network settings manager (``managers/network.py``) on its own, no hass: a static IP
sent, saved and the hub rebooted at its new address (the address to follow said), DHCP with a
DNS override, every unusable static configuration refused before anything is sent, a hub
answering a page instead of the change, the Ethernet link kept when it is the only one and
dropped for the Wi-Fi one, the Wi-Fi link and the cloud connection turned off and on, and the
Ethernet speed, each read back, over the emulated hub.

Moved from tests/tools/test_network_settings.py (the settings logic is the manager's; the
tool's confirmation and backup gates, its one-change-a-call refusals, Home Assistant
following the hub to its new address (or keeping the entry when nothing answers there) and the
hub identified before it is followed stay there; the recorded shape of the network page
after a change is the library's: tests/hub/test_network.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import pytest_socket

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.network import check_static
from hubitat_emulator import HubEmulator


def _allow_other_addresses() -> None:
    """The hub may come back at other loopback addresses (127.0.0.2, .3); Home Assistant's
    test plugin allows 127.0.0.1 only (set after the fixtures, so here in the test)."""
    pytest_socket.socket_allow_hosts(["127.0.0.1", "127.0.0.2", "127.0.0.3"], True)


async def test_dhcp_dns_override(emu: HubEmulator, manager_hub: Hub) -> None:
    _allow_other_addresses()
    emu.reboot_downtime = 0.2
    emu.network.use_dns_fallover = True
    dns = await manager_hub.network.configure(
        "dhcp", address=None, netmask=None, gateway=None, dns_servers=["1.1.1.1", "8.8.8.8"]
    )
    assert dns["saved"]["dhcp_dns_override"] == ["1.1.1.1", "8.8.8.8"]
    assert dns["rebooting"] is True and "the hub is rebooting" in dns["summary"]
    # the fallback setting the call does not name is sent back as it was
    assert any("useDNSFallover=true" in p for _, p in emu.requests)


async def test_disconnect_wifi_and_cloud(emu: HubEmulator, manager_hub: Hub) -> None:
    network = manager_hub.network
    nothing = await network.disconnect("wifi")
    assert nothing["unchanged"] is True
    emu.network.wlan_address, emu.network.wifi_network = "192.168.1.77", "HomeNet"
    data = await network.disconnect("wifi")
    assert data["network"]["wifi_address"] is None and emu.network.wifi_network == ""
    off = await network.cloud(False)
    assert off["cloud_enabled"] is False and emu.network.cloud_disabled is True
    assert "Alexa" in off["warning"]
    same = await network.cloud(False)
    assert same["unchanged"] is True
    on = await network.cloud(True)
    assert on["cloud_enabled"] is True and emu.network.cloud_disabled is False


async def test_ethernet_speed_is_set_and_read_back(emu: HubEmulator, manager_hub: Hub) -> None:
    network = manager_hub.network
    before = len(emu.requests)
    data = await network.ethernet_speed("FIXED_100")
    sent = [p for _m, p in emu.requests[before:] if "ethernetMode" in p]
    assert sent == ["/hub/advanced/network/ethernetMode/FIXED_100"]
    assert data["previous"] == "AUTONEG" and data["network"]["ethernet_speed"] == "FIXED_100"
    assert emu.network.lan_autoneg == "FIXED_100"
    same = await network.ethernet_speed("FIXED_100")
    assert same["unchanged"] is True
    emu.network.has_ethernet = False
    with pytest.raises(ToolError, match="no Ethernet"):
        await network.ethernet_speed("AUTONEG")


async def _until_running_at(emu: HubEmulator, host: str, seconds: float = 8.0) -> None:
    """Wait until the emulated hub answers again, at ``host``."""
    end = time.monotonic() + seconds
    while not (emu.url.startswith(f"http://{host}:") and emu.status == "running"):
        assert time.monotonic() < end, f"the hub never came back at {host}"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize(
    ("address", "netmask", "gateway"),
    [
        ("192.168.1.0", "255.255.255.0", "192.168.1.1"),  # the network itself
        ("192.168.1.255", "255.255.255.0", "192.168.1.1"),  # broadcast
        ("192.168.1.5", "255.255.255.0", "192.168.2.1"),  # gateway elsewhere
        ("192.168.1.5", "255.255.255.0", "192.168.1.5"),  # gateway = hub
        ("192.168.1.5", "255.0.255.0", "192.168.1.1"),  # not a netmask
    ],
)
def test_static_configurations_refused(address: str, netmask: str, gateway: str) -> None:
    with pytest.raises(ToolError, match="Nothing was sent"):
        check_static(address, netmask, gateway)


async def test_static_ip_is_sent_saved_and_the_hub_reboots_there(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    _allow_other_addresses()
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.1
    data = await manager_hub.network.configure(
        "static",
        address="127.0.0.2",
        netmask="255.0.0.0",
        gateway="127.0.0.254",
        dns_servers=["9.9.9.9"],
    )
    assert data["rebooting"] is True and data["saved"]["static"]["address"] == "127.0.0.2"
    assert "unreachable" in data["warning"] and "reset button" in data["warning"]
    # the address Home Assistant is to follow (the tool hands it to the address follower)
    assert data["follow"] == "127.0.0.2" and "answers at 127.0.0.2" in data["note"]
    sent = [p for _, p in emu.requests if "switchToStaticIp" in p]
    assert sent and "address=127.0.0.2" in sent[0] and "nameserver=9.9.9.9" in sent[0]
    await _until_running_at(emu, "127.0.0.2")


async def test_refusals_send_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    network = manager_hub.network
    start = len(emu.requests)
    static = {"address": "127.0.0.2", "netmask": "255.0.0.0", "gateway": "127.0.0.254"}
    attempts: list[tuple[str, dict[str, Any], str]] = [
        ("static", {**static, "netmask": None, "gateway": None}, "needs address, netmask"),
        ("static", {**static, "gateway": "10.0.0.1"}, "gateway 10.0.0.1"),
        ("static", {**static, "netmask": "255.255.255.999"}, "Not an IPv4 address"),
        ("dhcp", {"address": "127.0.0.2", "netmask": None, "gateway": None}, "static' only"),
    ]
    attempts += [
        ("static", {**static, "address": bad}, "Not an IPv4 address")
        for bad in ("1.2.3", "127.0.0.2; reboot", "::1")
    ]
    for mode, addresses, word in attempts:
        with pytest.raises(ToolError) as refused:
            await network.configure(mode, dns_servers=None, **addresses)
        assert word in str(refused.value), (mode, addresses, str(refused.value))
    assert not [p for _, p in emu.requests[start:] if "/hub/advanced/" in p]
    assert emu.network.pending_mode is None


async def test_hub_refusal_text_is_an_error(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.faults.reshape_paths["/hub/advanced/switchToStaticIp"] = "html"
    with pytest.raises(HubError) as failed:
        await manager_hub.network.configure(
            "static",
            address="127.0.0.2",
            netmask="255.0.0.0",
            gateway="127.0.0.254",
            dns_servers=["9.9.9.9"],
        )
    assert failed.value.code == "hub_bad_response"
    assert emu.url.startswith("http://127.0.0.1:") and emu.status == "running"


async def test_disconnect_ethernet_keeps_the_only_link_and_follows_to_wifi(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    _allow_other_addresses()
    network = manager_hub.network
    start = len(emu.requests)
    with pytest.raises(ToolError, match="only connection"):
        await network.disconnect("ethernet")
    assert not [p for _, p in emu.requests[start:] if "/hub/advanced/" in p]
    emu.network.wlan_address, emu.network.wifi_network = "127.0.0.3", "HomeNet"
    data = await network.disconnect("ethernet")
    assert data["follow"] == "127.0.0.3" and "127.0.0.3" in data["note"]
    await _until_running_at(emu, "127.0.0.3")
