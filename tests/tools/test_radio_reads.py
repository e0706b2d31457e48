"""The radio status blocks of hub_get_radio_details (issue 17) through the tools: the node_id
refusal, the allowlist, the notes that name the next call, the MCP round trip, and the readers
of the real hub's answers. Reading the blocks (a node's state, the exclusion, the Zigbee
network, a Matter pairing, the Matter logs) is tested without hass in
tests/managers/test_radio_reads.py."""

from __future__ import annotations

import json
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.radio_status import (
    matter_pair_node,
    parse_matter_logs,
)
from custom_components.hubitat_dev_tools.managers.radio_reads import node_state_view
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..contract import load_fixture
from ..mcp_client import Mcp


async def details(call_tool: ToolCaller, *include: str, **args: Any) -> dict[str, Any]:
    return await ok(call_tool, "hub_get_radio_details", {"include": list(include), **args})


def zwave_node(hub: HubEmulator) -> tuple[int, Any]:
    device = next(
        d
        for d in hub.state.devices.values()
        if d.driver.protocol == "zwave" and d.parent_id is None
    )
    return int(device.dni, 16), device


def test_matter_log_parsing_from_the_fixture() -> None:
    entries = parse_matter_logs(load_fixture("radios/matter_logs").answer["text"])
    # newest first, ANSI gone, the continuation line joined to its entry
    assert [e["category"] for e in entries] == ["IM", "DIS"]
    assert entries[0]["message"] == "[1990:2004] Subscription established\n  continued line"
    assert entries[1]["message"] == "[1990:2004] Advertise operational node"
    assert entries[0]["time"] == "2025-12-01T11:53:21.220+00:00"


def test_node_state_view_from_the_fixture() -> None:
    view = node_state_view(7, load_fixture("radios/zwave_node_state").answer, 10)
    assert view["status"] == "alive" and view["security"] == "S2 Authenticated"
    assert view["manufacturer"] == "Example Co" and view["statistics"]["route"] == "direct"
    assert view["value_count"] == 2
    secret = next(v for v in view["values"] if v["command_class"] == "User Code")
    assert secret["value"] == "**REDACTED**" and "4321" not in json.dumps(view)
    # the on-hub server reads a plain-text answer too; an {error} answer is said as such
    assert node_state_view(7, "Done", 10) == {"node_id": 7, "text": "Done"}
    assert node_state_view(7, {"error": "Node 7 not found"}, 10)["error"] == "Node 7 not found"


def test_matter_pair_answers() -> None:
    assert matter_pair_node(load_fixture("radios/matter_pair_node").answer) == "4021"
    assert matter_pair_node("0") is None
    assert matter_pair_node(load_fixture("radios/matter_pair").answer) is None  # an envelope


async def test_node_state_block_needs_a_node(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the block answered, and refused without node_id before any request
    (the node's state and its secrets: tests/managers/test_radio_reads.py)."""
    node, _device = zwave_node(hub)
    seen = await details(call_tool, "node_state", radio="zwave", node_id=node)
    assert seen["node_state"]["node_id"] == node and seen["node_state"]["status"] == "alive"
    start = len(hub.requests)
    await refused(call_tool, "hub_get_radio_details", {"include": ["node_state"]})
    assert hub.requests[start:] == []


async def test_node_state_respects_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    node, _device = zwave_node(hub)
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: ["999999"]})
    await hass.async_block_till_done()
    start = len(hub.requests)
    result = await call_tool(
        "hub_get_radio_details", {"radio": "zwave", "node_id": node, "include": ["node_state"]}
    )
    assert result.data["node_state"]["unavailable"] == "device_not_allowed"
    assert not [p for _m, p in hub.requests[start:] if "getNodeState" in p]


async def test_exclusion_reads_the_older_shape(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.reshape_paths["/hub/zwaveExclude/status"] = lambda _data: {"excluding": True}
    seen = await details(call_tool, "exclusion", radio="zigbee")
    assert seen["exclusion"] == {"result": None, "excluding": True}


async def test_matter_pairing_notes_name_the_next_call(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    """The tools' part: the notes that say what to call next (following the pairing:
    tests/managers/test_radio_reads.py)."""
    before = await details(call_tool, "matter_pairing", radio="matter")
    assert "hub_call_radio_action action=pair" in before["matter_pairing"]["note"]
    paired = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "matter", "action": "pair", "setup_code": "34970112332"},
    )
    assert paired["node_id"] and "matter_pairing" in paired["note"]


async def test_status_blocks_through_mcp(entry: MockConfigEntry, mcp: Mcp) -> None:
    data = await mcp.ok(
        "hub_get_radio_details",
        {"radio": "zigbee", "include": ["exclusion", "zigbee_network", "matter_logs"]},
    )
    assert {"exclusion", "zigbee_network", "matter_logs"} <= set(data)


async def test_pollers_read_the_fixture_shapes(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The UI-documented answers, served as they are, read by the blocks."""
    exclusion = load_fixture("radios/zwave_exclude_status").answer
    network = load_fixture("radios/zigbee_network_state").answer
    hub.faults.reshape_paths["/hub/zwaveExclude/status"] = lambda _data: exclusion
    hub.faults.reshape_paths["/hub/zigbeeInfo/status"] = lambda _data: network
    seen = await details(call_tool, "exclusion", "zigbee_network", radio="zigbee")
    assert seen["exclusion"] == {"result": None, "excluding": None}
    assert seen["zigbee_network"] == {
        "network_state": "ONLINE", "online": True, "pan_id": "1A2B",
        "extended_pan_id": "0123456789ABCDEF",
    }  # fmt: skip
