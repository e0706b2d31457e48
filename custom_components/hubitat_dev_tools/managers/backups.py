"""Hub database backups: list with ages, create, delete, restore (restore reboots the hub)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypedDict

from ..const import BACKUP_MAX_AGE_SECONDS
from ..errors import ToolError
from ..hub.backups import Backup
from ..hub.controllers import BackupsController
from ..hub.errors import HubBadResponseError, HubError, HubRefusedError, HubTimeoutError

# The backup list read for the destructive tier is reused this long (our own create,
# delete and restore clear it); a list that does not satisfy the tier is always re-read.
LIST_CACHE_SECONDS = 5.0
# A backup dated further in the future than this (clock skew) never counts.
FUTURE_TOLERANCE = timedelta(minutes=5)
# How long a restore without a call deadline waits for the hub's answer (the on-hub server allows
# 120 s; the hub answers only when the restore has ended, the hub UI waits without a limit).
RESTORE_WAIT_S = 120.0


def _age_hours(created: datetime | None, now: datetime) -> float | None:
    return round((now - created).total_seconds() / 3600, 1) if created else None


def counts_for_destructive(created: datetime | None, now: datetime) -> bool:
    """True when a backup made at ``created`` satisfies the destructive tier now.

    It must have a time, be no older than 24 hours and not be dated in the future (beyond a
    few minutes of clock skew): a future-dated file would otherwise pass forever.
    """
    if created is None or created - now > FUTURE_TOLERANCE:
        return False
    return now - created <= timedelta(seconds=BACKUP_MAX_AGE_SECONDS)


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
    return {
        "name": b.name,
        "created": b.created.isoformat(timespec="seconds") if b.created else None,
        "age_hours": _age_hours(b.created, now),
        "size_bytes": b.size,
        "fresh_for_destructive": counts_for_destructive(b.created, now),
    }


@dataclass(frozen=True, slots=True)
class DestructiveEvidence:
    """What the hub's backup list says about the destructive tier right now."""

    backup: Backup | None  # the newest backup that counts, None when none does
    newest: Backup | None  # the newest backup listed (may be too old or future-dated)


