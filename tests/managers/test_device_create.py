"""Creating devices in the device administration manager (``managers/devices/admin.py``) on
its own, no hass: a system or user driver named by name, id or namespace:name (an ambiguous
or unknown driver, or an unknown room, refused before anything is sent), created as the hub
UI does with its label and room; and the device list (``managers/devices/query.py``) staying
true after creates, edits, deletes and room changes, with the live cache and without, a list
re-read keeping the events that arrive meanwhile, over the emulated hub.

Moved from tests/tools/test_device_create.py (creating and listing are the manager's; the
tools' summaries, the advice naming hub_list_code, hub_create_room and hub_list_devices, the
freshness of a list answered from the live cache and one call of each tool stay there)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any, cast

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.devices import match_drivers
from custom_components.hubitat_dev_tools.hub.errors import HubNotFoundError
from custom_components.hubitat_dev_tools.hub.events import HubEvent, HubSocket
from custom_components.hubitat_dev_tools.hub.models import parse_device_tree
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from custom_components.hubitat_dev_tools.managers.devices import DeviceFilter, DeviceUpdate
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..helpers.device_create import COUNTER, creates
from ..home_util import dev_id, sent
from ..hub_fake import FakeHub
from .events_util import streaming


async def install(manager_hub: Hub, source: str) -> str:
    """Install a driver through the code manager; its id."""
    return str((await manager_hub.code.install("driver", source))["id"])


async def test_a_driver_installed_by_us_creates_devices_by_name_id_and_namespace(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    admin = manager_hub.devices.admin
    code_id = await install(manager_hub, COUNTER)
    listed = await manager_hub.code.list_code("driver", "Virtual Counter")
    assert str(listed[0]["id"]) == code_id
    for driver in ("Virtual Counter", code_id, "home:Virtual Counter"):
        before = len(emu.requests)
        data = await admin.create_device(driver, "Count", "Office")
        new = emu.device(data["device"]["device_id"])
        assert new["type"] == "Virtual Counter" and str(new["deviceTypeId"]) == code_id
        assert new["label"] == "Count" and new["room"] == "Office"
        assert data["virtual"] is True and "note" not in data
        assert data["device"]["room"] == "Office" and data["driver"] == "Virtual Counter"
        assert f"/device/createVirtual?deviceTypeId={code_id}" in creates(emu, before)
        assert "temperature" in new["attributes"]
    # a seeded user driver too, by the room's id
    kitchen = next(r["id"] for r in emu.rooms.values() if r["name"] == "Kitchen")
    data = await admin.create_device("Acme Smart Plug", None, str(kitchen))
    plug = emu.device(data["device"]["device_id"])
    assert plug["type"] == "Acme Smart Plug" and plug["room_id"] == kitchen
    assert int(plug["id"]) in emu.rooms[kitchen]["deviceIds"]


async def test_ambiguous_and_unknown_drivers_and_rooms_are_refused_before_sending(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    admin = manager_hub.devices.admin
    mine = await install(manager_hub, COUNTER.replace("Virtual Counter", "Virtual Switch"))
    before = len(emu.requests)
    with pytest.raises(ToolError) as err:
        await admin.create_device("virtual switch", None)
    message = str(err.value)
    assert "ambiguous" in message and f"id {mine}, namespace home, user" in message
    assert "namespace hubitat, system" in message
    assert "namespace:name" in (err.value.hint or "")
    with pytest.raises(ToolError, match="No driver 'Virtual Countr'") as err:
        await admin.create_device("Virtual Countr", None)
    assert err.value.subject == "driver"
    with pytest.raises(ToolError, match="Attic") as err:
        await admin.create_device("hubitat:Virtual Switch", None, "Attic")
    assert err.value.subject == "room_missing"
    assert sent(emu, before) == []
    assert not any("createVirtual" in p or "sysDriver" in p for p in creates(emu, before))
    # the namespace settles it
    data = await admin.create_device("hubitat:Virtual Switch", None)
    assert emu.device(data["device"]["device_id"])["type"] == "Virtual Switch"
    data = await admin.create_device("home:Virtual Switch", None)
    assert str(emu.device(data["device"]["device_id"])["deviceTypeId"]) == mine


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
    request: pytest.FixtureRequest, manager_hub: Hub
) -> AsyncIterator[StateCache | None]:
    """The device list read from the live cache, or (no stream) from the hub."""
    if request.param == "hub":
        yield None
        return
    async with streaming(manager_hub) as live:
        yield live


async def listed(manager_hub: Hub, text: str) -> list[dict[str, Any]]:
    devices = await manager_hub.devices.list_devices(DeviceFilter(text=text))
    return [dict(d.as_dict()) for d in devices]


async def test_the_list_follows_creates_edits_and_deletes(
    emu: HubEmulator, manager_hub: Hub, cache: StateCache | None
) -> None:
    admin = manager_hub.devices.admin
    old = dev_id(emu, "Old Hallway Sensor")
    assert [d["device_id"] for d in await listed(manager_hub, "Old Hallway")] == [old]
    await admin.delete_device(old)
    before = len(emu.requests)
    assert await listed(manager_hub, "Old Hallway") == []
    if cache is not None:  # no re-read needed
        assert len(emu.requests) == before and old not in cache.devices
    assert await listed(manager_hub, "Old Hallway") == []
    # create, rename, move: the next list shows each
    new = (await admin.create_device("Virtual Switch", "Aa"))["device"]["device_id"]
    assert [d["device_id"] for d in await listed(manager_hub, "Aa")] == [new]
    await admin.update_device(new, DeviceUpdate(label="Bb", room="Garage"))
    assert await listed(manager_hub, "Aa") == []
    (dev,) = await listed(manager_hub, "Bb")
    assert dev["device_id"] == new and dev["room"] == "Garage"
    # deleted in the hub UI: the detail read finds it gone and the list forgets it
    emu.delete_device(int(new))
    with pytest.raises(HubNotFoundError):
        await manager_hub.devices.get_device(new)
    assert await listed(manager_hub, "Bb") == []


async def test_the_list_follows_room_changes(
    emu: HubEmulator, manager_hub: Hub, cache: StateCache | None
) -> None:
    rooms = manager_hub.rooms
    lamp = dev_id(emu, "Guest Lamp")
    await rooms.update("Office", new_name=None, add_device_ids=[lamp], remove_device_ids=[])
    (dev,) = await listed(manager_hub, "Guest Lamp")
    assert dev["room"] == "Office"
    await rooms.update("Office", new_name="Study", add_device_ids=[], remove_device_ids=[])
    (dev,) = await listed(manager_hub, "Guest Lamp")
    assert dev["room"] == "Study"
    await rooms.delete("Study")
    (dev,) = await listed(manager_hub, "Guest Lamp")
    assert dev.get("room") is None
    await rooms.create("Den", [lamp])
    (dev,) = await listed(manager_hub, "Guest Lamp")
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
