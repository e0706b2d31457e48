"""The local backup manager (``managers/backups.py``) on its own, no hass: the hub's local
backups listed with their ages, whether one satisfies the destructive tier and the schedule
(its password left out), one made and verified by the list, one deleted (checked to exist,
re-listed), one restored after a backup of the current state (the hub reboots), a restore
slower than the time left reported in progress and never sent again, and a hub refusing a
restore. Then the restores of a backup file not on the hub yet (``managers/backup_cloud.py``:
downloaded from a URL, or given as base64), each file checked to be whole LZF chunks and
capped before anything is sent, and another hub's cloud backup restored only as a migration,
over the emulated hub.

Moved from tests/tools/test_backups.py and tests/tools/test_backups_upload.py (the backup
logic is the managers'; the tools' confirmation and backup gates, the backup name checks,
the local-URL option, which arguments belong to which location, the advice naming
hub_get_health_report and migrate_from_other_hub, the call's own time bound, the audit trail
keeping the size of a base64 file, not its bytes, stay there; the parsing of the hub's
recorded backup answers is the library's: tests/hub/test_backups.py)."""

from __future__ import annotations

import base64
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.backups import CloudRestoreParts
from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.managers import backup_cloud
from custom_components.hubitat_dev_tools.managers.backup_cloud import (
    UPLOAD_MAX_BYTES,
    lzf_problem,
    url_file_name,
)
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.backups_cloud_state import OTHER_HUB_UID, lzf_chunks

from ..conftest import sent_since
from ..helpers.backups import fail_the_restore
from ..loopback_host import LoopbackHost, serving
from ..ops_util import wait_for_status

CALL_S = 57.0  # what a tool call leaves the manager (its deadline less 3 s)
# what a restore sends to the hub (the current-state backup, the upload, the restore)
CHANGES = ("backupDB", "uploadBackup", "estore")
BACKUP = lzf_chunks(b"-- H2 0.5/B --" + bytes(range(256)) * 300)  # two stored chunks
NO_PARTS = CloudRestoreParts(zigbee=False, zwave=False, files=False)


def deadline(seconds: float = CALL_S) -> float:
    return time.monotonic() + seconds


def changes(emu: HubEmulator, before: int) -> list[str]:
    return [p for _m, p in sent_since(emu, before) if any(c in p for c in CHANGES)]


async def allow_any(url: str) -> None:
    """A URL check that lets every URL through (the tool's check is tested there)."""


@pytest.fixture
async def file_host(socket_enabled: None) -> AsyncIterator[LoopbackHost]:
    """Backup files, looked up as their URL spells them (%20 kept)."""
    async with serving(LoopbackHost(raw_paths=True)) as host:
        yield host


@pytest.fixture
async def downloads(manager_hub: Hub) -> AsyncIterator[Hub]:
    """The managers with a session for downloads (the integration gives them Home
    Assistant's, which checks certificates)."""
    async with aiohttp.ClientSession() as session:
        manager_hub.code.use_download_session(session)
        yield manager_hub


# ---------------------------------------------------------------------- local backups


async def test_list_and_create_backups(emu: HubEmulator, manager_hub: Hub) -> None:
    backups = manager_hub.backups
    data = await backups.list()
    assert data["count"] == 1
    seeded = data["backups"][0]
    assert seeded["name"] == emu.backups[0].name and seeded["size_bytes"] > 0
    assert 29 < seeded["age_hours"] < 31 and seeded["fresh_for_destructive"] is False
    assert data["destructive_tier_satisfied"] is False
    assert (
        data["schedule"]["localBackupFrequency"] == 1 and "backupPassword" not in data["schedule"]
    )
    made = await backups.create(deadline())
    assert made["verified"] is True and made["backup"]["name"] in [b.name for b in emu.backups]
    data = await backups.list()
    assert data["count"] == 2 and data["backups"][0]["fresh_for_destructive"] is True
    assert data["backups"][0]["name"] == made["backup"]["name"]
    assert data["destructive_tier_satisfied"] is True and data["backup_in_progress"] is False


