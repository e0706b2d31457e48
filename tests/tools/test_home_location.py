"""Modes, HSM and hub variables: the tools' part.

Here stay each mode and HSM tool called by name with its answer, the refusals as the tools
answer them, the confirmation and backup gates, the advice naming sibling tools, the Maker API
hint, the hub variable tools, and the parsing of the hub's recorded answers (the hub UI's mode
and location bodies). The modes logic (set with or without the Maker API, create, rename with
the hub UI's body keeping icon and days, the refusals that send nothing) is tested without
hass in tests/managers/test_modes.py; the HSM logic (status, arming with the sensors open now,
alerts, the refusals, an unreadable hub messages page) in tests/managers/test_hsm.py."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.hsm import HubMessages, hsm_command, parse_messages
from custom_components.hubitat_dev_tools.hub.info import LOCATION_FIELDS
from custom_components.hubitat_dev_tools.hub.modes import (
    activate_mode_maker,
    create_mode,
    mode_days,
    update_mode,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok
from ..contract import assert_same_shape, load_fixture
from ..fixture_client import fixture_client
from ..home_util import sent
from ..hub_fake import FakeHub


async def test_mode_tools_create_rename_and_delete_with_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: each tool by name, delete behind its backup and confirm gate (the
    modes logic: tests/managers/test_modes.py)."""
    made = await ok(call_tool, "hub_create_mode", {"name": "Party", "icon": "fa-music"})
    assert made["summary"]
    listing = await ok(call_tool, "hub_list_modes")
    assert "Party" in [m["name"] for m in listing["modes"]] and "mode_manager" in listing
    hub.set_mode("Day")  # so that Night is a change, whatever hour the story left
    switched = await ok(call_tool, "hub_set_mode", {"mode": "Night"})
    assert switched["changed"] is True and hub.current_mode == "Night"
    renamed = await ok(call_tool, "hub_update_mode", {"mode": "Party", "new_name": "Fiesta"})
    assert renamed["renamed_from"] == "Party" and renamed["summary"]
    assert "Fiesta" in [m["name"] for m in hub.modes]
    hub.mark_backup_now()
    await ok(call_tool, "hub_delete_mode", {"mode": "Fiesta", "confirm": True})
    assert "Fiesta" not in [m["name"] for m in hub.modes]


