"""Node builders of the visual rule node tests (a device, a motion trigger, a turn-on action), for
managers/test_visual_nodes.py and tools/test_visual_rules_nodes.py.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator

MOTION_STARTS = "Motion starts"


def dev(emu: HubEmulator, label: str) -> int:
    return int(emu.find_device(label)["id"])


def motion(device_id: int) -> dict[str, Any]:
    return {
        "triggerType": "motion",
        "motionSensors": [device_id],
        "motionSensorEvent": MOTION_STARTS,
    }


def turn_on(device_id: int) -> dict[str, Any]:
    return {"actionType": "turnOn", "switches": [device_id]}
