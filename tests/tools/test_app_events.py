"""Per-app event history through hub_list_events(app_id): the hub UI's app events page (the
reading and narrowing themselves: tests/managers/test_app_events.py)."""

from __future__ import annotations

from typing import cast

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.logs import fetch_app_events
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, refused
from ..fixture_client import FixtureClient


async def test_the_fixture_rows_are_read_as_they_are() -> None:
    client = FixtureClient("apps/app_events")
    rows = await fetch_app_events(cast(HubClient, client), "140")
    assert client.paths == ["/installedapp/eventsJson/140"]
    assert [r["value"] for r in rows] == ["triggered", "completed"]


async def test_an_unknown_app_is_not_found(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await refused(call_tool, "hub_list_events", {"app_id": "99999"}, code="not_found")
    assert "hub_list_apps" in (data.get("hint") or "")
