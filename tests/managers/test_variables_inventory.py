"""Hub variables' connector devices (the variables manager's ``create_connector``,
``managers/variables.py``) on their own, no hass: the Hub Variables page's connector button
pressed for the variable (with the connector type for a number), done when the new device
shows (the connector, not the parent device the first one brings), a connector type refused
for a variable that is not a number and a name the hub does not have refused, nothing sent;
with the DateTime forms and the hub's list of every variable as the library reads them, and
the emulated wizard's handling of a DateTime (the hub's behaviour it holds).

Moved from tests/tools/test_variables_inventory.py (the connector logic is the manager's;
the tool's summary and its refusals as it answers them stay there)."""

from __future__ import annotations

from typing import cast

import aiohttp
import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.mesh import parse_hub_mesh
from custom_components.hubitat_dev_tools.hub.variables import (
    datetime_answer,
    datetime_form,
    fetch_own_variables,
)
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..fixture_client import FixtureClient
from ..home_util import sent


def test_datetime_forms() -> None:
    assert datetime_form("2026-01-01T99:99:99.999-9999") == "date"
    assert datetime_form("9999-99-99T07:15:00.000-0500") == "time"
    assert datetime_answer("9999-99-99T07:15:00.000-0500") == "07:15"
    assert datetime_form("2026-01-01T12:30:00.000+0000") == "datetime"
    assert datetime_form("soon") is None and datetime_answer("soon") == "soon"


async def test_the_wizard_commits_a_datetime_on_its_date(emu: HubEmulator) -> None:
    """The emulator holds the hub's behaviour: varDate alone makes a date-only variable and
    closes the form (the time posted after it is lost)."""
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{emu.url}/installedapp/direct/hubVariables") as resp:
            app_id = resp.url.path.rsplit("/", 1)[-1]
        btn = {"id": app_id, "name": "moreVar", "stateAttribute": "moreVar"}
        await session.post(f"{emu.url}/installedapp/btn", data=btn)
        for field, value in (
            ("hbVar", "split"),
            ("varType", "DateTime"),
            ("varDate", "2026-01-01"),
            ("varTime", "12:30"),
        ):
            form = {"id": app_id, "currentPage": "hubVar", f"settings[{field}]": value}
            await session.post(f"{emu.url}/installedapp/update/json", data=form)
    assert emu.state.variables["split"].value == "2026-01-01T99:99:99.999-9999"


async def test_create_connector_finds_the_new_device(emu: HubEmulator, manager_hub: Hub) -> None:
    manager = manager_hub.variables
    devices_before = set(emu.state.devices)
    data = await manager.create_connector("guestCount", "Dimmer")
    (device_id,) = data["device_ids"]  # the connector, not the parent made with it
    device = emu.state.devices[int(device_id)]
    assert device.label == "guestCount" and data["connector_type"] == "Dimmer"
    assert data["name"] == "guestCount" and data["type"] == "integer"
    assert len(set(emu.state.devices) - devices_before) == 2  # the parent came with it
    clicks = [c for c in emu.state.dev.clicks if c.get("stateAttribute") == "createCon"]
    assert clicks[-1]["name"] == "guestCount" and clicks[-1]["currentPage"] == "hubVar"
    assert emu.hubvar_routes.submits[-1]["settings[capab]"] == "Dimmer"
    before = len(emu.requests)
    with pytest.raises(ToolError, match="No hub variable 'nope'") as missing:
        await manager.create_connector("nope", None)
    assert missing.value.subject == "variable_missing"
    with pytest.raises(ToolError, match="only Number and Decimal") as typed:
        await manager.create_connector("wakeUpTime", "Dimmer")
    assert typed.value.hint == "Leave connector_type out."
    assert sent(emu, before) == []
    data = await manager.create_connector("wakeUpTime", None)
    assert data["connector_type"] is None and len(data["device_ids"]) == 1
    number = await manager.create_connector("doorOpenCount", None)
    assert number["connector_type"] == "Variable"  # a number's default connector type


def test_the_mesh_fixture_lists_own_variables_with_types() -> None:
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
