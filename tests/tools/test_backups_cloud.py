"""Cloud backups, uploaded-backup restores and the backup schedule (hub_*_backup tools).

The tools' part is here: the confirmation and backup gates, which location each call goes
to, the arguments handed on and refused, the restore arguments that belong to one location,
the password kept out of answers, the audit trail and the log. The cloud list, a cloud
backup made, deleted and restored, the restore of a File Manager backup file and the
schedule read-merged and read back are tested without hass in
tests/managers/test_backup_cloud.py; the parsing of the hub's recorded cloud answers and the
emulated hub's cloud backup trigger answer in tests/hub/test_backups.py."""

from __future__ import annotations

import json

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.backups_cloud_state import lzf_chunks

from ..conftest import ToolCaller, ok, refused, sent_since
from ..ops_util import wait_for_status

SECRET = "correct horse battery"


def _paths(hub: HubEmulator) -> list[str]:
    return [b.path for b in hub.cloud.backups if b.deleted_at is None]


async def test_cloud_backups_listed_with_this_hub_marked(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: location picks the list, this hub is the entry's (the cloud list
    itself: tests/managers/test_backup_cloud.py)."""
    data = await ok(call_tool, "hub_list_backups", {"location": "cloud"})
    assert data["count"] == 2 and data["backup_entitled"] is True
    mine, other = data["backups"]
    assert mine["this_hub"] is True and other["this_hub"] is False
    assert mine["path"].startswith(hub.hub_uid)
    # the local list is unchanged by default
    local = await ok(call_tool, "hub_list_backups")
    assert "backups" in local and all("path" not in b for b in local["backups"])


async def test_create_cloud_backup_is_verified_by_the_list(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: location='cloud' makes a cloud backup, not a local one (verified by
    the list, and a failed one: tests/managers/test_backup_cloud.py)."""
    local = len(hub.backups)
    data = await ok(call_tool, "hub_create_backup", {"location": "cloud"})
    assert data["verified"] is True and data["backup"]["this_hub"] is True
    assert data["backup"]["path"] in _paths(hub) and len(_paths(hub)) == 3
    assert len(hub.backups) == local


async def test_delete_cloud_backup_only_this_hubs_and_checked(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the destructive tier's gates and location='cloud' (which backups may
    go, read back: tests/managers/test_backup_cloud.py)."""
    mine, other = _paths(hub)
    args = {"file_name": mine, "location": "cloud", "confirm": True}
    await refused(call_tool, "hub_delete_backup", args, "backup_required")
    await ok(call_tool, "hub_create_backup")  # the destructive tier's fresh local backup
    before = len(sent_since(hub))
    data = await refused(
        call_tool,
        "hub_delete_backup",
        {"file_name": other, "location": "cloud", "confirm": True},
        "invalid_arguments",
    )
    assert "another hub" in data["message"]
    assert not [p for _m, p in sent_since(hub, before) if "deleteCloudBackup" in p]
    data = await ok(call_tool, "hub_delete_backup", args)
    assert data["deleted"]["path"] == mine and data["remaining"] == 1
    assert _paths(hub) == [other]


async def test_restore_cloud_backup_needs_its_password_and_reboots(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    caplog: pytest.LogCaptureFixture,
) -> None:
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    hub.cloud.password = SECRET
    made = await ok(call_tool, "hub_create_backup", {"location": "cloud"})
    path = made["backup"]["path"]
    await ok(call_tool, "hub_create_backup")
    args = {"file_name": path, "location": "cloud", "confirm": True}
    wrong = await refused(
        call_tool, "hub_restore_backup", {**args, "backup_password": "guess"}, "hub_bad_response"
    )
    assert "password" in wrong["message"] and "guess" not in json.dumps(wrong)
    assert hub.status == "running"
    data = await ok(
        call_tool, "hub_restore_backup", {**args, "backup_password": SECRET, "restore_zigbee": True}
    )
    assert data["rebooting"] is True and "zigbee" in data["summary"]
    assert hub.cloud.last_restore["restoreZb"] == "true"
    assert hub.cloud.last_restore["fileName"] == path
    await wait_for_status(hub, "down")
    await wait_for_status(hub, "running", timeout=5)
    # the password never reaches the audit trail or the log
    audit = await ok(call_tool, "hub_list_audit_entries", {"limit": 50})
    assert SECRET not in json.dumps(audit) and "guess" not in json.dumps(audit)
    assert SECRET not in caplog.text


async def test_cloud_only_restore_options_are_refused_elsewhere(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await ok(call_tool, "hub_create_backup")
    before = len(sent_since(hub))
    await refused(
        call_tool,
        "hub_restore_backup",
        {"file_name": hub.backups[0].name, "restore_zwave": True, "confirm": True},
        "invalid_arguments",
    )
    assert not [p for _m, p in sent_since(hub, before) if "estore" in p or "backupDB" in p]
    await refused(
        call_tool,
        "hub_restore_backup",
        {"file_name": f"{hub.hub_uid}/x.lzf", "confirm": True},
        "invalid_arguments",
    )


async def test_restore_uploaded_file_from_the_file_manager(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: location='uploaded' with a file_name restores that File Manager
    file (the file checked, uploaded and restored: tests/managers/test_backup_cloud.py)."""
    hub.reboot_downtime = 0.3
    hub.reboot_starting_time = 0.2
    await ok(call_tool, "hub_create_backup")
    args = {"location": "uploaded", "confirm": True}
    not_lzf = {**args, "file_name": "x.txt"}
    await refused(call_tool, "hub_restore_backup", not_lzf, "invalid_arguments")
    hub.files.write("old-hub.lzf", lzf_chunks(bytes(4096)))
    data = await ok(call_tool, "hub_restore_backup", {**args, "file_name": "old-hub.lzf"})
    assert data["rebooting"] is True and data["restored"]["file_name"] == "old-hub.lzf"
    assert "hub_get_health_report" in data["note"]
    assert hub.cloud.restored_uploads == [("old-hub.lzf", lzf_chunks(bytes(4096)))]
    await wait_for_status(hub, "down")
    await wait_for_status(hub, "running", timeout=5)


async def test_backup_schedule_update_is_read_merged_and_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its arguments handed on and refused, the password in no answer (the
    schedule read-merged and read back: tests/managers/test_backup_cloud.py)."""
    data = await ok(call_tool, "hub_update_backup_schedule", {"time": "02:30"})
    assert data["schedule"]["time"] == "02:30" and data["before"]["time"] == "03:00"
    before = len(sent_since(hub))
    for bad in ({"local_frequency_days": 4}, {"time": "25:00"}, {}):
        await refused(call_tool, "hub_update_backup_schedule", bad, "invalid_arguments")
    denied = await refused(
        call_tool, "hub_update_backup_schedule", {"cloud_frequency_days": 7}, "invalid_arguments"
    )
    assert "cloud_backup_password" in denied["hint"]
    assert not [p for m, p in sent_since(hub, before) if m == "POST"]
    data = await ok(
        call_tool,
        "hub_update_backup_schedule",
        {"cloud_frequency_days": 7, "cloud_backup_password": SECRET},
    )
    assert data["schedule"]["cloud_frequency_days"] == 7 and hub.cloud.password == SECRET
    assert SECRET not in json.dumps(data)
    hub.cloud.expose_password = True  # the hub reads it back: the call need not pass it
    await ok(call_tool, "hub_update_backup_schedule", {"local_frequency_days": 14})
    assert hub.cloud.local_frequency == 14
    listed = await ok(call_tool, "hub_list_backups")
    assert "backupPassword" not in listed["schedule"]
    assert SECRET not in json.dumps(listed)
