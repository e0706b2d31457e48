"""Small readers and builders for the emulated rule runner's tests (a device's id by label, an
attribute's value, an on/off action's settings): emulator/test_emu_rule_runner.py and
emulator/test_emu_rule_locals.py.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator


def dev(emu: HubEmulator, label: str) -> int:
    return int(emu.find_device(label)["id"])


def attr(emu: HubEmulator, device_id: int, name: str) -> object:
    return emu.device(device_id)["attributes"][name]


def on_off(n: int, device_id: int, on: bool) -> dict[str, Any]:
    return {
        f"actType.{n}": "switchActs",
        f"actSubType.{n}": "getOnOffSwitch",
        f"onOffSwitch.{n}": str(device_id),
        f"onOff.{n}": on,
    }
