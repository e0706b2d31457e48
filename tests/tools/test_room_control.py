"""Room control in one call (hub_call_room_command) and toggle on any on/off device.

The tool's part is here: its arguments and answer, refusals as it answers them, the
confirmation of a lock, the device allowlist and the catalog's search sentences. Which
devices a room command takes, the states read back, toggling a room, skipped devices and
every refusal are tested without hass in tests/managers/test_room_control.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.tools.catalog import _index
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok
from ..home_util import dev_id, sent


def attr(hub: HubEmulator, label: str, name: str) -> Any:
    return hub.find_device(label)["attributes"][name]


def by_label(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["label"]: r for r in data["results"]}


async def test_room_command_passes_room_type_and_arguments(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its arguments reach the manager and its answer is the manager's
    (which devices, read back: tests/managers/test_room_control.py)."""
    data = await ok(call_tool, "hub_call_room_command", {"room": "kitchen", "command": "on"})
    assert set(by_label(data)) == {"Kitchen Light", "Kitchen Island Pendants"}  # lights
    assert data["counts"] == {"ok": 2} and "2 confirmed" in data["summary"]
    assert data["room_id"] and data["command"] == "on" and data["device_type"] == "lights"
    data = await ok(
        call_tool,
        "hub_call_room_command",
        {"room": "Living Room", "device_type": "fans", "command": "setSpeed", "arguments": ["low"]},
    )
    assert [r["label"] for r in data["results"]] == ["Living Room Fan"]
    assert data["results"][0]["status"] == "ok" and attr(hub, "Living Room Fan", "speed") == "low"


async def test_toggle_on_one_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """hub_call_device_command's toggle (toggling a room: tests/managers/test_room_control.py)."""
    lamp = dev_id(hub, "Guest Lamp")
    before_state = attr(hub, "Guest Lamp", "switch")
    data = await ok(call_tool, "hub_call_device_command", {"device_id": lamp, "command": "toggle"})
    assert data["command"] == ("off" if before_state == "on" else "on")
    assert data["repairs"][0].startswith("toggle: switch was")
    # a device without on/off cannot be toggled: refused, nothing sent
    before = len(hub.requests)
    pico = dev_id(hub, "Living Room Pico")
    result = await call_tool("hub_call_device_command", {"device_id": pico, "command": "toggle"})
    assert result.error and "no command 'toggle'" in result.data["message"]
    assert sent(hub, before) == []


async def test_room_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The refusals as the tool answers them (every refusal of the manager:
    tests/managers/test_room_control.py)."""
    before = len(hub.requests)
    for args, word in (
        ({"room": "Kitchen", "command": "setLevel", "arguments": ["bright"]}, "must be a number"),
        ({"room": "Kitchen", "command": "on", "device_type": "attic"}, "device_type"),
    ):
        result = await call_tool("hub_call_room_command", args)
        assert result.error and word in result.data["message"], (args, result.data)
    result = await call_tool(
        "hub_call_room_command", {"room": "Kitchen", "command": "lock", "device_type": "all"}
    )
    assert result.error and result.data["error"] == "confirmation_required"
    assert "Nothing was sent" in result.data["message"]
    assert sent(hub, before) == []
    hub.set_device_attribute(int(dev_id(hub, "Back Door Lock")), "lock", "unlocked")
    data = await ok(
        call_tool,
        "hub_call_room_command",
        {"room": "Kitchen", "command": "lock", "device_type": "all", "confirm": True},
    )
    assert [(r["label"], r["status"]) for r in data["results"] if r["status"] != "skipped"] == [
        ("Back Door Lock", "ok")
    ]


async def test_room_command_respects_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Kitchen Light")
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [light]})
    data = await ok(call_tool, "hub_call_room_command", {"room": "Kitchen", "command": "off"})
    assert [r["device_id"] for r in data["results"]] == [light]
    assert attr(hub, "Kitchen Island Pendants", "switch") == "off"
    assert "Pendants" not in str(data)


def test_owner_sentences_find_room_and_scene_tools() -> None:
    for sentence, tool in (
        ("turn off all the lights in the kitchen", "hub_call_room_command"),
        ("set the living room fans to low", "hub_call_room_command"),
        ("activate the movie time scene", "hub_call_scene"),
        ("which scenes do I have", "hub_list_scenes"),
    ):
        names = [h.name for h in _index().search(sentence)][:3]
        assert tool in names, (sentence, names)
