"""Hub database backup endpoints."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .answers import require_success
from .client import HubClient
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


async def fetch_backup_schedule(client: HubClient) -> dict[str, Any]:
    """The automatic backup schedule (``/hub2/backup/json``), the password left out."""
    data = await client.get_json("/hub2/backup/json")
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if "password" not in k.lower()}


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


async def restore_local_backup(client: HubClient, name: str, *, timeout: float = 60) -> None:
    """Restore one local backup by file name (the hub reboots).

    Raises :class:`HubRefusedError` unless the hub answers ``{"success": true}``.
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