class BackupManager:
    """Local hub database backups."""

    def __init__(self, backups: BackupsController) -> None:
        self._backups = backups
        self._listing: tuple[float, list[Backup]] | None = None

    def forget_listing(self) -> None:
        """Drop the cached backup list (after our own create, delete or restore)."""
        self._listing = None

    async def _local_backups(self, *, cached: bool = False) -> list[Backup]:
        """The hub's local backups, newest first (``cached``: reuse a list a few seconds old)."""
        if cached and self._listing is not None:
            read_at, backups = self._listing
            if time.monotonic() - read_at <= LIST_CACHE_SECONDS:
                return backups
        backups = await self._backups.list()
        self._listing = (time.monotonic(), backups)
        return backups

    async def destructive_evidence(self) -> DestructiveEvidence:
        """The newest backup on the hub's list that satisfies the 24 h rule, read now.

        A cached list is reused only while it satisfies the rule; otherwise the hub is asked
        again, so a backup made on the hub a moment ago counts and a deleted one does not.
        """
        evidence = self._evidence(await self._local_backups(cached=True))
        if evidence.backup is None:
            evidence = self._evidence(await self._local_backups())
        return evidence

    @staticmethod
    def _evidence(backups: list[Backup]) -> DestructiveEvidence:
        now = datetime.now(UTC)
        good = next((b for b in backups if counts_for_destructive(b.created, now)), None)
        return DestructiveEvidence(good, backups[0] if backups else None)

    async def list(self) -> dict[str, Any]:
        """Local backups (newest first), whether one is in progress, and the schedule."""

        async def optional(coro: Any) -> dict[str, Any] | None:
            try:
                result: dict[str, Any] = await coro
            except HubError:
                return None
            return result

        backups, status, schedule = await asyncio.gather(
            self._local_backups(),
            optional(self._backups.status()),
            optional(self._backups.schedule()),
        )
        now = datetime.now(UTC)
        items = [backup_dict(b, now) for b in backups]
        return {
            "backups": items,
            "count": len(items),
            "newest_age_hours": items[0]["age_hours"] if items else None,
            "destructive_tier_satisfied": any(i["fresh_for_destructive"] for i in items),
            "backup_in_progress": bool(status and status.get("backupInProgress")),
            "schedule": schedule,
        }

    async def create_verified(self, deadline: float | None = None) -> Backup | None:
        """Create a backup; return it only once it appears in the hub's list (else None).

        With ``deadline`` (``time.monotonic()``), the request gives up in time and the hub
        keeps creating the backup on its own (then None: it is not listed yet).
        """
        listed = await self._local_backups()
        before = {(b.name, b.created) for b in listed}
        self.forget_listing()
        timeout = 300.0 if deadline is None else max(1.0, deadline - time.monotonic())
        try:
            await self._backups.create(timeout=timeout)
        except HubTimeoutError:
            if deadline is None:
                raise
            return None
        finally:
            self.forget_listing()
        after = await self._local_backups()
        now = datetime.now(UTC)
        fresh = [b for b in after if counts_for_destructive(b.created, now)]
        # A new entry, or (two backups within the hub's one-second name resolution) one
        # entry more than before.
        new = [b for b in fresh if (b.name, b.created) not in before]
        if not new and len(after) > len(listed):
            new = fresh
        return new[0] if new else None

    async def create(self, deadline: float | None = None) -> dict[str, Any]:
        """Create a backup now and check that it appears in the hub's backup list."""
        made = await self.create_verified(deadline)
        if made is None:
            return {
                "summary": "Backup requested, but no new backup appears in the hub's list",
                "backup": None,
                "verified": False,
                "note": "The hub accepted the request but lists no new backup; it does not "
                "count for destructive tools.",
            }
        return {
            "summary": f"Backup created: {made.name}",
            "backup": {
                "name": made.name,
                "created": made.created.isoformat() if made.created else None,
                "size": made.size,
            },
            "verified": True,
        }

    async def _find(self, name: str) -> Backup:
        name = name.strip()
        backups = await self._local_backups()
        found = next((b for b in backups if b.name == name), None)
        if found is None:
            names = ", ".join(b.name for b in backups[:5]) or "none"
            raise ToolError(
                f"There is no local backup named '{name}' (newest: {names}). Nothing was changed.",
                code="not_found",
                subject="local_backup",
            )
        return found

    async def delete(self, name: str) -> dict[str, Any]:
        """Delete one local backup (checked to exist first)."""
        found = await self._find(name)
        self.forget_listing()
        try:
            ok = await self._backups.delete(found.name)
        finally:
            self.forget_listing()
        remaining = await self._local_backups()
        if not ok or any(b.name == found.name for b in remaining):
            raise HubBadResponseError(f"The hub did not delete the backup {found.name}.")
        return {
            "summary": f"Deleted hub backup {found.name}",
            "deleted": backup_dict(found),
            "remaining": len(remaining),
        }

    async def current_state_backup(self, deadline: float | None) -> Backup:
        """Back up the current state before a restore (all but the last 8 s of ``deadline``);
        backup_required, nothing restored, when no new backup appears in the list."""
        current = await self.create_verified(None if deadline is None else deadline - 8.0)
        if current is None:
            raise ToolError(
                "Could not back up the hub's current state first (no new backup appears in "
                "its list), so nothing was restored.",
                code="backup_required",
                subject="current_state_backup",
                outcome="failed",
            )
        return current

    async def restore(self, name: str, deadline: float | None = None) -> dict[str, Any]:
        """Restore one local backup; the hub reboots (the current state is backed up first).

        With ``deadline``, the backup first gets all but the last seconds, which the restore
        request itself keeps. The hub answers only when the restore has ended: when the
        wait runs out first, the restore is reported as started and still running
        (``status: in_progress``), never as failed, and the request is not sent again.
        """
        found = await self._find(name)
        current = await self.current_state_backup(deadline)
        self.forget_listing()
        try:
            timeout = RESTORE_WAIT_S if deadline is None else max(1.0, deadline - time.monotonic())
            await self._backups.restore(found.name, timeout=timeout)
        except HubRefusedError as err:
            err.hint = "Check the name; nothing was restored."
            err.subject = "backup_restore"
            raise
        except HubTimeoutError:
            return {
                "summary": f"Backed up the current state as {current.name}, then started "
                f"restoring hub backup {found.name}; the hub is still restoring it",
                "status": "in_progress",
                "restored": backup_dict(found),
                "current_state_backup": backup_dict(current),
                "pending": "The hub answers only once the restore is done, then reboots and "
                "is unreachable for a few minutes. Do not restore again.",
                "note": "Changes made after this backup was taken are gone once it is done.",
            }
        finally:
            self.forget_listing()
        return {
            "summary": f"Backed up the current state as {current.name}, then restoring hub "
            f"backup {found.name}; the hub is rebooting",
            "status": "done",
            "restored": backup_dict(found),
            "current_state_backup": backup_dict(current),
            "rebooting": True,
            "note": "The hub reboots now and is unreachable for a few minutes; changes made "
            "after this backup was taken are gone. Tools work again once it is back.",
        }
