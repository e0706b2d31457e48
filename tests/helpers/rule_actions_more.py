"""Helpers of the rule-action tests used from managers/ and tools/ (a device attribute's value,
firing a motion rule on the emulated clock, a rule with a DateTime local variable), for
managers/test_rule_actions_more.py and tools/test_rule_actions_more.py.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator


def _motion_again(emu: HubEmulator, motion: str) -> None:
    emu.set_device_attribute(int(motion), "motion", "inactive")
    emu.set_device_attribute(int(motion), "motion", "active")


def _attr(emu: HubEmulator, device: str, attr: str) -> Any:
    return emu.state.devices[int(device)].attrs[attr].value


async def _fire(emu: HubEmulator, motion: str) -> None:
    _motion_again(emu, motion)
    await emu.clock.settle()
    await emu.clock.advance(1)


def _with_a_date(motion: str) -> dict[str, Any]:
    """A rule with a DateTime local variable (a -04:00 offset) that its log action shows."""
    return {
        "name": "With a date",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "local_variables": [
            {"name": "due", "type": "datetime", "value": "2026-05-17T14:30:00-04:00"}
        ],
        "actions": [{"log": "due is %due%"}],
    }
