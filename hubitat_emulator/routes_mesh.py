"""Hub Mesh: the hubs this one is meshed with, what it shares and what it links.

State (``HomeState.mesh``) and the endpoints of the hub UI's Hub Mesh page
(vue-hub2.min.js ``populatePage`` / ``shareDevice`` / ``unshareDevice``):

* ``GET /hub2/hubMeshJson``: ``{hubList, hubMeshToken, hubMeshEnabled, fullRefreshInterval,
  sharedDevices, privateDevices, localLinkedDevices, availableLinkedDevices,
  localHubVariables, sharedHubVariables, localLinkedHubVariables,
  availableLinkedHubVariables, modeHubId, migrationSourceHubs, migrationDestinationHubs}``.
  A device is shared when its ``meshEnabled`` is on (the device page's switch); a linked
  device (a local copy of a peer's device) is neither shared nor private.
  ``localHubVariables`` + ``sharedHubVariables`` list every variable of the hub as
  ``{name, type}`` (no value, no connector: the page reads only those two), whether the
  Maker API instance selects it or not (``maker.variable_names`` limits only the Maker API).
* ``GET /device/addToMesh/<id>`` and ``/device/removeFromMesh/<id>``: the page's share and
  stop-sharing buttons (the page ignores the answer and reloads the JSON).
* ``GET /device/setHubMeshFullRefreshInterval/<s>`` (the page's choices 0, 120, 300, 3600),
  ``/device/followModes/<hubId|none>``, ``/hub2/addVarToMesh/<name>`` and
  ``/hub2/removeVarFromMesh/<name>``: the page's setters (answers ignored; an unknown value
  changes nothing *(no evidence of the hub's answer)*).
* ``/hub/advanced/enableHubMesh`` / ``disableHubMesh`` (``mesh.pending_enabled``, applied at
  the next reboot), ``/device/createLinked/<hubId>/<deviceId>``,
  ``/hub2/createLinkedHubVar/<hubId>/<name>``, ``/hub2/updateLinkedHubVar/<name>/<hubId>/<src>``,
  ``/device/hubMeshFullRefreshNow``, ``/device/hubMeshReconnect`` (counted) and
  ``/device/generateHubMeshToken``: the page's switch and buttons (answers ignored).
* ``hubMeshToken`` is a credential (a peer hub presents it): served, never to be echoed.
* ``POST /device/setHubMeshToken`` JSON ``{hubId, token}`` (the page's token dialog,
  ``saveHubMeshToken``, opened from a peer row's warning icon): stores a peer's token; the
  right one clears the peer's token warning and makes it active at once *(the emulator's
  choice: the real hub reconnects in the background)*, a wrong one leaves the warning.
  Knob: ``mesh.secure_peer()`` adds a peer with Hub Security whose token is missing.
* Knob: ``mesh.homekit_available`` (the hub's HomeKit integration is set up: the device
  page offers the HomeKit switch); with ``mesh.enabled`` off the page offers no Hub Mesh
  switch (``device.meshSelectionEnabled`` false).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .home import Home
from .mesh_state import REFRESH_INTERVALS, LinkedDevice, LinkedVariable, MeshPeer, MeshState
from .model import HomeState
from .responses import Responses
from .routes_common import Routes


def _peer(state: MeshState, hub_id: str) -> MeshPeer | None:
    return next((p for p in state.peers if p.hub_id == hub_id), None)


def _children(st: HomeState, dev_id: int) -> int:
    return sum(1 for d in st.devices.values() if d.parent_id == dev_id)


def _linked_var(mesh: MeshState, var: LinkedVariable) -> dict[str, Any]:
    peer = _peer(mesh, var.hub_id)
    return {
        "name": var.name,
        "hubId": var.hub_id,
        "hubName": peer.name if peer else None,
        "ipAddress": peer.ip if peer else None,
        "hubAvailable": peer is not None and not peer.offline,
        "nonmatchingName": var.name != var.source_name,
        "sourceVarName": var.source_name,
        "sourceHubName": peer.name if peer else None,
        "inUseByApps": False,
    }


def hub_mesh_json(st: HomeState) -> dict[str, Any]:
    mesh = st.mesh
    linked = mesh.linked_ids()
    own = [d for d in st.devices.values() if d.id not in linked and d.parent_id is None]
    local_vars = [v for v in st.variables.values() if v.name not in mesh.shared_variables]
    linked_vars = {(v.hub_id, v.source_name) for v in mesh.linked_variables}
    return {
        "hubList": [
            {
                "name": p.name,
                "hubId": p.hub_id,
                "ipAddress": p.ip,
                "active": p.active,
                "offline": p.offline,
                "warning": p.shown_warning(),
                "deviceIds": list(p.device_ids),
                "lastActive": p.last_active_ms,
                "uiSSLOnly": False,
                "uiSecurityEnabled": p.ui_security,
                "hubVarNames": list(p.var_names),
            }
            for p in mesh.peers
        ],
        "hubMeshToken": mesh.token,
        "hubMeshEnabled": mesh.enabled,
        "fullRefreshInterval": mesh.full_refresh_interval,
        "sharedDevices": [
            {
                "id": d.id,
                "name": d.display_name,
                "appsUsing": list(d.apps_using),
                "childCount": _children(st, d.id),
                "sourceHubId": None,
            }
            for d in own
            if d.mesh_enabled
        ],
        "privateDevices": [
            {"id": d.id, "name": d.display_name, "childCount": _children(st, d.id)}
            for d in own
            if not d.mesh_enabled
        ],
        "localLinkedDevices": [
            {"id": link.id, "name": link.name, "childCount": link.child_count}
            for link in mesh.linked
        ],
        "availableLinkedDevices": [
            {
                "id": r.device_id,
                "deviceId": r.device_id,
                "deviceDisplayName": r.name,
                "hubId": r.hub_id,
                "hubName": (peer.name if (peer := _peer(mesh, r.hub_id)) else r.hub_id),
                "hubIpAddress": peer.ip if peer else None,
                "childCount": r.child_count,
            }
            for r in mesh.available
        ],
        "localHubVariables": [{"name": v.name, "type": v.type} for v in local_vars],
        "sharedHubVariables": [
            {"name": v.name, "type": v.type}
            for v in st.variables.values()
            if v.name in mesh.shared_variables
        ],
        "localLinkedHubVariables": [_linked_var(mesh, v) for v in mesh.linked_variables],
        "availableLinkedHubVariables": [
            {"name": name, "hubId": p.hub_id, "hubName": p.name, "hubIpAddress": p.ip}
            for p in mesh.peers
            for name in p.var_names
            if (p.hub_id, name) not in linked_vars
        ],
        "modeHubId": mesh.mode_hub_id,
        "migrationSourceHubs": [],
        "migrationDestinationHubs": [],
    }


def setup(app: web.Application, home: Home, http: Responses) -> None:
    r = _MeshRoutes(home, http)
    app.router.add_get("/hub2/hubMeshJson", r.mesh_json)
    app.router.add_get("/device/addToMesh/{id}", r.add_to_mesh)
    app.router.add_get("/device/removeFromMesh/{id}", r.remove_from_mesh)
    app.router.add_get("/device/setHubMeshFullRefreshInterval/{seconds}", r.refresh_interval)
    app.router.add_get("/device/followModes/{hub_id}", r.follow_modes)
    app.router.add_get("/hub2/addVarToMesh/{name}", r.share_variable)
    app.router.add_get("/hub2/removeVarFromMesh/{name}", r.unshare_variable)
    app.router.add_get("/hub/advanced/enableHubMesh", r.enable)
    app.router.add_get("/hub/advanced/disableHubMesh", r.disable)
    app.router.add_get("/device/createLinked/{hub_id}/{device_id}", r.link_device)
    app.router.add_get("/hub2/createLinkedHubVar/{hub_id}/{name}", r.link_variable)
    app.router.add_get("/hub2/updateLinkedHubVar/{name}/{hub_id}/{source}", r.relink_variable)
    app.router.add_get("/device/hubMeshFullRefreshNow", r.full_sync)
    app.router.add_get("/device/hubMeshReconnect", r.reconnect)
    app.router.add_get("/device/generateHubMeshToken", r.new_token)
    app.router.add_post("/device/setHubMeshToken", r.peer_token)


class _MeshRoutes(Routes):
    async def mesh_json(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(hub_mesh_json(self.st))

    def _share(self, raw: str, on: bool) -> web.StreamResponse:
        dev = self.st.devices.get(int(raw)) if raw.isdigit() else None
        if dev is None:
            return self.http.json({"error": "Device not found"}, status=404)
        if self.st.mesh.offers_sharing(dev.id):
            dev.mesh_enabled = on
            dev.version += 1
        return self.http.text("")  # what it answers is not in evidence: the page ignores it

    async def add_to_mesh(self, request: web.Request) -> web.StreamResponse:
        return self._share(request.match_info["id"], True)

    async def remove_from_mesh(self, request: web.Request) -> web.StreamResponse:
        return self._share(request.match_info["id"], False)

    async def refresh_interval(self, request: web.Request) -> web.StreamResponse:
        raw = request.match_info["seconds"]
        if raw.isdigit() and int(raw) in REFRESH_INTERVALS:
            self.st.mesh.full_refresh_interval = int(raw)
        return self.http.text("")

    async def follow_modes(self, request: web.Request) -> web.StreamResponse:
        hub_id = request.match_info["hub_id"]
        if hub_id == "none":
            self.st.mesh.mode_hub_id = None
        elif _peer(self.st.mesh, hub_id) is not None:
            self.st.mesh.mode_hub_id = hub_id
        return self.http.text("")

    def _share_var(self, name: str, on: bool) -> web.StreamResponse:
        shared = self.st.mesh.shared_variables
        if name in self.st.variables:
            if on and name not in shared:
                shared.append(name)
            elif not on and name in shared:
                shared.remove(name)
        return self.http.text("")

    async def share_variable(self, request: web.Request) -> web.StreamResponse:
        return self._share_var(request.match_info["name"], True)

    async def unshare_variable(self, request: web.Request) -> web.StreamResponse:
        return self._share_var(request.match_info["name"], False)

    def _switch(self, on: bool) -> web.StreamResponse:
        self.st.mesh.pending_enabled = on  # takes effect at the next reboot
        return self.http.text(f"{'enabled' if on else 'disabled'}, please reboot")

    async def enable(self, request: web.Request) -> web.StreamResponse:
        return self._switch(True)

    async def disable(self, request: web.Request) -> web.StreamResponse:
        return self._switch(False)

    async def link_device(self, request: web.Request) -> web.StreamResponse:
        mesh, hub_id = self.st.mesh, request.match_info["hub_id"]
        raw = request.match_info["device_id"]
        remote = next(
            (r for r in mesh.available if r.hub_id == hub_id and str(r.device_id) == raw), None
        )
        if mesh.enabled and remote is not None:
            new_id = max([*self.st.devices, *mesh.linked_ids(), 0]) + 1
            mesh.linked.append(LinkedDevice(new_id, remote.name, hub_id, remote.child_count))
            mesh.available.remove(remote)
        return self.http.text("")  # its answer: no evidence (the page reloads the JSON)

    async def link_variable(self, request: web.Request) -> web.StreamResponse:
        mesh, hub_id, name = self.st.mesh, request.match_info["hub_id"], request.match_info["name"]
        peer = _peer(mesh, hub_id)
        known = {(v.hub_id, v.source_name) for v in mesh.linked_variables}
        if mesh.enabled and peer and name in peer.var_names and (hub_id, name) not in known:
            mesh.linked_variables.append(LinkedVariable(name, hub_id, name))
        return self.http.text("")

    async def relink_variable(self, request: web.Request) -> web.StreamResponse:
        mesh, m = self.st.mesh, request.match_info
        var = next((v for v in mesh.linked_variables if v.name == m["name"]), None)
        peer = _peer(mesh, m["hub_id"])
        if mesh.enabled and var and peer and m["source"] in peer.var_names:
            var.hub_id, var.source_name = peer.hub_id, m["source"]
        return self.http.text("")

    async def full_sync(self, request: web.Request) -> web.StreamResponse:
        self.st.mesh.full_syncs += 1
        return self.http.text("")

    async def reconnect(self, request: web.Request) -> web.StreamResponse:
        self.st.mesh.reconnects += 1
        return self.http.text("")

    async def new_token(self, request: web.Request) -> web.StreamResponse:
        self.st.mesh.new_token()
        return self.http.text("")

    async def peer_token(self, request: web.Request) -> web.StreamResponse:
        mesh = self.st.mesh
        mesh.peer_token_posts += 1
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict) or request.content_type != "application/json":
            return self.http.text("")  # the page ignores the answer; nothing is stored
        peer = _peer(mesh, str(body.get("hubId")))
        token = body.get("token")
        if peer is not None and isinstance(token, str) and token:
            peer.stored_token = token
            if token == peer.token:
                peer.active = True
        return self.http.text("")
