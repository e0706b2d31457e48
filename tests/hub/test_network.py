"""The library's network settings functions (``hub/network.py``) on their own, no hass: a
static IP sent as the hub UI sends it and, once the hub has rebooted at its new address, the
network page read in the recorded shape with the new address in it.

Moved from tests/tools/test_network_settings.py (test_network_configuration_shape_after_a_change,
which made the change through hub_update_network_settings; here the library's functions make
it. The tool's gates, its own refusals, Home Assistant following the hub to its new address
and the hub identified before it is followed stay there; what the network settings manager
sends, saves and refuses is tested in tests/managers/test_network.py)."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest_socket
from yarl import URL

from custom_components.hubitat_dev_tools.hub import lifecycle as hub_lifecycle
from custom_components.hubitat_dev_tools.hub import network as hub_network
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape


def _allow_other_addresses() -> None:
    """The hub's new address is another loopback address (127.0.0.2); Home Assistant's test
    plugin allows 127.0.0.1 only (set after the fixtures, so here in the test)."""
    pytest_socket.socket_allow_hosts(["127.0.0.1", "127.0.0.2", "127.0.0.3"], True)


async def _until_running_at(hub: HubEmulator, host: str, seconds: float = 8.0) -> None:
    """Wait until the emulated hub answers again, at ``host``."""
    end = time.monotonic() + seconds
    while not (hub.url.startswith(f"http://{host}:") and hub.status == "running"):
        assert time.monotonic() < end, f"the hub never came back at {host}"
        await asyncio.sleep(0.05)


async def test_network_configuration_shape_after_a_change(hub: HubEmulator) -> None:
    _allow_other_addresses()
    hub.reboot_downtime = 0.2
    url = URL(hub.url)
    async with aiohttp.ClientSession() as session:
        client = HubClient(session, HubConnection(host=str(url.host), port=url.port))
        await hub_network.switch_to_static(
            client, "127.0.0.2", "255.0.0.0", "127.0.0.254", ["9.9.9.9"]
        )
        await hub_lifecycle.reboot(client)  # the hub applies network settings at boot
        await _until_running_at(hub, "127.0.0.2")
        async with session.get(f"{hub.url}/hub2/networkConfiguration") as resp:
            answer = json.loads(await resp.text())
    assert_same_shape("network/network_configuration", answer)
    assert answer["staticIP"] == "127.0.0.2" and answer["staticNameServers"] == ["9.9.9.9"]
