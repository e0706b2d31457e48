"""Login, identity/health, event history, logs, backups and lifecycle endpoints."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from aiohttp import web

from .app_types import type_rows
from .backups_cloud_state import lzf_chunks
from .catalog import time_zones
from .clock import HUB_TZ, HUB_TZ_NAME, fmt_event, fmt_log, fmt_uptime, fmt_utc, utcnow
from .home import Home
from .model import App
from .responses import NO_COOKIE, Responses, login_page, redirect
from .routes_common import ServerRoutes
from .server import HubServer


def setup(app: web.Application, home: Home, http: Responses, server: HubServer) -> None:
    r = _HubRoutes(home, http, server)
    add = app.router
    add.add_get("/login", r.login_form)
    add.add_post("/login", r.login)
    add.add_get("/logout", r.logout)
    add.add_get("/", r.home_page)
    add.add_get("/hub/details/json", r.details)
    add.add_post("/location/update", r.location_update)
    add.add_get("/hub2/hubData", r.hub_data)
    add.add_get("/hub/messages", r.messages)
    add.add_get("/hubStatus", r.hub_status)
    add.add_get("/hub/rebootingJson", r.rebooting_json)
    add.add_get("/hub/serverInitPercentage", r.init_percentage)
    add.add_get("/hub/advanced/freeOSMemory", r.free_memory)
    add.add_get("/hub/advanced/internalTempCelsius", r.temperature)
    add.add_get("/hub/advanced/databaseSize", r.database_size)
    add.add_get("/hub/cpuInfo", r.cpu_info)
    add.add_get("/hub/zwaveVersion", r.zwave_version)
    add.add_get("/logs/json", r.logs_json)
    add.add_get("/logs/past/json", r.past_logs)
    add.add_get("/logs/eventsJson", r.location_events)
    add.add_get("/hub/eventsJson", r.hub_events)
    add.add_get("/hub2/localBackups", r.local_backups)
    add.add_get("/hub/backupDB", r.backup_db)
    add.add_get("/hub/backup/statusJson", r.backup_status)
    add.add_get("/hub2/deleteLocalBackup", r.delete_backup)
    add.add_post("/hub/reboot", r.reboot)
    add.add_get("/hub/reboot", r.reboot_get)
    add.add_get("/hub2/appsList", r.apps_list)


# the real hub's words on a rejected login
LOGIN_REJECTED = "The login information you supplied was incorrect."


class _HubRoutes(ServerRoutes):
    def __init__(self, home: Home, http: Responses, server: HubServer) -> None:
        super().__init__(home, http, server)
        self.security = server.security

    # ------------------------------------------------------------------ login

    async def login_form(self, request: web.Request) -> web.StreamResponse:
        return self.http.html_page(login_page())

    async def login(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        user = str(form.get("username", ""))
        pwd = str(form.get("password", ""))
        if not self.security.accepts(user, pwd):
            resp = self.http.html_page(login_page(LOGIN_REJECTED))
            resp.headers[NO_COOKIE] = "1"
            return resp
        token = self.security.new_session()
        resp = redirect("/")
        resp.headers.add("Set-Cookie", f"HUBSESSION={token}; Path=/")
        return resp

    async def logout(self, request: web.Request) -> web.StreamResponse:
        token = request.cookies.get("HUBSESSION")
        if token:
            self.security.end_session(token)
        return redirect("/login")

    async def home_page(self, request: web.Request) -> web.StreamResponse:
        return self.http.html_page(
            f"<!DOCTYPE html><html><head><title>{self.st.hub_name}</title></head>"
            '<body><div id="app">Hubitat Elevation&reg;</div></body></html>'
        )

    # ------------------------------------------------------------------ identity / health

    def _ip(self) -> str:
        return self.server.host

    async def details(self, request: web.Request) -> web.StreamResponse:
        now = utcnow()
        local = now.astimezone(HUB_TZ)
        sunrise = local.replace(hour=6, minute=41, second=0, microsecond=0)
        sunset = local.replace(hour=19, minute=12, second=0, microsecond=0)
        ip = self._ip()
        data = {
            "hubName": self.st.hub_name,
            "platformVersion": self.st.version,
            "hardwareVersion": f"Rev {self.st.model}",
            "hubUID": self.st.hub_uid,
            "macAddress": self.st.mac,
            "ipAddress": f'<a href="http://{ip}">{ip}</a> (Ethernet)',
            "zipCode": self.st.zip_code,
            "latitude": self.st.latitude,
            "longitude": self.st.longitude,
            "currentTime": fmt_utc(now),
            "timeZones": time_zones(),
            "timeZone": self.st.time_zone or HUB_TZ_NAME,
            "timeFormat": self.st.time_format,
            "dateFormat": self.st.date_format,
            "ttsVoices": [
                "Ivy",
                "Joanna",
                "Joey",
                "Justin",
                "Kendra",
                "Kimberly",
                "Matthew",
                "Salli",
            ],
            "ttsCurrent": self.st.tts_voice,
            "tempScale": self.st.temp_scale,
            "mdnsName": self.st.mdns_name,
            "users": [{"id": 1, "username": self.security.username, "admin": True}],
            "sunrise": fmt_utc(sunrise),
            "sunset": fmt_utc(sunset),
        }
        for key in self.home.details_omit:
            data.pop(key, None)
        return self.http.json(data)

    async def location_update(self, request: web.Request) -> web.StreamResponse:
        """Settings > Location save (§18.2): WHOLESALE, so an omitted field is blanked; a
        time-zone change reboots the hub. Answers ``{"success": true}``."""
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.http.result(False, "Invalid JSON")
        if not isinstance(body, dict):
            return self.http.result(False, "Invalid JSON")

        def text(key: str) -> str:
            value = body.get(key)
            return "" if value is None else str(value)

        def number(key: str) -> float:
            try:
                return float(body.get(key) or 0.0)
            except (TypeError, ValueError):
                return 0.0

        st = self.st
        old_zone = st.time_zone or HUB_TZ_NAME
        st.hub_name = text("name")
        st.zip_code = text("zipCode")
        st.latitude, st.longitude = number("latitude"), number("longitude")
        st.time_format, st.date_format = text("clock"), text("dateFormat")
        st.temp_scale, st.tts_voice = text("temperatureScale"), text("voice")
        st.mdns_name = text("mdnsName")
        st.time_zone = text("timeZone")
        if st.time_zone != old_zone:
            self.server.reboot_soon()
        return self.http.json({"success": True})

    async def hub_data(self, request: web.Request) -> web.StreamResponse:
        data: dict[str, Any] = {
            "hubId": self.st.hub_uid,
            "ipAddress": self._ip(),
            "version": self.st.version,
            "model": self.st.model,
            "baseModel": self.st.model.removesuffix(" Pro"),
            "name": self.st.hub_name,
            "alerts": {
                "hubLoadElevated": False,
                "hubLoadSevere": False,
                "hubHighLoad": False,
                "hubLowMemory": False,
                "hubZwaveCrashed": False,
                "hubLargeishDatabase": False,
                "hubLargeDatabase": False,
                "zwaveOffline": False,
                "zigbeeOffline": False,
                "cloudDisconnected": False,
                "localBackupFailed": False,
                "cloudBackupFailed": False,
                "platformUpdateAvailable": False,
                "spammyDevicesMessage": None,
                "runAlertsCounter": 0,
                "databaseSize": 21,
                "headerMessages": [],
            },
            "freshDatabase": False,
            "disableCloudController": self.server.network.cloud_disabled,
            "safeMode": False,
            "showGetStarted": False,
            "showConnectDevices": False,
            "showDeveloperMenu": True,
            "maintainRoomDashboards": False,
            "includeHiddenDevicesInSummary": False,
            "excludeVirtualDevicesFromSummary": False,
            "zwaveJSInstalled": False,
        }
        data["alerts"].update(self.home.ops.alerts)
        return self.http.json(data)

    async def messages(self, request: web.Request) -> web.StreamResponse:
        mode = self.st.current_mode
        return self.http.json(
            {
                "messages": [],
                "mode": {"locationId": 1, "id": mode.id, "icon": mode.icon, "name": mode.name},
                "hsm": self.st.hsm_status,
                "hsmAlert": self.st.hsm_alert,
            }
        )

    async def hub_status(self, request: web.Request) -> web.StreamResponse:
        starting = self.server.status == "starting"
        return self.http.json(
            {
                "serverInitPercentage": f"Initializing Hub: {60 if starting else 100}%",
                "serverInitDetails": "starting apps" if starting else "preparing UI",
                "status": "starting" if starting else "running",
            }
        )

    async def rebooting_json(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(
            {
                "hubId": self.st.hub_uid,
                "ipAddress": self._ip(),
                "version": self.st.version,
                "registered": True,
            }
        )

    async def init_percentage(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(
            {"serverInitPercentage": 60 if self.server.status == "starting" else 100}
        )

    async def free_memory(self, request: web.Request) -> web.StreamResponse:
        freed = self.server.network.freed_kb
        return self.http.text(str(914716 - (len(self.st.devices) * 40) + freed))

    async def temperature(self, request: web.Request) -> web.StreamResponse:
        return self.http.text("38.2")

    async def database_size(self, request: web.Request) -> web.StreamResponse:
        # Unit disputed (MB per a live capture, KB per a fixture); we follow the live capture.
        return self.http.text("21")

    async def cpu_info(self, request: web.Request) -> web.StreamResponse:
        # two lines, as a live hub answers (tests/fixtures/hub/health/cpu_info.json)
        return self.http.text("Processors 4\nLoad Average 0.15\n")

    async def zwave_version(self, request: web.Request) -> web.StreamResponse:
        return self.http.text("7.22")

    async def logs_json(self, request: web.Request) -> web.StreamResponse:
        uptime = (utcnow() - self.st.boot_time).total_seconds()
        devs = sorted(self.st.devices.values(), key=lambda d: -len(d.events))[:10]
        total = sum(len(d.events) for d in devs) * 3 or 1
        stats = [
            {
                "id": d.id,
                "name": d.display_name,
                "pct": round(len(d.events) * 3 / total * 100, 2),
                "count": len(d.events),
                "total": len(d.events) * 3,
                "stateSize": 120 + 10 * len(d.attrs),
                "formattedPct": f"{len(d.events) * 3 / total * 100:.2f}",
                "formattedPctTotal": f"{len(d.events) * 3 / total * 100:.2f}",
            }
            for d in devs
        ]
        # Per-app rows that add up to the apps' total (the hub UI's "% of busy" column sums to
        # about 100 over the rows), the busiest enabled apps first.
        apps = [a for a in self.st.apps.values() if not a.disabled and not a.hidden][:8]
        app_ms = [(a, 40 + (a.id * 37) % 160) for a in apps]
        apps_total = sum(ms for _a, ms in app_ms) or 1
        app_stats = [
            {
                "id": a.id,
                "name": a.true_label or a.name,
                "pct": round(ms / apps_total * 100, 2),
                "count": ms // 4,
                "total": ms,
                "stateSize": 200 + (a.id * 53) % 900,
                "formattedPct": f"{ms / apps_total * 100:.2f}",
                "formattedPctTotal": f"{ms / apps_total * 100:.2f}",
            }
            for a, ms in sorted(app_ms, key=lambda t: -t[1])
        ]
        return self.http.json(
            {
                "uptime": fmt_uptime(uptime),
                "totalDevicesRuntime": total,
                "devicePct": 1.2,
                "totalAppsRuntime": apps_total if app_stats else 0,
                "appPct": 0.6,
                "maxEvents": 100,
                "maxStates": 30,
                "deviceStats": stats,
                "appStats": app_stats,
                "jobs": self.home.ops.scheduled_jobs(),
                "runningJobs": [],
                "hubCommands": [],
            }
        )

    # ------------------------------------------------------------------ logs & events

    async def past_logs(self, request: web.Request) -> web.StreamResponse:
        want_type = request.query.get("type")
        want_id = request.query.get("id")
        lines: list[str] = []
        for e in self.st.logs:
            if want_type and e.type != want_type:
                continue
            if want_id and str(e.source_id) != want_id:
                continue
            lines.append(
                f"{fmt_log(e.date)}\t{e.level.upper()}\t{e.type}|{e.source_id}|{e.name}|{e.msg}"
            )
            lines.extend(e.continuation)
        return self.http.json(lines)

    async def location_events(self, request: web.Request) -> web.StreamResponse:
        out = [
            {
                "name": e.name,
                "value": e.value,
                "unit": e.unit,
                "descriptionText": e.description,
                "isStateChange": True,
                "type": e.type,
                "date": fmt_event(e.date),
            }
            for e in reversed(self.st.location_events)
        ]
        return self.http.json(out)

    async def hub_events(self, request: web.Request) -> web.StreamResponse:
        out = [
            {
                "id": e.id,
                "source": "HUB",
                "name": e.name,
                "value": e.value,
                "descriptionText": e.description,
                "date": fmt_event(e.date),
            }
            for e in reversed(self.st.hub_events)
        ]
        return self.http.json(out)

    # ------------------------------------------------------------------ backups

    async def local_backups(self, request: web.Request) -> web.StreamResponse:
        out = [
            {
                "name": b.name,
                "createTime": b.created.astimezone(HUB_TZ).strftime("%Y-%m-%d %H:%M"),
                "createTimeOrig": fmt_utc(b.created),
                "size": b.size,
            }
            for b in self.st.backups
        ]
        return self.http.json(out)

    async def backup_db(self, request: web.Request) -> web.StreamResponse:
        name = request.query.get("fileName", "latest")
        if name == "latest":
            backup = self.home.mark_backup_now()
        else:
            found = next((b for b in self.st.backups if b.name == name), None)
            if found is None:
                return self.http.not_found()
            backup = found
        resp = web.StreamResponse(
            headers={
                "Content-Type": "application/octet-stream",
                "Content-Disposition": f'attachment; filename="{backup.name}"',
            }
        )
        self.home.backup_in_progress = True
        try:
            await resp.prepare(request)
            seed = hashlib.sha256(backup.name.encode()).digest()
            for i in range(4):
                # an LZF chunk stream, as a real backup file (backups_cloud_state.lzf_chunks)
                await resp.write(lzf_chunks(seed * 64 + bytes([i]) * 1024))
            await resp.write_eof()
        finally:
            self.home.backup_in_progress = False
        return resp

    async def backup_status(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(
            {"backupInProgress": self.home.backup_in_progress, "cloudBackupInProgress": False}
        )

    async def delete_backup(self, request: web.Request) -> web.StreamResponse:
        name = request.query.get("fileName", "")
        before = len(self.st.backups)
        self.st.backups[:] = [b for b in self.st.backups if b.name != name]
        return self.http.json({"success": len(self.st.backups) < before})

    # ------------------------------------------------------------------ lifecycle / apps

    async def reboot(self, request: web.Request) -> web.StreamResponse:
        self.server.reboot_soon()
        return self.http.json({"success": True})

    async def reboot_get(self, request: web.Request) -> web.StreamResponse:
        return self.http.not_found()

    async def apps_list(self, request: web.Request) -> web.StreamResponse:
        apps: dict[int, App] = self.st.apps

        def node(a: App) -> dict[str, Any]:
            kids = [c for c in apps.values() if c.parent_id == a.id]
            return {
                "key": f"APP-{a.id}",
                "id": a.id,
                "data": {
                    "id": a.id,
                    "name": a.label or a.name,
                    "type": a.type,
                    "disabled": a.disabled,
                    "user": a.user,
                    "hidden": a.hidden,
                    "appTypeId": a.app_type_id,
                },
                "parent": bool(kids),
                "child": a.parent_id is not None,
                "children": [node(c) for c in kids],
            }

        tops = [a for a in apps.values() if a.parent_id is None]
        code = [(c.id, c.name, c.description) for c in self.dev.items("app")]
        return self.http.json({**type_rows(code), "apps": [node(a) for a in tops]})
