"""Rules built on the emulated hub's Rule Machine pages, read back, changed and cleaned up."""

from __future__ import annotations

from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from .conftest import ToolCaller
from .home_util import dev_id


def wide_spec(hub: HubEmulator) -> dict[str, Any]:
    office_motion = dev_id(hub, "Office Motion")
    office_light = dev_id(hub, "Office Light")
    office_door = dev_id(hub, "Office Door")
    sensor = dev_id(hub, "Dining Room Sensor")
    button = dev_id(hub, "Bedside Button")
    return {
        "name": "Office evening",
        "triggers": [
            {"device_id": office_motion, "attribute": "motion", "is": "active"},
            {
                "device_id": sensor,
                "attribute": "temperature",
                "op": "gt",
                "value": 78,
                "stays_for": {"minutes": 10},
            },
            {"time": "22:30"},
            {"sun": "sunset", "offset_minutes": -15},
            {"every": {"minutes": 15}},
            {"mode": ["Night"]},
            {"variable": "guestCount", "op": "gte", "value": 3},
            {"button_device_id": button, "button": 2, "event": "held"},
        ],
        "conditions": {
            "all": [
                {"mode": ["Evening", "Night"]},
                {"not": {"device_id": office_door, "attribute": "contact", "is": "open"}},
            ]
        },
        "actions": [
            {
                "if": {"device_id": office_light, "attribute": "switch", "is": "off"},
                "then": [{"command": "setLevel", "device_ids": [office_light], "arguments": [40]}],
                "else": [
                    {
                        "command": "off",
                        "device_ids": [office_light],
                        "delay": {"minutes": 2},
                        "cancelable": True,
                    }
                ],
            },
            {"set_mode": "Evening"},
            {"set_variable": "guestCount", "value": 0},
            {"log": "office evening ran"},
            {"run_rule": ["140"]},
        ],
        "logging": ["events", "actions"],
    }


async def test_a_wide_rule_is_built_and_reads_back_as_its_spec(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    spec = wide_spec(hub)
    result = await call_tool("hub_create_rule", {"rule": spec})
    assert not result.error, result.data
    app_id = result.data["app_id"]
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [], got.data["undecompiled"]
    back = got.data["spec"]
    assert back["triggers"] == spec["triggers"]
    assert back["conditions"] == spec["conditions"]
    assert back["actions"] == spec["actions"]
    assert got.data["paused"] is False
