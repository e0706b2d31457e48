"""Per-hub runtime objects stored in the config entry (entry.runtime_data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from homeassistant.config_entries import ConfigEntry

from .hub.client import HubClient
from .hub.info import HubIdentity
from .managers.devices import DeviceManager
from .managers.hub_info import HubInfoManager
from .managers.rooms import RoomManager
from .managers.state_cache import StateCache


@dataclass(slots=True)
class HubRuntime:
    """Everything one configured hub needs at run time."""

    entry: ConfigEntry[HubRuntime]
    client: HubClient
    identity: HubIdentity
    info: HubInfoManager
    devices: DeviceManager
    rooms: RoomManager
    last_backup_at: datetime | None = field(default=None)
    # The live state cache (event_stream.py sets it while the hub's event stream runs).
    cache: StateCache | None = field(default=None)

    @classmethod
    def build(
        cls, entry: ConfigEntry[HubRuntime], client: HubClient, identity: HubIdentity
    ) -> HubRuntime:
        """Wire the managers over one client."""
        return cls(
            entry=entry,
            client=client,
            identity=identity,
            info=HubInfoManager(client),
            devices=DeviceManager(client),
            rooms=RoomManager(client),
        )

    @property
    def title(self) -> str:
        """Return the name users know the hub by."""
        return self.entry.title or self.identity.name


type HubitatConfigEntry = ConfigEntry[HubRuntime]
