"""The cloud backup manager (``managers/backup_cloud.py``) on its own, no hass: the cloud
backups listed with this hub's marked, one made and one deleted (each decided by the cloud
list), a cloud backup and a File Manager backup file restored after a backup of the current
state, and the backup schedule read-merged and read back, over the emulated hub.

Moved from tests/tools/test_backups_cloud.py (the backup logic is the manager's; the tools'
confirmation and backup gates, which location each call goes to, the restore arguments
that belong to one location, the password kept out of the audit trail and the log, and the
parsing of the hub's recorded answers stay there)."""

from __future__ import annotations

import json
import time

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.backups import CloudRestoreParts
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.backups_cloud_state import lzf_chunks

from ..ops_util import wait_for_status

SECRET = "correct horse battery"
CALL_S = 57.0  # what a tool call leaves the manager (its deadline less 3 s)


def deadline() -> float:
    return time.monotonic() + CALL_S


def paths(emu: HubEmulator) -> list[str]:
    return [b.path for b in emu.cloud.backups if b.deleted_at is None]


async def test_cloud_backups_listed_with_this_hub_marked(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    data = await manager_hub.cloud_backups.listing(emu.hub_uid)
    assert data["count"] == 2 and data["backup_entitled"] is True
    mine, other = data["backups"]
    assert mine["this_hub"] is True and other["this_hub"] is False
    assert mine["path"].startswith(emu.hub_uid) and other["hub_name"] == "Garage Hub"
    assert mine["created"].endswith("+00:00") and 23 < mine["age_hours"] < 25
    assert other["has_zwave"] is False


async def test_create_cloud_backup_is_verified_by_the_list(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    cloud = manager_hub.cloud_backups
    data = await cloud.create(emu.hub_uid, deadline())
    assert data["verified"] is True and data["backup"]["this_hub"] is True
    assert data["backup"]["path"] in paths(emu) and len(paths(emu)) == 3
    emu.cloud.fail_parts = {"upload"}
    with pytest.raises(ToolError, match="upload") as failed:
        await cloud.create(emu.hub_uid, deadline())
    assert failed.value.code == "hub_bad_response" and len(paths(emu)) == 3


async def test_delete_cloud_backup_only_this_hubs_and_checked(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    cloud = manager_hub.cloud_backups
    mine, other = paths(emu)
    before = len(emu.requests)
    with pytest.raises(ToolError, match="another hub") as foreign:
        await cloud.delete(other, emu.hub_uid)
    assert foreign.value.code == "invalid_arguments"
    with pytest.raises(ToolError) as missing:
        await cloud.delete("nope/x.lzf", emu.hub_uid)
    assert missing.value.code == "not_found"
    assert not [p for _m, p in emu.requests[before:] if "deleteCloudBackup" in p]
    emu.cloud.delete_lag_s = 1.0  # the cloud list still shows it for a second
    data = await cloud.delete(mine, emu.hub_uid)
    assert data["deleted"]["path"] == mine and data["remaining"] == 1
    assert paths(emu) == [other]


async def test_restore_cloud_backup_needs_its_password_and_reboots(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.2
    emu.cloud.password = SECRET
    cloud = manager_hub.cloud_backups
    made = await cloud.create(emu.hub_uid, deadline())
    path = made["backup"]["path"]
    zigbee = CloudRestoreParts(zigbee=True, zwave=False, files=False)
    with pytest.raises(ToolError, match="password") as wrong:
        await cloud.restore(path, zigbee, "guess", emu.hub_uid, deadline())
    assert wrong.value.code == "hub_bad_response"
    assert "guess" not in f"{wrong.value} {wrong.value.hint}"
    assert emu.status == "running"
    # another hub's backup is a migration
    other = paths(emu)[1]
    with pytest.raises(ToolError) as foreign:
        await cloud.restore(other, zigbee, "", emu.hub_uid, deadline())
    assert foreign.value.code == "invalid_arguments"
    data = await cloud.restore(path, zigbee, SECRET, emu.hub_uid, deadline())
    assert data["rebooting"] is True and "zigbee" in data["summary"]
    assert data["current_state_backup"]["name"].endswith(".lzf")
    assert emu.cloud.last_restore["restoreZb"] == "true"
    assert emu.cloud.last_restore["restoreZw"] == "false"
    assert emu.cloud.last_restore["fileName"] == path
    assert SECRET not in json.dumps(data)
    await wait_for_status(emu, "down")
    await wait_for_status(emu, "running", timeout=5)


async def test_restore_uploaded_file_from_the_file_manager(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.reboot_downtime = 0.3
    emu.reboot_starting_time = 0.2
    cloud = manager_hub.cloud_backups
    with pytest.raises(ToolError) as not_lzf:
        await cloud.restore_uploaded("x.txt", deadline())
    assert not_lzf.value.code == "invalid_arguments"
    with pytest.raises(ToolError) as gone:
        await cloud.restore_uploaded("gone.lzf", deadline())
    assert gone.value.code == "not_found"
    emu.files.write("broken.lzf", b"not a backup")
    before = len(emu.requests)
    with pytest.raises(ToolError, match="not a hub backup file"):
        await cloud.restore_uploaded("broken.lzf", deadline())
    assert emu.status == "running"
    # refused before anything was sent: no backup of the current state, no upload
    changes = ("backupDB", "uploadBackup", "estore")
    assert not [p for _m, p in emu.requests[before:] if any(c in p for c in changes)]
    emu.files.write("old-hub.lzf", lzf_chunks(bytes(4096)))
    data = await cloud.restore_uploaded("old-hub.lzf", deadline())
    assert data["rebooting"] is True and data["restored"]["size_bytes"] == 4101
    assert data["restored"]["file_name"] == "old-hub.lzf"
    posted = [p for m, p in emu.requests if m == "POST" and p == "/hub2/uploadBackup"]
    assert len(posted) == 1
    assert emu.cloud.restored_uploads == [("old-hub.lzf", lzf_chunks(bytes(4096)))]
    await wait_for_status(emu, "down")
    await wait_for_status(emu, "running", timeout=5)


async def test_backup_schedule_update_is_read_merged_and_read_back(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    cloud = manager_hub.cloud_backups
    data = await cloud.update_schedule(
        local_frequency=None, cloud_frequency=None, at="02:30", password=None
    )
    assert data["schedule"] == {
        "local_frequency_days": 1,
        "cloud_frequency_days": 0,
        "time": "02:30",
        "cloud_backup_entitled": True,
    }
    assert data["before"]["time"] == "03:00"
    assert (emu.cloud.hour, emu.cloud.minute, emu.cloud.local_frequency) == (2, 30, 1)
    before = len(emu.requests)
    with pytest.raises(ToolError, match="local_frequency_days") as every_four:
        await cloud.update_schedule(local_frequency=4, cloud_frequency=None, at=None, password=None)
    assert every_four.value.code == "invalid_arguments"
    with pytest.raises(ToolError, match="HH:MM") as late:
        await cloud.update_schedule(
            local_frequency=None, cloud_frequency=None, at="25:00", password=None
        )
    assert late.value.code == "invalid_arguments"
    # cloud backups on: the hub does not give the password back, so it must be passed
    with pytest.raises(ToolError) as denied:
        await cloud.update_schedule(local_frequency=None, cloud_frequency=7, at=None, password=None)
    assert denied.value.code == "invalid_arguments"
    assert "cloud_backup_password" in str(denied.value.hint)
    assert not [p for m, p in emu.requests[before:] if m == "POST"]
    data = await cloud.update_schedule(
        local_frequency=None, cloud_frequency=7, at=None, password=SECRET
    )
    assert data["schedule"]["cloud_frequency_days"] == 7 and emu.cloud.password == SECRET
    assert SECRET not in json.dumps(data)
    # a hub that reads the password back (the hub UI reads it) keeps it without asking
    emu.cloud.expose_password = True
    await cloud.update_schedule(local_frequency=14, cloud_frequency=None, at=None, password=None)
    assert emu.cloud.password == SECRET and emu.cloud.local_frequency == 14
    listed = await manager_hub.backups.list()
    assert "backupPassword" not in listed["schedule"]
    assert SECRET not in json.dumps(listed)
