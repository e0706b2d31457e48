"""Radio endpoints: details, Z-Wave repair, radio operations and settings (§17)."""

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
        "GET", "/hub/zwaveRepair2", params={"resetStats": "false"}, expect="any", retry=False
    )
    return data if isinstance(data, dict) else {"success": False, "message": str(data)[:200]}


async def fetch_zwave_repair_status(client: HubClient) -> dict[str, Any]:
    """``{stage, html}`` plus whether a repair is running."""
    status = await _json_dict(client, "/hub/zwaveRepair2Status")
    running = await _json_dict(client, "/hub/checkZwaveRepairRunning")
    flag = running.get("isZWaveNetworkHealRunning")
    status["running"] = flag in (True, "true")
    return status


# (radio, method, path, node parameter) per action; node actions name the node in a form
# field (Z-Wave) or a query parameter (Matter).
RADIO_ACTIONS: dict[str, tuple[str, str, str, str | None]] = {
    "inclusion_start": ("zwave", "GET", "/hub/startZwaveJoin", None),
    "inclusion_stop": ("zwave", "GET", "/hub/stopJoin", None),
    "exclusion_start": ("zwave", "GET", "/hub/zwaveExclude", None),
    "exclusion_stop": ("zwave", "GET", "/hub/stopZWaveExclude", None),
    "repair_cancel": ("zwave", "GET", "/hub/zwaveCancelRepair", None),
    "node_refresh": ("zwave", "POST", "/hub/zwave/refreshNodeStatus", "zwaveNodeId"),
    "node_rediscover": ("zwave", "POST", "/hub/zwave/discoverDevice", "zwaveNodeId"),
    "node_reinitialize": ("zwave", "POST", "/hub/zwave/nodeReinitialize", "zwaveNodeId"),
    "radio_reboot": ("zigbee", "GET", "/hub/rebootZigbeeRadio", None),
    "rebuild_network": ("zigbee", "GET", "/hub/rebuildZigbeeNetwork", None),
    "channel_scan": ("zigbee", "GET", "/hub/zigbeeChannelScan", None),
    "pair": ("matter", "GET", "/hub/matter/pair", None),
    "open_pairing_window": ("matter", "GET", "/hub/matter/openPairingWindow", "node"),
}


def _answer(data: Any) -> dict[str, Any]:
    if isinstance(data, dict):
        return data
    text = str(data or "").strip()
    return {"success": True, "message": text[:200] or None}


async def call_radio_action(
    client: HubClient, action: str, *, node_id: int | None = None, setup_code: str | None = None
) -> dict[str, Any]:
    """Run one radio operation (§17.3); returns the hub's ``{success, message, ...}``.

    The hub's failure envelope raises :class:`HubRefusedError`.
    """
    radio, method, path, node_param = RADIO_ACTIONS[action]
    params: dict[str, str] = {}
    form: dict[str, str] | None = None
    if node_param is not None and node_id is not None:
        if method == "POST":
            form = {node_param: str(node_id)}
        else:
            params[node_param] = str(node_id)
    if setup_code is not None:
        params["setupCode"] = setup_code
    data = await client.request(
        method,
        path,
        params=params or None,
        data=form,
        expect="any",
        retry=False,
        what=f"run the {radio} operation {action}",
    )
    return _answer(data)


async def remove_zwave_node(client: HubClient, node_id: int) -> None:
    """``POST /hub/zwave/nodeRemove`` (form ``zwaveNodeId``): drop a failed node.

    The hub's failure envelope raises :class:`HubRefusedError`.
    """
    await client.post_form(
        "/hub/zwave/nodeRemove",
        {"zwaveNodeId": str(node_id)},
        what=f"remove Z-Wave node {node_id}",
    )


async def fetch_zigbee_channel_scan(client: HubClient) -> Any:
    """``/hub/zigbeeChannelScanJson``: the energy scan's results."""
    return await client.get_json("/hub/zigbeeChannelScanJson")


async def radio_setting(client: HubClient, path: str, params: dict[str, str] | None) -> None:
    """One radio settings GET (§17.2); a ``success: false`` answer is an error."""
    await client.request(
        "GET", path, params=params, expect="any", retry=False, what="change the radio setting"
    )
