"""The modes manager (``managers/modes.py``) on its own, no hass: it lists the modes from the
hub's answers, renames a mode with the hub UI's body (reading the name back) and reads the
Mode Manager's triggers by meaning.

Moved from tests/tools/test_home_location.py and tests/tools/test_mode_manager.py (they call
the manager, not a tool)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.controllers import ModesController
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubNotFoundError
from custom_components.hubitat_dev_tools.hub.modes import create_mode, delete_mode, update_mode
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.modes import ModeManager
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..fixture_client import fixture_client
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
