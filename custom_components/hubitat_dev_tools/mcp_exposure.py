"""Repairs issue while no loaded mcp_server entry exposes our LLM API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from homeassistant.config_entries import (
    SIGNAL_CONFIG_ENTRY_CHANGED,
    ConfigEntry,
    ConfigEntryChange,
    ConfigEntryState,
)
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, Event, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.dispatcher import async_dispatcher_connect

from .const import (
    API_ID,
    CONF_ALL_LLM_APIS,
    CONF_LLM_HASS_API,
    DOMAIN,
    ISSUE_MCP_MISSING,
    ISSUE_MCP_NOT_EXPOSING,
    MCP_SERVER_DOMAIN,
)


def entry_api_ids(entry: ConfigEntry[Any]) -> list[str]:
    """Return the LLM API ids an mcp_server entry selects (old entries hold one string)."""
    value = entry.data.get(CONF_LLM_HASS_API) or []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def exposure_state(hass: HomeAssistant) -> str:
    """Return 'exposed', 'missing' (no loaded mcp_server entry) or 'not_exposing'."""
    loaded = [
        e
        for e in hass.config_entries.async_entries(MCP_SERVER_DOMAIN)
        if e.state is ConfigEntryState.LOADED
    ]
    if not loaded:
        return "missing"
    for entry in loaded:
        if entry.data.get(CONF_ALL_LLM_APIS) or API_ID in entry_api_ids(entry):
            return "exposed"
    return "not_exposing"


@callback
def async_refresh_issue(hass: HomeAssistant) -> None:
    """Create, switch or delete the issue to match the current state."""
    state = exposure_state(hass)
    if state != "missing":
        ir.async_delete_issue(hass, DOMAIN, ISSUE_MCP_MISSING)
    if state != "not_exposing":
        ir.async_delete_issue(hass, DOMAIN, ISSUE_MCP_NOT_EXPOSING)
    if state == "missing":
        ir.async_create_issue(
            hass,
            DOMAIN,
            ISSUE_MCP_MISSING,
            is_fixable=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key=ISSUE_MCP_MISSING,
            translation_placeholders={"api_id": API_ID},
        )
    elif state == "not_exposing":
        ir.async_create_issue(
            hass,
            DOMAIN,
            ISSUE_MCP_NOT_EXPOSING,
            is_fixable=True,
            severity=ir.IssueSeverity.WARNING,
            translation_key=ISSUE_MCP_NOT_EXPOSING,
            translation_placeholders={"api_id": API_ID},
        )


@callback
def async_clear_issues(hass: HomeAssistant) -> None:
    """Remove both issues (our last entry unloaded)."""
    ir.async_delete_issue(hass, DOMAIN, ISSUE_MCP_MISSING)
    ir.async_delete_issue(hass, DOMAIN, ISSUE_MCP_NOT_EXPOSING)


@callback
def async_track_exposure(hass: HomeAssistant) -> Callable[[], None]:
    """Check now (or once HA has started) and on every config entry change."""

    @callback
    def _changed(change: ConfigEntryChange, entry: ConfigEntry[Any]) -> None:
        if entry.domain == MCP_SERVER_DOMAIN and hass.state is CoreState.running:
            async_refresh_issue(hass)

    @callback
    def _started(_event: Event) -> None:
        async_refresh_issue(hass)

    unsubs = [async_dispatcher_connect(hass, SIGNAL_CONFIG_ENTRY_CHANGED, _changed)]
    if hass.state is CoreState.running:
        async_refresh_issue(hass)
    else:
        unsubs.append(hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STARTED, _started))

    @callback
    def _unsub() -> None:
        for unsub in unsubs:
            unsub()

    return _unsub
