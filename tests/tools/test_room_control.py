"""Room control in one call (hub_call_room_command) and toggle on any on/off device."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.models import DeviceSummary
from custom_components.hubitat_dev_tools.managers.room_control import is_fan, of_type
from custom_components.hubitat_dev_tools.tools.catalog import _index
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok
from ..home_util import dev_id, sent


def attr(hub: HubEmulator, label: str, name: str) -> Any:
    return hub.find_device(label)["attributes"][name]


def by_label(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["label"]: r for r in data["results"]}


async def test_room_lights_on_off_and_level(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_call_room_command", {"room": "kitchen", "command": "on"})
    results = by_label(data)
    assert set(results) == {"Kitchen Light", "Kitchen Island Pendants"}  # no outlet, no lock
    assert all(r["status"] == "ok" and r["state"] == {"switch": "on"} for r in results.values())
    assert attr(hub, "Kitchen Island Pendants", "switch") == "on"
    assert attr(hub, "Coffee Maker", "switch") == "off"
    assert data["counts"] == {"ok": 2} and "2 confirmed" in data["summary"]
    data = await ok(
        call_tool,
        "hub_call_room_command",
        {"room": "Kitchen", "command": "setLevel", "arguments": ["35"]},
    )
    assert all(r["state"] == {"level": 35} for r in data["results"])
    assert all(r["repairs"] for r in data["results"])  # the quoted number, repaired
    data = await ok(
        call_tool,
        "hub_call_room_command",
        {"room": "Kitchen", "command": "setColorTemperature", "arguments": [2700]},
    )
    results = by_label(data)
    assert results["Kitchen Light"] == {
        "device_id": dev_id(hub, "Kitchen Light"),
        "label": "Kitchen Light",
        "status": "skipped",
        "reason": "does not declare setColorTemperature",
    }
    assert results["Kitchen Island Pendants"]["status"] == "ok"
    assert attr(hub, "Kitchen Island Pendants", "colorTemperature") == 2700
    data = await ok(call_tool, "hub_call_room_command", {"room": "Kitchen", "command": "off"})
    assert attr(hub, "Kitchen Light", "switch") == "off"


async def test_room_fans_and_switches(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(
        call_tool,
        "hub_call_room_command",
        {"room": "Living Room", "device_type": "fans", "command": "setSpeed", "arguments": ["low"]},
    )
    assert [r["label"] for r in data["results"]] == ["Living Room Fan"]
    assert data["results"][0]["status"] == "ok" and attr(hub, "Living Room Fan", "speed") == "low"
    await ok(
        call_tool,
        "hub_call_room_command",
        {"room": "Living Room", "device_type": "fans", "command": "off"},
    )
    assert attr(hub, "Living Room Fan", "switch") == "off"
    data = await ok(
        call_tool,
        "hub_call_room_command",
        {"room": "Living Room", "device_type": "switches", "command": "off"},
    )
    labels = {r["label"] for r in data["results"]}
    assert {"TV Outlet", "Living Room Fan", "Living Room Lamp"} <= labels
    assert attr(hub, "TV Outlet", "switch") == "off"


async def test_toggle_in_a_room_and_on_one_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    # Living Room Lamp is on, Living Room Dimmer off: toggle flips each
    data = await ok(
        call_tool, "hub_call_room_command", {"room": "Living Room", "command": "toggle"}
    )
    results = by_label(data)
    assert results["Living Room Lamp"]["command"] == "off"
    assert results["Living Room Dimmer"]["command"] == "on"
    assert results["Living Room Lamp"]["repairs"] == ["toggle: switch was on, sent off"]
    assert all(r["status"] == "ok" for r in results.values())
    assert attr(hub, "Living Room Lamp", "switch") == "off"
    assert attr(hub, "Living Room Dimmer", "switch") == "on"
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
    before = len(hub.requests)
    for args, word in (
        ({"room": "Kitchen", "command": "setLevel", "arguments": ["bright"]}, "must be a number"),
        ({"room": "Attic", "command": "on"}, "No room"),
        ({"room": "Kitchen", "command": "on", "device_type": "fans"}, "has no fans"),
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


async def test_disabled_devices_are_skipped(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    pendants = dev_id(hub, "Kitchen Island Pendants")
    await ok(call_tool, "hub_update_device", {"device_id": pendants, "enabled": False})
    data = await ok(call_tool, "hub_call_room_command", {"room": "Kitchen", "command": "on"})
    results = by_label(data)
    assert results["Kitchen Island Pendants"]["reason"] == "disabled on the hub"
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


def test_owner_sentences_find_room_and_scene_tools() -> None:
    for sentence, tool in (
        ("turn off all the lights in the kitchen", "hub_call_room_command"),
        ("set the living room fans to low", "hub_call_room_command"),
        ("activate the movie time scene", "hub_call_scene"),
        ("which scenes do I have", "hub_list_scenes"),
    ):
        names = [h.name for h in _index().search(sentence)][:3]
        assert tool in names, (sentence, names)
