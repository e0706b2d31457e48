"""Radio status reads the hub UI polls: Matter logs, a Z-Wave node's state, the exclusion,
the Zigbee network state and a Matter pairing (``docs/hub-endpoints.md``, "Radios").

Paths and parameters as the hub's own UI sends them (``vue-hub2.min.js``, 2.5.0.143); the on-hub
server's ``mcp-diagnostics-lib.groovy`` calls the same paths.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from .client import HubClient


async def _any(client: HubClient, path: str, params: dict[str, str] | None = None) -> Any:
    return await client.request("GET", path, params=params, expect="any")


# ---------------------------------------------------------------- Matter logs
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# a log entry starts "[<epoch s>.<ms>] [<pid>:<tid>] [<CATEGORY>] "; other lines continue it
_ENTRY_START = re.compile(r"^\[\d+\.\d+\] \[\d+:\d+\] \[[A-Z]+\] ")
_ENTRY = re.compile(r"^\[(\d+)\.(\d{3})\]\s+\[(\d+:\d+)\] \[([A-Z]+)\]\s*(.*)$", re.S)
# the Java RMI chatter the hub UI hides from this page
_NOISE = (
    "sun.rmi.", "chip.devicecontroller.ChipDeviceControllerHubitatRMI", "RMI TCP Connecti",
)  # fmt: skip


async def fetch_matter_logs(client: HubClient) -> str:
    """``/hub/matterLogs/json``: ``{text}`` (the Matter stack's log, ANSI colours included);
    the UI polls it every 2 s. A plain-text body is read as the text."""
    data = await _any(client, "/hub/matterLogs/json")
    if isinstance(data, dict):
        return str(data.get("text") or "")
    return data if isinstance(data, str) else ""


def parse_matter_logs(text: str) -> list[dict[str, Any]]:
    """The log's entries, newest first: ``{time, category, message}`` (time ISO 8601 UTC,
    from the epoch seconds the entry starts with), continuation lines joined, noise left out.
    """
    entries: list[str] = []
    for line in _ANSI.sub("", text or "").replace("\r\n", "\n").split("\n"):
        if not line:
            continue
        if _ENTRY_START.match(line):
            entries.append(line)
        elif entries:
            entries[-1] += "\n" + line
    out: list[dict[str, Any]] = []
    for entry in entries:
        m = _ENTRY.match(entry)
        if m is None or any(n in entry for n in _NOISE):
            continue
        seconds, millis, thread, category, message = m.groups()
        when = datetime.fromtimestamp(int(seconds) + int(millis) / 1000, UTC)
        out.append(
            {
                "time": when.isoformat(timespec="milliseconds"),
                "category": category,
                "message": f"[{thread}] {message}",
            }
        )
    out.reverse()
    return out


# ---------------------------------------------------------------- Z-Wave node state
async def fetch_zwave_node_state(client: HubClient, node_id: int) -> dict[str, Any] | str:
    """``/hub/zwave2/getNodeState?node=<decimal id>``: the node's state as the Z-Wave JS
    stack keeps it (``label, status, ready, interviewStage, firmwareVersion, statistics,
    values[], endpoints[]...``) or ``{error}``; the on-hub server reads a plain-text answer too
    (returned as text)."""
    data = await _any(client, "/hub/zwave2/getNodeState", {"node": str(node_id)})
    if isinstance(data, dict | str):
        return data
    return ""


# ---------------------------------------------------------------- pollers
async def fetch_exclusion_status(client: HubClient) -> dict[str, Any]:
    """``/hub/zwaveExclude/status``: the UI reads ``message`` (``""`` while nothing was
    excluded; the result text once a device left). An ``{excluding: bool}`` answer (the
    older reference) is read too."""
    data = await _any(client, "/hub/zwaveExclude/status")
    data = data if isinstance(data, dict) else {}
    message = data.get("message")
    excluding = data.get("excluding")
    return {
        "message": message if isinstance(message, str) else None,
        "excluding": excluding if isinstance(excluding, bool) else None,
    }


async def fetch_zigbee_network_state(client: HubClient) -> dict[str, Any]:
    """``/hub/zigbeeInfo/status``: ``{networkState, panId, extendedPanId}``; the UI polls
    it each second after a radio restart until ``networkState`` is ``ONLINE``."""
    data = await _any(client, "/hub/zigbeeInfo/status")
    return data if isinstance(data, dict) else {}


def matter_pair_node(answer: Any) -> str | None:
    """The node id ``/hub/matter/pair`` answers (a JSON string; ``"0"``: not started).

    An envelope ``{success, message}`` (the older reading) names no node: None.
    """
    if isinstance(answer, bool) or answer is None or isinstance(answer, dict | list):
        return None
    text = str(answer).strip().strip('"')
    return text if text.isdigit() and text != "0" else None


async def fetch_matter_pair_status(client: HubClient, node_id: str) -> dict[str, Any]:
    """``/hub/matterPairDeviceStatus?nodeId=<id>`` (polled each second while pairing):
    ``{initMap: {stage, isRunning, isDeviceFound, isPairingFailed, failedStage, errorCode,
    errorMessage, hasDeviceId}, deviceMap}``."""
    data = await _any(client, "/hub/matterPairDeviceStatus", {"nodeId": node_id})
    return data if isinstance(data, dict) else {}
