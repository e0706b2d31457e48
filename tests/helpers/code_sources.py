"""A driver served from a URL and the reader of the emulated hub's code saves, for
managers/test_code_sources.py and tools/test_code_sources.py.
"""

from __future__ import annotations

from hubitat_emulator import HubEmulator

DRIVER = """metadata {
    definition(name: "Url Relay", namespace: "t", author: "t") {
        capability "Switch"
    }
}
def on() { }
def off() { }
"""


def saves(emu: HubEmulator, since: int = 0) -> list[str]:
    return [p for m, p in emu.requests[since:] if m == "POST" and "save" in p.lower()]
