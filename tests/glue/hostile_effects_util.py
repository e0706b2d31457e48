"""The hub's write requests since a point and an entry's options setter, for the hostile-model
tests of what calls change: glue/test_hostile_effects.py and glue/test_hostile_new_writes.py.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

POSTS = ("/installedapp/btn", "/installedapp/update", "/installedapp/disable", "/device/runmethod")


def changes_since(hub: HubEmulator, before: int) -> list[tuple[str, str]]:
    """Requests since ``before`` that make something happen on the hub."""
    return [(m, p) for m, p in hub.requests[before:] if m == "POST" or p.startswith(POSTS)]


def set_options(hass: HomeAssistant, entry: MockConfigEntry, **options: Any) -> None:
    hass.config_entries.async_update_entry(entry, options={**entry.options, **options})
