"""Dashboard tools against the emulated hub: the tools' argument checks, the backup gate on
delete, the hub error's answer, the summaries and one call of every dashboard tool.
Listing, reading, creating, updating, cloning and deleting dashboards and editing a legacy
dashboard's tiles are tested without hass in tests/managers/test_dashboards.py."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed import DASH_MAIN

from ..conftest import ToolCaller


async def test_list_and_get(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    result = await call_tool("hub_list_dashboards")
    assert not result.error, result.data
    assert result.data["count"] == len(result.data["dashboards"])
    by_id = {d["dashboard_id"]: d for d in result.data["dashboards"]}
    assert by_id["400"]["type"] == "easy" and by_id[str(DASH_MAIN)]["type"] == "legacy"
    easy = await call_tool("hub_get_dashboard", {"dashboard_id": 400})
    assert easy.data["options"]["theme"] == "dark" and easy.data["device_ids"] == []
    legacy = await call_tool("hub_get_dashboard", {"dashboard_id": DASH_MAIN})
    assert not legacy.error and legacy.data["type"] == "legacy"
    missing = await call_tool("hub_get_dashboard", {"dashboard_id": 9999})
    assert missing.error and missing.data["error"] == "not_found"


async def test_create_update_clone(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    ids = [str(i) for i in sorted(hub.state.devices)[:3]]
    created = await call_tool(
        "hub_create_dashboard",
        {"name": "Kitchen", "device_ids": ids[:2], "options": {"showClockTile": True}},
    )
    assert not created.error, created.data
    new_id = int(created.data["dashboard_id"])
    assert created.data["summary"] == f"Created Easy Dashboard {new_id} (Kitchen)"
    assert new_id in hub.state.dev.easy_dashboards
    updated = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": new_id, "add_device_ids": [ids[2]], "remove_device_ids": [ids[0]]},
    )
    assert not updated.error, updated.data
    assert updated.data["summary"] == f"Updated Easy Dashboard {new_id}"
    assert updated.data["device_ids"] == [ids[1], ids[2]]
    assert updated.data["previous"]["device_ids"] == ids[:2] and updated.data["item_backup"]
    clone = await call_tool("hub_clone_dashboard", {"dashboard_id": new_id})
    assert not clone.error, clone.data
    assert clone.data["cloned_from"] == str(new_id) and clone.data["name"] == "Kitchen (copy)"
    assert int(clone.data["dashboard_id"]) in hub.state.dev.easy_dashboards
    legacy = await call_tool("hub_clone_dashboard", {"dashboard_id": DASH_MAIN})
    assert legacy.error and legacy.data["error"] == "invalid_request"


async def test_validation_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    bad = await call_tool("hub_create_dashboard", {"name": "x", "options": {"bogus": True}})
    assert bad.error and bad.data["error"] == "invalid_arguments"
    bad2 = await call_tool("hub_create_dashboard", {"name": "x", "device_ids": ["abc"]})
    assert bad2.error
    assert len(hub.requests) == before


async def test_delete_gate_and_backup(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    gate = await call_tool("hub_delete_dashboard", {"dashboard_id": 400, "confirm": True})
    assert gate.error and gate.data["error"] == "backup_required"
    assert 400 in hub.state.dev.easy_dashboards
    hub.mark_backup_now()
    ok = await call_tool("hub_delete_dashboard", {"dashboard_id": 400, "confirm": True})
    assert not ok.error, ok.data
    assert ok.data["summary"] == "Deleted dashboard 400"
    assert ok.data["definition"]["name"] == "Living Room" and ok.data["item_backup"]
    assert 400 not in hub.state.dev.easy_dashboards
    legacy = await call_tool("hub_delete_dashboard", {"dashboard_id": DASH_MAIN, "confirm": True})
    assert not legacy.error, legacy.data
    assert DASH_MAIN not in hub.state.apps


async def test_hub_error(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    hub.faults.error_burst = 4
    hub.faults.error_status = 500
    result = await call_tool("hub_list_dashboards")
    assert result.error and result.data["error"] == "hub_bad_response"


async def test_legacy_layout_read_and_tile_ops(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    got = await call_tool("hub_get_dashboard", {"dashboard_id": DASH_MAIN})
    assert not got.error, got.data
    assert [t["id"] for t in got.data["layout"]["tiles"]] == [0, 1]
    assert got.data["device_ids"]
    dev = str(sorted(hub.state.devices)[1])
    result = await call_tool(
        "hub_update_dashboard",
        {
            "dashboard_id": DASH_MAIN,
            "add_tiles": [{"template": "switch", "device": dev, "col": 3, "row": 1}],
            "update_tiles": [{"id": 1, "col": 4}],
            "remove_tile_ids": [0],
        },
    )
    assert not result.error, result.data
    assert result.data["summary"] == f"Updated the layout of legacy dashboard {DASH_MAIN}"
    assert result.data["tiles"] == 2 and result.data["item_backup"]
    assert result.data["previous_layout"]["tiles"][0]["id"] == 0
    before = len(hub.requests)
    bad = await call_tool(
        "hub_update_dashboard", {"dashboard_id": DASH_MAIN, "add_tiles": [{"device": dev}]}
    )
    assert bad.error and bad.data["error"] == "invalid_arguments"
    assert len(hub.requests) == before
    unknown = await call_tool(
        "hub_update_dashboard", {"dashboard_id": DASH_MAIN, "remove_tile_ids": [42]}
    )
    assert unknown.error and unknown.data["error"] == "invalid_request"
    assert not any(m == "POST" and "/layout" in p for m, p in hub.requests[before:])
