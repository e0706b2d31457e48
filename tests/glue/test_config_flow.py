"""Config, reauth, reconfigure and options flows against the emulated hub."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from homeassistant import config_entries
from homeassistant.const import CONF_HOST, CONF_PASSWORD, CONF_USERNAME
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from pytest_homeassistant_custom_component.common import MockConfigEntry
from yarl import URL

from custom_components.hubitat_dev_tools.config_flow import HubitatDevToolsConfigFlow
from custom_components.hubitat_dev_tools.const import (
    CONF_MAKER_TOKEN,
    DOMAIN,
    OPT_ALLOW_READ,
    OPT_ALLOW_WRITE,
    OPT_DISABLED_TOOLS,
)
from hubitat_emulator import HubEmulator

from ..conftest import add_entry, entry_data

if TYPE_CHECKING:
    from homeassistant.helpers.service_info.dhcp import DhcpServiceInfo


async def _start(hass: HomeAssistant) -> str:
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.FORM
    flow_id: str = result["flow_id"]
    return flow_id


async def test_user_flow_success(hass: HomeAssistant, secure_hub: HubEmulator) -> None:
    flow_id = await _start(hass)
    result = await hass.config_entries.flow.async_configure(flow_id, entry_data(secure_hub))
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == secure_hub.hub_name
    assert result["result"].unique_id == secure_hub.hub_uid
    await hass.async_block_till_done()


async def test_user_flow_errors(hass: HomeAssistant, secure_hub: HubEmulator) -> None:
    flow_id = await _start(hass)
    bad_auth = {**entry_data(secure_hub), CONF_PASSWORD: "wrong"}
    result = await hass.config_entries.flow.async_configure(flow_id, bad_auth)
    assert result["errors"] == {"base": "invalid_auth"}
    bad_maker = {**entry_data(secure_hub), CONF_MAKER_TOKEN: "bad"}
    result = await hass.config_entries.flow.async_configure(flow_id, bad_maker)
    assert result["errors"] == {"base": "invalid_maker"}
    no_login = entry_data(secure_hub, security=False)
    result = await hass.config_entries.flow.async_configure(flow_id, no_login)
    assert result["errors"] == {"base": "invalid_auth"}
    secure_hub.faults.down = True
    result = await hass.config_entries.flow.async_configure(flow_id, entry_data(secure_hub))
    assert result["errors"] == {"base": "cannot_connect"}
    secure_hub.faults.down = False
    result = await hass.config_entries.flow.async_configure(flow_id, entry_data(secure_hub))
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()


async def test_already_configured_updates_host(hass: HomeAssistant, hub: HubEmulator) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN, data={**entry_data(hub), CONF_HOST: "localhost"}, unique_id=hub.hub_uid
    )
    entry.add_to_hass(hass)
    flow_id = await _start(hass)
    result = await hass.config_entries.flow.async_configure(flow_id, entry_data(hub))
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert entry.data[CONF_HOST] == "127.0.0.1"


async def test_reauth(hass: HomeAssistant, secure_hub: HubEmulator) -> None:
    data = {**entry_data(secure_hub), CONF_PASSWORD: "old"}
    entry = MockConfigEntry(domain=DOMAIN, data=data, unique_id=secure_hub.hub_uid)
    entry.add_to_hass(hass)
    result = await entry.start_reauth_flow(hass)
    assert result["step_id"] == "reauth_confirm"
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_PASSWORD: "still-wrong"}
    )
    assert result["errors"] == {"base": "invalid_auth"}
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_PASSWORD: secure_hub.password}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reauth_successful"
    assert entry.data[CONF_PASSWORD] == secure_hub.password
    await hass.async_block_till_done()


async def test_reconfigure(hass: HomeAssistant, hub: HubEmulator, socket_enabled: None) -> None:
    entry = await add_entry(hass, hub)
    result = await entry.start_reconfigure_flow(hass)
    assert result["step_id"] == "reconfigure"
    other = HubEmulator(seed=7)
    await other.start()
    try:
        wrong = await hass.config_entries.flow.async_configure(result["flow_id"], entry_data(other))
        assert wrong["type"] is FlowResultType.ABORT
        assert wrong["reason"] == "wrong_hub"
    finally:
        await other.stop()
    result = await entry.start_reconfigure_flow(hass)
    new = entry_data(hub)
    new.pop(CONF_MAKER_TOKEN)  # left blank: keeps the stored token
    result = await hass.config_entries.flow.async_configure(result["flow_id"], new)
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert entry.data[CONF_MAKER_TOKEN] == hub.maker_token
    await hass.async_block_till_done()


async def test_options(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {OPT_ALLOW_READ: True, OPT_ALLOW_WRITE: False, OPT_DISABLED_TOOLS: ["hub_get_info"]},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[OPT_ALLOW_WRITE] is False
    assert entry.options[OPT_DISABLED_TOOLS] == ["hub_get_info"]


def _dhcp(ip: str = "127.0.0.1") -> DhcpServiceInfo:
    from homeassistant.helpers.service_info.dhcp import DhcpServiceInfo

    return DhcpServiceInfo(ip=ip, hostname="hubitat", macaddress="34e1d1aabbcc")


async def _start_dhcp(hass: HomeAssistant) -> config_entries.ConfigFlowResult:
    """Start a DHCP discovery flow for a hub at 127.0.0.1."""
    return await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_DHCP}, data=_dhcp()
    )


async def test_dhcp_discovery_creates_entry(
    hass: HomeAssistant, hub: HubEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(HubitatDevToolsConfigFlow, "DISCOVERY_PORT", URL(hub.url).port)
    result = await _start_dhcp(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "discovery_confirm"
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["result"].unique_id == hub.hub_uid
    await hass.async_block_till_done()


async def test_dhcp_updates_host_of_known_hub(
    hass: HomeAssistant, hub: HubEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(HubitatDevToolsConfigFlow, "DISCOVERY_PORT", URL(hub.url).port)
    entry = MockConfigEntry(
        domain=DOMAIN, data={**entry_data(hub), CONF_HOST: "localhost"}, unique_id=hub.hub_uid
    )
    entry.add_to_hass(hass)
    result = await _start_dhcp(hass)
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert entry.data[CONF_HOST] == "127.0.0.1"


async def test_dhcp_secure_hub_asks_for_login(
    hass: HomeAssistant, secure_hub: HubEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(HubitatDevToolsConfigFlow, "DISCOVERY_PORT", URL(secure_hub.url).port)
    result = await _start_dhcp(hass)
    assert result["step_id"] == "discovery_confirm"
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_USERNAME: secure_hub.username, CONF_PASSWORD: "wrong"}
    )
    assert result["errors"] == {"base": "invalid_auth"}
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_USERNAME: secure_hub.username, CONF_PASSWORD: secure_hub.password},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["result"].unique_id == secure_hub.hub_uid
    await hass.async_block_till_done()


async def test_dhcp_not_a_hub(
    hass: HomeAssistant, socket_enabled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    monkeypatch.setattr(HubitatDevToolsConfigFlow, "DISCOVERY_PORT", closed_port)
    result = await _start_dhcp(hass)
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "not_hubitat"
