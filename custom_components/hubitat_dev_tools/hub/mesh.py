"""Hub Mesh (hub-to-hub sharing of devices and hub variables; not the Z-Wave/Zigbee mesh).

``GET /hub2/hubMeshJson`` is what the hub UI's Hub Mesh page reads (vue-hub2.min.js
``populatePage``): the peer hubs (``hubList``), this hub's shared and private devices, the
devices it has linked from peers and those peers offer, the same for hub variables, and the
hub whose modes it follows. Its ``hubMeshToken`` is a credential and never leaves here.
Sharing one device is the device page's Hub Mesh switch (``hub/devices.py``); the page's
own setters (full sync interval, followed modes, variable sharing) and buttons (link a
peer's device or variable, relink, regenerate the token) are GETs whose answer the page
ignores: each is decided by re-reading the JSON. Turning Hub Mesh on or off is stored and
applied at the next reboot; full sync and reconnect leave nothing in the JSON to check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict
from urllib.parse import quote

from .client import HubClient
from .effects import confirm_effect, wait_for_effect
from .errors import HubBadResponseError, HubNotFoundError
from .models import dict_list, norm_id


class OwnVariable(TypedDict):
    """One of this hub's own variables as the Hub Mesh page lists it: its name and type
    (``integer``/``bigdecimal``/``boolean``/``string``/``datetime``), no value."""

    name: str
    type: str | None


class MeshPeer(TypedDict):
    """A peer hub as the Hub Mesh page lists it (``hubList[]``)."""

    hub_id: object  # as the hub wrote it
    name: object
    ip: object
    active: bool | None
    offline: bool | None
    device_ids: list[str]  # the peer's devices this hub has linked
    variables: list[str]  # the peer's shared variables' names
    warning: NotRequired[str]  # e.g. a missing or old mesh token
    login_security: NotRequired[bool]  # the peer has Hub Security on


class MeshDevice(TypedDict):
    """One of this hub's devices shared into the mesh, or a linked device from a peer."""

    device_id: str | None
    label: object
    child_count: NotRequired[int]


class MeshAvailableDevice(TypedDict):
    """A device a peer shares that this hub has not linked."""

    hub: object  # the peer's name
    hub_id: str | None
    device_id: str | None
    label: object


class MeshSharedVariable(TypedDict):
    """One of this hub's variables shared into the mesh."""

    name: object
    type: object


class MeshLinkedVariable(TypedDict):
    """A variable linked from a peer."""

    name: object
    from_hub: NotRequired[object]
    source_variable: NotRequired[object]  # when the local name differs from the peer's
    hub_offline: NotRequired[bool]


class MeshAvailableVariable(TypedDict):
    """A variable a peer shares that this hub has not linked."""

    name: object
    hub: object
    hub_id: str | None


@dataclass(slots=True)
class HubMesh:
    """The Hub Mesh page's data, normalized (no credential)."""

    enabled: bool | None
    full_refresh_interval_s: int | None
    mode_hub_id: str | None
    peers: list[MeshPeer] = field(default_factory=list)
    shared_devices: list[MeshDevice] = field(default_factory=list)
    linked_devices: list[MeshDevice] = field(default_factory=list)
    available_devices: list[MeshAvailableDevice] = field(default_factory=list)
    shared_variables: list[MeshSharedVariable] = field(default_factory=list)
    linked_variables: list[MeshLinkedVariable] = field(default_factory=list)
    available_variables: list[MeshAvailableVariable] = field(default_factory=list)
    private_device_count: int = 0
    private_variable_count: int = 0
    variables: list[OwnVariable] = field(default_factory=list)  # every own one, shared or not
    # a digest of the mesh token, to see a regeneration land (never the token, never served)
    token_digest: str | None = field(default=None, repr=False)

    @property
    def variable_names(self) -> list[str]:
        """This hub's own variables' names (shared or not), sorted."""
        return sorted(str(v["name"]) for v in self.variables)


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None and not isinstance(value, bool) else None
    except (TypeError, ValueError):
        return None


