"""The firmware versions the code tests run on, a driver that compiles, and readers of the
emulated hub's code saves, update path and backups, for managers/test_code.py and
tools/test_code.py.
"""

from __future__ import annotations

from hubitat_emulator import HubEmulator

# Code saves differ by firmware: every test here runs on a legacy-editor hub and a 2.5 one.
LEGACY, CURRENT = "2.4.4.156", "2.5.0.143"
GOOD_DRIVER = """metadata {
    definition(name: "Test Relay", namespace: "t", author: "t") {
        capability "Switch"
    }
}
def on() { }
def off() { }
"""


def update_path(emu: HubEmulator, kind: str) -> str:
    """Where this hub's editor saves changed code."""
    if kind != "library" and emu.state.version == LEGACY:
        return f"/{kind}/ajax/update"
    return f"/{kind}/saveOrUpdateJson"


def saves(emu: HubEmulator) -> list[str]:
    ends = ("saveOrUpdateJson", "/ajax/update", "/app/save", "/driver/save")
    return [p for m, p in emu.requests if m == "POST" and p.endswith(ends)]


def backups(emu: HubEmulator) -> list[str]:
    return [n for n in emu.files.names() if n.startswith("hdt-backup_")]
