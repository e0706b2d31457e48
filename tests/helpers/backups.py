"""``fail_the_restore``: the emulated hub answers a backup restore with a 500, for
managers/test_backups.py and tools/test_backups.py.
"""

from __future__ import annotations

import pytest

from hubitat_emulator import HubEmulator


def fail_the_restore(emu: HubEmulator, monkeypatch: pytest.MonkeyPatch) -> str:
    """The hub answers a restore with a 500; the name of its last backup, the one to restore."""
    emu.faults.delay_paths = {"/hub2/restoreLocalBackup": 0}
    emu.faults.error_status = 500
    name = emu.backups[-1].name
    emu.faults.error_burst = 0
    orig = emu.faults.delay_for

    def burst_on_restore(path: str) -> float:
        if path.startswith("/hub2/restoreLocalBackup"):
            emu.faults.error_burst = 1
        return orig(path)

    monkeypatch.setattr(emu.faults, "delay_for", burst_on_restore)
    return name
