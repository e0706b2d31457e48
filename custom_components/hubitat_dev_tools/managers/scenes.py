"""Scenes: list, activate (through the activator device), capture. A scene is a Groups and
Scenes scene or a Room Lighting instance (``kind``: ``scene`` or ``room_lighting``): both spawn
an activator device that sets them when turned on.

A scene is an app (``hub.scenes.scene_apps``); its members are the devices of its page's device
inputs (statusJson ``appSettings``, read with ``device_refs``); its activator is the device
whose ``parentApp`` is the scene. Finding the activator reads device details, so only likely
candidates are read: a device labelled as the scene, then one whose driver says scene or
activator, then switches in no room (at most ``MAX_PROBES`` reads per scene).

Activating turns the activator on through the device commands (its own checks), after the
scene's members passed the allowlist and, when a member is a lock, garage door, valve, keypad
or siren, confirm. Capturing presses the page's capture button and checks that the app's
version moved on (the click changed the scene). Both answer with the members' states read
back.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

from ..device_refs import device_refs
from ..errors import TIER_SENSITIVE, ToolError, confirmed
from ..hub.apps import InstalledApp, app_name_text
from ..hub.controllers import ScenesController
from ..hub.errors import HubError
from ..hub.models import DeviceSummary
from ..hub.scenes import KIND_ROOM_LIGHTING, activates, capture_button, scenes_with_kind
from .apps import AppManager
from .devices import SENSITIVE_CAPABILITIES, AttributeCondition, DeviceFilter, DeviceManager

Allowed = Callable[[str], bool]
MAX_PROBES = 8
_ACTIVATOR_DRIVER = re.compile(r"scene|activator", re.IGNORECASE)
_READ_BACK = ("switch", "level", "colorTemperature", "lock", "door", "valve")


def _allow_all(_device_id: str) -> bool:
    return True


def _refuse_outside(
    scene: InstalledApp, kind: str, members: list[str], allowed: Allowed, done: str
) -> None:
    """Refuse a scene write when the scene sets devices outside the device allowlist."""
    outside = [m for m in members if not allowed(m)]
    if outside:
        raise ToolError(
            f"{_word(kind, start=True)} {scene.name} sets {len(outside)} device(s) outside "
            "the device allowlist. " + done,
            code="device_not_allowed",
            hint="Add its devices to the allowlist in the integration's options.",
        )


def _word(kind: str, *, start: bool = False) -> str:
    """How a scene of that kind is named in a summary or a refusal (``start``: opening a
    sentence)."""
    if kind == KIND_ROOM_LIGHTING:
        return "Room Lighting instance"
    return "Scene" if start else "scene"


class SceneManager:
    """Groups and Scenes scenes and Room Lighting instances."""

    def __init__(self, scenes: ScenesController, apps: AppManager, devices: DeviceManager) -> None:
        self._controller = scenes
        self._apps = apps
        self._devices = devices

    async def _scenes(self) -> list[tuple[InstalledApp, str]]:
        """Every scene app with its kind."""
        return scenes_with_kind(await self._apps.tree())

    async def _members(self, scene: InstalledApp) -> list[str]:
        settings = await self._controller.members(scene.id)
        return sorted(device_refs(settings), key=lambda i: (len(i), i))

    async def _activator(
        self, scene: InstalledApp, members: list[str], devices: list[DeviceSummary]
    ) -> DeviceSummary | None:
        name = scene.name.strip().lower()
        pool = [
            d
            for d in devices
            if d.id not in members and "switch" in {c.lower() for c in d.capabilities}
        ]
        ranked = (
            [d for d in pool if d.display_name.strip().lower() == name]
            + [d for d in pool if _ACTIVATOR_DRIVER.search(d.type or "")]
            + [d for d in pool if d.room is None]
        )
        probes = list({d.id: d for d in ranked}.values())[:MAX_PROBES]
        for dev in probes:
            try:
                detail = await self._devices.get_device(dev.id)
            except HubError:
                continue
            if activates(detail, scene.id):
                return dev
        return None

    async def _describe(
        self, scene: InstalledApp, kind: str, devices: list[DeviceSummary], allowed: Allowed
    ) -> dict[str, Any]:
        members = await self._members(scene)
        activator = await self._activator(scene, members, devices)
        by_id = {d.id: d for d in devices}
        shown = [m for m in members if allowed(m)]
        out: dict[str, Any] = {
            "scene_id": scene.id,
            "name": scene.name,
            "kind": kind,
            "disabled": scene.disabled,
            "device_ids": shown,
            "sensitive": any(
                SENSITIVE_CAPABILITIES.intersection(by_id[m].capabilities)
                for m in members
                if m in by_id
            ),
        }
        if len(shown) < len(members):
            out["devices_outside_allowlist"] = len(members) - len(shown)
        if activator is not None and allowed(activator.id):
            out["activator_device_id"] = activator.id
            out["active"] = activator.states.get("switch") == "on"
        elif activator is None:
            out["activator_device_id"] = None
        return out

    async def _all_devices(self) -> list[DeviceSummary]:
        return await self._devices.list_devices(DeviceFilter())

    async def list_scenes(self, *, allowed: Allowed | None = None) -> list[dict[str, Any]]:
        """Every scene (Groups and Scenes scenes, Room Lighting instances) with its members
        (allowed ones), activator and whether it is on."""
        ok = allowed or _allow_all
        scenes, devices = await asyncio.gather(self._scenes(), self._all_devices())
        found = await asyncio.gather(*(self._describe(s, k, devices, ok) for s, k in scenes))
        return sorted(found, key=lambda s: (str(s["name"]).lower(), s["scene_id"]))

    async def resolve(self, scene: str) -> InstalledApp:
        """A scene by id or name (case-insensitive), or a refusal listing the scenes."""
        return (await self._resolve(scene))[0]

    async def _resolve(self, scene: str) -> tuple[InstalledApp, str]:
        """By id first; a name matching more than one scene is refused, naming each (a
        Groups and Scenes scene and a Room Lighting instance may share a name)."""
        scenes = await self._scenes()
        by_id = [(s, kind) for s, kind in scenes if s.id == scene.strip()]
        if by_id:
            return by_id[0]
        wanted = app_name_text(scene).lower()
        named = [(s, kind) for s, kind in scenes if s.name.lower() == wanted]
        if len(named) == 1:
            return named[0]
        if named:
            raise ToolError(
                f"'{scene}' names {len(named)} scenes: "
                + ", ".join(f"{_word(kind)} {s.id}" for s, kind in named)
                + ". Nothing was sent.",
                hint="Call again with the id of the one you mean.",
                subject="scene",
            )
        raise ToolError(
            f"No scene or Room Lighting instance '{scene}'. Scenes: "
            + (", ".join(s.name for s, _kind in scenes) or "none")
            + ".",
            subject="scene",
        )

    def _check_members(
        self,
        scene: InstalledApp,
        kind: str,
        members: list[str],
        devices: dict[str, DeviceSummary],
        allowed: Allowed,
        confirm: bool,
    ) -> None:
        _refuse_outside(scene, kind, members, allowed, "Nothing was sent.")
        sensitive = [
            devices[m].display_name
            for m in members
            if m in devices and SENSITIVE_CAPABILITIES.intersection(devices[m].capabilities)
        ]
        if sensitive and not confirmed(confirm, TIER_SENSITIVE):
            raise ToolError(
                f"{_word(kind, start=True)} {scene.name} sets security-sensitive devices "
                f"({', '.join(sensitive)}). "
                "Activating it needs confirm=true. Nothing was sent.",
                code="confirmation_required",
                hint="Ask the user to confirm, then call again with confirm=true.",
                tier=TIER_SENSITIVE,
            )

    async def _states(self, members: list[str]) -> dict[str, dict[str, Any]]:
        """The members' states after a write (fresh from the hub, secrets redacted)."""
        self._devices.devices_changed()
        devices = {d.id: d for d in await self._all_devices()}
        return {
            m: {a: devices[m].states[a] for a in _READ_BACK if a in devices[m].states}
            for m in members
            if m in devices
        }

    async def activate(
        self, scene: str, *, confirm: bool, allowed: Allowed | None, wait_ms: int
    ) -> dict[str, Any]:
        """Turn the scene's activator on; answer with the members' states read back."""
        ok = allowed or _allow_all
        found, kind = await self._resolve(scene)
        members, devices = await asyncio.gather(self._members(found), self._all_devices())
        by_id = {d.id: d for d in devices}
        self._check_members(found, kind, members, by_id, ok, confirm)
        activator = await self._activator(found, members, devices)
        if activator is None:
            raise ToolError(
                f"{_word(kind, start=True)} {found.name} has no activator device the hub "
                "shows (a device whose parent app is it). Nothing was sent.",
                hint="Open the scene in the hub UI; its activator device turns it on.",
            )
        if not ok(activator.id):
            raise ToolError(
                f"{_word(kind, start=True)} {found.name}'s activator device is outside the "
                "device allowlist.",
                code="device_not_allowed",
            )
        commands = self._devices.commands
        prepared = await commands.prepare(activator.id, "on", [], confirm=confirm, allowed=ok)
        await commands.execute(prepared)
        waited = await self._devices.waits.wait_attribute(
            [activator.id], "switch", AttributeCondition("eq", ["on"]), timeout_ms=wait_ms
        )
        states = await self._states([m for m in members if ok(m)])
        return {
            "summary": f"Activated {_word(kind)} {found.name} (activator device {activator.id}, "
            f"{activator.display_name}); {len(members)} device(s) in the scene",
            "scene_id": found.id,
            "name": found.name,
            "kind": kind,
            "activator_device_id": activator.id,
            "activator_on": waited["matched"],
            "states": states,
        }

    async def capture(self, scene: str, *, allowed: Allowed | None) -> dict[str, Any]:
        """Press the scene page's capture button; verified by the app's version moving on."""
        ok = allowed or _allow_all
        found, kind = await self._resolve(scene)
        members = await self._members(found)
        _refuse_outside(found, kind, members, ok, "Nothing was changed.")
        page = await self._controller.page(found.id)
        button = capture_button(page.buttons)
        if button is None:
            raise ToolError(
                f"{_word(kind, start=True)} {found.name}'s page offers no capture button (buttons: "
                + (", ".join(app_name_text(b.title) for b in page.buttons.values()) or "none")
                + "). Nothing was changed.",
                hint="This scene cannot be captured through its page; edit it in the hub UI.",
            )
        before = page.version
        await page.press(button.name, what=f"capture {_word(kind)} {found.name}")
        await page.reload()
        verified = before is not None and page.version != before
        out: dict[str, Any] = {
            "summary": f"Captured {_word(kind)} {found.name}: the current states of its "
            f"{len(members)} device(s) are now the scene's",
            "scene_id": found.id,
            "name": found.name,
            "kind": kind,
            "verified": verified,
            "captured": await self._states(members),
        }
        if not verified:
            out["summary"] = (
                f"The hub took the capture click for {_word(kind)} {found.name}, but its page "
                "did not change; check it in the hub UI."
            )
        return out
