"""Helpers of the button rule tests (a device's id and attribute value by label, a switch
action's settings, waiting until a check holds), for managers/test_button_rules.py and
tools/test_button_rule_run.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hubitat_emulator import HubEmulator


def _dev(emu: HubEmulator, label: str) -> int:
    return next(d.id for d in emu.state.devices.values() if d.label == label)


def _value(emu: HubEmulator, label: str, attribute: str) -> Any:
    return emu.state.devices[_dev(emu, label)].value(attribute)


async def _settled(check: Callable[[], bool]) -> bool:
    for _ in range(40):
        if check():
            return True
        await asyncio.sleep(0.05)
    return False


def _switch_action(emu: HubEmulator, label: str, on: bool) -> dict[str, Any]:
    return {
        "actType.1": "switchActs",
        "actSubType.1": "getOnOffSwitch",
        "onOffSwitch.1": str(_dev(emu, label)),
        "onOff.1": on,
    }
