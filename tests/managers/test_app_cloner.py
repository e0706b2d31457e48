"""The App Cloner manager (``managers/apps/cloner.py``) on its own, no hass: an app's export
read through the hub's own App Cloner (the over-escaped values repaired, large exports and
save_as written to the File Manager, an existing file kept as a copy), the apps it refuses
before anything is sent, a clone staged disabled (child apps too, the pause state copied, a
lost first click pressed again and a slow hub pressed once), concurrent clones, an error
after the press, an import from an export object, its text, a file or an item backup (the
seed app, missing devices, devices outside the allowlist), and the temporary App Cloner app
removed on every path, over the emulated hub.

Moved from tests/tools/test_app_cloner.py (the cloner logic is the manager's; the tools'
write master, their argument refusals (a file name, exactly one export source), the
confirmation of an enabled import, the hints naming sibling tools, the summaries and Hub
Security stay there)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.managers.apps.cloner import AppCloner
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, VRB_PORCH, AppInternals
from hubitat_emulator.model import App
from hubitat_emulator.seed import (
    APP_RULE_MACHINE,
    RULE_GOODNIGHT,
    RULE_LEAK,
    RULE_MOTION,
)

from ..helpers.app_cloner import cloner_requests, cloners, new_apps


async def clone(
    cloner: AppCloner, app_id: int, new_name: str | None = None, *, enable: bool = False
) -> dict[str, Any]:
    """The manager's clone as the tool calls it."""
    return await cloner.clone_app(str(app_id), new_name, enable)


async def import_app(
    cloner: AppCloner,
    *,
    export: Any = None,
    from_file: str | None = None,
    from_backup: str | None = None,
    seed_app_id: str | None = None,
    new_name: str | None = None,
    enable: bool = False,
    allow_missing_devices: bool = False,
) -> dict[str, Any]:
    """The manager's import as the tool calls it, with no device allowlist and no check."""
    return await cloner.import_app(
        export=export,
        from_file=from_file,
        from_backup=from_backup,
        seed_app_id=seed_app_id,
        new_name=new_name,
        enable=enable,
        allow_missing_devices=allow_missing_devices,
    )


async def exported(cloner: AppCloner, app_id: int) -> dict[str, Any]:
    """An app's export document, as hub_export_app returns it."""
    doc: dict[str, Any] = (await cloner.export_app(str(app_id), None))["export"]
    return doc


async def test_export_returns_the_canonical_document(emu: HubEmulator, manager_hub: Hub) -> None:
    before = set(emu.state.apps)
    data = await manager_hub.cloner.export_app(str(RULE_MOTION), None)
    doc = data["export"]
    assert list(doc["appReplacements"]) == [str(RULE_MOTION)]
    assert doc["appReplacements"][str(RULE_MOTION)]["appTypeName"] == "Rule-5.1"
    # the hub over-escapes multi-select values; the document returned is canonical JSON
    assert data["repaired_escaping"] is True
    settings = doc["appData"][str(RULE_MOTION)]["settings"]
    modes = next(s for s in settings if s["name"] == "modesRestrict")
    assert json.loads(modes["value"]) == ["Day", "Evening"]
    used = {str(d.id) for d in emu.state.devices.values() if RULE_MOTION in d.apps_using}
    assert {d["device_id"] for d in data["devices"]} == used
    assert data["chars"] == len(json.dumps(doc, ensure_ascii=False))
    assert "saved_as" not in data
    # the temporary cloner was removed and nothing else changed
    assert set(emu.state.apps) == before
    paths = [p for _m, p in emu.requests]
    assert any(p.startswith("/installedapp/forcedelete/") for p in paths)


