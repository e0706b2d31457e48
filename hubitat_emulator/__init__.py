"""An emulated Hubitat Elevation hub (aiohttp) for tests and demos.

    emu = HubEmulator(security=True)
    url = await emu.start()          # http://127.0.0.1:<port>
    emu.set_device_attribute(dev_id, "switch", "on")
    emu.faults.error_burst = 2
    await emu.stop()

See :mod:`hubitat_emulator.hub` for the behaviour decisions the reference left open, and
:mod:`hubitat_emulator.faults` for fault injection.
"""

from __future__ import annotations

from .faults import Faults
from .hub import HubEmulator
from .seed import seed_home

__all__ = ["Faults", "HubEmulator", "seed_home"]
