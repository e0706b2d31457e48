"""Radio endpoints: Z-Wave, Zigbee and Matter details, Z-Wave repair (§17)."""

from __future__ import annotations

from typing import Any

from .client import HubClient


async def _json_dict(client: HubClient, path: str) -> dict[str, Any]:
    data = await client.get_json(path)
    return data if isinstance(data, dict) else {}


async def fetch_zwave_details(client: HubClient) -> dict[str, Any]:
    """``/hub/zwaveDetails/json``: enabled, healthy, firmware, region, nodes[]."""
    return await _json_dict(client, "/hub/zwaveDetails/json")


async def fetch_zigbee_details(client: HubClient) -> dict[str, Any]:
    """``/hub/zigbeeDetails/json``: channel, PAN id, network state, devices[]."""
    return await _json_dict(client, "/hub/zigbeeDetails/json")


async def fetch_matter_details(client: HubClient) -> dict[str, Any]:
    """``/hub/matterDetails/json`` (404 on hubs without Matter)."""
    return await _json_dict(client, "/hub/matterDetails/json")


async def fetch_zwave_topology(client: HubClient) -> str:
    """``/hub/zwaveTopology``: the raw route table as text (``01: 06 07``)."""
    return await client.get_text("/hub/zwaveTopology")


async def start_zwave_repair(client: HubClient) -> dict[str, Any]:
    """Trigger a Z-Wave network repair; ``{"success": bool, "message": ...}``."""
    data = await client.request(
        "GET", "/hub/zwaveRepair2", params={"resetStats": "false"}, expect="any"
    )
    return data if isinstance(data, dict) else {"success": False, "message": str(data)[:200]}


async def fetch_zwave_repair_status(client: HubClient) -> dict[str, Any]:
    """``{stage, html}`` plus whether a repair is running."""
    status = await _json_dict(client, "/hub/zwaveRepair2Status")
    running = await _json_dict(client, "/hub/checkZwaveRepairRunning")
    flag = running.get("isZWaveNetworkHealRunning")
    status["running"] = flag in (True, "true")
    return status
