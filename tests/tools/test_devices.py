"""Device tools of the home surface, against the emulated hub through the real llm.API:
listing and reading devices, attributes and their waits, commands, events (and the device
reads against the contract fixtures). Editing, creating, deleting, replacing and swapping
devices: ``test_device_admin.py``."""

from __future__ import annotations

import asyncio
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub import devices as hub_devices
from custom_components.hubitat_dev_tools.hub.models import (
    parse_device_full,
    parse_device_tree,
    state_value,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok
from ..contract import load_fixture
from ..home_util import dev_id, sent
from ..hub_fake import FakeHub

# ---------------------------------------------------------------- hub_list_devices


async def test_list_fields_projection_and_pages(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_list_devices", {"fields": ["label", "states.switch"]})
    light = next(d for d in data["devices"] if d["label"] == "Kitchen Light")
    assert set(light) == {"device_id", "label", "states"}
    assert set(light["states"]) == {"switch"}
    motion = next(d for d in data["devices"] if d["label"] == "Kitchen Motion")
    assert set(motion) == {"device_id", "label"}

    seen: list[str] = []
    args: dict[str, Any] = {"limit": 25, "fields": ["label"]}
    pages = 0
    while True:
        page = await ok(call_tool, "hub_list_devices", args)
        seen += [d["device_id"] for d in page["devices"]]
        pages += 1
        if "next_cursor" not in page:
            break
        args["cursor"] = page["next_cursor"]
    assert pages == -(-page["total"] // 25)
    assert len(seen) == len(set(seen)) == page["total"] == len(hub.device_ids())


async def test_list_filters(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    locked = await ok(call_tool, "hub_list_devices", {"attribute": "lock", "value": "locked"})
    assert locked["count"] >= 1
    assert all(d["states"]["lock"] == "locked" for d in locked["devices"])
    with_lock = await ok(call_tool, "hub_list_devices", {"attribute": "lock"})
    assert with_lock["count"] >= locked["count"]
    # text matches the exact id too
    by_id = await ok(call_tool, "hub_list_devices", {"text": dev_id(hub, "Garage Light")})
    assert [d["label"] for d in by_id["devices"]] == ["Garage Light"]
    # changed since: touch one device, it must be in the last minute
    hub.set_device_attribute(int(dev_id(hub, "Porch Light")), "switch", "on")
    recent = await ok(call_tool, "hub_list_devices", {"changed_within_minutes": 1})
    assert "Porch Light" in [d["label"] for d in recent["devices"]]
    assert recent["count"] < len(hub.device_ids())
    enabled = await ok(call_tool, "hub_list_devices", {"include_disabled": False})
    assert all(not d.get("disabled") for d in enabled["devices"])


async def test_list_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    for args in (
        {"fields": ["label", "bogus"]},
        {"value": "on"},
        {"changed_since": "yesterday"},
        {"cursor": "not-a-cursor"},
    ):
        result = await call_tool("hub_list_devices", args)
        assert result.error, args
    assert len(hub.requests) - before <= 2  # only the 'value' / cursor paths may read
    assert sent(hub, before) == []


async def test_list_respects_allowlist(hass: Any, hub: HubEmulator, call_tool: ToolCaller) -> None:
    allowed = [dev_id(hub, "Kitchen Light"), dev_id(hub, "Coffee Maker")]
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: allowed})
    data = await ok(call_tool, "hub_list_devices")
    assert sorted(d["device_id"] for d in data["devices"]) == sorted(allowed)
    rooms = await ok(call_tool, "hub_list_rooms")
    assert sum(r["device_count"] for r in rooms["rooms"]) == 2
    before = len(hub.requests)
    result = await call_tool(
        "hub_call_device_command",
        {"commands": [{"device_id": dev_id(hub, "Garage Light"), "command": "on"}]},
    )
    assert result.error and result.data["error"] == "device_not_allowed"
    assert sent(hub, before) == []


# ---------------------------------------------------------------- hub_get_device


async def test_get_device_detail(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_get_device", {"device_id": dev_id(hub, "Kitchen Light")})
    dev = data["device"]
    switch = next(a for a in dev["attributes"] if a["name"] == "switch")
    assert switch["data_type"] == "ENUM" and set(switch["values"]) >= {"on", "off"}
    set_level = next(c for c in dev["commands"] if c["name"] == "setLevel")
    assert set_level["arguments"][0]["type"] == "NUMBER"
    assert dev["room"] == "Kitchen" and dev["room_id"]
    assert "apps_using" in dev and dev["driver"]
    missing = await call_tool("hub_get_device", {"device_id": "99999"})
    assert missing.error and missing.data["error"] == "not_found"


# ---------------------------------------------------------------- hub_get_device_attribute


async def test_attribute_read_and_wait(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, porch = dev_id(hub, "Kitchen Light"), dev_id(hub, "Porch Light")
    data = await ok(
        call_tool, "hub_get_device_attribute", {"device_id": light, "attribute": "switch"}
    )
    assert data["values"][light] in ("on", "off")
    hub.set_device_attribute(int(light), "switch", "off")
    hub.set_device_attribute(int(porch), "switch", "off")

    async def later() -> None:
        await asyncio.sleep(0.3)
        hub.set_device_attribute(int(light), "switch", "on")

    task = asyncio.create_task(later())
    data = await ok(
        call_tool,
        "hub_get_device_attribute",
        {
            "device_ids": [light, porch],
            "attribute": "switch",
            "expected_value": "on",
            "mode": "any",
            "timeout_ms": 5000,
        },
    )
    await task
    assert data["matched"] is True and data["matched_devices"] == [light]
    # all: porch stays off -> timeout, not an error
    data = await ok(
        call_tool,
        "hub_get_device_attribute",
        {
            "device_ids": [light, porch],
            "attribute": "switch",
            "expected_value": "on",
            "timeout_ms": 400,
        },
    )
    assert data["matched"] is False and data["waited_ms"] >= 300
    # numeric comparators and stability
    level = await ok(
        call_tool,
        "hub_get_device_attribute",
        {
            "device_id": light,
            "attribute": "level",
            "comparator": "between",
            "expected_values": [0, 100],
            "stable_for_ms": 300,
            "timeout_ms": 3000,
        },
    )
    assert level["matched"] is True and level["waited_ms"] >= 300


async def test_attribute_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Kitchen Light")
    before = len(hub.requests)
    for args in (
        {"device_id": light, "attribute": "switch", "expected_value": "on", "comparator": "gt"},
        {"device_id": light, "attribute": "level", "expected_values": [1], "comparator": "between"},
        {"device_id": light, "attribute": "switch", "timeout_ms": 120_000},
        {"attribute": "switch"},
    ):
        result = await call_tool("hub_get_device_attribute", args)
        assert result.error, args
    assert len(hub.requests) == before
    result = await call_tool("hub_get_device_attribute", {"device_id": light, "attribute": "lock"})
    assert result.error and "switch" in result.data["message"]
    result = await call_tool("hub_get_device_attribute", {"device_id": "99999", "attribute": "x"})
    assert result.error and result.data["error"] == "not_found"


# ---------------------------------------------------------------- hub_call_device_command


async def test_batch_commands(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    ids = [dev_id(hub, n) for n in ("Kitchen Light", "Porch Light", "Garage Light")]
    data = await ok(
        call_tool,
        "hub_call_device_command",
        {
            "commands": [{"device_id": i, "command": "on"} for i in ids]
            + [{"device_id": ids[0], "command": "setLevel", "arguments": ["40"]}]
        },
    )
    assert data["sent"] == 4 and data["failed"] == 0
    assert data["results"][3]["repairs"]
    await asyncio.sleep(0.05)
    assert all(hub.device(i)["attributes"]["switch"] == "on" for i in ids)
    assert hub.max_in_flight_seen <= 4


async def test_batch_invalid_entry_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, lock = dev_id(hub, "Kitchen Light"), dev_id(hub, "Front Door Lock")
    before = len(hub.requests)
    result = await call_tool(
        "hub_call_device_command",
        {
            "commands": [
                {"device_id": light, "command": "on"},
                {"device_id": light, "command": "explode"},
            ]
        },
    )
    assert result.error and "explode" in result.data["message"]
    assert "Nothing was sent" in result.data["message"]
    result = await call_tool(
        "hub_call_device_command",
        {
            "commands": [
                {"device_id": light, "command": "on"},
                {"device_id": lock, "command": "unlock"},
            ]
        },
    )
    assert result.error and result.data["error"] == "confirmation_required"
    result = await call_tool("hub_call_device_command", {"commands": [], "device_id": light})
    assert result.error
    result = await call_tool(
        "hub_call_device_command",
        {"commands": [{"device_id": light, "command": "on"}] * 21},
    )
    assert result.error and result.data["error"] == "invalid_arguments"
    assert sent(hub, before) == []


async def test_batch_partial_failure_is_reported(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, pico = dev_id(hub, "Kitchen Light"), dev_id(hub, "Living Room Pico")
    data = await ok(
        call_tool,
        "hub_call_device_command",
        {
            "commands": [
                {"device_id": light, "command": "on"},
                {"device_id": pico, "command": "push", "arguments": [99]},
            ]
        },
    )
    assert data["sent"] == 1 and data["failed"] == 1
    assert "NOT sent/failed" in data["summary"] and "Living Room Pico" in data["summary"]
    failed = data["results"][1]
    assert failed["status"] == "failed" and failed["error"] == "hub_bad_response"


async def test_command_wait_for(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = dev_id(hub, "Front Door Lock")
    hub.set_device_attribute(int(lock), "lock", "unlocked")
    data = await ok(
        call_tool,
        "hub_call_device_command",
        {
            "device_id": lock,
            "command": "lock",
            "confirm": True,
            "wait_for": {"attribute": "lock", "expected_value": "locked", "timeout_ms": 5000},
        },
    )
    assert data["wait"]["matched"] is True
    assert data["wait"]["values"][lock] == "locked"
    before = len(hub.requests)
    result = await call_tool(
        "hub_call_device_command",
        {
            "device_id": lock,
            "command": "lock",
            "confirm": True,
            "wait_for": {"attribute": "lock", "comparator": "gt", "expected_value": "x"},
        },
    )
    assert result.error
    assert sent(hub, before) == []


# ---------------------------------------------------------------- hub_list_device_events


async def test_device_events(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Kitchen Light")
    hub.set_device_attribute(int(light), "switch", "on")
    hub.set_device_attribute(int(light), "switch", "off")
    data = await ok(call_tool, "hub_list_device_events", {"device_id": light, "limit": 2})
    assert data["count"] == 2 and data["events"][0]["value"] == "off"
    newest = data["newest_date"]
    # since round-trips: nothing strictly after the newest event, then exactly the new one
    data = await ok(call_tool, "hub_list_device_events", {"device_id": light, "since": newest})
    assert data["count"] == 0
    await asyncio.sleep(0.01)
    hub.set_device_attribute(int(light), "level", 12)
    data = await ok(call_tool, "hub_list_device_events", {"device_id": light, "since": newest})
    assert [e["name"] for e in data["events"]] == ["level"]
    only_switch = await ok(
        call_tool,
        "hub_list_device_events",
        {"device_id": light, "attribute": "switch", "hours_back": 1},
    )
    assert only_switch["count"] >= 1 and {e["name"] for e in only_switch["events"]} == {"switch"}
    before = len(hub.requests)
    for args in (
        {"device_id": light, "hours_back": 200},
        {},  # location and hub events are hub_list_events
        {"device_id": light, "source": "hub"},
    ):
        assert (await call_tool("hub_list_device_events", args)).error, args
    assert len(hub.requests) == before
    hub.faults.error_burst = 2
    result = await call_tool("hub_list_device_events", {"device_id": light})
    assert result.error and result.data["error"] == "hub_bad_response"


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
