"""Code tools (apps/drivers/libraries, item backups, bundles) against the emulated hub: the
confirmation and backup gates, argument refusals, error codes, paging and summaries, Hub
Security, the hub library's save paths and decide-by-effect deletes on each firmware, and the
real hub's answer shapes. The code logic (the list, installs, updates and their backups,
deletes, restores, bundles) is tested without hass in tests/managers/test_code.py, pruning
in tests/managers/test_item_backups.py."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub import code as hub_code
from custom_components.hubitat_dev_tools.hub.code import (
    legacy_page_error,
    parse_bundles,
    parse_code_list,
    parse_source,
    read_delete_answer,
    read_form_update_answer,
    read_json_save_answer,
    save_route,
)
from custom_components.hubitat_dev_tools.hub.firmware import UNKNOWN_PLATFORM, Platform
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry
from ..contract import load_fixture
from ..dns_util import use_fake_dns
from ..helpers.code import CURRENT, GOOD_DRIVER, LEGACY, backups, saves, update_path


# Code saves differ by firmware: every hub test here runs on a legacy-editor hub and a 2.5 one.
@pytest.fixture(params=[LEGACY, CURRENT])
async def hub(request: pytest.FixtureRequest, socket_enabled: None) -> AsyncIterator[HubEmulator]:
    """The emulated hub (Hub Security off) on each firmware."""
    emu = HubEmulator(command_delay=0.0)
    emu.state.version = request.param
    await emu.start()
    yield emu
    await emu.stop()


@pytest.fixture
def public_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bundle hosts resolve (the tests have no DNS)."""
    use_fake_dns(monkeypatch)


def legacy(hub: HubEmulator) -> bool:
    return hub.state.version == LEGACY


