"""Radio and device firmware, and radio resets (issue 17), with their fixtures."""

from __future__ import annotations

import asyncio
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.radio_firmware import DEVICE_FIRMWARE_DONE
from custom_components.hubitat_dev_tools.managers import radio_firmware
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..contract import load_fixture

FILE = "zw-dimmer-2.04.gbl"


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


async def test_device_firmware_install_progress_and_abort(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    gate = await refused(call_tool, "hub_install_radio_firmware", {"radio": "zwave"})
    assert gate["error"] == "confirmation_required"
    hub.mark_backup_now()
    status = await firmware_status(call_tool)
    assert status["files"] == [FILE] and status["zwave_radio"]["update_needed"] is False
    node = await a_flashable_node(call_tool)
    start = len(hub.requests)
    await refused(
        call_tool,
        "hub_install_radio_firmware",
        {"radio": "zwave", "node_id": node, "file_name": "missing.gbl", "confirm": True},
    )
    await refused(
        call_tool,
        "hub_install_radio_firmware",
        {"radio": "zwave", "node_id": node, "file_name": FILE, "target": 3, "confirm": True},
    )
    assert not [p for m, p in hub.requests[start:] if m == "POST"]  # nothing was started
    hub.ops.radio_state.firmware_step = 0.2
    data = await install(call_tool, radio="zwave", node_id=node, file_name=FILE)
    assert data["target"] == 0 and data["progress"]["stage"] == "UPDATING"
    assert "brick" in data["warning"]
    progress = (await firmware_status(call_tool, node_id=node))["progress"]
    assert progress["stage"] == "UPDATING"
    aborted = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "firmware_abort", "node_id": node},
    )
    assert aborted["status"] == "Firmware update aborted"
    assert hub.ops.radio_state.firmware_jobs[node]["stage"] == "ABORTED"


async def test_device_firmware_from_a_file_manager_file(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A file in the File Manager's root is put in the updater's firmware folder first (the
    hub UI's firmware file manager is the File Manager on that folder), then flashed."""
    hub.mark_backup_now()
    node = await a_flashable_node(call_tool)
    hub.files.write("plug-3.10.gbl", b"GBL" + bytes(2048))
    data = await install(call_tool, radio="zwave", node_id=node, file_name="plug-3.10.gbl")
    assert data["uploaded_from_file_manager"] is True
    assert data["progress"]["stage"] == "UPDATING"
    assert hub.files.read("plug-3.10.gbl", "firmware") == b"GBL" + bytes(2048)
    assert ("POST", "/hub/fileManager/upload/firmware") in hub.requests
    assert "plug-3.10.gbl" in (await firmware_status(call_tool))["files"]
    # a name in neither place is refused before anything is uploaded or started
    start = len(hub.requests)
    gone = await refused(
        call_tool,
        "hub_install_radio_firmware",
        {"radio": "zwave", "node_id": node, "file_name": "gone.gbl", "confirm": True},
    )
    assert "File Manager" in gone["message"]
    assert not [p for m, p in hub.requests[start:] if m == "POST"]


async def test_device_firmware_runs_to_done_or_failed(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    node = await a_flashable_node(call_tool)
    await install(call_tool, radio="zwave", node_id=node, file_name=FILE)
    for _ in range(100):
        if hub.ops.radio_state.firmware_jobs[node]["stage"] in DEVICE_FIRMWARE_DONE:
            break
        await asyncio.sleep(0.02)
    assert (await firmware_status(call_tool, node_id=node))["progress"]["stage"] == "DONE"
    hub.ops.radio_state.device_firmware_fail_at = 30
    await install(call_tool, radio="zwave", node_id=node, file_name=FILE)
    for _ in range(100):
        if hub.ops.radio_state.firmware_jobs[node]["stage"] in DEVICE_FIRMWARE_DONE:
            break
        await asyncio.sleep(0.02)
    assert hub.ops.radio_state.firmware_jobs[node]["stage"] == "FAILED"


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
    hub.mark_backup_now()
    await refused(call_tool, "hub_install_radio_firmware", {"radio": "zwave", "confirm": True})
    hub.ops.radio_state.zwave_update_needed = True
    data = await install(call_tool, radio="zwave")
    assert data["stage"] == "UPDATING" and "REBOOT" in data["note"]
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
    monkeypatch.setattr(radio_firmware, "STEP_PAUSE_S", 0.01)
    hub.mark_backup_now()
    await refused(call_tool, "hub_install_radio_firmware", {"radio": "zigbee", "confirm": True})
    rs = hub.ops.radio_state
    rs.zigbee_update_available = True
    data = await install(call_tool, radio="zigbee")
    assert data["job"]["stage"] == "done" and rs.zigbee_firmware == "7.4.1"
    assert hub.ops.radio_enabled["zigbee"] is True  # switched off for the flash, on again
    status = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zigbee", "include": ["firmware"]}
    )
    assert status["firmware"]["zigbee_radio"]["job"]["stage"] == "done"
    # a failed flash: reported, Zigbee left off (as the hub UI leaves it)
    rs.zigbee_update_available, rs.zigbee_firmware_fails = True, True
    failed = await install(call_tool, radio="zigbee")
    assert failed["job"]["stage"] == "failed" and "left off" in failed["job"]["note"]
    assert hub.ops.radio_enabled["zigbee"] is False


async def test_radio_reset(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    hub.mark_backup_now()
    await refused(
        call_tool,
        "hub_update_radio_settings",
        {"radio": "zigbee", "reset": True, "channel": 15, "confirm": True},
    )
    zb = await ok(
        call_tool, "hub_update_radio_settings", {"radio": "zigbee", "reset": True, "confirm": True}
    )
    assert zb["applied"] is True and "paired again" in zb["warning"]
    zw = await ok(
        call_tool, "hub_update_radio_settings", {"radio": "zwave", "reset": True, "confirm": True}
    )
    assert zw["applied"] is True
    nodes = (await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"}))["zwave"]["nodes"]
    assert [n["nodeId"] for n in nodes] == [1]
    hub.ops.radio_state.reset_ignored = True
    mt = await ok(
        call_tool, "hub_update_radio_settings", {"radio": "matter", "reset": True, "confirm": True}
    )
    assert mt["applied"] is False and "do not reset again" in mt["note"]
    assert hub.ops.radio_state.resets == [
        "/hub/zigbee/reset",
        "/hub/zwave/resetJson",
        "/hub/matter/reset",
    ]


def test_firmware_fixtures_feed_the_parsers() -> None:
    progress = load_fixture("radios/device_firmware_progress").answer
    assert progress["success"] and progress["progress"]["stage"] not in DEVICE_FIRMWARE_DONE
    assert load_fixture("radios/zwave_radio_firmware_status").answer["stage"] == "IDLE"
    assert load_fixture("radios/device_firmware_devices").answer["devices"][0]["nodeId"]
    assert load_fixture("radios/device_firmware_files").answer["files"]
