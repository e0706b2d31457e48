"""Device tools of the home surface, against the emulated hub through the real llm.API:
listing and reading devices, attributes and their waits, commands, events. Editing,
creating, deleting, replacing and swapping devices: ``test_device_admin.py``.

The tools' part is here: their argument refusals (sending nothing), the list's fields and
cursor, the device allowlist, the room id and answer shapes, the batch limit, summary and
the confirmation of a lock, wait_for after a command, and newest_date passed back as since.
The filters, the detail, attribute reads and waits and a device's events are tested without
hass in tests/managers/test_devices.py (with the device parsers against the contract
fixtures); checking, sending and batching commands in tests/managers/test_device_commands.py."""

from __future__ import annotations

import asyncio
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok
from ..home_util import dev_id, sent

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


async def test_list_filters_reach_the_manager(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's arguments become the manager's filter (the filtering itself:
    tests/managers/test_devices.py)."""
    locked = await ok(call_tool, "hub_list_devices", {"attribute": "lock", "value": "locked"})
    assert locked["count"] >= 1
    assert all(d["states"]["lock"] == "locked" for d in locked["devices"])
    # changed_within_minutes is the changed-since time the tool computes
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
    """The answer's shape and the room id the tool adds (the detail's content:
    tests/managers/test_devices.py)."""
    data = await ok(call_tool, "hub_get_device", {"device_id": dev_id(hub, "Kitchen Light")})
    dev = data["device"]
    switch = next(a for a in dev["attributes"] if a["name"] == "switch")
    assert switch["data_type"] == "ENUM" and set(switch["values"]) >= {"on", "off"}
    set_level = next(c for c in dev["commands"] if c["name"] == "setLevel")
    assert set_level["arguments"][0]["type"] == "NUMBER"
    assert dev["room"] == "Kitchen" and dev["room_id"]
    assert "apps_using" in dev and dev["driver"] and dev["dni"]
    missing = await call_tool("hub_get_device", {"device_id": "99999"})
    assert missing.error and missing.data["error"] == "not_found"


# ---------------------------------------------------------------- hub_get_device_attribute


async def test_attribute_read_and_wait(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A read, and a wait with the tool's arguments (reads and waits in depth:
    tests/managers/test_devices.py)."""
    light, porch = dev_id(hub, "Kitchen Light"), dev_id(hub, "Porch Light")
    data = await ok(
        call_tool, "hub_get_device_attribute", {"device_id": light, "attribute": "switch"}
    )
    assert data == {"attribute": "switch", "values": {light: data["values"][light]}}
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
    assert data["attribute"] == "switch" and data["mode"] == "any"
    assert data["matched"] is True and data["matched_devices"] == [light]
    assert "pending" not in data
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
    result = await call_tool("hub_get_device_attribute", {"device_id": "99999", "attribute": "x"})
    assert result.error and result.data["error"] == "not_found"


# ---------------------------------------------------------------- hub_call_device_command


async def test_batch_commands(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The batch's answer (checking and sending: tests/managers/test_device_commands.py)."""
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
    assert data["summary"] == "Sent 4 of 4 commands"
    assert data["results"][3]["repairs"]
    await asyncio.sleep(0.05)
    assert all(hub.device(i)["attributes"]["switch"] == "on" for i in ids)


async def test_batch_invalid_entry_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, lock = dev_id(hub, "Kitchen Light"), dev_id(hub, "Front Door Lock")
    before = len(hub.requests)
    # an undeclared command refuses the whole batch: tests/managers/test_device_commands.py
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
    assert data["results"][1]["status"] == "failed"


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
    """newest_date passed back as since, hours_back and the refusals (the history itself:
    tests/managers/test_devices.py)."""
    light = dev_id(hub, "Kitchen Light")
    hub.set_device_attribute(int(light), "switch", "on")
    hub.set_device_attribute(int(light), "switch", "off")
    data = await ok(call_tool, "hub_list_device_events", {"device_id": light, "limit": 2})
    assert data["count"] == 2 and data["events"][0]["value"] == "off"
    assert data["device_id"] == light
    newest = data["newest_date"]
    assert newest == data["events"][0]["date"]
    # since round-trips: nothing strictly after the newest event, then exactly the new one
    data = await ok(call_tool, "hub_list_device_events", {"device_id": light, "since": newest})
    assert data["count"] == 0 and "newest_date" not in data
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
