"""Hostile calls against deliverable 7 of issue 13: nothing is overwritten without a copy.

Every case runs through the real mcp_server and asserts on the emulated hub's File Manager
(``hub.files``): the replaced or deleted bytes are still there, under a new name.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.managers import files as files_mod
from custom_components.hubitat_dev_tools.managers import item_backups as item_backups_mod
from custom_components.hubitat_dev_tools.managers.item_backups import (
    MAX_PER_ITEM,
    parse_backup_name,
)
from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.seed import DASH_MAIN, RULE_LEAK, RULE_MOTION

from ..mcp_client import Mcp

FROZEN = datetime(2026, 12, 1, 9, 30, 0, 123_000, tzinfo=UTC)


class _FrozenClock(datetime):
    """Every call in the same millisecond: the worst case for backup names."""

    @classmethod
    def now(cls, tz: Any = None) -> _FrozenClock:
        return cls.fromtimestamp(FROZEN.timestamp(), tz=tz or UTC)


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files_mod, "datetime", _FrozenClock)
    monkeypatch.setattr(item_backups_mod, "datetime", _FrozenClock)


async def tiered(mcp: Mcp, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Call a tool with confirm=true when its tier asks for one (tiers may change)."""
    tool = next(cls for cls in TOOL_CLASSES if cls.name == name)()
    takes_confirm = any(str(key) == "confirm" for key in tool.parameters.schema)
    return await mcp.ok(name, {**args, **({"confirm": True} if takes_confirm else {})})


def copies(hub: HubEmulator, stem: str) -> list[str]:
    return [n for n in hub.files.names() if n.startswith(f"{stem}_backup_")]


def item_backups(hub: HubEmulator, kind: str, item_id: str) -> list[str]:
    return [n for n in hub.files.names() if n.startswith(f"hdt-backup_{kind}-{item_id}_")]


@pytest.mark.usefixtures("frozen_clock")
async def test_two_writes_in_one_millisecond_keep_both_originals(
    entry: MockConfigEntry, hub: HubEmulator, mcp: Mcp
) -> None:
    hub.mark_backup_now()
    original = hub.files.read("notes.txt")
    first = await tiered(mcp, "hub_write_file", {"file_name": "notes.txt", "content": "v1"})
    second = await tiered(mcp, "hub_write_file", {"file_name": "notes.txt", "content": "v2"})
    assert first["backup_file"] != second["backup_file"]
    assert first["backup_file"] == "notes_backup_20261201-093000-123-01.txt"
    assert second["backup_file"] == "notes_backup_20261201-093000-123-02.txt"
    assert hub.files.read(first["backup_file"]) == original
    assert hub.files.read(second["backup_file"]) == b"v1"
    assert hub.files.read("notes.txt") == b"v2"
    # the names sort in the order they were made
    assert copies(hub, "notes") == [first["backup_file"], second["backup_file"]]


async def test_overwriting_or_deleting_a_backup_named_file_keeps_a_copy(
    entry: MockConfigEntry, hub: HubEmulator, mcp: Mcp
) -> None:
    hub.mark_backup_now()
    hub.files.write("settings_backup_mine.json", b'{"keep": "me"}')
    wrote = await tiered(
        mcp, "hub_write_file", {"file_name": "settings_backup_mine.json", "content": "{}"}
    )
    assert hub.files.read(wrote["backup_file"]) == b'{"keep": "me"}'
    assert hub.files.read("settings_backup_mine.json") == b"{}"
    # deleting one of our own copies keeps a copy of the copy
    deleted = await tiered(mcp, "hub_delete_file", {"file_name": wrote["backup_file"]})
    assert hub.files.read(wrote["backup_file"]) is None
    assert hub.files.read(deleted["backup_file"]) == b'{"keep": "me"}'
    listed = await mcp.ok("hub_list_files", {"filter": "settings_backup_mine"})
    assert deleted["backup_file"] in {f["name"] for f in listed["files"]}


