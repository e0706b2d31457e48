"""Hub operations: memory history, radios, Z-Wave repair, shutdown, firmware update, restore.

The requests as ``docs/hub-endpoints.md`` lists them. Decisions where no source says:

* ``/hub/advanced/freeOSMemoryHistory`` is the live CSV (``MM-dd HH:mm:ss`` dates, 5-minute
  rows since boot, at most ``OpsState.history_rows``); ``freeOSMemoryLast`` is its last row.
* ``/hub/zwaveDetails/json`` lists one node per Z-Wave device (node id = the hex DNI) plus the
  controller (node 1); nodes in ``OpsState.failed_zwave_nodes`` are ``FAILED`` with old
  ``lastReceived``. ``/hub/zigbeeDetails/json`` lists Zigbee devices; Matter answers its
  details only when ``OpsState.matter`` is true (else 404, like hubs without Matter).
* ``/hub/zwaveRepair2`` (C-7 and later) and ``/hub/zwaveRepair`` (``emu.state.model = "C-5"``)
  start a repair that walks every node in ``OpsState.repair_step`` seconds per node; a second
  call while running answers ``{"success":false,"message":"Inclusion or rebuild is already
  running"}``. ``/hub/zwaveRepair2Status`` answers ``{stage, html}``.
* ``POST /hub/shutdown`` takes the hub away until ``power_cycle()`` (or a very long time).
* ``/hub/cloud/checkForUpdate`` answers ``UPDATE_AVAILABLE`` when ``OpsState.update_version``
  is set (with the owner's ``accountEmails``, like the real hub); ``updatePlatform`` installs it
  and reboots (``emu.reboot_downtime``).
* ``/hub2/restoreLocalBackup?fileName=`` restores for ``OpsState.local_restore_s`` seconds,
  then answers ``{"success":true}`` and reboots (evidence: the hub UI waits for this answer
  without a limit and only then says "Restore completed successfully, hub will reboot now.";
  the on-hub server allows 120 s). The restore goes on to its reboot when the client stops waiting.
  An unknown name answers ``{"success":false,"message":"Backup not found"}`` at once.
* ``OpsState.alerts`` are merged over ``/hub2/hubData`` ``alerts`` (set them to raise alerts).
* Radio operations (§17.3) answer ``{"success": bool, "message"}``. Z-Wave inclusion and
  exclusion set ``OpsState.zwave_mode`` (``including``/``excluding``, cleared by the stop
  calls; starting one while the other or a repair runs is refused like the repair).
  ``/hub/zwaveExclude/status`` is in ``routes_radio_status``. Node calls take the form
  field ``zwaveNodeId`` (decimal) and refuse unknown nodes; ``nodeRemove`` removes only a
  FAILED node, and its device with it. Zigbee reboot/rebuild and Matter pairing answer
  success (pairing answers the new node id as a JSON string, ``"0"`` with the
  ``matter_pair_fails`` knob); ``/hub/zigbeeChannelScan`` is the UI's HTML page and
  ``zigbeeChannelScanJson`` runs the scan (``OpsState.channel_scan_s``) and answers a plain array;
  ``openPairingWindow?node=`` answers ``{success, setupCode}`` for a known Matter node.
  ``OpsState.radio_calls`` records them.
* Radio settings (§17.2): ``/hub/<radio>/enable/<bool>``, Zigbee
  ``updateChannelAndPower`` (both parameters required; channel 11-26, power 1-20) and
  ``updateSettings`` (both flags required), Z-Wave ``zwaveDetails/update`` (a FULL
  replacement: a missing ``enabled`` turns Z-Wave off, a missing ``secureJoin`` resets it to
  0) change ``OpsState`` and show in the details reads. The README's "Radios" evidence list
  says which of these rest on the hub UI.
"""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from typing import Any

from aiohttp import web

from .clock import HUB_TZ, utcnow
from .home import Home
from .ops import OpsState
from .responses import Responses
from .routes_common import ServerRoutes
from .server import HubServer

HEADER = "Date/time,Free OS,5m CPU avg,Total Java,Free Java,Direct Java"
# the region codes the hub UI offers (vue-hub2.min.js regionOptions)
ZWAVE_REGIONS = frozenset(
    {"US", "USLR", "EU", "AU", "HK", "MY", "IN", "IL", "RU", "CN", "JP", "KR", "UNKNOWN"}
)
SCAN_PAGE = """<!DOCTYPE html>
<html><head><title>Zigbee Channel Scan</title></head>
<body><div id="app"></div>
<script>fetch("/hub/zigbeeChannelScanJson").then(r => r.json())</script>
</body></html>
"""


