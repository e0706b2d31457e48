"""``_two_gone_quiet``: the seeded home with two devices gone quiet, for
managers/test_honest_answers.py and tools/test_honest_answers.py.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from hubitat_emulator import HubEmulator

from ..home_util import dev_id


def _two_gone_quiet(emu: HubEmulator, now: datetime) -> tuple[str, str]:
    """Every device last active 5 minutes before ``now`` but two: the Living Room Lamp 3 days
    before, the Kitchen Light never; their ids."""
    devices = emu.state.devices
    for dev in devices.values():
        dev.last_activity = now - timedelta(minutes=5)
    quiet, never = dev_id(emu, "Living Room Lamp"), dev_id(emu, "Kitchen Light")
    devices[int(quiet)].last_activity = now - timedelta(days=3)
    devices[int(never)].last_activity = None
    return quiet, never