async def test_mode_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The refusals as the tools answer them, the delete past its gates (every refusal of the
    manager: tests/managers/test_modes.py::test_mode_refusals_send_nothing)."""
    hub.mark_backup_now()
    before = len(hub.requests)
    for tool, args, word in (
        ("hub_set_mode", {"mode": "Vacation"}, "Day"),
        ("hub_delete_mode", {"mode": hub.current_mode, "confirm": True}, "active mode"),
    ):
        result = await call_tool(tool, args)
        assert result.error and word in result.data["message"], (tool, result.data)
    assert sent(hub, before) == []
    assert not [p for _m, p in hub.requests[before:] if "/modes/" in p and "json" not in p]


async def test_hsm(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    """The tools' part: the status read, the gate and the argument check as the model sees
    them, and the advice naming hub_get_app and hub_get_hsm_status (arming, alerts and the
    sensors open now: tests/managers/test_hsm.py)."""
    data = await ok(call_tool, "hub_get_hsm_status")
    assert data["status"] == "disarmed" and data["active_alert"] is None
    before = len(hub.requests)
    refused = await call_tool("hub_set_hsm", {"command": "armAway"})
    assert refused.error and refused.data["error"] == "confirmation_required"
    bad = await call_tool("hub_set_hsm", {"command": "armEverything", "confirm": True})
    assert bad.error and bad.data["error"] == "invalid_arguments"
    assert not [p for _m, p in hub.requests[before:] if "/hsm/" in p]
    window = hub.find_device("Living Room Window")["id"]
    hub.set_device_attribute(window, "contact", "open")
    data = await ok(call_tool, "hub_set_hsm", {"command": "armAway", "confirm": True})
    assert data["status"] == "armingAway" and "note" in data
    # arming says what is open right now, so the owner can close it first
    assert {"device_id": str(window), "label": "Living Room Window", "contact": "open"} in (
        data["open_now"]
    )
    assert "hub_get_app" in data["open_note"] and "hub_get_hsm_status" in data["note"]


def test_hub_messages_are_parsed_defensively() -> None:
    # /hub/messages rests on no evidence: every shape reads, none fails.
    sample: dict[str, Any] = {"messages": [], "mode": {"id": 2, "name": "Evening"}}
    sample |= {"hsm": None, "hsmAlert": None}
    assert parse_messages(sample) == HubMessages(mode="Evening")
    assert parse_messages({"mode": "Night", "hsm": "armedAway", "hsmAlert": "intrusion"}) == (
        HubMessages("Night", "armedAway", "intrusion")
    )
    nested = {"mode": {"name": ""}, "hsm": {"status": "disarmed"}, "hsmAlert": "null"}
    assert parse_messages(nested) == HubMessages(hsm="disarmed")
    odd: Any
    for odd in (None, [], "text", 3, {"mode": [1], "hsm": True, "hsmAlert": {}}):
        assert parse_messages(odd) == HubMessages()


async def test_maker_required_says_what_to_configure(
    hass: Any, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub, maker=False)
    status = await ok(call_tool, "hub_get_hsm_status")  # works without Maker
    assert status["can_change"] is False
    for tool, args in (
        ("hub_set_hsm", {"command": "armAway", "confirm": True}),
        ("hub_list_variables", {}),
        ("hub_get_variable", {"name": "guestCount"}),
        ("hub_set_variable", {"name": "guestCount", "value": 1}),
    ):
        result = await call_tool(tool, args)
        assert result.error and result.data["error"] == "maker_api_required", tool
        assert "Maker API" in result.data["hint"] and "Reconfigure" in result.data["hint"]


async def test_variables(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    data = await ok(call_tool, "hub_list_variables")
    by_name = {v["name"]: v for v in data["variables"]}
    assert by_name["guestCount"] == {"name": "guestCount", "type": "integer", "value": 2}
    assert by_name["vacationMode"]["value"] is False
    data = await ok(call_tool, "hub_set_variable", {"name": "guestCount", "value": "4"})
    assert data["value"] == 4 and data["previous"] == 2
    await ok(call_tool, "hub_set_variable", {"name": "vacationMode", "value": True})
    await ok(call_tool, "hub_set_variable", {"name": "lastArrival", "value": "Bob / Carol"})
    assert hub.variables["lastArrival"]["value"] == "Bob / Carol"
    data = await ok(call_tool, "hub_get_variable", {"name": "guestCount"})
    assert data["value"] == 4 and data["recent_changes"][0]["value"] == "4"
    changes = await ok(call_tool, "hub_list_variables", {"include_changes": True})
    assert {c["name"] for c in changes["recent_changes"]} >= {"guestCount", "vacationMode"}


async def test_variable_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    for name, value in (
        ("guestCount", "two"),
        ("guestCount", 2.5),
        ("thermostatOffset", "warm"),
        ("vacationMode", "maybe"),
        ("wakeUpTime", "tomorrow"),
        ("lastArrival", ""),
    ):
        result = await call_tool("hub_set_variable", {"name": name, "value": value})
        assert result.error and name in result.data["message"], (name, result.data)
    # only the type lookups were sent, never a set
    assert not [
        p
        for _m, p in hub.requests[before:]
        if p.count("/hubvariables/") and p.split("?")[0].count("/") > 5
    ]
    missing = await call_tool("hub_get_variable", {"name": "nope"})
    assert missing.error and missing.data["error"] == "not_found"


# ---------------------------------------------------------------------- contract fixtures


async def test_maker_mode_and_hsm_fixtures() -> None:
    assert await hsm_command(fixture_client("maker/hsm"), "armAway") == "armedAway"
    answer = await activate_mode_maker(fixture_client("maker/mode_activate"), "1")
    assert [m["name"] for m in answer if m["active"]] == ["Day"]
    # the same list answers GET /modes (setup checks the Maker token with it)
    assert load_fixture("maker/modes").answer == load_fixture("maker/mode_activate").answer


async def test_mode_and_location_writes_answer_in_the_hub_ui_shape(hub: HubEmulator) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{hub.url}/modes/jsonCreate", json={"name": "Party"}) as resp:
            assert_same_shape("modes/mode_change", json.loads(await resp.text()))
        party = next(m for m in hub.modes if m["name"] == "Party")
        rename = {"name": "Late Party", "icon": "", "daysOfWeek": [0, 1, 2, 3, 4, 5, 6]}
        rename["id"] = party["id"]  # the hub UI's body, in its order
        async with session.post(f"{hub.url}/modes/jsonUpdate", json=rename) as resp:
            assert_same_shape("modes/mode_update", json.loads(await resp.text()))
        async with session.get(f"{hub.url}/modes/jsonDelete/{party['id']}") as resp:
            assert_same_shape("modes/mode_delete", json.loads(await resp.text()))
        assert "Late Party" not in [m["name"] for m in hub.modes]
        async with session.get(f"{hub.url}/hub/details/json") as resp:
            details = json.loads(await resp.text())
        body = {key: details[src] for key, src in LOCATION_FIELDS.items()}
        async with session.post(f"{hub.url}/location/update", json=body) as resp:
            assert_same_shape("location/location_update", json.loads(await resp.text()))


# ---------------------------------------------------------------------- mode edits: the hub UI body


def _weekdays(mode_id: int) -> dict[str, list[dict[str, Any]]]:
    """A weekdays-only schedule for ``mode_id`` as the hub UI's mode editor saves it."""

    def entry(days: list[int], text: str) -> dict[str, Any]:
        return {
            "deviceIds": [],
            "index": 0,
            "triggerType": "daysOfWeek",
            "daysOfWeek": days,
            "description": f"When day is {text}",
            "type": "when",
        }

    return {
        str(mode_id): [entry([1, 2, 3, 4, 5], "Mon, Tue, Wed, Thu, Fri")],
        f"alt-{mode_id}": [entry([0, 6], "Sun, Sat")],
    }


