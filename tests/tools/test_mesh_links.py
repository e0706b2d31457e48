"""hub_update_hub_mesh's switch, links and buttons: Hub Mesh on/off (applied at the next
reboot), linking a peer's device or hub variable, relinking, full sync, reconnect and a new
mesh token; each read back from /hub2/hubMeshJson, the token never in an answer."""

from __future__ import annotations

import json
from typing import cast

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.mesh import fetch_hub_mesh
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, refused
from ..contract import assert_same_shape
from ..fixture_client import FixtureClient
from ..home_util import dev_id

GARAGE = "4b1e2c3d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"


def _sent(hub: HubEmulator, before: int) -> list[str]:
    return [p for m, p in hub.requests[before:] if m == "GET" and "/hubMeshJson" not in p]


async def test_the_fixture_s_linked_variables_parse() -> None:
    client = FixtureClient("devices/hub_mesh")
    mesh = await fetch_hub_mesh(cast(HubClient, client))
    assert mesh.linked_variables == [
        {"name": "garageDoorState", "from_hub": "Garage Hub", "source_variable": "doorState"}
    ]
    assert mesh.available_variables[0]["hub_id"] == "1ec9f270-bda8-465a-b240-f4ea79d85e4a"
    assert mesh.token_digest and "0f3c9a51" not in mesh.token_digest


