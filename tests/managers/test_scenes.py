"""The scenes manager (``managers/scenes.py``) on its own, no hass: Groups and Scenes scenes
listed with their members and activator, activated (the members' states read back) and
captured (verified by the scene page moving on), the device allowlist hiding members and
refusing a scene with members outside it, and a scene that locks a lock refused without
confirm, over the emulated hub.

Moved from tests/tools/test_scenes.py (the scene logic is the manager's; the confirmation
for sensitive scenes and the allowlist through the tool, and the tool's argument refusals
stay there; the manager's own allowlist and confirmation checks are tested here too)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.scenes import (
    CAPTURE_BUTTON,
    ROOM_LIGHTS_ACTIVATOR,
    ROOM_LIGHTS_OFFICE,
    SCENE_LOCKUP,
    SCENE_MOVIE,
)
from hubitat_emulator.seed_specs import RL_OFFICE

from ..home_util import dev_id, sent

WAIT_MS = 3000


def attr(emu: HubEmulator, label: str, name: str) -> Any:
    return emu.find_device(label)["attributes"][name]


async def test_list_scenes(emu: HubEmulator, manager_hub: Hub) -> None:
    scenes = {s["name"]: s for s in await manager_hub.scenes.list_scenes()}
    # the group is not a scene; a Room Lighting instance is one
    assert set(scenes) == {"Movie Time", "Lock Up", "Office Lights"}
    movie, lockup, office = scenes["Movie Time"], scenes["Lock Up"], scenes["Office Lights"]
    assert movie["kind"] == lockup["kind"] == "scene" and office["kind"] == "room_lighting"
    assert office["scene_id"] == str(RL_OFFICE) and office["sensitive"] is False
    assert office["activator_device_id"] == dev_id(emu, ROOM_LIGHTS_ACTIVATOR)
    assert set(office["device_ids"]) == {dev_id(emu, n) for n in ROOM_LIGHTS_OFFICE}
    assert movie["scene_id"] == str(SCENE_MOVIE) and lockup["scene_id"] == str(SCENE_LOCKUP)
    assert movie["activator_device_id"] == dev_id(emu, "Movie Time")
    assert lockup["activator_device_id"] == dev_id(emu, "Lock Up Activator")  # by parent app
    assert set(movie["device_ids"]) == {
        dev_id(emu, n) for n in ("Living Room Lamp", "Living Room Dimmer", "TV Outlet")
    }
    assert movie["sensitive"] is False and lockup["sensitive"] is True
    assert movie["active"] is False
    assert "devices_outside_allowlist" not in movie  # no allowlist: every member shown


async def test_activate_scene_sets_its_devices(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await manager_hub.scenes.activate(
        "movie time", confirm=False, allowed=None, wait_ms=WAIT_MS
    )
    assert data["activator_device_id"] == dev_id(emu, "Movie Time") and data["activator_on"]
    lamp, dimmer = dev_id(emu, "Living Room Lamp"), dev_id(emu, "Living Room Dimmer")
    assert data["states"][lamp]["level"] == 20 and data["states"][lamp]["switch"] == "on"
    assert data["states"][dimmer]["switch"] == "off"
    assert attr(emu, "TV Outlet", "switch") == "on"
    listed = await manager_hub.scenes.list_scenes()
    assert next(s for s in listed if s["name"] == "Movie Time")["active"] is True


async def test_a_room_lighting_instance_is_activated_through_its_activator(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    for label in ROOM_LIGHTS_OFFICE:
        emu.set_device_attribute(int(dev_id(emu, label)), "switch", "off")
    emu.set_device_attribute(int(dev_id(emu, "Office Desk Lamp")), "colorTemperature", 2700)
    before = len(emu.requests)
    data = await manager_hub.scenes.activate(
        "office lights", confirm=False, allowed=None, wait_ms=WAIT_MS
    )
    activator = dev_id(emu, ROOM_LIGHTS_ACTIVATOR)
    assert data["kind"] == "room_lighting" and data["scene_id"] == str(RL_OFFICE)
    assert data["activator_device_id"] == activator and data["activator_on"]
    assert data["summary"].startswith("Activated Room Lighting instance Office Lights")
    # one command is sent, the activator's on: the instance sets its lights itself
    assert sent(emu, before) == ["/device/runmethod"]
    assert attr(emu, ROOM_LIGHTS_ACTIVATOR, "switch") == "on"
    await asyncio.sleep(0.05)
    assert attr(emu, "Office Light", "switch") == "on" and attr(emu, "Office Light", "level") == 100
    assert attr(emu, "Office Desk Lamp", "colorTemperature") == 4000


async def test_a_name_two_scenes_share_is_refused_and_an_id_wins_over_a_name(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """A Room Lighting instance named like a scene: the name is refused naming both; an id
    is taken as the id even when an instance is named with it."""
    emu.home.state.apps[RL_OFFICE].label = "Lock Up"
    before = len(emu.requests)
    with pytest.raises(ToolError) as err:
        await manager_hub.scenes.activate("lock up", confirm=True, allowed=None, wait_ms=WAIT_MS)
    assert err.value.subject == "scene"
    assert f"Room Lighting instance {RL_OFFICE}" in str(err.value)
    assert f"scene {SCENE_LOCKUP}" in str(err.value)
    assert sent(emu, before) == []
    emu.home.state.apps[RL_OFFICE].label = str(SCENE_LOCKUP)
    found = await manager_hub.scenes.resolve(str(SCENE_LOCKUP))
    assert found.id == str(SCENE_LOCKUP)


async def test_a_room_lighting_instance_has_no_capture_button(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = len(emu.requests)
    with pytest.raises(ToolError) as err:
        await manager_hub.scenes.capture("Office Lights", allowed=None)
    assert "Room Lighting instance Office Lights's page offers no capture button" in str(err.value)
    assert sent(emu, before) == []  # nothing pressed


async def test_capture_scene(emu: HubEmulator, manager_hub: Hub) -> None:
    lamp = dev_id(emu, "Living Room Lamp")
    emu.set_device_attribute(int(lamp), "level", 60)
    data = await manager_hub.scenes.capture("Movie Time", allowed=None)
    assert data["verified"] is True and data["captured"][lamp]["level"] == 60
    clicks = [c for c in emu.home.state.dev.clicks if c.get("name") == CAPTURE_BUTTON]
    assert clicks and clicks[-1]["id"] == str(SCENE_MOVIE)
    emu.set_device_attribute(int(lamp), "level", 90)
    await manager_hub.scenes.activate("Movie Time", confirm=False, allowed=None, wait_ms=WAIT_MS)
    await asyncio.sleep(0.05)
    assert attr(emu, "Living Room Lamp", "level") == 60  # the captured level came back


async def test_capture_that_changes_nothing_is_not_verified(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    routes = emu.hubvar_routes.fallback  # the generic app routes
    routes.dropped_buttons = frozenset({CAPTURE_BUTTON})  # "success", and nothing happens
    data = await manager_hub.scenes.capture("Movie Time", allowed=None)
    assert data["verified"] is False and "did not change" in data["summary"]


async def test_an_unknown_scene_is_refused_naming_the_scenes(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = len(emu.requests)
    with pytest.raises(ToolError, match="Movie Time"):
        await manager_hub.scenes.activate("Party", confirm=False, allowed=None, wait_ms=WAIT_MS)
    with pytest.raises(ToolError, match="No scene or Room Lighting instance 'Party'"):
        await manager_hub.scenes.capture("Party", allowed=None)
    assert sent(emu, before) == []


async def test_the_device_allowlist_hides_and_refuses_members(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    lamp, activator = dev_id(emu, "Living Room Lamp"), dev_id(emu, "Movie Time")
    allowed = {lamp, activator}.__contains__
    listed = await manager_hub.scenes.list_scenes(allowed=allowed)
    movie = next(s for s in listed if s["name"] == "Movie Time")
    assert movie["device_ids"] == [lamp] and movie["devices_outside_allowlist"] == 2
    levels = attr(emu, "Living Room Lamp", "level")
    before = len(emu.requests)
    with pytest.raises(ToolError) as activate:
        await manager_hub.scenes.activate(
            "Movie Time", confirm=False, allowed=allowed, wait_ms=WAIT_MS
        )
    assert activate.value.code == "device_not_allowed"
    with pytest.raises(ToolError) as capture:
        await manager_hub.scenes.capture("Movie Time", allowed=allowed)
    assert capture.value.code == "device_not_allowed"
    assert sent(emu, before) == [] and attr(emu, "Living Room Lamp", "level") == levels


async def test_a_scene_with_a_lock_needs_confirm_in_the_manager_too(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    lock = dev_id(emu, "Back Door Lock")
    emu.set_device_attribute(int(lock), "lock", "unlocked")
    before = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await manager_hub.scenes.activate("Lock Up", confirm=False, allowed=None, wait_ms=WAIT_MS)
    assert refused.value.code == "confirmation_required" and "Back Door Lock" in str(refused.value)
    assert sent(emu, before) == [] and attr(emu, "Back Door Lock", "lock") == "unlocked"
    data = await manager_hub.scenes.activate("Lock Up", confirm=True, allowed=None, wait_ms=WAIT_MS)
    assert data["states"][lock]["lock"] == "locked"
    assert attr(emu, "Kitchen Light", "switch") == "off"
