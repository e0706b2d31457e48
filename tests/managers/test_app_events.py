"""One app's event history through the logs manager (``managers/logs.py`` ``events`` with
``app_id``) on its own, no hass: the hub UI's app events page, newest first, narrowed by a
window and a name.

Moved from tests/tools/test_app_events.py (the reading and narrowing are the manager's; the
tool's not-found hint stays there)."""

from __future__ import annotations

import itertools
from datetime import timedelta

from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.logs import window_start
from hubitat_emulator import HubEmulator
from hubitat_emulator.app_events import add_app_event
from hubitat_emulator.clock import utcnow
from hubitat_emulator.seed_specs import RULE_MOTION


def _every_device(_device_id: str) -> bool:
    return True


async def test_an_apps_history_newest_first_with_plain_descriptions(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    data = await manager_hub.logs.events(
        "all", 50, None, None, app_id=str(RULE_MOTION), device_allowed=_every_device
    )
    assert data["app_id"] == str(RULE_MOTION)
    events = data["events"]
    # the seeded story: the rule ran at each kitchen motion, the last one within the hour
    assert data["count"] == len(events) >= 4
    assert [e["value"] for e in events[:2]] == ["completed", "triggered"]
    assert all(e["source"] == "app" for e in events)
    assert events[1]["description"] == "Motion Lights - Kitchen: trigger motion"
    assert all(a["date"] >= b["date"] for a, b in itertools.pairwise(events))
    assert ("GET", f"/installedapp/eventsJson/{RULE_MOTION}") in emu.requests


async def test_an_apps_history_is_narrowed_by_window_and_name(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    when = utcnow() - timedelta(minutes=1)
    add_app_event(emu.state, RULE_MOTION, "note", "hello", "a note", when)
    app_id = str(RULE_MOTION)
    hour_ago = window_start(None, 1)  # as the tool computes hours_back=1
    data = await manager_hub.logs.events(
        "all", 50, hour_ago, None, app_id=app_id, device_allowed=_every_device
    )
    assert [e["value"] for e in data["events"]] == ["hello", "completed", "triggered"]
    data = await manager_hub.logs.events(
        "all", 50, None, "note", app_id=app_id, device_allowed=_every_device
    )
    assert [e["name"] for e in data["events"]] == ["note"]
