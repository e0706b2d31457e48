"""Scenes: which installed apps are scenes, who their members are, which page button captures
them. No endpoint of its own: scenes are apps (``/hub2/appsList``, their ``statusJson`` and
``configure/json`` pages, ``/installedapp/btn``) and each scene's activator is a device
(``/device/fullJson`` names the scene app as its ``parentApp``).

Two apps make scenes, each instance with an activator device:
- Groups and Scenes: the built-in parent app is "Groups and Scenes" (the hub UI's Add Built-In
  App list); its scene children are ``Scene-2.1`` apps (the on-hub server's app-type registry,
  verified live; an older line is ``Scene-1.x``). Its ``Group-2.1`` children are not scenes.
- Room Lighting: every child of the built-in "Room Lighting" parent is a Room Lighting
  instance (``Room Lights``: jbaruch/hubitat-dev's UI notes create one with that name).
Evidence for the activator: "Each Scene / Room Lighting instance spawns an activator device that
carries the switch capability", turned on to activate it (the on-hub server's rule guide).
"""

from __future__ import annotations

import re
from typing import Any

from .app_page import PageButton
from .apps import InstalledApp
from .models import DeviceDetail

PARENT_TYPE = "Groups and Scenes"
ROOM_LIGHTING_TYPE = "Room Lighting"
ROOM_LIGHTS_TYPE = "Room Lights"  # a Room Lighting instance's own type
_SCENE_TYPE = re.compile(r"^Scene(?:-\d+(?:\.\d+)*)?$")
_CAPTURE_TITLE = re.compile(r"capture", re.IGNORECASE)
KIND_SCENE = "scene"  # a Groups and Scenes scene
KIND_ROOM_LIGHTING = "room_lighting"  # a Room Lighting instance


def scene_kind(app: InstalledApp, parent: InstalledApp | None) -> str | None:
    """Which kind of scene an installed app is (``KIND_SCENE``, ``KIND_ROOM_LIGHTING``), or
    None: a Groups and Scenes scene (not a group), or any child of Room Lighting."""
    if _SCENE_TYPE.match(app.type) and (parent is None or parent.type == PARENT_TYPE):
        return KIND_SCENE
    # by type, never by a label the owner can edit: a child of Room Lighting, or a child
    # of the type Room Lighting creates (``Room Lights``)
    if parent is not None and (parent.type == ROOM_LIGHTING_TYPE or app.type == ROOM_LIGHTS_TYPE):
        return KIND_ROOM_LIGHTING
    return None


def scenes_with_kind(tree: list[InstalledApp]) -> list[tuple[InstalledApp, str]]:
    """The scene apps of the installed-app tree, in tree order, with their kind: Groups and
    Scenes scenes (not groups) and Room Lighting instances."""
    by_id = {a.id: a for a in tree}
    out = []
    for app in tree:
        kind = scene_kind(app, by_id.get(app.parent_id or ""))
        if kind is not None:
            out.append((app, kind))
    return out


def scene_apps(tree: list[InstalledApp]) -> list[InstalledApp]:
    """The scene apps of the installed-app tree (``scenes_with_kind`` without the kinds)."""
    return [app for app, _kind in scenes_with_kind(tree)]


def device_settings(status: dict[str, Any]) -> list[dict[str, Any]]:
    """The device inputs of a statusJson answer (``capability.*`` / ``device.*`` settings)."""
    settings = status.get("appSettings")
    return [
        s
        for s in (settings if isinstance(settings, list) else [])
        if isinstance(s, dict) and str(s.get("type") or "").startswith(("capability.", "device."))
    ]


def capture_button(buttons: dict[str, PageButton]) -> PageButton | None:
    """The scene page's capture button (found by its title: "Capture", "Re-Capture ..."."""
    return next((b for b in buttons.values() if _CAPTURE_TITLE.search(b.title)), None)


def activates(detail: DeviceDetail, scene_id: str) -> bool:
    """Whether the device is the scene's activator: its parent app is the scene."""
    parent = detail.parent_app or {}
    return str(parent.get("id")) == scene_id and detail.command("on") is not None
