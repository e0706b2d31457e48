"""The radio status reads the hub UI polls: Matter logs, a Z-Wave node's state, the
exclusion, the Zigbee network state and a Matter pairing (state: :class:`RadioState`).

Decisions where the evidence is silent:

* ``/hub/zwaveExclude/status`` answers ``{message}``: ``""`` while the exclusion waits,
  then ``"Excluded <name> (node <n>)"`` once the ``exclude_device`` knob's device left (the
  device is removed and the exclusion ends); the text stays until the next exclusion.
* ``/hub/zwave2/getNodeState?node=`` answers the node's Z-Wave JS state built from its
  device (status 3 "dead" for a failed node), with one value the stack marks ``secret``;
  an unknown node answers ``{error}``; a C-5 has no such page (404).
* ``/hub/zigbeeInfo/status`` answers ``STARTING`` for two polls after a radio reboot.
* ``/hub/matterPairDeviceStatus?nodeId=`` walks ``searching`` -> ``commissioning`` ->
  done (``hasDeviceId``) one poll each; ``matter_pair_fail_stage`` fails it there.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .home import Home
from .ops import OpsState
from .radio_state import RadioState
from .responses import Responses
from .routes_common import ServerRoutes
from .server import HubServer


def setup(app: web.Application, home: Home, http: Responses, server: HubServer) -> None:
    r = _StatusRoutes(home, http, server)
    add = app.router
    add.add_get("/hub/matterLogs/json", r.matter_logs)
    add.add_get("/hub/zwave2/getNodeState", r.node_state)
    add.add_get("/hub/zwaveExclude/status", r.exclude_status)
    add.add_get("/hub/zigbeeInfo/status", r.zigbee_status)
    add.add_get("/hub/matterPairDeviceStatus", r.matter_pair_status)


class RadioRoutesBase(ServerRoutes):
    """What the radio route groups share: the ops and radio state."""

    @property
    def ops(self) -> OpsState:
        return self.home.ops

    @property
    def rs(self) -> RadioState:
        return self.home.ops.radio_state


class _StatusRoutes(RadioRoutesBase):
    async def matter_logs(self, request: web.Request) -> web.StreamResponse:
        if not self.ops.matter:
            return self.http.not_found()
        return self.http.json({"text": "\r\n".join(self.rs.matter_log) + "\r\n"})

    def _zwave_device(self, node: int) -> Any:
        for d in self.st.devices.values():
            if d.driver.protocol == "zwave" and d.parent_id is None and int(d.dni, 16) == node:
                return d
        return None

    async def node_state(self, request: web.Request) -> web.StreamResponse:
        if "C-5" in (self.st.model or ""):
            return self.http.not_found()
        raw = request.query.get("node", "")
        device = self._zwave_device(int(raw)) if raw.isdigit() else None
        if device is None or self.rs.zwave_reset:
            return self.http.json({"error": f"Node {raw} not found"})
        node = int(device.dni, 16)
        failed = node in self.ops.failed_zwave_nodes
        switch = device.value("switch")
        return self.http.json(
            {
                "label": device.driver.name,
                "status": 3 if failed else 4,
                "ready": not failed,
                "interviewStage": "Complete",
                "lastSeen": 1764600000000,
                "firmwareVersion": "1.4",
                "protocol": 0,
                "protocolVersion": 3,
                "isSecure": "Lock" in device.driver.name,
                "highestSecurityClass": 2 if "Lock" in device.driver.name else -1,
                "supportsSecurity": True,
                "isListening": device.value("battery") is None,
                "isRouting": True,
                "supportsBeaming": True,
                "manufacturerId": 99,
                "productType": 18756,
                "productId": 12344,
                "maxDataRate": 100000,
                "supportedDataRates": [40000, 100000],
                "deviceConfig": {"manufacturer": "Acme Z", "label": device.driver.name},
                "deviceDatabaseUrl": f"https://devices.zwave-js.io/?jumpTo=0x0063:0x4944:{node}",
                "statistics": {
                    "commandsRX": 40 + node,
                    "commandsTX": 30 + node,
                    "rssi": -94 if failed else -60 - node % 20,
                    "rtt": 900 if failed else 20 + node,
                    "lwr": {"repeaters": [] if node % 3 else [4]},
                },
                "values": [
                    {
                        "endpoint": 0,
                        "commandClass": 37,
                        "commandClassName": "Binary Switch",
                        "property": "currentValue",
                        "propertyName": "currentValue",
                        "value": switch == "on",
                        "ccVersion": 2,
                        "ts": 1764600000000,
                        "metadata": {"label": "Current value", "readable": True},
                    },
                    {
                        "endpoint": 0,
                        "commandClass": 99,
                        "commandClassName": "User Code",
                        "property": "userCode",
                        "propertyKey": 1,
                        "value": "1357",
                        "ccVersion": 1,
                        "metadata": {"label": "User Code (1)", "secret": True},
                    },
                ],
                "endpoints": [{"index": 0, "commandClasses": [{"id": 37}, {"id": 134}]}],
            }
        )

    async def exclude_status(self, request: web.Request) -> web.StreamResponse:
        rs = self.rs
        if self.ops.zwave_mode == "excluding" and rs.exclude_device is not None:
            device = self.st.devices.pop(rs.exclude_device, None)
            rs.exclude_device = None
            if device is not None:
                self.ops.zwave_mode = None
                rs.exclusion_result = f"Excluded {device.display_name} (node {int(device.dni, 16)})"
        message = "" if self.ops.zwave_mode == "excluding" else rs.exclusion_result
        return self.http.json({"message": message})

    async def zigbee_status(self, request: web.Request) -> web.StreamResponse:
        rs = self.rs
        offline = bool(self.ops.alerts.get("zigbeeOffline"))
        state = "STARTING" if rs.zigbee_starting > 0 else ("OFFLINE" if offline else "ONLINE")
        rs.zigbee_starting = max(0, rs.zigbee_starting - 1)
        return self.http.json(
            {"networkState": state, "panId": rs.zigbee_pan[0], "extendedPanId": rs.zigbee_pan[1]}
        )

    async def matter_pair_status(self, request: web.Request) -> web.StreamResponse:
        if not self.ops.matter:
            return self.http.not_found()
        node = request.query.get("nodeId", "")
        rs = self.rs
        init: dict[str, Any] = {"stage": "", "isRunning": False, "isDeviceFound": False,
                                "isPairingFailed": False, "hasDeviceId": False}  # fmt: skip
        if node in rs.matter_pairs:
            polls = rs.matter_pairs[node] = rs.matter_pairs[node] + 1
            stage = ("searching", "commissioning", "complete")[min(polls, 3) - 1]
            init.update(stage=stage, isRunning=stage != "complete", isDeviceFound=polls > 1)
            if rs.matter_pair_fail_stage == stage:
                init.update(isRunning=False, isPairingFailed=True, failedStage=stage,
                            errorCode=50, errorMessage="Timeout")  # fmt: skip
            init["hasDeviceId"] = stage == "complete" and not init["isPairingFailed"]
        return self.http.json({"initMap": init, "deviceMap": {}})
