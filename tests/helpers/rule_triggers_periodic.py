"""A periodic-trigger rule spec, times in the hub's zone and when the rule fires, for
managers/test_rule_triggers_periodic.py and tools/test_rule_triggers_periodic.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import HUB_TZ

from ..home_util import dev_id


def _at(day: int, hour: int, minute: int = 0, second: int = 0, month: int = 12) -> datetime:
    year = 2027 if month < 12 else 2026
    return datetime(year, month, day, hour, minute, second, tzinfo=HUB_TZ)


def _spec(emu: HubEmulator, trigger: dict[str, Any], name: str = "Timed light") -> dict[str, Any]:
    return {
        "name": name,
        "triggers": [trigger],
        "actions": [{"command": "on", "device_ids": [dev_id(emu, "Office Light")]}],
    }


def _light(emu: HubEmulator) -> str:
    return str(emu.device(int(dev_id(emu, "Office Light")))["attributes"]["switch"])


async def _fires_at(emu: HubEmulator, start: datetime, due: datetime) -> None:
    """From ``start`` the rule has not run a second before ``due``, and has run just after."""
    emu.run_command(int(dev_id(emu, "Office Light")), "off", [])
    emu.clock.set(start)
    await emu.clock.settle()
    await emu.clock.advance((due - start).total_seconds() - 1)
    assert _light(emu) == "off", f"ran before {due}"
    await emu.clock.advance(2)
    assert _light(emu) == "on", f"did not run at {due}"
