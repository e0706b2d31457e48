"""The variables manager (``managers/variables.py``) on its own, no hass: values read typed by
the variable's type and set after a check against it (a value of the wrong type refused
before anything is sent), with each variable's recent changes; DateTime values in the hub's
own forms (full, date-only, time-only), read and written; the inventory adds the variables
the Maker API instance does not select (from the hub's list of every variable).

Moved from tests/tools/test_variables_inventory.py (they call the manager, not a tool) and
from tests/tools/test_home_location.py (test_variables and test_variable_refusals: the
typing, the checks and the changes are the manager's; each variable tool called by name
with its answer, a refusal and a variable not found as the tools answer them, and the
Maker API hint stay there)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubNotFoundError
from custom_components.hubitat_dev_tools.hub.info import fetch_identity
from custom_components.hubitat_dev_tools.hub.variables import fetch_variables
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.variables import _variable
from hubitat_emulator import HubEmulator

from ..fixture_client import fixture_client


async def test_datetime_fixture_reads_in_iso_with_offset() -> None:
    items = await fetch_variables(fixture_client("variables/datetime_values"))
    by_name = {v["name"]: _variable(v) for v in items}
    assert by_name["alarmAt"]["value"] == "2026-01-01T12:30:00-05:00"
    assert "datetime_form" not in by_name["alarmAt"]
    assert by_name["holiday"] == {
        "name": "holiday",
        "type": "datetime",
        "value": "2026-07-04",
        "datetime_form": "date",
    }
    assert by_name["guestCount"]["value"] == 3


@pytest.fixture
async def variables(manager_hub: Hub) -> Hub:
    """The hub with its identity read first, as the integration's setup does (the client
    then knows the hub's time zone, which DateTime values are written in)."""
    await fetch_identity(manager_hub.client)
    return manager_hub


def _fields(submit: dict[str, str]) -> list[str]:
    return sorted(k[len("settings[") : -1] for k in submit if k.startswith("settings["))


