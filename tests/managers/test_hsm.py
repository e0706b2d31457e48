"""The Hubitat Safety Monitor manager (``managers/hsm.py``) on its own, no hass: the armed
status and any active alert read from the hub, an HSM command refused before anything is
sent (unknown, not confirmed, no Maker API), arming with the exit delay and the sensors open
right now, an alert and its cancelling, and a hub whose messages cannot be read, over the
emulated hub.

Moved from tests/tools/test_home_location.py (the HSM logic is the manager's; the tools'
argument check of the command, the confirmation gate as the model sees it, the advice that
names hub_get_app and hub_get_hsm_status, and the Maker API hint stay there)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.errors import MakerNotConfiguredError
from custom_components.hubitat_dev_tools.managers.hsm import HSM_COMMANDS
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


def hsm_requests(emu: HubEmulator, before: int) -> list[str]:
    """The HSM command paths (Maker API) asked since ``before``."""
    return [p for _m, p in emu.requests[before:] if "/hsm/" in p]


@pytest.fixture
async def admin_only_hub(emu: HubEmulator) -> AsyncIterator[Hub]:
    """The managers over the emulated hub without the Maker API (admin access only)."""
    url = URL(emu.url)
    async with aiohttp.ClientSession() as session:
        yield Hub(HubClient(session, HubConnection(host=str(url.host), port=url.port)))


async def test_status_arm_alert_and_cancel(emu: HubEmulator, manager_hub: Hub) -> None:
    hsm = manager_hub.hsm
    status = await hsm.status()
    assert status["status"] == "disarmed" and status["active_alert"] is None
    assert status["can_change"] is True and status["commands"] == list(HSM_COMMANDS)
    before = len(emu.requests)
    with pytest.raises(ToolError, match="needs confirm=true") as unconfirmed:
        await hsm.command("armAway", confirm=False)
    assert unconfirmed.value.code == "confirmation_required"
    with pytest.raises(ToolError, match="Unknown HSM command 'armEverything'"):
        await hsm.command("armEverything", confirm=True)
    assert hsm_requests(emu, before) == [] and emu.hsm_status == "disarmed"
    window = emu.find_device("Living Room Window")["id"]
    emu.set_device_attribute(window, "contact", "open")
    data = await hsm.command("armAway", confirm=True)
    assert data["status"] == "armingAway" and data["previous_status"] == "disarmed"
    assert data["note"] == "HSM is arming (exit delay)."
    assert hsm_requests(emu, before) != []
    # arming says what is open right now, so the owner can close it first
    assert {"device_id": str(window), "label": "Living Room Window", "contact": "open"} in (
        data["open_now"]
    )
    assert "intrusion alert" in data["open_note"]
    await asyncio.sleep(emu.hsm_arming_delay + 0.1)
    assert (await hsm.status())["status"] == "armedAway"
    emu.hsm_alert("intrusion")
    assert (await hsm.status())["active_alert"] == "intrusion"
    cancelled = await hsm.command("cancelAlerts", confirm=True)
    assert "open_now" not in cancelled and "note" not in cancelled
    assert (await hsm.status())["active_alert"] is None


async def test_open_sensors_outside_the_allowed_devices_are_not_named(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    window = str(emu.find_device("Living Room Window")["id"])
    emu.set_device_attribute(int(window), "contact", "open")
    data = await manager_hub.hsm.command(
        "armHome", confirm=True, device_allowed=lambda device_id: device_id != window
    )
    assert data["status"] is not None and data["status"].startswith("arming")
    assert window not in [d["device_id"] for d in data["open_now"]]
    assert "Living Room Window" not in str(data)


async def test_status_survives_an_unexpected_hub_messages(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.faults.fail_paths["/hub/messages"] = 404  # a firmware without it
    data = await manager_hub.hsm.status()
    assert data["status"] is None and data["active_alert"] is None
    emu.faults.fail_paths["/hub/messages"] = 500
    assert (await manager_hub.hsm.status())["status"] is None


async def test_without_the_maker_api_status_reads_and_commands_are_refused(
    emu: HubEmulator, admin_only_hub: Hub
) -> None:
    status = await admin_only_hub.hsm.status()  # works without Maker
    assert status["status"] == "disarmed" and status["can_change"] is False
    before = len(emu.requests)
    with pytest.raises(MakerNotConfiguredError, match="Changing HSM needs") as refused:
        await admin_only_hub.hsm.command("armAway", confirm=True)
    assert refused.value.code == "maker_api_required"
    assert emu.requests[before:] == []
