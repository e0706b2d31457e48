"""Fixtures shared by the glue tests."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_APPROVAL_TIERS, OPT_APPROVE_IN_HA
from custom_components.hubitat_dev_tools.errors import TIERS
from hubitat_emulator import HubEmulator

from ..conftest import add_entry


@pytest.fixture
async def approving_entry(hass: HomeAssistant, hub: HubEmulator) -> MockConfigEntry:
    """A hub whose owner approves every tier in Home Assistant (approvals.py)."""
    return await add_entry(
        hass, hub, options={OPT_APPROVE_IN_HA: True, OPT_APPROVAL_TIERS: list(TIERS)}
    )
