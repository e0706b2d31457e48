"""A device on a driver installed through the tools is usable: the install behind its gates,
the device made on the driver, a command run and its reading and events answered through the
tools. What the device is and does (its type from the driver's source: declared attributes,
commands with typed arguments, the driver's own preferences; its commands running the
driver's methods; a new version of the code followed; a Groovy failure changing nothing) is
tested without hass in tests/managers/test_user_drivers.py."""

from __future__ import annotations

from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..helpers.user_drivers import COUNTER


async def read_counter(call_tool: ToolCaller, device_id: str) -> Any:
    data = await ok(
        call_tool, "hub_get_device_attribute", {"device_id": device_id, "attribute": "counter"}
    )
    return data["values"][device_id]


async def test_a_device_on_a_driver_installed_through_the_tools_runs_it(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the install behind its backup and confirmation gates, the device
    made and read, a command's answer (the number repaired), the reading and the events
    answered, an undeclared command refused (the type, the methods run and the code
    updated: tests/managers/test_user_drivers.py)."""
    args = {"type": "driver", "source": COUNTER}
    await refused(call_tool, "hub_install_code", args, "confirmation_required")
    hub.mark_backup_now()
    await ok(call_tool, "hub_install_code", {**args, "confirm": True})
    created = await ok(call_tool, "hub_create_device", {"driver": "Tap Counter", "label": "Taps"})
    device_id = str(created["device"]["device_id"])
    device = (await ok(call_tool, "hub_get_device", {"device_id": device_id}))["device"]
    assert "setCounter" in {c["name"] for c in device["commands"]}
    sent = await ok(
        call_tool,
        "hub_call_device_command",
        {"device_id": device_id, "command": "setCounter", "arguments": ["7"]},
    )
    assert sent["arguments"] == [7] and sent["repairs"]  # the quoted number sent as a NUMBER
    assert await read_counter(call_tool, device_id) == 7
    events = await ok(
        call_tool, "hub_list_device_events", {"device_id": device_id, "attribute": "counter"}
    )
    assert [e["value"] for e in events["events"]][:1] == [7]
    data = await refused(
        call_tool, "hub_call_device_command", {"device_id": device_id, "command": "decrement"}
    )
    assert "decrement" in str(data) and "increment" in str(data)
