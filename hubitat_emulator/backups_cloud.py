"""Cloud backups, uploaded-backup restores and the automatic backup schedule.

What the hub UI's Backup and Restore page calls (``vue-hub2.min.js``; the on-hub server's backup
library calls the same): ``/hub2/cloudBackups`` ``{backups: [{path, createTime, createTimeOrig,
hubUID, hubName, hubVersion, platformVersion, fileSize, hasZigbee, hasZWave, hubProtect}],
message, hasCloudBackupEntitlements, hasCloudRestoreEntitlements}``;
``/hub/cloud/triggerBackupWithStatus?migration=`` ``{status, database, zigbee, zwave,
fileManager, upload}``; ``/hub2/deleteCloudBackup?path=``; ``/hub2/restoreCloudBackup`` (the
UI's query: ``fileName`` = the path, ``restoreZb/restoreZw/restoreFiles/deleteExistingFiles``,
``restorePassword``, ``t``) answering ``{success}`` or a Z-Wave firmware mismatch flag, and
rebooting; ``POST /hub2/uploadBackup`` (form field ``uploadFile``) then
``/hub2/restoreUploadedBackup`` ``{success, message}``; ``/hub2/backup/json`` (read:
``databaseCleanupTimeHour``/``databaseCleanupJobMinute``) and ``POST
/hub2/updateBackupSchedule`` (a JSON text body: ``localBackupFrequency``,
``cloudBackupFrequency``, ``hour``, ``minute``, ``cloudBackupPassword``).

Decisions where the sources are silent, as knobs on ``emu.cloud`` (:class:`CloudState`):
the password reads back as null (the on-hub server saw null; ``expose_password`` shows it, as the
UI's read suggests), a backup made while a password is set needs it to restore, a deleted backup
stays listed for ``delete_lag_s``, ``fail_parts`` makes a cloud backup fail,
``zwave_mismatch`` answers the Z-Wave firmware mismatch, ``entitled`` turns the
subscription off.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from aiohttp import web

from .clock import HUB_TZ, fmt_utc, utcnow
from .home import Home
from .responses import Responses
from .server import HubServer

FREQUENCIES = (0, 1, 2, 3, 5, 7, 14, 21, 28)
OTHER_HUB_UID = "7f2c9a40-0000-4000-8000-00000000b0b0"


@dataclass
class CloudBackupEntry:
    path: str
    created: datetime
    hub_uid: str
    hub_name: str
    password: str | None = None
    has_zigbee: bool = True
    has_zwave: bool = True
    deleted_at: datetime | None = None


@dataclass
class CloudState:
    """The cloud side of the emulated hub, and the schedule."""

    entitled: bool = True
    restore_entitled: bool = True
    backups: list[CloudBackupEntry] = field(default_factory=list)
    local_frequency: int = 1
    cloud_frequency: int = 0
    hour: int = 3
    minute: int = 0
    password: str | None = None
    expose_password: bool = False
    delete_lag_s: float = 0.0
    fail_parts: set[str] = field(default_factory=set)
    zwave_mismatch: bool = False
    uploaded: bytes | None = None
    uploaded_name: str | None = None
    # every uploaded backup restored, in order: (file name, bytes); a restore replaces the
    # database and reboots, so this is what tests read to see which file was restored
    restored_uploads: list[tuple[str, bytes]] = field(default_factory=list)
    # how long restoreUploadedBackup restores before it answers (then reboots), as the local
    # restore does (``OpsState.local_restore_s``): the hub answers once the restore has ended
    upload_restore_s: float = 0.0
    # what the last restore asked for (query parameters, the password left out)
    last_restore: dict[str, str] = field(default_factory=dict)


def lzf_chunks(data: bytes) -> bytes:
    """``data`` as the stored (uncompressed) chunks of an LZF stream: ``ZV`` type 0, a
    2-byte big-endian length, the bytes (compress-lzf's chunk format, which hub backups use)."""
    out = bytearray()
    for start in range(0, len(data), 0xFFFF):
        part = data[start : start + 0xFFFF]
        out += b"ZV\x00" + len(part).to_bytes(2, "big") + part
    return bytes(out)


def is_lzf_stream(data: bytes) -> bool:
    """Whether ``data`` is whole LZF chunks back to back (stored or compressed)."""
    pos = 0
    while pos < len(data):
        if data[pos : pos + 2] != b"ZV" or pos + 5 > len(data):
            return False
        kind = data[pos + 2]
        if kind == 0:
            pos += 5 + int.from_bytes(data[pos + 3 : pos + 5], "big")
        elif kind == 1 and pos + 7 <= len(data):
            pos += 7 + int.from_bytes(data[pos + 3 : pos + 5], "big")
        else:
            return False
    return pos == len(data) and pos > 0


def seed_cloud(home: Home) -> CloudState:
    """One cloud backup of this hub (a day old) and one of another hub."""
    st = home.state
    now = utcnow()
    return CloudState(
        backups=[
            CloudBackupEntry(
                f"{st.hub_uid}/{(now - timedelta(days=1)).strftime('%Y-%m-%d-%H%M%S')}.lzf",
                now - timedelta(days=1),
                st.hub_uid,
                st.hub_name,
            ),
            CloudBackupEntry(
                f"{OTHER_HUB_UID}/2026-11-20-030000.lzf",
                now - timedelta(days=11),
                OTHER_HUB_UID,
                "Garage Hub",
                has_zwave=False,
            ),
        ]
    )


def setup(
    app: web.Application, cloud: CloudState, home: Home, http: Responses, server: HubServer
) -> None:
    r = _CloudRoutes(cloud, home, http, server)
    add = app.router
    add.add_get("/hub2/cloudBackups", r.list_backups)
    add.add_get("/hub/cloud/triggerBackupWithStatus", r.trigger)
    add.add_get("/hub2/deleteCloudBackup", r.delete)
    add.add_get("/hub2/restoreCloudBackup", r.restore)
    add.add_post("/hub2/uploadBackup", r.upload)
    add.add_get("/hub2/restoreUploadedBackup", r.restore_uploaded)
    add.add_get("/hub2/backup/json", r.schedule)
    add.add_post("/hub2/updateBackupSchedule", r.update_schedule)


class _CloudRoutes:
    def __init__(self, cloud: CloudState, home: Home, http: Responses, server: HubServer):
        self.cloud, self.home, self.http, self.server = cloud, home, http, server

    def _listed(self) -> list[CloudBackupEntry]:
        now = utcnow()
        lag = timedelta(seconds=self.cloud.delete_lag_s)
        return [b for b in self.cloud.backups if b.deleted_at is None or now - b.deleted_at < lag]

    async def list_backups(self, request: web.Request) -> web.StreamResponse:
        st = self.home.state
        out = [
            {
                "path": b.path,
                "createTime": b.created.astimezone(HUB_TZ).strftime("%Y-%m-%d %H:%M"),
                "createTimeOrig": fmt_utc(b.created),
                "createTimeSort": b.created.strftime("%Y%m%d%H%M%S"),
                "hubUID": b.hub_uid,
                "hubName": b.hub_name,
                "hubVersion": st.model.removesuffix(" Pro"),
                "platformVersion": st.version,
                "fileSize": 18_400_000,
                "hasZigbee": b.has_zigbee,
                "hasZWave": b.has_zwave,
                "hubProtect": False,
            }
            for b in sorted(self._listed(), key=lambda b: b.created, reverse=True)
        ]
        return self.http.json(
            {
                "backups": out if self.cloud.entitled else [],
                "message": None if self.cloud.entitled else "No cloud backup subscription",
                "hasCloudBackupEntitlements": self.cloud.entitled,
                "hasCloudRestoreEntitlements": self.cloud.restore_entitled,
            }
        )

    async def trigger(self, request: web.Request) -> web.StreamResponse:
        parts = ("database", "zigbee", "zwave", "fileManager", "upload")
        failed = set(self.cloud.fail_parts) | (set() if self.cloud.entitled else {"upload"})
        answer: dict[str, bool] = {p: p not in failed for p in parts}
        answer["status"] = not failed
        if not failed:
            st = self.home.state
            now = utcnow()
            self.cloud.backups.append(
                CloudBackupEntry(
                    f"{st.hub_uid}/{now.strftime('%Y-%m-%d-%H%M%S')}-{len(self.cloud.backups)}.lzf",
                    now,
                    st.hub_uid,
                    st.hub_name,
                    password=self.cloud.password,
                )
            )
        return self.http.json(answer)

    def _find(self, path: str) -> CloudBackupEntry | None:
        return next(
            (b for b in self.cloud.backups if b.path == path and b.deleted_at is None), None
        )

    async def delete(self, request: web.Request) -> web.StreamResponse:
        found = self._find(request.query.get("path", ""))
        if found is None or found.hub_uid != self.home.state.hub_uid:
            return self.http.result(False, "Backup not found")
        found.deleted_at = utcnow()
        return self.http.result(True)

    async def restore(self, request: web.Request) -> web.StreamResponse:
        query = dict(request.query)
        password = query.pop("restorePassword", "")
        self.cloud.last_restore = query
        found = self._find(query.get("fileName", ""))
        if found is None or not self.cloud.restore_entitled:
            return self.http.result(False, "Backup not found")
        if found.password and password != found.password:
            return self.http.result(False, "Incorrect backup password")
        if query.get("restoreZw") == "true" and self.cloud.zwave_mismatch:
            return self.http.json({"success": False, "zwaveFirmwareMismatchBackupNewer": True})
        self.server.reboot_soon()
        return self.http.result(True)

    async def upload(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        part = form.get("uploadFile")
        if not isinstance(part, web.FileField):
            return self.http.result(False, "No file")
        self.cloud.uploaded = part.file.read()
        self.cloud.uploaded_name = part.filename
        return self.http.result(True)

    async def restore_uploaded(self, request: web.Request) -> web.StreamResponse:
        if not self.cloud.uploaded:
            return self.http.result(False, "No uploaded backup found")
        if not is_lzf_stream(self.cloud.uploaded):
            self.cloud.uploaded = None
            return self.http.result(False, "The uploaded file is not a valid backup")
        self.cloud.restored_uploads.append((self.cloud.uploaded_name or "", self.cloud.uploaded))
        self.cloud.uploaded = None

        async def restore() -> None:
            await asyncio.sleep(self.cloud.upload_restore_s)
            self.server.reboot_soon()

        # its own task: a client that stops waiting does not stop the restore
        await asyncio.shield(self.server.tasks.spawn(restore()))
        return self.http.result(True)

    async def schedule(self, request: web.Request) -> web.StreamResponse:
        c = self.cloud
        return self.http.json(
            {
                "localBackupFrequency": c.local_frequency,
                "cloudBackupFrequency": c.cloud_frequency,
                "databaseCleanupTimeHour": c.hour,
                "databaseCleanupJobMinute": c.minute,
                "backupPassword": c.password if c.expose_password else None,
                "hasCloudBackupEntitlements": c.entitled,
                "hasCloudRestoreEntitlements": c.restore_entitled,
            }
        )

    async def update_schedule(self, request: web.Request) -> web.StreamResponse:
        try:
            body: Any = json.loads(await request.text())
        except ValueError:
            return self.http.result(False, "Invalid request")
        keys = ("localBackupFrequency", "cloudBackupFrequency", "hour", "minute")
        if not isinstance(body, dict) or not all(isinstance(body.get(k), int) for k in keys):
            return self.http.result(False, "Invalid request")
        if (
            body["localBackupFrequency"] not in FREQUENCIES
            or body["cloudBackupFrequency"] not in FREQUENCIES
            or not (0 <= body["hour"] <= 23 and 0 <= body["minute"] <= 59)
        ):
            return self.http.result(False, "Invalid schedule")
        c = self.cloud
        c.local_frequency, c.cloud_frequency = (
            body["localBackupFrequency"],
            body["cloudBackupFrequency"],
        )
        c.hour, c.minute = body["hour"], body["minute"]
        # the whole schedule is replaced: a missing or empty password blanks it
        c.password = str(body.get("cloudBackupPassword") or "") or None
        return self.http.result(True)