async def test_turning_hub_mesh_off_waits_for_a_reboot(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    data = await ok(call_tool, "hub_update_hub_mesh", {"enabled": False})
    assert _sent(hub, before) == ["/hub/advanced/disableHubMesh"]
    assert data["applied"] == ["enabled"]
    assert data["enabled"] is True  # still on until the reboot
    assert "next reboot" in data["notes"][0] and "hub_reboot_hub" in data["notes"][-1]
    assert hub.state.mesh.pending_enabled is False
    await hub.reboot(0.05, starting=0.0)
    assert hub.state.mesh.enabled is False


async def test_hub_mesh_is_turned_on_while_off_and_nothing_else_is_sent(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.mesh.enabled = False
    before = len(hub.requests)
    data = await refused(call_tool, "hub_update_hub_mesh", {"enabled": True, "action": "full_sync"})
    assert "Hub Mesh is off" in data["message"]
    assert _sent(hub, before) == []
    data = await ok(call_tool, "hub_update_hub_mesh", {"enabled": True})
    assert _sent(hub, before) == ["/hub/advanced/enableHubMesh"]
    assert "reads enabled=False" in data["notes"][0]
    assert hub.state.mesh.pending_enabled is True


async def test_a_peer_device_is_linked_and_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    data = await ok(
        call_tool,
        "hub_update_hub_mesh",
        {"link_devices": ["garage door opener", "Garage Hub/202"]},
    )
    assert _sent(hub, before) == [
        f"/device/createLinked/{GARAGE}/201",
        f"/device/createLinked/{GARAGE}/202",
    ]
    linked = hub.state.mesh.linked
    assert [link.name for link in linked] == ["Garage Door Opener", "Workshop Lights"]
    assert data["applied"] == [
        "link Garage Door Opener (Garage Hub)",
        "link Workshop Lights (Garage Hub)",
    ]
    assert data["notes"][0] == f"link Garage Door Opener (Garage Hub): local device {linked[0].id}"
    assert {d["device_id"] for d in data["linked_devices"]} == {str(x.id) for x in linked}
    assert data["available_to_link"] == []


async def test_a_link_outside_the_allowlist_is_not_named(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [dev_id(hub, "Garage Light")]})
    data = await ok(call_tool, "hub_update_hub_mesh", {"link_devices": ["201"]})
    assert data["notes"] == ["link Garage Door Opener (Garage Hub): outside allowlist"]
    assert data["linked_devices"] == [] and data["hidden_devices"] == 1


async def test_unknown_or_ambiguous_links_are_refused_before_anything_is_sent(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.mesh.available[1].name = "Garage Door Opener"
    before = len(hub.requests)
    data = await refused(call_tool, "hub_update_hub_mesh", {"link_devices": ["Attic Fan"]})
    assert "No peer devices match 'Attic Fan'" in data["message"]
    assert "Garage Hub/Garage Door Opener" in data["message"]
    data = await refused(call_tool, "hub_update_hub_mesh", {"link_devices": ["Garage Door Opener"]})
    assert "Several" in data["message"]
    data = await refused(call_tool, "hub_update_hub_mesh", {"link_variables": ["x=y"]})
    assert "No linked hub variable 'x'" in data["message"]
    await refused(call_tool, "hub_update_hub_mesh", {"action": "reboot"}, code="invalid_arguments")
    assert _sent(hub, before) == []


async def test_a_link_the_hub_did_not_make_is_a_failure(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.reshape_paths["/hub2/hubMeshJson"] = lambda page: {
        **page,
        "localLinkedDevices": [],
    }
    data = await refused(call_tool, "hub_update_hub_mesh", {"link_devices": ["201"]})
    assert "NOT applied: link Garage Door Opener (Garage Hub)" in data["message"]


async def test_peer_variables_are_linked_and_relinked(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.mesh.peers[0].var_names.append("doorState")
    before = len(hub.requests)
    data = await ok(call_tool, "hub_update_hub_mesh", {"link_variables": ["garageOpenCount"]})
    assert _sent(hub, before) == [f"/hub2/createLinkedHubVar/{GARAGE}/garageOpenCount"]
    assert data["linked_variables"] == [{"name": "garageOpenCount", "from_hub": "Garage Hub"}]
    page = await hub_page(hub)
    assert_same_shape("devices/hub_mesh", page)
    before = len(hub.requests)
    data = await ok(
        call_tool, "hub_update_hub_mesh", {"link_variables": ["garageOpenCount=doorState"]}
    )
    assert _sent(hub, before) == [f"/hub2/updateLinkedHubVar/garageOpenCount/{GARAGE}/doorState"]
    assert data["applied"] == ["relink garageOpenCount"]
    assert data["linked_variables"][0]["source_variable"] == "doorState"


async def hub_page(hub: HubEmulator) -> object:
    from hubitat_emulator.mesh import hub_mesh_json

    return json.loads(json.dumps(hub_mesh_json(hub.state)))


async def test_the_page_s_buttons_run_and_the_new_token_is_never_shown(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    mesh = hub.state.mesh
    before = len(hub.requests)
    data = await ok(call_tool, "hub_update_hub_mesh", {"action": "full_sync"})
    assert data["notes"] == ["Full sync started; the hub does not report when it ends."]
    await ok(call_tool, "hub_update_hub_mesh", {"action": "reconnect"})
    old = mesh.token
    data = await ok(call_tool, "hub_update_hub_mesh", {"action": "new_token"})
    assert _sent(hub, before) == [
        "/device/hubMeshFullRefreshNow",
        "/device/hubMeshReconnect",
        "/device/generateHubMeshToken",
    ]
    assert (mesh.full_syncs, mesh.reconnects) == (1, 1)
    assert mesh.token != old
    assert mesh.token not in json.dumps(data) and old not in json.dumps(data)
    assert "never shown" in data["notes"][0]


async def test_a_token_the_hub_did_not_change_is_a_failure(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.reshape_paths["/hub2/hubMeshJson"] = lambda page: {
        **page,
        "hubMeshToken": "stuck-token",
    }
    data = await refused(call_tool, "hub_update_hub_mesh", {"action": "new_token"})
    assert "did not regenerate" in data["message"]
    assert "stuck-token" not in json.dumps(data)


# ------------------------------------------------------------ a peer hub's mesh token

BARN_TOKEN = "barn-hub-mesh-token-5d1e77aa"


async def test_a_peer_token_is_asked_of_the_owner_never_of_the_assistant(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from homeassistant.helpers import issue_registry as ir

    from custom_components.hubitat_dev_tools.const import DOMAIN
    from custom_components.hubitat_dev_tools.mesh_token import mesh_token_issue_id

    barn = hub.home.state.mesh.secure_peer()
    before = len(hub.requests)
    # a peer that shows no warning needs no token; an unknown peer; a token with other changes
    calm = await refused(call_tool, "hub_update_hub_mesh", {"peer_token_for": "Garage Hub"})
    assert "shows no warning" in calm["message"]
    await refused(call_tool, "hub_update_hub_mesh", {"peer_token_for": "Attic Hub"})
    both = {"peer_token_for": "Barn Hub", "action": "full_sync"}
    assert "goes alone" in (await refused(call_tool, "hub_update_hub_mesh", both))["message"]
    assert _sent(hub, before) == []
    assert not [i for _d, i in ir.async_get(hass).issues if i.startswith("mesh_token")]
    data = await ok(call_tool, "hub_update_hub_mesh", {"peer_token_for": "barn hub"})
    assert data["pending"] is True and data["peer"]["hub_id"] == barn.hub_id
    assert "Repairs" in data["next"] and data["peer"]["warning"]
    issue = ir.async_get(hass).async_get_issue(
        DOMAIN, mesh_token_issue_id(entry.entry_id, barn.hub_id)
    )
    assert issue is not None and issue.is_fixable
    assert issue.translation_placeholders == {"hub": entry.title, "peer": "Barn Hub"}
    assert hub.home.state.mesh.peer_token_posts == 0  # nothing but reads
    assert BARN_TOKEN not in json.dumps(data)


async def test_a_peer_token_is_sent_as_the_page_does_and_read_back(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from custom_components.hubitat_dev_tools.errors import ToolError
    from custom_components.hubitat_dev_tools.hub import mesh as hub_mesh

    monkeypatch.setattr(hub_mesh, "PEER_TOKEN_WAIT_S", 0.3)
    from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
    from custom_components.hubitat_dev_tools.runtime import HubRuntime

    barn = hub.home.state.mesh.secure_peer()
    mesh = cast(HubRuntime, entry.runtime_data).hub.devices.mesh
    for bad in ("", "two words", "x" * 201, "caf\u00e9"):
        try:
            await mesh.set_peer_token(barn.hub_id, bad)
        except ToolError as err:
            assert "Nothing was sent" in str(err)
        else:
            raise AssertionError(f"{bad!r} was taken")
    assert hub.home.state.mesh.peer_token_posts == 0 and barn.stored_token is None
    # a wrong token: the hub stores it, the peer still warns: a failure
    try:
        await mesh.set_peer_token(barn.hub_id, "not-the-barn-token")
    except HubBadResponseError as err:
        assert "still shows a warning" in str(err) and "not-the-barn-token" not in str(err)
    else:
        raise AssertionError("a token the peer does not take passed")
    start = len(hub.requests)
    done = await mesh.set_peer_token(barn.hub_id, f"  {BARN_TOKEN}\n")
    assert barn.stored_token == BARN_TOKEN  # sent once, trimmed, as JSON {hubId, token}
    assert ("POST", "/device/setHubMeshToken") in hub.requests[start:]
    assert done["peer"]["name"] == "Barn Hub" and BARN_TOKEN not in json.dumps(done)
    seen = await ok(call_tool, "hub_get_hub_mesh")
    peer = next(p for p in seen["peers"] if p["hub_id"] == barn.hub_id)
    assert "warning" not in peer and peer["active"] is True
    assert BARN_TOKEN not in json.dumps(seen)
