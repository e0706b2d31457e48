"""Joining the hub to Wi-Fi: the assistant names the network, an administrator types the
password in Home Assistant's Repairs, the hub joins as its own UI makes it, and the password
appears nowhere but in the request to the hub."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools.const import DOMAIN
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.managers import network as network_manager
from custom_components.hubitat_dev_tools.managers.network import check_wifi_password
from custom_components.hubitat_dev_tools.wifi_join import wifi_issue_id
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..contract import assert_same_shape

PASSWORD = "correct horse"
JOIN = {"wifi_join": "HomeNet", "confirm": True}


@pytest.fixture(autouse=True)
def _fast_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(network_manager, "WIFI_POLL_S", 0.01)


def _issue(
    hass: HomeAssistant, entry: MockConfigEntry, ssid: str = "HomeNet"
) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(DOMAIN, wifi_issue_id(entry.entry_id, ssid))


async def _open(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    entry: MockConfigEntry,
    ssid: str = "HomeNet",
) -> tuple[Any, dict[str, Any]]:
    """Open the issue's fix flow over Home Assistant's HTTP API; (client, its first answer)."""
    assert await async_setup_component(hass, "repairs", {})
    client = await hass_client()
    resp = await client.post(
        "/api/repairs/issues/fix",
        json={"handler": DOMAIN, "issue_id": wifi_issue_id(entry.entry_id, ssid)},
    )
    assert resp.status == 200
    flow: dict[str, Any] = await resp.json()
    return client, flow


async def _fix(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    entry: MockConfigEntry,
    ssid: str = "HomeNet",
) -> tuple[Any, str]:
    """The fix flow at its password step; (client, flow id)."""
    client, flow = await _open(hass, hass_client, entry, ssid)
    assert flow["step_id"] == "password", flow
    assert flow["description_placeholders"]["ssid"] == ssid
    return client, flow["flow_id"]


async def _started(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
) -> tuple[Any, str]:
    """A backup, the tool's join of HomeNet, and its fix flow at the password step."""
    hub.mark_backup_now()
    await ok(call_tool, "hub_update_network_settings", JOIN)
    return await _fix(hass, hass_client, entry)


async def _submit(hass: HomeAssistant, client: Any, flow_id: str, password: str) -> dict[str, Any]:
    """Type the password; the join runs as the flow's progress step; the step after it."""
    url = f"/api/repairs/issues/fix/{flow_id}"
    resp = await client.post(url, json={"password": password})
    assert resp.status == 200
    progress: dict[str, Any] = await resp.json()
    assert progress["type"] == "progress" and progress["progress_action"] == "joining", progress
    await hass.async_block_till_done()
    resp = await client.get(url)  # as the frontend does once the progress ends
    assert resp.status == 200
    result: dict[str, Any] = await resp.json()
    return result


def _audit(hass: HomeAssistant) -> str:
    shared = get_domain_data(hass)
    assert shared is not None
    return json.dumps(shared.audit.recent(None))


def _flow_records(hass: HomeAssistant) -> list[dict[str, Any]]:
    """The audit records of the fix flow's joins (not the tool call's)."""
    shared = get_domain_data(hass)
    assert shared is not None
    return [r for r in shared.audit.recent(None) if "via" in (r.get("args") or {})]


