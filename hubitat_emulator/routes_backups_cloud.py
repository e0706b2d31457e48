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

Decisions where the sources are silent, as knobs on ``emu.cloud`` (:class:`CloudState`, in
``backups_cloud_state.py``): the password reads back as null (the on-hub server saw null;
``expose_password`` shows it, as the UI's read suggests), a backup made while a password is set
needs it to restore, a deleted backup stays listed for ``delete_lag_s``, ``fail_parts`` makes a
cloud backup fail, ``zwave_mismatch`` answers the Z-Wave firmware mismatch, ``entitled`` turns
the subscription off.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

from aiohttp import web

from .backups_cloud_state import FREQUENCIES, CloudBackupEntry, CloudState, is_lzf_stream
from .clock import HUB_TZ, fmt_utc, utcnow
from .home import Home
from .responses import Responses
from .server import HubServer


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
