"""Radio endpoints: details, Z-Wave repair, radio operations and settings (§17).

Every path here is the one the hub's own UI calls (``vue-hub2.min.js``, firmware 2.5.0.143),
with the parameters it sends; ``docs/hub-endpoints.md`` ("Radios") lists them with their
evidence.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .answers import is_placeholder
from .client import HubClient
from .errors import HubBadResponseError
from .firmware import Platform


async def _json_dict(
    client: HubClient, path: str, params: dict[str, str] | None = None
) -> dict[str, Any]:
    data = await client.get_json(path, params)
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


def zwave_repair_modern(details: dict[str, Any], platform: Platform) -> bool:
    """True for the C-7-and-later repair (``zwaveRepair2``), False for a C-5's.

    The hub UI decides by the ``zwaveIP`` / ``zwaveJS`` flags of ``/hub/zwaveDetails/json``
    (either truthy: ``zwaveRepair2``, else ``checkZwaveRepairRunning`` + ``zwaveRepair``).
    When the hub said neither flag, the hardware generation decides (unknown: modern).
    """
    if "zwaveIP" in details or "zwaveJS" in details:
        return bool(details.get("zwaveIP")) or bool(details.get("zwaveJS"))
    generation = platform.generation
    return generation is None or generation >= 7


def _repair_running(answer: Any) -> bool | None:
    """``checkZwaveRepairRunning``: ``{"isZWaveNetworkHealRunning": "true"|"false"}``."""
    flag = answer.get("isZWaveNetworkHealRunning") if isinstance(answer, dict) else None
    if flag in (True, "true"):
        return True
    if flag in (False, "false"):
        return False
    return None


async def start_zwave_repair(client: HubClient, *, modern: bool) -> dict[str, Any]:
    """Start a Z-Wave network repair the way the hub UI does; ``{success, message}``.

    C-7 and later: ``/hub/zwaveRepair2?resetStats=false&maxHealth=10``. A C-5: ask
    ``checkZwaveRepairRunning`` first and call ``/hub/zwaveRepair`` only when none runs.
    """
    if modern:
        data = await client.request(
            "GET",
            "/hub/zwaveRepair2",
            params={"resetStats": "false", "maxHealth": "10"},
            expect="any",
            retry=False,
        )
        return _answer_dict(data)
    running = _repair_running(await _json_dict(client, "/hub/checkZwaveRepairRunning"))
    if running is not False:
        return {"success": False, "message": "A Z-Wave rebuild is already running"}
    data = await client.request("GET", "/hub/zwaveRepair", expect="any", retry=False)
    return _answer_dict(data)


async def fetch_zwave_repair_status(client: HubClient, *, modern: bool) -> dict[str, Any]:
    """``{running, stage, html}`` of the repair, polled the way the hub UI polls it.

    C-7 and later: ``/hub/zwaveRepair2Status`` ``{stage, html}``, running until the stage
    is ``IDLE``. A C-5: ``checkZwaveRepairRunning`` only (no stage, no progress text).
    """
    if modern:
        status = await _json_dict(client, "/hub/zwaveRepair2Status")
        stage = status.get("stage")
        running = None if not isinstance(stage, str) else stage.upper() != "IDLE"
        return {"running": running, "stage": stage, "html": status.get("html")}
    running = _repair_running(await _json_dict(client, "/hub/checkZwaveRepairRunning"))
    return {"running": running, "stage": None, "html": None}


def _answer_dict(data: Any) -> dict[str, Any]:
    return data if isinstance(data, dict) else {"success": False, "message": str(data)[:200]}


# (radio, method, path, node parameter) per action; node actions name the node in a form
# field (Z-Wave) or a query parameter (Matter).
RADIO_ACTIONS: dict[str, tuple[str, str, str, str | None]] = {
    "inclusion_start": ("zwave", "GET", "/hub/startZwaveJoin", None),
    "inclusion_stop": ("zwave", "GET", "/hub/stopJoin", None),
    "exclusion_start": ("zwave", "GET", "/hub/zwaveExclude", None),
    "exclusion_stop": ("zwave", "GET", "/hub/stopZWaveExclude", None),
    "repair_cancel": ("zwave", "GET", "/hub/zwaveCancelRepair", None),
    # one node's repair (C-7 and later), followed like the network repair (zwaveRepair2Status)
    "node_repair": ("zwave", "GET", "/hub/zwaveNodeRepair2", "zwaveNodeId"),
    "stats_refresh": ("zwave", "GET", "/hub/zwaveNodeDetailGet", None),
    "node_replace_stop": ("zwave", "POST", "/hub/zwave/nodeReplace/stop", None),
    # the antenna test against one mains-powered node; the hub asks the user between steps
    "antenna_test_start": ("zwave", "GET", "/hub/zwave2/startAntennaTest", "node"),
    "antenna_test_continue": ("zwave", "GET", "/hub/zwave2/antennaTestContinue", None),
    "node_refresh": ("zwave", "POST", "/hub/zwave/refreshNodeStatus", "zwaveNodeId"),
    "node_rediscover": ("zwave", "POST", "/hub/zwave/discoverDevice", "zwaveNodeId"),
    "node_reinitialize": ("zwave", "POST", "/hub/zwave/nodeReinitialize", "zwaveNodeId"),
    "radio_reboot": ("zigbee", "GET", "/hub/rebootZigbeeRadio", None),
    "rebuild_network": ("zigbee", "GET", "/hub/rebuildZigbeeNetwork", None),
    # the scan is slow and has its own call: run_zigbee_channel_scan
    "channel_scan": ("zigbee", "GET", "/hub/zigbeeChannelScanJson", None),
    "pair": ("matter", "GET", "/hub/matter/pair", None),
    "open_pairing_window": ("matter", "GET", "/hub/matter/openPairingWindow", "node"),
}
# Operations with their own request shape (JSON bodies, path segments): radio per action.
SPECIAL_ACTIONS: dict[str, str] = {
    "node_replace": "zwave",
    "s2_grant_keys": "zwave",
    "s2_enter_pin": "zwave",
    "s2_skip": "zwave",
    "smartstart_delete": "zwave",
    "firmware_abort": "zwave",
    "ping_on": "zigbee",
    "ping_off": "zigbee",
}


def _answer(data: Any) -> dict[str, Any]:
    if isinstance(data, dict):
        return data
    text = str(data if data is not None else "").strip()
    # a bare answer (Matter pair: the new node's id as a JSON string) is kept as ``bare``
    return {"success": True, "message": text[:200] or None, "bare": text[:200] or None}


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


# The hub UI's Zigbee scan page (``/hub/zigbeeChannelScan``) is HTML; the page itself asks
# ``/hub/zigbeeChannelScanJson``, which runs the scan and answers when it is done.
CHANNEL_SCAN_SECONDS = 60.0  # about a minute on a real hub
_SCAN_KEYS = (
    ("channel", "channel"),
    ("lastHopRssi", "rssi"),
    ("lastHopLqi", "lqi"),
    ("panId", "pan_id"),
    ("extendedPanId", "extended_pan_id"),
)


def parse_channel_scan(data: Any) -> list[dict[str, Any]]:
    """The scan's rows ``{channel, rssi, lqi, pan_id, extended_pan_id}``.

    The hub UI reads a plain array of ``{channel, lastHopRssi, lastHopLqi, panId,
    extendedPanId}``; the older reference wraps it as ``{"results": [...]}``: both are read.
    """
    rows = data.get("results") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise HubBadResponseError(
            "The hub answered the Zigbee channel scan with something that is not a list",
            hint="Report it with the firmware version.",
        )
    return [
        {ours: row[theirs] for theirs, ours in _SCAN_KEYS if theirs in row}
        for row in rows
        if isinstance(row, dict)
    ]


async def run_zigbee_channel_scan(client: HubClient, timeout: float) -> list[dict[str, Any]]:
    """Run the Zigbee channel scan: one slow ``/hub/zigbeeChannelScanJson``, never retried.

    ``timeout`` bounds the wait (the scan takes about a minute): past it
    :class:`HubTimeoutError` is raised.
    """
    data = await client.request("GET", "/hub/zigbeeChannelScanJson", timeout=timeout, retry=False)
    return parse_channel_scan(data)


def js_param(value: Any) -> str:
    """A query value as the hub UI's ``URLSearchParams`` writes it (``true``, ``0``, ``US``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