async def test_join_waits_for_the_password_in_repairs(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    await refused(call_tool, "hub_update_network_settings", JOIN, "backup_required")
    hub.mark_backup_now()
    before = len(hub.requests)
    data = await ok(call_tool, "hub_update_network_settings", JOIN)
    assert data["pending"] is True and data["ssid"] == "HomeNet"
    assert "Repairs" in data["next"] and "warning" not in data
    # nothing was asked of the hub but reads
    assert not [p for _m, p in hub.requests[before:] if "setWiFi" in p]
    issue = _issue(hass, entry)
    assert issue is not None and issue.is_fixable
    assert issue.translation_placeholders == {"hub": entry.title, "ssid": "HomeNet"}

    client, flow_id = await _fix(hass, hass_client, entry)
    seen = len(hub.requests)
    resp = await client.post(f"/api/repairs/issues/fix/{flow_id}", json={"password": "short"})
    short = await resp.json()
    assert short["type"] == "form" and short["errors"] == {"base": "bad_password"}
    assert "8 to 63" in short["description_placeholders"]["message"]
    assert len(hub.requests) == seen  # checked in Home Assistant: nothing sent
    wrong = await _submit(hass, client, flow_id, "not the password")
    assert wrong["type"] == "form" and wrong["errors"] == {"base": "join_failed"}
    assert "could not authenticate" in wrong["description_placeholders"]["message"]
    assert hub.network.wifi_network == "" and _issue(hass, entry) is not None
    done = await _submit(hass, client, flow_id, PASSWORD)
    assert done["type"] == "create_entry", done
    await hass.async_block_till_done()
    assert hub.network.wifi_network == "HomeNet" and hub.network.wlan_address == "192.168.1.88"
    assert hub.network.wifi_psk_seen == PASSWORD
    assert _issue(hass, entry) is None
    sent = [p for _m, p in hub.requests if "WiFiNetworkInfo" in p]
    assert any(p.startswith("/hub/advanced/setWiFiNetworkInfoAsync") for p in sent)
    assert any("getWiFiNetworkInfoAsyncStatus" in p for p in sent)
    # the password went to the hub only
    audit = _audit(hass)
    by_outcome = {r["outcome"]: r for r in _flow_records(hass)}
    failed, joined = by_outcome["failed"], by_outcome["ok"]
    assert failed["outcome"] == "failed" and "could not authenticate" in failed["detail"]
    assert joined["outcome"] == "ok" and joined["args"]["wifi_join"] == "HomeNet"
    assert joined["user_id"] == failed["user_id"] is not None
    for secret in (PASSWORD, "not the password", "correct+horse", "correct%20horse"):
        assert secret not in audit and secret not in caplog.text
    info = await ok(call_tool, "hub_get_info", {})
    assert PASSWORD not in json.dumps(info)
    again = await ok(call_tool, "hub_update_network_settings", JOIN)
    assert again["unchanged"] is True and _issue(hass, entry) is None


async def test_hub_with_ethernet_and_no_wifi_joins_in_one_request(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    hub.mark_backup_now()
    hub.network.has_wifi = False
    await ok(call_tool, "hub_update_network_settings", {**JOIN, "wifi_join": "Garden"})
    client, flow_id = await _fix(hass, hass_client, entry, "Garden")
    done = await _submit(hass, client, flow_id, "tomatoes42")
    assert done["type"] == "create_entry", done
    sent = [p for _m, p in hub.requests if "WiFiNetworkInfo" in p]
    assert sent and all(p.startswith("/hub/advanced/setWiFiNetworkInfo?") for p in sent)
    assert hub.network.wifi_network == "Garden"


async def test_unlisted_network_warns_and_bad_names_are_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    data = await ok(call_tool, "hub_update_network_settings", {**JOIN, "wifi_join": "Attic"})
    assert data["pending"] is True and "does not list Attic" in data["warning"]
    assert data["visible_networks"] == ["Garden", "HomeNet"]
    for bad in ("", "   ", "x" * 33):
        await refused(call_tool, "hub_update_network_settings", {**JOIN, "wifi_join": bad})
    two = await call_tool("hub_update_network_settings", {**JOIN, "cloud_enabled": True})
    assert two.error and "exactly one" in two.data["message"]
    hub.network.wifi_drivers_installed = False
    hub.network.hub_version = 7
    drivers = await refused(call_tool, "hub_update_network_settings", JOIN)
    assert "drivers" in drivers["message"]
    # an empty scan is repeated with a rescan, as the hub UI does
    hub.network.wifi_drivers_installed = True
    hub.network.wifi_available = {}
    scans = hub.network.wifi_scans
    empty = await ok(call_tool, "hub_update_network_settings", JOIN)
    assert empty["visible_networks"] == [] and hub.network.wifi_scans == scans + 1


async def test_fix_flow_honours_the_options_at_submit_time(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    client, flow_id = await _started(hass, hass_client, entry, hub, call_tool)
    # switched off while the form is open: the submit is refused, nothing is sent
    hass.config_entries.async_update_entry(entry, options={**entry.options, "allow_write": False})
    resp = await client.post(f"/api/repairs/issues/fix/{flow_id}", json={"password": PASSWORD})
    flow = await resp.json()
    assert flow["type"] == "abort" and flow["reason"] == "not_allowed", flow
    assert hub.network.wifi_psk_seen is None


async def test_closing_the_form_during_the_join_is_audited(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    client, flow_id = await _started(hass, hass_client, entry, hub, call_tool)
    hub.network.wifi_join_polls = 10_000  # the join does not end by itself
    url = f"/api/repairs/issues/fix/{flow_id}"
    progress = await (await client.post(url, json={"password": PASSWORD})).json()
    assert progress["type"] == "progress"
    await asyncio.sleep(0.1)  # it polls the status
    assert (await client.delete(url)).status == 200
    await hass.async_block_till_done()
    (record,) = _flow_records(hass)
    assert record["outcome"] == "interrupted" and PASSWORD not in json.dumps(record)


async def test_the_password_is_scrubbed_from_what_the_hub_says(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    client, flow_id = await _started(hass, hass_client, entry, hub, call_tool)
    odd = "pa!ss; word,@/?x"
    hub.network.wifi_fail_text = "Fail: key {psk} rejected"  # a hub that repeats it
    wrong = await _submit(hass, client, flow_id, odd)
    message = wrong["description_placeholders"]["message"]
    assert "rejected" in message and "**REDACTED**" in message and odd not in message
    # a request that fails: its error text is not kept at all (it may quote the URL)
    hub.faults.fail_paths["/hub/advanced/setWiFiNetworkInfoAsync"] = 500
    again = await _submit(hass, client, flow_id, odd)
    assert "failed (hub_bad_response)" in again["description_placeholders"]["message"]
    records = json.dumps(_flow_records(hass))
    for form in (odd, "pa!ss+word", "pa%21ss", "ss;+word"):
        assert form not in records and form not in json.dumps(again)


async def test_unload_clears_a_pending_join(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    await ok(call_tool, "hub_update_network_settings", JOIN)
    assert _issue(hass, entry) is not None
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert _issue(hass, entry) is None


@pytest.mark.parametrize(
    ("password", "usable"),
    [
        ("12345678", True),
        ("a" * 63, True),
        ("0123456789abcdef" * 4, True),  # a 64-digit hex key
        ("1234567", False),
        ("g" * 64, False),
        ("pass\u00e9word", False),
        ("tab\there!", False),
    ],
)
def test_wifi_password_rules(password: str, usable: bool) -> None:
    assert (check_wifi_password(password) is None) is usable


async def test_scan_answer_matches_the_fixture(hub: HubEmulator) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{hub.url}/hub2/availableWiFiNetworks?reload=false") as resp,
    ):
        assert_same_shape("network/available_wifi_networks", json.loads(await resp.text()))


async def test_join_from_the_wifi_we_reach_the_hub_by_does_not_wait_for_it(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    client, flow_id = await _started(hass, hass_client, entry, hub, call_tool)
    hub.network.wlan_address, hub.network.wifi_network = "127.0.0.1", "Garden"
    done = await _submit(hass, client, flow_id, PASSWORD)
    assert done["type"] == "create_entry", done
    assert hub.network.wifi_psk_seen == PASSWORD
    # no status polls over a link the hub is leaving
    assert not [p for _m, p in hub.requests if "getWiFiNetworkInfoAsyncStatus" in p]
    assert "was asked to join HomeNet" in _audit(hass)


async def test_a_second_join_replaces_the_first(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    client, flow_id = await _started(hass, hass_client, entry, hub, call_tool)
    await ok(call_tool, "hub_update_network_settings", {**JOIN, "wifi_join": "Garden"})
    assert _issue(hass, entry) is None and _issue(hass, entry, "Garden") is not None
    resp = await client.post(f"/api/repairs/issues/fix/{flow_id}", json={"password": PASSWORD})
    stale = await resp.json()
    assert stale["type"] == "abort" and stale["reason"] == "replaced", stale
    assert hub.network.wifi_psk_seen is None
