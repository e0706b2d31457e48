"""Z-Wave, Zigbee and Matter details (with a health summary) and the Z-Wave repair."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from ..hub.client import HubClient
from ..hub.errors import HubError, HubNotFoundError
from ..hub.radios import (
    fetch_matter_details,
    fetch_zigbee_details,
    fetch_zwave_details,
    fetch_zwave_repair_status,
    fetch_zwave_topology,
    start_zwave_repair,
)

_ZWAVE_NODE_KEYS = (
    "nodeId", "deviceId", "deviceName", "deviceType", "nodeState", "security", "route",
    "listening", "msgCount", "per", "averageRtt", "lwrRssi", "neighbors", "lastReceived",
    "batteryPercent",
)  # fmt: skip
_ZIGBEE_DEVICE_KEYS = (
    "id", "name", "type", "active", "shortZigbeeId", "lastMessage", "messageCount",
    "lastHopRssi", "lastHopLqi",
)  # fmt: skip


def _pick(item: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: item[k] for k in keys if k in item and item[k] is not None}


def _strip(text: Any) -> str:
    return re.sub(r"<[^>]+>", " ", str(text or "")).replace("  ", " ").strip()


class RadioManager:
    """Radio details and Z-Wave repair."""

    def __init__(self, client: HubClient) -> None:
        self._client = client

    async def zwave(self, node_id: int | None, topology: bool, limit: int) -> dict[str, Any]:
        data = await fetch_zwave_details(self._client)
        nodes = [n for n in data.get("nodes") or [] if isinstance(n, dict)]
        if node_id is not None:
            nodes = [n for n in nodes if str(n.get("nodeId")) == str(node_id)]
        failed = [n for n in nodes if str(n.get("nodeState", "OK")).upper() not in ("OK", "")]
        # problem nodes first, then by node id
        nodes.sort(
            key=lambda n: (n in failed, -int(n.get("per") or 0), int(n.get("nodeId") or 0)),
        )
        nodes.sort(key=lambda n: n not in failed)
        out: dict[str, Any] = {
            "enabled": data.get("enabled"),
            "healthy": data.get("healthy"),
            "firmware": data.get("firmwareVersion"),
            "region": data.get("region"),
            "long_range_channel": data.get("longRangeChannel"),
            "zwave_js": data.get("zwaveJS"),
            "update_in_progress": data.get("updateInProgress"),
            "node_count": len(nodes),
            "failed_nodes": [
                {"node_id": n.get("nodeId"), "device_id": n.get("deviceId"),
                 "name": n.get("deviceName"), "state": n.get("nodeState")}
                for n in failed
            ],
            "nodes": [_pick(n, _ZWAVE_NODE_KEYS) for n in nodes[:limit]],
        }  # fmt: skip
        if topology:
            try:
                out["topology"] = (await fetch_zwave_topology(self._client))[:20000]
            except HubError as err:
                out["topology_unavailable"] = err.code
        return out

    async def zigbee(self, limit: int) -> dict[str, Any]:
        data = await fetch_zigbee_details(self._client)
        devices = [d for d in data.get("devices") or [] if isinstance(d, dict)]
        inactive = [d for d in devices if d.get("active") is False]
        devices.sort(key=lambda d: (d.get("active") is not False, str(d.get("name") or "")))
        return {
            "enabled": data.get("enabled"),
            "healthy": data.get("healthy"),
            "network_state": data.get("networkState"),
            "channel": data.get("channel"),
            "weak_channel": data.get("weakChannel"),
            "pan_id": data.get("panId"),
            "extended_pan_id": data.get("extendedPanId"),
            "power_level": data.get("powerLevel"),
            "in_join_mode": data.get("inJoinMode"),
            "firmware_update_available": data.get("firmwareUpdateAvailable"),
            "device_count": len(devices),
            "inactive_devices": [{"id": d.get("id"), "name": d.get("name")} for d in inactive],
            "devices": [_pick(d, _ZIGBEE_DEVICE_KEYS) for d in devices[:limit]],
        }

    async def matter(self, limit: int) -> dict[str, Any]:
        try:
            data = await fetch_matter_details(self._client)
        except HubNotFoundError:
            return {"available": False, "note": "This hub has no Matter support (or it is off)."}
        devices = [d for d in data.get("devices") or [] if isinstance(d, dict)]
        return {
            "available": True,
            "enabled": data.get("enabled"),
            "installed": data.get("installed"),
            "network_state": data.get("networkState"),
            "fabric_id": data.get("fabricId"),
            "device_count": len(devices),
            "offline_devices": [d.get("name") for d in devices if d.get("online") is False],
            "devices": [
                _pick(d, ("nodeId", "id", "name", "online", "manufacturer", "model"))
                for d in devices[:limit]
            ],
        }

    async def details(
        self, radio: str, node_id: int | None, topology: bool, limit: int
    ) -> dict[str, Any]:
        """One radio, or all three (each failing independently)."""
        if radio == "zwave":
            return {"zwave": await self.zwave(node_id, topology, limit)}
        if radio == "zigbee":
            return {"zigbee": await self.zigbee(limit)}
        if radio == "matter":
            return {"matter": await self.matter(limit)}

        async def safe(coro: Any) -> dict[str, Any]:
            try:
                result: dict[str, Any] = await coro
            except HubError as err:
                return {"unavailable": err.code, "message": str(err)}
            return result

        zw, zb, mt = await asyncio.gather(
            safe(self.zwave(node_id, topology, limit)),
            safe(self.zigbee(limit)),
            safe(self.matter(limit)),
        )
        return {"zwave": zw, "zigbee": zb, "matter": mt}

    async def repair_status(self) -> dict[str, Any]:
        """The Z-Wave repair's stage and progress text."""
        status = await fetch_zwave_repair_status(self._client)
        return {
            "running": status.get("running"),
            "stage": status.get("stage"),
            "progress": _strip(status.get("html")) or None,
        }

    async def start_repair(self) -> dict[str, Any]:
        """Start a Z-Wave repair; an already running one is reported, not restarted."""
        result = await start_zwave_repair(self._client)
        status = await self.repair_status()
        if result.get("success") in (True, "true"):
            return {
                "summary": "Z-Wave repair started",
                "started": True,
                **status,
                "note": "A repair takes minutes to hours and slows Z-Wave while it runs; "
                "poll hub_get_zwave_repair_status.",
            }
        message = str(result.get("message") or "")
        if "already running" in message.lower():
            return {
                "summary": "A Z-Wave repair (or inclusion) is already running; not restarted",
                "started": False,
                **status,
            }
        from ..hub.errors import HubBadResponseError

        raise HubBadResponseError(
            f"The hub did not start a Z-Wave repair: {message or result}",
            hint="Check that the Z-Wave radio is enabled (hub_get_radio_details).",
        )
