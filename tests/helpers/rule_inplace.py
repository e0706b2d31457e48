"""The old and new rule specs of the in-place update tests, for managers/test_rule_inplace.py and
tools/test_rule_inplace.py.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator

from ..home_util import dev_id


def _old(emu: HubEmulator) -> dict[str, Any]:
    motion, light = dev_id(emu, "Office Motion"), dev_id(emu, "Office Light")
    button = dev_id(emu, "Bedside Button")
    return {
        "name": "Office helper",
        "triggers": [
            {"device_id": motion, "attribute": "motion", "is": "active"},
            {"button_device_id": button, "button": 1, "event": "pushed"},
        ],
        "conditions": {"not": {"mode": ["Away"]}},
        "local_variables": [{"name": "visits", "type": "integer", "value": 0}],
        "actions": [
            {
                "if": {"device_id": light, "attribute": "switch", "is": "off"},
                "then": [{"command": "on", "device_ids": [light]}],
                "else": [{"log": "already on"}],
            },
            {"set_variable": "visits", "value": 1},
        ],
    }


def _new(emu: HubEmulator) -> dict[str, Any]:
    light, button = dev_id(emu, "Office Light"), dev_id(emu, "Bedside Button")
    return {
        "name": "Office off button",
        "triggers": [{"button_device_id": button, "button": 1, "event": "held"}],
        "actions": [{"command": "off", "device_ids": [light]}],
    }
