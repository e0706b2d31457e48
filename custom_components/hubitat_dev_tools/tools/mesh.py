"""Hub Mesh: devices and hub variables shared between hubs (not the Z-Wave/Zigbee mesh)."""

from __future__ import annotations

from typing import Any

from ..safety import ToolKind
from .args import ToolArgs
from .base import HubTool, ToolCall

TOOL_DOMAIN = "devices"


class GetHubMeshTool(HubTool[ToolArgs]):
    name = "hub_get_hub_mesh"
    title = "Get Hub Mesh"
    description = (
        "Hub Mesh (sharing between Hubitat hubs, not the Z-Wave/Zigbee mesh): whether it is "
        "on, the peer hubs, which of this hub's devices and variables are shared, what is "
        "linked here from other hubs and what peers offer to link. Share or stop sharing a "
        "device with hub_update_device(hub_mesh=...). The mesh token is never returned."
    )
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await call.hub.devices.mesh.overview(call.device_allowed)


ORDER = 26

TOOLS: tuple[type[HubTool[Any]], ...] = (GetHubMeshTool,)