def _device(item: dict[str, Any]) -> MeshDevice:
    out: MeshDevice = {
        "device_id": norm_id(item.get("id")),
        "label": item.get("name") or item.get("deviceDisplayName"),
    }
    if children := _int(item.get("childCount")):
        out["child_count"] = children
    return out


def _peer(item: dict[str, Any]) -> MeshPeer:
    out: MeshPeer = {
        "hub_id": item.get("hubId"),
        "name": item.get("name"),
        "ip": item.get("ipAddress"),
        "active": _flag(item.get("active")),
        "offline": _flag(item.get("offline")),
        "device_ids": [i for i in (norm_id(d) for d in item.get("deviceIds") or []) if i],
        "variables": [str(v) for v in item.get("hubVarNames") or []],
    }
    if item.get("warning"):
        out["warning"] = str(item["warning"])
    if _flag(item.get("uiSecurityEnabled")):
        out["login_security"] = True
    return out


def parse_hub_mesh(data: Any) -> HubMesh:
    """The ``/hub2/hubMeshJson`` answer; absent sections read as none."""
    if not isinstance(data, dict):
        raise HubBadResponseError("Unexpected Hub Mesh answer (not an object)")
    hubs = {
        str(p.get("hubId")): str(p.get("name") or p.get("hubId"))
        for p in dict_list(data.get("hubList"))
    }
    available: list[MeshAvailableDevice] = [
        {
            "hub": item.get("hubName") or hubs.get(str(item.get("hubId"))),
            "hub_id": norm_id(item.get("hubId")),
            "device_id": norm_id(item.get("deviceId") or item.get("id")),
            "label": item.get("deviceDisplayName") or item.get("name"),
        }
        for item in dict_list(data.get("availableLinkedDevices"))
    ]
    linked_vars: list[MeshLinkedVariable] = []
    for item in dict_list(data.get("localLinkedHubVariables")):
        var: MeshLinkedVariable = {"name": item.get("name")}
        if item.get("sourceHubName") or item.get("hubName"):
            var["from_hub"] = item.get("sourceHubName") or item["hubName"]
        if item.get("nonmatchingName") and item.get("sourceVarName"):
            var["source_variable"] = item["sourceVarName"]
        if _flag(item.get("hubAvailable")) is False:
            var["hub_offline"] = True
        linked_vars.append(var)
    # this hub's own variables, shared or not (no value: the page shows name and type only)
    own = [
        OwnVariable(name=str(v.get("name")), type=str(v.get("type") or "").lower() or None)
        for key in ("localHubVariables", "sharedHubVariables")
        for v in dict_list(data.get(key))
        if v.get("name")
    ]
    return HubMesh(
        enabled=_flag(data.get("hubMeshEnabled")),
        full_refresh_interval_s=_int(data.get("fullRefreshInterval")),
        mode_hub_id=str(data["modeHubId"]) if data.get("modeHubId") else None,
        peers=[_peer(p) for p in dict_list(data.get("hubList"))],
        shared_devices=[_device(d) for d in dict_list(data.get("sharedDevices"))],
        linked_devices=[_device(d) for d in dict_list(data.get("localLinkedDevices"))],
        available_devices=available,
        shared_variables=[
            {"name": v.get("name"), "type": v.get("type")}
            for v in dict_list(data.get("sharedHubVariables"))
        ],
        linked_variables=linked_vars,
        available_variables=[
            {
                "name": v.get("name"),
                "hub": v.get("hubName") or hubs.get(str(v.get("hubId"))),
                "hub_id": norm_id(v.get("hubId")),
            }
            for v in dict_list(data.get("availableLinkedHubVariables"))
        ],
        private_device_count=len(dict_list(data.get("privateDevices"))),
        private_variable_count=len(dict_list(data.get("localHubVariables"))),
        token_digest=(
            hashlib.sha256(str(data["hubMeshToken"]).encode()).hexdigest()[:16]
            if data.get("hubMeshToken")
            else None
        ),
        variables=own,
    )


