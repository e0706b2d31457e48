"""Follow a hub to its new address after a network change (HA glue).

When a network tool says at which address the hub will answer next, the entry watches that
address for a while. Once the hub there identifies itself with this entry's hub UID, the
config entry's host changes to it and the entry reloads; nothing secret is sent to the new
address before it was identified (a hub with Hub Security on is asked again with the
credentials only when it asks for a login, at the address the user gave the hub).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace

from homeassistant.const import CONF_HOST
from homeassistant.core import HomeAssistant
from homeassistant.helpers.aiohttp_client import async_get_clientsession

from .hub.client import HubClient, HubConnection
from .hub.errors import HubAuthError, HubError
from .hub.info import fetch_identity
from .runtime import HubitatConfigEntry

_LOGGER = logging.getLogger(__name__)

FOLLOW_WINDOW_S = 600.0
FOLLOW_INTERVAL_S = 5.0


async def identifies_as(hass: HomeAssistant, entry: HubitatConfigEntry, host: str) -> bool:
    """True when the hub at ``host`` answers with this entry's hub UID."""
    from .config_flow import connection_from_data

    full = replace(connection_from_data(entry.data), host=host)
    anonymous = replace(full, username=None, password=None, maker_app_id=None, maker_token=None)
    session = async_get_clientsession(hass, verify_ssl=False)
    for conn in _probes(anonymous, full):
        try:
            identity = await fetch_identity(HubClient(session, conn, timeout=5.0))
        except HubAuthError:
            continue  # Hub Security: ask again with the credentials
        except HubError:
            return False
        return identity.hub_uid == entry.unique_id
    return False


def _probes(anonymous: HubConnection, full: HubConnection) -> list[HubConnection]:
    return [anonymous, full] if full.has_security else [anonymous]


def move_entry(hass: HomeAssistant, entry: HubitatConfigEntry, host: str) -> None:
    """Point the entry at ``host`` and reload it."""
    _LOGGER.info("Hub %s answers at %s now; moving its entry there", entry.title, host)
    hass.config_entries.async_update_entry(entry, data={**entry.data, CONF_HOST: host})
    hass.config_entries.async_schedule_reload(entry.entry_id)


async def follow(hass: HomeAssistant, entry: HubitatConfigEntry, host: str) -> bool:
    """Watch ``host`` until the hub answers there (then move the entry) or the window ends."""
    deadline = time.monotonic() + FOLLOW_WINDOW_S
    while time.monotonic() < deadline:
        if entry.data.get(CONF_HOST) == host:
            return True  # moved meanwhile (another follow, a reconfigure)
        if await identifies_as(hass, entry, host):
            move_entry(hass, entry, host)
            return True
        await asyncio.sleep(FOLLOW_INTERVAL_S)
    _LOGGER.warning(
        "Hub %s did not answer at %s within %.0f minutes; reconfigure its address",
        entry.title,
        host,
        FOLLOW_WINDOW_S / 60,
    )
    return False


async def start_following(hass: HomeAssistant, entry: HubitatConfigEntry, host: str) -> str:
    """Move the entry at once when ``host`` already answers as this hub, else watch it in the
    background (the watch ends with the entry); a sentence for the tool's answer."""
    if entry.data.get(CONF_HOST) == host:
        return f"Home Assistant already reaches the hub at {host}."
    if await identifies_as(hass, entry, host):
        move_entry(hass, entry, host)
        return f"The hub answers at {host}: Home Assistant now reaches it there."
    entry.async_create_background_task(
        hass, follow(hass, entry, host), f"hubitat_dev_tools follow {host}"
    )
    return (
        f"Home Assistant watches {host} for {FOLLOW_WINDOW_S / 60:.0f} minutes and moves this "
        "hub's entry there once it answers as the same hub (same hub UID)."
    )
