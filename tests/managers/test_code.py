"""The code manager (``managers/code.py``) on its own, no hass: the code list (with the
built-in driver types), installs and updates (compile errors verbatim, a byte order mark
refused, the backup taken before the save and kept for an edit series, the version check),
deletes (backed up first, code in use refused before anything is sent), item backups read
and restored (as new code, in place, and put back when the restore fails), bundles, and
OAuth on app code, over the emulated hub on a legacy-editor firmware and a 2.5 one.

Moved from tests/tools/test_code.py, tests/tools/test_code_sources.py (the built-in driver
types) and tests/tools/test_code_oauth.py (the code logic is the manager's; the tools'
confirmation and backup gates, argument refusals, paging, summaries, the URL check of a
bundle, the audit trail and Hub Security stay there)."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.code import HubCompileError, HubVersionConflictError
from custom_components.hubitat_dev_tools.hub.errors import (
    HubBadResponseError,
    HubNotFoundError,
    HubRefusedError,
)
from custom_components.hubitat_dev_tools.managers.code import CodeManager
from custom_components.hubitat_dev_tools.managers.code_sources import SourceSpec
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.code import CURRENT, GOOD_DRIVER, LEGACY, backups, saves, update_path


@pytest.fixture(params=[LEGACY, CURRENT])
async def hub(request: pytest.FixtureRequest, socket_enabled: None) -> AsyncIterator[HubEmulator]:
    """The emulated hub (Hub Security off) on each firmware (``emu`` is this hub)."""
    emu = HubEmulator(command_delay=0.0)
    emu.state.version = request.param
    await emu.start()
    yield emu
    await emu.stop()


@pytest.fixture
async def code(manager_hub: Hub) -> CodeManager:
    """The code manager, the hub's firmware read first (as the integration's setup does), so
    a save takes the path that firmware's editor takes."""
    await manager_hub.library.info.identity()
    return manager_hub.code


async def allow_any(url: str) -> None:
    """A URL check that lets everything through (no source here is downloaded)."""


def oauth_requests(emu: HubEmulator, since: int = 0) -> list[dict[str, list[str]]]:
    return [
        parse_qs(urlsplit(p).query, keep_blank_values=True)
        for _m, p in emu.requests[since:]
        if p.startswith("/app/updateOAuth")
    ]


async def test_list_code(code: CodeManager) -> None:
    items = await code.list_code(None, None)
    kinds = {i["type"] for i in items}
    assert kinds == {"app", "driver", "library"}
    announcer = next(i for i in items if i["name"] == "Motion Announcer")
    assert announcer["used_by"] == ["Hall motion announcer (200)"]
    assert announcer["last_modified"]
    lib = next(i for i in items if i["type"] == "library")
    assert lib["version"] == 2 and lib["used_by_apps"] == ["Motion Announcer"]
    drivers = await code.list_code("driver", "plug")
    assert [d["name"] for d in drivers] == ["Acme Smart Plug"]


async def test_list_builtin_drivers(code: CodeManager) -> None:
    plain = await code.list_code("driver", None)
    assert not [d for d in plain if d.get("builtin")]
    items = await code.list_code("driver", None, builtin=True)
    builtin = [d for d in items if d.get("builtin")]
    assert any(d["name"] == "Virtual Switch" for d in builtin)
    assert not [d for d in builtin if d["name"] == "Hub Variable Connector"]  # Hidden
    assert any(d["name"] == "Acme Smart Plug" and not d.get("builtin") for d in items)
    apps = await code.list_code("app", None, builtin=True)
    assert not [d for d in apps if d.get("builtin")]


async def test_install_compile_error_verbatim(emu: HubEmulator, code: CodeManager) -> None:
    broken = GOOD_DRIVER.replace("def off() { }", "def off() {")
    before = set(emu.state.dev.code)
    with pytest.raises(HubCompileError) as err:
        await code.install("driver", broken)
    assert err.value.code == "compile_error"
    assert "Unexpected input: '{'" in str(err.value)
    assert "line 7" in str(err.value)
    assert set(emu.state.dev.code) == before
    ok = await code.install("driver", GOOD_DRIVER)
    assert emu.state.dev.code[("driver", int(ok["id"]))].name == "Test Relay"
    assert ok["version"] == 1


