"""The radio status blocks of hub_get_radio_details (issue 17) through the tools: the node_id
refusal, the allowlist, the notes that name the next call, the blocks answered and the MCP
round trip. Reading the blocks (a node's state and its view of the real hub's answer, the
exclusion in its older and UI-documented shapes, the Zigbee network, a Matter pairing, the
Matter logs) is tested without hass in tests/managers/test_radio_reads.py; the library's
readers of the Matter logs and pairing answers in tests/hub/test_radio_status.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
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


async def test_exclusion_and_network_blocks_answer(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    """The tool's part: the blocks answered (their readings, the older and the UI-documented
    shapes: tests/managers/test_radio_reads.py)."""
    seen = await details(call_tool, "exclusion", "zigbee_network", radio="zigbee")
    assert seen["exclusion"] == {"result": None, "excluding": None}
    assert seen["zigbee_network"]["online"] is True
