"""Hub Mesh: what this hub shares with its peer hubs and what it has linked from them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from ..errors import ToolError
from ..hub.controllers import MeshController
from ..hub.mesh import HubMesh, MeshDevice
from ..redact import redact
from .steps import Step, run_steps

PEER_TOKEN_MAX = 200


def check_peer_token(token: str) -> str | None:
    """Why ``token`` cannot be a peer hub's mesh token (None: it can be sent)."""
    if not token:
        return "The token is empty: copy it from the peer hub's Hub Mesh page."
    if len(token) > PEER_TOKEN_MAX:
        return f"A mesh token has at most {PEER_TOKEN_MAX} characters."
    if not token.isascii() or not token.isprintable() or any(c.isspace() for c in token):
        return "A mesh token is one word of printable characters (no spaces)."
    return None


class HubMeshReader:
    """The Hub Mesh page in one answer, within the device allowlist."""

    def __init__(self, mesh: MeshController) -> None:
        self._mesh = mesh

    async def overview(self, device_allowed: Callable[[str], bool]) -> dict[str, Any]:
        """Peers, shared/linked devices and variables; devices outside the allowlist are
        counted, not shown (a peer's own device ids are its, not this hub's)."""
        mesh = await self._mesh.get()
        hidden = 0

        def allowed(items: list[MeshDevice]) -> list[MeshDevice]:
            nonlocal hidden
            kept = [d for d in items if (i := d["device_id"]) and device_allowed(i)]
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
        enabled: bool | None = None,
        link_devices: list[str] | None = None,
        link_variables: list[str] | None = None,
        action: str | None = None,
    ) -> dict[str, Any]:
        """The Hub Mesh page's settings and buttons; everything validated before anything is
        sent, each step read back, a failure saying what landed."""
        mesh = await self._mesh.get()
        steps: list[Step] = []
        notes: list[str] = []
        if full_refresh_interval_s is not None:
            seconds = full_refresh_interval_s
            steps.append(
                (
                    "full_refresh_interval_s",
                    lambda: self._mesh.set_full_refresh_interval(seconds),
                )
            )
        if follow_modes_of is not None:
            hub_id = _peer_id(mesh, follow_modes_of)
            steps.append(("follow_modes_of", lambda: self._mesh.follow_modes(hub_id)))
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
                            partial(self._mesh.share_variable, name, share),
                        )
                    )
        for text in dict.fromkeys(link_devices or []):
            steps.append(self._device_step(mesh, text, device_allowed, notes))
        for text in dict.fromkeys(link_variables or []):
            steps.append(self._variable_step(mesh, text))
        if action is not None:
            steps.append((action, partial(_ACTIONS[action], self._mesh)))
            notes.append(_ACTION_NOTES[action])
        if mesh.enabled is False and steps:
            raise ToolError(
                "Hub Mesh is off on this hub: its settings cannot be changed.",
                hint="enabled=true, then reboot the hub.",
                subject="hub_mesh_off",
            )
        if enabled is not None:
            steps.insert(0, ("enabled", lambda: self._switch(enabled, notes)))
        done = await run_steps(steps)
        out = {"applied": done, **(await self.overview(device_allowed))}
        if notes:
            out["notes"] = notes
        if enabled is not None and out.get("enabled") is not enabled:
            out["reboot_needed"] = True  # the switch takes effect at the next reboot
        return out

    async def token_peer(self, wanted: str) -> dict[str, Any]:
        """The peer hub (by name or id) whose mesh token the owner may type: one that shows
        a warning, the only row the hub UI's token dialog opens from."""
        mesh = await self._mesh.get()
        if mesh.enabled is False:
            raise ToolError(
                "Hub Mesh is off on this hub: there is no peer to give a token to.",
                hint="enabled=true, then reboot the hub.",
                subject="hub_mesh_off",
            )
        hub_id = _peer_id(mesh, wanted)
        if hub_id is None:
            raise ToolError("Name the peer hub whose token is wanted (not 'none').")
        peer = next(p for p in mesh.peers if str(p.get("hub_id")) == hub_id)
        if not peer.get("warning"):
            raise ToolError(
                f"Peer hub {peer.get('name')} shows no warning, so it needs no token from "
                "here (the hub's own page offers the token dialog only for a peer that "
                "warns). Nothing was asked.",
                subject="peer_token",
            )
        return {"hub_id": hub_id, "name": str(peer.get("name") or hub_id),
                "warning": peer.get("warning")}  # fmt: skip

    async def set_peer_token(self, hub_id: str, token: str) -> dict[str, Any]:
        """Store a peer hub's mesh token (typed by the owner, never by an assistant), then
        read the peer back: its warning must be gone. The token is in no answer."""
        token = token.strip()
        if (why := check_peer_token(token)) is not None:
            raise ToolError(f"{why} Nothing was sent.")
        mesh = await self._mesh.get()
        if not any(str(p.get("hub_id")) == hub_id for p in mesh.peers):
            raise ToolError(f"Peer hub {hub_id} is no longer in Hub Mesh. Nothing was sent.")
        peer = await self._mesh.set_peer_token(hub_id, token)
        shown: dict[str, Any] = {"hub_id": hub_id, "name": None, "active": None, "offline": None}
        if peer is not None:
            shown = {"hub_id": peer["hub_id"], "name": peer["name"]}
            shown |= {"active": peer["active"], "offline": peer["offline"]}
        name = shown.get("name") or hub_id
        return {
            "summary": f"The hub stored the mesh token of peer hub {name}; it shows no "
            "warning any more",
            "peer": shown,
        }

    async def _switch(self, on: bool, notes: list[str]) -> None:
        mesh = await self._mesh.set_enabled(on)
        word = "on" if on else "off"
        notes.append(
            f"Hub Mesh {word}: "
            + (
                "already reads so."
                if mesh.enabled is on
                else f"the hub turns it {word} at its next reboot; until "
                f"then it reads enabled={mesh.enabled}."
            )
        )

    def _device_step(
        self, mesh: HubMesh, text: str, device_allowed: Callable[[str], bool], notes: list[str]
    ) -> Step:
        item = _offer(mesh.available_devices, text, "label", "device")
        label = f"link {item['label']} ({item['hub']})"

        async def link() -> None:
            local = await self._mesh.link_device(str(item["hub_id"]), str(item["device_id"]))
            shown = f"local device {local}" if device_allowed(local) else "outside allowlist"
            notes.append(f"{label}: {shown}")

        return (label, link)

    def _variable_step(self, mesh: HubMesh, text: str) -> Step:
        local, sep, source = text.partition("=")
        if not sep:
            item = _offer(mesh.available_variables, text, "name", "hub variable")
            hub_id, name = str(item["hub_id"]), str(item["name"])
            return (f"link {name}", partial(self._mesh.link_variable, hub_id, name))
        if not any(v.get("name") == local for v in mesh.linked_variables):
            raise ToolError(
                f"No linked hub variable '{local}' here. Linked: "
                f"{', '.join(str(v.get('name')) for v in mesh.linked_variables) or 'none'}."
            )
        item = _offer(mesh.available_variables, source, "name", "hub variable")
        return (
            f"relink {local}",
            partial(
                self._mesh.relink_variable,
                local,
                str(item["hub_id"]),
                str(item["hub"]),
                str(item["name"]),
            ),
        )


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