async def test_install_refuses_bom_before_sending(emu: HubEmulator, code: CodeManager) -> None:
    bom = "\ufeff" + GOOD_DRIVER
    with pytest.raises(ToolError) as direct:
        await code.install("app", bom)
    assert direct.value.code == "invalid_request" and "byte order mark" in str(direct.value)
    # the tools take the source through source_text: refused there as well
    with pytest.raises(ToolError) as given:
        await code.source_text(SourceSpec(source=bom), allow_any)
    assert given.value.code == "invalid_request"
    assert saves(emu) == []


async def test_update_backs_up_first_and_keeps_series_original(
    emu: HubEmulator, code: CodeManager
) -> None:
    item = emu.state.dev.code[("driver", 1)]
    original = item.source
    v1 = original.replace('capability "Refresh"', 'capability "Refresh"\n        // v1')
    result = await code.update("driver", "1", v1, 7)
    assert result["version"] == 8 and result["previous_version"] == 7
    assert result["name"] == "Acme Smart Plug"
    backup = result["item_backup"]["backup"]
    assert backups(emu) == [backup]
    stored = json.loads(emu.files.read(backup) or b"{}")
    assert stored["source"] == original and stored["version"] == 7
    assert stored["reason"] == "before update"
    # the backup upload happened before the save
    paths = [p for _m, p in emu.requests]
    assert paths.index("/hub/fileManager/upload") < paths.index(update_path(emu, "driver"))
    v2 = v1 + "\n// v2\n"
    second = await code.update("driver", "1", v2, None)
    assert second["item_backup"]["reused"] is True
    assert backups(emu) == [backup]
    assert item.source == v2
    same = await code.update("driver", "1", v2, None)  # the same source again: nothing saved
    assert same["unchanged"] is True and "item_backup" not in same


async def test_update_version_conflict(emu: HubEmulator, code: CodeManager) -> None:
    src = emu.state.dev.code[("app", 1)].source + "\n// edit\n"
    with pytest.raises(HubVersionConflictError) as stale:
        await code.update("app", "1", src, 3)
    assert stale.value.code == "version_conflict"
    assert saves(emu) == [] and backups(emu) == []
    # the hub's own check: someone saves between our read and our save
    emu.state.dev.code[("app", 1)].version = 4
    await code.update("app", "1", src, None)
    assert emu.state.dev.code[("app", 1)].version == 5


async def test_update_compile_error_leaves_code(emu: HubEmulator, code: CodeManager) -> None:
    item = emu.state.dev.code[("library", 1)]
    before = item.source
    with pytest.raises(HubCompileError) as err:
        await code.update("library", "1", "def x() {\n}\n}", None)
    assert err.value.code == "compile_error"
    assert "line 3" in str(err.value)
    assert item.source == before


async def test_delete_backs_up_and_refuses_code_in_use(emu: HubEmulator, code: CodeManager) -> None:
    original = emu.state.dev.code[("driver", 2)].source
    deleted = await code.delete("driver", "2")
    assert ("driver", 2) not in emu.state.dev.code
    backup = deleted["item_backup"]["backup"]
    assert backups(emu) == [backup]
    stored = json.loads(emu.files.read(backup) or b"{}")
    assert stored["source"] == original and stored["reason"] == "before delete"
    with pytest.raises(HubRefusedError) as in_use:
        await code.delete("app", "1")
    assert "installed instances" in str(in_use.value)
    assert ("app", 1) in emu.state.dev.code


async def test_delete_of_code_in_use_is_refused_before_sending(
    emu: HubEmulator, code: CodeManager
) -> None:
    with pytest.raises(HubRefusedError) as in_use:
        await code.delete("library", "1")
    assert "Motion Announcer" in str(in_use.value)
    assert ("library", 1) in emu.state.dev.code
    assert not any("deleteJson" in p for _m, p in emu.requests) and backups(emu) == []


async def test_backups_list_get_restore(emu: HubEmulator, code: CodeManager) -> None:
    original = emu.state.dev.code[("driver", 2)].source
    deleted = await code.delete("driver", "2")
    name = deleted["item_backup"]["backup"]
    listed = await code.backups.list("driver")
    assert [b.file for b in listed] == [name]
    got = await code.backups.read(name)
    assert got["source"] == original and got["reason"] == "before delete"
    restored = await code.restore(name)
    assert restored.get("restored_as_new") is True
    new_id = int(restored["id"])
    assert emu.state.dev.code[("driver", new_id)].source == original
    with pytest.raises(ToolError) as bad:
        await code.backups.read("../etc/passwd")
    assert bad.value.code == "invalid_request"


