"""Z-Wave S2 prompts, SmartStart, node repair/replace, statistics; Zigbee ping; firmware
and resets (state: :class:`RadioState` at ``OpsState.radio_state``).

Decisions where the evidence is silent:

* ``/hub/searchZwaveDevices`` asks for the S2 keys once an inclusion runs and the
  ``s2_device`` knob is set (``userRequest {type: "grantKeys", S2AccessControl: "true", ...}``
  with string flags, as the hub UI reads them), then for the PIN (``{type: "securityCode",
  securityCode: <the DSK after its first 5 digits>, length: 5}``); the right PIN joins the
  device with S2 Access Control, a wrong one or a skip joins it without security. The S2
  bootstrap grants a subset of the request: granted keys decide the joined security (the
  highest one; the PIN is asked only for an Access Control or Authenticated key), and a key
  the device did not ask for fails the bootstrap (it joins without security).
* A node replace with ``replace_s2`` set finds the new S2 device at once: its status asks for
  the keys (the same ``userRequest`` shape), answered by a form to
  ``/hub/zwave/nodeReplace/securityKeys`` (the replace dialog's fields: the four keys as
  ``true``/``false`` and ``securityKeySubmit`` ``OK``/``Cancel``). Keys needing the PIN then
  ask for it (only the hub's own replace page answers that); other keys, or Cancel, finish
  the replace.
* ``securityKeys`` / ``securityCode`` take JSON text (the UI's bare ``fetch``) and answer
  ``{success}``; asked out of turn they answer ``{success: false}``.
* SmartStart ``delete`` answers ``{success: true}`` and removes the entry by ``nodeDSK``.
* Device firmware runs 10 % per ``firmware_step`` seconds through stage ``UPDATING`` to
  ``DONE`` (``FAILED`` at ``device_firmware_fail_at``); the Z-Wave chip update goes
  ``UPDATING`` then ``REBOOT``; the Zigbee flash answers after ``firmware_step`` seconds
  and only while the radio is off.
* Resets: Z-Wave lists only the controller afterwards (devices stay), Zigbee gets a new PAN,
  Matter a new fabric and no devices.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

from .home import Home
from .responses import Responses
from .routes_radio_status import RadioRoutesBase
from .routes_radio_status import setup as setup_status
from .server import HubServer

_KEYS = {"S2AccessControl": "true", "S2Authenticated": "true", "S2Unauthenticated": "false",
         "S0Unauthenticated": "false"}  # fmt: skip
# highest first: the security a device joins with, by the keys granted
_SECURITY = (("S2AccessControl", "S2 Access Control"), ("S2Authenticated", "S2 Authenticated"),
             ("S2Unauthenticated", "S2 Unauthenticated"), ("S0Unauthenticated", "S0"))  # fmt: skip
_PIN_KEYS = {"S2AccessControl", "S2Authenticated"}


def _joined_security(granted: list[str]) -> str:
    """The security class a device joins with: the highest granted key (else ``None``)."""
    return next((name for key, name in _SECURITY if key in granted), "None")


def _grants(values: dict[str, Any], accept: bool) -> list[str] | None:
    """The granted keys, or None when the answer fails the bootstrap (a key not asked)."""
    granted = [k for k in _KEYS if values.get(k) in (True, "true")] if accept else []
    if any(_KEYS[k] != "true" for k in granted):
        return None
    return granted


def setup(app: web.Application, home: Home, http: Responses, server: HubServer) -> None:
    r = _RadioRoutes(home, http, server)
    add = app.router
    add.add_get("/hub/searchZwaveDevices", r.search_zwave)
    add.add_post("/hub/zwave/securityKeys", r.security_keys)
    add.add_post("/hub/zwave/securityCode", r.security_code)
    add.add_get("/mobileapi/zwave/smartstart/list", r.smartstart_list)
    add.add_post("/mobileapi/zwave/smartstart/delete", r.smartstart_delete)
    add.add_get("/hub/zwaveNodeRepair2", r.node_repair)
    add.add_get("/hub/zwaveNodeDetailGet", r.stats_refresh)
    add.add_post("/hub2/zwave/nodeReplace", r.node_replace)
    add.add_get("/hub/zwave/nodeReplace/status", r.node_replace_status)
    add.add_post("/hub/zwave/nodeReplace/stop", r.node_replace_stop)
    add.add_post("/hub/zwave/nodeReplace/securityKeys", r.node_replace_keys)
    add.add_get("/hub/zigbee/updatePingDevice/{device}/{value}", r.zigbee_ping)
    add.add_get("/hub/zwave2/startAntennaTest", r.antenna_start)
    add.add_get("/hub/zwave2/antennaTestProgress", r.antenna_progress)
    add.add_get("/hub/zwave2/antennaTestContinue", r.antenna_continue)
    fw = "/hub/zwave/deviceFirmware"
    add.add_get(f"{fw}/devices", r.fw_devices)
    add.add_get(f"{fw}/files", r.fw_files)
    add.add_get(f"{fw}/details", r.fw_details)
    add.add_get(f"{fw}/progress", r.fw_progress)
    add.add_post(f"{fw}/start", r.fw_start)
    add.add_post(f"{fw}/abort", r.fw_abort)
    add.add_get("/hub/zwave/startUpdateHubFirmware", r.zwave_fw_start)
    add.add_get("/hub/zwave/updateHubFirmwareStatus", r.zwave_fw_status)
    add.add_get("/hub/zigbee/updateFirmware/latest", r.zigbee_fw)
    for radio in ("zigbee", "matter"):
        add.add_get(f"/hub/{radio}/reset", r.reset)
    add.add_get("/hub/zwave/resetJson", r.reset)
    setup_status(app, home, http, server)


# which files of the firmware folder the updater lists (the emulator's choice: no evidence)
FIRMWARE_IMAGES = (".gbl", ".hex", ".otz", ".ota", ".bin")


class _RadioRoutes(RadioRoutesBase):
    def __init__(self, home: Home, http: Responses, server: HubServer) -> None:
        super().__init__(home, http, server)
        self._jobs: dict[int, asyncio.Task[Any]] = {}

    def _nodes(self) -> dict[int, Any]:
        """Z-Wave node id -> device (the controller and a reset radio have none)."""
        if self.rs.zwave_reset:
            return {}
        return {
            int(d.dni, 16): d
            for d in self.st.devices.values()
            if d.driver.protocol == "zwave" and d.parent_id is None
        }

    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            data = json.loads(await request.text())
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def _done(self, ok: bool = True, message: str | None = None, **extra: Any) -> web.Response:
        return self.http.json({"success": ok, "message": message, **extra})

    # ------------------------------------------------------------------ S2 inclusion

    async def search_zwave(self, request: web.Request) -> web.StreamResponse:
        rs = self.rs
        including = self.ops.zwave_mode == "including"
        if including and rs.s2_device and rs.s2_stage is None and rs.s2_result is None:
            rs.s2_stage = "grantKeys"
        user: dict[str, Any] | None = None
        if rs.s2_stage == "grantKeys":
            user = {"type": "grantKeys", **_KEYS}
        elif rs.s2_stage == "securityCode":
            user = {"type": "securityCode", "securityCode": "-55212-43011-22907", "length": 5}
        found = {}
        if rs.s2_result is not None:
            found["77"] = {"name": "Front Door Lock", "security": rs.s2_result}
        init = {"77": {"type": "zwave", "stage": "SECURITY"}} if rs.s2_stage else {}
        return self.http.json({"deviceMap": found, "initMap": init, "userRequest": user})

    async def security_keys(self, request: web.Request) -> web.StreamResponse:
        body, rs = await self._body(request), self.rs
        self.ops.radio_calls.append(f"{request.path} {request.content_type}")
        if rs.s2_stage != "grantKeys":
            return self._done(False, "No security key request pending")
        if not rs.s2_ignored:
            granted = _grants(body, body.get("accept") == "true")
            rs.s2_granted = granted or []
            if granted and _PIN_KEYS & set(granted):
                rs.s2_stage, rs.s2_result = "securityCode", None
            else:
                rs.s2_stage, rs.s2_result = None, _joined_security(rs.s2_granted)
        return self._done()

    async def security_code(self, request: web.Request) -> web.StreamResponse:
        body, rs = await self._body(request), self.rs
        self.ops.radio_calls.append(f"{request.path} {request.content_type}")
        if rs.s2_stage != "securityCode":
            return self._done(False, "No security code request pending")
        if not rs.s2_ignored:
            right = body.get("accept") == "true" and body.get("securityCode") == rs.s2_pin
            rs.s2_stage = None
            rs.s2_result = _joined_security(rs.s2_granted) if right else "None"
        return self._done()

    # ------------------------------------------------------------------ SmartStart

    async def smartstart_list(self, request: web.Request) -> web.StreamResponse:
        return self.http.json({"items": [dict(e) for e in self.rs.smartstart]})

    async def smartstart_delete(self, request: web.Request) -> web.StreamResponse:
        dsk = (await self._body(request)).get("nodeDSK")
        if not any(e["dsk"] == dsk for e in self.rs.smartstart):
            return self._done(False, "SmartStart entry not found")
        if not self.rs.smartstart_ignored:
            self.rs.smartstart = [e for e in self.rs.smartstart if e["dsk"] != dsk]
        return self._done()

    # ------------------------------------------------------------------ node operations

    async def node_repair(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("zwaveNodeId", "")
        node = int(raw) if raw.isdigit() else None
        ops = self.ops
        if node not in self._nodes():
            return self._done(False, f"Z-Wave node {raw} not found")
        if ops.repair_running or ops.zwave_mode:
            return self._done(False, "Inclusion or rebuild is already running")
        ops.repair_running, ops.repair_stage = True, "REPAIRING"
        ops.repair_done_nodes, ops.repair_total_nodes = 0, 1
        ops.radio_calls.append(f"{request.path}?zwaveNodeId={node}")

        async def run() -> None:
            try:
                await asyncio.sleep(ops.repair_step)
                ops.repair_done_nodes, ops.repair_stage = 1, "IDLE"
            finally:
                ops.repair_running = False

        self.home.tasks.spawn(run())
        return self._done()

    async def stats_refresh(self, request: web.Request) -> web.StreamResponse:
        self.rs.stats_refreshes += 1
        self.ops.radio_calls.append(request.path)
        return self.http.text("")

    async def node_replace(self, request: web.Request) -> web.StreamResponse:
        node = (await self._body(request)).get("zwaveNodeId")
        if not isinstance(node, int) or node not in self._nodes():
            return self._done(False, f"Z-Wave node {node} not found")
        if node not in self.ops.failed_zwave_nodes:
            return self._done(False, "Only a failed node can be replaced")
        self.rs.replace = {"node": node, "running": True, "status": "Waiting for the device"}
        if self.rs.replace_s2:  # the new device is found at once and asks for its keys
            self.rs.replace.update(status="Including the device", s2_stage="grantKeys")
        self.ops.radio_calls.append(request.path)
        return self._done()

    async def node_replace_status(self, request: web.Request) -> web.StreamResponse:
        rep = self.rs.replace
        replaced = {"running": rep["running"], "status": rep["status"]} if rep else None
        user: dict[str, Any] | None = None
        if rep.get("s2_stage") == "grantKeys":
            user = {"type": "grantKeys", **_KEYS}
        elif rep.get("s2_stage") == "securityCode":
            user = {"type": "securityCode", "securityCode": "-55212-43011-22907", "length": 5}
        return self.http.json({"userRequest": user, "replacedNode": replaced})

    async def node_replace_keys(self, request: web.Request) -> web.StreamResponse:
        rep, form = self.rs.replace, await request.post()
        self.ops.radio_calls.append(f"{request.path} {request.content_type}")
        if rep.get("s2_stage") != "grantKeys":
            return self._done(False, "No security key request pending")
        if self.rs.s2_ignored:
            return self._done()
        values = {k: form.get(k) for k in _KEYS}
        granted = _grants(values, form.get("securityKeySubmit") == "OK")
        rep["granted"] = granted or []
        if granted and _PIN_KEYS & set(granted):
            rep.update(s2_stage="securityCode", status="Waiting for the device's PIN")
        else:
            security = _joined_security(rep["granted"])
            rep.update(s2_stage=None, running=False, security=security,
                       status=f"Node replaced ({security})")  # fmt: skip
        return self._done()

    async def node_replace_stop(self, request: web.Request) -> web.StreamResponse:
        if self.rs.replace:
            self.rs.replace.update(running=False, status="Stopped")
        return self._done()

    async def zigbee_ping(self, request: web.Request) -> web.StreamResponse:
        raw, value = request.match_info["device"], request.match_info["value"]
        device = self.st.devices.get(int(raw)) if raw.isdigit() else None
        if device is None or device.driver.protocol != "zigbee" or value not in ("true", "false"):
            return self._done(False, "Unknown Zigbee device")
        self.rs.zigbee_ping[device.id] = value == "true"
        return self._done()

    # ------------------------------------------------------------------ antenna test

    async def antenna_start(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("node", "")
        if not raw.isdigit() or int(raw) not in self._nodes():
            return self._done(False, "Select a device to test with")
        self.rs.antenna = {"stage": "WAITING_FOR_USER", "testNumber": 1, "antennaRSSI": "-52",
                           "noAntennaRSSI": "", "message": "Disconnect the antenna, then "
                           "press Continue"}  # fmt: skip
        return self._done()

    async def antenna_progress(self, request: web.Request) -> web.StreamResponse:
        idle = {"stage": "IDLE", "testNumber": 0, "antennaRSSI": "", "noAntennaRSSI": "",
                "message": ""}  # fmt: skip
        return self.http.json(self.rs.antenna or idle)

    async def antenna_continue(self, request: web.Request) -> web.StreamResponse:
        if self.rs.antenna.get("stage") == "WAITING_FOR_USER":
            self.rs.antenna.update(stage="FINISHED", testNumber=2, noAntennaRSSI="-71",
                                   message="Test finished")  # fmt: skip
        return self._done()

    # ------------------------------------------------------------------ device firmware

    def _node_of(self, request: web.Request) -> int | None:
        raw = request.query.get("nodeId", "")
        node = int(raw) if raw.isdigit() else None
        return node if node in self._nodes() else None

    async def fw_devices(self, request: web.Request) -> web.StreamResponse:
        rows = [
            {"nodeId": node, "label": f"{d.display_name} ({node:02X})"}
            for node, d in sorted(self._nodes().items())
            if node not in self.ops.failed_zwave_nodes
        ]
        return self.http.json({"devices": rows})

    def _fw_files(self) -> list[str]:
        """The updater's files: the seeded ones and the File Manager's ``firmware`` folder
        (the hub UI's firmware file manager is the File Manager on that folder)."""
        seeded = list(self.rs.firmware_files)
        images = (n for n in self.home.files.names("firmware") if n.endswith(FIRMWARE_IMAGES))
        return seeded + [n for n in images if n not in seeded]

    async def fw_files(self, request: web.Request) -> web.StreamResponse:
        return self.http.json({"files": self._fw_files()})

    async def fw_details(self, request: web.Request) -> web.StreamResponse:
        node = self._node_of(request)
        if node is None:
            return self._done(False, "Device not found")
        targets = [{"target": 0, "label": "Target 0 (application), firmware 2.01"}]
        return self.http.json({"success": True, "targets": targets})

    async def fw_progress(self, request: web.Request) -> web.StreamResponse:
        node = self._node_of(request)
        if node is None:
            return self._done(False, "Device not found")
        idle = {"stage": "IDLE", "percent": 0, "status": "No update running"}
        return self.http.json({"success": True, "progress": self.rs.firmware_jobs.get(node, idle)})

    async def fw_start(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request)
        node, name = body.get("nodeId"), body.get("fileName")
        if node not in self._nodes() or body.get("target") != 0:
            return self._done(False, "Invalid device or target")
        if name not in self._fw_files():
            return self._done(False, "Firmware file not found")
        job = self.rs.firmware_jobs.get(node)
        if job is not None and job["stage"] == "UPDATING":
            return self._done(False, "An update is already running")
        job = self.rs.firmware_jobs[node] = {"stage": "UPDATING", "percent": 0,
                                             "status": f"Sending {name}"}  # fmt: skip
        self._jobs[node] = self.home.tasks.spawn(self._flash(job))
        return self._done(progress=dict(job))

    async def _flash(self, job: dict[str, Any]) -> None:
        fail_at = self.rs.device_firmware_fail_at
        while job["percent"] < 100:
            await asyncio.sleep(self.rs.firmware_step)
            job["percent"] += 10
            if fail_at is not None and job["percent"] >= fail_at:
                job.update(stage="FAILED", status="The device rejected the image")
                return
        job.update(stage="DONE", status="Firmware update completed")

    async def fw_abort(self, request: web.Request) -> web.StreamResponse:
        raw = (await self._body(request)).get("nodeId")
        node = raw if isinstance(raw, int) else -1
        task, job = self._jobs.pop(node, None), self.rs.firmware_jobs.get(node)
        if task is None or job is None or job["stage"] != "UPDATING":
            return self._done(False, "No update running for this device")
        task.cancel()
        job.update(stage="ABORTED", status="Firmware update aborted")
        return self._done(progress={"status": job["status"]})

    # ------------------------------------------------------------------ radio firmware

    async def zwave_fw_start(self, request: web.Request) -> web.StreamResponse:
        rs = self.rs
        if not rs.zwave_update_needed:
            return self._done(False, "No update needed")
        rs.zwave_update_stage = "UPDATING"

        def ready() -> None:
            rs.zwave_update_stage = "REBOOT"

        self.home.tasks.later(rs.firmware_step * 5, ready)
        return self._done()

    async def zwave_fw_status(self, request: web.Request) -> web.StreamResponse:
        stage = self.rs.zwave_update_stage
        status = {"IDLE": "", "UPDATING": "Updating Z-Wave firmware", "REBOOT": "Rebooting"}
        return self.http.json({"stage": stage, "status": status[stage], "message": status[stage]})

    async def zigbee_fw(self, request: web.Request) -> web.StreamResponse:
        rs = self.rs
        if self.ops.radio_enabled["zigbee"]:
            return self._done(False, "Stop Zigbee first")
        if not rs.zigbee_update_available:
            return self._done(False, "No firmware update available")
        rs.zigbee_update_in_progress = True
        await asyncio.sleep(rs.firmware_step)
        rs.zigbee_update_in_progress = False
        if rs.zigbee_firmware_fails:
            return self._done(False, "Firmware update failed")
        rs.zigbee_update_available, rs.zigbee_firmware = False, "7.4.1"
        return self._done()

    # ------------------------------------------------------------------ resets

    async def reset(self, request: web.Request) -> web.StreamResponse:
        rs, path = self.rs, request.path
        if "matter" in path and not self.ops.matter:
            return self.http.not_found()
        rs.resets.append(path)
        if rs.reset_ignored:
            return self._done()
        if "zwave" in path:
            rs.zwave_reset = True
            self.ops.failed_zwave_nodes.clear()
        elif "zigbee" in path:
            n = len(rs.resets)
            rs.zigbee_pan = (f"{0x5A00 + n:04X}", f"{0x1122334455660000 + n:016X}")
        else:
            rs.matter_fabric, rs.matter_reset = f"0x{len(rs.resets) + 1:016X}", True
        return self._done()
