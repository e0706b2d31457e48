"""The library's scene readers (``hub/scenes.py``) on their own, no hass: which installed apps are
scenes (Groups and Scenes scenes, not groups; Room Lighting instances), the scene page's capture
button found by its label, a scene's member devices read from the hub's statusJson answer and
its activator device from a fullJson answer (the recorded hub answers in tests/fixtures/hub).

Moved from tests/tools/test_scenes.py (test_scene_apps_and_capture_button and
test_scene_readers_take_the_contract_shapes: the readers are the library's; the tool's
confirmation for sensitive scenes, the device allowlist and its refusals stay there, and
listing, activating and capturing are tested on the manager in tests/managers/test_scenes.py)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.device_refs import device_refs
from custom_components.hubitat_dev_tools.hub.app_page import PageButton
from custom_components.hubitat_dev_tools.hub.apps import InstalledApp
from custom_components.hubitat_dev_tools.hub.models import parse_device_full
from custom_components.hubitat_dev_tools.hub.scenes import (
    activates,
    capture_button,
    device_settings,
    scene_apps,
    scenes_with_kind,
)

from ..contract import load_fixture


def test_scene_apps_and_capture_button() -> None:
    def app(app_id: str, type_: str, parent: str | None) -> InstalledApp:
        return InstalledApp(app_id, type_, type_, False, False, False, parent, 0)

    tree = [
        app("1", "Groups and Scenes", None),
        app("2", "Scene-2.1", "1"),
        app("3", "Group-2.1", "1"),
        app("4", "Scene-1.2", "1"),
        app("5", "Rule-5.1", None),
        app("6", "Room Lighting", None),
        app("7", "Room Lights", "6"),
        app("8", "Room Lights", None),  # no Room Lighting parent: not taken for one
        # a Groups and Scenes parent labelled "Room Lighting": its group is still no scene
        InstalledApp("9", "Room Lighting", "Groups and Scenes", False, False, False, None, 0),
        app("10", "Group-2.1", "9"),
    ]
    assert [a.id for a in scene_apps(tree)] == ["2", "4", "7"]
    kinds = {app.id: kind for app, kind in scenes_with_kind(tree)}
    assert kinds == {"2": "scene", "4": "scene", "7": "room_lighting"}
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
