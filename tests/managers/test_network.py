"""The network settings manager (``managers/network.py``) on its own, no hass: DHCP with a
DNS override saved and the hub rebooted, the Wi-Fi link and the cloud connection turned off
and on, and the Ethernet speed, each read back, over the emulated hub.

Moved from tests/tools/test_network_settings.py (the settings logic is the manager's; the
tool's confirmation and backup gates, its one-change-a-call and argument refusals, and Home
Assistant following the hub to its new address stay there)."""

from __future__ import annotations

import pytest
import pytest_socket

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
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
