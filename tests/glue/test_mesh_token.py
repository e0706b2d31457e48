"""A peer hub's Hub Mesh token: the assistant names the peer, an administrator types the token
in Home Assistant's Repairs, the hub stores it as its own Hub Mesh page does, the peer is read
back without its warning, and the token appears nowhere but in the request to the hub."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools.const import DOMAIN
from custom_components.hubitat_dev_tools.diagnostics import async_get_config_entry_diagnostics
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.hub import mesh as hub_mesh
from custom_components.hubitat_dev_tools.mesh_token import mesh_token_issue_id
from hubitat_emulator import HubEmulator
from hubitat_emulator.mesh_state import MeshPeer

from ..conftest import ToolCaller, ok

TOKEN = "barn-hub-mesh-token-5d1e77aa"
ASK = {"peer_token_for": "Barn Hub"}


@pytest.fixture(autouse=True)
def _quick_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_mesh, "PEER_TOKEN_WAIT_S", 0.3)


def _issue(hass: HomeAssistant, entry: MockConfigEntry, peer: MeshPeer) -> ir.IssueEntry | None:
    issue_id = mesh_token_issue_id(entry.entry_id, peer.hub_id)
    return ir.async_get(hass).async_get_issue(DOMAIN, issue_id)


async def _fix(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    entry: MockConfigEntry,
    peer: MeshPeer,
) -> tuple[Any, str]:
    """Open the issue's fix flow over Home Assistant's HTTP API: (client, flow id)."""
    assert await async_setup_component(hass, "repairs", {})
    client = await hass_client()
    resp = await client.post(
        "/api/repairs/issues/fix",
        json={"handler": DOMAIN, "issue_id": mesh_token_issue_id(entry.entry_id, peer.hub_id)},
    )
    assert resp.status == 200
    flow: dict[str, Any] = await resp.json()
    assert flow["step_id"] == "token", flow
    assert flow["description_placeholders"]["peer"] == "Barn Hub"
    return client, flow["flow_id"]


async def _submit(client: Any, flow_id: str, token: str) -> dict[str, Any]:
    resp = await client.post(f"/api/repairs/issues/fix/{flow_id}", json={"token": token})
    assert resp.status == 200
    result: dict[str, Any] = await resp.json()
    return result


def _flow_records(hass: HomeAssistant) -> list[dict[str, Any]]:
    """The audit records of the fix flow's sends (not the tool call's)."""
    shared = get_domain_data(hass)
    assert shared is not None
    return [r for r in shared.audit.recent(None) if "via" in (r.get("args") or {})]


async def test_the_owner_types_the_peer_token_in_repairs(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    mesh = hub.home.state.mesh
    barn = mesh.secure_peer()
    asked = await ok(call_tool, "hub_update_hub_mesh", ASK)
    assert asked["pending"] is True and _issue(hass, entry, barn) is not None
    client, flow_id = await _fix(hass, hass_client, entry, barn)
    # not a token: said in the form, nothing sent
    spaced = await _submit(client, flow_id, "two words")
    assert spaced["type"] == "form" and spaced["errors"] == {"base": "bad_token"}
    assert mesh.peer_token_posts == 0
    # a wrong token: the hub stores it, the peer still warns: the form again, the issue stays
    wrong = await _submit(client, flow_id, "not-the-barn-token")
    assert wrong["type"] == "form" and wrong["errors"] == {"base": "not_taken"}, wrong
    assert "still shows a warning" in wrong["description_placeholders"]["message"]
    assert _issue(hass, entry, barn) is not None and mesh.peer_token_posts == 1
    done = await _submit(client, flow_id, TOKEN)
    assert done["type"] == "create_entry", done
    await hass.async_block_till_done()
    assert barn.stored_token == TOKEN and _issue(hass, entry, barn) is None
    # read back through the assistant's own tool: the warning is gone, the token nowhere
    seen = await ok(call_tool, "hub_get_hub_mesh")
    peer = next(p for p in seen["peers"] if p["name"] == "Barn Hub")
    assert "warning" not in peer and peer["active"] is True
    by_outcome = {r["outcome"]: r for r in _flow_records(hass)}
    assert set(by_outcome) == {"failed", "ok"}
    assert by_outcome["ok"]["args"]["peer_token_for"] == "Barn Hub"
    assert by_outcome["ok"]["user_id"] is not None
    shared = get_domain_data(hass)
    assert shared is not None
    diagnostics = await async_get_config_entry_diagnostics(hass, entry)
    for text in (
        json.dumps(shared.audit.recent(None)),
        caplog.text,
        json.dumps(seen),
        json.dumps(asked),
        json.dumps(diagnostics, default=str),
        json.dumps(done),
    ):
        for secret in (TOKEN, "not-the-barn-token", mesh.token):
            assert secret not in text


async def test_the_form_honours_the_options_at_submit_time(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    barn = hub.home.state.mesh.secure_peer()
    await ok(call_tool, "hub_update_hub_mesh", ASK)
    client, flow_id = await _fix(hass, hass_client, entry, barn)
    hass.config_entries.async_update_entry(entry, options={**entry.options, "allow_write": False})
    flow = await _submit(client, flow_id, TOKEN)
    assert flow["type"] == "abort" and flow["reason"] == "not_allowed", flow
    assert barn.stored_token is None and hub.home.state.mesh.peer_token_posts == 0


async def test_unload_clears_a_pending_token(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    barn = hub.home.state.mesh.secure_peer()
    await ok(call_tool, "hub_update_hub_mesh", ASK)
    assert _issue(hass, entry, barn) is not None
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert _issue(hass, entry, barn) is None
