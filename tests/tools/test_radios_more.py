"""Radio operations of issue 17: S2 inclusion prompts, SmartStart, one-node repair, node
replace, statistics, region, the Zigbee keep-alive ping (and their fixtures)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.managers.radio_zwave import inclusion_view, smartstart_id
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..contract import load_fixture

PIN = "24680"


async def zwave(call_tool: ToolCaller, action: str, **args: Any) -> dict[str, Any]:
    return await ok(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": action, **args}
    )


def audit_text(hass: HomeAssistant) -> str:
    shared = get_domain_data(hass)
    assert shared is not None
    return json.dumps(shared.audit.recent(None))


async def test_s2_inclusion_grant_keys_then_pin(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    rs = hub.ops.radio_state
    rs.s2_device = True
    # nothing pending yet: refused before anything is sent
    await refused(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "s2_grant_keys"})
    await zwave(call_tool, "inclusion_start")
    seen = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zwave", "include": ["inclusion"]}
    )
    inclusion = seen["inclusion"]
    assert inclusion["waiting_for"] == "s2_keys"
    assert inclusion["requested_keys"] == ["S2 Access Control", "S2 Authenticated"]
    # a PIN while the hub asks for keys: refused, nothing sent
    await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "s2_enter_pin", "dsk_pin": PIN},
    )
    granted = await zwave(call_tool, "s2_grant_keys")
    assert granted["inclusion"]["waiting_for"] == "s2_pin"
    # the UI's bare fetch: JSON text, not a JSON content type
    assert "/hub/zwave/securityKeys text/plain" in hub.ops.radio_calls
    await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "s2_enter_pin", "dsk_pin": "12ab5"},
    )
    done = await zwave(call_tool, "s2_enter_pin", dsk_pin=PIN)
    assert done["inclusion"]["waiting_for"] is None
    assert rs.s2_result == "S2 Access Control"
    assert done["inclusion"]["found_devices"] == [{"id": "77", "name": "Front Door Lock"}]
    # the PIN is nowhere: not in the answer, the audit trail or the logs
    assert PIN not in json.dumps(done)
    assert PIN not in audit_text(hass)
    assert PIN not in caplog.text


async def test_s2_skip_and_a_hub_that_ignores_the_answer(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rs = hub.ops.radio_state
    rs.s2_device = True
    await zwave(call_tool, "inclusion_start")
    skipped = await zwave(call_tool, "s2_skip")
    assert "skipped" in skipped["summary"] and rs.s2_result == "None"
    rs.s2_result, rs.s2_stage, rs.s2_ignored = None, None, True
    data = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "s2_grant_keys"}
    )
    assert data["error"] == "hub_bad_response"


def test_inclusion_view_reads_the_ui_shapes() -> None:
    keys = inclusion_view(
        {"deviceMap": {}, "initMap": {"12": {"type": "zwave", "stage": "SECURITY"}},
         "userRequest": {"type": "grantKeys", "S2AccessControl": "true",
                         "S2Authenticated": "false", "S0Unauthenticated": "true"}}
    )  # fmt: skip
    assert keys["requested_keys"] == ["S2 Access Control", "S0"]
    assert keys["initializing"] == [{"id": "12", "stage": "SECURITY", "type": "zwave"}]
    pin = inclusion_view({"userRequest": {"type": "securityCode", "securityCode": "-1-2"}})
    assert pin["waiting_for"] == "s2_pin" and "-1-2" not in json.dumps(pin)


async def test_smartstart_list_and_delete(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zwave", "include": ["smartstart"]}
    )
    block = data["smartstart"]
    assert block["count"] == 2
    pending, included = block["entries"]
    assert pending["name"] == "Garage Sensor" and pending["can_delete"] is True
    # no DSK digits in the answer: entries are named by a hash
    dsk = hub.ops.radio_state.smartstart[0]["dsk"]
    assert pending["id"] == smartstart_id(dsk)
    assert dsk[:5] not in json.dumps(data) and dsk[-5:] not in json.dumps(data)
    await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "smartstart_delete", "smartstart_id": included["id"]},
    )
    await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "smartstart_delete", "smartstart_id": "nothere"},
    )
    gone = await zwave(call_tool, "smartstart_delete", smartstart_id=pending["id"])
    assert gone["deleted"] is True
    assert [e["nodeName"] for e in hub.ops.radio_state.smartstart] == ["Hall Dimmer"]
    assert dsk not in audit_text(hass)


async def test_smartstart_delete_without_effect_is_an_error(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.ops.radio_state.smartstart_ignored = True
    entry_id = smartstart_id(hub.ops.radio_state.smartstart[0]["dsk"])
    data = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "smartstart_delete", "smartstart_id": entry_id},
    )
    assert data["error"] == "hub_bad_response"


async def test_node_repair_replace_and_stats(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    failed = details["zwave"]["failed_nodes"][0]["node_id"]
    nodes = details["zwave"]["nodes"]
    working = next(n["nodeId"] for n in nodes if n["nodeId"] != failed and n.get("listening"))
    # one node's repair: only a working, listening node; followed like the network repair
    await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_repair", "node_id": failed},
    )
    repair = await zwave(call_tool, "node_repair", node_id=working)
    assert "hub_get_zwave_repair_status" in repair["note"]
    assert f"/hub/zwaveNodeRepair2?zwaveNodeId={working}" in hub.ops.radio_calls
    # replace: only a failed node
    await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_replace", "node_id": working},
    )
    replace = await zwave(call_tool, "node_replace", node_id=failed)
    assert replace["replace"]["running"] is True
    status = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zwave", "include": ["node_replace"]}
    )
    assert status["node_replace"]["status"] == "Waiting for the device"
    await zwave(call_tool, "node_replace_stop")
    assert hub.ops.radio_state.replace["running"] is False
    before = hub.ops.radio_state.stats_refreshes
    await zwave(call_tool, "stats_refresh")
    assert hub.ops.radio_state.stats_refreshes == before + 1


async def test_antenna_test(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    node = next(n["nodeId"] for n in details["zwave"]["nodes"][1:] if n.get("listening"))
    await zwave(call_tool, "antenna_test_start", node_id=node)
    read = {"radio": "zwave", "include": ["antenna_test"]}
    waiting = (await ok(call_tool, "hub_get_radio_details", read))["antenna_test"]
    assert waiting["stage"] == "WAITING_FOR_USER" and "Disconnect" in waiting["message"]
    assert "antenna_test_continue" in waiting["next"]
    await zwave(call_tool, "antenna_test_continue")
    done = (await ok(call_tool, "hub_get_radio_details", read))["antenna_test"]
    assert done["stage"] == "FINISHED" and done["rssi_without_antenna"] == "-71"


async def test_node_actions_refused_on_a_c5(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.model = "C-5"
    data = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "stats_refresh"}
    )
    assert data["error"] == "firmware_unsupported"


async def test_action_arguments_are_paired(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    for args in (
        {"radio": "zwave", "action": "s2_enter_pin"},
        {"radio": "zwave", "action": "s2_skip", "dsk_pin": PIN},
        {"radio": "zwave", "action": "smartstart_delete"},
        {"radio": "zigbee", "action": "ping_on"},
        {"radio": "zigbee", "action": "radio_reboot", "device_ids": ["1"]},
        {"radio": "zigbee", "action": "s2_skip"},
    ):
        await refused(call_tool, "hub_call_radio_action", args)
    assert hub.requests[start:] == []


async def test_zigbee_keep_alive_ping(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    zigbee = [d for d in hub.state.devices.values() if d.driver.protocol == "zigbee"]
    device = next(d for d in zigbee if d.parent_id is None and d.id % 2 == 0)  # ping on
    zwave_device = next(d for d in hub.state.devices.values() if d.driver.protocol == "zwave")
    data = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zigbee", "action": "ping_off",
         "device_ids": [str(device.id), str(zwave_device.id)]},
    )  # fmt: skip
    first, second = data["devices"]
    assert first == {"device_id": str(device.id), "name": device.display_name, "ping": False}
    assert second["error"] == "not a Zigbee device"
    assert hub.ops.radio_state.zigbee_ping == {device.id: False}
    assert "1 of 2" in data["summary"]


async def test_zwave_region_change(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    start = len(hub.requests)
    data = await ok(
        call_tool, "hub_update_radio_settings", {"radio": "zwave", "region": "EU", "confirm": True}
    )
    assert data["settings"] == {"region": "EU"} and hub.ops.zwave_region == "EU"
    sent = [p for _m, p in hub.requests[start:] if p.startswith("/hub/zwaveDetails/update")]
    assert sent == ["/hub/zwaveDetails/update?enabled=true&region=EU&secureJoin=1"]
    # back to a Long Range region: the current LR channel goes with it
    await ok(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zwave", "region": "USLR", "confirm": True},
    )
    assert hub.requests[-3:] and hub.ops.zwave_region == "USLR"
    await refused(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zwave", "region": "EU", "long_range_channel": 1, "confirm": True},
    )


def test_fixtures_feed_the_parsers() -> None:
    status = load_fixture("radios/zwave_inclusion_s2").answer
    assert inclusion_view(status)["waiting_for"] == "s2_keys"
    items = load_fixture("radios/smartstart_list").answer["items"]
    assert items and all("dsk" in i and "nodeName" in i for i in items)


async def test_ping_respects_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    zigbee = [d for d in hub.state.devices.values() if d.driver.protocol == "zigbee"]
    device = next(d for d in zigbee if d.parent_id is None)
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: ["999999"]})
    await hass.async_block_till_done()
    start = len(hub.requests)
    result = await call_tool(
        "hub_call_radio_action",
        {"radio": "zigbee", "action": "ping_on", "device_ids": [str(device.id)]},
    )
    refused_whole = result.error and result.data["error"] == "device_not_allowed"
    refused_item = not result.error and result.data["devices"][0]["error"] == "device_not_allowed"
    assert refused_whole or refused_item
    assert not [p for _m, p in hub.requests[start:] if "updatePingDevice" in p]
