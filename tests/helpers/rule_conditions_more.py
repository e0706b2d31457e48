"""The devices and the button rule the rule-condition tests build on, and a press that reads the
light afterwards, for managers/test_rule_conditions_more.py and
tools/test_rule_conditions_more.py.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator

from ..home_util import dev_id

LIGHT, BUTTON = "Office Light", "Bedside Button"
WARM, COOL = "Dining Room Sensor", "Guest Room Sensor"  # 70.1 and 65.3 degrees


def _rule(emu: HubEmulator, name: str, **parts: Any) -> dict[str, Any]:
    light = dev_id(emu, LIGHT)
    return {
        "name": name,
        "triggers": [{"button_device_id": dev_id(emu, BUTTON), "button": 1, "event": "pushed"}],
        "actions": [{"command": "on", "device_ids": [light]}],
        **parts,
    }


async def _press(emu: HubEmulator) -> str:
    """Turn the light off, push the button, and answer the light's switch afterwards."""
    light = int(dev_id(emu, LIGHT))
    emu.run_command(light, "off", [])
    emu.run_command(int(dev_id(emu, BUTTON)), "push", [1])
    await emu.clock.settle()
    return str(emu.device(light)["attributes"]["switch"])
