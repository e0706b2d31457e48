"""Hub Mesh: what this hub shares with its peer hubs and what it has linked from them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ..errors import ToolError
from ..hub.client import HubClient
from ..hub.mesh import (
    HubMesh,
    fetch_hub_mesh,
    follow_modes,
    set_full_refresh_interval,
    share_variable,
)
from ..redact import redact
from .steps import Step, run_steps


class HubMeshReader:
    """The Hub Mesh page in one answer, within the device allowlist."""

    def __init__(self, client: HubClient) -> None:
        self._client = client

    async def overview(self, device_allowed: Callable[[str], bool]) -> dict[str, Any]:
        """Peers, shared/linked devices and variables; devices outside the allowlist are
        counted, not shown (a peer's own device ids are its, not this hub's)."""
        mesh = await fetch_hub_mesh(self._client)
        hidden = 0

        def allowed(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
            nonlocal hidden
            kept = [d for d in items if d.get("device_id") and device_allowed(d["device_id"])]
            hidden += len(items) - len(kept)
            return kept

        out: dict[str, Any] = {
            "enabled": mesh.enabled,
            "peers": mesh.peers,
            "shared_devices": allowed(mesh.shared_devices),
            "linked_devices": allowed(mesh.linked_devices),
            "available_to_link": mesh.available_devices,
            "shared_variables": mesh.shared_variables,
            "linked_variables": mesh.linked_variables,
            "available_variables": mesh.available_variables,
            "private_device_count": mesh.private_device_count,
            "private_variable_count": mesh.private_variable_count,
            "full_refresh_interval_s": mesh.full_refresh_interval_s,
            "mode_hub_id": mesh.mode_hub_id,
        }
        if hidden:
            out["hidden_devices"] = hidden
        shared = len(out["shared_devices"])
        out["summary"] = (
            "Hub Mesh is off on this hub."
            if mesh.enabled is False
            else f"{len(mesh.peers)} peer hub(s); sharing {shared} device(s) and "
            f"{len(mesh.shared_variables)} variable(s); {len(out['linked_devices'])} linked "
            f"device(s) here; {len(mesh.available_devices)} more offered by peers."
        )
        return dict(redact(out))

    async def update(
        self,
        device_allowed: Callable[[str], bool],
        *,
        full_refresh_interval_s: int | None = None,
        follow_modes_of: str | None = None,
        share_variables: list[str] | None = None,
        unshare_variables: list[str] | None = None,
    ) -> dict[str, Any]:
        """The Hub Mesh page's settings; everything validated before anything is sent, each
        step read back, a failure saying what landed."""
        mesh = await fetch_hub_mesh(self._client)
        steps: list[Step] = []
        if full_refresh_interval_s is not None:
            seconds = full_refresh_interval_s
            steps.append(
                (
                    "full_refresh_interval_s",
                    lambda: set_full_refresh_interval(self._client, seconds),
                )
            )
        if follow_modes_of is not None:
            hub_id = _peer_id(mesh, follow_modes_of)
            steps.append(("follow_modes_of", lambda: follow_modes(self._client, hub_id)))
        shared = {str(v.get("name")) for v in mesh.shared_variables}
        for names, share in ((share_variables or [], True), (unshare_variables or [], False)):
            for name in dict.fromkeys(names):
                if name not in mesh.variable_names:
                    raise ToolError(
                        f"No hub variable '{name}' on this hub. Its variables: "
                        f"{', '.join(mesh.variable_names) or 'none'}."
                    )
                if (name in shared) is not share:
                    steps.append(
                        (
                            f"{'share' if share else 'unshare'} {name}",
                            partial(share_variable, self._client, name, share),
                        )
                    )
        if mesh.enabled is False and steps:
            raise ToolError(
                "Hub Mesh is off on this hub: its settings cannot be changed.",
                hint="Turn Hub Mesh on in the hub's Settings > Hub Mesh (it needs a reboot).",
            )
        done = await run_steps(steps)
        return {"applied": done, **(await self.overview(device_allowed))}


def _peer_id(mesh: HubMesh, wanted: str) -> str | None:
    """A peer hub's id from its id or name; 'none' -> None (this hub's own modes)."""
    text = wanted.strip()
    if text.lower() in ("", "none"):
        return None
    for peer in mesh.peers:
        if text in (str(peer.get("hub_id")), str(peer.get("name"))) or (
            text.lower() == str(peer.get("name")).lower()
        ):
            return str(peer.get("hub_id"))
    raise ToolError(
        f"No peer hub '{wanted}'. Peers: "
        f"{', '.join(str(p.get('name')) for p in mesh.peers) or 'none'}; 'none' for this "
        "hub's own modes."
    )
