"""A rule spec with a dates condition and a press at a given time, for managers/test_rule_dates.py
and tools/test_rule_dates.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from hubitat_emulator import HubEmulator

from ..home_util import dev_id


def _spec(emu: HubEmulator, dates: dict[str, str], **extra: Any) -> dict[str, Any]:
    button, light = dev_id(emu, "Bedside Button"), dev_id(emu, "Office Light")
    return {
        "name": "Holiday lights",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "conditions": {"dates": dates, **extra},
        "actions": [{"command": "on", "device_ids": [light]}],
    }


async def _pressed_at(emu: HubEmulator, when: datetime) -> str:
    light, button = dev_id(emu, "Office Light"), dev_id(emu, "Bedside Button")
    emu.run_command(int(light), "off", [])
    emu.clock.set(when)
    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    return str(emu.device(int(light))["attributes"]["switch"])
