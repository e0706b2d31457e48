"""Radio operations of issue 17 as the model calls them: S2 inclusion prompts, SmartStart,
one-node repair, node replace, statistics, region, the Zigbee keep-alive ping.

The tools' part is here: the PIN and the DSK kept out of the answer, the audit trail and the
logs, the device allowlist, the region list the tool takes, and the notes and hints that name
the next tool. The logic is tested without hass: the S2 prompts, SmartStart, the arguments
each operation takes and the ping in tests/managers/test_radio_zwave.py, one-node repair,
node replace, statistics, the antenna test and the C-5 refusal in
tests/managers/test_radios.py, and the region change in tests/managers/test_radio_settings.py."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.managers.radio_zwave import smartstart_id
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused

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
    """The PIN is nowhere the tool call leaves a trace (the S2 exchange itself:
    tests/managers/test_radio_zwave.py)."""
    caplog.set_level(logging.DEBUG)
    rs = hub.ops.radio_state
    rs.s2_device = True
    # nothing pending yet: refused, with the hint that names the read to follow it
    early = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "s2_grant_keys"}
    )
    assert "include=[inclusion]" in early["hint"]
    started = await zwave(call_tool, "inclusion_start")
    assert "include=[inclusion]" in started["note"]
    seen = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zwave", "include": ["inclusion"]}
    )
    assert seen["inclusion"]["waiting_for"] == "s2_keys"
    granted = await zwave(call_tool, "s2_grant_keys")
    assert granted["inclusion"]["waiting_for"] == "s2_pin"
    done = await zwave(call_tool, "s2_enter_pin", dsk_pin=PIN)
    assert done["inclusion"]["waiting_for"] is None
    assert rs.s2_result == "S2 Access Control"
    # the PIN is nowhere: not in the answer, the audit trail or the logs
    assert PIN not in json.dumps(done)
    assert PIN not in audit_text(hass)
    assert PIN not in caplog.text


async def test_smartstart_list_and_delete(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """No DSK in the answer or the audit trail, and the hint for an unknown entry (the list
    and the delete: tests/managers/test_radio_zwave.py)."""
    data = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zwave", "include": ["smartstart"]}
    )
    pending = data["smartstart"]["entries"][0]
    dsk = hub.ops.radio_state.smartstart[0]["dsk"]
    assert pending["id"] == smartstart_id(dsk)
    assert dsk[:5] not in json.dumps(data) and dsk[-5:] not in json.dumps(data)
    missing = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "smartstart_delete", "smartstart_id": "nothere"},
    )
    assert "include=[smartstart]" in missing["hint"]
    gone = await zwave(call_tool, "smartstart_delete", smartstart_id=pending["id"])
    assert gone["deleted"] is True
    assert [e["nodeName"] for e in hub.ops.radio_state.smartstart] == ["Hall Dimmer"]
    assert dsk not in audit_text(hass)


async def test_node_repair_replace_and_stats(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The notes that name the next call (the operations: tests/managers/test_radios.py)."""
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    failed = details["zwave"]["failed_nodes"][0]["node_id"]
    nodes = details["zwave"]["nodes"]
    working = next(n["nodeId"] for n in nodes if n["nodeId"] != failed and n.get("listening"))
    repair = await zwave(call_tool, "node_repair", node_id=working)
    assert "hub_get_zwave_repair_status" in repair["note"]
    replace = await zwave(call_tool, "node_replace", node_id=failed)
    assert replace["replace"]["running"] is True and "include=[node_replace]" in replace["note"]
    await zwave(call_tool, "node_replace_stop")
    stats = await zwave(call_tool, "stats_refresh")
    assert "hub_get_radio_details" in stats["note"]


async def test_zwave_region_change(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The region list the tool takes, and the answer (what is sent:
    tests/managers/test_radio_settings.py)."""
    hub.mark_backup_now()
    data = await ok(
        call_tool, "hub_update_radio_settings", {"radio": "zwave", "region": "EU", "confirm": True}
    )
    assert data["settings"] == {"region": "EU"} and hub.ops.zwave_region == "EU"
    start = len(hub.requests)
    await refused(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zwave", "region": "XX", "confirm": True},
        "invalid_arguments",
    )
    assert hub.requests[start:] == []


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
