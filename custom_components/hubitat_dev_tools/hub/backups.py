"""Hub database backup endpoints: local and cloud backups, uploads, the schedule.

Everything here is what the hub UI's Backup and Restore page sends (``vue-hub2.min.js``);
the on-hub server's backup library (``mcp-item-backups-lib.groovy``) calls the same endpoints.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .answers import require_success
from .client import HubClient
from .files import upload_form
from .models import dict_list, parse_hub_time


@dataclass(slots=True)
class Backup:
    """One local backup file."""

    name: str
    created: datetime | None
    size: int | None


def parse_local_backups(data: Any) -> list[Backup]:
    """A ``/hub2/localBackups`` answer (``[{name, createTime, createTimeOrig, size}]``),
    newest first; entries without a name are skipped."""
    out: list[Backup] = []
    for item in dict_list(data):
        if item.get("name"):
            size = item.get("size")
            out.append(
                Backup(
                    name=str(item["name"]),
                    created=parse_hub_time(item.get("createTimeOrig") or item.get("createTime")),
                    size=int(size) if isinstance(size, int | float) else None,
                )
            )
    out.sort(key=lambda b: b.created or datetime.min.replace(tzinfo=UTC), reverse=True)
    return out


async def fetch_local_backups(client: HubClient) -> list[Backup]:
    """Local backups, newest first."""
    return parse_local_backups(await client.get_json("/hub2/localBackups"))


async def fetch_backup_status(client: HubClient) -> dict[str, Any]:
    """``{"backupInProgress": bool, "cloudBackupInProgress": bool}``."""
    data = await client.get_json("/hub/backup/statusJson")
    return data if isinstance(data, dict) else {}


async def fetch_backup_settings(client: HubClient) -> dict[str, Any]:
    """``/hub2/backup/json`` as the hub answers it, ``backupPassword`` included (the on-hub server
    reads it back as null; the hub UI reads it): only for echoing it into a schedule update."""
    data = await client.get_json("/hub2/backup/json")
    return data if isinstance(data, dict) else {}


def public_schedule(settings: dict[str, Any]) -> dict[str, Any]:
    """The schedule settings with every password key left out."""
    return {k: v for k, v in settings.items() if "password" not in k.lower()}


async def fetch_backup_schedule(client: HubClient) -> dict[str, Any]:
    """The automatic backup schedule (``/hub2/backup/json``), the password left out."""
    return public_schedule(await fetch_backup_settings(client))


async def update_backup_schedule(
    client: HubClient,
    *,
    local_frequency: int,
    cloud_frequency: int,
    hour: int,
    minute: int,
    password: str,
) -> None:
    """``POST /hub2/updateBackupSchedule``: the whole schedule, as the hub UI's drawer sends
    it (a JSON text body; the read side names the time ``databaseCleanupTimeHour`` /
    ``databaseCleanupJobMinute``). The caller reads it back."""
    body = {
        "localBackupFrequency": local_frequency,
        "cloudBackupFrequency": cloud_frequency,
        "hour": hour,
        "minute": minute,
        "cloudBackupPassword": password,
    }
    await client.request(
        "POST",
        "/hub2/updateBackupSchedule",
        data=json.dumps(body),
        expect="any",
        retry=False,
        what="update the backup schedule",
    )


@dataclass(slots=True)
class CloudBackup:
    """One cloud backup (``/hub2/cloudBackups`` ``backups[]``); ``path`` identifies it."""

    path: str
    created: datetime | None
    hub_uid: str | None
    hub_name: str | None
    hub_model: str | None  # the hub's "hubVersion" (e.g. C-8)
    platform: str | None
    size: Any
    has_zigbee: bool
    has_zwave: bool
    hub_protect: bool


@dataclass(slots=True)
class CloudListing:
    """The cloud backup list and what the hub's account may do with it."""

    backups: list[CloudBackup]
    message: str | None
    backup_entitled: bool | None
    restore_entitled: bool | None


