"""The hub information manager (``managers/hub_info.py``) on its own, no hass: the hub's
information with its network, and without it when the hub does not answer that page.

Moved from tests/tools/test_hub_ops.py (one tool-level call stays there)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


async def test_info_shows_the_network(emu: HubEmulator, manager_hub: Hub) -> None:
    info = await manager_hub.info.info()
    assert info["network"]["mode"] == "dhcp"
    assert info["network"]["ethernet_address"] == "127.0.0.1"
    emu.faults.fail_paths["/hub2/networkConfiguration"] = 404
    again = await manager_hub.info.info()
    assert again["network"] is None
    assert again["name"] == info["name"]  # the rest of the answer is still there
