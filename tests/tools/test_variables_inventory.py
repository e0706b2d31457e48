"""Hub variables: the DateTime forms and the mesh fixture (library), the emulated variables
wizard, and the connector tool. The manager's reads and writes (DateTime forms, the inventory
of unselected variables): tests/managers/test_variables.py."""

from __future__ import annotations

from typing import cast

import aiohttp
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.variables import (
    datetime_answer,
    datetime_form,
    fetch_own_variables,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok
from ..fixture_client import FixtureClient


def test_datetime_forms() -> None:
    assert datetime_form("2026-01-01T99:99:99.999-9999") == "date"
    assert datetime_form("9999-99-99T07:15:00.000-0500") == "time"
    assert datetime_answer("9999-99-99T07:15:00.000-0500") == "07:15"
    assert datetime_form("2026-01-01T12:30:00.000+0000") == "datetime"
    assert datetime_form("soon") is None and datetime_answer("soon") == "soon"


async def test_the_wizard_commits_a_datetime_on_its_date(hub: HubEmulator) -> None:
    """The emulator holds the hub's behaviour: varDate alone makes a date-only variable and
    closes the form (the time posted after it is lost)."""
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{hub.url}/installedapp/direct/hubVariables") as resp:
            app_id = resp.url.path.rsplit("/", 1)[-1]
        btn = {"id": app_id, "name": "moreVar", "stateAttribute": "moreVar"}
        await session.post(f"{hub.url}/installedapp/btn", data=btn)
        for field, value in (
            ("hbVar", "split"),
            ("varType", "DateTime"),
            ("varDate", "2026-01-01"),
            ("varTime", "12:30"),
        ):
            form = {"id": app_id, "currentPage": "hubVar", f"settings[{field}]": value}
            await session.post(f"{hub.url}/installedapp/update/json", data=form)
    assert hub.state.variables["split"].value == "2026-01-01T99:99:99.999-9999"


async def test_create_connector_finds_the_new_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(
        call_tool, "hub_create_connector", {"name": "guestCount", "connector_type": "Dimmer"}
    )
    (device_id,) = data["device_ids"]  # the connector, not the parent made with it
    device = hub.state.devices[int(device_id)]
    assert device.label == "guestCount" and data["connector_type"] == "Dimmer"
    clicks = [c for c in hub.state.dev.clicks if c.get("stateAttribute") == "createCon"]
    assert clicks[-1]["name"] == "guestCount" and clicks[-1]["currentPage"] == "hubVar"
    assert hub.hubvar_routes.submits[-1]["settings[capab]"] == "Dimmer"
    refused = await call_tool("hub_create_connector", {"name": "nope"})
    assert refused.error
    typed = await call_tool(
        "hub_create_connector", {"name": "wakeUpTime", "connector_type": "Dimmer"}
    )
    assert typed.error and "only Number and Decimal" in typed.data["message"]
    data = await ok(call_tool, "hub_create_connector", {"name": "wakeUpTime"})
    assert data["connector_type"] is None and len(data["device_ids"]) == 1


def test_the_mesh_fixture_lists_own_variables_with_types() -> None:
    from custom_components.hubitat_dev_tools.hub.mesh import parse_hub_mesh

    from ..contract import load_fixture

    mesh = parse_hub_mesh(load_fixture("devices/hub_mesh").answer)
    assert mesh.variables == [
        {"name": "guestCount", "type": "integer"},
        {"name": "awayMode", "type": "boolean"},
    ]
    assert "hubMeshToken" not in repr(mesh)


async def test_every_own_variable_is_read_from_the_mesh_fixture() -> None:
    """``fetch_own_variables``: the private and the shared ones, name and type, from
    ``/hub2/hubMeshJson`` (linked and peers' variables are not this hub's own)."""
    client = FixtureClient("devices/hub_mesh")
    own = await fetch_own_variables(cast(HubClient, client))
    assert own == [
        {"name": "guestCount", "type": "integer"},
        {"name": "awayMode", "type": "boolean"},
    ]
    assert client.paths == ["/hub2/hubMeshJson"]
