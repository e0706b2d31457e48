"""Hub database backups: list with ages, create, delete, restore (restore reboots the hub)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any, TypedDict

from ..const import BACKUP_MAX_AGE_SECONDS
from ..errors import ToolError
from ..hub.backups import (
    Backup,
    create_backup,
    delete_local_backup,
    fetch_backup_schedule,
    fetch_backup_status,
    fetch_local_backups,
    restore_local_backup,
)
from ..hub.client import HubClient
from ..hub.errors import HubBadResponseError, HubError, HubRefusedError


def _age_hours(created: datetime | None, now: datetime) -> float | None:
    return round((now - created).total_seconds() / 3600, 1) if created else None


class BackupEntry(TypedDict):
    """One local backup as the backup answers show it."""

    name: str
    created: str | None
    age_hours: float | None
    size_bytes: int | None
    fresh_for_destructive: bool


def backup_dict(b: Backup, now: datetime | None = None) -> BackupEntry:
    """JSON-safe backup entry with its age and whether it satisfies the 24 h rule."""
    now = now or datetime.now(UTC)
    age = _age_hours(b.created, now)
    return {
        "name": b.name,
        "created": b.created.isoformat(timespec="seconds") if b.created else None,
        "age_hours": age,
        "size_bytes": b.size,
        "fresh_for_destructive": age is not None and age * 3600 <= BACKUP_MAX_AGE_SECONDS,
    }


class BackupManager:
    """Local hub database backups."""

    def __init__(self, client: HubClient) -> None:
        self._client = client
        # When we last saw a backup made (ours, or the newest the hub listed).
        self.last_backup_at: datetime | None = None

    async def newest(self) -> Backup | None:
        """The newest local backup the hub lists (and remember its time)."""
        backups = await fetch_local_backups(self._client)
        newest = backups[0] if backups else None
        if newest is not None and newest.created is not None:
            seen = self.last_backup_at
            self.last_backup_at = newest.created if seen is None else max(seen, newest.created)
        return newest

    async def list(self) -> dict[str, Any]:
        """Local backups (newest first), whether one is in progress, and the schedule."""

        async def optional(coro: Any) -> dict[str, Any] | None:
            try:
                result: dict[str, Any] = await coro
            except HubError:
                return None
            return result

        backups, status, schedule = await asyncio.gather(
            fetch_local_backups(self._client),
            optional(fetch_backup_status(self._client)),
            optional(fetch_backup_schedule(self._client)),
        )
        now = datetime.now(UTC)
        items = [backup_dict(b, now) for b in backups]
        return {
            "backups": items,
            "count": len(items),
            "newest_age_hours": items[0]["age_hours"] if items else None,
            "destructive_tier_satisfied": bool(items and items[0]["fresh_for_destructive"]),
            "backup_in_progress": bool(status and status.get("backupInProgress")),
            "schedule": schedule,
        }

    async def create(self) -> dict[str, Any]:
        """Create a backup now and read the backup list back."""
        await create_backup(self._client)
        self.last_backup_at = datetime.now(UTC)
        backups = await fetch_local_backups(self._client)
        newest = backups[0] if backups else None
        return {
            "summary": f"Backup created: {newest.name if newest else 'latest'}",
            "backup": {
                "name": newest.name if newest else None,
                "created": newest.created.isoformat() if newest and newest.created else None,
                "size": newest.size if newest else None,
            },
        }

    async def _find(self, name: str) -> Backup:
        name = name.strip()
        backups = await fetch_local_backups(self._client)
        found = next((b for b in backups if b.name == name), None)
        if found is None:
            names = ", ".join(b.name for b in backups[:5]) or "none"
            raise ToolError(
                f"There is no local backup named '{name}' (newest: {names}). Nothing was changed.",
                code="not_found",
                hint="hub_list_backups shows the exact file names.",
            )
        return found

    async def delete(self, name: str) -> dict[str, Any]:
        """Delete one local backup (checked to exist first)."""
        found = await self._find(name)
        ok = await delete_local_backup(self._client, found.name)
        remaining = await fetch_local_backups(self._client)
        if not ok or any(b.name == found.name for b in remaining):
            raise HubBadResponseError(f"The hub did not delete the backup {found.name}.")
        return {
            "summary": f"Deleted hub backup {found.name}",
            "deleted": backup_dict(found),
            "remaining": len(remaining),
        }

    async def restore(self, name: str) -> dict[str, Any]:
        """Restore one local backup; the hub reboots."""
        found = await self._find(name)
        try:
            await restore_local_backup(self._client, found.name)
        except HubRefusedError as err:
            err.hint = "Check the name with hub_list_backups; nothing was restored."
            raise
        return {
            "summary": f"Restoring hub backup {found.name}; the hub is rebooting",
            "restored": backup_dict(found),
            "rebooting": True,
            "note": "The hub reboots now and is unreachable for a few minutes; changes made "
            "after this backup was taken are gone. Tools work again once it is back "
            "(hub_get_health_report shows when).",
        }
