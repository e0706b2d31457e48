"""Room tools of the home surface."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from .conftest import ToolCaller, add_entry, ok
from .home_util import dev_id, sent


def room_of(hub: HubEmulator, label: str) -> str | None:
    room: str | None = hub.find_device(label)["room"]
    return room


async def test_list_and_get_room(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rooms = await ok(call_tool, "hub_list_rooms")
    kitchen = next(r for r in rooms["rooms"] if r["name"] == "Kitchen")
    assert kitchen["device_count"] == len(kitchen["device_ids"]) > 0
    data = await ok(call_tool, "hub_get_room", {"room": "kitchen"})
    assert data["name"] == "Kitchen" and data["device_count"] == kitchen["device_count"]
    assert all("states" in d for d in data["devices"])
    by_id = await ok(call_tool, "hub_get_room", {"room": kitchen["room_id"]})
    assert by_id["name"] == "Kitchen"
    missing = await call_tool("hub_get_room", {"room": "Attic"})
    assert missing.error and "Kitchen" in missing.data["message"]


async def test_create_update_delete_room(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp, fan = dev_id(hub, "Guest Lamp"), dev_id(hub, "Living Room Fan")
    data = await ok(call_tool, "hub_create_room", {"name": "Sunroom", "device_ids": [lamp]})
    assert room_of(hub, "Guest Lamp") == "Sunroom"
    data = await ok(
        call_tool,
        "hub_update_room",
        {"room": "sunroom", "new_name": "Conservatory", "add_device_ids": [fan]},
    )
    assert data["renamed_from"] == "Sunroom" and data["added"] == [fan]
    assert room_of(hub, "Living Room Fan") == "Conservatory"
    assert room_of(hub, "Guest Lamp") == "Conservatory"  # existing members kept
    data = await ok(
        call_tool, "hub_update_room", {"room": "Conservatory", "remove_device_ids": [fan]}
    )
    assert room_of(hub, "Living Room Fan") is None
    assert "unassigned" in data["summary"]
    refused = await call_tool("hub_delete_room", {"room": "Conservatory"})
    assert refused.error and refused.data["error"] == "confirmation_required"
    hub.mark_backup_now()
    data = await ok(call_tool, "hub_delete_room", {"room": "Conservatory", "confirm": True})
    assert data["devices_now_unassigned"] == [lamp]
    assert "unassigned" in data["summary"]
    assert room_of(hub, "Guest Lamp") is None


async def test_room_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp = dev_id(hub, "Guest Lamp")
    before = len(hub.requests)
    for tool, args, word in (
        ("hub_create_room", {"name": "kitchen"}, "already exists"),
        ("hub_create_room", {"name": "Attic", "device_ids": ["99999"]}, "99999"),
        ("hub_update_room", {"room": "Office", "new_name": "Kitchen"}, "already exists"),
        ("hub_update_room", {"room": "Office", "remove_device_ids": [lamp]}, "not in room"),
        ("hub_update_room", {"room": "Office"}, "Nothing to change"),
        ("hub_update_room", {"room": "Attic", "new_name": "X"}, "No room"),
    ):
        result = await call_tool(tool, args)
        assert result.error and word in result.data["message"], (tool, args, result.data)
    assert sent(hub, before) == []


async def test_room_writes_respect_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The safety chokepoint refuses every device id list of the room tools."""
    lamp, fan = dev_id(hub, "Guest Lamp"), dev_id(hub, "Living Room Fan")
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [lamp]})
    rooms = await ok(call_tool, "hub_list_rooms")
    assert [d for r in rooms["rooms"] for d in r["device_ids"]] == [lamp]
    before = len(hub.requests)
    for tool, args in (
        ("hub_create_room", {"name": "Attic", "device_ids": [lamp, fan]}),
        ("hub_update_room", {"room": "Office", "add_device_ids": [fan]}),
        ("hub_update_room", {"room": "Office", "remove_device_ids": [fan]}),
    ):
        result = await call_tool(tool, args)
        assert result.error and result.data["error"] == "device_not_allowed", (tool, args)
        assert fan in result.data["message"] and lamp not in result.data["message"]
    assert len(hub.requests) == before


async def test_room_hub_error(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.error_burst = 2
    result = await call_tool("hub_list_rooms")
    assert result.error and result.data["error"] == "hub_bad_response"
