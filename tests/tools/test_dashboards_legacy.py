"""hub_create_dashboard kind=legacy and hub_update_dashboard on a legacy Hubitat® Dashboard
through the tools: the summaries, the refusals the tools make (options on a legacy
dashboard, an unknown kind, Easy-only arguments on a legacy dashboard, tile arguments on an
Easy one, nothing to change, a bad tile refused before the name is sent) and the hint
naming hub_create_app when the parent app is missing. Creating, reading, the layout's
request tokens, renaming (a blank name, a rename the hub drops) and unknown tiles are
tested without hass in tests/managers/test_dashboards_legacy.py."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed import DASH_MAIN
from hubitat_emulator.seed_specs import APP_DASHBOARD

from ..conftest import ToolCaller


def _update_posts(hub: HubEmulator, before: int) -> list[tuple[str, str]]:
    return [(m, p) for m, p in hub.requests[before:] if p.startswith("/installedapp/update")]


async def test_create_legacy_dashboard(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    ids = [str(d) for d in sorted(hub.state.devices)[:2]]
    result = await call_tool(
        "hub_create_dashboard", {"name": " Hall tablet ", "device_ids": ids, "kind": "legacy"}
    )
    assert not result.error, result.data
    new_id = result.data["dashboard_id"]
    assert result.data["summary"] == f"Created legacy dashboard {new_id} (Hall tablet)"
    assert result.data["type"] == "legacy" and result.data["name"] == "Hall tablet"
    assert sorted(result.data["device_ids"]) == sorted(ids)
    assert hub.state.apps[int(new_id)].parent_id == APP_DASHBOARD
    # tiles then go through hub_update_dashboard
    tiles = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": new_id, "add_tiles": [{"template": "clock", "col": 1, "row": 1}]},
    )
    assert not tiles.error, tiles.data
    assert tiles.data["summary"] == f"Updated the layout of legacy dashboard {new_id}"


async def test_legacy_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = set(hub.state.apps)
    opts = await call_tool(
        "hub_create_dashboard", {"name": "X", "kind": "legacy", "options": {"showClockTile": True}}
    )
    assert opts.error and "layout" in opts.data["message"]
    bad = await call_tool("hub_create_dashboard", {"name": "X", "kind": "classic"})
    assert bad.error and bad.data["error"] == "invalid_arguments"
    assert set(hub.state.apps) == before
    # no legacy parent: said clearly with the tool that adds it, nothing created
    for app_id in [a.id for a in hub.state.apps.values() if a.parent_id == APP_DASHBOARD]:
        hub.state.apps.pop(app_id)
    hub.state.apps.pop(APP_DASHBOARD)
    before = set(hub.state.apps)
    none = await call_tool("hub_create_dashboard", {"name": "Y", "kind": "legacy"})
    assert none.error and none.data["error"] == "not_found"
    assert "hub_create_app" in (none.data.get("hint") or "") and set(hub.state.apps) == before
    # the parent can be added back, then a dashboard under it
    parent = await call_tool("hub_create_app", {"app_type": "Hubitat® Dashboard"})
    assert not parent.error and parent.data["created"] is True, parent.data
    made = await call_tool("hub_create_dashboard", {"name": "Y", "kind": "legacy"})
    assert not made.error, made.data
    assert made.data["parent_id"] == parent.data["app_id"] and made.data["device_ids"] == []


async def test_rename_legacy_dashboard(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app = hub.state.apps[DASH_MAIN]
    old = app.label or app.name
    result = await call_tool("hub_update_dashboard", {"dashboard_id": DASH_MAIN, "name": " Den "})
    assert not result.error, result.data
    assert result.data["summary"] == f"Updated the name of legacy dashboard {DASH_MAIN}"
    assert result.data["name"] == "Den" and result.data["previous_name"] == old
    assert app.label == "Den"
    # read back through the tools
    listed = await call_tool("hub_list_dashboards")
    mine = [d for d in listed.data["dashboards"] if d["dashboard_id"] == str(DASH_MAIN)]
    assert mine and mine[0]["name"] == "Den"
    # a rename and a tile edit in one call
    both = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": DASH_MAIN, "name": "Den 2", "update_tiles": [{"id": 1, "col": 4}]},
    )
    assert not both.error, both.data
    assert app.label == "Den 2" and "layout and name" in both.data["summary"]
    assert [t["col"] for t in hub.state.dev.layouts[DASH_MAIN]["tiles"] if t["id"] == 1] == [4]


async def test_rename_legacy_refusals_change_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app = hub.state.apps[DASH_MAIN]
    old = app.label
    start = len(hub.requests)
    for args, word in (
        ({"name": "X", "device_ids": ["1"]}, "device_ids"),
        ({"name": "X", "options": {"showClockTile": True}}, "options"),
        ({"name": "X", "update_tiles": [{"id": 999, "col": 1}]}, "999"),
        ({}, "Nothing to change"),
    ):
        result = await call_tool("hub_update_dashboard", {"dashboard_id": DASH_MAIN, **args})
        assert result.error and word in result.data["message"], result.data
    easy_tiles = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": 400, "add_tiles": [{"template": "clock", "col": 1, "row": 1}]},
    )
    assert easy_tiles.error and "Easy Dashboard" in easy_tiles.data["message"]
    assert _update_posts(hub, start) == [] and app.label == old
