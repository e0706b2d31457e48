"""The library's mode calls (``hub/modes.py``) on their own, no hass: activating a mode
through the Maker API reads the hub's recorded answer (the same list that answers GET
/modes); creating and renaming a mode post the hub UI's body, its keys in the UI's order
(name, icon, days of the week, and the id for a rename); a mode's days read from the Mode
Manager's triggers; and the emulated hub answering the mode and location writes in the
recorded shapes, keeping a mode's day schedule as the hub UI keeps it.

Moved from tests/tools/test_home_location.py (test_maker_mode_and_hsm_fixtures, its mode
part; test_mode_and_location_writes_answer_in_the_hub_ui_shape;
test_create_mode_posts_the_hub_ui_body;
test_update_mode_posts_name_icon_days_and_id_in_the_ui_order;
test_emulator_mode_update_takes_the_ui_body: the bodies and answers are the library's
contract; each mode tool called by name, the refusals as the tools answer them and the
backup and confirmation gate on delete stay there, and what the modes manager sends and
refuses is tested in tests/managers/test_modes.py)."""

from __future__ import annotations

import json

import aiohttp

from custom_components.hubitat_dev_tools.hub.info import LOCATION_FIELDS
from custom_components.hubitat_dev_tools.hub.modes import (
    activate_mode_maker,
    create_mode,
    mode_days,
    update_mode,
)
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape, load_fixture
from ..fixture_client import fixture_client
from ..helpers.modes import _weekdays
from ..hub_fake import FakeHub


async def test_maker_mode_fixture() -> None:
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