async def test_delete_backup_checked_to_exist_and_re_listed(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    backups = manager_hub.backups
    old = emu.backups[0].name
    await backups.create(deadline())
    with pytest.raises(ToolError, match=r"no local backup named 'nope\.lzf'") as missing:
        await backups.delete("nope.lzf")
    assert missing.value.code == "not_found"
    assert not [p for _m, p in emu.requests if "deleteLocalBackup" in p]
    data = await backups.delete(old)
    assert data["remaining"] == 1 and data["summary"] == f"Deleted hub backup {old}"
    assert data["deleted"]["name"] == old
    assert [p for _m, p in emu.requests if "deleteLocalBackup" in p] != []
    assert old not in [b.name for b in emu.backups] and len(emu.backups) == 1


async def test_restore_backs_up_the_current_state_and_reboots(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.2
    backup = emu.mark_backup_now()
    listed = len(emu.backups)
    data = await manager_hub.backups.restore(backup.name, deadline())
    assert data["rebooting"] is True and "reboot" in data["note"] and data["status"] == "done"
    assert data["restored"]["name"] == backup.name
    # the current state was backed up first: one more backup on the hub's list
    assert data["current_state_backup"]["name"] in [b.name for b in emu.backups]
    assert len(emu.backups) == listed + 1
    assert [p for _m, p in emu.requests if "restoreLocalBackup" in p] != []
    # the hub goes away, then comes back
    await wait_for_status(emu, "down")
    await wait_for_status(emu, "running", timeout=5)


async def test_a_restore_longer_than_the_time_left_is_in_progress_not_retried(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    # The hub answers a restore only when it has ended (hub UI, the on-hub server): here it takes
    # longer than the time left (a tool call of 5 s leaves the manager 2 s).
    emu.ops.local_restore_s = 6.0
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.2
    backup = emu.mark_backup_now()
    start, began = len(emu.requests), time.monotonic()
    data = await manager_hub.backups.restore(backup.name, deadline(2.0))
    assert time.monotonic() - began < 5.0
    assert data["status"] == "in_progress" and "rebooting" not in data
    assert data["restored"]["name"] == backup.name and data["current_state_backup"]["name"]
    assert "still restoring" in data["summary"] and "Do not restore again" in data["pending"]
    # one restore request, never resent; the hub goes on restoring, then reboots
    restores = [p for _m, p in emu.requests[start:] if p.startswith("/hub2/restoreLocalBackup")]
    assert len(restores) == 1 and emu.status == "running"
    await wait_for_status(emu, "down", timeout=8)
    await wait_for_status(emu, "running", timeout=5)
    assert [p for _m, p in emu.requests[start:] if "restoreLocalBackup" in p] == restores


async def test_restore_refused_by_hub(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    backups = manager_hub.backups
    emu.mark_backup_now()
    with pytest.raises(ToolError) as missing:
        await backups.restore("missing.lzf", deadline())
    assert missing.value.code == "not_found"
    assert not [p for _m, p in emu.requests if "restoreLocalBackup" in p]
    # the hub answering 500 to the restore is a hub error (the tool answers it with a hint)
    name = fail_the_restore(emu, monkeypatch)
    with pytest.raises(HubError) as failed:
        await backups.restore(name, deadline())
    assert failed.value.code == "hub_bad_response" and emu.status == "running"
    assert [p for _m, p in emu.requests if "restoreLocalBackup" in p] != []


# ---------------------------------------------------------------------- a file not on the hub yet
# Moved from tests/tools/test_backups_upload.py.


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
    emu: HubEmulator, manager_hub: Hub, file_host: LoopbackHost
) -> None:
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.2
    cloud = manager_hub.cloud_backups
    url = file_host.add("/backups/Old_Hub.lzf", BACKUP)
    before = len(sent_since(emu))
    # never the hub's session (it checks no certificate): without one, nothing is fetched
    with pytest.raises(ToolError) as no_session:
        await cloud.restore_from_url(url, allow_any, None, deadline())
    assert no_session.value.code == "source_unavailable"
    # a URL the check refuses is not downloaded
    refusals: list[str] = []

    async def refuse(asked: str) -> None:
        refusals.append(asked)
        raise ToolError("Not downloading from a local address.", code="url_not_allowed")

    async with aiohttp.ClientSession() as session:
        with pytest.raises(ToolError) as refused:
            await cloud.restore_from_url(url, refuse, session, deadline())
        assert refused.value.code == "url_not_allowed" and refusals == [url]
        assert file_host.hits == [] and changes(emu, before) == []
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
            with pytest.raises(ToolError) as failed:
                await cloud.restore_from_url(bad, allow_any, session, deadline())
            assert failed.value.code == code, (bad, failed.value)
            assert "Nothing was changed" in str(failed.value)
        assert changes(emu, before) == [] and emu.cloud.restored_uploads == []
        assert "/page.lzf" in file_host.hits  # the redirect was followed (and checked)
        checked: list[str] = []

        async def check(asked: str) -> None:
            checked.append(asked)

        data = await cloud.restore_from_url(url, check, session, deadline())
    assert checked == [url]
    assert data["status"] == "done" and data["rebooting"] is True
    assert data["restored"] == {
        "file_name": "Old_Hub.lzf",
        "size_bytes": len(BACKUP),
        "source_url": url,
    }
    assert data["current_state_backup"]["name"].endswith(".lzf")
    # the hub got exactly these bytes, in the uploader's form, after the current-state backup
    assert emu.cloud.restored_uploads == [("Old_Hub.lzf", BACKUP)]
    sent = changes(emu, before)
    assert sent[0].startswith("/hub/backupDB") and sent[1:] == [
        "/hub2/uploadBackup",
        "/hub2/restoreUploadedBackup",
    ]
    await wait_for_status(emu, "down")
    await wait_for_status(emu, "running", timeout=5)


async def test_restore_from_url_too_large_is_refused_while_downloading(
    emu: HubEmulator,
    downloads: Hub,
    file_host: LoopbackHost,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(backup_cloud, "UPLOAD_MAX_BYTES", 10_000)
    url = file_host.add("/big.lzf", lzf_chunks(bytes(20_000)))
    before = len(sent_since(emu))
    with pytest.raises(ToolError, match="larger than 10000 bytes") as refused:
        await downloads.cloud_backups.restore_from_url(
            url, allow_any, downloads.code.download_session, deadline()
        )
    assert refused.value.code == "source_unavailable"
    assert changes(emu, before) == [] and emu.cloud.restored_uploads == []


async def test_restore_from_base64_bytes(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.2
    cloud = manager_hub.cloud_backups
    encoded = base64.b64encode(BACKUP).decode()
    before = len(sent_since(emu))
    for bad, word in (
        ("not base64!!", "not valid base64"),
        (base64.b64encode(b"PK\x03\x04 a zip file").decode(), "not a hub backup file"),
    ):
        with pytest.raises(ToolError, match=word) as refused:
            await cloud.restore_from_bytes(bad, deadline())
        assert refused.value.code == "invalid_arguments"
    assert changes(emu, before) == [] and emu.cloud.restored_uploads == []
    # line breaks (as base64 tools wrap it) are fine
    wrapped = "\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))
    data = await cloud.restore_from_bytes(wrapped, deadline())
    assert data["restored"]["size_bytes"] == len(BACKUP) and data["restored"]["content_base64"]
    assert data["restored"]["file_name"] == "uploaded.lzf" and data["rebooting"] is True
    assert emu.cloud.restored_uploads == [("uploaded.lzf", BACKUP)]
    await wait_for_status(emu, "down")
    await wait_for_status(emu, "running", timeout=5)


async def test_base64_over_the_cap_is_refused_before_decoding(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(backup_cloud, "UPLOAD_MAX_BYTES", 3_000)
    big = base64.b64encode(lzf_chunks(bytes(5_000))).decode()
    before = len(sent_since(emu))
    with pytest.raises(ToolError, match="3000 bytes") as refused:
        await manager_hub.cloud_backups.restore_from_bytes(big, deadline())
    assert refused.value.code == "invalid_arguments" and changes(emu, before) == []
    assert UPLOAD_MAX_BYTES == 25 * 1024 * 1024


async def test_another_hubs_cloud_backup_is_restored_only_as_a_migration(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.2
    cloud = manager_hub.cloud_backups
    mine, other = (b.path for b in emu.cloud.backups)
    assert other.startswith(OTHER_HUB_UID)
    before = len(sent_since(emu))
    with pytest.raises(ToolError, match="another hub") as not_asked:
        await cloud.restore(other, NO_PARTS, "", emu.hub_uid, deadline())
    assert not_asked.value.code == "invalid_arguments"
    # the flag is for another hub's backups only
    with pytest.raises(ToolError, match="this hub's own") as own:
        await cloud.restore(mine, NO_PARTS, "", emu.hub_uid, deadline(), migrate=True)
    assert own.value.code == "invalid_arguments"
    # an account without cloud restores is refused before anything is sent
    emu.cloud.restore_entitled = False
    with pytest.raises(ToolError, match="restore") as no_sub:
        await cloud.restore(other, NO_PARTS, "", emu.hub_uid, deadline(), migrate=True)
    assert no_sub.value.code == "invalid_arguments"
    emu.cloud.restore_entitled = True
    assert changes(emu, before) == [] and emu.cloud.last_restore == {}
    data = await cloud.restore(other, NO_PARTS, "", emu.hub_uid, deadline(), migrate=True)
    assert data["migrated_from"]["hub_name"] == "Garage Hub" and data["rebooting"] is True
    assert "Garage Hub" in data["summary"] and data["restored"]["this_hub"] is False
    # the same request as the hub UI's Migrate button, after a backup of this hub's state
    assert emu.cloud.last_restore["fileName"] == other
    assert emu.cloud.last_restore["restoreZw"] == "false"
    sent = changes(emu, before)
    assert sent[0].startswith("/hub/backupDB") and sent[1].startswith("/hub2/restoreCloudBackup")
    await wait_for_status(emu, "down")
    await wait_for_status(emu, "running", timeout=5)


async def test_an_upload_restore_longer_than_the_time_left_is_in_progress_not_retried(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.cloud.upload_restore_s = 6.0
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.2
    start = len(emu.requests)
    encoded = base64.b64encode(BACKUP).decode()
    data = await manager_hub.cloud_backups.restore_from_bytes(encoded, deadline(2.0))
    assert data["status"] == "in_progress" and "rebooting" not in data
    assert "Do not restore again" in data["pending"] and data["current_state_backup"]["name"]
    assert data["restored"]["size_bytes"] == len(BACKUP)
    restores = [p for _m, p in emu.requests[start:] if "restoreUploadedBackup" in p]
    assert len(restores) == 1 and emu.status == "running"
    await wait_for_status(emu, "down", timeout=8)
    await wait_for_status(emu, "running", timeout=5)
    assert [p for _m, p in emu.requests[start:] if "restoreUploadedBackup" in p] == restores
