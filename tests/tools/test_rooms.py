"""Room tools of the home surface: the tools' part.

Here stay the room tools called by name with their summaries, the confirmation gate on
delete, the "nothing to change" refusal, the device allowlist (the safety chokepoint and a
delete of a room holding devices outside it) and the error a failing hub answers. Listing,
resolving, creating, renaming, assigning, deleting as the hub UI does and the refusals that
send nothing are tested without hass in tests/managers/test_rooms.py; the parsing of the
hub's recorded room answers, the save and the delete decided by listing the rooms again, and
the emulated hub's room save answer in tests/hub/test_rooms.py."""

from __future__ import annotations

import json
import re

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, sent_since
from ..home_util import dev_id, sent


def room_of(hub: HubEmulator, label: str) -> str | None:
    room: str | None = hub.find_device(label)["room"]
    return room


async def test_get_room_lists_its_devices_with_states(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: hub_get_room joins the room with its devices' states, and a missing
    room is refused (the listing and resolving: tests/managers/test_rooms.py)."""
    rooms = await ok(call_tool, "hub_list_rooms")
    kitchen = next(r for r in rooms["rooms"] if r["name"] == "Kitchen")
    assert rooms["count"] == len(rooms["rooms"])
    data = await ok(call_tool, "hub_get_room", {"room": "kitchen"})
    assert data["name"] == "Kitchen" and data["device_count"] == kitchen["device_count"]
    assert all("states" in d for d in data["devices"])
    missing = await call_tool("hub_get_room", {"room": "Attic"})
    assert missing.error and "Kitchen" in missing.data["message"]


async def test_room_tools_summarise_and_delete_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part of a room's life: the summaries and the confirmation gate (the
    writes themselves: tests/managers/test_rooms.py::test_create_update_delete_room)."""
    lamp, fan = dev_id(hub, "Guest Lamp"), dev_id(hub, "Living Room Fan")
    data = await ok(call_tool, "hub_create_room", {"name": "Sunroom", "device_ids": [lamp]})
    assert "Created room Sunroom" in data["summary"]
    data = await ok(call_tool, "hub_update_room", {"room": "Sunroom", "add_device_ids": [fan]})
    assert "added 1 device(s)" in data["summary"]
    data = await ok(call_tool, "hub_update_room", {"room": "Sunroom", "remove_device_ids": [fan]})
    assert "unassigned" in data["summary"]
    before = len(hub.requests)
    refused = await call_tool("hub_delete_room", {"room": "Sunroom"})
    assert refused.error and refused.data["error"] == "confirmation_required"
    assert sent(hub, before) == [] and room_of(hub, "Guest Lamp") == "Sunroom"
    hub.mark_backup_now()
    data = await ok(call_tool, "hub_delete_room", {"room": "Sunroom", "confirm": True})
    assert data["devices_now_unassigned"] == [lamp]
    assert "unassigned" in data["summary"]
    assert room_of(hub, "Guest Lamp") is None


async def test_update_room_with_nothing_to_change_is_refused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's own refusal (the manager's: tests/managers/test_rooms.py)."""
    before = len(hub.requests)
    result = await call_tool("hub_update_room", {"room": "Office"})
    assert result.error and "Nothing to change" in result.data["message"], result.data
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


async def test_delete_room_holding_an_outside_device_is_refused(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Deleting a room unassigns every device in it: a room holding a device outside the
    allowlist is refused before any write, and the refusal never names that device."""
    lamp = dev_id(hub, "Guest Lamp")
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [lamp]})
    guest = next(r for r in hub.rooms.values() if r["name"] == "Guest Bedroom")
    members = [str(d) for d in guest["deviceIds"]]
    outside = [d for d in members if d != lamp]
    assert lamp in members and outside  # the seeded room holds both kinds
    labels = [str(hub.device(d)["label"]) for d in outside]
    hub.mark_backup_now()
    before = len(hub.requests)
    result = await call_tool("hub_delete_room", {"room": "Guest Bedroom", "confirm": True})
    assert result.error and result.data["error"] == "device_not_allowed", result.data
    message, hint = result.data["message"], result.data["hint"]
    assert f"holds {len(outside)} device(s) outside" in message and "allowlist" in message
    assert "Nothing was changed" in message
    assert "hub's UI" in hint and "options" in hint
    # nothing deleted: no request to the hub that writes, the room and its devices as they were
    assert [p for _m, p in sent_since(hub, before) if p.startswith("/room/")] == []
    assert sent(hub, before) == []
    assert guest["id"] in hub.rooms
    assert room_of(hub, "Guest Lamp") == "Guest Bedroom"
    assert all(hub.device(d)["room"] == "Guest Bedroom" for d in outside)
    # the outside devices are counted, never named (neither label nor id)
    text = json.dumps(result.data)
    for label in labels:
        assert label not in text, label
    for device_id in outside:
        assert re.search(rf"(?<!\d){device_id}(?!\d)", text) is None, device_id


async def test_delete_room_of_allowed_devices_only(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """With an allowlist set, a room holding only allowed devices (or none) still deletes."""
    lamp = dev_id(hub, "Guest Lamp")
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [lamp]})
    await ok(call_tool, "hub_create_room", {"name": "Attic", "device_ids": [lamp]})
    await ok(call_tool, "hub_create_room", {"name": "Loft"})
    assert room_of(hub, "Guest Lamp") == "Attic"
    hub.mark_backup_now()
    before = len(hub.requests)
    data = await ok(call_tool, "hub_delete_room", {"room": "Attic", "confirm": True})
    assert data["devices_now_unassigned"] == [lamp] and room_of(hub, "Guest Lamp") is None
    data = await ok(call_tool, "hub_delete_room", {"room": "Loft", "confirm": True})
    assert data["devices_now_unassigned"] == []
    deletes = [p for _m, p in sent_since(hub, before) if p.startswith("/room/delete/")]
    assert len(deletes) == 2
    assert {r["name"] for r in hub.rooms.values()}.isdisjoint({"Attic", "Loft"})


async def test_room_hub_error(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.error_burst = 2
    result = await call_tool("hub_list_rooms")
    assert result.error and result.data["error"] == "hub_bad_response"
