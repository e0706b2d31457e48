"""The library's backup functions (``hub/backups.py``) on their own, no hass: the local
backup list read from the hub's recorded answer (and the on-hub server's sample with its
other date forms), the backup status, a delete and a restore answered in the recorded
shapes, the cloud backup list read from its recorded answer (an entry without a path left
out), and the emulated hub answering a local delete and restore and a cloud backup trigger
in the recorded shapes.

Moved from tests/tools/test_backups.py (test_backup_fixtures_parse,
test_backup_delete_and_restore_answers_have_the_hub_ui_shape: the backup tools called by
name, the confirmation and backup gates, the backup name checks and the advice stay there)
and tests/tools/test_backups_cloud.py (test_cloud_fixtures_parse_and_match_the_emulator: the
cloud tools' gates, locations, arguments and the password kept out of answers stay there).
The backup managers' logic is tested in tests/managers/test_backups.py and
tests/managers/test_backup_cloud.py."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import aiohttp

from custom_components.hubitat_dev_tools.hub.backups import (
    delete_local_backup,
    fetch_backup_status,
    parse_cloud_backups,
    parse_local_backups,
    restore_local_backup,
)
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape, load_fixture
from ..fixture_client import fixture_client

# ------------------------------------------------------------------ local backups


async def test_backup_fixtures_parse() -> None:
    backups = parse_local_backups(load_fixture("backups/local_backups").answer)
    assert [b.name for b in backups] == ["2026-06-01~02-00~2.5.0.143.lzf"]
    assert backups[0].created == datetime(2026, 6, 1, 8, 0, tzinfo=UTC)
    assert backups[0].size == 19758881
    # the on-hub server's sample: createTimeOrig without an offset (read as UTC), a date-only
    # createTime
    kp = [
        {"name": "local-1.lzf", "createTime": "2026-06-01", "createTimeOrig": "2026-06-01T00:00:00"}
    ]
    assert parse_local_backups(kp)[0].created == datetime(2026, 6, 1, tzinfo=UTC)
    status = await fetch_backup_status(fixture_client("backups/backup_status"))
    assert status == {"backupInProgress": False, "cloudBackupInProgress": False}
    assert await delete_local_backup(fixture_client("backups/backup_delete"), "x.lzf") is True
    await restore_local_backup(fixture_client("backups/backup_restore"), "x.lzf")


async def test_backup_delete_and_restore_answers_have_the_hub_ui_shape(hub: HubEmulator) -> None:
    name = hub.mark_backup_now().name
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{hub.url}/hub2/deleteLocalBackup", params={"fileName": name}) as r:
            assert_same_shape("backups/backup_delete", json.loads(await r.text()))
        other = hub.mark_backup_now().name
        hub.server.reboot_downtime = 0.05
        async with session.get(
            f"{hub.url}/hub2/restoreLocalBackup", params={"fileName": other}
        ) as r:
            assert_same_shape("backups/backup_restore", json.loads(await r.text()))


# ------------------------------------------------------------------ cloud backups


async def test_cloud_fixtures_parse_and_match_the_emulator(hub: HubEmulator) -> None:
    fixture = load_fixture("backups/cloud_backups")
    listing = parse_cloud_backups(fixture.answer)
    assert [b.path for b in listing.backups] == [
        "0b7e5f1c-1111-4222-8333-944455556666/2026-11-30-030012.lzf",
        "0b7e5f1c-1111-4222-8333-944455556666/2026-11-23-030007.lzf",
    ]
    assert listing.backups[0].has_zwave is True and listing.backup_entitled is True
    assert parse_cloud_backups([{"path": "a"}, {"no": "path"}]).backups[0].path == "a"
    url = f"{hub.url}/hub/cloud/triggerBackupWithStatus"
    async with aiohttp.ClientSession() as session, session.get(url) as r:
        assert_same_shape("backups/cloud_trigger", json.loads(await r.text()))