def _named(listed: list[Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(v for v in listed if v["name"] == name)
    return found


async def test_set_datetime_sends_the_hub_form_and_compares_instants(
    emu: HubEmulator, variables: Hub
) -> None:
    before = len(emu.requests)
    data = await variables.variables.set_variable("wakeUpTime", "2026-08-01T06:45:00-06:00")
    sent = [p for _m, p in emu.requests[before:] if "/hubvariables/wakeUpTime/" in p]
    assert sent and "/2026-08-01T06:45:00.000-0600?" in sent[0]
    assert data["value"] == "2026-08-01T06:45:00-06:00"
    listed = await variables.variables.list_variables()
    assert _named(listed, "wakeUpTime")["value"] == "2026-08-01T06:45:00-06:00"
    with pytest.raises(ToolError, match="ISO date-time"):
        await variables.variables.set_variable("wakeUpTime", "at six")


async def test_a_date_only_variable_is_created_and_set_by_date(
    emu: HubEmulator, variables: Hub
) -> None:
    routes = emu.hubvar_routes
    routes.submits.clear()
    made = await variables.variables.create_variable("holiday", "datetime", "2026-07-04")
    assert [_fields(s) for s in routes.submits] == [["hbVar"], ["varType"], ["varDate"]]
    assert emu.state.variables["holiday"].value == "2026-07-04T99:99:99.999-9999"
    assert made["value"] == "2026-07-04" and made.get("datetime_form") == "date"
    data = await variables.variables.set_variable("holiday", "2026-12-25")
    assert data["value"] == "2026-12-25"
    assert emu.state.variables["holiday"].value == "2026-12-25T99:99:99.999-9999"


async def test_the_list_adds_what_only_the_mesh_page_shows(
    emu: HubEmulator, variables: Hub
) -> None:
    """Variables the Maker API instance does not select come from the hub's list of every
    variable (the Hub Mesh page): type from there, value from their latest change; reading
    one works, setting one is refused with how to make it settable; the token never shows."""
    emu.maker_variable_names = {"guestCount", "wakeUpTime"}
    data = await variables.variables.inventory()
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["guestCount"]["value"] == 2 and "maker_visible" not in by_name["guestCount"]
    assert by_name["vacationMode"] == {
        "name": "vacationMode",
        "type": "boolean",
        "value": False,
        "maker_visible": False,
    }
    assert len(data["variables"]) == len(emu.state.variables)
    assert "Maker API instance" in data["hidden_note"] and "latest change" in data["hidden_note"]
    assert emu.state.mesh.token not in str(data)
    got = await variables.variables.get_variable("vacationMode")
    assert got["value"] is False and got["type"] == "boolean"
    assert got.get("maker_visible") is False and "does not select" in str(got.get("note"))
    before = len(emu.requests)
    with pytest.raises(ToolError, match="does not select") as refused:
        await variables.variables.set_variable("vacationMode", True)
    assert "Maker API instance" in str(refused.value.hint)
    assert not [p for _m, p in emu.requests[before:] if "/hubvariables/vacationMode/" in p]
    with pytest.raises(HubNotFoundError):
        await variables.variables.get_variable("noSuchVariable")


async def test_the_list_shows_values_of_unselected_variables(
    emu: HubEmulator, variables: Hub
) -> None:
    """A variable the Maker API instance does not select is listed with its value (its
    latest change), typed by its type; one whose change the hub no longer keeps: null."""
    emu.set_variable("houseStatus", "away")
    emu.set_variable("doorOpenCount", 21)
    emu.set_variable("quietHours", "2026-08-01T22:00:00.000+0000", vtype="datetime")
    emu.home.state.location_events[:] = [
        e for e in emu.home.state.location_events if e.name != "variable:outsideTemp"
    ]
    emu.maker_variable_names = {"guestCount"}
    data = await variables.variables.inventory()
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["houseStatus"]["value"] == "away" and by_name["houseStatus"]["type"] == "string"
    assert by_name["doorOpenCount"]["value"] == 21 and by_name["doorOpenCount"]["type"] == "integer"
    quiet = datetime.fromisoformat(by_name["quietHours"]["value"])
    assert quiet == datetime(2026, 8, 1, 22, tzinfo=UTC) and quiet.utcoffset() is not None
    assert all(by_name[n]["maker_visible"] is False for n in ("houseStatus", "doorOpenCount"))
    assert (
        by_name["outsideTemp"]["value"] is None and by_name["outsideTemp"]["type"] == "bigdecimal"
    )
    assert {v["name"] for v in data["variables"]} == set(emu.state.variables)
    got = await variables.variables.get_variable("doorOpenCount", history=0)
    assert got["value"] == 21 and got["recent_changes"] == []


async def test_the_list_says_when_the_mesh_page_is_unreadable(
    emu: HubEmulator, variables: Hub
) -> None:
    emu.faults.fail_paths["/hub2/hubMeshJson"] = 404
    data = await variables.variables.inventory()
    assert "Maker API instance sees" in data["inventory_note"]
    assert data["variables"] and "hidden_note" not in data
    assert data["variables"] == await variables.variables.list_variables()


async def test_a_time_only_variable_is_set_by_clock_time(emu: HubEmulator, variables: Hub) -> None:
    emu.set_variable("bedtime", "9999-99-99T22:00:00.000+0000", vtype="datetime")
    listed = await variables.variables.get_variable("bedtime")
    assert listed["value"] == "22:00"
    before = len(emu.requests)
    data = await variables.variables.set_variable("bedtime", "06:45")
    assert data["previous"] == "22:00" and data["value"] == "06:45"
    sent = [p for _m, p in emu.requests[before:] if "/hubvariables/bedtime/" in p]
    assert sent and "/9999-99-99T06:45:00.000" in sent[0]
    stored = str(emu.state.variables["bedtime"].value)
    assert stored.startswith("9999-99-99T06:45:00.000") and len(stored) == 28
    # a full date-time gives its clock time in the hub's zone; anything else is refused
    zone = variables.client.time_zone
    assert zone is not None
    await variables.variables.set_variable("bedtime", "2026-08-01T21:15:00Z")
    local = datetime(2026, 8, 1, 21, 15, tzinfo=UTC).astimezone(zone).strftime("%H:%M")
    assert str(emu.state.variables["bedtime"].value).startswith(f"9999-99-99T{local}:00.000")
    for bad in ("25:00", "6:45pm", "06:45:30", "2026-08-01", "2026-08-01T21:15:00", 7):
        with pytest.raises(ToolError, match="HH:MM"):
            await variables.variables.set_variable("bedtime", bad)
    assert str(emu.state.variables["bedtime"].value).startswith("9999-99-99T")


# ------------------------------------------------- moved from tests/tools/test_home_location.py


async def test_values_are_typed_set_and_their_changes_read(
    emu: HubEmulator, variables: Hub
) -> None:
    manager = variables.variables
    data = await manager.inventory()
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["guestCount"] == {"name": "guestCount", "type": "integer", "value": 2}
    assert by_name["vacationMode"]["value"] is False
    changed = await manager.set_variable("guestCount", "4")
    assert changed["value"] == 4 and changed["previous"] == 2
    assert changed == {"name": "guestCount", "type": "integer", "previous": 2, "value": 4}
    assert emu.variables["guestCount"]["value"] == 4
    await manager.set_variable("vacationMode", True)
    assert emu.variables["vacationMode"]["value"] is True
    await manager.set_variable("lastArrival", "Bob / Carol")
    assert emu.variables["lastArrival"]["value"] == "Bob / Carol"
    got = await manager.get_variable("guestCount")
    assert got["value"] == 4 and got["recent_changes"][0]["value"] == "4"
    changes = await manager.changes()
    assert {c["name"] for c in changes} >= {"guestCount", "vacationMode"}


async def test_a_value_of_the_wrong_type_is_refused_before_a_set(
    emu: HubEmulator, variables: Hub
) -> None:
    manager = variables.variables
    values = {name: v["value"] for name, v in emu.variables.items()}
    before = len(emu.requests)
    for name, value in (
        ("guestCount", "two"),
        ("guestCount", 2.5),
        ("thermostatOffset", "warm"),
        ("vacationMode", "maybe"),
        ("wakeUpTime", "tomorrow"),
        ("lastArrival", ""),
    ):
        with pytest.raises(ToolError) as refused:
            await manager.set_variable(name, value)
        assert name in str(refused.value), (name, value)
    # only the type lookups were sent, never a set
    assert not [
        p
        for _m, p in emu.requests[before:]
        if p.count("/hubvariables/") and p.split("?")[0].count("/") > 5
    ]
    assert {name: v["value"] for name, v in emu.variables.items()} == values
    with pytest.raises(HubNotFoundError):
        await manager.get_variable("nope")
