"""Fix flows: add our API to the mcp_server entry; a hub's Wi-Fi join (``wifi_join``); a
peer hub's Hub Mesh token (``mesh_token``); the owner's approval of a call (``approvals``)."""

from __future__ import annotations

from typing import Any

import probatio as vol
from homeassistant.components.repairs import RepairsFlow, RepairsFlowResult
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant

from .approvals import create_flow as create_approval_flow
from .const import (
    API_ID,
    CONF_LLM_HASS_API,
    ISSUE_APPROVAL,
    ISSUE_MCP_NOT_EXPOSING,
    MCP_SERVER_DOMAIN,
)
from .mcp_exposure import async_refresh_issue, entry_api_ids
from .mesh_token import ISSUE_MESH_TOKEN
from .mesh_token import create_flow as create_mesh_token_flow
from .wifi_join import ISSUE_WIFI_JOIN
from .wifi_join import create_flow as create_wifi_flow


class ExposeApiFlow(RepairsFlow):
    """Add hubitat_dev_tools to the mcp_server entry's selected LLM APIs."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Start with the confirmation step."""
        return await self.async_step_confirm()

    async def async_step_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> RepairsFlowResult:
        """Confirm, then update the mcp_server entry and reload it."""
        if user_input is None:
            return self.async_show_form(
                step_id="confirm",
                data_schema=vol.Schema({}),
                description_placeholders={"api_id": API_ID},
            )
        entries = [
            e
            for e in self.hass.config_entries.async_entries(MCP_SERVER_DOMAIN)
            if e.state is ConfigEntryState.LOADED
        ] or self.hass.config_entries.async_entries(MCP_SERVER_DOMAIN)
        if not entries:
            return self.async_abort(reason="no_mcp_server")
        entry = entries[0]
        apis = entry_api_ids(entry)
        if API_ID not in apis:
            apis.append(API_ID)
        self.hass.config_entries.async_update_entry(
            entry, data={**entry.data, CONF_LLM_HASS_API: apis}
        )
        await self.hass.config_entries.async_reload(entry.entry_id)
        async_refresh_issue(self.hass)
        return self.async_create_entry(data={})


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """Create the fix flow for our fixable issues."""
    if issue_id.startswith(f"{ISSUE_WIFI_JOIN}_"):
        return create_wifi_flow(issue_id, dict(data or {}))
    if issue_id.startswith(f"{ISSUE_MESH_TOKEN}_"):
        return create_mesh_token_flow(issue_id, dict(data or {}))
    if issue_id.startswith(f"{ISSUE_APPROVAL}_"):
        return create_approval_flow(data)
    if issue_id != ISSUE_MCP_NOT_EXPOSING:
        raise ValueError(f"No fix flow for {issue_id}")
    return ExposeApiFlow()
