"""Groups and Scenes scenes through the tools: the confirmation for sensitive scenes, the
allowlist, the refusals and the contract shapes. Listing, activating and capturing, an
unknown scene, and the manager's own allowlist and confirmation refusals are tested without
hass in tests/managers/test_scenes.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.device_refs import device_refs
from custom_components.hubitat_dev_tools.hub.app_page import PageButton
from custom_components.hubitat_dev_tools.hub.apps import InstalledApp
from custom_components.hubitat_dev_tools.hub.models import parse_device_full
from custom_components.hubitat_dev_tools.hub.scenes import (
    activates,
    capture_button,
    device_settings,
    scene_apps,
)
from hubitat_emulator import HubEmulator
from hubitat_emulator.scenes import SCENE_LOCKUP

from ..conftest import ToolCaller, add_entry, ok
from ..contract import load_fixture
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


def test_scene_apps_and_capture_button() -> None:
    def app(app_id: str, type_: str, parent: str | None) -> InstalledApp:
        return InstalledApp(app_id, type_, type_, False, False, False, parent, 0)

    tree = [
        app("1", "Groups and Scenes", None),
        app("2", "Scene-2.1", "1"),
        app("3", "Group-2.1", "1"),
        app("4", "Scene-1.2", "1"),
        app("5", "Rule-5.1", None),
    ]
    assert [a.id for a in scene_apps(tree)] == ["2", "4"]
    buttons = {"a": PageButton("a", "Done"), "b": PageButton("b", "<b>Re-Capture</b> Devices")}
    found = capture_button(buttons)
    assert found is not None and found.name == "b"
    assert capture_button({"a": PageButton("a", "Done")}) is None


def test_scene_readers_take_the_contract_shapes() -> None:
    """Members from a statusJson answer, the activator from a fullJson answer (real shapes)."""
    status = load_fixture("apps/status_json").answer
    assert sorted(device_refs(device_settings(status))) == ["12"]  # the device input only
    detail = parse_device_full(load_fixture("devices/full_json").answer)
    parent = str((detail.parent_app or {}).get("id"))
    assert activates(detail, parent) is (detail.command("on") is not None)
    assert not activates(detail, "0")
