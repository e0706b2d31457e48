"""A device on a driver installed through the tools is usable: its type comes from the driver's
source (declared attributes, commands with typed arguments, the driver's own preferences) and
its commands run the driver's methods (events, read back through the tools)."""

from __future__ import annotations

from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused

COUNTER = """metadata {
    definition(name: "Tap Counter", namespace: "home", author: "me") {
        capability "Actuator"
        attribute "counter", "number"
        command "increment"
        command "reset"
        command "setCounter", ["NUMBER"]
        command "setMood", [[name: "mood*", type: "ENUM", constraints: ["calm", "busy"]]]
    }
    preferences {
        input name: "step", type: "number", title: "Step", defaultValue: 1
        input "flavor", "enum", title: "Flavor", options: ["plain", "fancy"], defaultValue: "plain"
    }
}

def increment() {
    if (logEnable) log.debug "increment"
    sendEvent(name: "counter", value: (device.currentValue("counter") ?: 0) + step)
}

def reset() {
    sendEvent(name: "counter", value: 0)
}

def setCounter(value) {
    sendEvent(name: "counter", value: value as Integer)
}

def setMood(mood) {
    runIn(5, "reset")
}
"""


def by_name(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(i["name"]): i for i in items}


async def read_counter(call_tool: ToolCaller, device_id: str) -> Any:
    data = await ok(
        call_tool, "hub_get_device_attribute", {"device_id": device_id, "attribute": "counter"}
    )
    return data["values"][device_id]


async def test_a_device_on_an_installed_driver_has_its_declared_type_and_runs_it(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    await ok(call_tool, "hub_install_code", {"type": "driver", "source": COUNTER, "confirm": True})
    created = await ok(call_tool, "hub_create_device", {"driver": "Tap Counter", "label": "Taps"})
    device_id = str(created["device"]["device_id"])

    device = (await ok(call_tool, "hub_get_device", {"device_id": device_id}))["device"]
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
        await ok(
            call_tool, "hub_call_device_command", {"device_id": device_id, "command": "increment"}
        )
    assert await read_counter(call_tool, device_id) == 2
    sent = await ok(
        call_tool,
        "hub_call_device_command",
        {"device_id": device_id, "command": "setCounter", "arguments": ["7"]},
    )
    assert sent["arguments"] == [7] and sent["repairs"]  # the quoted number sent as a NUMBER
    assert await read_counter(call_tool, device_id) == 7
    events = await ok(
        call_tool,
        "hub_list_device_events",
        {"device_id": device_id, "attribute": "counter"},
    )
    assert [e["value"] for e in events["events"]][:3] == [7, 2, 1]
    await ok(call_tool, "hub_call_device_command", {"device_id": device_id, "command": "reset"})
    assert await read_counter(call_tool, device_id) == 0

    # a method the emulator cannot evaluate (runIn) is a no-op, not a failure
    await ok(
        call_tool,
        "hub_call_device_command",
        {"device_id": device_id, "command": "setMood", "arguments": ["busy"]},
    )
    assert await read_counter(call_tool, device_id) == 0

    # an undeclared command is refused, naming the declared ones
    data = await refused(
        call_tool, "hub_call_device_command", {"device_id": device_id, "command": "decrement"}
    )
    text = str(data)
    assert "decrement" in text
    assert all(name in text for name in ("increment", "reset", "setCounter"))


async def test_the_device_follows_its_drivers_code_and_groovy_failures_change_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    code = await ok(
        call_tool, "hub_install_code", {"type": "driver", "source": COUNTER, "confirm": True}
    )
    created = await ok(call_tool, "hub_create_device", {"driver": "Tap Counter"})
    device_id = str(created["device"]["device_id"])
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
    await ok(
        call_tool,
        "hub_update_code",
        {"type": "driver", "id": str(code["id"]), "source": source, "confirm": True},
    )
    device = (await ok(call_tool, "hub_get_device", {"device_id": device_id}))["device"]
    assert "decrement" in by_name(device["commands"])
    assert not {p["name"] for p in device.get("preferences", [])} & {"logEnable", "txtEnable"}
    # null - 1 throws in Groovy: the method stops, nothing is sent
    await ok(call_tool, "hub_call_device_command", {"device_id": device_id, "command": "decrement"})
    assert await read_counter(call_tool, device_id) is None
    for _ in range(3):
        await ok(
            call_tool, "hub_call_device_command", {"device_id": device_id, "command": "increment"}
        )
    await ok(call_tool, "hub_call_device_command", {"device_id": device_id, "command": "decrement"})
    assert await read_counter(call_tool, device_id) == 4
