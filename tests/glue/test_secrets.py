"""Secrets (password, Maker token, session cookie) never leak into logs, errors or results."""

from __future__ import annotations

import json
import logging

import pytest
from homeassistant.core import HomeAssistant

from custom_components.hubitat_dev_tools.diagnostics import async_get_config_entry_diagnostics
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry


async def test_no_secret_anywhere(
    hass: HomeAssistant,
    secure_hub: HubEmulator,
    call_tool: ToolCaller,
    request: pytest.FixtureRequest,
) -> None:
    if not request.config.pluginmanager.has_plugin("logging"):
        pytest.skip("needs pytest's logging plugin (run without -p no:logging)")
    caplog: pytest.LogCaptureFixture = request.getfixturevalue("caplog")
    caplog.set_level(logging.DEBUG)
    entry = await add_entry(hass, secure_hub)
    outputs = []
    for name, args in (
        ("hub_get_info", {}),
        ("hub_list_devices", {"limit": 5}),
        ("hub_get_device", {"device_id": "99999"}),
        ("hub_call_device_command", {"device_id": "1", "command": "nope"}),
    ):
        outputs.append((await call_tool(name, args)).data)
    secure_hub.faults.html_login = True  # broken session: auth errors must not echo secrets
    outputs.append((await call_tool("hub_list_rooms")).data)
    secure_hub.faults.html_login = False
    secure_hub.faults.down = True
    outputs.append((await call_tool("hub_list_rooms")).data)
    secure_hub.faults.down = False
    outputs.append(await async_get_config_entry_diagnostics(hass, entry))
    cookie = entry.runtime_data.hub.client.session_cookie
    secrets = [secure_hub.password, secure_hub.maker_token] + ([cookie[1]] if cookie else [])
    text = json.dumps(outputs) + caplog.text
    for secret in secrets:
        assert secret not in text
