"""Per-app event history through hub_list_events(app_id): the hub UI's app events page."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import cast

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.logs import fetch_app_events
from hubitat_emulator import HubEmulator
from hubitat_emulator.app_events import add_app_event
from hubitat_emulator.clock import utcnow
from hubitat_emulator.seed_specs import RULE_MOTION

from ..conftest import ToolCaller, ok, refused
from ..fixture_client import FixtureClient


async def test_the_fixture_rows_are_read_as_they_are() -> None:
    client = FixtureClient("apps/app_events")
    rows = await fetch_app_events(cast(HubClient, client), "140")
    assert client.paths == ["/installedapp/eventsJson/140"]
    assert [r["value"] for r in rows] == ["triggered", "completed"]


async def test_an_apps_history_newest_first_with_plain_descriptions(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_list_events", {"app_id": str(RULE_MOTION)})
    assert data["app_id"] == str(RULE_MOTION)
    events = data["events"]
    # the seeded story: the rule ran at each kitchen motion, the last one within the hour
    assert data["count"] == len(events) >= 4
    assert [e["value"] for e in events[:2]] == ["completed", "triggered"]
    assert all(e["source"] == "app" for e in events)
    assert events[1]["description"] == "Motion Lights - Kitchen: trigger motion"
    assert all(a["date"] >= b["date"] for a, b in itertools.pairwise(events))
    assert ("GET", f"/installedapp/eventsJson/{RULE_MOTION}") in hub.requests


async def test_an_apps_history_is_narrowed_by_window_and_name(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    when = utcnow() - timedelta(minutes=1)
    add_app_event(hub.state, RULE_MOTION, "note", "hello", "a note", when)
    data = await ok(call_tool, "hub_list_events", {"app_id": str(RULE_MOTION), "hours_back": 1})
    assert [e["value"] for e in data["events"]] == ["hello", "completed", "triggered"]
    data = await ok(call_tool, "hub_list_events", {"app_id": str(RULE_MOTION), "name": "note"})
    assert [e["name"] for e in data["events"]] == ["note"]


async def test_an_unknown_app_is_not_found(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await refused(call_tool, "hub_list_events", {"app_id": "99999"}, code="not_found")
    assert "hub_list_apps" in (data.get("hint") or "")
