"""hub_update_hub_mesh's switch, links and buttons: Hub Mesh on/off (applied at the next
reboot), linking a peer's device or hub variable, relinking, full sync, reconnect and a new
mesh token; each read back from /hub2/hubMeshJson, the token never in an answer.

The tool's part is here: its arguments handed on, its refusals, the reboot advice, the
device allowlist and the Repairs form that asks the owner for a peer's token. The switch,
each link and button read back, and a peer's token sent and read back are tested without
hass in tests/managers/test_mesh.py."""

from __future__ import annotations

import json
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


async def test_turning_hub_mesh_off_names_the_reboot_tool(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the advice naming hub_reboot_hub (the switch waiting for the reboot:
    tests/managers/test_mesh.py)."""
    before = len(hub.requests)
    data = await ok(call_tool, "hub_update_hub_mesh", {"enabled": False})
    assert _sent(hub, before) == ["/hub/advanced/disableHubMesh"]
    assert data["applied"] == ["enabled"] and data["enabled"] is True
    assert "next reboot" in data["notes"][0] and "hub_reboot_hub" in data["notes"][-1]
    assert hub.state.mesh.pending_enabled is False


async def test_links_and_buttons_reach_the_manager(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: link_devices, link_variables and action are handed on (each link
    and button, read back: tests/managers/test_mesh.py)."""
    before = len(hub.requests)
    data = await ok(
        call_tool,
        "hub_update_hub_mesh",
        {"link_devices": ["201"], "link_variables": ["garageOpenCount"], "action": "full_sync"},
    )
    assert _sent(hub, before) == [
        f"/device/createLinked/{GARAGE}/201",
        f"/hub2/createLinkedHubVar/{GARAGE}/garageOpenCount",
        "/device/hubMeshFullRefreshNow",
    ]
    assert data["applied"] == [
        "link Garage Door Opener (Garage Hub)",
        "link garageOpenCount",
        "full_sync",
    ]
    assert "reboot_needed" not in data
    assert hub.state.mesh.token not in json.dumps(data)


async def test_a_link_outside_the_allowlist_is_not_named(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [dev_id(hub, "Garage Light")]})
    data = await ok(call_tool, "hub_update_hub_mesh", {"link_devices": ["201"]})
    assert data["notes"] == ["link Garage Door Opener (Garage Hub): outside allowlist"]
    assert data["linked_devices"] == [] and data["hidden_devices"] == 1


async def test_unknown_links_and_actions_are_refused_before_anything_is_sent(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The refusals as the tool answers them (every refusal of a link:
    tests/managers/test_mesh.py)."""
    before = len(hub.requests)
    data = await refused(call_tool, "hub_update_hub_mesh", {"link_devices": ["Attic Fan"]})
    assert "No peer devices match 'Attic Fan'" in data["message"]
    await refused(call_tool, "hub_update_hub_mesh", {"action": "reboot"}, code="invalid_arguments")
    assert _sent(hub, before) == []


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
