"""The hub information manager (``managers/hub_info.py``) on its own, no hass: the hub's
information with its network, and without it when the hub does not answer that page; a
time-zone change (a zone the hub does not list refused before anything is sent; the change
saved, read back, the connection's zone updated and the reboot it needs noted; a hub that
reboots before it can be read back answered as rebooting); and the dark mode, sent alone
through its own setter (no location save), with or beside a location change.

Moved from tests/tools/test_hub_ops.py (test_time_zone_is_destructive_and_verified and
test_dark_mode_is_sent_alone: what is sent, verified and answered is the manager's; the
settings tool's confirmation and backup gates on a time-zone change, its answers and the
advice naming hub_reboot_hub and hub_get_info stay there, with one call of hub_get_info).
The other settings (the wholesale location save) are tested in
tests/managers/test_hub_settings.py."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import HUB_TZ_NAME

PARIS = "Europe/Paris"


def posts(emu: HubEmulator, before: int) -> list[str]:
    """The POST requests the hub received since ``before``."""
    return [p for m, p in emu.requests[before:] if m == "POST"]


async def test_info_shows_the_network(emu: HubEmulator, manager_hub: Hub) -> None:
    info = await manager_hub.info.info()
    assert info["network"]["mode"] == "dhcp"
    assert info["network"]["ethernet_address"] == "127.0.0.1"
    emu.faults.fail_paths["/hub2/networkConfiguration"] = 404
    again = await manager_hub.info.info()
    assert again["network"] is None
    assert again["name"] == info["name"]  # the rest of the answer is still there


async def test_a_time_zone_the_hub_does_not_list_is_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    old = emu.state.time_zone
    start = len(emu.requests)
    with pytest.raises(ToolError, match="not one of the hub's time zones") as refused:
        await manager_hub.info.update_settings({"timeZone": "Mars/Base"})
    assert "Nothing was sent" in str(refused.value) and "IANA" in str(refused.value.hint)
    assert posts(emu, start) == [] and emu.state.time_zone == old
    assert emu.status == "running"


async def test_time_zone_change_is_verified_and_notes_the_reboot(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hub that keeps answering after the save (the emulated hub's reboot, asked by the
    save, is recorded instead of run): the zone is read back and the reboot noted."""
    reboots: list[float | None] = []

    def reboot_later(
        downtime: float | None = None, *, before: Callable[[], None] | None = None
    ) -> None:
        reboots.append(downtime)

    monkeypatch.setattr(emu.server, "reboot_soon", reboot_later)
    old = emu.state.time_zone or HUB_TZ_NAME
    assert old != PARIS
    start = len(emu.requests)
    data = await manager_hub.info.update_settings({"timeZone": PARIS})
    assert data["changed"] == {"timeZone": {"from": old, "to": PARIS}}
    assert "not_applied" not in data and "rebooting" not in data
    assert "needs a reboot" in data["note_time_zone"] and "reboot it" in data["note_time_zone"]
    assert posts(emu, start) == ["/location/update"] and emu.state.time_zone == PARIS
    assert reboots == [None]  # the hub reboots on a zone change
    assert manager_hub.client.time_zone == ZoneInfo(PARIS)  # values now read in the new zone


async def test_time_zone_change_answers_rebooting_when_the_hub_goes_down(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """The hub reboots before the zone can be read back: the save was accepted, so the
    answer says the hub is rebooting instead of failing."""
    emu.reboot_downtime = 0.3
    emu.faults.delay_paths["/hub/details/json"] = 0.5  # the read-back meets the reboot
    old = emu.state.time_zone or HUB_TZ_NAME
    data = await manager_hub.info.update_settings({"timeZone": PARIS})
    assert data["changed"] == {"timeZone": {"from": old, "to": PARIS}}
    assert data["rebooting"] is True and "hub is rebooting" in data["note"]
    assert "note_time_zone" not in data and emu.state.time_zone == PARIS
    assert emu.status != "running"
    assert str(manager_hub.client.time_zone) == PARIS  # times are read in the new zone
    emu.faults.delay_paths.clear()
    for _ in range(100):  # let the emulated hub come back before the test ends
        if emu.status == "running":
            break
        await asyncio.sleep(0.05)
    assert emu.status == "running"


def dark_mode(emu: HubEmulator) -> bool | None:
    """What the emulated hub's dark mode setter last received (read fresh each time)."""
    return emu.network.dark_mode


async def test_dark_mode_is_sent_alone(emu: HubEmulator, manager_hub: Hub) -> None:
    start = len(emu.requests)
    data = await manager_hub.info.update_settings({}, dark_mode=True)
    assert dark_mode(emu) is True and data["changed"] == {"dark_mode": {"to": True}}
    assert "no way to read it back" in data["dark_mode_note"]
    assert ("GET", "/hub/applyDarkMode/true") in emu.requests[start:]
    assert posts(emu, start) == []  # no location save
    both = await manager_hub.info.update_settings({"zipCode": "10001"}, dark_mode=False)
    assert set(both["changed"]) == {"zipCode", "dark_mode"} and dark_mode(emu) is False
    assert emu.state.zip_code == "10001"
    # a location change the hub already has: only the dark mode is changed, and said so
    again = await manager_hub.info.update_settings({"zipCode": "10001"}, dark_mode=True)
    assert again["changed"] == {"dark_mode": {"to": True}} and "unchanged" not in again
    assert dark_mode(emu) is True
