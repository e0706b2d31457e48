"""Readers of an emulated app's settings (its inputs, POSTs sent, device ids by label), for
managers/test_app_settings.py and tools/test_app_settings.py.
"""

from __future__ import annotations

from typing import Any

from hubitat_emulator import HubEmulator


def inputs(emu: HubEmulator, app_id: int) -> dict[str, dict[str, Any]]:
    return {i["name"]: i for i in emu.state.dev.internals[app_id].inputs}


def posts(emu: HubEmulator, since: int) -> list[str]:
    return [p for m, p in emu.requests[since:] if m == "POST"]


def device_ids(emu: HubEmulator, *labels: str) -> list[str]:
    by_label = {d.display_name: str(d.id) for d in emu.state.devices.values()}
    return [by_label[label] for label in labels]
