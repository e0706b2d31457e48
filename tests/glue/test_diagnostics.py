"""Diagnostics are useful and carry no secrets."""

from __future__ import annotations

import json

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.diagnostics import async_get_config_entry_diagnostics
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry


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


async def test_diagnostics_has_the_compatibility_check(
    hass: HomeAssistant, secure_hub: HubEmulator
) -> None:
    entry: MockConfigEntry = await add_entry(hass, secure_hub)
    secure_hub.faults.reshape_paths = {"/hub2/roomsList": "rename_key:roomNodes:rooms"}
    diag = await async_get_config_entry_diagnostics(hass, entry)
    compat = diag["compatibility"]
    assert compat["hub"]["model"] == "C-8 Pro"
    assert compat["hub_security"] is True and compat["maker_api"] is True
    entries = {e["endpoint"]: e for e in compat["endpoints"]}
    assert entries["/hub2/roomsList"]["status"] == "unexpected_shape"
    seen = entries["/hub2/roomsList"]["seen"]
    assert "rooms" in seen and "roomNodes" not in seen
    assert compat["summary"]["ok"] == len(entries) - 1
    text = json.dumps(diag)
    for secret in (secure_hub.password, secure_hub.maker_token, secure_hub.hub_uid):
        assert secret not in text