def setup(app: web.Application, home: Home, http: Responses, server: HubServer) -> None:
    r = _OpsRoutes(home, http, server)
    add = app.router
    add.add_get("/hub/advanced/freeOSMemoryHistory", r.memory_history)
    add.add_get("/hub/advanced/freeOSMemoryLast", r.memory_last)
    add.add_get("/hub/zwaveDetails/json", r.zwave_details)
    add.add_get("/hub/zigbeeDetails/json", r.zigbee_details)
    add.add_get("/hub/matterDetails/json", r.matter_details)
    add.add_get("/hub/zwaveTopology", r.zwave_topology)
    add.add_get("/hub/zwaveRepair2", r.zwave_repair)
    add.add_get("/hub/zwaveRepair", r.zwave_repair_legacy)
    add.add_get("/hub/zwaveRepair2Status", r.zwave_repair_status)
    add.add_get("/hub/checkZwaveRepairRunning", r.zwave_repair_running)
    add.add_get("/hub/zwaveCancelRepair", r.zwave_repair_cancel)
    add.add_get("/hub/startZwaveJoin", r.zwave_join)
    add.add_get("/hub/stopJoin", r.zwave_stop_join)
    add.add_get("/hub/zwaveExclude", r.zwave_exclude)
    add.add_get("/hub/stopZWaveExclude", r.zwave_stop_exclude)
    for path in (
        "/hub/zwave/refreshNodeStatus",
        "/hub/zwave/discoverDevice",
        "/hub/zwave/nodeReinitialize",
        "/hub/zwave/nodeRemove",
    ):
        add.add_post(path, r.zwave_node)
    add.add_get("/hub/rebootZigbeeRadio", r.zigbee_op)
    add.add_get("/hub/rebuildZigbeeNetwork", r.zigbee_op)
    add.add_get("/hub/zigbeeChannelScan", r.zigbee_scan_page)
    add.add_get("/hub/zigbeeChannelScanJson", r.zigbee_scan_json)
    add.add_get("/hub/matter/pair", r.matter_pair)
    add.add_get("/hub/matter/openPairingWindow", r.matter_window)
    add.add_get("/hub/{radio:zwave|zigbee|matter}/enable/{value}", r.radio_enable)
    add.add_get("/hub/zigbee/updateChannelAndPower", r.zigbee_channel_power)
    add.add_get("/hub/zigbee/updateSettings", r.zigbee_settings)
    add.add_get("/hub/zwaveDetails/update", r.zwave_update)
    add.add_post("/hub/shutdown", r.shutdown)
    add.add_get("/hub/cloud/checkForUpdate", r.check_update)
    add.add_get("/hub/cloud/updatePlatform", r.update_platform)
    add.add_get("/hub/cloud/checkUpdateStatus", r.update_status)
    add.add_get("/hub2/restoreLocalBackup", r.restore_local)


