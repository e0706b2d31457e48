"""Hub variables: DateTime values in the hub's own forms (full, date-only), read and written."""

from __future__ import annotations

from datetime import UTC, datetime
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


def _fields(submit: dict[str, str]) -> list[str]:
    return sorted(k[len("settings[") : -1] for k in submit if k.startswith("settings["))


def test_datetime_forms() -> None:
    assert datetime_form("2026-01-01T99:99:99.999-9999") == "date"
    assert datetime_form("9999-99-99T07:15:00.000-0500") == "time"
    assert datetime_answer("9999-99-99T07:15:00.000-0500") == "07:15"
    assert datetime_form("2026-01-01T12:30:00.000+0000") == "datetime"
    assert datetime_form("soon") is None and datetime_answer("soon") == "soon"


async def test_set_datetime_sends_the_hub_form_and_compares_instants(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    data = await ok(
        call_tool, "hub_set_variable", {"name": "wakeUpTime", "value": "2026-08-01T06:45:00-06:00"}
    )
    sent = [p for _m, p in hub.requests[before:] if "/hubvariables/wakeUpTime/" in p]
    assert sent and "/2026-08-01T06:45:00.000-0600?" in sent[0]
    assert data["value"] == "2026-08-01T06:45:00-06:00"
    listed = await ok(call_tool, "hub_list_variables")
    wake = next(v for v in listed["variables"] if v["name"] == "wakeUpTime")
    assert wake["value"] == "2026-08-01T06:45:00-06:00"
    refused = await call_tool("hub_set_variable", {"name": "wakeUpTime", "value": "at six"})
    assert refused.error and "ISO date-time" in refused.data["message"]


async def test_a_date_only_variable_is_created_and_set_by_date(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    routes = hub.hubvar_routes
    routes.submits.clear()
    data = await ok(
        call_tool,
        "hub_create_variable",
        {"name": "holiday", "type": "datetime", "value": "2026-07-04"},
    )
    assert [_fields(s) for s in routes.submits] == [["hbVar"], ["varType"], ["varDate"]]
    assert hub.state.variables["holiday"].value == "2026-07-04T99:99:99.999-9999"
    assert data["value"] == "2026-07-04" and data["datetime_form"] == "date"
    data = await ok(call_tool, "hub_set_variable", {"name": "holiday", "value": "2026-12-25"})
    assert data["value"] == "2026-12-25"
    assert hub.state.variables["holiday"].value == "2026-12-25T99:99:99.999-9999"


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


async def test_the_list_adds_what_only_the_mesh_page_shows(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Variables the Maker API instance does not select come from the hub's list of every
    variable (the Hub Mesh page): type from there, value from their latest change; reading
    one works, setting one is refused with how to make it settable; the token never shows."""
    hub.maker_variable_names = {"guestCount", "wakeUpTime"}
    data = await ok(call_tool, "hub_list_variables")
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["guestCount"]["value"] == 2 and "maker_visible" not in by_name["guestCount"]
    assert by_name["vacationMode"] == {
        "name": "vacationMode",
        "type": "boolean",
        "value": False,
        "maker_visible": False,
    }
    assert data["count"] == len(hub.state.variables)
    assert "Maker API instance" in data["hidden_note"] and "latest change" in data["hidden_note"]
    assert hub.state.mesh.token not in str(data)
    got = await ok(call_tool, "hub_get_variable", {"name": "vacationMode"})
    assert got["value"] is False and got["type"] == "boolean" and got["maker_visible"] is False
    assert "does not select" in got["note"]
    before = len(hub.requests)
    refused = await call_tool("hub_set_variable", {"name": "vacationMode", "value": True})
    assert refused.error and "does not select" in refused.data["message"], refused.data
    assert "Maker API instance" in refused.data["hint"]
    assert not [p for _m, p in hub.requests[before:] if "/hubvariables/vacationMode/" in p]
    missing = await call_tool("hub_get_variable", {"name": "noSuchVariable"})
    assert missing.error


async def test_the_list_shows_values_of_unselected_variables(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """(c) A variable the Maker API instance does not select is listed with its value (its
    latest change), typed by its type; one whose change the hub no longer keeps: null."""
    hub.set_variable("houseStatus", "away")
    hub.set_variable("doorOpenCount", 21)
    hub.set_variable("quietHours", "2026-08-01T22:00:00.000+0000", vtype="datetime")
    hub.home.state.location_events[:] = [
        e for e in hub.home.state.location_events if e.name != "variable:outsideTemp"
    ]
    hub.maker_variable_names = {"guestCount"}
    data = await ok(call_tool, "hub_list_variables")
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["houseStatus"]["value"] == "away" and by_name["houseStatus"]["type"] == "string"
    assert by_name["doorOpenCount"]["value"] == 21 and by_name["doorOpenCount"]["type"] == "integer"
    quiet = datetime.fromisoformat(by_name["quietHours"]["value"])
    assert quiet == datetime(2026, 8, 1, 22, tzinfo=UTC) and quiet.utcoffset() is not None
    assert all(by_name[n]["maker_visible"] is False for n in ("houseStatus", "doorOpenCount"))
    assert (
        by_name["outsideTemp"]["value"] is None and by_name["outsideTemp"]["type"] == "bigdecimal"
    )
    assert {v["name"] for v in data["variables"]} == set(hub.state.variables)
    got = await ok(call_tool, "hub_get_variable", {"name": "doorOpenCount", "history": 0})
    assert got["value"] == 21 and got["recent_changes"] == []


async def test_the_list_says_when_the_mesh_page_is_unreadable(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.fail_paths["/hub2/hubMeshJson"] = 404
    data = await ok(call_tool, "hub_list_variables")
    assert "Maker API instance sees" in data["inventory_note"]
    assert data["count"] == len(data["variables"]) and "hidden_note" not in data


async def test_a_time_only_variable_is_set_by_clock_time(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.set_variable("bedtime", "9999-99-99T22:00:00.000+0000", vtype="datetime")
    listed = await ok(call_tool, "hub_get_variable", {"name": "bedtime"})
    assert listed["value"] == "22:00"
    before = len(hub.requests)
    data = await ok(call_tool, "hub_set_variable", {"name": "bedtime", "value": "06:45"})
    assert data["previous"] == "22:00" and data["value"] == "06:45"
    sent = [p for _m, p in hub.requests[before:] if "/hubvariables/bedtime/" in p]
    assert sent and "/9999-99-99T06:45:00.000" in sent[0]
    stored = str(hub.state.variables["bedtime"].value)
    assert stored.startswith("9999-99-99T06:45:00.000") and len(stored) == 28
    # a full date-time gives its clock time in the hub's zone; anything else is refused
    zone = entry.runtime_data.hub.time_zone
    assert zone is not None
    await ok(call_tool, "hub_set_variable", {"name": "bedtime", "value": "2026-08-01T21:15:00Z"})
    local = datetime(2026, 8, 1, 21, 15, tzinfo=UTC).astimezone(zone).strftime("%H:%M")
    assert str(hub.state.variables["bedtime"].value).startswith(f"9999-99-99T{local}:00.000")
    for bad in ("25:00", "6:45pm", "06:45:30", "2026-08-01", "2026-08-01T21:15:00", 7):
        result = await call_tool("hub_set_variable", {"name": "bedtime", "value": bad})
        assert result.error and "HH:MM" in result.data["message"], bad
    assert str(hub.state.variables["bedtime"].value).startswith("9999-99-99T")