async def test_export_app_save_as_keeps_the_replaced_file(
    entry: MockConfigEntry, hub: HubEmulator, mcp: Mcp
) -> None:
    old = hub.files.read("notes.txt")
    assert old is not None
    data = await tiered(mcp, "hub_export_app", {"app_id": str(RULE_LEAK), "save_as": "notes.txt"})
    backup = data["replaced_file_backup"]
    assert backup.startswith("notes_backup_") and hub.files.read(backup) == old
    assert str(RULE_LEAK) in json.loads(hub.files.read("notes.txt") or b"{}")["appReplacements"]
    # a name that looks like one of our copies is no exception
    hub.files.write("leak_backup_v1.json", b'{"mine": true}')
    again = await tiered(
        mcp, "hub_export_app", {"app_id": str(RULE_LEAK), "save_as": "leak_backup_v1.json"}
    )
    assert hub.files.read(again["replaced_file_backup"]) == b'{"mine": true}'


async def test_export_bundle_overwrite_keeps_the_replaced_file(
    entry: MockConfigEntry, hub: HubEmulator, mcp: Mcp
) -> None:
    hub.files.write("mine.zip", b"PK my own archive")
    is_error, data = await mcp.call("hub_export_bundle", {"bundle_id": "1", "file_name": "mine"})
    assert is_error and data["error"] == "invalid_request"
    assert hub.files.read("mine.zip") == b"PK my own archive"
    data = await tiered(
        mcp, "hub_export_bundle", {"bundle_id": "1", "file_name": "mine.zip", "overwrite": True}
    )
    backup = data["replaced_file_backup"]
    assert backup.startswith("mine_backup_") and backup.endswith(".zip")
    assert hub.files.read(backup) == b"PK my own archive"
    stored = hub.files.read("mine.zip")
    assert stored is not None and stored.startswith(b"PK") and len(stored) == data["size"]
    assert stored != b"PK my own archive"


async def test_alternating_restores_never_prune_the_oldest_copy(
    entry: MockConfigEntry, hub: HubEmulator, mcp: Mcp
) -> None:
    hub.mark_backup_now()
    item = hub.state.dev.code[("driver", 1)]
    original = item.source
    edited = original + "\n// edited\n"
    first = await tiered(mcp, "hub_update_code", {"type": "driver", "id": "1", "source": edited})
    oldest = first["item_backup"]["backup"]
    # restore the original, undo that restore, restore the original again, ...: every
    # restore backs up the current state first, so the count stays at the bound by pruning
    undo = oldest
    for i in range(2 * MAX_PER_ITEM + 1):
        done = await tiered(mcp, "hub_restore_item_backup", {"backup": undo if i % 2 else oldest})
        undo = done["item_backup"]["backup"]
        names = item_backups(hub, "driver", "1")
        assert oldest in names, f"restore {i} pruned the pre-edit original"
        assert len(names) <= MAX_PER_ITEM
    assert len(item_backups(hub, "driver", "1")) == MAX_PER_ITEM
    assert item.source == original
    stored = json.loads(hub.files.read(oldest) or b"{}")
    assert stored["source"] == original
    listed = await mcp.ok("hub_list_item_backups", {"type": "driver"})
    assert listed["backups"][-1]["backup"] == oldest  # still the oldest, listed last