async def test_list_code_tool_filters_and_pages(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    """The tool's part: the type and text reach the manager, and the answer is paged (the
    list, what uses each item and the filters: tests/managers/test_code.py)."""
    drivers = await call_tool("hub_list_code", {"type": "driver", "text": "plug"})
    assert not drivers.error, drivers.data
    assert [d["name"] for d in drivers.data["code"]] == ["Acme Smart Plug"]
    first = await call_tool("hub_list_code", {"limit": 1})
    assert len(first.data["code"]) == 1 and first.data["total"] > 1
    rest = await call_tool("hub_list_code", {"cursor": first.data["next_cursor"]})
    kinds = {i["type"] for i in first.data["code"] + rest.data["code"]}
    assert kinds == {"app", "driver", "library"} and "next_cursor" not in rest.data


async def test_get_code_pages_large_source(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    first = await call_tool("hub_get_code", {"type": "app", "id": "2"})
    assert not first.error, first.data
    data = first.data
    assert data["version"] == 2 and data["total_chars"] > 100_000
    assert len(data["source"]) == 30_000 and data["next_offset"] == 30_000
    assert len(json.dumps(data)) < 100_000
    parts = [data["source"]]
    offset = data["next_offset"]
    while offset is not None:
        page = await call_tool("hub_get_code", {"type": "app", "id": "2", "offset": offset})
        parts.append(page.data["source"])
        offset = page.data["next_offset"]
    assert len("".join(parts)) == data["total_chars"]
    lib = await call_tool("hub_get_code", {"type": "library", "id": 1})
    assert "library(" in lib.data["source"] and lib.data["next_offset"] is None


async def test_get_code_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    for args in ({"type": "widget", "id": "1"}, {"type": "app", "id": "x"}, {"type": "app"}):
        result = await call_tool("hub_get_code", args)
        assert result.error and result.data["error"] == "invalid_arguments"
    assert len(hub.requests) == before
    missing = await call_tool("hub_get_code", {"type": "driver", "id": "999"})
    assert missing.error and missing.data["error"] == "not_found"


async def test_install_code_tool_answers_the_compile_error_and_summarizes(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the compile error's code and message, the summary (the install,
    the compiler's words and the byte order mark refused: tests/managers/test_code.py)."""
    broken = GOOD_DRIVER.replace("def off() { }", "def off() {")
    result = await call_tool(
        "hub_install_code", {"type": "driver", "source": broken, "confirm": True}
    )
    assert result.error
    assert result.data["error"] == "compile_error"
    assert "line 7" in result.data["message"]
    ok = await call_tool(
        "hub_install_code", {"type": "driver", "source": GOOD_DRIVER, "confirm": True}
    )
    assert not ok.error, ok.data
    new_id = ok.data["id"]
    assert ok.data["summary"] == f"Installed new driver code with id {new_id}"
    assert ok.data["type"] == "driver" and ok.data["version"] == 1
    assert ("driver", int(new_id)) in hub.state.dev.code


async def test_update_code_tool_passes_the_version_and_summarizes(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: expected_version reaches the manager, the version conflict's code and
    the summary (the backup first, the edit series, the hub's own version check and a compile
    error leaving the code: tests/managers/test_code.py)."""
    item = hub.state.dev.code[("driver", 1)]
    v1 = item.source + "\n// v1\n"
    args = {"type": "driver", "id": "1", "source": v1, "confirm": True}
    stale = await call_tool("hub_update_code", {**args, "expected_version": 3})
    assert stale.error and stale.data["error"] == "version_conflict"
    assert saves(hub) == [] and backups(hub) == []
    result = await call_tool("hub_update_code", {**args, "expected_version": 7})
    assert not result.error, result.data
    assert result.data["summary"] == "Saved driver 1 (Acme Smart Plug): version 7 -> 8"
    assert backups(hub) == [result.data["item_backup"]["backup"]] and item.source == v1
    same = await call_tool("hub_update_code", args)
    assert same.data["summary"] == "driver 1 already has this source; nothing saved"


async def test_hub_error_maps(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.error_burst = 4
    hub.faults.error_status = 500
    result = await call_tool("hub_list_code", {"type": "app"})
    assert result.error and result.data["error"] == "hub_bad_response"


async def test_delete_gate_backup_and_refusal(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the confirmation and backup gates and the summary (the item backup
    taken first and code in use refused before anything is sent:
    tests/managers/test_code.py)."""
    args = {"type": "driver", "id": "2"}
    no_confirm = await call_tool("hub_delete_code", args)
    assert no_confirm.error and no_confirm.data["error"] == "confirmation_required"
    stale = await call_tool("hub_delete_code", {**args, "confirm": True})
    assert stale.error and stale.data["error"] == "backup_required"
    assert ("driver", 2) in hub.state.dev.code and backups(hub) == []
    hub.mark_backup_now()
    ok = await call_tool("hub_delete_code", {**args, "confirm": True})
    assert not ok.error, ok.data
    assert ("driver", 2) not in hub.state.dev.code
    backup = ok.data["item_backup"]["backup"]
    assert backups(hub) == [backup]
    assert ok.data["summary"] == f"Deleted driver 2 ({ok.data['name']}); backup {backup}"
    in_use = await call_tool("hub_delete_code", {"type": "app", "id": "1", "confirm": True})
    assert in_use.error and in_use.data["error"] == "hub_bad_response"


async def test_backups_list_get_restore(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the listing's shape, the backup read with its source paged, the
    restore's confirmation gate and summaries (the backups read and restored, as new code, in
    place and put back after a failed restore: tests/managers/test_code.py)."""
    hub.mark_backup_now()
    original = hub.state.dev.code[("driver", 2)].source
    deleted = await call_tool("hub_delete_code", {"type": "driver", "id": "2", "confirm": True})
    name = deleted.data["item_backup"]["backup"]
    listed = await call_tool("hub_list_item_backups", {"type": "driver"})
    assert [b["backup"] for b in listed.data["backups"]] == [name]
    assert listed.data["backups"][0]["type"] == "driver" and listed.data["total"] == 1
    got = await call_tool("hub_get_item_backup", {"backup": name})
    assert got.data["source"] == original and got.data["reason"] == "before delete"
    assert got.data["total_chars"] == len(original) and got.data["next_offset"] is None
    unconfirmed = await call_tool("hub_restore_item_backup", {"backup": name})
    assert unconfirmed.error and unconfirmed.data["error"] == "confirmation_required"
    restored = await call_tool("hub_restore_item_backup", {"backup": name, "confirm": True})
    assert not restored.error, restored.data
    assert restored.data["restored_as_new"] is True
    assert restored.data["summary"] == restored.data["note"]
    assert f"new code with id {restored.data['id']}" in restored.data["summary"]
    # in place: the version moves on
    item = hub.state.dev.code[("app", 1)]
    upd = await call_tool(
        "hub_update_code",
        {"type": "app", "id": "1", "source": item.source + "\n// edited\n", "confirm": True},
    )
    back = upd.data["item_backup"]["backup"]
    in_place = await call_tool("hub_restore_item_backup", {"backup": back, "confirm": True})
    assert not in_place.error, in_place.data
    version = in_place.data["version"]
    assert in_place.data["summary"] == f"Restored {back}: version {version - 1} -> {version}"


async def test_bundles(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, public_dns: None
) -> None:
    """The tools' part: the listing's count, the URL refused by the arguments, the failure's
    code, the backup gate and the summaries (the bundles listed, installed after every code
    item is backed up, and deleted: tests/managers/test_code.py)."""
    listed = await call_tool("hub_list_bundles")
    assert listed.data["count"] == len(listed.data["bundles"]) >= 1
    bad_url = await call_tool("hub_install_bundle", {"url": "ftp://x", "confirm": True})
    assert bad_url.error and bad_url.data["error"] == "invalid_arguments"
    missing = await call_tool(
        "hub_install_bundle", {"url": "https://example.com/nope.zip", "confirm": True}
    )
    assert missing.error and missing.data["error"] == "hub_bad_response"
    url = "https://example.com/bundles/acme-tools.zip"
    ok = await call_tool("hub_install_bundle", {"url": url, "confirm": True})
    assert not ok.error, ok.data
    new_id = ok.data["installed"][0]["id"]
    names = ", ".join(b["name"] for b in ok.data["installed"])
    assert ok.data["summary"] == f"Installed bundle from {url}: {names}"
    gate = await call_tool("hub_delete_bundle", {"bundle_id": new_id, "confirm": True})
    assert gate.error and gate.data["error"] == "backup_required"
    hub.mark_backup_now()
    deleted = await call_tool("hub_delete_bundle", {"bundle_id": new_id, "confirm": True})
    assert not deleted.error, deleted.data
    assert deleted.data["summary"] == f"Deleted bundle {new_id}"
    assert int(new_id) not in hub.state.dev.bundles


async def test_update_through_hub_security(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, secure_hub)
    item = secure_hub.state.dev.code[("app", 1)]
    result = await call_tool(
        "hub_update_code",
        {"type": "app", "id": "1", "source": item.source + "\n// secure\n", "confirm": True},
    )
    assert not result.error, result.data
    assert item.source.endswith("// secure\n")
    assert secure_hub.files.read(result.data["item_backup"]["backup"]) is not None


async def test_export_bundle(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the arguments reach the manager, the summary and the error codes (the
    .zip written, an existing file kept or copied first, a bad name and a missing bundle:
    tests/managers/test_code.py)."""
    result = await call_tool("hub_export_bundle", {"bundle_id": "1", "file_name": "tools"})
    assert not result.error, result.data
    file, size = result.data["file"], result.data["size"]
    assert file == "tools.zip" and hub.files.read(file) is not None
    assert result.data["summary"] == f"Exported bundle 1 to {file} ({size} bytes)"
    again = await call_tool("hub_export_bundle", {"bundle_id": "1", "file_name": "tools"})
    assert again.error and again.data["error"] == "invalid_request"
    replaced = await call_tool(
        "hub_export_bundle", {"bundle_id": "1", "file_name": "tools", "overwrite": True}
    )
    assert not replaced.error and replaced.data["replaced_file_backup"], replaced.data
    missing = await call_tool("hub_export_bundle", {"bundle_id": "77"})
    assert missing.error and missing.data["error"] == "not_found"


# ------------------------------------------------------------------ real shapes (fixtures)


def test_delete_answers_in_both_shapes() -> None:
    assert read_delete_answer(load_fixture("code/app_delete").answer) == (True, None)
    assert read_delete_answer(load_fixture("code/driver_delete").answer) == (True, None)
    assert read_delete_answer({"status": True}) == (True, None)
    assert read_delete_answer(load_fixture("code/library_delete").answer) == (True, None)
    assert read_delete_answer(load_fixture("code/bundle_delete").answer) == (True, None)
    refused = load_fixture("code/app_delete_refused").answer
    assert read_delete_answer(refused) == (False, "in use")
    assert read_delete_answer({"status": False}) == (False, None)
    assert read_delete_answer({"success": False, "message": "busy"}) == (False, "busy")
    assert read_delete_answer("<html>redirected</html>") == (False, None)


def test_save_answers() -> None:
    saved = read_json_save_answer(load_fixture("code/json_save").answer)
    assert saved.ok and saved.id == "41" and saved.message is None
    refused = read_json_save_answer(load_fixture("code/json_save_refused").answer)
    assert not refused.ok and "@ line 7, column 14" in (refused.message or "")
    library = read_json_save_answer(load_fixture("code/library_save").answer)
    assert library.ok and library.id == "7" and library.version == 3
    assert read_form_update_answer(load_fixture("code/form_update").answer).ok
    form_refused = read_form_update_answer(load_fixture("code/form_update_refused").answer)
    assert not form_refused.ok and "line 3" in (form_refused.message or "")
    assert not read_json_save_answer("<html></html>").ok
    page = (
        '<div class="alert"><div class="alert-close close" aria-label="Close"><span>&times;'
        "</span></div>Metadata Error: &lt;definition&gt; missing\n  (line 1)</div>"
    )
    assert legacy_page_error(page) == "Metadata Error: <definition> missing (line 1)"
    assert legacy_page_error("<html><body>editor 7</body></html>") is None


def test_save_route_by_firmware() -> None:
    assert save_route(Platform(version=(2, 4, 4, 156)), "app") == "form"
    assert save_route(Platform(version=(2, 4, 4, 156)), "driver") == "form"
    assert save_route(Platform(version=(2, 4, 4, 156)), "library") == "json"
    assert save_route(Platform(version=(2, 5, 0, 143)), "app") == "json"
    assert save_route(UNKNOWN_PLATFORM, "driver") == "json"


def test_listing_and_source_parsers() -> None:
    apps = parse_code_list("app", load_fixture("code/user_app_types").answer)
    assert apps[0]["used_by"] == ["Hall <motion> announcer (200)"]
    assert apps[0]["last_modified"] == "2026-05-08T00:00:00+00:00"
    assert apps[1]["last_modified"] == "2026-05-08T00:00:00+00:00" and apps[1]["oauth"]
    drivers = parse_code_list("driver", load_fixture("code/user_device_types").answer)
    assert [d["capabilities"] for d in drivers] == [["Switch", "Refresh"]] * 2
    assert drivers[0]["used_by"] == ["Porch plug (12)"] and drivers[1]["used_by"] == []
    libs = parse_code_list("library", load_fixture("code/user_libraries").answer)
    assert libs[0]["used_by_apps"] == ["Motion Announcer", "Report"]
    assert libs[0]["used_by_drivers"] == [] and libs[0]["version"] == 2
    # the list shape some firmware may answer still reads
    listed = [{"id": 3, "usedByAppTypes": ["A"], "usedByDeviceTypes": [{"id": 4, "name": "D"}]}]
    assert parse_code_list("library", listed)[0]["used_by_drivers"] == ["D (4)"]
    single = parse_source("library", "42", load_fixture("code/library_single").answer)
    assert single is not None and single.name == "TestLib" and single.version == 1
    code = parse_source("app", "1", load_fixture("code/ajax_code").answer)
    assert code is not None and code.version == 12 and code.name == ""
    assert parse_source("driver", "9", load_fixture("code/ajax_code_missing").answer) is None
    bundles = parse_bundles(load_fixture("code/user_bundles").answer)
    assert bundles[0]["contains"]["apps"] == ["Hubitat Package Manager"]
    assert bundles[0]["private"] is False


# ------------------------------------------------------------------ firmware and effects


@pytest.fixture
def quick_effects(monkeypatch: pytest.MonkeyPatch) -> None:
    """A delete the hub did not make is looked for again only briefly."""
    monkeypatch.setattr(hub_code, "EFFECT_WAIT", 0.3)


async def test_saves_take_the_firmwares_path(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    installed = await call_tool(
        "hub_install_code", {"type": "driver", "source": GOOD_DRIVER, "confirm": True}
    )
    assert not installed.error, installed.data
    new_id = installed.data["id"]
    item = hub.state.dev.code[("driver", int(new_id))]
    assert installed.data["version"] == item.version == 1
    create = "/driver/save" if legacy(hub) else "/driver/saveOrUpdateJson"
    assert saves(hub) == [create]
    edited = GOOD_DRIVER + "// edited\n"
    updated = await call_tool(
        "hub_update_code", {"type": "driver", "id": new_id, "source": edited, "confirm": True}
    )
    assert not updated.error, updated.data
    assert updated.data["version"] == 2 and item.source == edited
    assert updated.data["name"] == "Test Relay"
    assert saves(hub) == [create, update_path(hub, "driver")]
    # libraries have only the JSON path, on every firmware
    lib = hub.state.dev.code[("library", 1)]
    await call_tool(
        "hub_update_code",
        {"type": "library", "id": "1", "source": lib.source + "\n// x\n", "confirm": True},
    )
    assert saves(hub)[-1] == "/library/saveOrUpdateJson"


async def test_install_compile_error_on_each_firmware(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    broken = GOOD_DRIVER.replace("def off() { }", "def off() {")
    before = set(hub.state.dev.code)
    result = await call_tool("hub_install_code", {"type": "app", "source": broken, "confirm": True})
    assert result.error and result.data["error"] == "compile_error"
    assert "line 7" in result.data["message"]
    assert set(hub.state.dev.code) == before


async def test_delete_decided_by_effect(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, quick_effects: None
) -> None:
    hub.mark_backup_now()
    # the hub answers a refusal although it deleted: a success
    hub.state.dev.delete_answers_failure = True
    said_no = await call_tool("hub_delete_code", {"type": "driver", "id": "2", "confirm": True})
    assert not said_no.error, said_no.data
    assert ("driver", 2) not in hub.state.dev.code
    # the hub answers success but keeps the code: a failure
    hub.state.dev.delete_answers_failure = False
    hub.state.dev.delete_ignored = True
    kept = await call_tool("hub_delete_code", {"type": "app", "id": "2", "confirm": True})
    assert kept.error and kept.data["error"] == "hub_bad_response"
    assert "still lists" in kept.data["message"]
    assert ("app", 2) in hub.state.dev.code
    paths = [p for _m, p in hub.requests]
    assert "/app/edit/deleteJson/2" in paths and not any("deleteJsonSafe" in p for p in paths)


async def test_bundle_delete_decided_by_effect(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, quick_effects: None
) -> None:
    hub.mark_backup_now()
    hub.state.dev.delete_ignored = True
    kept = await call_tool("hub_delete_bundle", {"bundle_id": "1", "confirm": True})
    assert kept.error and "still lists" in kept.data["message"]
    hub.state.dev.delete_ignored = False
    hub.state.dev.delete_answers_failure = True
    deleted = await call_tool("hub_delete_bundle", {"bundle_id": "1", "confirm": True})
    assert not deleted.error, deleted.data
    assert 1 not in hub.state.dev.bundles
    assert "/bundle/deleteJson/1" in [p for _m, p in hub.requests]


async def test_legacy_install_through_hub_security(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    secure_hub.state.version = LEGACY
    await add_entry(hass, secure_hub)
    before = set(secure_hub.state.dev.code)
    result = await call_tool(
        "hub_install_code", {"type": "driver", "source": GOOD_DRIVER, "confirm": True}
    )
    assert not result.error, result.data
    # one new driver: the form was posted once, and its redirect followed with the session
    assert set(secure_hub.state.dev.code) - before == {("driver", int(result.data["id"]))}
    assert saves(secure_hub) == ["/driver/save"]
    # the hub was updated to 2.5 since setup: its legacy form creates nothing, and says so
    secure_hub.state.version = CURRENT
    other = GOOD_DRIVER.replace("Test Relay", "Other Relay")
    stale = await call_tool(
        "hub_install_code", {"type": "driver", "source": other, "confirm": True}
    )
    assert stale.error and stale.data["error"] == "compile_error"
    assert "no compiler message" in stale.data["message"]
    assert len(secure_hub.state.dev.code) == len(before) + 1
