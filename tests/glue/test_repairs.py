"""Repairs issue while mcp_server does not expose our API; the fix flow."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools.const import (
    API_ID,
    DOMAIN,
    ISSUE_MCP_MISSING,
    ISSUE_MCP_NOT_EXPOSING,
)

from ..conftest import our_issues, setup_mcp_server


async def test_missing_mcp_server_raises_issue_and_unload_clears(
    hass: HomeAssistant, entry: MockConfigEntry
) -> None:
    assert our_issues(hass) == {ISSUE_MCP_MISSING}
    issue = ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_MCP_MISSING)
    assert issue is not None
    assert not issue.is_fixable
    await hass.config_entries.async_unload(entry.entry_id)
    assert our_issues(hass) == set()


async def test_exposed_by_selection(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    await setup_mcp_server(hass, apis=[API_ID])
    assert our_issues(hass) == set()


async def test_exposed_by_all_apis(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    await setup_mcp_server(hass, apis=[], all_apis=True)
    assert our_issues(hass) == set()


async def test_not_exposing_then_unloaded_then_fixed_live(
    hass: HomeAssistant, entry: MockConfigEntry
) -> None:
    mcp = await setup_mcp_server(hass, apis=["assist"])
    assert our_issues(hass) == {ISSUE_MCP_NOT_EXPOSING}
    # The id is compared, not the domain: a name-alike does not count.
    hass.config_entries.async_update_entry(mcp, data={**mcp.data, "llm_hass_api": ["hubitat"]})
    await hass.async_block_till_done()
    assert our_issues(hass) == {ISSUE_MCP_NOT_EXPOSING}
    hass.config_entries.async_update_entry(mcp, data={**mcp.data, "llm_hass_api": [API_ID]})
    await hass.async_block_till_done()
    assert our_issues(hass) == set()
    await hass.config_entries.async_unload(mcp.entry_id)
    await hass.async_block_till_done()
    assert our_issues(hass) == {ISSUE_MCP_MISSING}


async def test_fix_flow_adds_our_api(
    hass: HomeAssistant, entry: MockConfigEntry, hass_client: ClientSessionGenerator
) -> None:
    mcp = await setup_mcp_server(hass, apis=["assist"])
    assert await async_setup_component(hass, "repairs", {})
    issue = ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_MCP_NOT_EXPOSING)
    assert issue is not None
    assert issue.is_fixable
    client = await hass_client()
    resp = await client.post(
        "/api/repairs/issues/fix", json={"handler": DOMAIN, "issue_id": ISSUE_MCP_NOT_EXPOSING}
    )
    assert resp.status == 200
    flow = await resp.json()
    assert flow["step_id"] == "confirm"
    resp = await client.post(f"/api/repairs/issues/fix/{flow['flow_id']}", json={})
    assert resp.status == 200
    assert (await resp.json())["type"] == "create_entry"
    await hass.async_block_till_done()
    assert mcp.data["llm_hass_api"] == ["assist", API_ID]
    assert our_issues(hass) == set()