async def test_export_save_as_and_large_exports_go_to_a_file(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    cloner = manager_hub.cloner
    saved = await cloner.export_app(str(RULE_LEAK), "leak.json")
    assert saved["saved_as"] == "leak.json" and "export" not in saved
    stored = json.loads(emu.files.read("leak.json") or b"{}")
    assert str(RULE_LEAK) in stored["appReplacements"]
    # a very large app is saved, never cut
    emu.state.dev.internals[RULE_GOODNIGHT].paragraphs += [
        f"Action line {i} " * 20 for i in range(300)
    ]
    big = await cloner.export_app(str(RULE_GOODNIGHT), None)
    name = big["saved_as"]
    assert name.startswith(f"hdt-export_app-{RULE_GOODNIGHT}_") and "export" not in big
    assert big["chars"] > 60_000
    text = (emu.files.read(name) or b"").decode()
    assert len(text) == big["chars"] and json.loads(text)["appData"]


async def test_export_save_as_over_an_existing_file_keeps_a_copy(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.files.write("rule.json", b"my notes")
    result = await manager_hub.cloner.export_app(str(RULE_MOTION), "rule.json")
    copy = result["replaced_file_backup"]
    assert emu.files.read(copy) == b"my notes"
    assert str(RULE_MOTION) in json.loads(emu.files.read("rule.json") or b"{}")["appReplacements"]


@pytest.mark.parametrize(
    ("app_id", "save_as", "code", "subject"),
    [
        (VRB_PORCH, None, "invalid_request", "visual_rule_not_cloneable"),
        (APP_RULE_MACHINE, None, "invalid_request", "top_level_app"),
        (9999, None, "not_found", "app"),
        (RULE_MOTION, "../x", "invalid_request", None),
    ],
)
async def test_export_refusals_send_nothing(
    emu: HubEmulator,
    manager_hub: Hub,
    app_id: int,
    save_as: str | None,
    code: str,
    subject: str | None,
) -> None:
    start = len(emu.requests)
    with pytest.raises((ToolError, HubError)) as err:
        await manager_hub.cloner.export_app(str(app_id), save_as)
    refusal = err.value
    assert isinstance(refusal, ToolError | HubError)
    assert refusal.code == code and refusal.subject == subject
    assert "Nothing was sent" in str(refusal) or code == "not_found"
    assert cloner_requests(emu, start) == []
    assert not any(m == "POST" for m, _p in emu.requests[start:])


async def test_export_of_rule_with_required_expression_is_a_clear_error(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.state.dev.internals[RULE_GOODNIGHT].paragraphs.insert(
        0, "<b>Required Expression</b>: Mode is Night"
    )
    with pytest.raises(HubError) as err:
        await manager_hub.cloner.export_app(str(RULE_GOODNIGHT), None)
    assert err.value.code == "hub_bad_response"
    assert "Required Expression" in (err.value.hint or "")
    assert cloners(emu) == []  # the cloner is removed on the failure path too


async def test_clone_is_staged_disabled(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.state.dev.internals[RULE_MOTION].state["paused"] = True
    before = set(emu.state.apps)
    data = await clone(manager_hub.cloner, RULE_MOTION)
    (copy,) = new_apps(emu, before)
    assert data["new_app_id"] == str(copy.id) and data["source_app_id"] == str(RULE_MOTION)
    assert copy.label == "Motion Lights - Kitchen (copy)" == data["name"]
    assert copy.parent_id == APP_RULE_MACHINE and copy.type == "Rule-5.1"
    assert copy.disabled is True and data["enabled"] is False
    assert data["disabled_app_ids"] == [str(copy.id)]
    internals = emu.state.dev.internals[copy.id]
    assert internals.state["paused"] is True  # the pause state is copied
    source = emu.state.dev.internals[RULE_MOTION]
    assert internals.paragraphs == source.paragraphs
    assert cloners(emu) == []
    # the hub lost the first Clone and Import clicks; exactly one copy was still made
    assert len(emu.cloner.sessions) == 1
    (session,) = emu.cloner.sessions.values()
    assert session.clicks == {"cloneRuleButton": 2, "importNow": 2}


async def test_clone_enabled_with_a_name_and_deep_children(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.cloner.knobs.swallow_first_click = False
    for kid_id, label in ((900, "Announce kitchen"), (901, "Announce hall")):
        emu.state.apps[kid_id] = App(
            kid_id, "Announcer Child", label, "Announcer Child", parent_id=APP_ANNOUNCER
        )
        emu.state.dev.internals[kid_id] = AppInternals(page_title=label)
    before = set(emu.state.apps)
    data = await clone(manager_hub.cloner, APP_ANNOUNCER, "Second announcer", enable=True)
    created = new_apps(emu, before)
    root = next(a for a in created if a.label == "Second announcer")
    assert root.parent_id is None and not root.disabled
    kids = sorted(a.label or "" for a in created if a.parent_id == root.id)
    assert kids == ["Announce hall", "Announce kitchen"]
    assert len(created) == 3 and data["enabled"] is True
    assert sorted(data["child_app_ids"]) == sorted(str(a.id) for a in created if a.id != root.id)
    # exactly one click each when the hub does not lose any
    (session,) = emu.cloner.sessions.values()
    assert session.clicks == {"cloneRuleButton": 1, "importNow": 1}


async def test_clone_disables_the_children_too_after_a_legacy_redirect(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.cloner.knobs.legacy_redirect = True
    emu.state.apps[902] = App(
        902, "Announcer Child", "Kid", "Announcer Child", parent_id=APP_ANNOUNCER
    )
    before = set(emu.state.apps)
    data = await clone(manager_hub.cloner, APP_ANNOUNCER)
    created = new_apps(emu, before)
    assert len(created) == 2 and all(a.disabled for a in created)
    assert sorted(data["disabled_app_ids"]) == sorted(str(a.id) for a in created)
    assert any(p.startswith("/installedapp/configure/") for _m, p in emu.requests)


async def test_concurrent_clones_each_find_their_own_copy(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = set(emu.state.apps)
    # same source, same default name: only one cloner at a time tells the copies apart
    results = await asyncio.gather(
        clone(manager_hub.cloner, RULE_MOTION), clone(manager_hub.cloner, RULE_MOTION)
    )
    made = new_apps(emu, before)
    assert len(made) == 2
    assert {r["new_app_id"] for r in results} == {str(a.id) for a in made}


async def test_slow_hub_gets_one_press_and_one_copy(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.cloner.knobs.swallow_first_click = False
    emu.cloner.knobs.slow_create = 0.3  # the app appears a while after the press
    before = set(emu.state.apps)
    data = await clone(manager_hub.cloner, RULE_MOTION)
    await asyncio.sleep(0.5)
    (copy,) = new_apps(emu, before)
    assert data["new_app_id"] == str(copy.id)
    (session,) = emu.cloner.sessions.values()
    assert session.clicks["importNow"] == 1


async def test_error_after_the_press_still_finds_and_stops_the_copy(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.cloner.knobs.error_after_create = True
    before = set(emu.state.apps)
    data = await clone(manager_hub.cloner, RULE_MOTION)
    (copy,) = new_apps(emu, before)
    assert copy.disabled and data["new_app_id"] == str(copy.id)
    assert "error after creating" in data["warning"]
    assert cloners(emu) == []


async def test_clone_hub_error_leaves_no_cloner(emu: HubEmulator, manager_hub: Hub) -> None:
    before = set(emu.state.apps)
    emu.faults.fail_paths = {"/installedapp/update/json": 500}
    with pytest.raises(HubError) as err:
        await clone(manager_hub.cloner, RULE_MOTION)
    assert err.value.code == "hub_bad_response"
    assert set(emu.state.apps) == before  # nothing made, the cloner removed
    assert any(p.startswith("/installedapp/forcedelete/") for _m, p in emu.requests)


async def test_import_from_an_export_object_its_text_and_a_file(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    cloner = manager_hub.cloner
    doc = await exported(cloner, RULE_GOODNIGHT)
    before = set(emu.state.apps)
    result = await import_app(cloner, export=doc)
    (made,) = new_apps(emu, before)
    assert made.label == "Goodnight" and made.parent_id == APP_RULE_MACHINE and made.disabled
    assert result["new_app_id"] == str(made.id) and result["enabled"] is False
    assert result["source"] == "argument"
    assert result["original_app_id"] == str(RULE_GOODNIGHT)
    assert result["seed_app_id"] == str(RULE_MOTION)  # first rule of the same type
    # the hub's own over-escaped text is repaired before it is uploaded
    hub_text = json.dumps(doc).replace('\\"', '\\\\"')
    with_text = await import_app(cloner, export=hub_text, new_name="From text")
    assert with_text["repaired_escaping"] is True
    emu.files.write("goodnight.json", json.dumps(doc).encode())
    from_file = await import_app(
        cloner, from_file="goodnight.json", new_name="From file", seed_app_id=str(RULE_LEAK)
    )
    assert from_file["source"] == "file goodnight.json"
    assert from_file["seed_app_id"] == str(RULE_LEAK)
    labels = sorted(a.label or "" for a in new_apps(emu, before))
    assert labels == ["From file", "From text", "Goodnight"]
    assert cloners(emu) == []


async def test_import_refusals_create_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    cloner = manager_hub.cloner
    doc = await exported(cloner, RULE_MOTION)
    before = set(emu.state.apps)
    start = len(emu.requests)
    with pytest.raises(ToolError) as junk:
        await import_app(cloner, export="{not json")
    assert junk.value.code == "invalid_request" and junk.value.subject == "export_json"
    with pytest.raises(ToolError) as foreign:
        await import_app(cloner, export={"rules": []})
    assert "appReplacements" in str(foreign.value)
    odd_devices = {**doc, "deviceReplacements": {"424242": "not a map"}}
    with pytest.raises(ToolError) as gone:
        await import_app(cloner, export=odd_devices)
    assert "424242 (unknown)" in str(gone.value)
    with pytest.raises(ToolError) as no_file:
        await import_app(cloner, from_file="nope.json")
    assert no_file.value.code == "invalid_request" and no_file.value.subject == "file_name"
    odd = dict(doc)
    odd["appReplacements"] = {"1": {"appLabel": "x", "appTypeName": "Nothing Like It"}}
    with pytest.raises(ToolError) as no_seed:
        await import_app(cloner, export=odd)
    assert "seed_app_id" in (no_seed.value.hint or "")
    assert cloner_requests(emu, start) == []
    assert set(emu.state.apps) == before


async def test_import_with_missing_devices(emu: HubEmulator, manager_hub: Hub) -> None:
    cloner = manager_hub.cloner
    doc = await exported(cloner, RULE_MOTION)
    gone = next(iter(doc["deviceReplacements"]))
    emu.state.devices.pop(int(gone))
    before = set(emu.state.apps)
    start = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await import_app(cloner, export=doc)
    assert refused.value.code == "invalid_request"
    assert gone in str(refused.value) and "allow_missing_devices" in (refused.value.hint or "")
    assert cloner_requests(emu, start) == [] and set(emu.state.apps) == before
    allowed = await import_app(cloner, export=doc, allow_missing_devices=True)
    assert allowed["missing_devices"] == [gone]
    (made,) = new_apps(emu, before)
    assert any("**BROKEN**" in p for p in emu.state.dev.internals[made.id].paragraphs)


async def test_import_naming_a_device_outside_the_allowlist_is_refused_first(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    cloner = manager_hub.cloner
    doc = await exported(cloner, RULE_MOTION)
    outside = next(iter(doc["deviceReplacements"]))
    before = set(emu.state.apps)
    start = len(emu.requests)
    seen: list[list[str]] = []

    async def check(parsed: dict[str, Any]) -> None:
        seen.append(parsed["device_ids"])

    with pytest.raises(ToolError) as err:
        await cloner.import_app(
            export=doc,
            from_file=None,
            from_backup=None,
            seed_app_id=None,
            new_name=None,
            enable=False,
            allow_missing_devices=False,
            device_allowed=lambda device_id: device_id != outside,
            check=check,
        )
    assert err.value.code == "device_not_allowed" and outside in str(err.value)
    assert seen == [list(doc["deviceReplacements"])]  # the check saw the parsed export first
    assert cloner_requests(emu, start) == [] and set(emu.state.apps) == before


async def test_deleted_app_comes_back_from_its_backup(emu: HubEmulator, manager_hub: Hub) -> None:
    deleted = await manager_hub.apps.delete(str(RULE_GOODNIGHT), force=True)
    backup = deleted["item_backup"]["backup"]
    snap = json.loads(emu.files.read(backup) or b"{}")
    assert str(RULE_GOODNIGHT) in json.loads(snap["native_export"])["appReplacements"]
    assert RULE_GOODNIGHT not in emu.state.apps
    before = set(emu.state.apps)
    restored = await import_app(manager_hub.cloner, from_backup=backup, enable=True)
    assert restored["source"] == f"backup {backup}" and restored["enabled"] is True
    (made,) = new_apps(emu, before)
    assert made.label == "Goodnight" and not made.disabled
    assert emu.state.dev.internals[made.id].paragraphs[0].endswith("Mode becomes Night")
    # a backup without an export says so
    emu.files.write("hdt-backup_installedapp-5_20260101-000000.json", b'{"kind":"installedapp"}')
    with pytest.raises(ToolError) as empty:
        await import_app(
            manager_hub.cloner, from_backup="hdt-backup_installedapp-5_20260101-000000.json"
        )
    assert "no App Cloner export" in str(empty.value)
    assert empty.value.subject == "backup_without_export"


async def test_hub_errors_on_import_and_export_create_nothing(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    cloner = manager_hub.cloner
    doc = await exported(cloner, RULE_MOTION)
    before = set(emu.state.apps)
    emu.faults.fail_paths = {"/installedapp/btn": 503}
    with pytest.raises(HubError) as failed:
        await import_app(cloner, export=doc)
    assert failed.value.code == "hub_bad_response"
    assert set(emu.state.apps) == before
    assert cloners(emu) == []  # the cloner was made, then removed
    emu.faults.fail_paths = {"/installedapp/sysAppApi/appCloner": 404}
    with pytest.raises(HubError) as missing:
        await cloner.export_app(str(RULE_MOTION), None)
    assert missing.value.code == "not_found"
    assert "App Cloner" in str(missing.value)
    assert set(emu.state.apps) == before