async def fetch_hub_mesh(client: HubClient) -> HubMesh:
    """GET /hub2/hubMeshJson, parsed (the token dropped)."""
    try:
        data = await client.get_json("/hub2/hubMeshJson")
    except HubNotFoundError as err:
        raise HubNotFoundError(
            "This hub does not serve the Hub Mesh page (/hub2/hubMeshJson): its firmware may "
            "predate Hub Mesh"
        ) from err
    return parse_hub_mesh(data)


# The full-sync intervals the Hub Mesh page offers (seconds; 0 = never).
REFRESH_INTERVALS = (0, 120, 300, 3600)


async def _mesh_write(
    client: HubClient, path: str, landed: Callable[[HubMesh], bool], *, failed: str
) -> None:
    """GET one of the Hub Mesh page's setters (the page ignores the answer and reloads the
    JSON), decided by re-reading ``/hub2/hubMeshJson``."""

    async def check() -> bool:
        return landed(await fetch_hub_mesh(client))

    await confirm_effect(
        lambda: client.request("GET", path, expect="discard", retry=False), check, failed=failed
    )


async def set_full_refresh_interval(client: HubClient, seconds: int) -> None:
    """GET /device/setHubMeshFullRefreshInterval/<seconds>."""
    await _mesh_write(
        client,
        f"/device/setHubMeshFullRefreshInterval/{int(seconds)}",
        lambda m: m.full_refresh_interval_s == seconds,
        failed=f"The hub did not set the Hub Mesh full sync to {seconds} s",
    )


async def follow_modes(client: HubClient, hub_id: str | None) -> None:
    """GET /device/followModes/<hubId> (``none``: this hub's own modes)."""
    await _mesh_write(
        client,
        f"/device/followModes/{quote(hub_id or 'none', safe='')}",
        lambda m: m.mode_hub_id == hub_id,
        failed="The hub did not change the hub whose modes it follows",
    )


async def share_variable(client: HubClient, name: str, share: bool) -> None:
    """GET /hub2/addVarToMesh/<name> or /hub2/removeVarFromMesh/<name>."""
    verb = "addVarToMesh" if share else "removeVarFromMesh"
    await _mesh_write(
        client,
        f"/hub2/{verb}/{quote(name, safe='')}",
        lambda m: (name in {str(v.get("name")) for v in m.shared_variables}) is share,
        failed=f"The hub did not {'share' if share else 'stop sharing'} hub variable {name}",
    )


async def set_enabled(client: HubClient, on: bool) -> HubMesh:
    """GET /hub/advanced/enableHubMesh or disableHubMesh. The hub stores the switch and
    applies it at its next reboot (the page says "please reboot"): what can be checked now
    is that the hub took the request; the mesh as read after it is returned."""
    path = "/hub/advanced/enableHubMesh" if on else "/hub/advanced/disableHubMesh"
    await client.request("GET", path, expect="discard", retry=False)
    return await fetch_hub_mesh(client)


def _linked_ids(mesh: HubMesh) -> set[str]:
    return {str(d.get("device_id")) for d in mesh.linked_devices}


async def link_device(client: HubClient, hub_id: str, device_id: str) -> str:
    """GET /device/createLinked/<hubId>/<deviceId> (a peer's device ids, from
    ``availableLinkedDevices``); the new local device's id, read back from
    ``localLinkedDevices``."""
    before = _linked_ids(await fetch_hub_mesh(client))
    new: list[str] = []

    def landed(mesh: HubMesh) -> bool:
        new[:] = sorted(_linked_ids(mesh) - before)
        return bool(new)

    await _mesh_write(
        client,
        f"/device/createLinked/{quote(hub_id, safe='')}/{quote(device_id, safe='')}",
        landed,
        failed=f"The hub did not link device {device_id} of hub {hub_id}",
    )
    return new[0]


def _linked_var(mesh: HubMesh, name: str) -> MeshLinkedVariable | None:
    return next((v for v in mesh.linked_variables if v.get("name") == name), None)


