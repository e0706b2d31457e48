"""Radio tools: details and the Z-Wave repair."""

from __future__ import annotations

import asyncio

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from .conftest import ToolCaller, add_entry, ok, refused


def zwave_mode(hub: HubEmulator) -> str | None:
    """The emulated Z-Wave mode read afresh: mypy keeps an attribute narrowed across awaits."""
    return hub.ops.zwave_mode


async def test_radio_details_all(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_get_radio_details")
    zw, zb, mt = data["zwave"], data["zigbee"], data["matter"]
    failed_node = next(iter(hub.ops.failed_zwave_nodes))
    assert zw["healthy"] is False and zw["firmware"] == "7.18"
    assert [n["node_id"] for n in zw["failed_nodes"]] == [failed_node]
    assert zw["nodes"][0]["nodeId"] == failed_node  # problem nodes first
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


async def test_zwave_repair_start_progress_and_already_running(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.ops.repair_step = 0.2
    idle = await ok(call_tool, "hub_get_zwave_repair_status")
    assert idle["running"] is False
    started = await ok(call_tool, "hub_start_zwave_repair")
    assert started["started"] is True and started["running"] is True and "summary" in started
    again = await ok(call_tool, "hub_start_zwave_repair")
    assert again["started"] is False and "already running" in again["summary"]
    status = await ok(call_tool, "hub_get_zwave_repair_status")
    assert status["running"] is True and "Repairing node" in status["progress"]
    hub.ops.repair_step = 0.0
    for _ in range(200):
        if not hub.ops.repair_running:
            break
        await asyncio.sleep(0.05)
    done = await ok(call_tool, "hub_get_zwave_repair_status")
    assert done["running"] is False and "Finished" in done["progress"]


async def test_repair_respects_write_master(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOW_WRITE

    from .conftest import add_entry

    await add_entry(hass, hub, options={OPT_ALLOW_WRITE: False})
    before = len(hub.requests)
    await refused(call_tool, "hub_start_zwave_repair", {}, "writes_disabled")
    assert hub.requests[before:] == []
    assert (await ok(call_tool, "hub_get_zwave_repair_status"))["running"] is False


async def test_zwave_inclusion_exclusion_and_node_actions(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    started = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"}
    )
    assert hub.ops.zwave_mode == "including" and "pairing mode" in started["note"]
    busy = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"}
    )
    assert "including is running" in busy["message"]
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_stop"})
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"})
    assert hub.ops.zwave_mode == "excluding"
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_stop"})
    assert zwave_mode(hub) is None
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    node = next(n for n in details["zwave"]["nodes"] if n["nodeState"] == "OK" and n["nodeId"] > 1)
    refreshed = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_refresh", "node_id": node["nodeId"]},
    )
    assert refreshed["device_id"] == node["deviceId"]
    assert hub.ops.radio_calls[-1] == "/hub/zwave/refreshNodeStatus"


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
    scan = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zigbee", "action": "channel_scan"}
    )
    assert [r["channel"] for r in scan["channel_scan"]] == list(range(11, 27))
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


async def test_delete_failed_zwave_node(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    failed = next(iter(hub.ops.failed_zwave_nodes))
    gate = await refused(call_tool, "hub_delete_zwave_node", {"node_id": failed})
    assert gate["error"] == "confirmation_required"
    hub.mark_backup_now()
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    working = next(
        n for n in details["zwave"]["nodes"] if n["nodeState"] == "OK" and n["nodeId"] > 1
    )
    before = len(hub.ops.radio_calls)
    alive = await refused(
        call_tool, "hub_delete_zwave_node", {"node_id": working["nodeId"], "confirm": True}
    )
    assert "exclusion_start" in alive["hint"] and hub.ops.radio_calls[before:] == []
    device_id = next(
        n["device_id"] for n in details["zwave"]["failed_nodes"] if n["node_id"] == failed
    )
    removed = await ok(call_tool, "hub_delete_zwave_node", {"node_id": failed, "confirm": True})
    assert removed["removed"] is True and removed["device_id"] == device_id
    assert device_id not in hub.state.devices and failed not in hub.ops.failed_zwave_nodes


async def test_radio_actions_respect_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    failed = next(iter(hub.ops.failed_zwave_nodes))
    node_device = next(
        d
        for d in hub.state.devices.values()
        if d.driver.protocol == "zwave" and d.parent_id is None and int(d.dni, 16) == failed
    )
    other = next(
        d for d in hub.state.devices.values() if d.id != node_device.id and d.parent_id is None
    )
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(other.id)]})
    hub.mark_backup_now()
    start = len(hub.ops.radio_calls)
    refresh = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_refresh", "node_id": failed},
    )
    assert refresh["error"] == "device_not_allowed"
    exclusion = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"}
    )
    assert exclusion["error"] == "device_not_allowed"
    removal = await refused(
        call_tool, "hub_delete_zwave_node", {"node_id": failed, "confirm": True}
    )
    assert removal["error"] == "device_not_allowed"
    assert hub.ops.radio_calls[start:] == [] and node_device.id in hub.state.devices
    # inclusion only adds devices: still allowed
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"})


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
    lr = await ok(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zwave", "long_range_channel": 1, "confirm": True},
    )
    assert lr["settings"] == {"long_range_channel": 1} and ops.zwave_long_range_channel == 1
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
