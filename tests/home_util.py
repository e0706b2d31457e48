"""Helpers shared by the home-surface tests (devices, rooms, scenes, location: tests/tools/)."""

from __future__ import annotations

from hubitat_emulator import HubEmulator


def sent(hub: HubEmulator, before: int, prefix: str = "") -> list[str]:
    """Paths of the non-GET requests since ``before`` (optionally under ``prefix``)."""
    return [p for m, p in hub.requests[before:] if m != "GET" and p.startswith(prefix)]


def dev_id(hub: HubEmulator, label: str) -> str:
    """The id (as the tools take it) of the emulated device labelled ``label``."""
    return str(hub.find_device(label)["id"])
