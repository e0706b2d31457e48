"""Cloud backups, restoring an uploaded backup file, and the automatic backup schedule.

The local backups (and the 24-hour evidence of the destructive tier) are in ``backups.py``;
this module adds what the hub's Backup and Restore page offers besides them. Every write is
read back: a cloud backup made or deleted must show (or stop showing) in the cloud list, a
schedule must read back as sent. Restores reboot the hub and, like the local restore, first
back up the current state locally.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ..errors import ToolError
from ..hub.backups import CloudBackup, CloudListing, CloudRestoreParts
from ..hub.controllers import BackupsController
from ..hub.effects import poll_until
from ..hub.errors import HubBadResponseError, HubTimeoutError
from .backups import BackupManager
from .files import FilesManager

# The values the hub UI's schedule drawer offers, in days (0 = disabled).
FREQUENCIES = (0, 1, 2, 3, 5, 7, 14, 21, 28)
# The hub UI's uploaders accept .lzf files of 15 MiB (restore page) and 25 MiB (backup page).
UPLOAD_MAX_BYTES = 25 * 1024 * 1024
# A cloud list that does not show a delete yet is re-read this long (the UI waits 3 s).
CLOUD_SETTLE_S = 6.0
HH_MM = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
PARTS = ("database", "zigbee", "zwave", "fileManager", "upload")


def cloud_dict(b: CloudBackup, this_hub: str | None, now: datetime) -> dict[str, Any]:
    """One cloud backup as the answers show it (``path`` is what delete/restore take)."""
    return {
        "path": b.path,
        "created": b.created.isoformat(timespec="seconds") if b.created else None,
        "age_hours": round((now - b.created).total_seconds() / 3600, 1) if b.created else None,
        "hub_name": b.hub_name,
        "this_hub": this_hub is not None and b.hub_uid == this_hub,
        "hub_model": b.hub_model,
        "platform": b.platform,
        "size": b.size,
        "has_zigbee": b.has_zigbee,
        "has_zwave": b.has_zwave,
        "hub_protect": b.hub_protect,
    }


def _schedule_answer(settings: Mapping[str, Any]) -> dict[str, Any]:
    hour, minute = settings.get("databaseCleanupTimeHour"), settings.get("databaseCleanupJobMinute")
    return {
        "local_frequency_days": settings.get("localBackupFrequency"),
        "cloud_frequency_days": settings.get("cloudBackupFrequency"),
        "time": f"{hour:02d}:{minute:02d}"
        if isinstance(hour, int) and isinstance(minute, int)
        else None,
        "cloud_backup_entitled": settings.get("hasCloudBackupEntitlements"),
    }


def _pick(asked: int | None, current: Any) -> int | None:
    """The asked value, else the hub's current one if it is an int."""
    value = current if asked is None else asked
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class CloudBackupManager:
    """Cloud backups, uploaded-file restores and the backup schedule of one hub."""

    def __init__(
        self, backups: BackupsController, local: BackupManager, files: FilesManager
    ) -> None:
        self._backups = backups
        self._local = local
        self._files = files

    # ------------------------------------------------------------------ reads

    async def listing(self, this_hub: str | None) -> dict[str, Any]:
        """The cloud backups (newest first) and what the hub's account allows."""
        found = await self._backups.cloud()
        now = datetime.now(UTC)
        items = [cloud_dict(b, this_hub, now) for b in found.backups]
        out: dict[str, Any] = {
            "backups": items,
            "count": len(items),
            "backup_entitled": found.backup_entitled,
            "restore_entitled": found.restore_entitled,
        }
        if found.message:
            out["message"] = found.message
        return out

    async def _find(self, path: str, this_hub: str | None) -> tuple[CloudBackup, CloudListing]:
        listing = await self._backups.cloud()
        found = next((b for b in listing.backups if b.path == path.strip()), None)
        if found is None:
            shown = ", ".join(b.path for b in listing.backups[:3]) or "none"
            raise ToolError(
                f"There is no cloud backup with path '{path}' (newest: {shown}). "
                "Nothing was changed.",
                code="not_found",
                subject="cloud_backup",
            )
        if this_hub is not None and found.hub_uid not in (None, this_hub):
            raise ToolError(
                f"The cloud backup '{path}' was made by another hub ({found.hub_name}). "
                "Only this hub's own cloud backups are deleted or restored here; nothing was "
                "changed.",
                code="invalid_arguments",
                hint="Moving another hub's backup to this one is a migration: use the hub's "
                "Backup and Restore page for it.",
            )
        return found, listing

    # ------------------------------------------------------------------ cloud writes

    async def create(self, this_hub: str | None, deadline: float) -> dict[str, Any]:
        """Make a cloud backup now; verified when a new backup of this hub is listed."""
        before = {b.path for b in (await self._backups.cloud()).backups}
        try:
            status = await self._backups.create_cloud(
                timeout=max(5.0, deadline - time.monotonic() - 2.0)
            )
        except HubTimeoutError:
            return {
                "summary": "Cloud backup requested; the hub is still making it",
                "verified": False,
                "note": "The hub keeps making and uploading it.",
            }
        missing = [p for p in PARTS if status.get(p) is False]
        if status.get("status") is not True:
            raise ToolError(
                "The hub could not complete the cloud backup"
                + (f" (incomplete: {', '.join(missing)})" if missing else "")
                + ".",
                code="hub_bad_response",
                hint="Check the hub's cloud subscription and its Backup and Restore page.",
                outcome="failed",
            )
        after = await self._backups.cloud()
        new = [b for b in after.backups if b.path not in before]
        now = datetime.now(UTC)
        if not new:
            return {
                "summary": "The hub reports the cloud backup done, but the cloud list shows no "
                "new backup yet",
                "verified": False,
                "note": "It may be listed in a minute.",
            }
        return {
            "summary": f"Cloud backup made: {new[0].path}",
            "backup": cloud_dict(new[0], this_hub, now),
            "verified": True,
        }

    async def delete(self, path: str, this_hub: str | None) -> dict[str, Any]:
        """Delete one of this hub's cloud backups; verified when the list no longer has it."""
        found, _listing = await self._find(path, this_hub)
        error: Exception | None = None
        try:
            await self._backups.delete_cloud(found.path)
        except HubBadResponseError as err:  # the effect decides
            error = err
        after = await poll_until(
            lambda: self._backups.cloud(),
            lambda listing: all(b.path != found.path for b in listing.backups),
            seconds=CLOUD_SETTLE_S,
            interval=1.0,
        )
        if any(b.path == found.path for b in after.backups):
            if error is not None:
                raise error
            raise HubBadResponseError(f"The hub did not delete the cloud backup {found.path}.")
        return {
            "summary": f"Deleted cloud backup {found.path}",
            "deleted": cloud_dict(found, this_hub, datetime.now(UTC)),
            "remaining": len(after.backups),
        }

    async def _current_state_backup(self, deadline: float) -> dict[str, Any]:
        current = await self._local.current_state_backup(deadline)
        return {
            "name": current.name,
            "created": current.created.isoformat() if current.created else None,
        }

    async def restore(
        self,
        path: str,
        parts: CloudRestoreParts,
        password: str,
        this_hub: str | None,
        deadline: float,
    ) -> dict[str, Any]:
        """Restore one of this hub's cloud backups (database, optionally radios and files)."""
        found, _listing = await self._find(path, this_hub)
        if (parts.zigbee and not found.has_zigbee) or (parts.zwave and not found.has_zwave):
            raise ToolError(
                "That cloud backup holds no "
                + ("Zigbee" if parts.zigbee and not found.has_zigbee else "Z-Wave")
                + " radio backup to restore. Nothing was changed.",
                code="invalid_arguments",
                subject="cloud_backup_parts",
            )
        current = await self._current_state_backup(deadline)
        self._local.forget_listing()
        answer = await self._backups.restore_cloud(
            found.path,
            parts,
            password,
            timeout=max(1.0, deadline - time.monotonic()),
        )
        if answer.get("success") not in (True, "true"):
            mismatch = answer.get("zwaveFirmwareMismatchBackupNewer") or answer.get(
                "zwaveFirmwareMismatchHubNewer"
            )
            raise ToolError(
                "The hub did not restore the cloud backup: "
                + (
                    "its Z-Wave radio firmware and the backup's do not match"
                    if mismatch
                    else str(answer.get("message") or "no reason given")
                )
                + f". Nothing was restored; the current state was backed up as {current['name']}.",
                code="hub_bad_response",
                hint="Restore it without restore_zwave, or from the hub's Backup and Restore "
                "page, which explains the firmware mismatch."
                if mismatch
                else "Check the backup password (if one was set) and the cloud subscription.",
                outcome="failed",
            )
        restored = ["database"] + [
            name
            for name, on in (
                ("zigbee", parts.zigbee),
                ("zwave", parts.zwave),
                ("files", parts.files),
            )
            if on
        ]
        return {
            "summary": f"Backed up the current state as {current['name']}, then restoring cloud "
            f"backup {found.path} ({', '.join(restored)}); the hub is rebooting",
            "restored": cloud_dict(found, this_hub, datetime.now(UTC)),
            "current_state_backup": current,
            "rebooting": True,
            "note": "The hub reboots now and is unreachable for a few minutes; changes made "
            "after this backup was taken are gone.",
        }

    async def restore_uploaded(self, file_name: str, deadline: float) -> dict[str, Any]:
        """Upload a File Manager backup file (.lzf) to the restore page and restore it."""
        if not file_name.lower().endswith(".lzf"):
            raise ToolError(
                f"'{file_name}' is not a hub backup file (.lzf). Nothing was changed.",
                code="invalid_arguments",
                hint="Hub backups end in .lzf.",
                subject="backup_file",
            )
        found, data = await self._files.download(file_name, max_bytes=UPLOAD_MAX_BYTES)
        if not data:
            raise ToolError(
                f"'{file_name}' is empty. Nothing was changed.", code="invalid_arguments"
            )
        current = await self._current_state_backup(deadline)
        self._local.forget_listing()
        await self._backups.upload(found.name, data)
        await self._backups.restore_uploaded(timeout=max(1.0, deadline - time.monotonic()))
        return {
            "summary": f"Backed up the current state as {current['name']}, then restoring the "
            f"uploaded backup {found.name}; the hub is rebooting",
            "restored": {"file_name": found.name, "size_bytes": len(data)},
            "current_state_backup": current,
            "rebooting": True,
            "note": "The hub reboots now and is unreachable for a few minutes.",
        }

    # ------------------------------------------------------------------ schedule

    async def update_schedule(
        self,
        *,
        local_frequency: int | None,
        cloud_frequency: int | None,
        at: str | None,
        password: str | None,
    ) -> dict[str, Any]:
        """Change the automatic backup schedule (read-merged: omitted parts stay as they are)."""
        for label, value in (
            ("local_frequency_days", local_frequency),
            ("cloud_frequency_days", cloud_frequency),
        ):
            if value is not None and value not in FREQUENCIES:
                raise ToolError(
                    f"{label} must be one of {', '.join(map(str, FREQUENCIES))} (0 turns it "
                    f"off), not {value}. Nothing was changed.",
                    code="invalid_arguments",
                )
        match = HH_MM.match(at.strip()) if at is not None else None
        if at is not None and match is None:
            raise ToolError(
                f"time must be HH:MM (24-hour), not '{at}'. Nothing was changed.",
                code="invalid_arguments",
            )
        settings = await self._backups.settings()
        current = _schedule_answer(settings)
        local = _pick(local_frequency, settings.get("localBackupFrequency"))
        cloud = _pick(cloud_frequency, settings.get("cloudBackupFrequency"))
        hour = _pick(
            int(match.group(1)) if match else None, settings.get("databaseCleanupTimeHour")
        )
        minute = _pick(
            int(match.group(2)) if match else None, settings.get("databaseCleanupJobMinute")
        )
        if local is None or cloud is None or hour is None or minute is None:
            raise HubBadResponseError(
                "The hub's backup schedule could not be read (missing frequency or time), so "
                "nothing was changed."
            )
        if cloud and settings.get("hasCloudBackupEntitlements") is False:
            raise ToolError(
                "This hub has no cloud backup subscription, so cloud backups cannot be "
                "scheduled. Nothing was changed.",
                code="invalid_arguments",
                hint="Set cloud_frequency_days=0, or subscribe in the hub's settings.",
            )
        stored = settings.get("backupPassword")
        secret = password if password is not None else stored if isinstance(stored, str) else ""
        if cloud and not secret:
            # the hub does not always read it back (the on-hub server saw null): sending "" would
            # blank it
            raise ToolError(
                "Cloud backups are scheduled, and the hub does not give back their encryption "
                "password, which this update must resend. Nothing was changed.",
                code="invalid_arguments",
                hint="Pass cloud_backup_password (the owner's cloud backup password), or "
                "cloud_frequency_days=0 to stop cloud backups.",
            )
        await self._backups.update_schedule(
            local_frequency=local,
            cloud_frequency=cloud,
            hour=hour,
            minute=minute,
            password=secret,
        )
        after = _schedule_answer(await self._backups.settings())
        wanted = {
            "local_frequency_days": local,
            "cloud_frequency_days": cloud,
            "time": f"{hour:02d}:{minute:02d}",
        }
        if any(after[k] != v for k, v in wanted.items()):
            raise HubBadResponseError(
                f"The hub answered the schedule update but reads back {after}, not {wanted}."
            )
        return {"summary": "Backup schedule updated", "before": current, "schedule": after}


__all__ = ["FREQUENCIES", "UPLOAD_MAX_BYTES", "CloudBackupManager"]
