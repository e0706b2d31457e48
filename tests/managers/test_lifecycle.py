"""The lifecycle manager (``managers/lifecycle.py``) on its own, no hass: a reboot waited on
until the hub runs again, the shutdown, and the firmware update checked and installed (an
install decided by the hub's own status when its answer is unknown), over the emulated hub.

Moved from tests/tools/test_lifecycle.py (the lifecycle logic is the manager's; the tools'
confirmation and backup gates, the integration recovering after a reboot, signing in again
on a hub with security, and the parsing of the hub's recorded answers stay there)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from aiohttp import web

from custom_components.hubitat_dev_tools.hub.errors import HubRefusedError
from custom_components.hubitat_dev_tools.managers import lifecycle
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..ops_util import wait_for_status

WAIT_S = 45.0  # the tools' longest wait


def deadline() -> float:
    return time.monotonic() + WAIT_S


def replace_handler(emu: HubEmulator, path: str, handler: Any) -> None:
    """Answer ``path`` with ``handler`` instead of the emulator's own route."""
    for resource in list(emu.app.router.resources()):
        if resource.canonical == path:
            for route in resource:
                route._handler = handler


async def test_reboot_and_wait(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.3
    monkeypatch.setattr(lifecycle, "POLL_INTERVAL", 0.05)  # read at each wait
    data = await manager_hub.lifecycle.reboot(True, deadline())
    assert data["rebooting"] is True and ("POST", "/hub/reboot") in emu.requests
    assert data["wait"]["back"] is True and data["wait"]["firmware"]
    assert data["wait"]["status"] == "running"
    assert "back after" in data["summary"] and emu.status == "running"


async def test_a_reboot_the_hub_did_not_make_is_not_reported_back(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hub says yes but keeps running (its uptime of days, never away): the wait runs out
    and says the hub is still rebooting, not that it is back."""

    async def says_yes(request: web.Request) -> web.StreamResponse:
        return emu.text('{"success": true}')

    replace_handler(emu, "/hub/reboot", says_yes)
    monkeypatch.setattr(lifecycle, "POLL_INTERVAL", 0.05)
    data = await manager_hub.lifecycle.reboot(True, time.monotonic() + 0.5)
    assert data["wait"]["back"] is False and data["wait"]["status"] == "running"
    assert data["wait"]["pending"] == lifecycle.STILL_REBOOTING
    assert "still rebooting" in data["summary"] and emu.status == "running"


async def test_shutdown(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await manager_hub.lifecycle.shutdown()
    assert data["shutting_down"] is True
    assert "power cycle" in data["note"] and ("POST", "/hub/shutdown") in emu.requests
    await wait_for_status(emu, "down")
    assert emu.ops.shutdown is True


async def test_firmware_check_and_install(emu: HubEmulator, manager_hub: Hub) -> None:
    manager = manager_hub.lifecycle
    data = await manager.check_update()
    assert data["update_available"] is False and data["current_version"] == emu.state.version
    assert data["available_version"] is None
    assert "accountEmails" not in data and "owner@example.com" not in str(data)
    nothing = await manager.install_update(False, deadline())
    assert nothing["installed"] is False and "Nothing was done" in nothing["summary"]
    assert not [p for _m, p in emu.requests if "updatePlatform" in p]
    emu.ops.update_version = "2.5.1.100"
    emu.reboot_downtime = 0.2
    emu.reboot_starting_time = 0.1
    data = await manager.check_update()
    assert data["update_available"] is True and data["available_version"] == "2.5.1.100"
    done = await manager.install_update(False, deadline())
    assert done["installed"] is True and done["to_version"] == "2.5.1.100"
    assert done["from_version"] == data["current_version"]
    await wait_for_status(emu, "down")
    await wait_for_status(emu, "running", timeout=5)
    after = await manager.check_update()
    assert after["current_version"] == "2.5.1.100" and after["update_available"] is False


async def test_unknown_update_answer_is_checked_by_its_effect(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    # The hub answers something unknown ("ok"): the install counts only if the hub's
    # checkUpdateStatus shows it under way.
    emu.ops.update_version = "2.5.1.100"

    async def says_ok(request: web.Request) -> web.StreamResponse:
        emu.ops.update_status = "DOWNLOAD_STARTED"
        return emu.text("ok")

    replace_handler(emu, "/hub/cloud/updatePlatform", says_ok)
    done = await manager_hub.lifecycle.install_update(False, deadline())
    assert done["installed"] is True

    async def says_ok_does_nothing(request: web.Request) -> web.StreamResponse:
        emu.ops.update_status = "IDLE"
        return emu.text("ok")

    replace_handler(emu, "/hub/cloud/updatePlatform", says_ok_does_nothing)
    with pytest.raises(HubRefusedError, match="did not start the firmware update") as failed:
        await manager_hub.lifecycle.install_update(False, deadline())
    assert failed.value.subject == "firmware_install"
    assert failed.value.hint == "Check the hub's cloud connection and retry."
