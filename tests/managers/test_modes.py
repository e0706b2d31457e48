"""The modes manager (``managers/modes.py``) on its own, no hass: it lists the modes from the
hub's answers, sets the active mode (through the Maker API, or the hub UI's endpoint without
it), creates, renames and deletes modes, renames with the hub UI's body (keeping the icon and
the day schedule, reading the name back), refuses unknown, duplicate and active modes before
anything is sent, and reads the Mode Manager's triggers by meaning.

Moved from tests/tools/test_home_location.py and tests/tools/test_mode_manager.py (the mode
logic is the manager's; each mode tool called by name, the refusals as the tools answer
them and the backup and confirmation gate on delete stay there)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.controllers import ModesController
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubNotFoundError
from custom_components.hubitat_dev_tools.hub.modes import create_mode, delete_mode, update_mode
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.modes import ModeManager
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..fixture_client import fixture_client
from ..helpers.modes import _weekdays
from ..home_util import sent
from ..hub_fake import FakeHub


def _mode_manager(client: HubClient) -> ModeManager:
    """The modes manager over ``client`` (its connection only says whether Maker is set)."""
    return ModeManager(ModesController(client), HubConnection("192.0.2.10"))


async def test_modes_fixture_lists_modes_and_the_active_one() -> None:
    listing = await _mode_manager(fixture_client("modes/modes")).list_modes()
    assert listing["active_mode"] == "Day" and listing["mode_manager"] == "builtIn"
    assert [(m["mode_id"], m["icon"]) for m in listing["modes"]] == [
        ("1", "fa-sun"),
        ("2", "fa-moon"),
    ]
    await create_mode(fixture_client("modes/mode_change"), "Party", None)  # success: no raise
    await update_mode(fixture_client("modes/mode_update"), "2", "Late", "fa-moon", [1, 2])
    await delete_mode(fixture_client("modes/mode_delete"), "2")


def _rename_hub(after: dict[str, Any]) -> FakeHub:
    """/modes/json answers the fixture (the look-up and the name check), then ``after``."""
    listed = load_fixture("modes/modes").answer
    reads = iter([listed, listed, after])
    return FakeHub(
        {
            "GET /modes/json": lambda: next(reads),
            "GET /modes/easyModeManager/json": load_fixture("modes/mode_manager_conditions").answer,
            "POST /modes/jsonUpdate": load_fixture("modes/mode_update").answer,
        }
    )


async def test_rename_reads_the_days_where_the_ui_does_and_reads_the_name_back() -> None:
    listed = load_fixture("modes/modes").answer
    renamed = {**listed, "modes": [{**listed["modes"][0], "name": "Morning"}, listed["modes"][1]]}
    fake = _rename_hub(renamed)
    done = await _mode_manager(fake.client).rename("Day", "Morning", None)
    assert done == {"mode_id": "1", "name": "Morning", "renamed_from": "Day"}
    posts = [c for c in fake.calls if c[0] == "POST"]
    assert [c[2]["json_body"] for c in posts] == [
        {"name": "Morning", "icon": "fa-sun", "daysOfWeek": [1, 2, 3, 4, 5], "id": 1}
    ]
    assert fake.calls[-1][1] == "/modes/json"  # the read-back
    # a hub that answers success but keeps the old name: not a success
    with pytest.raises(HubBadResponseError, match="reads back 'Day'"):
        await _mode_manager(_rename_hub(listed).client).rename("Day", "Morning", None)
    # a hub without the Mode Manager's endpoint has no day schedule: every day, as the UI sends
    older = _rename_hub(renamed)
    older.answers["GET /modes/easyModeManager/json"] = HubNotFoundError("HTTP 404")
    await _mode_manager(older.client).rename("Day", "Morning", None)
    sent_days = [c[2]["json_body"]["daysOfWeek"] for c in older.calls if c[0] == "POST"]
    assert sent_days == [[0, 1, 2, 3, 4, 5, 6]]


# ---------------------------------------------------------------------- the Mode Manager
# Moved from tests/tools/test_mode_manager.py.


async def test_conditions_fixture_reads_by_meaning() -> None:
    modes = _mode_manager(fixture_client("modes/mode_manager_conditions"))
    view = await modes.manager_config.overview(_payload())
    assert view["selected"] == "app" and view["app_id"] == "1814" and "note" in view
    day = next(m for m in view["triggers"] if m["mode"] == "Day")
    assert day["days"] == ["Mon", "Tue", "Wed", "Thu", "Fri"]
    assert day["other_days_triggers"][0]["at"] == "08:00"
    night = next(m for m in view["triggers"] if m["mode"] == "Night")
    assert night["triggers"][0]["event"] == "held" and night["triggers"][0]["button"] == 2
    assert view["exit_away"][0]["event"] == "arrives"


def _payload() -> dict[str, Any]:
    from ..contract import load_fixture

    answer = load_fixture("modes/modes_with_legacy").answer
    assert isinstance(answer, dict)
    return answer


# ---------------------------------------------------------------------- over the emulated hub
# Moved from tests/tools/test_home_location.py (the tools' refusals and the backup gate on
# delete stay there).


async def test_list_set_create_rename_and_delete_modes(emu: HubEmulator, manager_hub: Hub) -> None:
    modes = manager_hub.modes
    listing = await modes.list_modes()
    assert listing["active_mode"] == emu.current_mode
    assert {m["name"] for m in listing["modes"]} >= {"Day", "Night", "Away"}
    emu.set_mode("Day")  # so that Away is a change, whatever hour the story left
    switched = await modes.set_mode("away")
    assert switched["changed"] is True and switched["via"] == "maker_api"
    assert emu.current_mode == "Away"
    again = await modes.set_mode("Away")
    assert again["changed"] is False
    await modes.create("Party", "fa-music")
    assert "Party" in [m["name"] for m in emu.modes]
    renamed = await modes.rename("Party", "Fiesta", None)
    assert renamed["renamed_from"] == "Party"
    assert "Fiesta" in [m["name"] for m in emu.modes]
    assert "Party" not in [m["name"] for m in emu.modes]
    await modes.delete("Fiesta")
    assert "Fiesta" not in [m["name"] for m in emu.modes]


async def test_mode_refusals_send_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    modes = manager_hub.modes
    before = len(emu.requests)
    attempts: list[tuple[Callable[[], Awaitable[Any]], str]] = [
        (lambda: modes.set_mode("Vacation"), "Day"),
        (lambda: modes.create("night", None), "already exists"),
        (lambda: modes.rename("Day", "Night", None), "already exists"),
        (lambda: modes.delete(emu.current_mode), "active mode"),
    ]
    for attempt, word in attempts:
        with pytest.raises(ToolError) as refused:
            await attempt()
        assert word in str(refused.value), (word, str(refused.value))
    assert sent(emu, before) == []
    assert not [p for _m, p in emu.requests[before:] if "/modes/" in p and "json" not in p]


async def test_set_mode_without_the_maker_api_goes_through_the_hub_ui(emu: HubEmulator) -> None:
    url = URL(emu.url)
    emu.set_mode("Day")  # so that Night is a change, whatever hour the story left
    async with aiohttp.ClientSession() as session:
        admin_only = Hub(HubClient(session, HubConnection(host=str(url.host), port=url.port)))
        before = len(emu.requests)
        data = await admin_only.modes.set_mode("Night")
    assert data["via"] == "admin" and data["changed"] is True and emu.current_mode == "Night"
    assert data["previous_mode"] == "Day"
    assert not [p for _m, p in emu.requests[before:] if p.startswith("/apps/api/")]


async def test_rename_sends_the_hub_ui_body_and_keeps_icon_and_days(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    # The hub UI posts {name, icon, daysOfWeek, id}: the mode's icon and its days as read from
    # the Mode Manager's triggers. A rename that leaves the days out loses the schedule.
    modes = manager_hub.modes
    night = next(m for m in emu.state.modes if m.name == "Night")
    icon = night.icon
    schedule = _weekdays(night.id)
    emu.state.mode_manager.conditions.update(json.loads(json.dumps(schedule)))
    before = len(emu.requests)
    data = await modes.rename("Night", "Late Night", None)
    assert data["name"] == "Late Night" and data["renamed_from"] == "Night"
    assert sent(emu, before) == ["/modes/jsonUpdate"]
    # read back: the name changed; the icon and the day schedule are what they were
    assert (night.name, night.icon) == ("Late Night", icon)
    for key, items in schedule.items():
        assert emu.state.mode_manager.conditions[key] == items, key
    listing = await modes.list_with_manager()
    row = next(m for m in listing["mode_manager"]["triggers"] if m["mode"] == "Late Night")
    assert row["days"] == ["Mon", "Tue", "Wed", "Thu", "Fri"]
    # a new icon rides the same body, the days still as read
    await modes.rename("Late Night", "Night", "fa-bed")
    assert (night.name, night.icon) == ("Night", "fa-bed")
    assert emu.state.mode_manager.conditions[str(night.id)] == schedule[str(night.id)]
