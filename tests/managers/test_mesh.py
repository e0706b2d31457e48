"""The Hub Mesh manager (``managers/mesh.py``) on its own, no hass: the Hub Mesh page read in
one answer without the mesh token, its settings set and read back, the on/off switch that
waits for a reboot, linking a peer's device or hub variable, the page's buttons, a peer
hub's mesh token, and everything validated before anything is sent, over the emulated hub.

Moved from tests/tools/test_mesh.py and tests/tools/test_mesh_links.py (the mesh logic is
the manager's; the tools' argument refusals, the device allowlist, the error a hub without
the page answers, the reboot advice, the Repairs form that asks the owner for a peer's
token, and the parsing of the hub's recorded answers stay there)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub import mesh as hub_mesh
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.mesh import HubMeshReader
from hubitat_emulator import HubEmulator
from hubitat_emulator.mesh_state import LinkedDevice
from hubitat_emulator.routes_mesh import hub_mesh_json

from ..contract import assert_same_shape
from ..home_util import dev_id

GARAGE = "4b1e2c3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
BARN_TOKEN = "barn-hub-mesh-token-5d1e77aa"


def every_device(_device_id: str) -> bool:
    """No device allowlist."""
    return True


def mesh_of(manager_hub: Hub) -> HubMeshReader:
    return manager_hub.devices.mesh


def gets(emu: HubEmulator, before: int) -> list[str]:
    """The hub paths asked since ``before``, the page's own reads left out."""
    return [p for m, p in emu.requests[before:] if m == "GET" and "/hubMeshJson" not in p]


async def update(manager_hub: Hub, **changes: Any) -> dict[str, Any]:
    return await mesh_of(manager_hub).update(every_device, **changes)


# ------------------------------------------------------------------ the page read


