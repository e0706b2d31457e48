"""Groups and Scenes scenes and Room Lighting instances through the tools: the confirmation
for sensitive scenes, the allowlist, the refusals, and a Room Lighting instance listed and
activated (no capture). Listing, activating and capturing, an unknown scene, and the
manager's own allowlist and confirmation refusals are tested without hass in
tests/managers/test_scenes.py; the library's scene readers (which apps are scenes, the
capture button, members and activator read from the recorded hub answers) in
tests/hub/test_scenes.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.scenes import SCENE_LOCKUP

from ..conftest import ToolCaller, add_entry, ok
from ..home_util import dev_id, sent


def attr(hub: HubEmulator, label: str, name: str) -> Any:
    return hub.find_device(label)["attributes"][name]


async def test_sensitive_scene_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = dev_id(hub, "Back Door Lock")
    hub.set_device_attribute(int(lock), "lock", "unlocked")
    before = len(hub.requests)
    result = await call_tool("hub_call_scene", {"scene": str(SCENE_LOCKUP)})
    assert result.error and result.data["error"] == "confirmation_required"
    assert "Back Door Lock" in result.data["message"]
    assert sent(hub, before) == []
    data = await ok(call_tool, "hub_call_scene", {"scene": "Lock Up", "confirm": True})
    assert data["states"][lock]["lock"] == "locked"
    assert attr(hub, "Kitchen Light", "switch") == "off"


async def test_scene_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    result = await call_tool("hub_call_scene", {"scene": "Party"})
    assert result.error and "Movie Time" in result.data["message"]
    result = await call_tool("hub_call_scene", {"scene": "Movie Time", "action": "explode"})
    assert result.error and result.data["error"] == "invalid_arguments"
    assert sent(hub, before) == []


async def test_scenes_respect_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp, activator = dev_id(hub, "Living Room Lamp"), dev_id(hub, "Movie Time")
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [lamp, activator]})
    data = await ok(call_tool, "hub_list_scenes")
    movie = next(s for s in data["scenes"] if s["name"] == "Movie Time")
    assert movie["device_ids"] == [lamp] and movie["devices_outside_allowlist"] == 2
    before = len(hub.requests)
    for action in ("activate", "capture"):
        result = await call_tool("hub_call_scene", {"scene": "Movie Time", "action": action})
        assert result.error and result.data["error"] == "device_not_allowed", result.data
    assert sent(hub, before) == []


async def test_a_room_lighting_instance_is_listed_and_activated_through_the_tools(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Room Lighting instances are scenes too (each has an activator device): listed with
    their kind and activated by name; their page has no capture."""
    listed = await ok(call_tool, "hub_list_scenes")
    office = next(s for s in listed["scenes"] if s["name"] == "Office Lights")
    assert office["kind"] == "room_lighting" and office["activator_device_id"]
    hub.set_device_attribute(int(dev_id(hub, "Office Light")), "switch", "off")
    data = await ok(call_tool, "hub_call_scene", {"scene": "Office Lights"})
    assert data["kind"] == "room_lighting" and data["activator_on"] is True
    assert data["summary"].startswith("Activated Room Lighting instance Office Lights")
    before = len(hub.requests)
    result = await call_tool("hub_call_scene", {"scene": "Office Lights", "action": "capture"})
    assert result.error and "no capture button" in result.data["message"]
    assert sent(hub, before) == []
