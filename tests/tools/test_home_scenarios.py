"""Common intents answered with the fewest tool calls, and hub failures for every home tool."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..home_util import dev_id


class Counter:
    """Counts the tool calls an 'assistant' makes for one intent."""

    def __init__(self, call_tool: ToolCaller) -> None:
        self.call_tool = call_tool
        self.calls = 0

    async def __call__(self, name: str, args: dict[str, Any] | None = None) -> Any:
        self.calls += 1
        result = await self.call_tool(name, args or {})
        assert not result.error, result.data
        return result.data


async def test_turn_off_every_kitchen_light(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Two calls: find the kitchen's switchable devices, then one batch."""
    tool = Counter(call_tool)
    found = await tool(
        "hub_list_devices",
        {"room": "Kitchen", "capability": "Switch", "fields": ["label", "states.switch"]},
    )
    await tool(
        "hub_call_device_command",
        {"commands": [{"device_id": d["device_id"], "command": "off"} for d in found["devices"]]},
    )
    assert tool.calls == 2
    await asyncio.sleep(0.05)
    for d in found["devices"]:
        assert hub.device(d["device_id"])["attributes"]["switch"] == "off"


async def test_is_the_front_door_locked(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    tool = Counter(call_tool)
    data = await tool("hub_list_devices", {"text": "front door lock", "fields": ["states.lock"]})
    assert tool.calls == 1
    lock_id = dev_id(hub, "Front Door Lock")
    assert data["devices"] == [
        {"device_id": lock_id, "states": {"lock": hub.device(lock_id)["attributes"]["lock"]}}
    ]


async def test_set_the_house_to_away(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    tool = Counter(call_tool)
    await tool("hub_set_mode", {"mode": "Away"})
    assert tool.calls == 1 and hub.current_mode == "Away"


async def test_what_changed_in_the_last_hour(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.set_device_attribute(int(dev_id(hub, "Garage Light")), "switch", "on")
    target = "Night" if hub.current_mode != "Night" else "Evening"  # a change from now
    hub.set_mode(target)
    tool = Counter(call_tool)
    devices = await tool(
        "hub_list_devices", {"changed_within_minutes": 60, "fields": ["label", "last_activity"]}
    )
    assert "Garage Light" in [d["label"] for d in devices["devices"]]
    location = await tool("hub_list_events", {"source": "location", "hours_back": 1})
    assert target in [e["value"] for e in location["events"]]
    assert tool.calls == 2  # devices + location (mode/HSM/variables) changes


HOME_CALLS: dict[str, dict[str, Any]] = {
    "hub_list_devices": {},
    "hub_get_device": {"device_id": "6"},
    "hub_get_device_attribute": {"device_id": "6", "attribute": "switch"},
    "hub_call_device_command": {"device_id": "6", "command": "on"},
    "hub_list_device_events": {"device_id": "6"},
    "hub_update_device": {"device_id": "6", "label": "x"},
    "hub_create_device": {"driver": "Virtual Switch"},
    "hub_delete_device": {"device_id": "6", "confirm": True},
    "hub_replace_device": {"old_device_id": "6", "new_device_id": "121", "confirm": True},
    "hub_list_rooms": {},
    "hub_get_room": {"room": "Kitchen"},
    "hub_create_room": {"name": "Attic"},
    "hub_update_room": {"room": "Kitchen", "new_name": "Cuisine"},
    "hub_delete_room": {"room": "Kitchen", "confirm": True},
    "hub_list_modes": {},
    "hub_set_mode": {"mode": "Away"},
    "hub_create_mode": {"name": "Party"},
    "hub_update_mode": {"mode": "Day", "new_name": "Daytime"},
    "hub_delete_mode": {"mode": "Night", "confirm": True},
    "hub_get_hsm_status": {},
    "hub_set_hsm": {"command": "armAway", "confirm": True},
    "hub_list_variables": {},
    "hub_get_variable": {"name": "guestCount"},
    "hub_set_variable": {"name": "guestCount", "value": 3},
}


@pytest.mark.parametrize("tool_name", sorted(HOME_CALLS))
async def test_hub_down_is_an_error_result(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, tool_name: str
) -> None:
    hub.faults.down = True
    result = await call_tool(tool_name, HOME_CALLS[tool_name])
    assert result.error
    assert result.data["error"] in ("hub_unreachable", "hub_bad_response"), result.data
    assert result.data["hint"]


@pytest.mark.parametrize("tool_name", sorted(HOME_CALLS))
async def test_invalid_arguments_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, tool_name: str
) -> None:
    before = len(hub.requests)
    result = await call_tool(tool_name, {**HOME_CALLS[tool_name], "bogus_argument": 1})
    assert result.error and result.data["error"] == "invalid_arguments", result.data
    assert len(hub.requests) == before
