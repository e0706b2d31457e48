"""Hub Mesh: devices and hub variables shared between hubs (not the Z-Wave/Zigbee mesh)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..hub.mesh import REFRESH_INTERVALS
from ..mesh_token import request_peer_token
from ..safety import ToolKind
from .args import ToolArgs, arg
from .base import HubTool, ToolCall, on_hub

TOOL_DOMAIN = "devices"


class GetHubMeshTool(HubTool[ToolArgs]):
    name = "hub_get_hub_mesh"
    covers = (on_hub("hub_get_hub_mesh"),)
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
    enabled: bool | None = arg(bool, "Hub Mesh on/off: applies at the next reboot")
    link_devices: list[str] | None = arg(
        VAR_NAMES, "Peer devices to link here: label, id or hub/label from available_to_link"
    )
    link_variables: list[str] | None = arg(
        VAR_NAMES, "Peer hub variables to link here; 'local=peer_var' relinks a linked one"
    )
    action: str | None = arg(
        vol.In(("full_sync", "reconnect", "new_token")),
        "Run now: full sync, reconnect peers (drops links briefly), new mesh token",
    )
    peer_token_for: str | None = arg(
        vol.All(str, vol.Length(min=1, max=100)),
        "Peer hub (name or id) needing its token; alone",
    )


class UpdateHubMeshTool(HubTool[UpdateHubMeshArgs]):
    name = "hub_update_hub_mesh"
    covers = (on_hub("hub_update_hub_mesh"),)
    title = "Update Hub Mesh"
    description = (
        "Change Hub Mesh: on/off (after a reboot), full sync interval, the peer hub whose "
        "modes this hub follows, shared hub variables, linking peers' devices and variables; "
        "each read back. Share a device: hub_update_device(hub_mesh=...). A peer warning of "
        "its token: peer_token_for (the owner types it in HA Repairs, never you)."
    )
    kind = ToolKind.WRITE  # on/off: nothing is lost, reversible before and after the reboot
    idempotent = False  # a new token or a link each time

    async def run(self, call: ToolCall, args: UpdateHubMeshArgs) -> dict[str, Any]:
        wanted = (
            args.full_refresh_interval_s,
            args.follow_modes_of,
            args.share_variables,
            args.unshare_variables,
            args.enabled,
            args.link_devices,
            args.link_variables,
            args.action,
        )
        if args.peer_token_for is not None:
            if any(v is not None for v in wanted):
                raise ToolError(
                    "peer_token_for goes alone: the token is typed by the owner later, the "
                    "other settings apply now. Nothing was sent."
                )
            return await _ask_peer_token(call, args.peer_token_for)
        if all(v is None for v in wanted):
            raise ToolError("Nothing to change: give at least one setting.")
        out = await call.hub.devices.mesh.update(
            call.device_allowed,
            full_refresh_interval_s=args.full_refresh_interval_s,
            follow_modes_of=args.follow_modes_of,
            share_variables=args.share_variables,
            unshare_variables=args.unshare_variables,
            enabled=args.enabled,
            link_devices=args.link_devices,
            link_variables=args.link_variables,
            action=args.action,
        )
        if out.get("reboot_needed"):
            out.setdefault("notes", []).append("Reboot with hub_reboot_hub to apply it.")
        return out


async def _ask_peer_token(call: ToolCall, wanted: str) -> dict[str, Any]:
    """Check the peer, then hand the token step to Home Assistant's Repairs."""
    peer = await call.hub.devices.mesh.token_peer(wanted)
    return {
        "summary": f"The mesh token of peer hub {peer['name']} waits for the owner to type it "
        "in Home Assistant",
        "pending": True,
        "peer": {"hub_id": peer["hub_id"], "name": peer["name"], "warning": peer["warning"]},
        "next": request_peer_token(
            call.hass,
            call.runtime.entry,
            peer,
            user=call.caller.name,
            user_id=call.caller.user.id,
            gateway=UpdateHubMeshTool.gateway(),
        ),
    }


ORDER = 26

TOOLS: tuple[type[HubTool[Any]], ...] = (GetHubMeshTool, UpdateHubMeshTool)
