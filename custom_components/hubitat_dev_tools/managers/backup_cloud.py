"""Cloud backups, restoring an uploaded backup file, and the automatic backup schedule.

The local backups (and the 24-hour evidence of the destructive tier) are in ``backups.py``;
this module adds what the hub's Backup and Restore page offers besides them. Every write is
read back: a cloud backup made or deleted must show (or stop showing) in the cloud list, a
schedule must read back as sent. Restores reboot the hub and, like the local restore, first
back up the current state locally.
"""

from __future__ import annotations

import base64
import binascii
import re
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote, urlsplit

import aiohttp

from ..errors import ToolError
from ..hub.backups import CloudBackup, CloudListing, CloudRestoreParts
from ..hub.controllers import BackupsController
from ..hub.effects import poll_until
from ..hub.errors import HubBadResponseError, HubTimeoutError
from .backups import BackupManager
from .code_sources import UrlCheck, fetch_url_bytes
from .files import FilesManager

# The values the hub UI's schedule drawer offers, in days (0 = disabled).
FREQUENCIES = (0, 1, 2, 3, 5, 7, 14, 21, 28)
# The hub UI's uploaders accept .lzf files of 15 MiB (restore page) and 25 MiB (backup page:
# ``maxUploadFileSize: 26214400`` beside the ``uploadFile`` uploader of ``/hub2/uploadBackup``).
UPLOAD_MAX_BYTES = 25 * 1024 * 1024
# A backup downloaded from a URL: the download gets at most this long (and what is left of
# the call, less the time the backup of the current state, the upload and the restore need).
DOWNLOAD_MAX_S = 30.0
DOWNLOAD_RESERVE_S = 20.0
# The name an upload carries when the source names none (the on-hub server sends this one).
UPLOAD_NAME = "uploaded.lzf"
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


