"""Hub Mesh: devices and hub variables shared between hubs (not the Z-Wave/Zigbee mesh)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..hub.mesh import REFRESH_INTERVALS
from ..safety import ToolKind
from .args import ToolArgs, arg
from .base import HubTool, ToolCall

TOOL_DOMAIN = "devices"


class GetHubMeshTool(HubTool[ToolArgs]):
    name = "hub_get_hub_mesh"
    title = "Get Hub Mesh"
    description = (
        "Hub Mesh (sharing between hubs, not the Z-Wave/Zigbee mesh): on or off, peer hubs, "
        "this hub's shared devices and variables, what is linked here and what peers offer. "
        "Change: hub_update_device(hub_mesh=...), hub_update_hub_mesh. No mesh token."
    )
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await call.hub.devices.mesh.overview(call.device_allowed)


VAR_NAMES = vol.All([vol.All(str, vol.Length(min=1, max=100))], vol.Length(min=1, max=20))


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateHubMeshArgs(ToolArgs):
    full_refresh_interval_s: int | None = arg(
        vol.In(REFRESH_INTERVALS), "Full sync every 0 (never), 120, 300 or 3600 s"
    )
    follow_modes_of: str | None = arg(
        vol.All(str, vol.Length(max=100)), "Peer hub name or id whose modes to follow, or 'none'"
    )
    share_variables: list[str] | None = arg(VAR_NAMES, "Hub variables to share")
    unshare_variables: list[str] | None = arg(VAR_NAMES, "Hub variables to stop sharing")


class UpdateHubMeshTool(HubTool[UpdateHubMeshArgs]):
    name = "hub_update_hub_mesh"
    title = "Update Hub Mesh"
    description = (
        "Change Hub Mesh settings: full sync interval, the peer hub whose modes this hub "
        "follows, shared hub variables; each read back. A device: "
        "hub_update_device(hub_mesh=...). Cannot turn Hub Mesh on/off or link a peer's device."
    )
    kind = ToolKind.WRITE
    idempotent = True

    async def run(self, call: ToolCall, args: UpdateHubMeshArgs) -> dict[str, Any]:
        if all(
            v is None
            for v in (
                args.full_refresh_interval_s,
                args.follow_modes_of,
                args.share_variables,
                args.unshare_variables,
            )
        ):
            raise ToolError("Nothing to change: give at least one setting.")
        return await call.hub.devices.mesh.update(
            call.device_allowed,
            full_refresh_interval_s=args.full_refresh_interval_s,
            follow_modes_of=args.follow_modes_of,
            share_variables=args.share_variables,
            unshare_variables=args.unshare_variables,
        )


ORDER = 26

TOOLS: tuple[type[HubTool[Any]], ...] = (GetHubMeshTool, UpdateHubMeshTool)
