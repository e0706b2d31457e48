"""hub_create_device from system and user drivers (name, id, namespace:name) with label and
room; the device list stays true after creates, edits and deletes (live cache on and off).

The tools' part is here: the answer and summary of hub_create_device, the advice naming
hub_list_code, hub_create_room and hub_list_devices, the freshness of a list answered from
the live cache, and one call of each tool. Choosing the driver (name, id, namespace:name,
ambiguous or unknown), the create requests, label and room, and the device list following
creates, edits, deletes and room changes (with a list re-read keeping the events that arrive
meanwhile) are tested without hass in tests/managers/test_device_create.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools import event_stream
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from hubitat_emulator import HubEmulator

from ..conftest import FAST, ToolCaller, ensure_stream, ok, refused
from ..helpers.device_create import COUNTER, creates
from ..home_util import dev_id, sent


async def install(call_tool: ToolCaller, source: str) -> str:
    data = await ok(
        call_tool, "hub_install_code", {"type": "driver", "source": source, "confirm": True}
    )
    return str(data["id"])


async def test_a_driver_installed_by_us_creates_a_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    code_id = await install(call_tool, COUNTER)
    listed = await ok(call_tool, "hub_list_code", {"type": "driver", "text": "Virtual Counter"})
    assert str(listed["code"][0]["id"]) == code_id
    before = len(hub.requests)
    data = await ok(
        call_tool,
        "hub_create_device",
        {"driver": "home:Virtual Counter", "label": "Count", "room": "Office"},
    )
    new_id = data["device"]["device_id"]
    assert data["summary"] == f"Created Count (device {new_id}, Virtual Counter)"
    assert data["virtual"] is True and "note" not in data
    assert data["device"]["room"] == "Office" and data["driver"] == "Virtual Counter"
    assert f"/device/createVirtual?deviceTypeId={code_id}" in creates(hub, before)
    assert hub.device(new_id)["label"] == "Count"


async def test_a_radio_driver_s_shell_says_how_to_include(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_create_device", {"driver": "Generic Z-Wave Switch"})
    assert data["virtual"] is False
    assert "unpaired shell" in data["note"]
    assert data["note"].endswith("To include: hub_call_radio_action action=inclusion_start.")


async def test_refused_drivers_and_rooms_advise_the_tools_and_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    await install(call_tool, COUNTER.replace("Virtual Counter", "Virtual Switch"))
    before = len(hub.requests)
    data = await refused(call_tool, "hub_create_device", {"driver": "virtual switch"})
    assert "ambiguous" in data["message"] and "namespace:name" in data["hint"]
    data = await refused(call_tool, "hub_create_device", {"driver": "Virtual Countr"})
    assert "hub_list_code" in data["hint"] and "Virtual Countr" not in data["hint"]
    data = await refused(
        call_tool, "hub_create_device", {"driver": "hubitat:Virtual Switch", "room": "Attic"}
    )
    assert "Attic" in data["message"] and "hub_create_room" in data["hint"]
    assert sent(hub, before) == []


# ---------------------------------------------------------------- the list after changes


@pytest.fixture(params=["live", "hub"])
async def cache(
    request: pytest.FixtureRequest,
    hass: HomeAssistant,
    entry: MockConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[StateCache | None]:
    """The device list read from the live cache, or (no stream) from the hub."""
    if request.param == "hub":
        yield None
        return
    monkeypatch.setattr(event_stream, "STREAM_CONFIG", FAST)
    live = await ensure_stream(hass, entry, FAST)
    yield live
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()


async def listed(call_tool: ToolCaller, text: str) -> list[dict[str, Any]]:
    data = await ok(call_tool, "hub_list_devices", {"text": text})
    devices: list[dict[str, Any]] = data["devices"]
    return devices


async def test_the_list_follows_creates_edits_and_deletes(
    hub: HubEmulator, cache: StateCache | None, call_tool: ToolCaller
) -> None:
    """The answers of the tools around the list (the list itself, with the live cache and
    without: tests/managers/test_device_create.py)."""
    hub.mark_backup_now()
    old = dev_id(hub, "Old Hallway Sensor")
    assert [d["device_id"] for d in await listed(call_tool, "Old Hallway")] == [old]
    await ok(call_tool, "hub_delete_device", {"device_id": old, "confirm": True})
    after = await ok(call_tool, "hub_list_devices", {"text": "Old Hallway"})
    assert after["devices"] == []
    if cache is None:
        assert "freshness" not in after
    else:
        assert after["freshness"]["source"] == "live_cache"  # no re-read needed
    new = (await ok(call_tool, "hub_create_device", {"driver": "Virtual Switch", "label": "Aa"}))[
        "device"
    ]["device_id"]
    await ok(call_tool, "hub_update_device", {"device_id": new, "label": "Bb", "room": "Garage"})
    (dev,) = await listed(call_tool, "Bb")
    assert dev["device_id"] == new and dev["room"] == "Garage"
    # deleted in the hub UI: the detail read finds it gone and says where to look
    hub.delete_device(int(new))
    gone = await refused(call_tool, "hub_get_device", {"device_id": new}, "not_found")
    assert "hub_list_devices" in gone["hint"]
    assert await listed(call_tool, "Bb") == []


async def test_the_list_follows_room_changes(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The room tools' changes show in the next list (with the live cache and without:
    tests/managers/test_device_create.py)."""
    lamp = dev_id(hub, "Guest Lamp")
    await ok(call_tool, "hub_update_room", {"room": "Office", "add_device_ids": [lamp]})
    (dev,) = await listed(call_tool, "Guest Lamp")
    assert dev["room"] == "Office"
    hub.mark_backup_now()
    await ok(call_tool, "hub_delete_room", {"room": "Office", "confirm": True})
    (dev,) = await listed(call_tool, "Guest Lamp")
    assert dev.get("room") is None
    await ok(call_tool, "hub_create_room", {"name": "Den", "device_ids": [lamp]})
    (dev,) = await listed(call_tool, "Guest Lamp")
    assert dev["room"] == "Den"
