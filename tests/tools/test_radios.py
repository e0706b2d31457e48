"""Radio tools: details, Zigbee and Matter operations, channel scans, the radio settings (and
their fixtures). The Z-Wave repair, node actions and removal, and the checks of its settings:
``test_radios_zwave.py``."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.answers import check_success
from custom_components.hubitat_dev_tools.hub.errors import (
    HubBadResponseError,
    HubRefusedError,
    HubTimeoutError,
)
from custom_components.hubitat_dev_tools.hub.radios import (
    RADIO_ACTIONS,
    call_radio_action,
    parse_channel_scan,
    start_zwave_repair,
)
from custom_components.hubitat_dev_tools.managers.radio_scan import SCAN_REQUEST_TIMEOUT
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, refused
from ..contract import assert_same_shape, load_fixture
from ..fixture_client import fixture_client
from ..hub_fake import FakeHub
from ..ops_util import FixtureClient, fixture_manager, radio_manager


async def test_radio_details_all(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_get_radio_details")
    zw, zb, mt = data["zwave"], data["zigbee"], data["matter"]
    failed_node = next(iter(hub.ops.failed_zwave_nodes))
    assert zw["healthy"] is False and zw["firmware"] == "7.18"
    assert [n["node_id"] for n in zw["failed_nodes"]] == [failed_node]
    assert zw["nodes"][0]["nodeId"] == failed_node  # problem nodes first
    # the failed node's radio counter is days old while its device reported since: said so
    stale = zw["nodes"][0]
    assert stale["device_last_activity"] > stale["lastReceived"]
    assert "newer truth" in stale["last_heard_note"]
    assert all("last_heard_note" not in n for n in zw["nodes"][1:])
    assert zb["channel"] == 20 and zb["pan_id"] == "37D5" and zb["network_state"] == "ONLINE"
    assert zb["device_count"] > 0
    assert mt["available"] is True and mt["device_count"] == 1


async def test_radio_details_one_radio_and_node(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    node = next(iter(hub.ops.failed_zwave_nodes))
    data = await ok(
        call_tool,
        "hub_get_radio_details",
        {"radio": "zwave", "node_id": node, "include_topology": True},
    )
    assert set(data) == {"zwave"} and [n["nodeId"] for n in data["zwave"]["nodes"]] == [node]
    assert "01" in data["zwave"]["topology"]
    hub.ops.matter = False
    matter = await ok(call_tool, "hub_get_radio_details", {"radio": "matter"})
    assert matter["matter"]["available"] is False
    await refused(call_tool, "hub_get_radio_details", {"radio": "wifi"}, "invalid_arguments")


async def test_radio_action_validation_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    for args, code in (
        ({"radio": "zigbee", "action": "inclusion_start"}, "invalid_request"),
        ({"radio": "zwave", "action": "node_refresh"}, "invalid_request"),
        ({"radio": "zwave", "action": "inclusion_start", "node_id": 5}, "invalid_request"),
        ({"radio": "zwave", "action": "node_refresh", "node_id": 999}, "invalid_request"),
        ({"radio": "zwave", "action": "node_refresh", "node_id": 1}, "invalid_request"),
        ({"radio": "matter", "action": "pair"}, "invalid_request"),
        ({"radio": "matter", "action": "pair", "setup_code": "12345678901x"}, "invalid_request"),
        ({"radio": "matter", "action": "open_pairing_window", "node_id": 7}, "invalid_request"),
        ({"radio": "zwave", "action": "launch"}, "invalid_arguments"),
    ):
        await refused(call_tool, "hub_call_radio_action", args, code)
    # only reads of the radio lists went out: no operation endpoint was called
    sent = {p.split("?")[0] for _m, p in hub.requests[start:]}
    assert sent <= {"/hub/zwaveDetails/json", "/hub/matterDetails/json"}, sent


async def test_zigbee_and_matter_actions(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    scan = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zigbee", "action": "channel_scan"}
    )
    # the rows of the hub's plain array (the emulator hears a network on 15, 20 and 25)
    assert [r["channel"] for r in scan["channel_scan"]] == [15, 20, 25]
    assert set(scan["channel_scan"][0]) == {"channel", "rssi", "lqi", "pan_id", "extended_pan_id"}
    # only the JSON scan, once: never the HTML page the hub UI opens
    assert [p for _m, p in hub.requests[start:]] == ["/hub/zigbeeChannelScanJson"]
    await ok(call_tool, "hub_call_radio_action", {"radio": "zigbee", "action": "rebuild_network"})
    paired = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "matter", "action": "pair", "setup_code": "3497-011-2332"},
    )
    assert paired["action"] == "pair"
    assert hub.requests[-1][1].endswith("setupCode=34970112332")
    window = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "matter", "action": "open_pairing_window", "node_id": 3001},
    )
    assert window["setup_code"] == "34970112332"
    hub.ops.matter = False
    no_matter = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "matter", "action": "open_pairing_window", "node_id": 3001},
    )
    assert "no Matter" in no_matter["message"]


async def test_matter_pair_on_a_hub_without_matter(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.ops.matter = False
    result = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "matter", "action": "pair", "setup_code": "34970112332"},
    )
    assert result["error"] == "not_found" and "C-8" in result["hint"]


async def test_update_radio_settings(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    gate = await refused(call_tool, "hub_update_radio_settings", {"radio": "zigbee", "channel": 25})
    assert gate["error"] == "confirmation_required"
    hub.mark_backup_now()
    data = await ok(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zigbee", "channel": 25, "inactive_device_ping": False, "confirm": True},
    )
    assert data["settings"] == {"channel": 25, "inactive_device_ping": False}
    assert "not_applied" not in data and "channel" in data["note"]
    ops = hub.ops
    # the untouched half of each combined call was sent back as it was
    assert (ops.zigbee_channel, ops.zigbee_power) == (25, 8)
    assert (ops.zigbee_inactive_ping, ops.zigbee_rebuild_on_reboot) == (False, False)
    start = len(hub.requests)
    lr = await ok(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zwave", "long_range_channel": 1, "confirm": True},
    )
    assert lr["settings"] == {"long_range_channel": 1} and ops.zwave_long_range_channel == 1
    # the full set the hub UI sends, current values merged: Z-Wave and Secure Join stay on
    sent = [p for _m, p in hub.requests[start:] if p.startswith("/hub/zwaveDetails/update")]
    assert sent == [
        "/hub/zwaveDetails/update?enabled=true&region=USLR&secureJoin=1&longRangeChannel=1"
    ]
    assert ops.radio_enabled["zwave"] is True and ops.zwave_secure_join == 1
    off = await ok(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "matter", "enabled": False, "confirm": True},
    )
    assert ops.radio_enabled["matter"] is False and "reboot" in off["note"]


async def test_update_radio_settings_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    start = len(hub.requests)
    for args, code in (
        ({"radio": "zwave", "channel": 15}, "invalid_request"),
        ({"radio": "zigbee"}, "invalid_request"),
        ({"radio": "zigbee", "power_level": 25}, "invalid_request"),  # not in powerLevels
        ({"radio": "zigbee", "channel": 30}, "invalid_arguments"),
        ({"radio": "zwave", "long_range_channel": 2}, "invalid_arguments"),
    ):
        await refused(call_tool, "hub_update_radio_settings", {**args, "confirm": True}, code)
    sent = {p.split("?")[0] for _m, p in hub.requests[start:]}
    assert sent <= {"/hub/zwaveDetails/json", "/hub/zigbeeDetails/json", "/hub2/localBackups"}, sent
    hub.ops.matter = False
    no_matter = await refused(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "matter", "enabled": True, "confirm": True},
    )
    assert "no matter radio" in no_matter["message"].lower()


async def test_radio_trigger_is_not_retried(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.fail_paths = {"/hub/startZwaveJoin": 503}
    result = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"}
    )
    assert result["error"] == "hub_bad_response"
    assert len([p for _m, p in hub.requests if p.startswith("/hub/startZwaveJoin")]) == 1


# ---------------------------------------------------------------- contract fixtures


def test_channel_scan_parser_reads_both_shapes() -> None:
    rows = parse_channel_scan(load_fixture("radios/zigbee_channel_scan").answer)
    assert rows[0] == {
        "channel": 15,
        "rssi": -71,
        "lqi": 188,
        "pan_id": "1A0F",
        "extended_pan_id": "00124B000000000F",
    }
    wrapped = {"results": load_fixture("radios/zigbee_channel_scan").answer}  # older reference
    assert parse_channel_scan(wrapped) == rows
    # the scan PAGE is HTML, not data: never read as a result
    with pytest.raises(HubBadResponseError):
        parse_channel_scan(load_fixture("radios/zigbee_channel_scan_page").answer_text)


async def test_radio_details_from_the_fixtures() -> None:
    manager, _fake = fixture_manager(
        {
            "/hub/zwaveDetails/json": "radios/zwave_details",
            "/hub/zwaveTopology": "radios/zwave_topology",
            "/hub/zigbeeDetails/json": "radios/zigbee_details",
            "/hub/matterDetails/json": "radios/matter_details",
        }
    )
    data = await manager.details("all", None, True, 100)
    zw, zb, mt = data["zwave"], data["zigbee"], data["matter"]
    assert [n["node_id"] for n in zw["failed_nodes"]] == [13] and zw["secure_join"] == 1
    assert zw["nodes"][0]["nodeId"] == 13 and zw["topology"].startswith("0C: 01")
    assert zw["region"] == "USLR" and zw["long_range_channel"] == 255
    assert zb["channel"] == 20 and zb["devices"][0]["shortZigbeeId"] == "8A1C"
    assert mt["offline_devices"] == ["Desk Bulb"] and mt["device_count"] == 2


async def test_matter_setup_code_from_the_fixture() -> None:
    manager, fake = fixture_manager(
        {
            "/hub/matterDetails/json": "radios/matter_details",
            "/hub/matter/openPairingWindow": "radios/matter_setup_code",
        }
    )
    window = await manager.radio_action("matter", "open_pairing_window", 3001, None)
    assert window["setup_code"] == "34970112332"
    assert fake.sent[-1] == ("/hub/matter/openPairingWindow", {"node": "3001"})


# ---------------------------------------------------------------- against the emulator


async def test_write_answers_have_the_fixture_shapes(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.get(f"{hub.url}/hub/zwaveRepair2?resetStats=false&maxHealth=10") as r:
            assert_same_shape("radios/zwave_repair_start", await r.json(content_type=None))
        async with session.get(f"{hub.url}/hub/matter/openPairingWindow?node=3001") as r:
            assert_same_shape("radios/matter_setup_code", await r.json(content_type=None))


async def test_channel_scan_waits_within_the_call_budget_and_is_not_retried(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from custom_components.hubitat_dev_tools.tools import base

    monkeypatch.setattr(base, "CALL_BUDGET_S", 4.0)  # leaves the scan 2 s
    hub.ops.channel_scan_s = 1.0
    began = time.monotonic()
    scan = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zigbee", "action": "channel_scan"}
    )
    assert scan["channel_scan"] and time.monotonic() - began >= 1.0
    # Longer than the call may wait: it answers "running", and the next call gets the
    # result of that same scan (one request to the hub in all, never retried).
    hub.ops.channel_scan_s = 2.6
    start = len(hub.requests)
    args = {"radio": "zigbee", "action": "channel_scan"}
    running = await ok(call_tool, "hub_call_radio_action", args)
    assert running["status"] == "running" and running["retry_after_s"] >= 5
    assert "channel_scan" not in running
    await asyncio.sleep(1.0)  # the emulated scan ends
    result = await ok(call_tool, "hub_call_radio_action", args)
    assert result["channel_scan"] and result["started_at"] == running["started_at"]
    assert [p for _m, p in hub.requests[start:]] == ["/hub/zigbeeChannelScanJson"]
    # handed out once: the next call is a new scan
    hub.ops.channel_scan_s = 0.1
    again = await ok(call_tool, "hub_call_radio_action", args)
    assert again["channel_scan"] and len(hub.requests[start:]) == 2


async def test_a_running_scan_is_cancelled_on_unload(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from custom_components.hubitat_dev_tools.tools import base

    monkeypatch.setattr(base, "CALL_BUDGET_S", 3.0)
    hub.ops.channel_scan_s = 3.0  # the call waits 1 s of it
    running = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zigbee", "action": "channel_scan"}
    )
    assert running["status"] == "running"
    job = entry.runtime_data.hub.radios.scan
    task = job._job.task if job._job else None
    assert task is not None and not task.done()
    await hass.config_entries.async_unload(entry.entry_id)
    await asyncio.sleep(0)
    assert task.cancelled()
    await asyncio.sleep(2.5)  # the emulated hub finishes its own scan


async def test_channel_scan_with_hub_security_is_no_auth_error(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, secure_hub)
    scan = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zigbee", "action": "channel_scan"}
    )
    assert [r["channel"] for r in scan["channel_scan"]] == [15, 20, 25]


async def test_zigbee_settings_never_echo_placeholders(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    start = len(hub.requests)
    hub.ops.zigbee_inactive_ping = "null"  # type: ignore[assignment]  # as a settings page reads
    result = await refused(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zigbee", "rebuild_network_on_reboot": True, "confirm": True},
        "invalid_request",
    )
    assert "nothing was sent" in result["message"]
    assert not any("updateSettings" in p for _m, p in hub.requests[start:])
    hub.ops.zigbee_inactive_ping = True
    hub.ops.settings_ignored = True
    await refused(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zigbee", "channel": 15, "confirm": True},
        "hub_bad_response",
    )


async def test_scan_timeout_is_a_clear_error() -> None:
    class Slow(FixtureClient):
        async def request(self, method: str, path: str, **kw: Any) -> Any:
            self.sent.append((path, kw.get("timeout")))
            raise HubTimeoutError("late")

    slow = Slow({})
    manager = radio_manager(slow)
    with pytest.raises(HubTimeoutError, match="about a minute"):
        await manager.radio_action(
            "zigbee", "channel_scan", None, None, deadline=time.monotonic() + 30
        )
    ((path, timeout),) = slow.sent
    # the request runs in the background, bounded by the hub's minute plus a margin
    assert path == "/hub/zigbeeChannelScanJson" and cast(object, timeout) == SCAN_REQUEST_TIMEOUT


async def test_radio_operation_answers_in_the_real_shapes() -> None:
    """The start/stop/pair answers the hub UI reads (success, message) through our parser."""
    for name, path in (
        ("radios/zwave_join", "/hub/startZwaveJoin"),
        ("radios/zwave_repair_cancel", "/hub/zwaveCancelRepair"),
    ):
        answer = await call_radio_action(fixture_client(name), _action_for(path))
        assert answer == load_fixture(name).answer
    c5 = FakeHub(
        {
            "GET /hub/checkZwaveRepairRunning": {"isZWaveNetworkHealRunning": "false"},
            "GET /hub/zwaveRepair": load_fixture("radios/zwave_repair_c5_start").answer,
        }
    )
    started = await start_zwave_repair(c5.client, modern=False)
    assert started["success"] is True
    assert [path for _m, path, _k in c5.calls] == [
        "/hub/checkZwaveRepairRunning",
        "/hub/zwaveRepair",
    ]
    # A refusal in the real shape is the failure envelope the client raises on.
    with pytest.raises(HubRefusedError) as err:
        check_success(load_fixture("radios/matter_pair").answer, "pair a Matter device")
    assert err.value.reason == "Invalid setup code"


def _action_for(path: str) -> str:
    return next(a for a, (_r, _m, p, _n) in RADIO_ACTIONS.items() if p == path)
