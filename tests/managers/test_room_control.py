"""The room control manager (``managers/room_control.py``) on its own, no hass: one command
to a room's lights, fans or switches, each device's state read back, toggle deciding per
device, devices that cannot take the command skipped with the reason, and a refused call
sending nothing, over the emulated hub.

Moved from tests/tools/test_room_control.py (the room logic is the manager's; the tool's
argument passing and result, the device allowlist, toggling one device with
hub_call_device_command and the catalog's search sentences stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.models import DeviceSummary
from custom_components.hubitat_dev_tools.managers.devices import DeviceUpdate
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.room_control import is_fan, of_type
from hubitat_emulator import HubEmulator

from ..home_util import dev_id, sent

WAIT_MS = 2000  # the tool's own bound on reading the states back


def attr(emu: HubEmulator, label: str, name: str) -> Any:
    return emu.find_device(label)["attributes"][name]


def by_label(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["label"]: r for r in data["results"]}


async def room_command(
    manager_hub: Hub,
    room: str,
    command: str,
    arguments: list[Any] | None = None,
    *,
    device_type: str = "lights",
    confirm: bool = False,
) -> dict[str, Any]:
    """The manager's call as the tool makes it, with no device allowlist."""
    return await manager_hub.room_control.call(
        room,
        command,
        arguments,
        device_type=device_type,
        confirm=confirm,
        allowed=None,
        wait_ms=WAIT_MS,
    )


async def test_room_lights_on_off_and_level(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await room_command(manager_hub, "kitchen", "on")
    results = by_label(data)
    assert set(results) == {"Kitchen Light", "Kitchen Island Pendants"}  # no outlet, no lock
    assert all(r["status"] == "ok" and r["state"] == {"switch": "on"} for r in results.values())
    assert attr(emu, "Kitchen Island Pendants", "switch") == "on"
    assert attr(emu, "Coffee Maker", "switch") == "off"
    assert data["counts"] == {"ok": 2} and "2 confirmed" in data["summary"]
    assert data["room"] == "Kitchen" and data["device_type"] == "lights"
    data = await room_command(manager_hub, "Kitchen", "setLevel", ["35"])
    assert all(r["state"] == {"level": 35} for r in data["results"])
    assert all(r["repairs"] for r in data["results"])  # the quoted number, repaired
    data = await room_command(manager_hub, "Kitchen", "setColorTemperature", [2700])
    results = by_label(data)
    assert results["Kitchen Light"] == {
        "device_id": dev_id(emu, "Kitchen Light"),
        "label": "Kitchen Light",
        "status": "skipped",
        "reason": "does not declare setColorTemperature",
    }
    assert results["Kitchen Island Pendants"]["status"] == "ok"
    assert attr(emu, "Kitchen Island Pendants", "colorTemperature") == 2700
    await room_command(manager_hub, "Kitchen", "off")
    assert attr(emu, "Kitchen Light", "switch") == "off"


async def test_room_fans_and_switches(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await room_command(manager_hub, "Living Room", "setSpeed", ["low"], device_type="fans")
    assert [r["label"] for r in data["results"]] == ["Living Room Fan"]
    assert data["results"][0]["status"] == "ok" and attr(emu, "Living Room Fan", "speed") == "low"
    assert data["results"][0]["state"] == {"speed": "low"}
    await room_command(manager_hub, "Living Room", "off", device_type="fans")
    assert attr(emu, "Living Room Fan", "switch") == "off"
    data = await room_command(manager_hub, "Living Room", "off", device_type="switches")
    labels = {r["label"] for r in data["results"]}
    assert {"TV Outlet", "Living Room Fan", "Living Room Lamp"} <= labels
    assert attr(emu, "TV Outlet", "switch") == "off"


async def test_toggle_in_a_room(emu: HubEmulator, manager_hub: Hub) -> None:
    # Living Room Lamp is on, Living Room Dimmer off: toggle flips each
    data = await room_command(manager_hub, "Living Room", "toggle")
    results = by_label(data)
    assert results["Living Room Lamp"]["command"] == "off"
    assert results["Living Room Dimmer"]["command"] == "on"
    assert results["Living Room Lamp"]["repairs"] == ["toggle: switch was on, sent off"]
    assert all(r["status"] == "ok" for r in results.values())
    assert attr(emu, "Living Room Lamp", "switch") == "off"
    assert attr(emu, "Living Room Dimmer", "switch") == "on"


async def test_room_refusals_send_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    before = len(emu.requests)
    for room, command, arguments, device_type, word in (
        ("Kitchen", "setLevel", ["bright"], "lights", "must be a number"),
        ("Attic", "on", None, "lights", "No room"),
        ("Kitchen", "on", None, "fans", "has no fans"),
    ):
        with pytest.raises(ToolError, match=word):
            await room_command(manager_hub, room, command, arguments, device_type=device_type)
    with pytest.raises(ToolError, match="Nothing was sent") as lock:
        await room_command(manager_hub, "Kitchen", "lock", device_type="all")
    assert lock.value.code == "confirmation_required"
    assert sent(emu, before) == []
    emu.set_device_attribute(int(dev_id(emu, "Back Door Lock")), "lock", "unlocked")
    data = await room_command(manager_hub, "Kitchen", "lock", device_type="all", confirm=True)
    assert [(r["label"], r["status"]) for r in data["results"] if r["status"] != "skipped"] == [
        ("Back Door Lock", "ok")
    ]
    assert attr(emu, "Back Door Lock", "lock") == "locked"


async def test_disabled_devices_are_skipped(emu: HubEmulator, manager_hub: Hub) -> None:
    pendants = dev_id(emu, "Kitchen Island Pendants")
    await manager_hub.devices.admin.update_device(pendants, DeviceUpdate(enabled=False))
    data = await room_command(manager_hub, "Kitchen", "on")
    results = by_label(data)
    assert results["Kitchen Island Pendants"]["reason"] == "disabled on the hub"
    assert results["Kitchen Island Pendants"]["status"] == "skipped"
    assert results["Kitchen Light"]["status"] == "ok"


def test_what_counts_as_a_fan() -> None:
    def dev(caps: list[str], type_: str, label: str = "x") -> DeviceSummary:
        return DeviceSummary(id="1", label=label, name=label, capabilities=caps, type=type_)

    assert is_fan(dev(["FanControl"], "Virtual Fan Controller"))
    assert is_fan(dev(["Switch"], "Generic Z-Wave Fan Switch"))
    assert not is_fan(dev(["Switch", "SwitchLevel"], "Generic Z-Wave Dimmer", "Fan Light"))
    assert of_type(dev(["Switch", "SwitchLevel"], "Generic Z-Wave Dimmer", "Fan Light"), "lights")
    assert of_type(dev(["Switch", "Outlet"], "Generic Zigbee Outlet"), "switches")
    assert not of_type(dev(["Switch", "Outlet"], "Generic Zigbee Outlet"), "lights")