async def test_create_mode_posts_the_hub_ui_body() -> None:
    fake = FakeHub({"POST /modes/jsonCreate": load_fixture("modes/mode_change").answer})
    await create_mode(fake.client, "Party", None)
    await create_mode(fake.client, "Movie", "fa-film")
    bodies = [call[2]["json_body"] for call in fake.calls]
    assert [list(b) for b in bodies] == [["name", "icon", "daysOfWeek"]] * 2
    assert bodies[0] == {"name": "Party", "icon": "", "daysOfWeek": [0, 1, 2, 3, 4, 5, 6]}
    assert bodies[1]["icon"] == "fa-film"


async def test_update_mode_posts_name_icon_days_and_id_in_the_ui_order() -> None:
    fake = FakeHub({"POST /modes/jsonUpdate": load_fixture("modes/mode_update").answer})
    await update_mode(fake.client, "2", "Late", "fa-moon", [1, 2, 3, 4, 5])
    body = fake.calls[0][2]["json_body"]
    assert list(body) == ["name", "icon", "daysOfWeek", "id"]
    assert body == {"name": "Late", "icon": "fa-moon", "daysOfWeek": [1, 2, 3, 4, 5], "id": 2}
    conditions = load_fixture("modes/mode_manager_conditions").answer
    assert mode_days(conditions, "1") == [1, 2, 3, 4, 5]  # its days entry
    assert mode_days(conditions, "4") == [0, 1, 2, 3, 4, 5, 6]  # none: the UI's default


async def test_emulator_mode_update_takes_the_ui_body(hub: HubEmulator) -> None:
    night = next(m for m in hub.state.modes if m.name == "Night")
    hub.state.mode_manager.conditions.update(_weekdays(night.id))
    url = f"{hub.url}/modes/jsonUpdate"
    async with aiohttp.ClientSession() as session:
        ui = {"name": "Night", "icon": night.icon, "daysOfWeek": [1, 2, 3, 4, 5], "id": night.id}
        async with session.post(url, json=ui) as resp:
            assert_same_shape("modes/mode_update", json.loads(await resp.text()))
        assert hub.state.mode_manager.conditions[str(night.id)][0]["daysOfWeek"] == [1, 2, 3, 4, 5]
        # new days are kept as the UI keeps them: the mode's entry and the other days'
        ui["daysOfWeek"] = [0, 6]
        async with session.post(url, json=ui) as resp:
            assert json.loads(await resp.text())["success"] is True
        conditions = hub.state.mode_manager.conditions
        assert conditions[str(night.id)][0]["daysOfWeek"] == [0, 6]
        assert conditions[f"alt-{night.id}"][0]["daysOfWeek"] == [1, 2, 3, 4, 5]
        async with session.post(url, json={**ui, "daysOfWeek": "weekdays"}) as resp:
            assert json.loads(await resp.text())["success"] is False
        # the old body (no daysOfWeek) is taken as every day: the schedule is gone (assumed)
        async with session.post(url, json={"id": night.id, "name": "Night"}) as resp:
            assert json.loads(await resp.text())["success"] is True
        assert str(night.id) not in conditions and f"alt-{night.id}" not in conditions
