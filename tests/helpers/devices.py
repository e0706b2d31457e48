"""``other``: the switch state a device is not in now, for managers/test_devices.py and
tools/test_events_devices.py.
"""

from __future__ import annotations

from hubitat_emulator import HubEmulator


def other(emu: HubEmulator, device: int) -> str:
    """The switch state ``device`` is not in now."""
    return "off" if emu.device(device)["attributes"]["switch"] == "on" else "on"
