"""The radio firmware manager (``managers/radio_firmware.py``, through the radio manager's
``install_firmware``, ``details`` include=firmware, ``radio_action`` firmware_abort and
``update_settings`` reset) on its own, no hass: what the hub offers is read first (an update
it says is needed or available, a node, file and target its updater lists) and anything
else refused before a request is sent; a File Manager file put in the updater's folder
first; a device's flash followed to done, failed or aborted; the Z-Wave radio's update to
its reboot stage; the Zigbee radio's three steps as a background job (the radio left off
when the flash fails); radio resets read back, over the emulated hub and the recorded hub
answers.

Moved from tests/tools/test_radio_firmware.py (the install, status and reset logic is the
manager's; the tools' confirmation gate, the device allowlist, the advice naming
hub_get_radio_details, hub_call_radio_action, hub_reboot_hub and hub_update_radio_settings,
and one call of each tool stay there)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.radio_firmware import DEVICE_FIRMWARE_DONE
from custom_components.hubitat_dev_tools.managers import radio_firmware
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..helpers.radio_firmware import FILE


def posts(emu: HubEmulator, before: int) -> list[str]:
    """The POST requests the hub received since ``before``."""
    return [p for m, p in emu.requests[before:] if m == "POST"]


async def firmware_status(
    manager_hub: Hub, radio: str = "zwave", node_id: int | None = None
) -> dict[str, Any]:
    """The firmware block of the radio details, as hub_get_radio_details include=[firmware]
    reads it."""
    data = await manager_hub.radios.details(radio, node_id, False, 50, include=("firmware",))
    block: dict[str, Any] = data["firmware"]
    return block


async def a_flashable_node(manager_hub: Hub) -> int:
    devices = (await firmware_status(manager_hub))["devices"]
    return int(devices[0]["node_id"])


async def install(
    manager_hub: Hub,
    radio: str,
    node_id: int | None = None,
    file_name: str | None = None,
    target: int | None = None,
) -> dict[str, Any]:
    return await manager_hub.radios.install_firmware(radio, node_id, file_name, target)


async def wait_for_device_flash(emu: HubEmulator, node: int) -> None:
    for _ in range(100):
        if emu.ops.radio_state.firmware_jobs[node]["stage"] in DEVICE_FIRMWARE_DONE:
            break
        await asyncio.sleep(0.02)


async def test_device_firmware_install_progress_and_abort(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    status = await firmware_status(manager_hub)
    assert status["files"] == [FILE] and status["zwave_radio"]["update_needed"] is False
    node = await a_flashable_node(manager_hub)
    start = len(emu.requests)
    with pytest.raises(ToolError, match="No firmware file"):
        await install(manager_hub, "zwave", node, "missing.gbl")
    with pytest.raises(ToolError, match="not offered"):
        await install(manager_hub, "zwave", node, FILE, target=3)
    with pytest.raises(ToolError, match="needs file_name"):
        await install(manager_hub, "zwave", node)
    with pytest.raises(ToolError, match="go with node_id"):
        await install(manager_hub, "zwave", None, FILE)
    with pytest.raises(ToolError, match="Z-Wave only"):
        await install(manager_hub, "zigbee", node, FILE)
    assert posts(emu, start) == []  # nothing was started
    emu.ops.radio_state.firmware_step = 0.2
    data = await install(manager_hub, "zwave", node, FILE)
    assert data["target"] == 0 and data["progress"]["stage"] == "UPDATING"
    assert data["node_id"] == node and data["file_name"] == FILE
    assert data["uploaded_from_file_manager"] is False
    assert "brick" in data["warning"]
    progress = (await firmware_status(manager_hub, node_id=node))["progress"]
    assert progress["stage"] == "UPDATING"
    # a second flash of the same node while one runs is refused
    before = len(emu.requests)
    with pytest.raises(ToolError, match="is running"):
        await install(manager_hub, "zwave", node, FILE)
    assert posts(emu, before) == []
    aborted = await manager_hub.radios.radio_action("zwave", "firmware_abort", node, None)
    assert aborted["status"] == "Firmware update aborted"
    assert emu.ops.radio_state.firmware_jobs[node]["stage"] == "ABORTED"


async def test_device_firmware_from_a_file_manager_file(emu: HubEmulator, manager_hub: Hub) -> None:
    """A file in the File Manager's root is put in the updater's firmware folder first (the
    hub UI's firmware file manager is the File Manager on that folder), then flashed."""
    node = await a_flashable_node(manager_hub)
    emu.files.write("plug-3.10.gbl", b"GBL" + bytes(2048))
    data = await install(manager_hub, "zwave", node, "plug-3.10.gbl")
    assert data["uploaded_from_file_manager"] is True
    assert data["progress"]["stage"] == "UPDATING"
    assert emu.files.read("plug-3.10.gbl", "firmware") == b"GBL" + bytes(2048)
    assert ("POST", "/hub/fileManager/upload/firmware") in emu.requests
    assert "plug-3.10.gbl" in (await firmware_status(manager_hub))["files"]
    # a name in neither place is refused before anything is uploaded or started
    start = len(emu.requests)
    with pytest.raises(ToolError, match="File Manager") as gone:
        await install(manager_hub, "zwave", node, "gone.gbl")
    assert gone.value.subject == "firmware_file"
    assert posts(emu, start) == []


async def test_device_firmware_runs_to_done_or_failed(emu: HubEmulator, manager_hub: Hub) -> None:
    node = await a_flashable_node(manager_hub)
    await install(manager_hub, "zwave", node, FILE)
    await wait_for_device_flash(emu, node)
    done = await firmware_status(manager_hub, node_id=node)
    assert done["progress"]["stage"] == "DONE"
    emu.ops.radio_state.device_firmware_fail_at = 30
    await install(manager_hub, "zwave", node, FILE)
    await wait_for_device_flash(emu, node)
    assert emu.ops.radio_state.firmware_jobs[node]["stage"] == "FAILED"


async def test_zwave_radio_firmware(emu: HubEmulator, manager_hub: Hub) -> None:
    before = len(emu.requests)
    with pytest.raises(ToolError, match="offers no Z-Wave radio firmware update"):
        await install(manager_hub, "zwave")
    assert posts(emu, before) == []
    emu.ops.radio_state.zwave_update_needed = True
    data = await install(manager_hub, "zwave")
    assert data["stage"] == "UPDATING" and data["radio"] == "zwave"
    assert data["note"] == "10-15 minutes." and "brick" in data["warning"]  # not Z-Wave JS
    for _ in range(100):
        if emu.ops.radio_state.zwave_update_stage == "REBOOT":
            break
        await asyncio.sleep(0.02)
    status = await firmware_status(manager_hub)
    assert status["zwave_radio"]["stage"] == "REBOOT"
    assert status["zwave_radio"]["note"] == "The hub must reboot to go on."


async def test_zigbee_radio_firmware_job(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(radio_firmware, "STEP_PAUSE_S", 0.01)
    before = len(emu.requests)
    with pytest.raises(ToolError, match="offers no Zigbee firmware update"):
        await install(manager_hub, "zigbee")
    assert posts(emu, before) == []
    rs = emu.ops.radio_state
    rs.zigbee_update_available = True
    data = await install(manager_hub, "zigbee")
    assert data["job"]["stage"] == "done" and rs.zigbee_firmware == "7.4.1"
    assert data["summary"] == "Zigbee radio firmware update: done" and "note" not in data
    assert emu.ops.radio_enabled["zigbee"] is True  # switched off for the flash, on again
    status = await firmware_status(manager_hub, "zigbee")
    assert status["zigbee_radio"]["job"]["stage"] == "done"
    # a failed flash: reported, Zigbee left off (as the hub UI leaves it)
    rs.zigbee_update_available, rs.zigbee_firmware_fails = True, True
    failed = await install(manager_hub, "zigbee")
    assert failed["job"]["stage"] == "failed" and "left off" in failed["job"]["note"]
    assert "update the firmware" in failed["job"]["error"]
    assert emu.ops.radio_enabled.get("zigbee") is False
    # with Zigbee off the hub updates nothing: refused, nothing sent
    before = len(emu.requests)
    with pytest.raises(ToolError, match="Zigbee is off"):
        await install(manager_hub, "zigbee")
    assert posts(emu, before) == []


async def test_radio_reset(emu: HubEmulator, manager_hub: Hub) -> None:
    radios = manager_hub.radios
    before = len(emu.requests)
    with pytest.raises(ToolError, match="reset goes alone"):
        await radios.update_settings("zigbee", {"reset": True, "channel": 15})
    assert posts(emu, before) == [] and emu.ops.radio_state.resets == []
    zb = await radios.update_settings("zigbee", {"reset": True})
    assert zb["applied"] is True and "paired again" in zb["warning"]
    assert zb["summary"] == "zigbee radio reset"
    zw = await radios.update_settings("zwave", {"reset": True})
    assert zw["applied"] is True
    nodes = (await radios.details("zwave", None, False, 50))["zwave"]["nodes"]
    assert [n["nodeId"] for n in nodes] == [1]
    emu.ops.radio_state.reset_ignored = True
    mt = await radios.update_settings("matter", {"reset": True})
    assert mt["applied"] is False and "do not reset again" in mt["note"]
    assert emu.ops.radio_state.resets == [
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
