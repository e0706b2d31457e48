"""Device tools of the home surface, against the emulated hub through the real llm.API."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from yarl import URL

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub import HubClient, HubConnection, effects
from custom_components.hubitat_dev_tools.hub import devices as hub_devices
from custom_components.hubitat_dev_tools.hub.errors import (
    HubBadResponseError,
    HubNotFoundError,
    HubRefusedError,
)
from custom_components.hubitat_dev_tools.hub.models import (
    parse_device_full,
    parse_device_tree,
    state_value,
)
from hubitat_emulator import HubEmulator
from hubitat_emulator.catalog import DRIVERS

from .conftest import ToolCaller, add_entry, ok
from .contract import assert_same_shape, load_fixture
from .home_util import dev_id, sent
from .hub_fake import FakeHub

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


# ---------------------------------------------------------------- hub_update_device


async def test_update_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Kitchen Light")
    before_dev = hub.device(light)
    prefs = (await ok(call_tool, "hub_get_device", {"device_id": light}))["device"]["preferences"]
    bool_pref = next(p for p in prefs if p["type"] == "bool")
    data = await ok(
        call_tool,
        "hub_update_device",
        {
            "device_id": light,
            "label": "Kitchen Ceiling",
            "room": "office",
            "tags": ["a", "b"],
            "preferences": {bool_pref["name"]: "false"},
            "enabled": False,
        },
    )
    assert data["applied"] == ["label+room+tags", "preferences", "disabled"]
    after = hub.device(light)
    assert after["label"] == "Kitchen Ceiling" and after["disabled"] is True
    assert after["room"] == "Office"
    assert after["tags"] == ["a", "b"]
    assert after["settings"][bool_pref["name"]] is False
    # fields not named are not blanked by the wholesale form
    for key in ("name", "dni", "notes", "type"):
        assert after[key] == before_dev[key], key
    # enabling runs first, then room can be cleared
    data = await ok(
        call_tool, "hub_update_device", {"device_id": light, "enabled": True, "room": "unassigned"}
    )
    assert data["applied"][0] == "enabled"
    assert data["device"]["room"] is None


async def test_update_device_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Kitchen Light")
    rooms_before = len(hub.rooms)
    before = len(hub.requests)
    for args, word in (
        ({"device_id": light, "room": "Attic"}, "Attic"),
        ({"device_id": light, "preferences": {"noSuchPref": 1}}, "noSuchPref"),
        ({"device_id": light}, "Nothing to change"),
        ({"device_id": light, "label": "  "}, "empty"),
    ):
        result = await call_tool("hub_update_device", args)
        assert result.error and word in result.data["message"], (args, result.data)
    assert sent(hub, before) == []
    assert len(hub.rooms) == rooms_before  # never creates a room
    result = await call_tool("hub_update_device", {"device_id": "99999", "label": "x"})
    assert result.error and result.data["error"] == "not_found"


# ---------------------------------------------------------------- create / delete


async def test_create_and_delete_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_create_device", {"driver": "virtual switch", "label": "Fake"})
    new_id = data["device"]["device_id"]
    assert data["virtual"] is True and hub.device(new_id)["label"] == "Fake"
    real = await ok(
        call_tool, "hub_create_device", {"driver": "Generic Z-Wave Switch", "label": "Shell"}
    )
    assert real["virtual"] is False and "note" in real
    assert hub.device(real["device"]["device_id"])["label"] == "Shell"
    before = len(hub.requests)
    bad = await call_tool("hub_create_device", {"driver": "Virtual Swich"})
    assert bad.error and "Virtual Switch" in bad.data["message"]
    assert sent(hub, before) == []
    # delete: destructive tier
    refused = await call_tool("hub_delete_device", {"device_id": new_id})
    assert refused.error and refused.data["error"] == "confirmation_required"
    hub.mark_backup_now()
    done = await ok(call_tool, "hub_delete_device", {"device_id": new_id, "confirm": True})
    assert done["label"] == "Fake" and int(new_id) not in hub.device_ids()
    gone = await call_tool("hub_delete_device", {"device_id": new_id, "confirm": True})
    assert gone.error and gone.data["error"] == "not_found"


async def test_replace_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    old = dev_id(hub, "Kitchen Light")
    new = (
        await ok(
            call_tool,
            "hub_create_device",
            {"driver": "Generic Z-Wave Dimmer", "label": "New Dimmer"},
        )
    )["device"]["device_id"]
    new_dni = hub.device(new)["dni"]
    hub.mark_backup_now()
    before = len(hub.requests)
    bad = await call_tool(
        "hub_replace_device",
        {"old_device_id": old, "new_device_id": dev_id(hub, "Kitchen Motion"), "confirm": True},
    )
    assert bad.error and "not a valid replacement" in bad.data["message"]
    assert not [p for _m, p in hub.requests[before:] if p.startswith("/device/replace")]
    data = await ok(
        call_tool,
        "hub_replace_device",
        {"old_device_id": old, "new_device_id": new, "confirm": True},
    )
    after = hub.device(old)
    assert after["label"] == "Kitchen Light" and after["room"] == "Kitchen"
    assert after["dni"] == new_dni and int(new) not in hub.device_ids()
    assert "removed" in data["summary"]


# ---------------------------------------------------------------- hub_search_compatible_devices


async def test_search_compatible_devices(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_search_compatible_devices", {"text": "zooz"})
    assert {d["name"] for d in data["devices"]} == {"ZEN77 Dimmer", "ZSE41 Open/Close XS"}
    dimmer = next(d for d in data["devices"] if d["product_number"] == "ZEN77")
    assert dimmer["driver"] == "Zooz Z-Wave Dimmer" and "<" not in dimmer["pairing"]
    contacts = await ok(
        call_tool,
        "hub_search_compatible_devices",
        {"text": "contact", "protocol": "zigbee", "include_instructions": False},
    )
    assert [d["brand"] for d in contacts["devices"]] == ["Aqara"]
    assert "pairing" not in contacts["devices"][0]
    matter = await ok(call_tool, "hub_search_compatible_devices", {"protocol": "Matter"})
    assert matter["count"] == 1
    # the catalog is static: read once, then answered from the cache
    reads = [p for _m, p in hub.requests if p == "/hub/compatibleDevices"]
    assert len(reads) == 1
    before = len(hub.requests)
    nothing = await call_tool("hub_search_compatible_devices", {})
    assert nothing.error and nothing.data["error"] == "invalid_request"
    assert len(hub.requests) == before


# ---------------------------------------------------------------- hub_swap_device


async def test_swap_device_moves_every_app(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    old_id, new_id = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Office Motion")
    old, new = hub.state.devices[int(old_id)], hub.state.devices[int(new_id)]
    users = list(old.apps_using)
    assert users
    gate = await call_tool("hub_swap_device", {"old_device_id": old_id, "new_device_id": new_id})
    assert gate.error and gate.data["error"] == "confirmation_required"
    hub.mark_backup_now()
    apps_before = set(hub.state.apps)
    data = await ok(
        call_tool,
        "hub_swap_device",
        {"old_device_id": old_id, "new_device_id": new_id, "confirm": True},
    )
    assert sorted(int(a["app_id"]) for a in data["apps_moved"]) == sorted(users)
    assert old.apps_using == [] and set(users) <= set(new.apps_using)
    assert set(hub.state.apps) == apps_before  # the transient Swap Device app is gone
    assert any(p.startswith("/installedapp/forcedelete/") for _m, p in hub.requests)


async def test_swap_device_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    light = dev_id(hub, "Kitchen Light")
    unused = await ok(
        call_tool, "hub_create_device", {"driver": "Virtual Switch", "label": "Spare"}
    )
    spare = unused["device"]["device_id"]
    child = next(str(d.id) for d in hub.state.devices.values() if d.parent_id is not None)
    start = len(hub.requests)
    for old_id, new_id, needle in (
        (light, light, "must differ"),
        (spare, light, "No app uses"),
        (child, light, "free-standing"),
    ):
        result = await call_tool(
            "hub_swap_device",
            {"old_device_id": old_id, "new_device_id": new_id, "confirm": True},
        )
        assert result.error and needle in result.data["message"], result.data
    assert not [p for _m, p in hub.requests[start:] if "swapDevice" in p or "/create/" in p]


async def test_swap_device_failures_remove_the_swap_app(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    old_id, new_id = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Office Motion")
    users = list(hub.state.devices[int(old_id)].apps_using)
    apps_before = set(hub.state.apps)
    for path in ("/installedapp/update/json", "/installedapp/btn"):
        hub.faults.fail_paths = {path: 500}
        result = await call_tool(
            "hub_swap_device",
            {"old_device_id": old_id, "new_device_id": new_id, "confirm": True},
        )
        assert result.error and result.data["error"] == "hub_bad_response", path
        assert set(hub.state.apps) == apps_before, path  # no Swap Device app left behind
        assert hub.state.devices[int(old_id)].apps_using == users, path


async def test_swap_device_respects_the_allowlist(
    hass: Any, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    old_id, new_id = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Office Motion")
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [old_id]})
    hub.mark_backup_now()
    start = len(hub.requests)
    result = await call_tool(
        "hub_swap_device", {"old_device_id": old_id, "new_device_id": new_id, "confirm": True}
    )
    assert result.error and result.data["error"] == "device_not_allowed"
    assert hub.requests[start:] == []


async def test_triggering_gets_are_not_retried(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A busy answer to a GET that creates something is reported, never sent twice."""
    before = len(hub.state.devices)
    hub.faults.fail_paths = {"/device/createVirtual": 503}
    result = await call_tool("hub_create_device", {"driver": "Virtual Switch", "label": "Once"})
    assert result.error and result.data["error"] == "hub_bad_response"
    assert len([p for _m, p in hub.requests if p.startswith("/device/createVirtual")]) == 1
    assert len(hub.state.devices) == before
    # a plain read is still retried once on the same answer
    hub.faults.fail_paths = {}
    hub.faults.error_burst, hub.faults.error_status = 1, 503
    reads = await call_tool("hub_list_rooms")
    assert not reads.error, reads.data


