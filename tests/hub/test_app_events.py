"""The library's reader of one app's event history (``hub/logs.py`` ``fetch_app_events``)
fed the real hub's recorded answer, no hass: the hub UI's app events page, its rows read as
they are.

Moved from tests/tools/test_app_events.py (test_the_fixture_rows_are_read_as_they_are: the
tool's not-found hint stays there; the manager's reading and narrowing are tested in
tests/managers/test_app_events.py)."""

from __future__ import annotations

from typing import cast

from custom_components.hubitat_dev_tools.hub.client import HubClient
from custom_components.hubitat_dev_tools.hub.logs import fetch_app_events

from ..fixture_client import FixtureClient


async def test_the_fixture_rows_are_read_as_they_are() -> None:
    client = FixtureClient("apps/app_events")
    rows = await fetch_app_events(cast(HubClient, client), "140")
    assert client.paths == ["/installedapp/eventsJson/140"]
    assert [r["value"] for r in rows] == ["triggered", "completed"]
