"""Setup, unload, not-ready, auth failure and several hubs."""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import API_ID, DOMAIN
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, entry_data


def api_registered(hass: HomeAssistant) -> bool:
    return API_ID in {api.id for api in llm.async_get_apis(hass)}


def state_now(entry: MockConfigEntry) -> ConfigEntryState:
    """The entry's state read afresh: mypy keeps ``entry.state`` narrowed across awaits."""
    return entry.state


async def test_setup_and_unload(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    assert entry.state is ConfigEntryState.LOADED
    assert api_registered(hass)
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert state_now(entry) is ConfigEntryState.NOT_LOADED
    assert not api_registered(hass)


async def test_hub_down_is_not_ready(hass: HomeAssistant, hub: HubEmulator) -> None:
    hub.faults.down = True
    entry = await add_entry(hass, hub)
    assert entry.state is ConfigEntryState.SETUP_RETRY
    assert not api_registered(hass)


async def test_bad_credentials_start_reauth(hass: HomeAssistant, secure_hub: HubEmulator) -> None:
    data = entry_data(secure_hub)
    data["password"] = "wrong"
    entry = MockConfigEntry(domain=DOMAIN, data=data, unique_id=secure_hub.hub_uid)
    entry.add_to_hass(hass)
    await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.SETUP_ERROR
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == ["reauth"]


async def test_security_hub_works(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    entry = await add_entry(hass, secure_hub)
    assert entry.state is ConfigEntryState.LOADED
    result = await call_tool("hub_list_rooms")
    assert not result.error, result.data


async def test_two_hubs_need_hub_argument(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller, socket_enabled: None
) -> None:
    other = HubEmulator(seed=2)
    await other.start()
    try:
        first = await add_entry(hass, hub)
        second = await add_entry(hass, other)
        assert first.state is second.state is ConfigEntryState.LOADED
        ambiguous = await call_tool("hub_get_info")
        assert ambiguous.error
        assert ambiguous.data["error"] == "hub_required"
        by_uid = await call_tool("hub_get_info", {"hub": other.hub_uid})
        assert by_uid.data["hub_uid"] == other.hub_uid
        unknown = await call_tool("hub_get_info", {"hub": "nope"})
        assert unknown.data["error"] == "unknown_hub"
        # unloading one hub keeps the API for the other
        assert await hass.config_entries.async_unload(first.entry_id)
        assert api_registered(hass)
        only = await call_tool("hub_get_info")
        assert only.data["hub_uid"] == other.hub_uid
        assert await hass.config_entries.async_unload(second.entry_id)
        assert not api_registered(hass)
    finally:
        await other.stop()
