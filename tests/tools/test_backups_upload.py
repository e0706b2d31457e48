"""hub_restore_backup from a file not on the hub yet: a URL this integration downloads, or
the file's bytes in base64; and another hub's cloud backup (a migration): the tool's part.

Here stay the tool called with each source and its answer, the local-URL option, the
confirmation and backup gates, which arguments belong to which location, the advice naming
migrate_from_other_hub and hub_get_health_report, the call's own time bound and the audit
trail keeping the size of a base64 file, not its bytes. The download, the LZF check, the
size caps, the upload and restore after a current-state backup, the migration's refusals and
a slow restore in progress are tested without hass in tests/managers/test_backups.py."""

from __future__ import annotations

import base64
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOW_LOCAL_CODE_URLS
from hubitat_emulator import HubEmulator
from hubitat_emulator.backups_cloud_state import OTHER_HUB_UID, lzf_chunks

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
    # a web page is refused as the tool answers it, hub untouched (every bad download:
    # tests/managers/test_backups.py)
    page = file_host.add("/page.lzf", b"<!doctype html><p>Download here</p>")
    data = await refused(
        call_tool, "hub_restore_backup", {**args, "source_url": page}, "invalid_arguments"
    )
    assert "Nothing was changed" in data["message"]
    assert _changes(hub, before) == [] and hub.cloud.restored_uploads == []
    data = await ok(call_tool, "hub_restore_backup", args)
    assert data["status"] == "done" and data["rebooting"] is True
    assert data["restored"]["source_url"] == url and "hub_get_health_report" in data["note"]
    assert hub.cloud.restored_uploads == [("Old_Hub.lzf", BACKUP)]
    await wait_for_status(hub, "down")
    await wait_for_status(hub, "running", timeout=5)
    audit = await ok(call_tool, "hub_list_audit_entries", {"limit": 5})
    assert any(e.get("tool") == "hub_restore_backup" for e in audit["entries"])


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
    await refused(
        call_tool,
        "hub_restore_backup",
        {**args, "content_base64": "not base64!!"},
        "invalid_arguments",
    )
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


async def test_migrating_another_hubs_cloud_backup_needs_the_flag(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    await ok(call_tool, "hub_create_backup")
    _mine, other = (b.path for b in hub.cloud.backups)
    assert other.startswith(OTHER_HUB_UID)
    args = {"file_name": other, "location": "cloud", "confirm": True}
    before = len(sent_since(hub))
    data = await refused(call_tool, "hub_restore_backup", args, "invalid_arguments")
    assert "another hub" in data["message"] and "migrate_from_other_hub" in data["hint"]
    # the flag is for cloud backups only (for another hub's only, and an account without
    # cloud restores: tests/managers/test_backups.py)
    local = {"file_name": hub.backups[0].name, "migrate_from_other_hub": True, "confirm": True}
    await refused(call_tool, "hub_restore_backup", local, "invalid_arguments")
    assert _changes(hub, before) == [] and hub.cloud.last_restore == {}
    data = await ok(call_tool, "hub_restore_backup", {**args, "migrate_from_other_hub": True})
    assert data["migrated_from"]["hub_name"] == "Garage Hub" and data["rebooting"] is True
    assert "Garage Hub" in data["summary"] and hub.cloud.last_restore["fileName"] == other
    await wait_for_status(hub, "down")
    await wait_for_status(hub, "running", timeout=5)


async def test_an_upload_restore_longer_than_the_call_is_in_progress_not_retried(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tool's part: the call answers within its own time bound, with the advice naming
    hub_get_health_report (the restore in progress, never resent:
    tests/managers/test_backups.py)."""
    from custom_components.hubitat_dev_tools.tools import base

    monkeypatch.setattr(base, "CALL_BUDGET_S", 5.0)
    hub.cloud.upload_restore_s = 6.0
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    hub.mark_backup_now()
    start = len(hub.requests)
    args = {"location": "uploaded", "content_base64": base64.b64encode(BACKUP).decode()}
    began = time.monotonic()
    data = await ok(call_tool, "hub_restore_backup", {**args, "confirm": True})
    assert time.monotonic() - began < base.CALL_BUDGET_S
    assert data["status"] == "in_progress" and "rebooting" not in data
    assert "Do not restore again" in data["pending"] and "hub_get_health_report" in data["pending"]
    restores = [p for _m, p in hub.requests[start:] if "restoreUploadedBackup" in p]
    assert len(restores) == 1 and hub.status == "running"
    await wait_for_status(hub, "down", timeout=8)
    await wait_for_status(hub, "running", timeout=5)
    assert [p for _m, p in hub.requests[start:] if "restoreUploadedBackup" in p] == restores
