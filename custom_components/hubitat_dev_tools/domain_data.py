"""State shared by every hub entry of this integration (one per Home Assistant instance)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from homeassistant.core import HomeAssistant
from homeassistant.util.hass_dict import HassKey

from .audit import AuditTrail
from .const import DOMAIN


@dataclass(slots=True)
class DomainData:
    """Shared objects: the audit trail and the LLM API registration."""

    audit: AuditTrail
    loaded_entries: set[str] = field(default_factory=set)
    unsubs: list[Callable[[], None]] = field(default_factory=list)


DATA_KEY: HassKey[DomainData] = HassKey(DOMAIN)


def get_domain_data(hass: HomeAssistant) -> DomainData | None:
    """Return the shared data, or None before the first entry is set up."""
    return hass.data.get(DATA_KEY)
