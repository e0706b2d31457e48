"""Per-hub runtime objects stored in the config entry (entry.runtime_data)."""

from __future__ import annotations

from dataclasses import dataclass, field

from homeassistant.config_entries import ConfigEntry

from .change_lock import ChangeLock
from .hub.info import HubIdentity
from .managers.hub import Hub


@dataclass(slots=True)
class HubRuntime:
    """One configured hub: its entry, the Hub object and the identity read at setup."""

    entry: ConfigEntry[HubRuntime]
    hub: Hub
    identity: HubIdentity
    # writes through the tools: judged and done with no other call's change between
    changes: ChangeLock = field(default_factory=ChangeLock)

    @property
    def title(self) -> str:
        """Return the name users know the hub by."""
        return self.entry.title or self.identity.name


type HubitatConfigEntry = ConfigEntry[HubRuntime]