ZWAVE_UPDATE_SECONDS = 60.0  # the hub UI: "This may take up to a minute."


async def update_zwave_settings(
    client: HubClient,
    *,
    enabled: bool,
    region: str,
    secure_join: Any,
    long_range_channel: int | None,
    timeout: float,
) -> None:
    """``GET /hub/zwaveDetails/update``: a FULL replacement of the Z-Wave settings.

    The hub UI always sends ``enabled``, ``region`` and ``secureJoin`` (and
    ``longRangeChannel`` on a Long Range region); a missing one is reset by the hub (Z-Wave
    or Secure Join off), so the caller passes every current value. ``secureJoin`` is the
    value ``zwaveDetails/json`` reported (the UI's ``this.secureJoin = e.secureJoin``): when
    the hub reported none (``None`` or a placeholder such as ``"null"``; only where it does
    not offer the setting, ``showSecureJoin`` false) it is left out, never sent as text like
    ``None``. Never retried.
    """
    params = {"enabled": js_param(enabled), "region": region}
    if not is_placeholder(secure_join):
        params["secureJoin"] = js_param(secure_join)
    if long_range_channel is not None:
        params["longRangeChannel"] = js_param(long_range_channel)
    await client.request(
        "GET",
        "/hub/zwaveDetails/update",
        params=params,
        expect="any",
        timeout=timeout,
        retry=False,
        what="change the Z-Wave settings",
    )


