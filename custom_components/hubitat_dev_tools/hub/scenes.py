"""Groups and Scenes: which installed apps are scenes, who their members are, which page button
captures them. No endpoint of its own: scenes are apps (``/hub2/appsList``, their
``statusJson`` and ``configure/json`` pages, ``/installedapp/btn``) and each scene's activator
is a device (``/device/fullJson`` names the scene app as its ``parentApp``).

Evidence: the built-in parent app is "Groups and Scenes" (the hub UI's Add Built-In App list);
its children are ``Scene-2.1`` / ``Group-2.1`` apps (the on-hub server's app-type registry, verified
live; an older line is ``Scene-1.x``); each scene spawns an activator device with the Switch
capability, turned on to activate the scene (the on-hub server's rule guide). Groups are not scenes.
"""

from __future__ import annotations

import re
from typing import Any

from .app_page import PageButton
from .apps import InstalledApp
from .models import DeviceDetail

PARENT_TYPE = "Groups and Scenes"
_SCENE_TYPE = re.compile(r"^Scene(?:-\d+(?:\.\d+)*)?$")
_CAPTURE_TITLE = re.compile(r"capture", re.IGNORECASE)


def scene_apps(tree: list[InstalledApp]) -> list[InstalledApp]:
    """The scene apps of the installed-app tree (children of Groups and Scenes; not groups)."""
    by_id = {a.id: a for a in tree}
    out = []
    for app in tree:
        parent = by_id.get(app.parent_id or "")
        if _SCENE_TYPE.match(app.type) and (parent is None or parent.type == PARENT_TYPE):
            out.append(app)
    return out


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
