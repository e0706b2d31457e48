"""Hub configuration snapshots on the emulated hub: the file, the diff, the audit match.

A snapshot is a YAML file under the config dir with a stable order; a change made through
the tools shows up in a diff marked as ours, a change made on the hub itself marked as
not ours, and nothing else shows up; comments survive a rewrite; retention prunes; no
secret reaches a file or a diff; the daily check is set up and cancelled; file I/O is in
the executor. A snapshot carries what an undo to it needs: the device page's switches, the
Mode Manager's triggers, a Rule Machine rule's spec, a dashboard's devices and the File
Manager's files by sha256 (the copies we wrote left out).
"""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed
from ruamel.yaml import YAML

from custom_components.hubitat_dev_tools import snapshots as store_mod
from custom_components.hubitat_dev_tools.const import OPT_SNAPSHOT_DAILY, OPT_SNAPSHOT_RETENTION
from custom_components.hubitat_dev_tools.hub.controllers import FilesController
from custom_components.hubitat_dev_tools.hub.errors import HubNotFoundError
from custom_components.hubitat_dev_tools.managers import snapshots as snapshot_mgr
from custom_components.hubitat_dev_tools.runtime import HubRuntime
from custom_components.hubitat_dev_tools.snapshots import (
    SnapshotStore,
    dump_yaml,
    load_yaml,
    read_yaml,
    store_for,
)
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER

from ..conftest import ToolCaller, add_entry, ok, refused
from ..helpers.hostile import front_door_lock
from ..helpers.rule_authoring import porch_spec
from ..home_util import dev_id
from .hostile_secrets_util import NEW_PIN, NEW_PREF_PASSWORD, leaks, seeded_secrets


def _dir(hass: HomeAssistant, hub: HubEmulator) -> Path:
    # conftest points the folder at the test's tmp_path (an absolute path: config.path keeps it)
    return Path(hass.config.path(store_mod.SNAPSHOT_DIR, hub.hub_uid))


def test_files_go_under_the_config_dir(
    hass: HomeAssistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_mod, "SNAPSHOT_DIR", "hubitat_dev_tools")
    store = SnapshotStore(hass, "abc/../x", 30)
    assert store.directory == Path(hass.config.config_dir, "hubitat_dev_tools", "abc_.._x")


def _text(hass: HomeAssistant, hub: HubEmulator, name: str) -> str:
    return (_dir(hass, hub) / f"{name}.yaml").read_text(encoding="utf-8")


def _body(text: str) -> str:
    """A snapshot file without its header's time."""
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("taken:"))


async def _snap(call_tool: ToolCaller) -> dict[str, Any]:
    return await ok(call_tool, "hub_create_snapshot")


