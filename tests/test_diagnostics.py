"""Diagnostics are useful and carry no secrets."""

from __future__ import annotations

import json

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.diagnostics import async_get_config_entry_diagnostics
from hubitat_emulator import HubEmulator

from .conftest import ToolCaller, add_entry


async def test_diagnostics_redacted(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    entry: MockConfigEntry = await add_entry(hass, secure_hub)
    await call_tool("hub_create_backup")
    diag = await async_get_config_entry_diagnostics(hass, entry)
    text = json.dumps(diag)
    assert secure_hub.password not in text
    assert secure_hub.maker_token not in text
    cookie = entry.runtime_data.hub.client.session_cookie
    assert cookie is not None
    assert cookie[1] not in text
    assert diag["hub"]["firmware"]
    assert diag["client"]["logged_in"] is True
    assert diag["mcp_server_exposure"] == "missing"
    assert diag["audit_recent"][0]["tool"] == "hub_create_backup"