async def test_the_mesh_read_names_peers_shares_and_links(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    did = dev_id(emu, "Garage Light")
    emu.state.devices[int(did)].mesh_enabled = True
    emu.state.mesh.linked.append(LinkedDevice(9001, "Garage Door Opener", "x"))
    data = await mesh_of(manager_hub).overview(every_device)
    assert data["enabled"] is True
    assert [p["name"] for p in data["peers"]] == ["Garage Hub"]
    assert [d["device_id"] for d in data["shared_devices"]] == [did]
    assert data["linked_devices"] == [{"device_id": "9001", "label": "Garage Door Opener"}]
    assert {d["label"] for d in data["available_to_link"]} == {
        "Garage Door Opener",
        "Workshop Lights",
    }
    assert data["private_device_count"] > 10
    assert "1 peer hub(s); sharing 1 device(s)" in data["summary"]
    assert "hidden_devices" not in data
    assert emu.state.mesh.token not in json.dumps(data)


async def test_mesh_off_is_said(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.state.mesh.enabled = False
    data = await mesh_of(manager_hub).overview(every_device)
    assert data["enabled"] is False
    assert data["summary"] == "Hub Mesh is off on this hub."


# ------------------------------------------------------------------ settings


async def test_the_mesh_settings_are_set_and_read_back(emu: HubEmulator, manager_hub: Hub) -> None:
    mesh = emu.state.mesh
    var = sorted(emu.state.variables)[0]
    before = len(emu.requests)
    data = await update(
        manager_hub,
        full_refresh_interval_s=300,
        follow_modes_of="garage hub",
        share_variables=[var],
    )
    assert data["applied"] == ["full_refresh_interval_s", "follow_modes_of", f"share {var}"]
    assert mesh.full_refresh_interval == 300
    assert mesh.mode_hub_id == mesh.peers[0].hub_id
    assert mesh.shared_variables == [var]
    assert data["mode_hub_id"] == mesh.peers[0].hub_id
    assert data["full_refresh_interval_s"] == 300
    assert [v["name"] for v in data["shared_variables"]] == [var]
    assert gets(emu, before) == [
        "/device/setHubMeshFullRefreshInterval/300",
        f"/device/followModes/{mesh.peers[0].hub_id}",
        f"/hub2/addVarToMesh/{var}",
    ]
    data = await update(
        manager_hub, follow_modes_of="none", unshare_variables=[var], share_variables=[var]
    )
    assert mesh.mode_hub_id is None


async def test_mesh_settings_are_validated_before_anything_is_sent(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = len(emu.requests)
    with pytest.raises(ToolError, match="Garage Hub"):
        await update(manager_hub, follow_modes_of="Attic Hub")
    with pytest.raises(ToolError, match="No hub variable 'nope'"):
        await update(manager_hub, share_variables=["nope"])
    assert [m for m, _p in emu.requests[before:] if m != "GET"] == []
    assert all("hubMeshJson" in p for _m, p in emu.requests[before:])


async def test_a_setter_the_hub_ignores_is_a_failure(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.faults.reshape_paths["/hub2/hubMeshJson"] = lambda page: {
        **page,
        "fullRefreshInterval": 3600,
    }
    with pytest.raises(HubError, match="NOT applied: full_refresh_interval_s"):
        await update(manager_hub, full_refresh_interval_s=120)


# ------------------------------------------------------------------ the switch


async def test_turning_hub_mesh_off_waits_for_a_reboot(emu: HubEmulator, manager_hub: Hub) -> None:
    before = len(emu.requests)
    data = await update(manager_hub, enabled=False)
    assert gets(emu, before) == ["/hub/advanced/disableHubMesh"]
    assert data["applied"] == ["enabled"]
    assert data["enabled"] is True  # still on until the reboot
    assert data["reboot_needed"] is True
    assert "next reboot" in data["notes"][0]
    assert emu.state.mesh.pending_enabled is False
    await emu.reboot(0.05, starting=0.0)
    assert emu.state.mesh.enabled is False


async def test_hub_mesh_is_turned_on_while_off_and_nothing_else_is_sent(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.state.mesh.enabled = False
    before = len(emu.requests)
    with pytest.raises(ToolError, match="Hub Mesh is off") as off:
        await update(manager_hub, enabled=True, action="full_sync")
    assert off.value.subject == "hub_mesh_off"
    assert gets(emu, before) == []
    data = await update(manager_hub, enabled=True)
    assert gets(emu, before) == ["/hub/advanced/enableHubMesh"]
    assert "reads enabled=False" in data["notes"][0]
    assert emu.state.mesh.pending_enabled is True


# ------------------------------------------------------------------ links


async def test_a_peer_device_is_linked_and_read_back(emu: HubEmulator, manager_hub: Hub) -> None:
    before = len(emu.requests)
    data = await update(manager_hub, link_devices=["garage door opener", "Garage Hub/202"])
    assert gets(emu, before) == [
        f"/device/createLinked/{GARAGE}/201",
        f"/device/createLinked/{GARAGE}/202",
    ]
    linked = emu.state.mesh.linked
    assert [link.name for link in linked] == ["Garage Door Opener", "Workshop Lights"]
    assert data["applied"] == [
        "link Garage Door Opener (Garage Hub)",
        "link Workshop Lights (Garage Hub)",
    ]
    assert data["notes"][0] == f"link Garage Door Opener (Garage Hub): local device {linked[0].id}"
    assert {d["device_id"] for d in data["linked_devices"]} == {str(x.id) for x in linked}
    assert data["available_to_link"] == []


async def test_unknown_or_ambiguous_links_are_refused_before_anything_is_sent(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.state.mesh.available[1].name = "Garage Door Opener"
    before = len(emu.requests)
    with pytest.raises(ToolError, match="No peer devices match 'Attic Fan'") as unknown:
        await update(manager_hub, link_devices=["Attic Fan"])
    assert "Garage Hub/Garage Door Opener" in str(unknown.value)
    with pytest.raises(ToolError, match="Several"):
        await update(manager_hub, link_devices=["Garage Door Opener"])
    with pytest.raises(ToolError, match="No linked hub variable 'x'"):
        await update(manager_hub, link_variables=["x=y"])
    assert gets(emu, before) == []
    assert emu.state.mesh.linked == []


async def test_a_link_the_hub_did_not_make_is_a_failure(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.faults.reshape_paths["/hub2/hubMeshJson"] = lambda page: {
        **page,
        "localLinkedDevices": [],
    }
    with pytest.raises(HubError, match=r"NOT applied: link Garage Door Opener \(Garage Hub\)"):
        await update(manager_hub, link_devices=["201"])


async def test_peer_variables_are_linked_and_relinked(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.state.mesh.peers[0].var_names.append("doorState")
    before = len(emu.requests)
    data = await update(manager_hub, link_variables=["garageOpenCount"])
    assert gets(emu, before) == [f"/hub2/createLinkedHubVar/{GARAGE}/garageOpenCount"]
    assert data["linked_variables"] == [{"name": "garageOpenCount", "from_hub": "Garage Hub"}]
    assert_same_shape("devices/hub_mesh", json.loads(json.dumps(hub_mesh_json(emu.state))))
    before = len(emu.requests)
    data = await update(manager_hub, link_variables=["garageOpenCount=doorState"])
    assert gets(emu, before) == [f"/hub2/updateLinkedHubVar/garageOpenCount/{GARAGE}/doorState"]
    assert data["applied"] == ["relink garageOpenCount"]
    assert data["linked_variables"][0]["source_variable"] == "doorState"


# ------------------------------------------------------------------ buttons and tokens


async def test_the_page_s_buttons_run_and_the_new_token_is_never_shown(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    mesh = emu.state.mesh
    before = len(emu.requests)
    data = await update(manager_hub, action="full_sync")
    assert data["applied"] == ["full_sync"]
    assert data["notes"] == ["Full sync started; the hub does not report when it ends."]
    await update(manager_hub, action="reconnect")
    old = mesh.token
    data = await update(manager_hub, action="new_token")
    assert gets(emu, before) == [
        "/device/hubMeshFullRefreshNow",
        "/device/hubMeshReconnect",
        "/device/generateHubMeshToken",
    ]
    assert (mesh.full_syncs, mesh.reconnects) == (1, 1)
    assert mesh.token != old
    assert mesh.token not in json.dumps(data) and old not in json.dumps(data)
    assert "never shown" in data["notes"][0]


async def test_a_token_the_hub_did_not_change_is_a_failure(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.faults.reshape_paths["/hub2/hubMeshJson"] = lambda page: {
        **page,
        "hubMeshToken": "stuck-token",
    }
    with pytest.raises(HubError, match="did not regenerate") as stuck:
        await update(manager_hub, action="new_token")
    assert "stuck-token" not in f"{stuck.value} {stuck.value.hint}"


async def test_a_peer_token_is_sent_as_the_page_does_and_read_back(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_mesh, "PEER_TOKEN_WAIT_S", 0.3)
    barn = emu.home.state.mesh.secure_peer()
    mesh = mesh_of(manager_hub)
    asked = await mesh.token_peer("barn hub")
    assert asked["hub_id"] == barn.hub_id and asked["warning"]
    for bad in ("", "two words", "x" * 201, "caf\u00e9"):
        with pytest.raises(ToolError, match="Nothing was sent"):
            await mesh.set_peer_token(barn.hub_id, bad)
    assert emu.home.state.mesh.peer_token_posts == 0 and barn.stored_token is None
    # a wrong token: the hub stores it, the peer still warns: a failure
    with pytest.raises(HubBadResponseError, match="still shows a warning") as wrong:
        await mesh.set_peer_token(barn.hub_id, "not-the-barn-token")
    assert "not-the-barn-token" not in str(wrong.value)
    start = len(emu.requests)
    done = await mesh.set_peer_token(barn.hub_id, f"  {BARN_TOKEN}\n")
    assert barn.stored_token == BARN_TOKEN  # sent once, trimmed, as JSON {hubId, token}
    assert ("POST", "/device/setHubMeshToken") in emu.requests[start:]
    assert done["peer"]["name"] == "Barn Hub" and BARN_TOKEN not in json.dumps(done)
    seen = await mesh.overview(every_device)
    peer = next(p for p in seen["peers"] if p["hub_id"] == barn.hub_id)
    assert "warning" not in peer and peer["active"] is True
    assert BARN_TOKEN not in json.dumps(seen)


async def test_a_peer_without_a_warning_or_unknown_is_not_asked_for(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.home.state.mesh.secure_peer()
    before = len(emu.requests)
    mesh = mesh_of(manager_hub)
    with pytest.raises(ToolError, match="shows no warning"):
        await mesh.token_peer("Garage Hub")
    with pytest.raises(ToolError, match="No peer hub 'Attic Hub'"):
        await mesh.token_peer("Attic Hub")
    assert gets(emu, before) == [] and emu.home.state.mesh.peer_token_posts == 0
