"""hub_create_device from system and user drivers (name, id, namespace:name) with label and
room; the device list stays true after creates, edits and deletes (live cache on and off)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any, cast

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools import event_stream
from custom_components.hubitat_dev_tools.hub.devices import match_drivers
from custom_components.hubitat_dev_tools.hub.events import HubEvent, HubSocket
from custom_components.hubitat_dev_tools.hub.models import parse_device_tree
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from hubitat_emulator import HubEmulator

from ..conftest import FAST, ToolCaller, ensure_stream, ok, refused
from ..contract import load_fixture
from ..home_util import dev_id, sent
from ..hub_fake import FakeHub

COUNTER = """metadata {
    definition(name: "Virtual Counter", namespace: "home", author: "me") {
        capability "Switch"
        capability "Temperature Measurement"
    }
}
def on() { }
def off() { }
"""


async def install(call_tool: ToolCaller, source: str) -> str:
    data = await ok(
        call_tool, "hub_install_code", {"type": "driver", "source": source, "confirm": True}
    )
    return str(data["id"])


def creates(hub: HubEmulator, before: int) -> list[str]:
    return [p for _m, p in hub.requests[before:] if p.startswith("/device/")]


async def test_a_driver_installed_by_us_creates_devices_by_name_id_and_namespace(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    code_id = await install(call_tool, COUNTER)
    listed = await ok(call_tool, "hub_list_code", {"type": "driver", "text": "Virtual Counter"})
    assert str(listed["code"][0]["id"]) == code_id
    for driver in ("Virtual Counter", code_id, "home:Virtual Counter"):
        before = len(hub.requests)
        data = await ok(
            call_tool, "hub_create_device", {"driver": driver, "label": "Count", "room": "Office"}
        )
        new = hub.device(data["device"]["device_id"])
        assert new["type"] == "Virtual Counter" and str(new["deviceTypeId"]) == code_id
        assert new["label"] == "Count" and new["room"] == "Office"
        assert data["virtual"] is True and "note" not in data
        assert data["device"]["room"] == "Office" and data["driver"] == "Virtual Counter"
        assert f"/device/createVirtual?deviceTypeId={code_id}" in creates(hub, before)
        assert "temperature" in new["attributes"]
    # a seeded user driver too, by the room's id
    kitchen = next(r["id"] for r in hub.rooms.values() if r["name"] == "Kitchen")
    data = await ok(
        call_tool, "hub_create_device", {"driver": "Acme Smart Plug", "room": str(kitchen)}
    )
    plug = hub.device(data["device"]["device_id"])
    assert plug["type"] == "Acme Smart Plug" and plug["room_id"] == kitchen
    assert int(plug["id"]) in hub.rooms[kitchen]["deviceIds"]


async def test_ambiguous_and_unknown_drivers_and_rooms_are_refused_before_sending(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    mine = await install(call_tool, COUNTER.replace("Virtual Counter", "Virtual Switch"))
    before = len(hub.requests)
    data = await refused(call_tool, "hub_create_device", {"driver": "virtual switch"})
    assert "ambiguous" in data["message"] and f"id {mine}, namespace home, user" in data["message"]
    assert "namespace hubitat, system" in data["message"]
    assert "namespace:name" in data["hint"]
    data = await refused(call_tool, "hub_create_device", {"driver": "Virtual Countr"})
    assert "hub_list_code" in data["hint"] and "Virtual Countr" not in data["hint"]
    data = await refused(
        call_tool, "hub_create_device", {"driver": "hubitat:Virtual Switch", "room": "Attic"}
    )
    assert "Attic" in data["message"] and "hub_create_room" in data["hint"]
    assert sent(hub, before) == []
    assert not any("createVirtual" in p or "sysDriver" in p for p in creates(hub, before))
    # the namespace settles it
    data = await ok(call_tool, "hub_create_device", {"driver": "hubitat:Virtual Switch"})
    assert hub.device(data["device"]["device_id"])["type"] == "Virtual Switch"
    data = await ok(call_tool, "hub_create_device", {"driver": "home:Virtual Switch"})
    assert str(hub.device(data["device"]["device_id"])["deviceTypeId"]) == mine


def test_driver_matching() -> None:
    drivers: list[dict[str, Any]] = [
        {"id": 1, "name": "Lamp", "namespace": "a"},
        {"id": 2, "name": "lamp", "namespace": "b"},
        {"id": 3, "name": "Odd: Name", "namespace": "c"},
    ]
    assert [d["id"] for d in match_drivers(drivers, " LAMP ")] == [1, 2]
    assert [d["id"] for d in match_drivers(drivers, "b:Lamp")] == [2]
    assert [d["id"] for d in match_drivers(drivers, "3")] == [3]
    assert [d["id"] for d in match_drivers(drivers, "odd: name")] == [3]
    assert match_drivers(drivers, "c:lamp") == []


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
    hub.mark_backup_now()
    old = dev_id(hub, "Old Hallway Sensor")
    assert [d["device_id"] for d in await listed(call_tool, "Old Hallway")] == [old]
    await ok(call_tool, "hub_delete_device", {"device_id": old, "confirm": True})
    after = await ok(call_tool, "hub_list_devices", {"text": "Old Hallway"})
    assert after["devices"] == []
    assert cache is None or after["freshness"]["source"] == "live_cache"  # no re-read needed
    assert await listed(call_tool, "Old Hallway") == []
    assert cache is None or old not in cache.devices
    # create, rename, move: the next list shows each
    new = (await ok(call_tool, "hub_create_device", {"driver": "Virtual Switch", "label": "Aa"}))[
        "device"
    ]["device_id"]
    assert [d["device_id"] for d in await listed(call_tool, "Aa")] == [new]
    await ok(call_tool, "hub_update_device", {"device_id": new, "label": "Bb", "room": "Garage"})
    assert await listed(call_tool, "Aa") == []
    (dev,) = await listed(call_tool, "Bb")
    assert dev["device_id"] == new and dev["room"] == "Garage"
    # deleted in the hub UI: the detail read finds it gone and the list forgets it
    hub.delete_device(int(new))
    gone = await refused(call_tool, "hub_get_device", {"device_id": new}, "not_found")
    assert "hub_list_devices" in gone["hint"]
    assert await listed(call_tool, "Bb") == []


async def test_the_list_follows_room_changes(
    hub: HubEmulator, cache: StateCache | None, call_tool: ToolCaller
) -> None:
    lamp = dev_id(hub, "Guest Lamp")
    await ok(call_tool, "hub_update_room", {"room": "Office", "add_device_ids": [lamp]})
    (dev,) = await listed(call_tool, "Guest Lamp")
    assert dev["room"] == "Office"
    await ok(call_tool, "hub_update_room", {"room": "Office", "new_name": "Study"})
    (dev,) = await listed(call_tool, "Guest Lamp")
    assert dev["room"] == "Study"
    hub.mark_backup_now()
    await ok(call_tool, "hub_delete_room", {"room": "Study", "confirm": True})
    (dev,) = await listed(call_tool, "Guest Lamp")
    assert dev.get("room") is None
    await ok(call_tool, "hub_create_room", {"name": "Den", "device_ids": [lamp]})
    (dev,) = await listed(call_tool, "Guest Lamp")
    assert dev["room"] == "Den"


async def test_a_list_re_read_keeps_the_events_that_arrive_meanwhile() -> None:
    tree = load_fixture("devices/devices_list").answer
    first = parse_device_tree(tree)[0].id
    cache: StateCache

    def listing() -> Any:  # an event arrives while the hub answers
        cache.apply(HubEvent("DEVICE", "switch", "on-meanwhile", device_id=first))
        return tree

    fake = FakeHub({"GET /hub2/devicesList": listing, "GET /device/listWithCapabilities/json": []})
    cache = StateCache(fake.client)
    cache.devices = {d.id: d for d in parse_device_tree(tree)}
    cache.hydrated = True
    cache.event_socket = cast(HubSocket, SimpleNamespace(connected=True))
    devices, _fresh = await cache.read_devices()
    assert not fake.calls  # live and current: no request
    cache.remove_device(first)
    devices, _fresh = await cache.read_devices()
    assert first not in {d.id for d in devices} and not fake.calls
    cache.invalidate_devices()
    devices, fresh = await cache.read_devices()
    assert fresh["source"] == "hub" and len(fake.calls) == 2
    assert next(d for d in devices if d.id == first).states["switch"] == "on-meanwhile"
    assert cache.devices[first].states["switch"] == "on-meanwhile"
    await cache.read_devices()
    assert len(fake.calls) == 2  # back on the cache
