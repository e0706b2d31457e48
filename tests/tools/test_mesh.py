"""hub_get_hub_mesh: the Hub Mesh page in one answer (peers, shared and linked devices and
variables), within the device allowlist and never with the mesh token.

The tools' part is here: the device allowlist, the error a hub without the page answers, the
settings handed on and the argument refusals; the page read, the settings set and read back
and a setter the hub ignores are tested without hass in tests/managers/test_mesh.py."""

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
    assert hub.state.mesh.token not in json.dumps(data)


async def test_a_hub_without_the_mesh_page_is_a_clear_error(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.reshape_paths["/hub2/hubMeshJson"] = "wrap_list"
    data = await refused(call_tool, "hub_get_hub_mesh", {})
    assert "Hub Mesh" in data["message"]
    hub.faults.reshape_paths["/hub2/hubMeshJson"] = "404"
    data = await refused(call_tool, "hub_get_hub_mesh", {}, code="not_found")
    assert "predate Hub Mesh" in data["message"]


async def test_the_mesh_settings_reach_the_manager(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: each setting is handed on (set, read back and sent in order:
    tests/managers/test_mesh.py)."""
    mesh = hub.state.mesh
    var = sorted(hub.state.variables)[0]
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
    assert "reboot_needed" not in data and "notes" not in data
    data = await ok(call_tool, "hub_update_hub_mesh", {"unshare_variables": [var]})
    assert data["applied"] == [f"unshare {var}"] and mesh.shared_variables == []


async def test_mesh_settings_are_validated_before_anything_is_sent(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's refusals (the manager's: tests/managers/test_mesh.py)."""
    before = len(hub.requests)
    data = await refused(call_tool, "hub_update_hub_mesh", {"follow_modes_of": "Attic Hub"})
    assert "Garage Hub" in data["message"]
    await refused(
        call_tool, "hub_update_hub_mesh", {"full_refresh_interval_s": 7}, code="invalid_arguments"
    )
    nothing = await refused(call_tool, "hub_update_hub_mesh", {})
    assert "Nothing to change" in nothing["message"]
    assert [m for m, _p in hub.requests[before:] if m != "GET"] == []
    assert all("hubMeshJson" in p for _m, p in hub.requests[before:])
