"""Radio and device firmware, and radio resets (issue 17), through the tools: the
confirmation gate, the device allowlist, the answers with their advice naming the next tool,
and a call of hub_install_radio_firmware, hub_call_radio_action (firmware_abort) and
hub_update_radio_settings (reset). What is checked before a flash, the File Manager upload,
the flash run to done or failed, the Zigbee job's steps, each radio's reset read back and
the recorded hub answers are tested without hass in tests/managers/test_radio_firmware.py."""

from __future__ import annotations

import asyncio
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.managers import radio_firmware
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..helpers.radio_firmware import FILE


async def install(call_tool: ToolCaller, **args: Any) -> dict[str, Any]:
    return await ok(call_tool, "hub_install_radio_firmware", {"confirm": True, **args})


async def firmware_status(call_tool: ToolCaller, **args: Any) -> dict[str, Any]:
    data = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zwave", "include": ["firmware"], **args}
    )
    block: dict[str, Any] = data["firmware"]
    return block


async def a_flashable_node(call_tool: ToolCaller) -> int:
    devices = (await firmware_status(call_tool))["devices"]
    return int(devices[0]["node_id"])


async def test_device_firmware_install_and_abort(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the confirmation gate, a refusal as the tool answers it, the answer
    with its advice naming hub_get_radio_details and hub_call_radio_action, and the abort
    through hub_call_radio_action (every refusal, the File Manager upload and the flash run
    to done or failed: tests/managers/test_radio_firmware.py)."""
    gate = await refused(call_tool, "hub_install_radio_firmware", {"radio": "zwave"})
    assert gate["error"] == "confirmation_required"
    hub.mark_backup_now()
    status = await firmware_status(call_tool)
    assert status["files"] == [FILE]
    node = await a_flashable_node(call_tool)
    start = len(hub.requests)
    missing = await refused(
        call_tool,
        "hub_install_radio_firmware",
        {"radio": "zwave", "node_id": node, "file_name": "missing.gbl", "confirm": True},
    )
    assert "missing.gbl" in missing["message"]
    assert not [p for m, p in hub.requests[start:] if m == "POST"]  # nothing was started
    hub.ops.radio_state.firmware_step = 0.2
    data = await install(call_tool, radio="zwave", node_id=node, file_name=FILE)
    assert data["target"] == 0 and data["progress"]["stage"] == "UPDATING"
    assert "brick" in data["warning"]
    assert "hub_get_radio_details" in data["note"] and "firmware_abort" in data["note"]
    progress = (await firmware_status(call_tool, node_id=node))["progress"]
    assert progress["stage"] == "UPDATING"
    aborted = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "firmware_abort", "node_id": node},
    )
    assert aborted["status"] == "Firmware update aborted"
    assert hub.ops.radio_state.firmware_jobs[node]["stage"] == "ABORTED"


async def test_device_firmware_respects_the_allowlist(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, hass: Any
) -> None:
    hub.mark_backup_now()
    node = await a_flashable_node(call_tool)
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: ["999999"]})
    await hass.async_block_till_done()
    data = await refused(
        call_tool,
        "hub_install_radio_firmware",
        {"radio": "zwave", "node_id": node, "file_name": FILE, "confirm": True},
    )
    assert data["error"] == "device_not_allowed"


async def test_zwave_radio_firmware(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's advice: at stage REBOOT reboot with hub_reboot_hub, in the answer and in
    the firmware block of hub_get_radio_details (the update and its refusal:
    tests/managers/test_radio_firmware.py::test_zwave_radio_firmware)."""
    hub.mark_backup_now()
    await refused(call_tool, "hub_install_radio_firmware", {"radio": "zwave", "confirm": True})
    hub.ops.radio_state.zwave_update_needed = True
    data = await install(call_tool, radio="zwave")
    assert data["stage"] == "UPDATING" and "REBOOT" in data["note"]
    assert "hub_reboot_hub" in data["note"]
    for _ in range(100):
        if hub.ops.radio_state.zwave_update_stage == "REBOOT":
            break
        await asyncio.sleep(0.02)
    status = await firmware_status(call_tool)
    assert status["zwave_radio"]["stage"] == "REBOOT"
    assert "hub_reboot_hub" in status["zwave_radio"]["note"]


async def test_zigbee_radio_firmware_job(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, monkeypatch: Any
) -> None:
    """The tool's answer for the Zigbee job, and its advice when the failed flash leaves
    Zigbee off (the job's steps: tests/managers/test_radio_firmware.py)."""
    monkeypatch.setattr(radio_firmware, "STEP_PAUSE_S", 0.01)
    hub.mark_backup_now()
    rs = hub.ops.radio_state
    rs.zigbee_update_available = True
    data = await install(call_tool, radio="zigbee")
    assert data["job"]["stage"] == "done" and rs.zigbee_firmware == "7.4.1"
    status = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zigbee", "include": ["firmware"]}
    )
    assert status["firmware"]["zigbee_radio"]["job"]["stage"] == "done"
    # a failed flash: reported, Zigbee left off, and how to turn it on again
    rs.zigbee_update_available, rs.zigbee_firmware_fails = True, True
    failed = await install(call_tool, radio="zigbee")
    assert failed["job"]["stage"] == "failed" and "left off" in failed["job"]["note"]
    assert "hub_update_radio_settings enabled=true" in failed["job"]["note"]
    assert hub.ops.radio_enabled["zigbee"] is False
    status = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zigbee", "include": ["firmware"]}
    )
    assert "hub_update_radio_settings" in status["firmware"]["zigbee_radio"]["job"]["note"]


async def test_radio_reset(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    """The tool's part: reset=true reaches the manager behind the gate, and reset with
    another setting is refused as the tool answers it (each radio's reset read back:
    tests/managers/test_radio_firmware.py::test_radio_reset)."""
    zb_args = {"radio": "zigbee", "reset": True}
    gate = await refused(call_tool, "hub_update_radio_settings", zb_args)
    assert gate["error"] == "confirmation_required"
    hub.mark_backup_now()
    alone = await refused(
        call_tool, "hub_update_radio_settings", {**zb_args, "channel": 15, "confirm": True}
    )
    assert "reset goes alone" in alone["message"]
    zb = await ok(call_tool, "hub_update_radio_settings", {**zb_args, "confirm": True})
    assert zb["applied"] is True and "paired again" in zb["warning"]
    assert hub.ops.radio_state.resets == ["/hub/zigbee/reset"]
