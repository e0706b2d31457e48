"""hub_get_hub_mesh: the Hub Mesh page in one answer (peers, shared and linked devices and
variables), within the device allowlist and never with the mesh token."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import cast

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.mesh import fetch_hub_mesh
from hubitat_emulator import HubEmulator
from hubitat_emulator.mesh_state import LinkedDevice

from ..conftest import ToolCaller, add_entry, ok, refused
from ..fixture_client import FixtureClient
from ..home_util import dev_id


async def test_the_fixture_parses_without_the_token() -> None:
    client = FixtureClient("devices/hub_mesh")
    mesh = await fetch_hub_mesh(cast(HubClient, client))
    assert client.paths == ["/hub2/hubMeshJson"]
    assert mesh.enabled is True
    assert mesh.full_refresh_interval_s == 3600
    assert mesh.peers[0]["name"] == "Garage Hub"
    assert mesh.peers[0]["device_ids"] == ["6", "57"]
    assert mesh.shared_devices == [{"device_id": "12", "label": "Porch Light"}]
    assert mesh.linked_devices == [{"device_id": "44", "label": "Garage Door Opener"}]
    assert mesh.available_devices[0] == {
        "hub": "Garage Hub",
        "hub_id": "1ec9f270-bda8-465a-b240-f4ea79d85e4a",
        "device_id": "57",
        "label": "Workshop Lights",
    }
    assert mesh.private_device_count == 1
    assert mesh.shared_variables == [{"name": "awayMode", "type": "boolean"}]
    assert "0f3c9a51" not in json.dumps(asdict(mesh))


async def test_the_mesh_read_names_peers_shares_and_links(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    hub.state.devices[int(did)].mesh_enabled = True
    hub.state.mesh.linked.append(LinkedDevice(9001, "Garage Door Opener", "x"))
    data = await ok(call_tool, "hub_get_hub_mesh")
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
    assert hub.state.mesh.token not in json.dumps(data)


async def test_mesh_off_is_said(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.mesh.enabled = False
    data = await ok(call_tool, "hub_get_hub_mesh")
    assert data["enabled"] is False
    assert data["summary"] == "Hub Mesh is off on this hub."


async def test_shared_devices_outside_the_allowlist_are_counted_not_shown(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    inside, outside = dev_id(hub, "Garage Light"), dev_id(hub, "Basement Light")
    for did in (inside, outside):
        hub.state.devices[int(did)].mesh_enabled = True
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [inside]})
    data = await ok(call_tool, "hub_get_hub_mesh")
    assert [d["device_id"] for d in data["shared_devices"]] == [inside]
    assert data["hidden_devices"] == 1


async def test_a_hub_without_the_mesh_page_is_a_clear_error(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.reshape_paths["/hub2/hubMeshJson"] = "wrap_list"
    data = await refused(call_tool, "hub_get_hub_mesh", {})
    assert "Hub Mesh" in data["message"]
    hub.faults.reshape_paths["/hub2/hubMeshJson"] = "404"
    data = await refused(call_tool, "hub_get_hub_mesh", {}, code="not_found")
    assert "predate Hub Mesh" in data["message"]


async def test_the_mesh_settings_are_set_and_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    mesh = hub.state.mesh
    var = sorted(hub.state.variables)[0]
    before = len(hub.requests)
    data = await ok(
        call_tool,
        "hub_update_hub_mesh",
        {
            "full_refresh_interval_s": 300,
            "follow_modes_of": "garage hub",
            "share_variables": [var],
        },
    )
    assert data["applied"] == ["full_refresh_interval_s", "follow_modes_of", f"share {var}"]
    assert mesh.full_refresh_interval == 300
    assert mesh.mode_hub_id == mesh.peers[0].hub_id
    assert mesh.shared_variables == [var]
    assert data["mode_hub_id"] == mesh.peers[0].hub_id
    assert [v["name"] for v in data["shared_variables"]] == [var]
    gets = [p for m, p in hub.requests[before:] if m == "GET" and "/hubMeshJson" not in p]
    assert gets == [
        "/device/setHubMeshFullRefreshInterval/300",
        f"/device/followModes/{mesh.peers[0].hub_id}",
        f"/hub2/addVarToMesh/{var}",
    ]
    data = await ok(
        call_tool,
        "hub_update_hub_mesh",
        {"follow_modes_of": "none", "unshare_variables": [var], "share_variables": [var]},
    )
    assert mesh.mode_hub_id is None


async def test_mesh_settings_are_validated_before_anything_is_sent(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    data = await refused(call_tool, "hub_update_hub_mesh", {"follow_modes_of": "Attic Hub"})
    assert "Garage Hub" in data["message"]
    data = await refused(call_tool, "hub_update_hub_mesh", {"share_variables": ["nope"]})
    assert "No hub variable 'nope'" in data["message"]
    await refused(
        call_tool, "hub_update_hub_mesh", {"full_refresh_interval_s": 7}, code="invalid_arguments"
    )
    await refused(call_tool, "hub_update_hub_mesh", {})
    assert [m for m, _p in hub.requests[before:] if m != "GET"] == []
    assert all("hubMeshJson" in p for _m, p in hub.requests[before:])


async def test_a_setter_the_hub_ignores_is_a_failure(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.reshape_paths["/hub2/hubMeshJson"] = lambda page: {
        **page,
        "fullRefreshInterval": 3600,
    }
    data = await refused(call_tool, "hub_update_hub_mesh", {"full_refresh_interval_s": 120})
    assert "NOT applied: full_refresh_interval_s" in data["message"]