async def link_variable(client: HubClient, hub_id: str, name: str) -> None:
    """GET /hub2/createLinkedHubVar/<hubId>/<name>: a local hub variable linked to a peer's."""
    await _mesh_write(
        client,
        f"/hub2/createLinkedHubVar/{quote(hub_id, safe='')}/{quote(name, safe='')}",
        lambda m: _linked_var(m, name) is not None,
        failed=f"The hub did not link hub variable {name}",
    )


async def relink_variable(
    client: HubClient, local: str, hub_id: str, hub_name: str, source: str
) -> None:
    """GET /hub2/updateLinkedHubVar/<local>/<hubId>/<source>: point a linked hub variable
    at another peer variable (the page's Relink dialog)."""

    def landed(mesh: HubMesh) -> bool:
        var = _linked_var(mesh, local)
        return var is not None and (var.get("source_variable") or local, var.get("from_hub")) == (
            source,
            hub_name,
        )

    await _mesh_write(
        client,
        f"/hub2/updateLinkedHubVar/{quote(local, safe='')}/{quote(hub_id, safe='')}/"
        f"{quote(source, safe='')}",
        landed,
        failed=f"The hub did not relink hub variable {local} to {source}",
    )


async def full_sync_now(client: HubClient) -> None:
    """GET /device/hubMeshFullRefreshNow: starts a full sync (the page only says it began)."""
    await client.request("GET", "/device/hubMeshFullRefreshNow", expect="discard", retry=False)


async def reconnect(client: HubClient) -> None:
    """GET /device/hubMeshReconnect: drops and re-opens the peer connections."""
    await client.request("GET", "/device/hubMeshReconnect", expect="discard", retry=False)


def _peer_row(mesh: HubMesh, hub_id: str) -> MeshPeer | None:
    return next((p for p in mesh.peers if str(p.get("hub_id")) == hub_id), None)


# How long a stored peer token is given to clear the peer's warning (the hub reconnects to
# the peer with it; seconds).
PEER_TOKEN_WAIT_S = 10.0


async def set_peer_token(client: HubClient, hub_id: str, token: str) -> MeshPeer | None:
    """POST /device/setHubMeshToken JSON ``{hubId, token}``: store a peer hub's mesh token
    (the hub UI's token dialog, ``saveHubMeshToken``, opened from a peer row's warning icon,
    then reloads ``/hub2/hubMeshJson``). Decided by the peer's ``warning`` clearing in
    ``hubMeshJson`` (polled up to ``PEER_TOKEN_WAIT_S``); the peer's row as read after it.
    The token is sent once: never logged, kept or put into an error (the hub's answer is not
    read). Never retried."""

    async def check() -> bool:
        peer = _peer_row(await fetch_hub_mesh(client), hub_id)
        return peer is not None and not peer.get("warning")

    refused: HubBadResponseError | HubNotFoundError | None = None
    try:
        await client.request(
            "POST",
            "/device/setHubMeshToken",
            json_body={"hubId": hub_id, "token": token},
            expect="discard",
            retry=False,
        )
    except (HubBadResponseError, HubNotFoundError) as err:
        refused = err  # the effect decides; the error only if nothing changed
    if not await wait_for_effect(check, seconds=PEER_TOKEN_WAIT_S):
        raise HubBadResponseError(
            "The hub was given the peer's mesh token, but the peer still shows a warning (a "
            "wrong or old token, or the peer is unreachable)"
            + (f"; the hub answered with an error ({type(refused).__name__})" if refused else ""),
            hint="Copy the token again from the peer hub's own Hub Mesh page.",
        )
    return _peer_row(await fetch_hub_mesh(client), hub_id)


async def regenerate_token(client: HubClient) -> None:
    """GET /device/generateHubMeshToken, decided by the token (compared as a digest) changing."""
    before = (await fetch_hub_mesh(client)).token_digest
    await _mesh_write(
        client,
        "/device/generateHubMeshToken",
        lambda m: m.token_digest is not None and m.token_digest != before,
        failed="The hub did not regenerate its Hub Mesh token",
    )