def _flat_ids(diff: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {
        (category, kind, entry["id"])
        for category, kinds in diff["categories"].items()
        for kind, entries in kinds.items()
        for entry in entries
    }


def _entry(diff: dict[str, Any], category: str, kind: str, item_id: str) -> dict[str, Any]:
    entries = diff["categories"][category][kind]
    return next(e for e in entries if e["id"] == item_id)


async def test_snapshot_file_is_stable_yaml(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    first = await _snap(call_tool)
    second = await _snap(call_tool)
    assert first["name"] != second["name"]
    for key in ("devices", "rooms", "modes", "apps", "code", "hub", "files"):
        assert first["counts"][key] > 0, (key, first)
    path = _dir(hass, hub) / f"{first['name']}.yaml"
    assert path.is_file() and first["size_bytes"] == path.stat().st_size
    text_1, text_2 = _text(hass, hub, first["name"]), _text(hass, hub, second["name"])
    assert _body(text_1) == _body(text_2)  # the header time may differ, nothing else
    doc = YAML(typ="safe").load(text_1)
    assert doc["snapshot"]["hub_uid"] == hub.hub_uid
    # stable order: numeric ids ascending, field maps sorted
    ids = list(doc["devices"])
    assert ids == sorted(ids, key=int)
    some = doc["devices"][ids[0]]
    assert list(some) == sorted(some)
    # a Rule Machine rule keeps the rule text its page shows, and its spec
    rm_rules = [r for r in doc["rules"].values() if r["engine"] == "rule_machine"]
    assert rm_rules and all(r.get("rule_text") for r in rm_rules), rm_rules
    assert all(isinstance(r.get("spec"), dict) for r in rm_rules), rm_rules
    assert doc["files"] and list(doc["files"]) == sorted(doc["files"])
    listing = await ok(call_tool, "hub_list_snapshots")
    assert [s["name"] for s in listing["snapshots"]] == [second["name"], first["name"]]
    # an unchanged hub: no change against the live hub
    diff = await ok(call_tool, "hub_diff_snapshots", {"from_snapshot": first["name"]})
    assert diff["changes"] == 0, diff


async def test_diff_marks_our_changes_and_the_hubs(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = await _snap(call_tool)
    light = dev_id(hub, "Kitchen Light")
    lamp = dev_id(hub, "Porch Light")
    await ok(call_tool, "hub_update_device", {"device_id": light, "label": "Kitchen Ceiling"})
    await ok(call_tool, "hub_create_room", {"name": "Sunroom"})
    # a change on the hub itself (its own UI), not through us
    hub.home.device_obj(lamp).label = "Front Porch"
    live = await ok(call_tool, "hub_diff_snapshots", {"from_snapshot": before["name"]})
    after = await _snap(call_tool)
    stored = await ok(
        call_tool,
        "hub_diff_snapshots",
        {"from_snapshot": before["name"], "to_snapshot": after["name"]},
    )
    for diff in (live, stored):
        changed = _entry(diff, "devices", "changed", light)
        assert {"field": "label", "old": "Kitchen Light", "new": "Kitchen Ceiling"} in changed[
            "fields"
        ]
        assert changed["through_integration"] is True
        assert changed["audit_entries"][0]["tool"] == "hub_update_device"
        porch = _entry(diff, "devices", "changed", lamp)
        assert porch["through_integration"] is False
        assert porch["fields"] == [{"field": "label", "old": "Porch Light", "new": "Front Porch"}]
        room = diff["categories"]["rooms"]["added"]
        assert len(room) == 1 and room[0]["item"]["name"] == "Sunroom"
        assert room[0]["through_integration"] is True
        # nothing else changed
        assert _flat_ids(diff) == {
            ("devices", "changed", light),
            ("devices", "changed", lamp),
            ("rooms", "added", room[0]["id"]),
        }, diff


async def test_unknown_snapshot_is_refused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    data = await refused(
        call_tool, "hub_diff_snapshots", {"from_snapshot": "20200101T000000Z"}, "not_found"
    )
    assert "hub_list_snapshots" in data["hint"]
    data = await refused(call_tool, "hub_diff_snapshots", {"from_snapshot": "../etc/passwd"})
    assert "hub_list_snapshots" in data["hint"]
    assert len(hub.requests) == before  # refused before any hub request


async def test_comments_survive_a_rewrite(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    snap = await _snap(call_tool)
    path = _dir(hass, hub) / f"{snap['name']}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Hubitat hub configuration snapshot")
    edited = text.replace("devices:\n", "devices:  # checked by Ann before the move\n", 1)
    path.write_text(edited, encoding="utf-8")
    store = store_for(hass, entry.runtime_data)
    doc = await store.async_read(snap["name"], keep_comments=True)
    await store.async_save(snap["name"], doc)
    again = path.read_text(encoding="utf-8")
    assert "# checked by Ann before the move" in again
    assert again == edited


async def test_retention_deletes_the_oldest(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub, options={OPT_SNAPSHOT_RETENTION: 2})
    names = [(await _snap(call_tool))["name"] for _ in range(3)]
    listing = await ok(call_tool, "hub_list_snapshots")
    assert [s["name"] for s in listing["snapshots"]] == [names[2], names[1]]
    assert not (_dir(hass, hub) / f"{names[0]}.yaml").exists()


async def test_no_secret_in_a_snapshot_or_a_diff(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    secrets = seeded_secrets(hub)
    snap = await _snap(call_tool)
    text = _text(hass, hub, snap["name"])
    assert leaks(text, secrets) == []
    assert "**REDACTED**" in text  # the lock's bridge password, the announcer's login
    # secrets changed through the tools: a lock code, a password preference, an app setting
    lock = str(front_door_lock(hub))
    await ok(
        call_tool,
        "hub_call_device_command",
        {
            "device_id": lock,
            "command": "setCode",
            "arguments": [4, NEW_PIN, "Eve"],
            "confirm": True,
        },
    )
    await ok(
        call_tool,
        "hub_update_device",
        {"device_id": lock, "preferences": {"bridgeLogin": NEW_PREF_PASSWORD}, "confirm": True},
    )
    await ok(
        call_tool,
        "hub_update_app_settings",
        {"app_id": str(APP_ANNOUNCER), "settings": {"volume": 40}},
    )
    after = await _snap(call_tool)
    assert leaks(_text(hass, hub, after["name"]), secrets) == []
    for args in ({"to_snapshot": after["name"]}, {}):
        diff = await ok(call_tool, "hub_diff_snapshots", {"from_snapshot": snap["name"], **args})
        assert leaks(json.dumps(diff), secrets) == []
        # the setting change is there and ours; lock codes are state, not configuration
        volume = _entry(diff, "apps", "changed", str(APP_ANNOUNCER))
        assert volume["fields"] == [{"field": "settings.volume", "old": 60, "new": 40}]
        assert volume["through_integration"] is True


async def test_daily_schedule(hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller) -> None:
    entry = await add_entry(hass, hub, options={OPT_SNAPSHOT_DAILY: True})
    runtime = entry.runtime_data
    assert isinstance(runtime, HubRuntime)
    store = store_for(hass, runtime)
    assert await store.async_list() == []
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(hours=1, seconds=5))
    await hass.async_block_till_done(wait_background_tasks=True)
    files = await store.async_list()
    assert len(files) == 1
    # the next hourly check: the newest is not a day old, nothing new
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(hours=2, seconds=10))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert len(await store.async_list()) == 1
    # unloaded: the check is cancelled
    assert await hass.config_entries.async_unload(entry.entry_id)
    for f in await store.async_list():
        (store.directory / f"{f.name}.yaml").unlink()
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(days=2))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert await store.async_list() == []


async def test_daily_off_by_default(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(hours=1, seconds=5))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert not _dir(hass, hub).exists()


async def test_file_io_runs_in_the_executor(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop_thread = threading.get_ident()
    seen: list[str] = []

    def watch(name: str) -> None:
        original = getattr(SnapshotStore, name)

        def wrapped(self: SnapshotStore, *args: Any) -> Any:
            assert threading.get_ident() != loop_thread, name
            seen.append(name)
            return original(self, *args)

        monkeypatch.setattr(SnapshotStore, name, wrapped)

    for name in ("_files", "_write", "_write_new", "_prune", "_read"):
        watch(name)
    snap = await _snap(call_tool)
    await ok(call_tool, "hub_list_snapshots")
    await ok(call_tool, "hub_diff_snapshots", {"from_snapshot": snap["name"]})
    assert {"_files", "_write_new", "_prune", "_read"} <= set(seen)


async def test_taking_a_snapshot_only_reads_the_hub(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    await _snap(call_tool)
    sent = hub.requests[before:]
    assert sent and all(method == "GET" for method, _path in sent), sent


async def test_categories_are_capped_and_say_so(
    entry: MockConfigEntry, hub: HubEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(snapshot_mgr.MAX_ITEMS, "devices", 3)
    runtime = entry.runtime_data
    assert isinstance(runtime, HubRuntime)
    doc = await runtime.hub.snapshots.collect(hub_uid=hub.hub_uid, hub_name="Home Hub")
    assert len(doc["devices"]) == 3
    assert doc["snapshot"]["truncated"] == {"devices": len(hub.device_ids())}
    # the safety systems' settings are read too (Mode Manager)
    mode_manager = next(a for a in doc["apps"].values() if a["type"] == "Mode Manager")
    assert "settings" in mode_manager


def test_audit_match_needs_an_item_argument() -> None:
    now = dt_util.utcnow()
    records = [
        {  # a level of 6 is not device 6
            "id": "r-1",
            "time": now.isoformat(),
            "tool": "hub_call_device_command",
            "hub": "Home Hub",
            "args": {"device_id": "7", "command": "setLevel", "arguments": [6]},
            "outcome": "ok",
        },
        {  # another hub's change
            "id": "r-2",
            "time": now.isoformat(),
            "tool": "hub_update_device",
            "hub": "Garage Hub",
            "args": {"device_id": "6", "label": "x"},
            "outcome": "ok",
        },
        {  # refused: nothing changed
            "id": "r-3",
            "time": now.isoformat(),
            "tool": "hub_update_device",
            "hub": "Home Hub",
            "args": {"device_id": "6"},
            "outcome": "refused",
        },
        {  # ours, in the window
            "id": "r-4",
            "time": now.isoformat(),
            "tool": "hub_update_device",
            "hub": "Home Hub",
            "args": {"device_id": "6", "label": "New"},
            "outcome": "ok",
        },
    ]
    domains = {"hub_call_device_command": "devices", "hub_update_device": "devices"}
    matcher = snapshot_mgr.AuditMatcher(
        records[:3],
        hub_names={"Home Hub"},
        start=now - timedelta(minutes=1),
        end=now + timedelta(minutes=1),
        tool_domains=domains,
    )
    assert matcher.match("devices", "6", {"label": "Old"}, {"label": "New"}) == []
    matcher = snapshot_mgr.AuditMatcher(
        records,
        hub_names={"Home Hub"},
        start=now + timedelta(minutes=1),  # the window starts after the record
        end=None,
        tool_domains=domains,
    )
    assert matcher.match("devices", "6", {"label": "Old"}, {"label": "New"}) == []
    matcher = snapshot_mgr.AuditMatcher(
        records, hub_names={"Home Hub"}, start=None, end=None, tool_domains=domains
    )
    assert [m["id"] for m in matcher.match("devices", "6", None, {"label": "New"})] == ["r-4"]
    # and not for a category its tool cannot change
    assert matcher.match("variables", "6", None, None) == []


def test_diff_caps_its_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_mgr, "MAX_DIFF_ENTRIES", 2)
    old: dict[str, Any] = {"snapshot": {}, "rooms": {}}
    new: dict[str, Any] = {"snapshot": {}, "rooms": {str(i): {"name": f"R{i}"} for i in range(5)}}
    diff = snapshot_mgr.diff_snapshots(old, new)
    assert diff["changes"] == 5
    rooms = diff["categories"]["rooms"]
    assert [e["id"] for e in rooms["added"]] == ["0", "1"] and rooms["added_not_shown"] == 3


async def test_options_turn_the_daily_snapshot_on(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM and result["data_schema"] is not None
    defaults = {str(k): k.default() for k in result["data_schema"].schema}
    assert defaults[OPT_SNAPSHOT_DAILY] is False and defaults[OPT_SNAPSHOT_RETENTION] == 30
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {OPT_SNAPSHOT_DAILY: True, OPT_SNAPSHOT_RETENTION: "5"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[OPT_SNAPSHOT_DAILY] is True and entry.options[OPT_SNAPSHOT_RETENTION] == 5
    # read at every check: the next hourly check takes the day's snapshot, no reload needed
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(hours=1, seconds=5))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert len(list(_dir(hass, hub).glob("*.yaml"))) == 1


async def test_snapshot_carries_what_an_undo_needs(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    porch, kitchen = dev_id(hub, "Porch Light"), dev_id(hub, "Kitchen Light")
    hub.home.device_obj(porch).show_on_home = False
    hub.home.device_obj(porch).mesh_enabled = True
    rule = await ok(call_tool, "hub_create_rule", {"rule": porch_spec(hub)})
    rule_id = str(rule["app_id"])
    # ids given out of numeric order: the snapshot sorts them by number
    assert int(porch) > int(kitchen) and porch < kitchen  # as text the other way round
    dash = await ok(
        call_tool, "hub_create_dashboard", {"name": "Hall", "device_ids": [porch, kitchen]}
    )
    # the files: a File Manager backup copy (written by hub_write_file), an item backup, a
    # file too large to hash; the seeded folder is no file
    hub.mark_backup_now()
    written = await ok(
        call_tool, "hub_write_file", {"file_name": "notes.txt", "content": "fresh", "confirm": True}
    )
    copy = written["backup_file"]
    item_backup = "hdt-backup_device-6_20260101-000000-000-01.json"
    hub.files.put(item_backup, '{"kind": "device"}')
    big = snapshot_mgr.MAX_FILE_HASH_BYTES + 1
    hub.files.put("big.bin", b"\0" * big)

    snap = await _snap(call_tool)
    text = _text(hass, hub, snap["name"])
    doc = YAML(typ="safe").load(text)

    # devices: the device page's switches
    assert doc["devices"][porch]["show_on_home"] is False
    assert doc["devices"][porch]["hub_mesh"] is True
    assert doc["devices"][porch]["homekit"] is False
    assert doc["devices"][kitchen]["show_on_home"] is True

    # modes: the active mode alone in "current", the Mode Manager as its own pseudo-item
    listed = await ok(call_tool, "hub_list_modes")
    assert doc["modes"]["current"] == {"active_mode": listed["active_mode"]}
    manager = doc["modes"]["mode_manager"]
    assert manager["selected"] == listed["mode_manager"]["selected"] == "builtIn"
    expected = {
        m["mode"]: [{k: v for k, v in t.items() if k != "description"} for t in m["triggers"]]
        for m in listed["mode_manager"]["triggers"]
    }
    assert manager["triggers"] == expected
    assert manager["triggers"]["Night"] == [{"type": "time", "at": "22:30"}]
    assert any(
        "description" in t for m in listed["mode_manager"]["triggers"] for t in m["triggers"]
    )

    # rules: a Rule Machine rule's spec and rule text are what hub_get_rule answers
    got = await ok(call_tool, "hub_get_rule", {"app_id": rule_id})
    entry_rule = doc["rules"][rule_id]
    assert entry_rule["spec"] == got["spec"]
    assert entry_rule["spec"]["triggers"] and entry_rule["spec"]["actions"]
    assert entry_rule["rule_text"] == got["rule_text"]
    assert "undecoded" not in entry_rule and got["undecompiled"] == []

    # dashboards: the devices, sorted by number
    assert doc["dashboards"][str(dash["dashboard_id"])]["device_ids"] == [kitchen, porch]
    legacy = next(d for d in doc["dashboards"].values() if d["type"] == "legacy")
    assert legacy["device_ids"] == sorted(legacy["device_ids"], key=int)

    # files: regular files with their size and the sha256 of their exact bytes
    files = doc["files"]
    for name in ("notes.txt", "logo.png", "deviceProfiles.json"):
        data = hub.files.read(name)
        assert data is not None
        assert files[name] == {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        assert files[name]["sha256"] == snapshot_mgr.file_sha256(data)
    assert files["notes.txt"]["sha256"] == snapshot_mgr.file_sha256("fresh")
    assert files["big.bin"] == {"size": big, "sha256_unavailable": "too_large"}
    assert copy.startswith("notes_backup_") and hub.files.read(copy) is not None
    assert copy not in files and item_backup not in files and "firmware" not in files
    assert set(files) == {n for n in hub.files.names() if n not in (copy, item_backup)}

    # stable: taken again, the same file body; nothing changed against the live hub
    again = await _snap(call_tool)
    assert _body(_text(hass, hub, again["name"])) == _body(text)
    diff = await ok(call_tool, "hub_diff_snapshots", {"from_snapshot": snap["name"]})
    assert diff["changes"] == 0, diff

    # a changed file shows up as a changed sha256 (and size), under the files category
    hub.files.put("energy-2026.csv", "date,kwh\n")
    diff = await ok(call_tool, "hub_diff_snapshots", {"from_snapshot": snap["name"]})
    assert _flat_ids(diff) == {("files", "changed", "energy-2026.csv")}, diff
    fields = {f["field"] for f in _entry(diff, "files", "changed", "energy-2026.csv")["fields"]}
    assert fields == {"sha256", "size"}


async def test_unreadable_parts_are_named(
    entry: MockConfigEntry, hub: HubEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = entry.runtime_data
    assert isinstance(runtime, HubRuntime)
    managers = runtime.hub

    async def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise HubNotFoundError("gone")

    listing = await managers.modes.list_with_manager()

    async def older_modes() -> dict[str, Any]:  # the selection only, as a string
        return {**listing, "mode_manager": "builtIn"}

    monkeypatch.setattr(managers.rule_authoring, "read", refused)
    monkeypatch.setattr(managers.dashboards, "get", refused)
    monkeypatch.setattr(managers.modes, "list_with_manager", older_modes)
    monkeypatch.setattr(FilesController, "read_bytes", refused)
    doc = await managers.snapshots.collect(hub_uid=hub.hub_uid, hub_name="Home Hub")
    assert "unavailable" not in doc["snapshot"]
    rm_rules = [r for r in doc["rules"].values() if r["engine"] == "rule_machine"]
    assert rm_rules and all(r["spec_unavailable"] == "not_found" for r in rm_rules)
    assert all("spec" not in r and "rule_text" not in r for r in rm_rules)
    assert all(d["device_ids_unavailable"] == "not_found" for d in doc["dashboards"].values())
    assert doc["modes"]["mode_manager"] == {"selected": "builtIn"}
    assert doc["files"] and all(
        f == {"size": f["size"], "sha256_unavailable": "not_found"} for f in doc["files"].values()
    )


def test_file_sha256_hashes_text_as_utf8() -> None:
    assert snapshot_mgr.file_sha256("é\n") == hashlib.sha256("é\n".encode()).hexdigest()
    assert snapshot_mgr.file_sha256(b"\x00\xff") == hashlib.sha256(b"\x00\xff").hexdigest()
    assert snapshot_mgr.is_backup_file("notes_backup_20260101-000000-000-01.txt")
    assert snapshot_mgr.is_backup_file("hdt-backup_device-6_20260101-000000-000-01.json")
    assert not snapshot_mgr.is_backup_file("backup-notes.txt")


def test_the_fast_reader_reads_what_ruamel_reads() -> None:
    """Plain reads parse with libyaml under YAML 1.2's core schema: the same data as the
    round-trip reader, for the scalars where YAML 1.1 and 1.2 differ."""
    doc = {
        "strings": ["on", "off", "yes", "no", "y", "012", "0b11", "1_000", "12:30", "=", ""],
        "typed": [True, False, None, 0, -7, 12, 1.5, -0.25, 1e21, "2026-12-03T10:00:00+00:00"],
        "nested": {"a": {"b": [{"c": "on"}]}, "01": "key that looks like a number"},
        5: "an int key",
    }
    text = dump_yaml(doc)
    fast, slow = read_yaml(text), load_yaml(text)
    assert fast == doc and slow == doc
    by_hand = "a: 0o17\nb: 0x1F\nc: 012\nd: ~\ne: .inf\nf: yes\ng: On\n"
    assert read_yaml(by_hand) == load_yaml(by_hand)