class _OpsRoutes(ServerRoutes):
    def __init__(self, home: Home, http: Responses, server: HubServer) -> None:
        super().__init__(home, http, server)
        self._repair: asyncio.Task[Any] | None = None

    @property
    def ops(self) -> OpsState:
        return self.home.ops

    # ------------------------------------------------------------------ memory history

    def _history(self) -> list[str]:
        # The hub samples on a fixed 5-minute schedule from boot, so two reads in the same
        # window see the same last row (a "now"-anchored row would change every second).
        boot = self.st.boot_time
        samples = max(0, int((utcnow() - boot).total_seconds() // 300))
        rows = min(self.ops.history_rows, max(1, samples))
        last = boot + timedelta(minutes=5 * samples)
        base = 914716 - len(self.st.devices) * 40
        out = []
        for i in range(rows):
            t = last - timedelta(minutes=5 * (rows - 1 - i))
            free = base - self.ops.memory_trend_kb * (rows - 1 - i)
            cpu = 0.35 + 0.1 * ((i * 7) % 5)
            stamp = t.astimezone(HUB_TZ).strftime("%m-%d %H:%M:%S")
            out.append(f"{stamp},{free},{cpu:.2f},134796,{25508 + i % 50},20748")
        return out

    async def memory_history(self, request: web.Request) -> web.StreamResponse:
        return self.http.text("\n".join([HEADER, *self._history()]) + "\n")

    async def memory_last(self, request: web.Request) -> web.StreamResponse:
        return self.http.text(self._history()[-1] + "\n")

    # ------------------------------------------------------------------ radios

    def _modern_zwave(self) -> bool:
        """A C-7 or later (``zwaveIP`` true); a C-5 (``emu.state.model = "C-5"``) is not."""
        match = re.search(r"C-?(\d+)", self.st.model or "")
        return match is None or int(match.group(1)) >= 7

    def _zwave_devices(self) -> list[Any]:
        return [
            d
            for d in self.st.devices.values()
            if d.driver.protocol == "zwave" and d.parent_id is None
        ]

    async def zwave_details(self, request: web.Request) -> web.StreamResponse:
        now = utcnow()
        nodes: list[dict[str, Any]] = [
            {
                "nodeId": 1,
                "deviceId": None,
                "deviceName": "Hubitat Z-Wave controller",
                "nodeState": "OK",
                "route": "",
                "security": "None",
                "listening": True,
                "msgCount": 0,
            }
        ]
        zw_devices: dict[str, Any] = {}
        for d in [] if self.ops.radio_state.zwave_reset else self._zwave_devices():
            node = int(d.dni, 16)
            failed = node in self.ops.failed_zwave_nodes
            last = d.last_activity or now
            if failed:
                last = now - timedelta(days=6)
            battery = d.value("battery")
            nodes.append(
                {
                    "nodeId": node,
                    "deviceId": d.id,
                    "deviceName": d.display_name,
                    "deviceType": d.driver.name,
                    "zwaveType": "S2" if "Lock" in d.driver.name else "ZWP",
                    "nodeState": "FAILED" if failed else "OK",
                    "security": "S2 Access Control" if "Lock" in d.driver.name else "None",
                    "route": f"01 -> {node:02X}" if node % 3 else f"01 -> 04 -> {node:02X}",
                    "listening": battery is None,
                    "msgCount": 40 + node * 3,
                    "per": 12 if failed else node % 3,
                    "averageRtt": 900 if failed else 20 + node,
                    "lwrRssi": "-94 dBm" if failed else f"-{60 + node % 20} dBm",
                    "neighbors": 0 if failed else 3 + node % 4,
                    "routeChanges": 4 if failed else node % 2,
                    "lastSent": last.isoformat(timespec="seconds"),
                    "lastReceived": last.isoformat(timespec="seconds"),
                    "batteryPercent": battery,
                }
            )
            zw_devices[str(node)] = {"id": d.id, "label": d.display_name}
        return self.http.json(
            {
                "enabled": self.ops.radio_enabled["zwave"],
                "healthy": not self.ops.failed_zwave_nodes
                and not self.ops.alerts.get("zwaveOffline"),
                "zwaveJS": False,
                "zwaveIP": self._modern_zwave(),
                "firmwareVersion": self.ops.zwave_firmware,
                "region": self.ops.zwave_region,
                "longRangeChannel": self.ops.zwave_long_range_channel,
                "showRegion": True,
                "showSecureJoin": True,
                "secureJoin": self.ops.zwave_secure_join,
                "updateInProgress": False,
                "isRadioUpdateNeeded": self.ops.radio_state.zwave_update_needed,
                "zwDevices": zw_devices,
                "nodes": nodes,
            }
        )

    async def zigbee_details(self, request: web.Request) -> web.StreamResponse:
        now = utcnow()
        devices = []
        for d in self.st.devices.values():
            if d.driver.protocol != "zigbee" or d.parent_id is not None:
                continue
            last = d.last_activity or now
            devices.append(
                {
                    "id": d.id,
                    "name": d.display_name,
                    "active": (now - last) < timedelta(hours=24),
                    "shortZigbeeId": d.dni,
                    "zigbeeId": d.zigbee_id,
                    "lastMessage": last.astimezone(HUB_TZ).strftime("%Y-%m-%d %H:%M:%S"),
                    "messageCount": 100 + d.id,
                    "ping": self.ops.radio_state.zigbee_ping.get(d.id, d.id % 2 == 0),
                }
            )
        offline = bool(self.ops.alerts.get("zigbeeOffline"))
        return self.http.json(
            {
                "enabled": self.ops.radio_enabled["zigbee"],
                "healthy": not offline,
                "inJoinMode": False,
                "networkState": "OFFLINE" if offline else "ONLINE",
                "panId": self.ops.radio_state.zigbee_pan[0],
                "extendedPanId": self.ops.radio_state.zigbee_pan[1],
                "channel": self.ops.zigbee_channel,
                "weakChannel": False,
                "channels": list(range(11, 27)),
                "powerLevel": self.ops.zigbee_power,
                "powerLevels": list(range(1, 21)),
                "firmwareUpdateInProgress": self.ops.radio_state.zigbee_update_in_progress,
                "firmwareUpdateAvailable": self.ops.radio_state.zigbee_update_available,
                "showPowerSelection": True,
                "showRebuildNetworkOnReboot": True,
                "showInactiveDevicePing": True,
                "showReboot": True,
                "showRebuild": True,
                "rebuildNetworkOnReboot": self.ops.zigbee_rebuild_on_reboot,
                "inactiveDevicePingEnabled": self.ops.zigbee_inactive_ping,
                "devices": devices,
            }
        )

    async def matter_details(self, request: web.Request) -> web.StreamResponse:
        if not self.ops.matter:
            return self.http.not_found()
        return self.http.json(
            {
                "enabled": self.ops.radio_enabled["matter"],
                "installed": True,
                "installInProgress": False,
                "installFailed": False,
                "rebootRequired": False,
                "networkState": "ONLINE",
                "ipAddresses": [{"interface": "eth0", "address": "fd00::1c2b:3aff:fe4d:5e6f"}],
                "fabricId": self.ops.radio_state.matter_fabric,
                "devices": []
                if self.ops.radio_state.matter_reset
                else [
                    {
                        "nodeId": 3001,
                        "online": True,
                        "id": None,
                        "uniqueId": "A1B2C3D4",
                        "manufacturer": "Eve Systems",
                        "model": "Eve Energy",
                        "name": "Eve Energy (uncommissioned to a device)",
                        "ipAddress": "fd00::2",
                    },
                    *self.ops.radio_state.matter_nodes,
                ],
            }
        )

    async def zwave_topology(self, request: web.Request) -> web.StreamResponse:
        if not self._modern_zwave():
            return self.http.not_found()
        lines = [f"{int(d.dni, 16):02X}: 01" for d in self._zwave_devices()]
        return self.http.text("\n".join(lines) + "\n")

    # ------------------------------------------------------------------ Z-Wave repair

    async def _run_repair(self) -> None:
        ops = self.ops
        try:
            for i in range(ops.repair_total_nodes):
                ops.repair_stage = "REPAIRING"
                await asyncio.sleep(ops.repair_step)
                ops.repair_done_nodes = i + 1
            ops.repair_stage = "IDLE"
        finally:
            ops.repair_running = False

    async def zwave_repair(self, request: web.Request) -> web.StreamResponse:
        if not self._modern_zwave():
            return self.http.not_found()
        return self._start_repair()

    async def zwave_repair_legacy(self, request: web.Request) -> web.StreamResponse:
        """A C-5's ``/hub/zwaveRepair`` (C-7 and later use ``zwaveRepair2``)."""
        if self._modern_zwave():
            return self.http.not_found()
        return self._start_repair()

    def _start_repair(self) -> web.Response:
        ops = self.ops
        if ops.repair_running:
            return self.http.json(
                {"success": False, "message": "Inclusion or rebuild is already running"}
            )
        ops.repair_running = True
        ops.repair_stage = "STARTING"
        ops.repair_done_nodes = 0
        ops.repair_total_nodes = len(self._zwave_devices())
        self._repair = self.home.tasks.spawn(self._run_repair())
        return self.http.result(True)

    async def zwave_repair_status(self, request: web.Request) -> web.StreamResponse:
        if not self._modern_zwave():
            return self.http.not_found()
        ops = self.ops
        if ops.repair_running:
            html = (
                f"Stage: Repairing node {ops.repair_done_nodes + 1} of {ops.repair_total_nodes}"
                "<br/>"
            )
        elif ops.repair_total_nodes:
            html = f"Stage: Finished<br/>Repaired {ops.repair_done_nodes} nodes"
        else:
            html = "Stage: Idle"
        return self.http.json({"stage": ops.repair_stage, "html": html})

    async def zwave_repair_running(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(
            {"isZWaveNetworkHealRunning": "true" if self.ops.repair_running else "false"}
        )

    async def zwave_repair_cancel(self, request: web.Request) -> web.StreamResponse:
        if not self._modern_zwave():
            return self.http.not_found()
        if self._repair is not None:
            self._repair.cancel()
        self.ops.repair_running = False
        self.ops.repair_stage = "IDLE"
        # the hub UI shows e.message as the repair report (hub-endpoints.md)
        return self.http.json({"message": "Z-Wave network rebuild cancelled"})

    # ------------------------------------------------------------------ radio operations

    def _ok(self, path: str, **extra: Any) -> web.Response:
        self.ops.radio_calls.append(path)
        return self.http.json({"success": True, "message": None, **extra})

    def _refuse(self, message: str) -> web.Response:
        return self.http.result(False, message)

    def _zwave_busy(self, want: str) -> str | None:
        if self.ops.repair_running:
            return "Inclusion or rebuild is already running"
        if self.ops.zwave_mode not in (None, want):
            return f"Z-Wave {self.ops.zwave_mode} is running"
        return None

    def _zwave_start(self, request: web.Request, mode: str) -> web.Response:
        if busy := self._zwave_busy(mode):
            return self._refuse(busy)
        self.ops.zwave_mode = mode
        return self._ok(request.path)

    def _zwave_stop(self, request: web.Request, mode: str) -> web.Response:
        if self.ops.zwave_mode == mode:
            self.ops.zwave_mode = None
        return self._ok(request.path)

    async def zwave_join(self, request: web.Request) -> web.StreamResponse:
        return self._zwave_start(request, "including")

    async def zwave_stop_join(self, request: web.Request) -> web.StreamResponse:
        return self._zwave_stop(request, "including")

    async def zwave_exclude(self, request: web.Request) -> web.StreamResponse:
        if self.ops.zwave_mode != "excluding":
            self.ops.radio_state.exclusion_result = ""
        return self._zwave_start(request, "excluding")

    async def zwave_stop_exclude(self, request: web.Request) -> web.StreamResponse:
        return self._zwave_stop(request, "excluding")

    async def zwave_node(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        raw = str(form.get("zwaveNodeId", ""))
        node = int(raw) if raw.isdigit() else None
        device = next((d for d in self._zwave_devices() if int(d.dni, 16) == node), None)
        if device is None:
            return self._refuse(f"Z-Wave node {raw} not found")
        if request.path.endswith("/nodeRemove"):
            if node not in self.ops.failed_zwave_nodes:
                return self._refuse(f"Node {node} is not failed; exclude it instead")
            self.ops.failed_zwave_nodes.discard(node)
            self.st.devices.pop(device.id, None)
        return self._ok(request.path)

    async def zigbee_op(self, request: web.Request) -> web.StreamResponse:
        if request.path == "/hub/rebootZigbeeRadio":
            self.ops.radio_state.zigbee_starting = 2
        return self._ok(request.path)

    async def zigbee_scan_page(self, request: web.Request) -> web.StreamResponse:
        """The hub UI's scan page: HTML whose script asks ``zigbeeChannelScanJson``."""
        return self.http.html_page(SCAN_PAGE)

    async def zigbee_scan_json(self, request: web.Request) -> web.StreamResponse:
        """The scan itself: answers after ``ops.channel_scan_s`` (a real hub: about 60 s)."""
        self.ops.radio_calls.append(request.path)
        await asyncio.sleep(self.ops.channel_scan_s)
        rows = []
        for ch in range(11, 27):
            if ch % 5 == 0:  # a neighbour's network heard on this channel
                rows.append(
                    {
                        "channel": ch,
                        "lastHopRssi": -60 - ch,
                        "lastHopLqi": 200 - ch,
                        "panId": f"{0x1A00 + ch:04X}",
                        "extendedPanId": f"{0x00124B0000000000 + ch:016X}",
                    }
                )
        self.ops.channel_scan = rows
        return self.http.json(rows)

    async def matter_pair(self, request: web.Request) -> web.StreamResponse:
        if not self.ops.matter:
            return self.http.not_found()
        code = request.query.get("setupCode", "")
        if not code:
            return self._refuse("setupCode is required")
        self.ops.radio_calls.append(request.path)
        rs = self.ops.radio_state
        if rs.matter_pair_fails:
            return self.http.json("0")
        node = str(3002 + len(rs.matter_pairs))
        rs.matter_pairs[node] = 0
        return self.http.json(node)

    async def matter_window(self, request: web.Request) -> web.StreamResponse:
        if not self.ops.matter:
            return self.http.not_found()
        known = {"3001", *(str(n.get("nodeId")) for n in self.ops.radio_state.matter_nodes)}
        if request.query.get("node") not in known:
            return self._refuse("Matter node not found")
        self.ops.radio_calls.append(request.path)
        return self.http.json({"success": True, "setupCode": "34970112332"})

    # ------------------------------------------------------------------ radio settings

    async def radio_enable(self, request: web.Request) -> web.StreamResponse:
        value = request.match_info["value"]
        if value not in ("true", "false"):
            return self._refuse("Expected true or false")
        self.ops.radio_enabled[request.match_info["radio"]] = value == "true"
        return self._ok(request.path)

    async def zigbee_channel_power(self, request: web.Request) -> web.StreamResponse:
        try:
            channel = int(request.query["channel"])
            power = int(request.query["powerLevel"])
        except (KeyError, ValueError):
            return self._refuse("channel and powerLevel are required")
        if not 11 <= channel <= 26 or not 1 <= power <= 20:
            return self._refuse("Invalid channel or power level")
        if self.ops.settings_ignored:
            return self._ok(request.path)
        self.ops.zigbee_channel, self.ops.zigbee_power = channel, power
        return self._ok(request.path)

    async def zigbee_settings(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        if {"rebuildNetworkOnReboot", "inactiveDevicePingEnabled"} - q.keys():
            return self._refuse("Both settings are required")
        if self.ops.settings_ignored:
            return self._ok(request.path)
        self.ops.zigbee_rebuild_on_reboot = q["rebuildNetworkOnReboot"] == "true"
        self.ops.zigbee_inactive_ping = q["inactiveDevicePingEnabled"] == "true"
        return self._ok(request.path)

    async def zwave_update(self, request: web.Request) -> web.StreamResponse:
        """A FULL replacement, like the real hub: what is missing is reset (off).

        Evidence: the hub UI (Z-Wave ``updateSettings``) sends ``enabled``, ``region`` and
        ``secureJoin`` as ``zwaveDetails/json`` reported them (``URLSearchParams``: ``true``,
        ``USLR``, ``0``/``1``), plus ``longRangeChannel`` on a Long Range region; the on-hub server
        calls it a full-replacement GET. Assumptions: a missing ``secureJoin``, or one that is not a
        number (the text ``None`` or ``null``), resets Secure Join to 0 (locks and garage
        doors only).
        """
        q = request.query
        region = q.get("region", "")
        channel = q.get("longRangeChannel")
        if region not in ZWAVE_REGIONS or channel not in (None, "0", "1", "255"):
            return self._refuse("Invalid region or long range channel")
        ops = self.ops
        if ops.settings_ignored:
            return self._ok(request.path)
        ops.radio_enabled["zwave"] = q.get("enabled") == "true"
        ops.zwave_secure_join = int(q["secureJoin"]) if q.get("secureJoin", "").isdigit() else 0
        ops.zwave_region = region
        if channel is not None:
            ops.zwave_long_range_channel = int(channel)
        return self._ok(request.path)

    # ------------------------------------------------------------------ lifecycle

    async def shutdown(self, request: web.Request) -> web.StreamResponse:
        def power_off() -> None:
            self.ops.shutdown = True

        self.server.reboot_soon(10**6, before=power_off)
        return self.http.json({"success": True})

    async def check_update(self, request: web.Request) -> web.StreamResponse:
        version = self.ops.update_version
        return self.http.json(
            {
                "version": version or self.st.version,
                "upgrade": version is not None,
                "status": "UPDATE_AVAILABLE" if version else "NO_UPDATE_AVAILABLE",
                "releaseNotesUrl": "https://community.hubitat.com/t/release-notes",
                "beta": False,
                "accountEmails": ["owner@example.com"],
            }
        )

    async def update_platform(self, request: web.Request) -> web.StreamResponse:
        version = self.ops.update_version
        if version is None:
            return self.http.json({"success": "false", "message": "No update available"})
        self.ops.update_status = "DOWNLOAD_STARTED"

        def install() -> None:
            self.st.version = version
            self.ops.update_version = None
            self.ops.update_status = "IDLE"

        self.server.reboot_soon(before=install)
        return self.http.json({"success": "true"})

    async def update_status(self, request: web.Request) -> web.StreamResponse:
        percent = 40 if self.ops.update_status == "DOWNLOAD_STARTED" else 0
        return self.http.json({"status": self.ops.update_status, "percent": percent})

    async def restore_local(self, request: web.Request) -> web.StreamResponse:
        name = request.query.get("fileName", "")
        if not any(b.name == name for b in self.st.backups):
            return self.http.result(False, "Backup not found")

        async def restore() -> None:
            await asyncio.sleep(self.ops.local_restore_s)
            self.server.reboot_soon()

        # its own task: a client that stops waiting does not stop the restore
        await asyncio.shield(self.server.tasks.spawn(restore()))
        return self.http.json({"success": True})
