"""The device reads (``managers/devices/query.py``) and attribute waits
(``managers/devices/waits.py``) on their own, no hass: listing with filters, one device's
detail with its attributes' allowed values, reading an attribute of one or several devices,
waiting for a condition (any or all devices, comparators, stability, timeout), a device's
event history (since, attribute, limit); with the live cache, reads answered and waits
resolved on its events with no hub request; and the device parsers and reads against the
contract fixtures (real-hub answers), over the emulated hub.

Moved from tests/tools/test_devices.py and tests/tools/test_events_devices.py (the reads,
waits and parsing are the manager's and the hub library's; the tools' argument refusals,
fields and cursor, the device allowlist, newest_date, the freshness of an answer and one call
of each tool stay there). Commands: tests/managers/test_device_commands.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub import devices as hub_devices
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubNotFoundError
from custom_components.hubitat_dev_tools.hub.models import (
    parse_device_full,
    parse_device_tree,
    parse_hub_time,
    state_value,
)
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from custom_components.hubitat_dev_tools.managers.devices import AttributeCondition, DeviceFilter
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..conftest import a_switch, until
from ..contract import load_fixture
from ..helpers.devices import other
from ..home_util import dev_id
from ..hub_fake import FakeHub
from .events_util import streaming


def condition(comparator: str, *expected: object) -> AttributeCondition:
    """A checked condition, as the tools build it from expected_value(s) and comparator."""
    made = AttributeCondition(comparator, list(expected))
    made.validate()
    return made


@pytest.fixture
async def live(manager_hub: Hub) -> AsyncIterator[StateCache]:
    """The manager hub with its live cache running (tests/managers/test_events.py)."""
    async with streaming(manager_hub) as cache:
        yield cache


# ---------------------------------------------------------------- list


async def test_list_every_device_sorted_by_label(emu: HubEmulator, manager_hub: Hub) -> None:
    devices = await manager_hub.devices.list_devices(DeviceFilter())
    ids = [d.id for d in devices]
    assert len(ids) == len(set(ids)) == len(emu.device_ids())
    keys = [(d.display_name.lower(), d.id) for d in devices]
    assert keys == sorted(keys)


async def test_list_filters(emu: HubEmulator, manager_hub: Hub) -> None:
    async def listed(**filters: Any) -> list[str]:
        found = await manager_hub.devices.list_devices(DeviceFilter(**filters))
        return [d.label for d in found]

    locked = await manager_hub.devices.list_devices(
        DeviceFilter(attribute="lock", condition=condition("eq", "locked"))
    )
    assert len(locked) >= 1
    assert all(d.states["lock"] == "locked" for d in locked)
    with_lock = await listed(attribute="lock")
    assert len(with_lock) >= len(locked)
    # text matches the exact id too
    assert await listed(text=dev_id(emu, "Garage Light")) == ["Garage Light"]
    # changed since: touch one device, it must be in the last minute
    emu.set_device_attribute(int(dev_id(emu, "Porch Light")), "switch", "on")
    recent = await listed(changed_since=datetime.now(UTC) - timedelta(minutes=1))
    assert "Porch Light" in recent
    assert len(recent) < len(emu.device_ids())
    enabled = await manager_hub.devices.list_devices(DeviceFilter(include_disabled=False))
    assert all(not d.disabled for d in enabled)
    assert len(enabled) < len(emu.device_ids())  # the seeded home has a disabled device


# ---------------------------------------------------------------- one device's detail


async def test_get_device_detail(manager_hub: Hub, emu: HubEmulator) -> None:
    detail = await manager_hub.devices.get_device_full(dev_id(emu, "Kitchen Light"))
    switch = next(a for a in detail.attributes if a.name == "switch")
    assert switch.data_type == "ENUM" and set(switch.values or []) >= {"on", "off"}
    set_level = detail.command("setLevel")
    assert set_level is not None and set_level.params[0].type == "NUMBER"
    assert detail.summary.room == "Kitchen" and detail.summary.room_id
    assert isinstance(detail.apps_using, list) and detail.driver
    with pytest.raises(HubNotFoundError):
        await manager_hub.devices.get_device_full("99999")


# ---------------------------------------------------------------- attribute reads and waits


async def test_attribute_read_and_wait(emu: HubEmulator, manager_hub: Hub) -> None:
    devices = manager_hub.devices
    light, porch = dev_id(emu, "Kitchen Light"), dev_id(emu, "Porch Light")
    values = await devices.read_attribute([light], "switch")
    assert values[light] in ("on", "off")
    emu.set_device_attribute(int(light), "switch", "off")
    emu.set_device_attribute(int(porch), "switch", "off")
    assert await devices.read_attribute([light, porch], "switch") == {light: "off", porch: "off"}

    async def later() -> None:
        await asyncio.sleep(0.3)
        emu.set_device_attribute(int(light), "switch", "on")

    task = asyncio.create_task(later())
    data = await devices.waits.wait_attribute(
        [light, porch], "switch", condition("eq", "on"), mode="any", timeout_ms=5000
    )
    await task
    assert data["matched"] is True and data["matched_devices"] == [light]
    assert data["condition"] == "switch eq on" and data["mode"] == "any"
    # all: porch stays off -> timeout, not an error
    data = await devices.waits.wait_attribute(
        [light, porch], "switch", condition("eq", "on"), timeout_ms=400
    )
    assert data["matched"] is False and data["waited_ms"] >= 300
    assert data["values"] == {light: "on", porch: "off"} and data["matched_devices"] == [light]
    # numeric comparators and stability
    level = await devices.waits.wait_attribute(
        [light], "level", condition("between", 0, 100), stable_for_ms=300, timeout_ms=3000
    )
    assert level["matched"] is True and level["waited_ms"] >= 300


async def test_attribute_refusals(emu: HubEmulator, manager_hub: Hub) -> None:
    light = dev_id(emu, "Kitchen Light")
    before = len(emu.requests)
    for comparator, expected, word in (
        ("gt", ["on"], "one numeric value"),
        ("between", [1], "between needs expected_values"),
        ("eq", [], "Give expected_value"),
        ("about", ["on"], "comparator must be one of"),
    ):
        with pytest.raises(ToolError, match=word):
            AttributeCondition(comparator, expected).validate()
    assert len(emu.requests) == before
    with pytest.raises(ToolError, match="switch"):
        await manager_hub.devices.read_attribute([light], "lock")
    with pytest.raises(HubNotFoundError):
        await manager_hub.devices.read_attribute(["99999"], "x")


# ---------------------------------------------------------------- a device's events


async def test_device_events(emu: HubEmulator, manager_hub: Hub) -> None:
    devices = manager_hub.devices
    light = dev_id(emu, "Kitchen Light")
    emu.set_device_attribute(int(light), "switch", "on")
    emu.set_device_attribute(int(light), "switch", "off")
    events = await devices.events(device_id=light, limit=2)
    assert len(events) == 2 and events[0]["value"] == "off"
    newest = parse_hub_time(events[0]["date"])
    # since: nothing strictly after the newest event, then exactly the new one
    assert await devices.events(device_id=light, since=newest) == []
    await asyncio.sleep(0.01)
    emu.set_device_attribute(int(light), "level", 12)
    after = await devices.events(device_id=light, since=newest)
    assert [e["name"] for e in after] == ["level"] and after[0]["value"] == 12
    only_switch = await devices.events(
        device_id=light, attribute="switch", since=datetime.now(UTC) - timedelta(hours=1)
    )
    assert len(only_switch) >= 1 and {e["name"] for e in only_switch} == {"switch"}
    with pytest.raises(HubNotFoundError):
        await devices.events(device_id="99999")
    emu.faults.error_burst = 2
    with pytest.raises(HubBadResponseError):
        await devices.events(device_id=light)


# ---------------------------------------------------------------- with the live cache


async def test_list_devices_from_the_cache(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    device = a_switch(emu)
    new = other(emu, device)
    emu.set_device_attribute(device, "switch", new)
    await until(lambda: live.devices[str(device)].states["switch"] == new)
    before = len(emu.requests)
    (found,) = await manager_hub.devices.list_devices(DeviceFilter(text=str(device)))
    assert len(emu.requests) == before, emu.requests[before:]
    assert found.states["switch"] == new


async def test_read_attribute_from_the_cache(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    device = a_switch(emu)
    before = len(emu.requests)
    values = await manager_hub.devices.read_attribute([str(device)], "switch")
    assert len(emu.requests) == before
    assert values[str(device)] == emu.device(device)["attributes"]["switch"]


async def test_attribute_wait_resolves_on_the_event(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    device = a_switch(emu)
    new = other(emu, device)
    changed_at: list[float] = []

    def change() -> None:
        changed_at.append(time.monotonic())
        emu.set_device_attribute(device, "switch", new)

    asyncio.get_running_loop().call_later(0.2, change)
    before = len(emu.requests)
    data = await manager_hub.devices.waits.wait_attribute(
        [str(device)], "switch", condition("eq", new), timeout_ms=5000
    )
    done_at = time.monotonic()
    assert data["matched"] is True
    assert len(emu.requests) == before, "an event-driven wait sends nothing"
    assert done_at - changed_at[0] < 1.0  # resolves on the event (generous under load)


async def test_attribute_wait_times_out_without_polling(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    device = a_switch(emu)
    before = len(emu.requests)
    started = time.monotonic()
    data = await manager_hub.devices.waits.wait_attribute(
        [str(device)], "switch", condition("eq", "neither"), timeout_ms=600
    )
    assert data["matched"] is False
    assert 0.55 <= time.monotonic() - started < 3.0
    assert len(emu.requests) == before


async def test_stable_wait_is_event_driven(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    device = a_switch(emu)
    new = other(emu, device)
    asyncio.get_running_loop().call_later(0.1, emu.set_device_attribute, device, "switch", new)
    before = len(emu.requests)
    started = time.monotonic()
    data = await manager_hub.devices.waits.wait_attribute(
        [str(device)], "switch", condition("eq", new), stable_for_ms=300, timeout_ms=5000
    )
    elapsed = time.monotonic() - started
    assert data["matched"] is True
    assert 0.35 <= elapsed < 3.0
    assert len(emu.requests) == before


# ---------------------------------------------------------------- contract: real-hub shapes


def test_device_parsers_read_the_contract_fixtures() -> None:
    devices = parse_device_tree(load_fixture("devices/devices_list").answer)
    by_id = {d.id: d for d in devices}
    assert list(by_id) == ["6", "8", "9", "7"]  # children flattened after their parent
    assert by_id["6"].child_ids == ["8", "9"] and by_id["8"].parent_id == "6"
    assert by_id["6"].tags == ["outdoor", "lights"] and by_id["6"].room == "Kitchen"
    assert by_id["6"].states == {"switch": "off", "power": None}
    assert by_id["9"].states == {"switch": None, "power": 1.5}
    assert by_id["7"].disabled is True and by_id["7"].room is None
    detail = parse_device_full(load_fixture("devices/full_json").answer)
    assert detail.summary.label == "Hall Thermostat" and detail.version == 3
    # JSON_OBJECT: the hub UI reads jsonValue, not value
    assert detail.summary.states["supportedThermostatModes"] == ["heat", "off"]
    assert detail.summary.states["schedule"] is None
    assert detail.summary.states["temperature"] == 69.5
    assert [a["app_id"] for a in detail.apps_using] == ["12", "14"]
    assert detail.parent_app is not None and detail.command("setThermostatMode") is not None


def test_json_object_states_take_json_value_in_either_form() -> None:
    raw = load_fixture("devices/full_json").answer
    entry = raw["device"]["currentStates"]["supportedThermostatModes"]
    as_text = {**entry, "jsonValue": '{"a": [1, 2]}', "value": "{a=[1, 2]}"}
    assert state_value(as_text) == {"a": [1, 2]}
    assert state_value({**entry, "jsonValue": {"b": True}}) == {"b": True}
    assert state_value({**entry, "jsonValue": None}) == ["heat", "off"]  # value as fallback
    # devicesList entries may carry the same keys
    listed = {"key": "modes", "value": "x", "dataType": "JSON_OBJECT", "jsonValue": ["heat"]}
    assert state_value(listed) == ["heat"]


async def test_device_reads_take_the_contract_fixtures() -> None:
    fake = FakeHub(
        {
            "GET /hub2/devicesList": load_fixture("devices/devices_list").answer,
            "GET /device/listWithCapabilities/json": load_fixture(
                "devices/list_with_capabilities"
            ).answer,
            "GET /device/eventsJson/6": load_fixture("devices/events_json").answer,
            "GET /device/drivers": load_fixture("devices/drivers").answer,
            "GET /hub/compatibleDevices": load_fixture("devices/compatible_devices").answer,
            "GET /device/getReplacementOptions/6": load_fixture(
                "devices/replacement_options"
            ).answer,
        }
    )
    devices = {d.id: d for d in await hub_devices.fetch_devices(fake.client)}
    assert devices["6"].capabilities == ["Switch", "Actuator"] and devices["8"].capabilities == []
    events = await hub_devices.fetch_device_events(fake.client, "6")
    assert [e["id"] for e in events] == [9002, 9001]
    drivers = await hub_devices.fetch_drivers(fake.client)
    assert [d["type"] for d in drivers] == ["usr", "sys", "dep"]
    catalog = await hub_devices.fetch_compatible_devices(fake.client)
    assert catalog[0]["brand"] == "Aeotec"
    options = await hub_devices.fetch_replacement_options(fake.client, "6")
    assert options[0]["deviceTypes"] == ["Generic Zigbee Temperature Sensor"]