async def test_a_manual_edit_between_two_tool_edits_is_backed_up(
    entry: MockConfigEntry, hub: HubEmulator, mcp: Mcp
) -> None:
    item = hub.state.dev.code[("driver", 1)]
    original = item.source
    v1 = original + "\n// v1\n"
    first = await tiered(mcp, "hub_update_code", {"type": "driver", "id": "1", "source": v1})
    series = first["item_backup"]["backup"]
    # someone edits the driver in the hub's own editor (the version moves on)
    manual = v1 + "\n// typed by hand in the hub UI\n"
    item.source, item.version = manual, item.version + 1
    v2 = manual + "\n// v2\n"
    second = await tiered(mcp, "hub_update_code", {"type": "driver", "id": "1", "source": v2})
    saved = second["item_backup"]
    assert saved["reused"] is False and saved["backup"] != series
    assert "changed since the last edit" in saved["note"]
    assert json.loads(hub.files.read(saved["backup"]) or b"{}")["source"] == manual
    assert json.loads(hub.files.read(series) or b"{}")["source"] == original
    # with no edit in between, the series goes on from the new backup
    third = await tiered(
        mcp, "hub_update_code", {"type": "driver", "id": "1", "source": v2 + "// v3\n"}
    )
    assert third["item_backup"] == {**third["item_backup"], "backup": saved["backup"]}
    assert third["item_backup"]["reused"] is True
    assert len(item_backups(hub, "driver", "1")) == 2


async def test_old_and_new_item_backup_names_parse_and_sort(
    entry: MockConfigEntry, hub: HubEmulator, mcp: Mcp
) -> None:
    old = parse_backup_name("hdt-backup_driver-1_20260101-120000.json")
    old_counted = parse_backup_name("hdt-backup_driver-1_20260101-120000-2.json")
    new = parse_backup_name("hdt-backup_driver-1_20260101-120000-004-01.json")
    assert old is not None and old_counted is not None and new is not None
    assert old.taken == old_counted.taken < new.taken
    assert old_counted.counter == 2 and new.counter == 1
    for name in (old.file, old_counted.file, new.file):
        hub.files.write(name, b'{"kind": "driver", "id": "1", "source": "x"}')
    listed = await mcp.ok("hub_list_item_backups", {"type": "driver"})
    assert [b["backup"] for b in listed["backups"]] == [new.file, old_counted.file, old.file]


async def test_series_reuse_for_every_series_kind_and_manual_edits_break_it(
    entry: MockConfigEntry, hub: HubEmulator, mcp: Mcp
) -> None:
    """Dashboards (Easy and legacy), Visual Rules and app settings: two tool edits in a row
    share the pre-edit original; an edit by hand in between is backed up."""
    hub.mark_backup_now()
    edits: list[tuple[str, dict[str, Any], dict[str, Any], Any]] = [
        (
            "hub_update_dashboard",
            {"dashboard_id": "400", "name": "Easy 1"},
            {"dashboard_id": "400", "name": "Easy 2"},
            lambda: hub.state.dev.easy_dashboards[400].update(name="by hand"),
        ),
        (
            "hub_update_dashboard",
            {"dashboard_id": str(DASH_MAIN), "update_tiles": [{"id": 1, "col": 4}]},
            {"dashboard_id": str(DASH_MAIN), "update_tiles": [{"id": 1, "col": 2}]},
            lambda: hub.state.dev.layouts[DASH_MAIN].update(cols=99),
        ),
        (
            "hub_update_visual_rule",
            {"app_id": str(VRB_PORCH), "name": "Porch 1"},
            {"app_id": str(VRB_PORCH), "name": "Porch 2"},
            lambda: hub.state.dev.vrb[VRB_PORCH].update(name="by hand"),
        ),
        (
            "hub_update_app_settings",
            {"app_id": str(RULE_MOTION), "settings": {"origLabel": "Motion 1"}},
            {"app_id": str(RULE_MOTION), "settings": {"origLabel": "Motion 2"}},
            lambda: next(
                i for i in hub.state.dev.internals[RULE_MOTION].inputs if i["name"] == "origLabel"
            ).update(value="by hand"),
        ),
    ]
    for tool, first_args, second_args, by_hand in edits:
        first = await tiered(mcp, tool, first_args)
        second = await tiered(mcp, tool, second_args)
        assert second["item_backup"]["reused"] is True, (tool, second["item_backup"])
        assert second["item_backup"]["backup"] == first["item_backup"]["backup"]
        by_hand()
        third = await tiered(mcp, tool, first_args)
        assert third["item_backup"]["reused"] is False, (tool, third["item_backup"])
        assert hub.files.read(third["item_backup"]["backup"]) is not None
