"""Export, import and clone through the hub's App Cloner (hub_export_app, hub_clone_app,
hub_import_app), and the App Cloner export kept by hub_delete_app."""

from __future__ import annotations

import asyncio
import json

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOW_WRITE
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, VRB_PORCH, AppInternals
from hubitat_emulator.model import App
from hubitat_emulator.routes_cloner import CLONER_TYPE
from hubitat_emulator.seed import (
    APP_RULE_MACHINE,
    RULE_GOODNIGHT,
    RULE_LEAK,
    RULE_MOTION,
)

from ..conftest import ToolCaller, add_entry


def cloners(hub: HubEmulator) -> list[int]:
    return [a.id for a in hub.state.apps.values() if a.type == CLONER_TYPE]


def new_apps(hub: HubEmulator, before: set[int]) -> list[App]:
    return [a for a in hub.state.apps.values() if a.id not in before and a.type != CLONER_TYPE]


def cloner_requests(hub: HubEmulator, since: int) -> list[str]:
    return [p for _m, p in hub.requests[since:] if "appCloner" in p]


async def test_export_app_returns_the_document(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = set(hub.state.apps)
    result = await call_tool("hub_export_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    data = result.data
    doc = data["export"]
    assert list(doc["appReplacements"]) == [str(RULE_MOTION)]
    assert doc["appReplacements"][str(RULE_MOTION)]["appTypeName"] == "Rule-5.1"
    # the hub over-escapes multi-select values; the document returned is canonical JSON
    assert data["repaired_escaping"] is True
    settings = doc["appData"][str(RULE_MOTION)]["settings"]
    modes = next(s for s in settings if s["name"] == "modesRestrict")
    assert json.loads(modes["value"]) == ["Day", "Evening"]
    used = {str(d.id) for d in hub.state.devices.values() if RULE_MOTION in d.apps_using}
    assert {d["device_id"] for d in data["devices"]} == used
    assert data["chars"] == len(json.dumps(doc, ensure_ascii=False))
    # the temporary cloner was removed and nothing else changed
    assert set(hub.state.apps) == before
    paths = [p for _m, p in hub.requests]
    assert any(p.startswith("/installedapp/forcedelete/") for p in paths)


async def test_export_app_save_as_and_large_exports_go_to_a_file(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    saved = await call_tool("hub_export_app", {"app_id": RULE_LEAK, "save_as": "leak.json"})
    assert not saved.error, saved.data
    assert saved.data["saved_as"] == "leak.json" and "export" not in saved.data
    stored = json.loads(hub.files.read("leak.json") or b"{}")
    assert str(RULE_LEAK) in stored["appReplacements"]
    # a very large app is saved, never cut
    hub.state.dev.internals[RULE_GOODNIGHT].paragraphs += [
        f"Action line {i} " * 20 for i in range(300)
    ]
    big = await call_tool("hub_export_app", {"app_id": RULE_GOODNIGHT})
    assert not big.error, big.data
    name = big.data["saved_as"]
    assert name.startswith(f"hdt-export_app-{RULE_GOODNIGHT}_") and "export" not in big.data
    assert big.data["chars"] > 60_000
    text = (hub.files.read(name) or b"").decode()
    assert len(text) == big.data["chars"] and json.loads(text)["appData"]


async def test_export_app_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    visual = await call_tool("hub_export_app", {"app_id": VRB_PORCH})
    assert visual.error and visual.data["error"] == "invalid_request"
    assert "hub_get_visual_rule" in visual.data["hint"]
    builtin = await call_tool("hub_export_app", {"app_id": APP_RULE_MACHINE})
    assert builtin.error and builtin.data["error"] == "invalid_request"
    missing = await call_tool("hub_export_app", {"app_id": 9999})
    assert missing.error and missing.data["error"] == "not_found"
    bad_name = await call_tool("hub_export_app", {"app_id": RULE_MOTION, "save_as": "../x"})
    assert bad_name.error and bad_name.data["error"] == "invalid_arguments"
    assert cloner_requests(hub, start) == []
    assert not any(m == "POST" for m, _p in hub.requests[start:])


async def test_export_of_rule_with_required_expression_is_a_clear_error(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.dev.internals[RULE_GOODNIGHT].paragraphs.insert(
        0, "<b>Required Expression</b>: Mode is Night"
    )
    result = await call_tool("hub_export_app", {"app_id": RULE_GOODNIGHT})
    assert result.error and result.data["error"] == "hub_bad_response"
    assert "Required Expression" in result.data["hint"]
    assert cloners(hub) == []  # the cloner is removed on the failure path too


async def test_clone_app_is_staged_disabled(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.dev.internals[RULE_MOTION].state["paused"] = True
    before = set(hub.state.apps)
    result = await call_tool("hub_clone_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    data = result.data
    (copy,) = new_apps(hub, before)
    assert data["new_app_id"] == str(copy.id)
    assert copy.label == "Motion Lights - Kitchen (copy)" == data["name"]
    assert copy.parent_id == APP_RULE_MACHINE and copy.type == "Rule-5.1"
    assert copy.disabled is True and data["enabled"] is False
    assert data["disabled_app_ids"] == [str(copy.id)]
    internals = hub.state.dev.internals[copy.id]
    assert internals.state["paused"] is True  # the pause state is copied
    source = hub.state.dev.internals[RULE_MOTION]
    assert internals.paragraphs == source.paragraphs
    assert cloners(hub) == []
    # the hub lost the first Clone and Import clicks; exactly one copy was still made
    assert len(hub.cloner.sessions) == 1
    (session,) = hub.cloner.sessions.values()
    assert session.clicks == {"cloneRuleButton": 2, "importNow": 2}


async def test_clone_app_enabled_with_a_name_and_deep_children(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.cloner.knobs.swallow_first_click = False
    for kid_id, label in ((900, "Announce kitchen"), (901, "Announce hall")):
        hub.state.apps[kid_id] = App(
            kid_id, "Announcer Child", label, "Announcer Child", parent_id=APP_ANNOUNCER
        )
        hub.state.dev.internals[kid_id] = AppInternals(page_title=label)
    before = set(hub.state.apps)
    result = await call_tool(
        "hub_clone_app", {"app_id": APP_ANNOUNCER, "new_name": "Second announcer", "enable": True}
    )
    assert not result.error, result.data
    created = new_apps(hub, before)
    root = next(a for a in created if a.label == "Second announcer")
    assert root.parent_id is None and not root.disabled
    kids = sorted(a.label or "" for a in created if a.parent_id == root.id)
    assert kids == ["Announce hall", "Announce kitchen"]
    assert len(created) == 3 and result.data["enabled"] is True
    assert sorted(result.data["child_app_ids"]) == sorted(
        str(a.id) for a in created if a.id != root.id
    )
    # exactly one click each when the hub does not lose any
    (session,) = hub.cloner.sessions.values()
    assert session.clicks == {"cloneRuleButton": 1, "importNow": 1}


async def test_clone_app_disabled_children_too_and_legacy_redirect(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.cloner.knobs.legacy_redirect = True
    hub.state.apps[902] = App(
        902, "Announcer Child", "Kid", "Announcer Child", parent_id=APP_ANNOUNCER
    )
    before = set(hub.state.apps)
    result = await call_tool("hub_clone_app", {"app_id": APP_ANNOUNCER})
    assert not result.error, result.data
    created = new_apps(hub, before)
    assert len(created) == 2 and all(a.disabled for a in created)
    assert sorted(result.data["disabled_app_ids"]) == sorted(str(a.id) for a in created)
    assert any(p.startswith("/installedapp/configure/") for _m, p in hub.requests)


async def test_concurrent_clones_each_find_their_own_copy(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = set(hub.state.apps)
    # same source, same default name: only one cloner at a time tells the copies apart
    results = await asyncio.gather(
        call_tool("hub_clone_app", {"app_id": RULE_MOTION}),
        call_tool("hub_clone_app", {"app_id": RULE_MOTION}),
    )
    assert all(not r.error for r in results), [r.data for r in results]
    made = new_apps(hub, before)
    assert len(made) == 2
    assert {r.data["new_app_id"] for r in results} == {str(a.id) for a in made}


async def test_slow_hub_gets_one_press_and_one_copy(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.cloner.knobs.swallow_first_click = False
    hub.cloner.knobs.slow_create = 0.3  # the app appears a while after the press
    before = set(hub.state.apps)
    result = await call_tool("hub_clone_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    await asyncio.sleep(0.5)
    assert len(new_apps(hub, before)) == 1
    (session,) = hub.cloner.sessions.values()
    assert session.clicks["importNow"] == 1


async def test_error_after_the_press_still_finds_and_stops_the_copy(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.cloner.knobs.error_after_create = True
    before = set(hub.state.apps)
    result = await call_tool("hub_clone_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    (copy,) = new_apps(hub, before)
    assert copy.disabled and result.data["new_app_id"] == str(copy.id)
    assert "error after creating" in result.data["warning"]
    assert cloners(hub) == []


async def test_clone_app_under_hub_security(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, secure_hub)
    before = set(secure_hub.state.apps)
    result = await call_tool("hub_clone_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    assert len(new_apps(secure_hub, before)) == 1


async def test_import_app_from_export_object_text_and_file(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    doc = (await call_tool("hub_export_app", {"app_id": RULE_GOODNIGHT})).data["export"]
    before = set(hub.state.apps)
    result = await call_tool("hub_import_app", {"export": doc})
    assert not result.error, result.data
    (made,) = new_apps(hub, before)
    assert made.label == "Goodnight" and made.parent_id == APP_RULE_MACHINE and made.disabled
    assert result.data["original_app_id"] == str(RULE_GOODNIGHT)
    assert result.data["seed_app_id"] == str(RULE_MOTION)  # first rule of the same type
    # the hub's own over-escaped text is repaired before it is uploaded
    hub_text = json.dumps(doc).replace('\\"', '\\\\"')
    with_text = await call_tool("hub_import_app", {"export": hub_text, "new_name": "From text"})
    assert not with_text.error, with_text.data
    assert with_text.data["repaired_escaping"] is True
    hub.files.write("goodnight.json", json.dumps(doc).encode())
    from_file = await call_tool(
        "hub_import_app",
        {"from_file": "goodnight.json", "new_name": "From file", "seed_app_id": RULE_LEAK},
    )
    assert not from_file.error, from_file.data
    assert from_file.data["source"] == "file goodnight.json"
    labels = sorted(a.label or "" for a in new_apps(hub, before))
    assert labels == ["From file", "From text", "Goodnight"]
    assert cloners(hub) == []


async def test_import_app_refusals_create_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    doc = (await call_tool("hub_export_app", {"app_id": RULE_MOTION})).data["export"]
    before = set(hub.state.apps)
    start = len(hub.requests)
    none = await call_tool("hub_import_app", {})
    assert none.error and none.data["error"] == "invalid_request"
    two = await call_tool("hub_import_app", {"export": doc, "from_file": "x.json"})
    assert two.error and "exactly one" in two.data["message"]
    junk = await call_tool("hub_import_app", {"export": "{not json"})
    assert junk.error and junk.data["error"] == "invalid_request"
    foreign = await call_tool("hub_import_app", {"export": {"rules": []}})
    assert foreign.error and "appReplacements" in foreign.data["message"]
    odd_devices = {**doc, "deviceReplacements": {"424242": "not a map"}}
    gone = await call_tool("hub_import_app", {"export": odd_devices})
    assert gone.error and "424242 (unknown)" in gone.data["message"]
    no_file = await call_tool("hub_import_app", {"from_file": "nope.json"})
    assert no_file.error and no_file.data["error"] == "invalid_request"
    odd = dict(doc)
    odd["appReplacements"] = {"1": {"appLabel": "x", "appTypeName": "Nothing Like It"}}
    no_seed = await call_tool("hub_import_app", {"export": odd})
    assert no_seed.error and "seed_app_id" in no_seed.data["hint"]
    assert cloner_requests(hub, start) == []
    assert set(hub.state.apps) == before


async def test_import_app_with_missing_devices(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    doc = (await call_tool("hub_export_app", {"app_id": RULE_MOTION})).data["export"]
    gone = next(iter(doc["deviceReplacements"]))
    hub.state.devices.pop(int(gone))
    before = set(hub.state.apps)
    start = len(hub.requests)
    refused = await call_tool("hub_import_app", {"export": doc})
    assert refused.error and refused.data["error"] == "invalid_request"
    assert gone in refused.data["message"] and "allow_missing_devices" in refused.data["hint"]
    assert cloner_requests(hub, start) == [] and set(hub.state.apps) == before
    allowed = await call_tool("hub_import_app", {"export": doc, "allow_missing_devices": True})
    assert not allowed.error, allowed.data
    assert allowed.data["missing_devices"] == [gone]
    (made,) = new_apps(hub, before)
    assert any("**BROKEN**" in p for p in hub.state.dev.internals[made.id].paragraphs)


async def test_deleted_app_comes_back_from_its_backup(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    deleted = await call_tool("hub_delete_app", {"app_id": RULE_GOODNIGHT, "confirm": True})
    assert not deleted.error, deleted.data
    backup = deleted.data["item_backup"]["backup"]
    snap = json.loads(hub.files.read(backup) or b"{}")
    assert str(RULE_GOODNIGHT) in json.loads(snap["native_export"])["appReplacements"]
    assert RULE_GOODNIGHT not in hub.state.apps
    before = set(hub.state.apps)
    args = {"from_backup": backup, "enable": True}
    # Goodnight locks the front door: brought back enabled, it needs confirm
    refused = await call_tool("hub_import_app", args)
    assert refused.error and refused.data["error"] == "confirmation_required", refused.data
    assert set(hub.state.apps) == before
    restored = await call_tool("hub_import_app", {**args, "confirm": True})
    assert not restored.error, restored.data
    (made,) = new_apps(hub, before)
    assert made.label == "Goodnight" and not made.disabled
    assert hub.state.dev.internals[made.id].paragraphs[0].endswith("Mode becomes Night")
    # a backup without an export says so
    hub.files.write("hdt-backup_installedapp-5_20260101-000000.json", b'{"kind":"installedapp"}')
    empty = await call_tool(
        "hub_import_app", {"from_backup": "hdt-backup_installedapp-5_20260101-000000.json"}
    )
    assert empty.error and "no App Cloner export" in empty.data["message"]


async def test_cloner_tools_obey_the_write_master(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_WRITE: False})
    start = len(hub.requests)
    for name, args in (
        ("hub_export_app", {"app_id": RULE_MOTION}),
        ("hub_clone_app", {"app_id": RULE_MOTION}),
        ("hub_import_app", {"from_file": "x.json"}),
    ):
        result = await call_tool(name, args)
        assert result.error and result.data["error"] == "writes_disabled", name
    assert len(hub.requests) == start


async def test_cloner_hub_error_leaves_no_cloner(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = set(hub.state.apps)
    hub.faults.fail_paths = {"/installedapp/update/json": 500}
    result = await call_tool("hub_clone_app", {"app_id": RULE_MOTION})
    assert result.error and result.data["error"] == "hub_bad_response"
    assert set(hub.state.apps) == before  # nothing made, the cloner removed
    assert any(p.startswith("/installedapp/forcedelete/") for _m, p in hub.requests)


async def test_export_save_as_over_an_existing_file_keeps_a_copy(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.files.write("rule.json", b"my notes")
    result = await call_tool("hub_export_app", {"app_id": RULE_MOTION, "save_as": "rule.json"})
    assert not result.error, result.data
    copy = result.data["replaced_file_backup"]
    assert hub.files.read(copy) == b"my notes"
    assert str(RULE_MOTION) in json.loads(hub.files.read("rule.json") or b"{}")["appReplacements"]


async def test_import_hub_errors_create_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    doc = (await call_tool("hub_export_app", {"app_id": RULE_MOTION})).data["export"]
    before = set(hub.state.apps)
    hub.faults.fail_paths = {"/installedapp/btn": 503}
    result = await call_tool("hub_import_app", {"export": doc})
    assert result.error and result.data["error"] == "hub_bad_response"
    assert set(hub.state.apps) == before
    assert cloners(hub) == []  # the cloner was made, then removed
    hub.faults.fail_paths = {"/installedapp/sysAppApi/appCloner": 404}
    missing = await call_tool("hub_export_app", {"app_id": RULE_MOTION})
    assert missing.error and missing.data["error"] == "not_found"
    assert "App Cloner" in missing.data["message"]
    assert set(hub.state.apps) == before
