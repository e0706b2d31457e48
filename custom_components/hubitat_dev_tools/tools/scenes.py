"""Scene tools (Groups and Scenes scenes and Room Lighting instances): list scenes, activate
or capture one.

A scene's devices are not named in the call's arguments, so the manager checks them against
the device allowlist itself (``call.device_allowed``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..safety import ToolKind
from .args import ToolArgs, arg, short_text
from .base import HubTool, ToolCall, connector

TOOL_DOMAIN = "rooms"

SCENE_WAIT_S = 2.0


@dataclass(frozen=True, slots=True, kw_only=True)
class CallSceneArgs(ToolArgs):
    scene: str = arg(short_text(), "Scene name or id", required=True)
    action: str = arg(vol.In(("activate", "capture")), None, default="activate")
    confirm: bool = arg(bool, "true for scenes setting locks", default=False)


class ListScenesTool(HubTool[ToolArgs]):
    name = "hub_list_scenes"
    covers = (connector("list_scenes"),)
    title = "List scenes"
    description = (
        "Groups and Scenes scenes and Room Lighting instances (kind): id, name, device ids, "
        "activator device, active, sensitive. Activate or capture: hub_call_scene."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        scenes = await call.hub.scenes.list_scenes(allowed=call.device_allowed)
        return {"scenes": scenes, "count": len(scenes)}


class CallSceneTool(HubTool[CallSceneArgs]):
    name = "hub_call_scene"
    acting = True
    covers = (connector("hubitat_activate_scene"),)
    title = "Call scene"
    description = (
        "Activate a Groups and Scenes scene or Room Lighting instance by name or id (turns its "
        "activator device on), or capture a scene (the devices' current states become the "
        "scene's; not Room Lighting). Answers with the devices' states read back. Activating or "
        "capturing a scene that sets a lock or other sensitive device needs confirm=true."
    )
    kind = ToolKind.WRITE
    idempotent = False

    def only_acts(self, args: dict[str, Any]) -> bool:
        """A capture reprograms the scene: a change, not an act."""
        return args.get("action") != "capture"

    async def run(self, call: ToolCall, args: CallSceneArgs) -> dict[str, Any]:
        if args.action == "capture":  # reprograms what the scene does: the scene's own gate
            scene = await call.hub.scenes.resolve(args.scene)
            model = call.hub.sensitivity
            model.require(
                await model.apps([scene.id]),
                confirm=args.confirm,
                allowed=call.device_allowed,
                what=f"Capturing scene {scene.name}",
            )
            # the scene just checked, by its id (a name could name another one by now)
            return await call.hub.scenes.capture(scene.id, allowed=call.device_allowed)
        budget_s, _cut = call.wait_budget(SCENE_WAIT_S)
        return await call.hub.scenes.activate(
            args.scene,
            confirm=args.confirm,
            allowed=call.device_allowed,
            wait_ms=int(budget_s * 1000),
        )


ORDER = 31

TOOLS: tuple[type[HubTool[Any]], ...] = (ListScenesTool, CallSceneTool)