def _in_progress(what: str, current: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """A restore whose answer did not come within the call: started, still running (the
    request is never sent again)."""
    return {
        "summary": f"Backed up the current state as {current['name']}, then started restoring "
        f"{what}; the hub is still restoring it",
        "status": "in_progress",
        **extra,
        "current_state_backup": current,
        "pending": "The hub answers only once the restore is done, then reboots and is "
        "unreachable for a few minutes. Do not restore again.",
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


def lzf_problem(data: bytes) -> str | None:
    """Why ``data`` is not a hub backup file, or None when it reads as one.

    A hub backup (``.lzf``) is the LZF chunk stream of Tatu Saloranta's compress-lzf (the
    Hubitat community's reading of the file; the chunk layout is that library's): chunks
    back to back, each ``Z`` ``V`` then type 0 (stored: a 2-byte length, the bytes) or
    type 1 (compressed: 2-byte compressed and uncompressed lengths, the compressed bytes),
    lengths big-endian. Every chunk must be whole and the last must end the file: a web
    page, another file or a cut-off download fails here.
    """
    if not data:
        return "it is empty"
    pos, size = 0, len(data)
    while pos < size:
        head = data[pos : pos + 3]
        if len(head) < 3 or head[:2] != b"ZV" or head[2] not in (0, 1):
            where = "it does not start" if pos == 0 else f"its chunk at byte {pos} does not start"
            return f"{where} like an LZF backup chunk (ZV)"
        if head[2] == 0:
            if pos + 5 > size:
                return "it ends inside a chunk header (cut off?)"
            pos += 5 + int.from_bytes(data[pos + 3 : pos + 5], "big")
        else:
            if pos + 7 > size:
                return "it ends inside a chunk header (cut off?)"
            packed = int.from_bytes(data[pos + 3 : pos + 5], "big")
            if packed == 0 or int.from_bytes(data[pos + 5 : pos + 7], "big") == 0:
                return f"its chunk at byte {pos} is empty"
            pos += 7 + packed
    if pos != size:
        return "its last chunk is cut off (incomplete download?)"
    return None


def require_backup_bytes(data: bytes, where: str) -> None:
    """Refuse ``data`` (from ``where``) unless it reads as a hub backup; nothing is sent."""
    if len(data) > UPLOAD_MAX_BYTES:
        raise ToolError(
            f"{where} is {len(data)} bytes, more than the {UPLOAD_MAX_BYTES} bytes the hub's "
            "backup uploader takes. Nothing was changed.",
            code="invalid_arguments",
            subject="backup_content",
        )
    problem = lzf_problem(data)
    if problem is not None:
        raise ToolError(
            f"{where} is not a hub backup file: {problem}. Nothing was changed.",
            code="invalid_arguments",
            hint="A hub backup is the .lzf file the hub's Backup and Restore page downloads.",
            subject="backup_content",
        )


def decode_backup_base64(text: str) -> bytes:
    """The bytes of a base64 backup (whitespace ignored), size-capped before decoding."""
    compact = "".join(text.split())
    if len(compact) > (UPLOAD_MAX_BYTES + 2) // 3 * 4:
        raise ToolError(
            f"content_base64 decodes to more than the {UPLOAD_MAX_BYTES} bytes the hub's "
            "backup uploader takes. Nothing was changed.",
            code="invalid_arguments",
            subject="backup_content",
        )
    try:
        return base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise ToolError(
            "content_base64 is not valid base64. Nothing was changed.",
            code="invalid_arguments",
            hint="Pass the backup file's bytes in standard base64 (A-Z a-z 0-9 + /, = padding).",
        ) from None


def _download_failed(url: str, why: str) -> ToolError:
    return ToolError(
        f"Could not download the backup from {url}: {why}. Nothing was changed.",
        code="source_unavailable",
        hint="Check the link in a browser: it must download the .lzf file itself (a direct "
        "link, not a page about it).",
        subject="backup_download",
    )


def url_file_name(url: str) -> str:
    """The upload's file name: the URL's last path part when it is a .lzf name, else the
    on-hub server's ``uploaded.lzf``."""
    last = unquote(urlsplit(url).path.rsplit("/", 1)[-1]).strip()
    # plain names only: the upload form's filename goes out as it is written here
    ok = re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._~-]{0,120}\.lzf", last, re.IGNORECASE)
    return last if ok else UPLOAD_NAME


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

    async def _find(
        self, path: str, this_hub: str | None, *, migrate: bool = False
    ) -> tuple[CloudBackup, CloudListing]:
        """One cloud backup by path. Another hub's only with ``migrate`` (a restore that
        puts another hub's database on this one), and then only another hub's."""
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
        other = this_hub is not None and found.hub_uid not in (None, this_hub)
        if other and not migrate:
            raise ToolError(
                f"The cloud backup '{path}' was made by another hub ({found.hub_name}). "
                "Restoring it replaces this hub's database with that hub's (a migration); "
                "nothing was changed.",
                code="invalid_arguments",
                subject="cloud_migration",
            )
        if migrate and not other:
            raise ToolError(
                f"The cloud backup '{path}' is this hub's own: it is restored without the "
                "migration flag. Nothing was changed.",
                code="invalid_arguments",
                subject="cloud_migration_own",
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
        *,
        migrate: bool = False,
    ) -> dict[str, Any]:
        """Restore one of this hub's cloud backups (database, optionally radios and files);
        with ``migrate``, another hub's instead. The hub UI sends the same request for both
        (``CloudRestoreDialog``: its button says Migrate when the backup's ``hubUID`` is not
        this hub's, its ``doRestoreCloudBackup`` query is the same)."""
        found, listing = await self._find(path, this_hub, migrate=migrate)
        if listing.restore_entitled is False:
            raise ToolError(
                "This hub's account may not restore cloud backups (the cloud list says no "
                "restore subscription). Nothing was changed.",
                code="invalid_arguments",
                subject="cloud_restore_entitlement",
            )
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
        try:
            answer = await self._backups.restore_cloud(
                found.path,
                parts,
                password,
                timeout=max(1.0, deadline - time.monotonic()),
            )
        except HubTimeoutError:
            return _in_progress(
                f"cloud backup {found.path}",
                current,
                {"restored": cloud_dict(found, this_hub, datetime.now(UTC))},
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
        verb = f"migrating {found.hub_name or 'another hub'}'s" if migrate else "restoring"
        out = {
            "summary": f"Backed up the current state as {current['name']}, then {verb} cloud "
            f"backup {found.path} ({', '.join(restored)}); the hub is rebooting",
            "status": "done",
            "restored": cloud_dict(found, this_hub, datetime.now(UTC)),
            "current_state_backup": current,
            "rebooting": True,
            "note": "The hub reboots now and is unreachable for a few minutes; changes made "
            "after this backup was taken are gone.",
        }
        if migrate:
            out["migrated_from"] = {"hub_name": found.hub_name, "hub_model": found.hub_model}
            out["note"] = (
                "The hub reboots now with the other hub's database; this hub's own apps, "
                "rules and devices are replaced (its pre-migration state is the local backup "
                "named above). Migration is a convenience tool that can fail, needing devices "
                "to be joined again."
            )
        return out

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
        require_backup_bytes(data, f"'{found.name}'")
        return await self._restore_bytes(found.name, data, deadline, {"file_name": found.name})

    async def restore_from_url(
        self,
        url: str,
        check: UrlCheck,
        session: aiohttp.ClientSession | None,
        deadline: float,
    ) -> dict[str, Any]:
        """Download a backup file (checked, capped), then upload and restore it.

        The hub UI restores a file from the user's computer: the browser uploads it. Here
        the integration downloads it (every URL and redirect passes ``check``, certificates
        are checked: never the hub's session) and uploads it the same way; the hub never
        fetches the URL.
        """
        if session is None:
            raise ToolError(
                "Downloads are not set up here (no session that checks certificates). "
                "Nothing was changed.",
                code="source_unavailable",
                hint="Pass the file's bytes as content_base64, or put it in the File Manager.",
            )
        budget = min(DOWNLOAD_MAX_S, deadline - time.monotonic() - DOWNLOAD_RESERVE_S)
        if budget < 3.0:
            raise ToolError(
                "Too little of this call is left to download the backup. Nothing was changed.",
                code="hub_timeout",
                hint="Call again.",
            )
        try:
            data = await fetch_url_bytes(
                session,
                url,
                check,
                max_bytes=UPLOAD_MAX_BYTES,
                timeout=budget,
                accept="application/octet-stream, */*",
                unavailable=_download_failed,
            )
        except ToolError as err:
            if err.code == "certificate_not_trusted":
                err.hint = (
                    "Downloads check the server's certificate, so nobody on the way can swap "
                    "the backup. Use a host with a valid certificate, or pass the file as "
                    "content_base64."
                )
            raise
        require_backup_bytes(data, f"The file at {url}")
        name = url_file_name(url)
        return await self._restore_bytes(name, data, deadline, {"source_url": url})

    async def restore_from_bytes(self, content_base64: str, deadline: float) -> dict[str, Any]:
        """Upload and restore a backup file given as base64 (checked, capped)."""
        data = decode_backup_base64(content_base64)
        require_backup_bytes(data, "content_base64")
        return await self._restore_bytes(UPLOAD_NAME, data, deadline, {"content_base64": True})

    async def _restore_bytes(
        self, name: str, data: bytes, deadline: float, origin: dict[str, Any]
    ) -> dict[str, Any]:
        """Back up the current state, upload ``data`` as the hub UI's backup uploader does
        (``/hub2/uploadBackup``, field ``uploadFile``), then restore it (reboots)."""
        current = await self._current_state_backup(deadline)
        self._local.forget_listing()
        await self._backups.upload(name, data)
        restored = {"file_name": name, "size_bytes": len(data), **origin}
        try:
            await self._backups.restore_uploaded(timeout=max(1.0, deadline - time.monotonic()))
        except HubTimeoutError:
            return _in_progress(f"the uploaded backup {name}", current, {"restored": restored})
        finally:
            self._local.forget_listing()
        return {
            "summary": f"Backed up the current state as {current['name']}, then restoring the "
            f"uploaded backup {name}; the hub is rebooting",
            "status": "done",
            "restored": restored,
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


__all__ = [
    "FREQUENCIES",
    "UPLOAD_MAX_BYTES",
    "CloudBackupManager",
    "lzf_problem",
    "require_backup_bytes",
]
