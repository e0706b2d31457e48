"""A wide rule spec (every trigger kind, nested conditions, many kinds of action), the check that
a rule reads back as its spec, and the emulated hub's rule ids, for
managers/test_rule_authoring_e2e.py, managers/test_rule_decode_all.py and
tools/test_rule_authoring_e2e.py.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator

from ..home_util import dev_id


def wide_spec(emu: HubEmulator) -> dict[str, Any]:
    """A rule with every trigger kind, nested conditions and many kinds of action."""
    office_motion = dev_id(emu, "Office Motion")
    office_light = dev_id(emu, "Office Light")
    office_door = dev_id(emu, "Office Door")
    sensor = dev_id(emu, "Dining Room Sensor")
    button = dev_id(emu, "Bedside Button")
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
            {"notify": "Office evening started", "device_ids": [dev_id(emu, "Family Phone")]},
            {"run_rule": ["140"]},
        ],
        "logging": ["events", "actions"],
    }


def _rule_ids(emu: HubEmulator) -> set[int]:
    return {a.id for a in emu.home.state.apps.values() if a.type == "Rule-5.1"}


def assert_reads_back(got: dict[str, Any], spec: dict[str, Any]) -> None:
    """A rule as read back (``hub_get_rule``'s answer) is ``spec``: every part decoded,
    triggers, conditions and actions equal, and running (not paused)."""
    assert got["undecompiled"] == [], got["undecompiled"]
    back = got["spec"]
    assert back["triggers"] == spec["triggers"]
    assert back["conditions"] == spec["conditions"]
    assert back["actions"] == spec["actions"]
    assert got["paused"] is False