def is_long_range_region(region: Any) -> bool:
    """The hub UI offers the Long Range channel only on a region whose code has ``LR``."""
    return isinstance(region, str) and "LR" in region.upper()


async def update_zigbee_channel_and_power(client: HubClient, channel: int, power: int) -> None:
    """``GET /hub/zigbee/updateChannelAndPower?channel=&powerLevel=`` (both, like the UI)."""
    await _setting(
        client,
        "/hub/zigbee/updateChannelAndPower",
        {"channel": js_param(channel), "powerLevel": js_param(power)},
    )


async def update_zigbee_settings(client: HubClient, *, rebuild: bool, ping: bool) -> None:
    """``GET /hub/zigbee/updateSettings``: both flags, always (a full replacement)."""
    await _setting(
        client,
        "/hub/zigbee/updateSettings",
        {"rebuildNetworkOnReboot": js_param(rebuild), "inactiveDevicePingEnabled": js_param(ping)},
    )


async def enable_radio(client: HubClient, radio: str, enabled: bool) -> None:
    """``GET /hub/<radio>/enable/<true|false>`` (``zwave``, ``zigbee`` or ``matter``)."""
    await _setting(client, f"/hub/{radio}/enable/{js_param(enabled)}", None)


async def _setting(client: HubClient, path: str, params: dict[str, str] | None) -> None:
    """One radio settings GET; a ``success: false`` answer is an error. Never retried."""
    await client.request(
        "GET", path, params=params, expect="any", retry=False, what="change the radio setting"
    )


# ---------------------------------------------------------------- inclusion, S2, SmartStart
S2_KEYS = ("S2AccessControl", "S2Authenticated", "S2Unauthenticated", "S0Unauthenticated")


async def fetch_inclusion_status(client: HubClient) -> dict[str, Any]:
    """``/hub/searchZwaveDevices`` (the add-device page polls it each second while it
    includes): ``{deviceMap{}, initMap{id: {type, stage}}, userRequest}``; ``userRequest``
    ``{type: "grantKeys", S2AccessControl: "true", ...}`` or ``{type: "securityCode",
    securityCode, length}`` while the hub waits for the user."""
    return await _json_dict(client, "/hub/searchZwaveDevices")


async def _post_text_json(client: HubClient, path: str, body: dict[str, Any], what: str) -> Any:
    """A POST whose body is JSON text without a JSON content type, as the hub UI's bare
    ``fetch(path, {method: "POST", body: JSON.stringify(...)})`` sends it. Never retried."""
    return await client.request(
        "POST", path, data=json.dumps(body), expect="any", retry=False, what=what
    )


async def send_s2_grants(client: HubClient, accept: bool, keys: dict[str, bool]) -> Any:
    """``POST /hub/zwave/securityKeys``: the keys the device asked for, granted or not.

    The hub UI echoes the requested keys (JSON Booleans) with ``accept`` ``"true"`` (Secure
    link) or ``"false"`` (No security).
    """
    body: dict[str, Any] = {"accept": js_param(accept)}
    body.update({key: bool(keys.get(key)) for key in S2_KEYS})
    return await _post_text_json(client, "/hub/zwave/securityKeys", body, "answer the S2 keys")


