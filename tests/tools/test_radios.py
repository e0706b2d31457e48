"""Radio tools: details, Zigbee and Matter operations, channel scans and the radio settings,
as the model calls them (the Z-Wave repair, node actions and removal: ``test_radios_zwave.py``;
S2, SmartStart, the ping and the region: ``test_radios_more.py``).

The tools' part is here: their argument checks, the confirm and backup gate, the notes and
hints that name the next tool, a manager's refusal and the hub's error as the model sees them,
the call budget a channel scan waits within, the scan cancelled when the config entry unloads
and a scan on a hub with its login security on. The radio logic is tested without hass: the
details, operations and refusals in tests/managers/test_radios.py, the settings in
tests/managers/test_radio_settings.py and the channel scan job in
tests/managers/test_radio_scan.py."""

from __future__ import annotations

import asyncio

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, refused


async def test_radio_details_all(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answer (what the details hold: tests/managers/test_radios.py)."""
    data = await ok(call_tool, "hub_get_radio_details")
    assert set(data) == {"zwave", "zigbee", "matter"}
    zw, zb, mt = data["zwave"], data["zigbee"], data["matter"]
    failed_node = next(iter(hub.ops.failed_zwave_nodes))
    assert zw["nodes"][0]["nodeId"] == failed_node  # problem nodes first
    # the device's own last activity reaches the answer (the tool's hub wires it)
    assert "newer truth" in zw["nodes"][0]["last_heard_note"]
    assert zb["channel"] == 20 and mt["available"] is True


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
    await refused(call_tool, "hub_get_radio_details", {"radio": "wifi"}, "invalid_arguments")


async def test_radio_action_validation_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's own argument check, and a manager's refusal as the model sees it (every
    refusal of the manager: tests/managers/test_radios.py)."""
    start = len(hub.requests)
    await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "launch"},
        "invalid_arguments",
    )  # fmt: skip
    no_node = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_refresh", "node_id": 999},
        "invalid_request",
    )
    assert "hub_get_radio_details radio=zwave" in no_node["hint"]
    # only reads of the radio lists went out: no operation endpoint was called
    sent = {p.split("?")[0] for _m, p in hub.requests[start:]}
    assert sent <= {"/hub/zwaveDetails/json", "/hub/matterDetails/json"}, sent


async def test_zigbee_and_matter_actions(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The answers and notes the model sees (what is sent: tests/managers/test_radios.py and
    tests/managers/test_radio_scan.py)."""
    scan = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zigbee", "action": "channel_scan"}
    )
    assert [r["channel"] for r in scan["channel_scan"]] == [15, 20, 25]
    rebuilt = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zigbee", "action": "rebuild_network"}
    )
    assert "routes are being rebuilt" in rebuilt["note"]
    paired = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "matter", "action": "pair", "setup_code": "3497-011-2332"},
    )
    assert paired["action"] == "pair" and "include=[matter_pairing]" in paired["note"]
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
    # the hub's 404 reaches the model with the manager's hint
    result = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "matter", "action": "pair", "setup_code": "34970112332"},
    )
    assert result["error"] == "not_found" and "C-8" in result["hint"]


async def test_update_radio_settings(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The confirm and backup gate, the answer and the reboot advice (the settings sent and
    read back: tests/managers/test_radio_settings.py)."""
    start = len(hub.requests)
    gate = await refused(call_tool, "hub_update_radio_settings", {"radio": "zigbee", "channel": 25})
    assert gate["error"] == "confirmation_required"
    assert not any("update" in p.lower() for _m, p in hub.requests[start:])
    hub.mark_backup_now()
    data = await ok(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zigbee", "channel": 25, "inactive_device_ping": False, "confirm": True},
    )
    assert data["settings"] == {"channel": 25, "inactive_device_ping": False}
    assert "not_applied" not in data and "channel" in data["note"]
    assert hub.ops.zigbee_channel == 25
    off = await ok(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "matter", "enabled": False, "confirm": True},
    )
    assert hub.ops.radio_enabled["matter"] is False and "reboot" in off["note"]
    assert "hub_reboot_hub" in off["note"]


async def test_update_radio_settings_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's own argument checks, and a manager's refusal as the model sees it (every
    refusal of the manager: tests/managers/test_radio_settings.py)."""
    hub.mark_backup_now()
    start = len(hub.requests)
    for args, code in (
        ({"radio": "zigbee", "power_level": 25}, "invalid_request"),  # not in powerLevels
        ({"radio": "zigbee", "channel": 30}, "invalid_arguments"),
        ({"radio": "zwave", "long_range_channel": 2}, "invalid_arguments"),
    ):
        await refused(call_tool, "hub_update_radio_settings", {**args, "confirm": True}, code)
    sent = {p.split("?")[0] for _m, p in hub.requests[start:]}
    assert sent <= {"/hub/zwaveDetails/json", "/hub/zigbeeDetails/json", "/hub2/localBackups"}, sent


async def test_channel_scan_waits_within_the_call_budget(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tool's call budget is the scan's deadline (the job itself:
    tests/managers/test_radio_scan.py)."""
    from custom_components.hubitat_dev_tools.tools import base

    monkeypatch.setattr(base, "CALL_BUDGET_S", 4.0)  # leaves the scan 2 s
    # Longer than the call may wait: it answers "running", and the next call gets the
    # result of that same scan (one request to the hub in all, never retried).
    hub.ops.channel_scan_s = 2.6
    start = len(hub.requests)
    args = {"radio": "zigbee", "action": "channel_scan"}
    running = await ok(call_tool, "hub_call_radio_action", args)
    assert running["status"] == "running" and running["retry_after_s"] >= 5
    assert "channel_scan" not in running and "retry_after_s" in running["note"]
    await asyncio.sleep(1.0)  # the emulated scan ends
    result = await ok(call_tool, "hub_call_radio_action", args)
    assert result["channel_scan"] and result["started_at"] == running["started_at"]
    assert [p for _m, p in hub.requests[start:]] == ["/hub/zigbeeChannelScanJson"]


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