# ---------------------------------------------------------------- contract: real-hub shapes


@pytest.fixture
def quick_effects(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes decided by effect give up after a short wait (the failure cases)."""
    monkeypatch.setattr(effects, "EFFECT_WAIT", 0.05)
    monkeypatch.setattr(effects, "EFFECT_INTERVAL", 0.01)


@asynccontextmanager
async def hub_client(hub: HubEmulator) -> AsyncIterator[HubClient]:
    url = URL(hub.url)
    conn = HubConnection(
        host=str(url.host), port=url.port, username=hub.username, password=hub.password
    )
    async with aiohttp.ClientSession() as session:
        yield HubClient(session, conn)


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


async def test_device_creation_reads_the_contract_answers() -> None:
    fake = FakeHub(
        {
            "GET /device/createVirtual": load_fixture("devices/create_virtual").answer,
            "GET /device/sysDriverByIdJson/500": load_fixture("devices/sys_driver_create").answer,
        }
    )
    assert await hub_devices.create_virtual(fake.client, "200") == "778"
    # the hub UI sends only deviceTypeId
    assert fake.calls[0][2]["params"] == {"deviceTypeId": "200"}
    assert await hub_devices.create_from_driver(fake.client, "500") == "777"


def _device_read(*, gone: bool = False, disabled: bool = False) -> Any:
    if gone:
        return HubNotFoundError("gone")
    raw = load_fixture("devices/full_json").answer
    return {**raw, "device": {**raw["device"], "disabled": disabled}}


@pytest.mark.usefixtures("quick_effects")
async def test_force_delete_is_decided_by_the_device_being_gone() -> None:
    answer = load_fixture("devices/force_delete").answer
    reads = iter([_device_read(), _device_read(gone=True)])
    fake = FakeHub(
        {
            "GET /device/forceDelete/41/json": answer,
            "GET /device/fullJson/41": lambda: next(reads),
        }
    )
    assert await hub_devices.force_delete(fake.client, "41") == "success"  # polled until gone
    fake.answers["GET /device/forceDelete/41/json"] = {**answer, "status": "partial"}
    fake.answers["GET /device/fullJson/41"] = _device_read(gone=True)
    assert await hub_devices.force_delete(fake.client, "41") == "partial"
    # a failure status whose effect is there anyway is a success
    fake.answers["GET /device/forceDelete/41/json"] = {**answer, "status": "failed"}
    assert await hub_devices.force_delete(fake.client, "41") is None
    # ... and without the effect, the hub's refusal stands
    fake.answers["GET /device/fullJson/41"] = _device_read()
    with pytest.raises(HubRefusedError, match="status 'failed'"):
        await hub_devices.force_delete(fake.client, "41")
    # "success" with the device still there is a failure, not a success
    fake.answers["GET /device/forceDelete/41/json"] = answer
    with pytest.raises(HubBadResponseError, match="still there"):
        await hub_devices.force_delete(fake.client, "41")
    # firmware without the /json form: the older confirm link
    fake.answers["GET /device/forceDelete/41/json"] = HubNotFoundError("no such path")
    fake.answers["GET /device/forceDelete/41/yes"] = "<html>deleted</html>"
    fake.answers["GET /device/fullJson/41"] = _device_read(gone=True)
    assert await hub_devices.force_delete(fake.client, "41") is None
    assert fake.calls[-2][1] == "/device/forceDelete/41/yes"


@pytest.mark.usefixtures("quick_effects")
async def test_disable_sends_what_the_hub_ui_sends_and_checks_the_flag() -> None:
    fake = FakeHub(
        {
            "POST /device/disable": {"success": True},
            "GET /device/fullJson/41": _device_read(disabled=True),
        }
    )
    await hub_devices.set_disabled(fake.client, "41", True)
    assert fake.calls[0][2]["json_body"] == {"id": 41, "disable": True}
    with pytest.raises(HubBadResponseError, match="still reads as disabled"):
        await hub_devices.set_disabled(fake.client, "41", False)


async def test_device_writes_answer_in_the_contract_shapes(hub: HubEmulator) -> None:
    vswitch = str(next(d.id for d in DRIVERS.values() if d.name == "Virtual Switch"))
    async with hub_client(hub) as client:
        created = await client.request(
            "GET", "/device/createVirtual", params={"deviceTypeId": vswitch}
        )
        assert_same_shape("devices/create_virtual", created)
        made = await client.get_json(f"/device/sysDriverByIdJson/{vswitch}")
        assert_same_shape("devices/sys_driver_create", made)
        gone = await client.get_json(f"/device/forceDelete/{created['deviceId']}/json")
        assert_same_shape("devices/force_delete", gone)
        old = dev_id(hub, "Kitchen Motion")
        options = await client.get_json(f"/device/getReplacementOptions/{old}")
        replaced = await client.request(
            "GET", "/device/replace", params={"oldId": old, "newId": str(options[0]["id"])}
        )
        assert_same_shape("devices/replace", replaced)


async def test_create_and_delete_follow_the_hub_ui(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    data = await ok(call_tool, "hub_create_device", {"driver": "Virtual Switch", "label": "Porch"})
    new_id = data["device"]["device_id"]
    creates = [p for _m, p in hub.requests[before:] if p.startswith("/device/createVirtual")]
    assert len(creates) == 1 and "label" not in creates[0]  # the label comes by the edit
    assert data["device"]["label"] == "Porch" and hub.device(new_id)["label"] == "Porch"
    assert sent(hub, before) == ["/device/update"]
    hub.mark_backup_now()
    # a real hub may answer "partial": the device is gone, with leftovers
    hub.state.force_delete_status = "partial"
    done = await ok(call_tool, "hub_delete_device", {"device_id": new_id, "confirm": True})
    assert "partial" in done["note"] and int(new_id) not in hub.device_ids()
    assert any(p == f"/device/forceDelete/{new_id}/json" for _m, p in hub.requests)
    # the hub says it failed but deleted: a success
    other = await ok(call_tool, "hub_create_device", {"driver": "Virtual Switch"})
    hub.state.force_delete_status = "failed"
    other_id = other["device"]["device_id"]
    done = await ok(call_tool, "hub_delete_device", {"device_id": other_id, "confirm": True})
    assert "note" not in done and int(other_id) not in hub.device_ids()


async def test_disable_is_the_hub_ui_json_and_verified(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp = dev_id(hub, "Guest Lamp")
    data = await ok(call_tool, "hub_update_device", {"device_id": lamp, "enabled": False})
    assert data["applied"] == ["disabled"] and hub.device(lamp)["disabled"] is True
    data = await ok(call_tool, "hub_update_device", {"device_id": lamp, "enabled": True})
    assert data["applied"] == ["enabled"] and hub.device(lamp)["disabled"] is False


@pytest.mark.usefixtures("quick_effects")
async def test_preference_save_sends_the_hub_ui_body_and_reads_it_back() -> None:
    raw = load_fixture("devices/full_json").answer
    saved = {**raw, "settings": [{**raw["settings"][0], "value": True}]}
    reads = iter([raw, saved])
    fake = FakeHub(
        {
            "POST /device/preference/save": {"success": True},
            "GET /device/fullJson/41": lambda: next(reads),
        }
    )
    prefs = [{"name": "logEnable", "type": "bool", "value": True}]
    await hub_devices.save_preferences(fake.client, "41", prefs)
    assert fake.calls[1][2]["json_body"] == {
        "deviceId": 41,
        "defaultCurrentState": "",
        "commandRetry": False,
        "showOnHome": True,
        "preferences": prefs,
    }
    # a save that answers success but reads back unchanged is a failure
    fake.answers["GET /device/fullJson/41"] = raw
    with pytest.raises(HubBadResponseError, match="read back unchanged"):
        await hub_devices.save_preferences(fake.client, "41", prefs)


async def test_create_says_the_device_exists_when_the_label_fails(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.fail_paths = {"/device/update": 500}
    result = await call_tool("hub_create_device", {"driver": "Virtual Switch", "label": "Porch"})
    assert result.error and result.data["error"] == "hub_bad_response"
    new_id = result.data["message"].split("created device ")[1].split(" ")[0]
    assert "label failed" in result.data["message"] and int(new_id) in hub.device_ids()
    assert "hub_update_device" in result.data["hint"]


async def test_a_deleted_device_read_as_an_error_page_is_settled_by_the_list() -> None:
    listed = load_fixture("devices/devices_list").answer
    fake = FakeHub(
        {
            "GET /device/forceDelete/41/json": load_fixture("devices/force_delete").answer,
            "GET /device/fullJson/41": HubBadResponseError("HTTP 500"),
            "GET /hub2/devicesList": listed,
        }
    )
    assert await hub_devices.force_delete(fake.client, "41") == "success"
    fake.answers["GET /device/fullJson/6"] = HubBadResponseError("HTTP 500")
    assert await hub_devices.device_gone(fake.client, "6") is False  # still listed
