"""hub_create_dashboard kind=legacy: a Hubitat® Dashboard child, read back from the list."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import APP_DASHBOARD

from .conftest import ToolCaller


async def test_create_legacy_dashboard(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    ids = [str(d) for d in sorted(hub.state.devices)[:2]]
    result = await call_tool(
        "hub_create_dashboard", {"name": " Hall tablet ", "device_ids": ids, "kind": "legacy"}
    )
    assert not result.error, result.data
    new_id = result.data["dashboard_id"]
    assert result.data["type"] == "legacy" and result.data["name"] == "Hall tablet"
    assert sorted(result.data["device_ids"]) == sorted(ids)
    app = hub.state.apps[int(new_id)]
    assert app.parent_id == APP_DASHBOARD and app.label == "Hall tablet"
    listed = await call_tool("hub_list_dashboards")
    mine = [d for d in listed.data["dashboards"] if d["dashboard_id"] == new_id]
    assert mine and mine[0]["type"] == "legacy" and mine[0]["name"] == "Hall tablet"
    got = await call_tool("hub_get_dashboard", {"dashboard_id": new_id})
    assert not got.error, got.data
    assert got.data["layout"]["tiles"] == [] and sorted(got.data["device_ids"]) == sorted(ids)
    # tiles then go through hub_update_dashboard
    tiles = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": new_id, "add_tiles": [{"template": "clock", "col": 1, "row": 1}]},
    )
    assert not tiles.error, tiles.data


async def test_legacy_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    opts = await call_tool(
        "hub_create_dashboard", {"name": "X", "kind": "legacy", "options": {"showClockTile": True}}
    )
    assert opts.error and "layout" in opts.data["message"]
    bad = await call_tool("hub_create_dashboard", {"name": "X", "kind": "classic"})
    assert bad.error and bad.data["error"] == "invalid_arguments"
    # no legacy parent: said clearly, nothing created
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
