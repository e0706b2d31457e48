"""hub_restore_backup from a file not on the hub yet: a URL this integration downloads, or
the file's bytes in base64; and another hub's cloud backup (a migration)."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOW_LOCAL_CODE_URLS
from custom_components.hubitat_dev_tools.managers.backup_cloud import (
    UPLOAD_MAX_BYTES,
    lzf_problem,
    url_file_name,
)
from hubitat_emulator import HubEmulator
from hubitat_emulator.backups_cloud import OTHER_HUB_UID, lzf_chunks

from ..conftest import ToolCaller, ok, refused, sent_since
from ..loopback_host import LoopbackHost, serving
from ..ops_util import wait_for_status

# what a restore sends to the hub (the current-state backup, the upload, the restore)
CHANGES = ("backupDB", "uploadBackup", "estore")
BACKUP = lzf_chunks(b"-- H2 0.5/B --" + bytes(range(256)) * 300)  # two stored chunks


@pytest.fixture
async def file_host(socket_enabled: None) -> AsyncIterator[LoopbackHost]:
    """Backup files, looked up as their URL spells them (%20 kept)."""
    async with serving(LoopbackHost(raw_paths=True)) as host:
        yield host


def _changes(hub: HubEmulator, before: int) -> list[str]:
    return [p for _m, p in sent_since(hub, before) if any(c in p for c in CHANGES)]


def test_backup_bytes_are_checked_as_lzf_chunks() -> None:
    assert lzf_problem(BACKUP) is None
    compressed = b"ZV\x01\x00\x03\x00\x10abc"  # a compressed chunk: 3 bytes packed, 16 unpacked
    assert lzf_problem(compressed + BACKUP) is None
    assert lzf_problem(b"") == "it is empty"
    assert "ZV" in str(lzf_problem(b"<!doctype html><html>nope</html>"))
    assert "cut off" in str(lzf_problem(BACKUP[:-10]))
    assert "cut off" in str(lzf_problem(b"ZV\x00\x00"))
    assert "chunk at byte" in str(lzf_problem(BACKUP + b"trailing"))
    assert "empty" in str(lzf_problem(b"ZV\x01\x00\x00\x00\x00"))
    assert url_file_name("https://x.example/dl/Home_Hub.lzf?x=1") == "Home_Hub.lzf"
    assert url_file_name("https://x.example/dl/Home%20Hub.lzf") == "uploaded.lzf"
    assert url_file_name("https://x.example/download?id=7") == "uploaded.lzf"
    assert url_file_name("https://x.example/../etc/passwd") == "uploaded.lzf"


async def test_restore_from_url_downloads_checks_uploads_and_restores(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    file_host: LoopbackHost,
) -> None:
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    await ok(call_tool, "hub_create_backup")  # the destructive tier's recent backup
    url = file_host.add("/backups/Old_Hub.lzf", BACKUP)
    args = {"location": "uploaded", "source_url": url, "confirm": True}
    # a local http URL is refused by default: nothing downloaded, nothing sent to the hub
    before = len(sent_since(hub))
    await refused(call_tool, "hub_restore_backup", args, "url_not_allowed")
    assert file_host.hits == [] and _changes(hub, before) == []
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_LOCAL_CODE_URLS: True})
    # not a backup, a web page, a missing file, a redirect to one: refused, hub untouched
    page = file_host.add("/page.lzf", b"<!doctype html><p>Download here</p>")
    cut = file_host.add("/cut.lzf", BACKUP[:-100])
    moved = file_host.add("/moved", b"", status=302, Location="/page.lzf")
    for bad, code in (
        (page, "invalid_arguments"),
        (cut, "invalid_arguments"),
        (moved, "invalid_arguments"),
        (file_host.base + "/missing.lzf", "source_unavailable"),
    ):
        data = await refused(call_tool, "hub_restore_backup", {**args, "source_url": bad}, code)
        assert "Nothing was changed" in data["message"]
    assert _changes(hub, before) == [] and hub.cloud.restored_uploads == []
    assert "/page.lzf" in file_host.hits  # the redirect was followed (and checked)
    data = await ok(call_tool, "hub_restore_backup", args)
    assert data["status"] == "done" and data["rebooting"] is True
    assert data["restored"] == {
        "file_name": "Old_Hub.lzf",
        "size_bytes": len(BACKUP),
        "source_url": url,
    }
    assert data["current_state_backup"]["name"].endswith(".lzf")
    # the hub got exactly these bytes, in the uploader's form, after the current-state backup
    assert hub.cloud.restored_uploads == [("Old_Hub.lzf", BACKUP)]
    sent = _changes(hub, before)
    assert sent[0].startswith("/hub/backupDB") and sent[1:] == [
        "/hub2/uploadBackup",
        "/hub2/restoreUploadedBackup",
    ]
    await wait_for_status(hub, "down")
    await wait_for_status(hub, "running", timeout=5)
    audit = await ok(call_tool, "hub_list_audit_entries", {"limit": 5})
    assert any(e.get("tool") == "hub_restore_backup" for e in audit["entries"])


async def test_restore_from_url_too_large_is_refused_while_downloading(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    file_host: LoopbackHost,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_LOCAL_CODE_URLS: True})
    await ok(call_tool, "hub_create_backup")
    monkeypatch.setattr(
        "custom_components.hubitat_dev_tools.managers.backup_cloud.UPLOAD_MAX_BYTES", 10_000
    )
    url = file_host.add("/big.lzf", lzf_chunks(bytes(20_000)))
    before = len(sent_since(hub))
    data = await refused(
        call_tool,
        "hub_restore_backup",
        {"location": "uploaded", "source_url": url, "confirm": True},
        "source_unavailable",
    )
    assert "larger than 10000 bytes" in data["message"]
    assert _changes(hub, before) == [] and hub.cloud.restored_uploads == []


async def test_restore_from_base64_bytes(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    encoded = base64.b64encode(BACKUP).decode()
    args: dict[str, Any] = {"location": "uploaded", "content_base64": encoded}
    # the destructive tier: confirm, then a recent backup
    await refused(call_tool, "hub_restore_backup", args, "confirmation_required")
    await ok(call_tool, "hub_create_backup")
    args["confirm"] = True
    before = len(sent_since(hub))
    for bad, code in (
        ("not base64!!", "invalid_arguments"),
        (base64.b64encode(b"PK\x03\x04 a zip file").decode(), "invalid_arguments"),
    ):
        await refused(call_tool, "hub_restore_backup", {**args, "content_base64": bad}, code)
    both = {**args, "file_name": "x.lzf"}
    await refused(call_tool, "hub_restore_backup", both, "invalid_arguments")
    local = {"content_base64": encoded, "confirm": True}
    await refused(call_tool, "hub_restore_backup", local, "invalid_arguments")
    assert _changes(hub, before) == [] and hub.cloud.restored_uploads == []
    # line breaks (as base64 tools wrap it) are fine
    wrapped = "\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))
    data = await ok(call_tool, "hub_restore_backup", {**args, "content_base64": wrapped})
    assert data["restored"]["size_bytes"] == len(BACKUP) and data["restored"]["content_base64"]
    assert hub.cloud.restored_uploads == [("uploaded.lzf", BACKUP)]
    await wait_for_status(hub, "down")
    await wait_for_status(hub, "running", timeout=5)
    # the audit keeps the file's size, not its bytes (nor their start)
    audit = await ok(call_tool, "hub_list_audit_entries", {"limit": 20})
    kept = [
        e["args"]["content_base64"]
        for e in audit["entries"]
        if e.get("tool") == "hub_restore_backup" and "content_base64" in e.get("args", {})
    ]
    assert kept and all(k.endswith("characters, not kept)") for k in kept), kept
    assert not any(encoded[:20] in str(e) for e in audit["entries"])


async def test_base64_over_the_cap_is_refused_before_decoding(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await ok(call_tool, "hub_create_backup")
    monkeypatch.setattr(
        "custom_components.hubitat_dev_tools.managers.backup_cloud.UPLOAD_MAX_BYTES", 3_000
    )
    big = base64.b64encode(lzf_chunks(bytes(5_000))).decode()
    before = len(sent_since(hub))
    data = await refused(
        call_tool,
        "hub_restore_backup",
        {"location": "uploaded", "content_base64": big, "confirm": True},
        "invalid_arguments",
    )
    assert "3000 bytes" in data["message"] and _changes(hub, before) == []
    assert UPLOAD_MAX_BYTES == 25 * 1024 * 1024


async def test_migrating_another_hubs_cloud_backup_needs_the_flag(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    await ok(call_tool, "hub_create_backup")
    mine, other = (b.path for b in hub.cloud.backups)
    assert other.startswith(OTHER_HUB_UID)
    args = {"file_name": other, "location": "cloud", "confirm": True}
    before = len(sent_since(hub))
    data = await refused(call_tool, "hub_restore_backup", args, "invalid_arguments")
    assert "another hub" in data["message"] and "migrate_from_other_hub" in data["hint"]
    # the flag is for another hub's backups only, and for cloud ones only
    own = {**args, "file_name": mine, "migrate_from_other_hub": True}
    await refused(call_tool, "hub_restore_backup", own, "invalid_arguments")
    local = {"file_name": hub.backups[0].name, "migrate_from_other_hub": True, "confirm": True}
    await refused(call_tool, "hub_restore_backup", local, "invalid_arguments")
    # an account without cloud restores is refused before anything is sent
    hub.cloud.restore_entitled = False
    no_sub = await refused(
        call_tool, "hub_restore_backup", {**args, "migrate_from_other_hub": True}
    )
    assert no_sub["error"] == "invalid_arguments" and "restore" in no_sub["message"]
    hub.cloud.restore_entitled = True
    assert _changes(hub, before) == [] and hub.cloud.last_restore == {}
    data = await ok(call_tool, "hub_restore_backup", {**args, "migrate_from_other_hub": True})
    assert data["migrated_from"]["hub_name"] == "Garage Hub" and data["rebooting"] is True
    assert "Garage Hub" in data["summary"] and data["restored"]["this_hub"] is False
    # the same request as the hub UI's Migrate button, after a backup of this hub's state
    assert hub.cloud.last_restore["fileName"] == other
    assert hub.cloud.last_restore["restoreZw"] == "false"
    sent = _changes(hub, before)
    assert sent[0].startswith("/hub/backupDB") and sent[1].startswith("/hub2/restoreCloudBackup")
    await wait_for_status(hub, "down")
    await wait_for_status(hub, "running", timeout=5)


async def test_an_upload_restore_longer_than_the_call_is_in_progress_not_retried(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    from custom_components.hubitat_dev_tools.tools import base

    monkeypatch.setattr(base, "CALL_BUDGET_S", 5.0)
    hub.cloud.upload_restore_s = 6.0
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    hub.mark_backup_now()
    start = len(hub.requests)
    args = {"location": "uploaded", "content_base64": base64.b64encode(BACKUP).decode()}
    data = await ok(call_tool, "hub_restore_backup", {**args, "confirm": True})
    assert data["status"] == "in_progress" and "rebooting" not in data
    assert "Do not restore again" in data["pending"] and data["current_state_backup"]["name"]
    restores = [p for _m, p in hub.requests[start:] if "restoreUploadedBackup" in p]
    assert len(restores) == 1 and hub.status == "running"
    await wait_for_status(hub, "down", timeout=8)
    await wait_for_status(hub, "running", timeout=5)
    assert [p for _m, p in hub.requests[start:] if "restoreUploadedBackup" in p] == restores
