"""A device on a user driver, through the code and device managers on their own, no hass
(``managers/code.py`` installing and updating the driver, ``managers/devices`` creating the
device, reading it and running its commands): its type comes from the driver's source
(declared attributes, commands with typed arguments, the driver's own preferences) and its
commands run the driver's methods on the emulated hub (events read back; a Groovy failure
changes nothing; an undeclared command refused before anything is sent).

Moved from tests/tools/test_user_driver_devices.py
(test_a_device_on_an_installed_driver_has_its_declared_type_and_runs_it,
test_the_device_follows_its_drivers_code_and_groovy_failures_change_nothing); the install
through the tools (the backup and confirmation gates) and one command through them with its
answer stay there."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.user_drivers import COUNTER
from ..home_util import sent


def by_name(items: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {str(i["name"]): i for i in items}


async def _device_on_counter(manager_hub: Hub, label: str | None) -> tuple[str, str]:
    """The driver installed and a device made on it: (code id, device id)."""
    code = await manager_hub.code.install("driver", COUNTER)
    created = await manager_hub.devices.admin.create_device("Tap Counter", label)
    return str(code["id"]), str(created["device"]["device_id"])


async def _run(manager_hub: Hub, device_id: str, command: str, *args: Any) -> Any:
    commands = manager_hub.devices.commands
    prepared = await commands.prepare(
        device_id, command, list(args) if args else None, confirm=False
    )
    await commands.execute(prepared)
    return prepared


async def _counter(manager_hub: Hub, device_id: str) -> Any:
    return (await manager_hub.devices.read_attribute([device_id], "counter"))[device_id]


async def test_a_device_on_an_installed_driver_has_its_declared_type_and_runs_it(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    _code, device_id = await _device_on_counter(manager_hub, "Taps")
    assert emu.device(device_id)["label"] == "Taps"

    device = (await manager_hub.devices.get_device_full(device_id)).as_dict()
    commands = by_name(device["commands"])
    assert {"increment", "reset", "setCounter", "setMood"} <= set(commands)
    assert "arguments" not in commands["increment"]
    assert [a["type"] for a in commands["setCounter"]["arguments"]] == ["NUMBER"]
    # [name: "mood*", ...]: the trailing * marks the argument required (as the hub UI reads it)
    assert commands["setMood"]["arguments"] == [
        {"name": "mood", "type": "ENUM", "constraints": ["calm", "busy"], "required": True}
    ]
    # the declared attribute is there (the emulator lists every declared attribute)
    counter = by_name(device["attributes"])["counter"]
    assert counter["data_type"] == "NUMBER"
    # exactly the driver's own preferences: no built-in logEnable/txtEnable
    prefs = by_name(device["preferences"])
    assert set(prefs) == {"step", "flavor"}
    assert prefs["step"]["type"] == "number" and prefs["step"]["value"] == 1
    assert prefs["flavor"]["type"] == "enum" and prefs["flavor"]["options"] == ["plain", "fancy"]

    for _ in range(2):
        await _run(manager_hub, device_id, "increment")
    assert await _counter(manager_hub, device_id) == 2
    prepared = await _run(manager_hub, device_id, "setCounter", "7")
    # the quoted number sent as a NUMBER
    assert [a["value"] for a in prepared.args] == [7] and prepared.repairs
    assert await _counter(manager_hub, device_id) == 7
    events = await manager_hub.devices.events(device_id=device_id, attribute="counter")
    assert [e["value"] for e in events][:3] == [7, 2, 1]
    await _run(manager_hub, device_id, "reset")
    assert await _counter(manager_hub, device_id) == 0

    # a method the emulator cannot evaluate (runIn) is a no-op, not a failure
    await _run(manager_hub, device_id, "setMood", "busy")
    assert await _counter(manager_hub, device_id) == 0

    # an undeclared command is refused, naming the declared ones, before anything is sent
    before = len(emu.requests)
    with pytest.raises(ToolError) as err:
        await _run(manager_hub, device_id, "decrement")
    text = str(err.value) + str(err.value.hint or "")
    assert "decrement" in text
    assert all(name in text for name in ("increment", "reset", "setCounter"))
    assert sent(emu, before) == []


async def test_the_device_follows_its_drivers_code_and_groovy_failures_change_nothing(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    code_id, device_id = await _device_on_counter(manager_hub, None)
    # a new version: a decrement that throws on the hub while counter is null (null - 1),
    # a bare "* 2" doubling, and no preferences at all
    source = (
        COUNTER.replace('command "reset"', 'command "reset"\n        command "decrement"')
        .replace("    preferences {", "    prefs_removed {")
        .replace("+ step)", "+ 1)")
        + """
def decrement() {
    def next = device.currentValue("counter") - 1
    sendEvent(name: "counter", value: next * 2)
}
"""
    )
    await manager_hub.code.update("driver", code_id, source, None)
    device = (await manager_hub.devices.get_device_full(device_id)).as_dict()
    assert "decrement" in by_name(device["commands"])
    assert not {p["name"] for p in device.get("preferences", [])} & {"logEnable", "txtEnable"}
    # null - 1 throws in Groovy: the method stops, nothing is sent
    await _run(manager_hub, device_id, "decrement")
    assert await _counter(manager_hub, device_id) is None
    for _ in range(3):
        await _run(manager_hub, device_id, "increment")
    await _run(manager_hub, device_id, "decrement")
    assert await _counter(manager_hub, device_id) == 4