_ACTIONS = {
    "full_sync": MeshController.full_sync,
    "reconnect": MeshController.reconnect,
    "new_token": MeshController.regenerate_token,
}
_ACTION_NOTES = {
    "full_sync": "Full sync started; the hub does not report when it ends.",
    "reconnect": "Peer connections dropped and reopening; see peers' active/offline.",
    "new_token": "New mesh token made (never shown): peers that use it need it re-entered "
    "from this hub's Hub Mesh page.",
}


def _offer(
    items: Sequence[Mapping[str, Any]], wanted: str, key: str, what: str
) -> Mapping[str, Any]:
    """What a peer offers, by its label/name or a peer's id, or '<hub>/<item>'."""
    text = wanted.strip()

    def hits(hub: str | None, item: str) -> list[Mapping[str, Any]]:
        return [
            o
            for o in items
            if item.lower() in (str(o.get(key)).lower(), str(o.get("device_id")))
            and (hub is None or hub.lower() in (str(o.get("hub")).lower(), str(o.get("hub_id"))))
        ]

    found = hits(None, text)
    if not found and "/" in text:
        hub, _, item = text.partition("/")
        found = hits(hub.strip(), item.strip())
    if len(found) == 1:
        return found[0]
    offered = ", ".join(f"{o.get('hub')}/{o.get(key)}" for o in items) or "none"
    raise ToolError(
        f"{'Several' if found else 'No'} peer {what}s match '{wanted}'. Offered: {offered}."
    )
