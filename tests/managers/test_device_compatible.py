"""The compatible-device catalog (``managers/devices/compatible.py``) on its own, no hass:
searched by words and by protocol, with or without the pairing steps, read once from the
emulated hub and then answered from the cache.

Moved from tests/tools/test_device_admin.py (the search is the manager's; the tool's refusal
of a search with neither text nor protocol stays there)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


async def test_search_compatible_devices(emu: HubEmulator, manager_hub: Hub) -> None:
    compatible = manager_hub.devices.compatible
    data = await compatible.search("zooz", None, 20, True)
    assert {d["name"] for d in data["devices"]} == {"ZEN77 Dimmer", "ZSE41 Open/Close XS"}
    assert data["count"] == 2
    dimmer = next(d for d in data["devices"] if d["product_number"] == "ZEN77")
    assert dimmer["driver"] == "Zooz Z-Wave Dimmer" and "<" not in dimmer["pairing"]
    contacts = await compatible.search("contact", "zigbee", 20, False)
    assert [d["brand"] for d in contacts["devices"]] == ["Aqara"]
    assert "pairing" not in contacts["devices"][0]
    matter = await compatible.search(None, "Matter", 20, True)
    assert matter["count"] == 1
    # the catalog is static: read once, then answered from the cache
    reads = [p for _m, p in emu.requests if p == "/hub/compatibleDevices"]
    assert len(reads) == 1
