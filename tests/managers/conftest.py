"""Shared fixtures for the manager tests: the managers over the emulated hub, no hass.

The suite's autouse ``auto_enable_custom_integrations`` (tests/conftest.py) sets up a Home
Assistant (``hass``); it is replaced here by a fixture of the same name that does nothing
unless the test itself asks for ``hass`` (as ``tests/hub/test_hubitat.py`` replaces it), so a
manager test runs without one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.info import fetch_identity
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(request: pytest.FixtureRequest) -> None:
    """Replaces the suite's autouse fixture of that name, which sets up a Home Assistant
    (``hass``) for every test: the managers run here without one. A test that asks for
    ``hass`` itself (through ``entry`` or ``call_tool``) still gets the integration loaded."""
    if "hass" in request.fixturenames:
        request.getfixturevalue("enable_custom_integrations")


@pytest.fixture
def emu(hub: HubEmulator) -> HubEmulator:
    """The emulated hub on loopback: the suite's ``hub`` fixture (one hub per test, whichever
    name a test asks for)."""
    return hub


def connection(emu: HubEmulator) -> HubConnection:
    """How to reach the emulated hub, with its Maker API (as the config entry has it)."""
    url = URL(emu.url)
    return HubConnection(
        host=str(url.host),
        port=url.port,
        maker_app_id=str(emu.maker_app_id),
        maker_token=emu.maker_token,
    )


@pytest.fixture
async def manager_hub(emu: HubEmulator) -> AsyncIterator[Hub]:
    """The integration's ``Hub`` (every manager) over the emulated hub, no hass."""
    async with aiohttp.ClientSession() as session:
        yield Hub(HubClient(session, connection(emu)))


@pytest.fixture
async def authoring(manager_hub: Hub) -> Hub:
    """``manager_hub`` with the hub's identity read first, as the integration's setup does:
    the client then knows the hub's time zone, which a rule's times and dates and a
    DateTime value are written in."""
    await fetch_identity(manager_hub.client)
    return manager_hub
