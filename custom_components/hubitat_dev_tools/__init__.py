"""Hubitat Dev Tools: a Hubitat Elevation hub as an LLM tool set, served by mcp_server."""

from __future__ import annotations

import logging
import re
from typing import Any

from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import (
    ConfigEntryAuthFailed,
    ConfigEntryNotReady,
    HomeAssistantError,
)
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.storage import Store

from .audit import AuditTrail
from .config_flow import connection_from_data
from .const import DOMAIN
from .domain_data import DATA_KEY, DomainData
from .event_stream import async_setup_event_stream
from .hub.client import HubClient
from .hub.errors import HubAuthError, HubError
from .hub.info import fetch_identity
from .hub_alerts import async_setup_hub_alerts
from .llm_api import async_register
from .managers.hub import Hub
from .managers.item_backups import owned_backups
from .mcp_exposure import async_clear_issues, async_track_exposure
from .mesh_token import clear_mesh_token_issues
from .migrations import async_migrate
from .runtime import HubitatConfigEntry, HubRuntime
from .snapshots import async_setup_snapshot_schedule
from .wifi_join import clear_wifi_issue

_LOGGER = logging.getLogger(__name__)


async def _async_domain_data(hass: HomeAssistant) -> DomainData:
    """Create the shared data on first use: audit trail, LLM API, Repairs tracking."""
    if (data := hass.data.get(DATA_KEY)) is not None:
        return data
    audit = AuditTrail(hass)
    await audit.async_load()
    if (data := hass.data.get(DATA_KEY)) is not None:  # another entry won the race
        return data
    data = DomainData(audit=audit)
    data.unsubs.append(async_register(hass))
    data.unsubs.append(async_track_exposure(hass))
    hass.data[DATA_KEY] = data
    return data


async def _async_load_backup_record(hass: HomeAssistant, client: HubClient, hub_key: str) -> None:
    """Which item backups we wrote on this hub: kept in Home Assistant storage (not on the
    hub, where anyone on the LAN can write files), per hub UID, across restarts."""
    store: Store[dict[str, Any]] = Store(
        hass, 1, f"{DOMAIN}.item_backups.{re.sub(r'[^A-Za-z0-9_-]', '_', hub_key)}"
    )
    try:
        data = await store.async_load()
    except HomeAssistantError as err:  # unreadable: start empty (nothing old is pruned)
        _LOGGER.warning("Could not read the list of item backups: %s", err)
        data = None
    stored = data.get("files") if isinstance(data, dict) else None

    async def save(names: list[str]) -> None:
        try:
            await store.async_save({"files": names})
        except (HomeAssistantError, OSError) as err:  # never prunes what it cannot record
            _LOGGER.warning("Could not store the list of item backups: %s", err)

    owned_backups(client).persist(stored if isinstance(stored, list) else [], save)


async def async_setup_entry(hass: HomeAssistant, entry: HubitatConfigEntry) -> bool:
    """Connect to the hub; register the shared LLM API with the first hub."""
    client = HubClient(
        async_get_clientsession(hass, verify_ssl=False), connection_from_data(entry.data)
    )
    try:
        identity = await fetch_identity(client)
    except HubAuthError as err:
        raise ConfigEntryAuthFailed(str(err)) from err
    except HubError as err:
        raise ConfigEntryNotReady(f"Hub {entry.title} is not reachable: {err}") from err
    hub = Hub(client)
    # The hub's session checks no certificate (hubs use self-signed ones): it talks to the
    # hub only. Code downloads from the internet go through Home Assistant's verifying one.
    hub.code.use_download_session(async_get_clientsession(hass))
    await _async_load_backup_record(hass, client, identity.hub_uid or entry.entry_id)
    entry.runtime_data = HubRuntime(entry, hub, identity)
    # Live events: the state cache answers reads and resolves waits; up to 3 s for the
    # first connection so the first calls are already served from the cache.
    entry.async_on_unload(
        await async_setup_event_stream(hass, entry, entry.runtime_data, wait_live=3.0)
    )
    data = await _async_domain_data(hass)
    data.loaded_entries.add(entry.entry_id)
    entry.async_on_unload(async_setup_hub_alerts(hass, entry))
    entry.async_on_unload(async_setup_snapshot_schedule(hass, entry))
    # a change cut off may keep the change lock a while: never past the entry or HA itself
    changes = entry.runtime_data.changes
    entry.async_on_unload(changes.close)
    entry.async_on_unload(
        hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, lambda _event: changes.close())
    )
    return True


async def async_migrate_entry(hass: HomeAssistant, entry: HubitatConfigEntry) -> bool:
    """Migrate an older entry's options (see migrations.py)."""
    return await async_migrate(hass, entry)


async def async_unload_entry(hass: HomeAssistant, entry: HubitatConfigEntry) -> bool:
    """Unload a hub; the last one out unregisters the API and clears our issues."""
    if (runtime := getattr(entry, "runtime_data", None)) is not None:
        runtime.hub.close()
    clear_wifi_issue(hass, entry.entry_id)
    clear_mesh_token_issues(hass, entry.entry_id)
    data = hass.data.get(DATA_KEY)
    if data is not None:
        data.loaded_entries.discard(entry.entry_id)
        if not data.loaded_entries:
            for unsub in data.unsubs:
                unsub()
            await data.audit.async_flush()
            async_clear_issues(hass)
            hass.data.pop(DATA_KEY)
    return True
