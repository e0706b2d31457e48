"""A counter driver's source and the reader of the emulated hub's device-create requests, for
managers/test_device_create.py and tools/test_device_create.py.
"""

from __future__ import annotations

from hubitat_emulator import HubEmulator

COUNTER = """metadata {
    definition(name: "Virtual Counter", namespace: "home", author: "me") {
        capability "Switch"
        capability "Temperature Measurement"
    }
}
def on() { }
def off() { }
"""


def creates(emu: HubEmulator, before: int) -> list[str]:
    return [p for _m, p in emu.requests[before:] if p.startswith("/device/")]
