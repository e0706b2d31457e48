"""Hub Mesh: what this hub shares with its peer hubs and what it has linked from them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..hub.client import HubClient
from ..hub.mesh import fetch_hub_mesh
from ..redact import redact


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
