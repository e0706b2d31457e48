"""The announcer app's code id and readers of the emulated hub's writes, running instances and
motion sensors, for managers/test_code_instances.py and tools/test_code_instances.py.
"""

from __future__ import annotations

from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import CODE_APP_ANNOUNCER

APP = str(CODE_APP_ANNOUNCER)
WRITES = ("saveOrUpdateJson", "ajax/update", "installedapp/update", "fileManager/upload")


def _writes(emu: HubEmulator, before: int) -> list[str]:
    return [p for m, p in emu.requests[before:] if m == "POST" and any(w in p for w in WRITES)]


def _running(emu: HubEmulator) -> list[int]:
    return sorted(
        x.id for x in emu.state.apps.values() if x.user and x.app_type_id == CODE_APP_ANNOUNCER
    )


def _motions(emu: HubEmulator) -> list[int]:
    return sorted(
        d.id for d in emu.state.devices.values() if "MotionSensor" in d.driver.capabilities
    )