async def send_s2_code(client: HubClient, accept: bool, code: str) -> Any:
    """``POST /hub/zwave/securityCode`` ``{accept: "true"|"false", securityCode}``: the
    device's 5-digit PIN (Confirm) or a skip. The PIN is never logged or echoed."""
    body = {"accept": js_param(accept), "securityCode": code}
    return await _post_text_json(client, "/hub/zwave/securityCode", body, "answer the S2 PIN")


async def fetch_smartstart(client: HubClient) -> list[dict[str, Any]]:
    """``/mobileapi/zwave/smartstart/list?t=<ms>`` (cache-busted like the UI): its ``items``
    ``[{nodeName, dsk, status, canDelete, deviceId, pending, suggestRegularInclusion}]``."""
    data = await _json_dict(
        client, "/mobileapi/zwave/smartstart/list", {"t": str(int(time.time() * 1000))}
    )
    items = data.get("items")
    if not isinstance(items, list):
        raise HubBadResponseError("The hub's SmartStart list has no items list")
    return [item for item in items if isinstance(item, dict)]


async def delete_smartstart(client: HubClient, dsk: str) -> Any:
    """``POST /mobileapi/zwave/smartstart/delete`` JSON ``{nodeDSK}`` (the answer is not
    read by the UI: the caller re-lists)."""
    return await client.post_json(
        "/mobileapi/zwave/smartstart/delete", {"nodeDSK": dsk}, check=False
    )


async def start_node_replace(client: HubClient, node_id: int) -> Any:
    """``POST /hub2/zwave/nodeReplace`` JSON ``{zwaveNodeId}``: replace a FAILED node."""
    return await client.post_json(
        "/hub2/zwave/nodeReplace", {"zwaveNodeId": node_id}, what=f"replace node {node_id}"
    )


async def fetch_node_replace_status(client: HubClient) -> dict[str, Any]:
    """``/hub/zwave/nodeReplace/status``: ``{userRequest, replacedNode{running, status}}``."""
    return await _json_dict(client, "/hub/zwave/nodeReplace/status")


async def send_replace_s2_grants(client: HubClient, accept: bool, keys: dict[str, bool]) -> Any:
    """``POST /hub/zwave/nodeReplace/securityKeys``: the S2 keys for the device taking over
    a replaced node, as a form: ``S2AccessControl``, ``S2Authenticated``,
    ``S2Unauthenticated``, ``S0Unauthenticated`` (``true``/``false``, the keys granted) and
    ``securityKeySubmit`` ``OK`` (grant) or ``Cancel`` (no security).

    Evidence: the hub UI's replace dialog (``sendGrants``, in the path the live UI no longer
    reaches: it opens the hub's own ``/hub/zwave/nodeReplace/info`` page) names these fields
    and values; it hands them to ``fetch`` as a plain object, so the encoding is not shown:
    a form is what a page with a ``securityKeySubmit`` button posts. Thin evidence: the
    caller re-reads ``nodeReplace/status`` until it no longer asks. Never retried.
    """
    form = {key: js_param(bool(keys.get(key))) for key in S2_KEYS}
    form["securityKeySubmit"] = "OK" if accept else "Cancel"
    return await client.request(
        "POST",
        "/hub/zwave/nodeReplace/securityKeys",
        data=form,
        expect="any",
        retry=False,
        what="answer the S2 keys of the replacing device",
    )


async def fetch_antenna_test(client: HubClient) -> dict[str, Any]:
    """``/hub/zwave2/antennaTestProgress``: ``{stage, message, testNumber, antennaRSSI,
    noAntennaRSSI}``; ``WAITING_FOR_USER``: the user acts, then antenna_test_continue."""
    return await _json_dict(client, "/hub/zwave2/antennaTestProgress")


async def set_zigbee_device_ping(client: HubClient, device_id: str, on: bool) -> None:
    """``GET /hub/zigbee/updatePingDevice/<id>/<true|false>`` (the UI's per-device switch;
    the effect shows as ``devices[].ping`` in ``zigbeeDetails/json``)."""
    await _setting(client, f"/hub/zigbee/updatePingDevice/{device_id}/{js_param(on)}", None)
