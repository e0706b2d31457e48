"""Radio tools: details and the Z-Wave repair."""

from __future__ import annotations

import asyncio

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from .conftest import ToolCaller
from .ops_util import ok, refused


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
    hass: object, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOW_WRITE

    from .conftest import add_entry

    await add_entry(hass, hub, options={OPT_ALLOW_WRITE: False})  # type: ignore[arg-type]
    before = len(hub.requests)
    await refused(call_tool, "hub_start_zwave_repair", {}, "writes_disabled")
    assert hub.requests[before:] == []
    assert (await ok(call_tool, "hub_get_zwave_repair_status"))["running"] is False
