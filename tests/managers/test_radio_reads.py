"""The radio status blocks (``managers/radio_reads.py``, read through the radio manager's
``details``) on their own, no hass: a Z-Wave node's state without its secrets, the exclusion
poller, the Zigbee network state after a radio reboot, a Matter pairing followed to its end
or to its failure, and the Matter logs with their onboarding secrets masked, over the
emulated hub; the blocks reading the older exclusion shape and the UI-documented answers
of the pollers, and the node state view made from the real hub's recorded answer (its
secrets masked, a plain-text or error answer said as such).

Moved from tests/tools/test_radio_reads.py (the reading is the manager's; the tool's
node_id refusal, the allowlist, the notes that name the next tool and the MCP round trip
stay there); test_exclusion_reads_the_older_shape, test_pollers_read_the_fixture_shapes and
test_node_state_view_from_the_fixture moved from there later (the tool's call of the
exclusion and Zigbee network blocks stays there)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.hub.errors import HubRefusedError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.radio_reads import node_state_view
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape, load_fixture

SETUP_CODE = "34970112332"


async def _details(
    hub: Hub, radio: str, *include: str, node_id: int | None = None, limit: int = 100
) -> dict[str, Any]:
    """The radio details with these blocks, as the tool asks for them (no route table)."""
    return await hub.radios.details(radio, node_id, False, limit, include)


def _zwave_node(emu: HubEmulator) -> tuple[int, Any]:
    device = next(
        d
        for d in emu.state.devices.values()
        if d.driver.protocol == "zwave" and d.parent_id is None
    )
    return int(device.dni, 16), device


async def test_node_state_block(emu: HubEmulator, manager_hub: Hub) -> None:
    node, _device = _zwave_node(emu)
    answer = await manager_hub.client.get_json("/hub/zwave2/getNodeState", {"node": str(node)})
    assert_same_shape("radios/zwave_node_state", answer)
    start = len(emu.requests)
    seen = await _details(manager_hub, "zwave", "node_state", node_id=node)
    state = seen["node_state"]
    assert state["node_id"] == node and state["status"] == "alive"
    assert "1357" not in json.dumps(seen)  # the stack's secret value
    sent = [p for _m, p in emu.requests[start:]]
    assert any(p.startswith(f"/hub/zwave2/getNodeState?node={node}") for p in sent)
    emu.ops.failed_zwave_nodes.add(node)
    seen = await _details(manager_hub, "zwave", "node_state", node_id=node)
    assert seen["node_state"]["status"] == "dead"


async def test_exclusion_block_reads_the_ui_message(emu: HubEmulator, manager_hub: Hub) -> None:
    node, device = _zwave_node(emu)
    await manager_hub.radios.radio_action("zwave", "exclusion_start", None, None)
    waiting = await _details(manager_hub, "zigbee", "exclusion")
    assert waiting["exclusion"] == {"result": None, "excluding": None}
    emu.ops.radio_state.exclude_device = device.id  # its button is pressed
    done = await _details(manager_hub, "zigbee", "exclusion")
    assert done["exclusion"]["excluding"] is False
    assert done["exclusion"]["result"] == f"Excluded {device.display_name} (node {node})"
    assert device.id not in emu.state.devices


async def test_zigbee_network_after_a_reboot(emu: HubEmulator, manager_hub: Hub) -> None:
    await manager_hub.radios.radio_action("zigbee", "radio_reboot", None, None)
    seen = await _details(manager_hub, "zigbee", "zigbee_network")
    assert seen["zigbee_network"]["network_state"] == "STARTING"
    assert seen["zigbee_network"]["online"] is False
    for _ in range(2):
        seen = await _details(manager_hub, "zigbee", "zigbee_network")
    assert seen["zigbee_network"]["online"] is True
    assert seen["zigbee_network"]["pan_id"] == emu.ops.radio_state.zigbee_pan[0]


async def test_matter_pairing_followed(manager_hub: Hub) -> None:
    before = await _details(manager_hub, "matter", "matter_pairing")
    assert before["matter_pairing"]["node_id"] is None
    paired = await manager_hub.radios.radio_action("matter", "pair", None, SETUP_CODE)
    node = paired["node_id"]
    assert node is not None
    status = await manager_hub.client.get_json("/hub/matterPairDeviceStatus", {"nodeId": node})
    assert_same_shape("radios/matter_pair_status", status)  # the first poll: searching
    seen = await _details(manager_hub, "matter", "matter_pairing")
    assert seen["matter_pairing"]["node_id"] == node
    assert seen["matter_pairing"]["stage"] == "commissioning"
    assert seen["matter_pairing"]["running"] is True
    seen = await _details(manager_hub, "matter", "matter_pairing")
    assert seen["matter_pairing"]["device_created"] is True
    assert seen["matter_pairing"]["running"] is False


async def test_matter_pairing_failures(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.ops.radio_state.matter_pair_fails = True
    with pytest.raises(HubRefusedError, match="did not start"):
        await manager_hub.radios.radio_action("matter", "pair", None, SETUP_CODE)
    emu.ops.radio_state.matter_pair_fails = False
    emu.ops.radio_state.matter_pair_fail_stage = "commissioning"
    await manager_hub.radios.radio_action("matter", "pair", None, SETUP_CODE)
    await _details(manager_hub, "matter", "matter_pairing")
    seen = await _details(manager_hub, "matter", "matter_pairing")
    pairing = seen["matter_pairing"]
    assert pairing["failed"] is True
    assert pairing["failure"] == {"stage": "commissioning", "code": 50, "message": "Timeout"}


async def test_matter_logs_block_masks_onboarding_secrets(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    seen = await _details(manager_hub, "matter", "matter_logs", limit=2)
    logs = seen["matter_logs"]
    assert logs["count"] == 4  # the RMI line is noise
    assert len(logs["entries"]) == 2 and logs["entries"][0]["category"] == "CTL"
    text = json.dumps(await _details(manager_hub, "matter", "matter_logs"))
    for secret in ("3497-011-2332", "20202021", "MT:Y.K9042C00KA0648G00"):
        assert secret not in text
    assert "\\u001b" not in text
    emu.ops.matter = False
    gone = await _details(manager_hub, "zigbee", "matter_logs")
    assert gone["matter_logs"]["unavailable"] == "not_found"


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


async def test_exclusion_reads_the_older_shape(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.faults.reshape_paths["/hub/zwaveExclude/status"] = lambda _data: {"excluding": True}
    seen = await _details(manager_hub, "zigbee", "exclusion")
    assert seen["exclusion"] == {"result": None, "excluding": True}
    assert ("GET", "/hub/zwaveExclude/status") in emu.requests


async def test_pollers_read_the_fixture_shapes(emu: HubEmulator, manager_hub: Hub) -> None:
    """The UI-documented answers, served as they are, read by the blocks."""
    exclusion = load_fixture("radios/zwave_exclude_status").answer
    network = load_fixture("radios/zigbee_network_state").answer
    emu.faults.reshape_paths["/hub/zwaveExclude/status"] = lambda _data: exclusion
    emu.faults.reshape_paths["/hub/zigbeeInfo/status"] = lambda _data: network
    seen = await _details(manager_hub, "zigbee", "exclusion", "zigbee_network")
    assert seen["exclusion"] == {"result": None, "excluding": None}
    assert seen["zigbee_network"] == {
        "network_state": "ONLINE", "online": True, "pan_id": "1A2B",
        "extended_pan_id": "0123456789ABCDEF",
    }  # fmt: skip
