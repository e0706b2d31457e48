"""The device commands (``managers/devices/commands.py``) on their own, no hass: a batch is
checked entry by entry against each device's declared commands before anything is sent
(quoted numbers repaired and reported, an undeclared command refusing the whole batch), sent
with bounded concurrency with one result per entry (a failure reported on its entry), and,
with the live cache, a device commanded is read from the hub until its event arrives while a
wait after the command resolves on that event, over the emulated hub.

Moved from tests/tools/test_devices.py and tests/tools/test_events_devices.py (sending and
checking commands is the manager's; the tool's argument refusals, batch limit and summary,
the confirmation of a lock, the device allowlist and wait_for stay there)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from custom_components.hubitat_dev_tools.managers.devices import AttributeCondition, CommandEntry
from custom_components.hubitat_dev_tools.managers.devices.commands import BATCH_CONCURRENCY
from custom_components.hubitat_dev_tools.managers.devices.filters import DeviceFilter
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..conftest import a_switch, until
from ..home_util import dev_id, sent
from .events_util import streaming


@pytest.fixture
async def live(manager_hub: Hub) -> AsyncIterator[StateCache]:
    """The manager hub with its live cache running (tests/managers/test_events.py)."""
    async with streaming(manager_hub) as cache:
        yield cache


def other(emu: HubEmulator, device: int) -> str:
    """The switch state ``device`` is not in now."""
    return "off" if emu.device(device)["attributes"]["switch"] == "on" else "on"


async def test_batch_commands(emu: HubEmulator, manager_hub: Hub) -> None:
    commands = manager_hub.devices.commands
    ids = [dev_id(emu, n) for n in ("Kitchen Light", "Porch Light", "Garage Light")]
    entries: list[CommandEntry] = [{"device_id": i, "command": "on"} for i in ids]
    entries.append({"device_id": ids[0], "command": "setLevel", "arguments": ["40"]})
    prepared = await commands.prepare_many(entries, confirm=False)
    results = await commands.execute_many(prepared)
    assert [r["status"] for r in results] == ["sent"] * 4
    assert [r["device_id"] for r in results] == [*ids, ids[0]]
    assert results[3]["repairs"] == ["level: quoted number '40' sent as 40"]
    assert results[3]["arguments"] == [40]
    await asyncio.sleep(0.05)
    assert all(emu.device(i)["attributes"]["switch"] == "on" for i in ids)
    assert emu.device(ids[0])["attributes"]["level"] == 40
    assert emu.max_in_flight_seen <= BATCH_CONCURRENCY == 4


async def test_batch_invalid_entry_sends_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    light = dev_id(emu, "Kitchen Light")
    before = len(emu.requests)
    with pytest.raises(ToolError) as err:
        await manager_hub.devices.commands.prepare_many(
            [
                {"device_id": light, "command": "on"},
                {"device_id": light, "command": "explode"},
            ],
            confirm=False,
        )
    assert "explode" in str(err.value) and "Nothing was sent" in str(err.value)
    assert "1 of 2 batch entries" in str(err.value)
    assert err.value.code == "invalid_request"
    assert sent(emu, before) == []


async def test_batch_partial_failure_is_reported(emu: HubEmulator, manager_hub: Hub) -> None:
    commands = manager_hub.devices.commands
    light, pico = dev_id(emu, "Kitchen Light"), dev_id(emu, "Living Room Pico")
    prepared = await commands.prepare_many(
        [
            {"device_id": light, "command": "on"},
            {"device_id": pico, "command": "push", "arguments": [99]},
        ],
        confirm=False,
    )
    results = await commands.execute_many(prepared)
    assert results[0]["status"] == "sent"
    failed = results[1]
    assert failed["status"] == "failed" and failed["error"] == "hub_bad_response"
    assert failed["label"] == "Living Room Pico" and failed["message"]


async def test_command_then_wait_resolves_on_the_event(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    devices = manager_hub.devices
    device = a_switch(emu)
    new = other(emu, device)
    before = len(emu.requests)
    prepared = await devices.commands.prepare(str(device), new, None, confirm=True)
    await devices.commands.execute(prepared)
    wait = AttributeCondition("eq", [new])
    data = await devices.waits.wait_attribute([str(device)], "switch", wait, timeout_ms=5000)
    assert data["matched"] is True
    asked = [p for _m, p in emu.requests[before:]]
    assert not [p for p in asked if p.startswith("/hub2/devicesList")], asked
    assert live.devices[str(device)].states["switch"] == new


async def test_read_right_after_our_command_is_exact(
    emu: HubEmulator, manager_hub: Hub, live: StateCache
) -> None:
    """After our own command, reads of that device go to the hub until its event arrives."""
    devices = manager_hub.devices
    device = a_switch(emu)
    new = other(emu, device)
    emu.command_delay = 0.0
    await devices.commands.execute(
        await devices.commands.prepare(str(device), new, None, confirm=False)
    )
    assert live.is_dirty(str(device))
    assert await devices.read_attribute([str(device)], "switch") == {str(device): new}
    (listed,) = await devices.list_devices(DeviceFilter(text=str(device)))
    assert listed.states["switch"] == new
    # once the event arrived, reads are back on the cache with no hub request
    await until(lambda: not live.is_dirty(str(device)))
    before = len(emu.requests)
    (again,) = await devices.list_devices(DeviceFilter(text=str(device)))
    assert again.states["switch"] == new
    assert len(emu.requests) == before