def _opt_str(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None


def parse_cloud_backups(data: Any) -> CloudListing:
    """A ``/hub2/cloudBackups`` answer (``{backups: [...], message, hasCloud...Entitlements}``),
    newest first; entries without a ``path`` are skipped; a bare array is accepted too."""
    body = data if isinstance(data, dict) else {"backups": data}
    out: list[CloudBackup] = []
    for item in dict_list(body.get("backups")):
        if not item.get("path"):
            continue
        out.append(
            CloudBackup(
                path=str(item["path"]),
                created=parse_hub_time(item.get("createTimeOrig") or item.get("createTime")),
                hub_uid=_opt_str(item.get("hubUID")),
                hub_name=_opt_str(item.get("hubName")),
                hub_model=_opt_str(item.get("hubVersion")),
                platform=_opt_str(item.get("platformVersion")),
                size=item.get("fileSize"),
                has_zigbee=item.get("hasZigbee") is True,
                has_zwave=item.get("hasZWave") is True,
                hub_protect=item.get("hubProtect") is True,
            )
        )
    out.sort(key=lambda b: b.created or datetime.min.replace(tzinfo=UTC), reverse=True)

    def flag(key: str) -> bool | None:
        value = body.get(key)
        return value if isinstance(value, bool) else None

    return CloudListing(
        backups=out,
        message=_opt_str(body.get("message")),
        backup_entitled=flag("hasCloudBackupEntitlements"),
        restore_entitled=flag("hasCloudRestoreEntitlements"),
    )


async def fetch_cloud_backups(client: HubClient, *, reload: bool = False) -> CloudListing:
    """The hub's cloud backups (the hub asks the cloud; ``reload`` as the page's refresh)."""
    data = await client.get_json(
        "/hub2/cloudBackups",
        params={"reload": "true" if reload else "false"},
        what="list cloud backups",
    )
    return parse_cloud_backups(data)


async def trigger_cloud_backup(client: HubClient, *, timeout: float) -> dict[str, Any]:
    """Make a cloud backup now (``/hub/cloud/triggerBackupWithStatus?migration=false``):
    ``{status, database, zigbee, zwave, fileManager, upload}`` booleans per part."""
    data = await client.request(
        "GET",
        "/hub/cloud/triggerBackupWithStatus",
        params={"migration": "false"},
        expect="any",
        timeout=timeout,
        retry=False,
        what="make a cloud backup",
    )
    return data if isinstance(data, dict) else {}


async def delete_cloud_backup(client: HubClient, path: str) -> None:
    """Delete one cloud backup by its ``path`` (the caller re-lists to check)."""
    await client.request(
        "GET",
        "/hub2/deleteCloudBackup",
        params={"path": path},
        expect="any",
        retry=False,
        what="delete the cloud backup",
    )


@dataclass(frozen=True, slots=True)
class CloudRestoreParts:
    """What a cloud restore puts back besides the database (all off: the database only)."""

    zigbee: bool = False
    zwave: bool = False
    files: bool = False
    delete_existing_files: bool = False


def _flag(value: bool) -> str:
    return "true" if value else "false"


async def restore_cloud_backup(
    client: HubClient, path: str, parts: CloudRestoreParts, password: str, *, timeout: float
) -> dict[str, Any]:
    """Restore a cloud backup (the hub reboots on success). The answer is returned: a Z-Wave
    firmware mismatch answers ``zwaveFirmwareMismatch...`` flags instead of success."""
    params = {
        "suppressZWaveFirmwareMismatchHubNewer": "false",
        "fileName": path,
        "restoreZb": _flag(parts.zigbee),
        "restoreZw": _flag(parts.zwave),
        "restoreFiles": _flag(parts.files),
        "deleteExistingFiles": _flag(parts.delete_existing_files),
        "restorePassword": password,
        "t": str(int(time.time() * 1000)),
    }
    data = await client.request(
        "GET",
        "/hub2/restoreCloudBackup",
        params=params,
        expect="any",
        timeout=timeout,
        retry=False,  # no ``what``: the caller reads the answer (mismatch flags, message)
    )
    return data if isinstance(data, dict) else {}


async def upload_backup(client: HubClient, name: str, data: bytes) -> None:
    """Upload a backup file for restoring: the form field ``uploadFile``, as the hub UI's
    uploader sends it to ``/hub2/uploadBackup``."""
    await client.request(
        "POST",
        "/hub2/uploadBackup",
        data=upload_form(name, data),
        expect="any",
        retry=False,
        what="upload the backup",
    )


async def restore_uploaded_backup(client: HubClient, *, timeout: float) -> None:
    """Restore the uploaded backup (the hub reboots); anything but success raises."""
    what = "restore the uploaded backup"
    data = await client.request(
        "GET",
        "/hub2/restoreUploadedBackup",
        expect="any",
        timeout=timeout,
        retry=False,
        what=what,
    )
    require_success(data, what)


async def create_backup(client: HubClient, *, timeout: float = 300) -> None:
    """Ask the hub to create a backup now (it streams the file back; we drain and drop it).

    A timeout leaves the hub creating it: the backup list tells when it is there.
    """
    await client.request(
        "GET",
        "/hub/backupDB",
        params={"fileName": "latest"},
        expect="discard",
        timeout=timeout,
        retry=False,
    )


async def delete_local_backup(client: HubClient, name: str) -> bool:
    """Delete one local backup by file name; True when the hub says it did.

    The hub's ``{"success": false}`` raises :class:`HubRefusedError`.
    """
    data = await client.request(
        "GET",
        "/hub2/deleteLocalBackup",
        params={"fileName": name},
        expect="any",
        retry=False,
        what=f"delete the backup {name}",
    )
    return isinstance(data, dict) and data.get("success") in (True, "true")


async def restore_local_backup(client: HubClient, name: str, *, timeout: float = 120) -> None:
    """Restore one local backup by file name (the hub reboots).

    The hub answers only once the restore has ended (the hub UI waits without a limit, then
    says "Restore completed successfully, hub will reboot now."; the on-hub server allows 120 s, the
    default here). Sent once, never retried: a :class:`HubTimeoutError` means the hub is
    still restoring, not that it failed. Raises :class:`HubRefusedError` unless the hub
    answers ``{"success": true}``.
    """
    what = f"restore {name}"
    data = await client.request(
        "GET",
        "/hub2/restoreLocalBackup",
        params={"fileName": name},
        expect="any",
        timeout=timeout,
        retry=False,
        what=what,
    )
    require_success(data, what)
