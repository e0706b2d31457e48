"""Readers of the emulated hub's app cloner state (cloner apps, new apps, cloner requests), for
managers/test_app_cloner.py and tools/test_app_cloner.py.
"""

from __future__ import annotations

from hubitat_emulator import HubEmulator
from hubitat_emulator.model import App
from hubitat_emulator.routes_cloner import CLONER_TYPE


def cloners(emu: HubEmulator) -> list[int]:
    return [a.id for a in emu.state.apps.values() if a.type == CLONER_TYPE]


def new_apps(emu: HubEmulator, before: set[int]) -> list[App]:
    return [a for a in emu.state.apps.values() if a.id not in before and a.type != CLONER_TYPE]


def cloner_requests(emu: HubEmulator, since: int) -> list[str]:
    return [p for _m, p in emu.requests[since:] if "appCloner" in p]
