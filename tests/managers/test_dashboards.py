"""The dashboards manager (``managers/dashboards.py``) on its own, no hass: Easy Dashboards
and legacy Hubitat Dashboards listed and read (a legacy one with its authorised devices and
tile layout), an Easy Dashboard created, updated by read-merge-write, cloned and deleted
with an item backup, a legacy dashboard's tiles added, changed and removed (the old layout
backed up) and a legacy one deleted as the app it is, over the emulated hub.

Moved from tests/tools/test_dashboards.py (the dashboard logic is the manager's; the
tool's argument checks, the backup gate on delete, the hub error's answer and one call of
every dashboard tool stay there)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubNotFoundError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed import DASH_MAIN


def _layout_posts(emu: HubEmulator, before: int) -> list[tuple[str, str]]:
    return [(m, p) for m, p in emu.requests[before:] if m == "POST" and "/layout" in p]


async def test_list_and_get(emu: HubEmulator, manager_hub: Hub) -> None:
    dashboards = manager_hub.dashboards
    by_id = {d["dashboard_id"]: d for d in await dashboards.list_all()}
    assert by_id["400"]["type"] == "easy"
    assert by_id[str(DASH_MAIN)]["type"] == "legacy"
    easy = await dashboards.get("400")
    assert easy["options"]["theme"] == "dark" and easy["device_ids"] == []
    legacy = await dashboards.get(str(DASH_MAIN))
    assert legacy["dashboard_id"] == str(DASH_MAIN) and legacy["type"] == "legacy"
    with pytest.raises(HubNotFoundError):
        await dashboards.get("9999")


async def test_a_hub_error_is_raised(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.faults.error_burst = 4
    emu.faults.error_status = 500
    with pytest.raises(HubBadResponseError):
        await manager_hub.dashboards.list_all()


async def test_create_update_clone(emu: HubEmulator, manager_hub: Hub) -> None:
    dashboards = manager_hub.dashboards
    ids = [str(i) for i in sorted(emu.state.devices)[:3]]
    created = await dashboards.create("Kitchen", ids[:2], {"showClockTile": True})
    new_id = str(created["dashboard_id"])
    stored = emu.state.dev.easy_dashboards[int(new_id)]
    assert stored["deviceIds"] == f"[{ids[0]},{ids[1]}]" and stored["showClockTile"] is True
    await dashboards.update(
        new_id,
        name=None,
        device_ids=None,
        add_device_ids=[ids[2]],
        remove_device_ids=[ids[0]],
        options={},
    )
    stored = emu.state.dev.easy_dashboards[int(new_id)]
    assert stored["deviceIds"] == f"[{ids[1]},{ids[2]}]"
    assert stored["name"] == "Kitchen" and stored["showClockTile"] is True  # merged, kept
    clone = await dashboards.clone(new_id, None)
    copy = emu.state.dev.easy_dashboards[int(clone["dashboard_id"])]
    assert copy["name"] == "Kitchen (copy)" and copy["deviceIds"] == stored["deviceIds"]
    before = len(emu.state.dev.easy_dashboards)
    with pytest.raises(ToolError) as legacy:
        await dashboards.clone(str(DASH_MAIN), None)
    assert legacy.value.code == "invalid_request" and "legacy" in str(legacy.value)
    assert len(emu.state.dev.easy_dashboards) == before


async def test_delete_backs_up_an_easy_dashboard_and_removes_a_legacy_app(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    dashboards = manager_hub.dashboards
    deleted = await dashboards.delete("400")
    assert 400 not in emu.state.dev.easy_dashboards
    assert deleted["type"] == "easy" and deleted["definition"]["name"] == "Living Room"
    assert emu.files.read(deleted["item_backup"]["backup"]) is not None
    legacy = await dashboards.delete(str(DASH_MAIN))
    assert legacy["dashboard_id"] == str(DASH_MAIN) and legacy["type"] == "legacy"
    assert DASH_MAIN not in emu.state.apps
    with pytest.raises(HubNotFoundError):
        await dashboards.delete("9999")


async def test_legacy_layout_read_and_tile_ops(emu: HubEmulator, manager_hub: Hub) -> None:
    dashboards = manager_hub.dashboards
    got = await dashboards.get(str(DASH_MAIN))
    assert [t["id"] for t in got["layout"]["tiles"]] == [0, 1]
    assert got["device_ids"]
    dev = str(sorted(emu.state.devices)[1])
    result = await dashboards.update_legacy_layout(
        str(DASH_MAIN),
        layout=None,
        add_tiles=[{"template": "switch", "device": dev, "col": 3, "row": 1}],
        update_tiles=[{"id": 1, "col": 4}],
        remove_tile_ids=[0],
    )
    tiles = emu.state.dev.layouts[DASH_MAIN]["tiles"]
    assert [(t["id"], t["col"]) for t in tiles] == [(1, 4), (2, 3)]
    assert result["previous_layout"]["tiles"][0]["id"] == 0
    assert emu.files.read(result["item_backup"]["backup"]) is not None
    before = len(emu.requests)
    with pytest.raises(ToolError) as unknown:
        await dashboards.update_legacy_layout(
            str(DASH_MAIN), layout=None, add_tiles=[], update_tiles=[], remove_tile_ids=[42]
        )
    assert unknown.value.code == "invalid_request" and "42" in str(unknown.value)
    assert _layout_posts(emu, before) == []
    assert [(t["id"], t["col"]) for t in emu.state.dev.layouts[DASH_MAIN]["tiles"]] == [
        (1, 4),
        (2, 3),
    ]