async def test_restore_in_place_and_failed_restore_puts_back(
    emu: HubEmulator, code: CodeManager
) -> None:
    item = emu.state.dev.code[("app", 1)]
    original = item.source
    edited = original + "\n// edited\n"
    upd = await code.update("app", "1", edited, None)
    name = upd["item_backup"]["backup"]
    restored = await code.restore(name)
    assert item.source == original
    assert restored["item_backup"]["backup"] != name  # pre-restore snapshot
    # a backup that no longer compiles (the library it includes is gone): refused, unchanged
    doc = json.loads(emu.files.read(name) or b"{}")
    doc["source"] = original.replace("#include acme.Utils", "#include acme.Gone")
    emu.files.write(name, json.dumps(doc).encode())
    item.source = edited
    with pytest.raises(HubCompileError) as failed:
        await code.restore(name)
    assert failed.value.code == "compile_error"
    assert item.source == edited


async def test_bundles(emu: HubEmulator, code: CodeManager) -> None:
    listed = await code.list_bundles()
    assert listed[0]["contains"]["apps"] == ["Hubitat Package Manager"]
    with pytest.raises(HubBadResponseError) as missing:
        await code.install_bundle("https://example.com/nope.zip", private=False)
    assert "404" in str(missing.value)
    before = {b["id"] for b in listed}
    user_code = await code.list_code(None, None)
    ok = await code.install_bundle("https://example.com/bundles/acme-tools.zip", private=False)
    new_id = ok["installed"][0]["id"]
    assert new_id not in before
    # every user code item was saved first (the hub overwrites code of the same name)
    assert len(ok["item_backups"]) == len(user_code)
    assert all(emu.files.read(b["backup"]) for b in ok["item_backups"])
    deleted = await code.delete_bundle(new_id)
    assert deleted["deleted"]["id"] == new_id
    assert int(new_id) not in emu.state.dev.bundles


async def test_export_bundle(emu: HubEmulator, code: CodeManager) -> None:
    result = await code.export_bundle("1", None, overwrite=False)
    data = emu.files.read(result["file"])
    assert data is not None and data.startswith(b"PK") and len(data) == result["size"]
    with pytest.raises(ToolError) as again:
        await code.export_bundle("1", None, overwrite=False)
    assert again.value.code == "invalid_request"
    replaced = await code.export_bundle("1", None, overwrite=True)
    assert emu.files.read(replaced["replaced_file_backup"]) == data
    with pytest.raises(ToolError) as bad:
        await code.export_bundle("1", "../x", overwrite=False)
    assert bad.value.code == "invalid_request"
    with pytest.raises(HubNotFoundError) as missing:
        await code.export_bundle("77", None, overwrite=False)
    assert missing.value.code == "not_found"


async def test_oauth_enable_read_disable_never_the_secret(
    emu: HubEmulator, code: CodeManager, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    item = emu.state.dev.code[("app", 1)]
    on = await code.set_oauth("1", True)
    secret = item.oauth_client_secret
    assert secret and item.oauth and item.oauth_client_id
    assert on.as_dict() == {"enabled": True, "client_id": item.oauth_client_id}
    # what the editor's dialog sends: a fresh app sends empty credentials (the hub makes them)
    assert oauth_requests(emu) == [
        {
            "id": ["1"],
            "oauthEnabled": ["true"],
            "clientId": [""],
            "clientSecret": [""],
            "refreshSecret": ["false"],
        }
    ]
    read = await code.get_oauth("1")
    assert read.as_dict() == {"enabled": True, "client_id": item.oauth_client_id}
    listed = await code.list_code("app", "Motion")
    assert listed[0]["oauth"] is True
    # enabling again sends the current credentials back: the live client is kept
    before = len(emu.requests)
    await code.set_oauth("1", True)
    again = oauth_requests(emu, before)[0]
    assert again["clientId"] == [item.oauth_client_id] and again["clientSecret"] == [secret]
    assert item.oauth_client_secret == secret
    off = await code.set_oauth("1", False)
    assert off.enabled is False and not emu.state.dev.code[("app", 1)].oauth
    outputs = repr([on, read, off]) + json.dumps([on.as_dict(), read.as_dict(), listed])
    assert secret not in outputs and secret not in caplog.text
