"""Lifecycle tools: reboot (and recovery), shutdown, firmware update check and install.

The tools' part is here: the confirmation and backup gates, the integration recovering
after a reboot, signing in again on a hub with security and the arguments handed on. The
wait for a reboot, the shutdown and the firmware install (also when the hub's answer is
unknown) are tested without hass in tests/managers/test_lifecycle.py, and the parsing of the
hub's recorded update answers in tests/hub/test_lifecycle.py."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.managers import lifecycle
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..ops_util import wait_for_status


async def test_reboot_gate(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    before = len(hub.requests)
    await refused(call_tool, "hub_reboot_hub", {}, "confirmation_required")
    await refused(call_tool, "hub_reboot_hub", {"confirm": True}, "backup_required")
    await refused(call_tool, "hub_shutdown_hub", {"confirm": True}, "backup_required")
    await refused(call_tool, "hub_install_firmware_update", {"confirm": True}, "backup_required")
    assert not [p for m, p in hub.requests[before:] if m == "POST" or "cloud" in p]
    assert hub.status == "running"


async def test_reboot_then_integration_recovers(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.reboot_downtime = 0.4
    hub.reboot_starting_time = 0.3
    hub.mark_backup_now()
    data = await ok(call_tool, "hub_reboot_hub", {"confirm": True})
    assert data["rebooting"] is True and ("POST", "/hub/reboot") in hub.requests
    await wait_for_status(hub, "down")
    down = await refused(call_tool, "hub_list_files", {})
    assert down["error"] in ("hub_unreachable", "hub_bad_response") and down["hint"]
    await wait_for_status(hub, "running", timeout=5)
    listing = await ok(call_tool, "hub_list_files")
    assert listing["files"]
    assert await ok(call_tool, "hub_get_health_report", {"history_points": 0})


async def test_reboot_and_wait(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: wait=true is handed on (the wait itself:
    tests/managers/test_lifecycle.py)."""
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.3
    hub.mark_backup_now()
    lifecycle.POLL_INTERVAL = 0.05  # the manager reads it at each wait
    try:
        data = await ok(call_tool, "hub_reboot_hub", {"confirm": True, "wait": True})
    finally:
        lifecycle.POLL_INTERVAL = 2.0
    assert data["wait"]["back"] is True and hub.status == "running"


async def test_reboot_with_security_relogs_in(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from ..conftest import add_entry

    await add_entry(hass, secure_hub)
    secure_hub.reboot_downtime = 0.2
    secure_hub.reboot_starting_time = 0.1
    secure_hub.mark_backup_now()
    await ok(call_tool, "hub_reboot_hub", {"confirm": True})
    await wait_for_status(secure_hub, "down")
    secure_hub.expire_sessions()  # the hub forgets sessions on reboot
    await wait_for_status(secure_hub, "running", timeout=5)
    assert (await ok(call_tool, "hub_list_backups"))["count"] >= 1


async def test_shutdown(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    """The tool's part: with a fresh backup and confirm=true it runs (what it does:
    tests/managers/test_lifecycle.py)."""
    hub.mark_backup_now()
    data = await ok(call_tool, "hub_shutdown_hub", {"confirm": True})
    assert data["shutting_down"] is True and "power cycle" in data["note"]
    await wait_for_status(hub, "down")


async def test_firmware_check_and_install(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the check's answer and an install with nothing to install (the
    install and its effect: tests/managers/test_lifecycle.py)."""
    data = await ok(call_tool, "hub_check_firmware_update")
    assert data["update_available"] is False and data["current_version"] == hub.state.version
    assert "accountEmails" not in data and "owner@example.com" not in str(data)
    hub.mark_backup_now()
    nothing = await ok(call_tool, "hub_install_firmware_update", {"confirm": True})
    assert nothing["installed"] is False
    assert not [p for _m, p in hub.requests if "updatePlatform" in p]
