"""Per-app event history through hub_list_events(app_id): the hub UI's app events page. The
tool's part is here (an unknown app refused with a hint naming hub_list_apps); the reading
and narrowing are tested without hass in tests/managers/test_app_events.py, the library's
reading of the hub's recorded answer in tests/hub/test_app_events.py."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, refused


async def test_an_unknown_app_is_not_found(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await refused(call_tool, "hub_list_events", {"app_id": "99999"}, code="not_found")
    assert "hub_list_apps" in (data.get("hint") or "")
