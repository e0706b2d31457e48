"""The radio status blocks of the radio details (Matter logs, a Z-Wave node's state,
the exclusion, the Zigbee network state, the last Matter pairing) and the Matter pairing's
setup code and answer.

Secrets stay here: a node value the stack marks ``secret`` and any DSK are withheld, and
the Matter log's setup codes and ``passcode``-style values are masked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import ToolError
from ..hub.controllers import RadiosController
from ..hub.errors import HubRefusedError
from ..hub.models import dict_list
from ..hub.radio_status import matter_pair_node, parse_matter_logs
from ..redact import REDACTED, redact_text

# Matter onboarding payloads (QR ``MT:...``, 11/21-digit manual codes) and key-like values
_MATTER_SECRETS = (
    re.compile(r"MT:[0-9A-Z.\-]{10,}"),
    re.compile(r"\b\d{4}-?\d{3}-?\d{4}(?:-?\d{10})?\b"),
    re.compile(
        r"(?i)\b((?:setup\s*)?pin(?:\s*code)?|passcode|pass(?:word|phrase)|ipk|epoch\s*key|"
        r"psk|credentials?|dsk)(\s*[:=]\s*|\s+)(\S+)"
    ),
)
_NODE_STATUS = {0: "unknown", 1: "asleep", 2: "awake", 3: "dead", 4: "alive"}
_SECURITY = {-1: "none", 0: "S2 Unauthenticated", 1: "S2 Authenticated",
             2: "S2 Access Control", 7: "S0"}  # fmt: skip
_NODE_KEYS = {
    "label": "label", "ready": "ready", "interview_stage": "interviewStage",
    "last_seen": "lastSeen", "firmware": "firmwareVersion", "listening": "isListening",
    "routing": "isRouting", "max_data_rate": "maxDataRate", "product_type": "productType",
    "device_database": "deviceDatabaseUrl",
}  # fmt: skip


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _mask_matter(text: str) -> str:
    text = _MATTER_SECRETS[0].sub(REDACTED, text)
    text = _MATTER_SECRETS[1].sub(REDACTED, text)
    text = _MATTER_SECRETS[2].sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    return redact_text(text)


async def matter_logs(radios: RadiosController, limit: int) -> dict[str, Any]:
    entries = parse_matter_logs(await radios.matter_logs())
    return {
        "count": len(entries),
        "entries": [{**e, "message": _mask_matter(e["message"])[:1000]} for e in entries[:limit]],
    }


def _value(item: dict[str, Any]) -> dict[str, Any]:
    meta = _dict(item.get("metadata"))
    value = item.get("newValue", item.get("value"))
    out = {
        "endpoint": item.get("endpoint") or 0,
        "command_class": item.get("commandClassName") or item.get("commandClass"),
        "property": meta.get("label") or item.get("propertyName") or item.get("property"),
        "key": item.get("propertyKeyName") or item.get("propertyKey"),
        "value": REDACTED if meta.get("secret") is True else value,
        "unit": meta.get("unit"),
    }
    return {k: v for k, v in out.items() if v is not None}


def node_state_view(node_id: int, state: Mapping[str, Any] | str, limit: int) -> dict[str, Any]:
    """The node-state summary the hub UI's node page shows, values bounded by ``limit``."""
    if isinstance(state, str):
        return {"node_id": node_id, "text": redact_text(state.strip())[:8000]}
    if state.get("error"):
        return {"node_id": node_id, "error": redact_text(str(state["error"]))[:300]}
    out: dict[str, Any] = {"node_id": node_id}
    out.update({k: state[v] for k, v in _NODE_KEYS.items() if state.get(v) is not None})
    if "status" in state:
        out["status"] = _NODE_STATUS.get(state["status"], state["status"])
    if state.get("isSecure") is True:
        level = state.get("highestSecurityClass")
        out["security"] = _SECURITY.get(level, "secure") if isinstance(level, int) else "secure"
    elif "isSecure" in state:
        secure = state.get("supportsSecurity")
        out["security"] = "supported, not joined securely" if secure else "none"
    if "protocol" in state:
        out["protocol"] = {0: "Z-Wave", 1: "Z-Wave Long Range"}.get(
            state["protocol"], state["protocol"]
        )
    config = _dict(state.get("deviceConfig"))
    out["manufacturer"] = config.get("manufacturer") or state.get("manufacturerId")
    out["product"] = config.get("label") or state.get("productId")
    stats = _dict(state.get("statistics"))
    lwr = _dict(stats.get("lwr"))
    out["statistics"] = {
        "rssi": stats.get("rssi"), "rtt_ms": stats.get("rtt"),
        "commands_rx": stats.get("commandsRX"), "commands_tx": stats.get("commandsTX"),
        "route": lwr.get("repeaters") or "direct",
    }  # fmt: skip
    values = sorted(
        (_value(v) for v in dict_list(state.get("values"))),
        key=lambda v: (int(v.get("endpoint") or 0), str(v.get("command_class"))),
    )
    out["value_count"] = len(values)
    out["values"] = values[:limit]
    return {k: v for k, v in out.items() if v is not None}


async def node_state(radios: RadiosController, node_id: int, limit: int) -> dict[str, Any]:
    return node_state_view(node_id, await radios.zwave_node_state(node_id), limit)


async def exclusion(radios: RadiosController) -> dict[str, Any]:
    status = await radios.exclusion_status()
    message = status["message"]
    out: dict[str, Any] = {"result": message or None}
    if status["excluding"] is not None:
        out["excluding"] = status["excluding"]
    elif message is not None:
        # the UI: an empty message while it still waits, a text once the exclusion ended
        out["excluding"] = None if not message else False
    return out


async def zigbee_network(radios: RadiosController) -> dict[str, Any]:
    data = await radios.zigbee_network_state()
    state = data.get("networkState")
    return {
        "network_state": state,
        "online": state == "ONLINE" if isinstance(state, str) else None,
        "pan_id": data.get("panId"),
        "extended_pan_id": data.get("extendedPanId"),
    }


def pair_started_node(raw: Any) -> str | None:
    """The node id the hub's pair answer names; its ``"0"`` (pairing did not start) raises."""
    if raw is not None and str(raw).strip() == "0":
        raise HubRefusedError(
            "The hub did not start the Matter pairing (it answered 0)",
            hint="Check the setup code and that the device is in pairing mode, then try again.",
        )
    return matter_pair_node(raw)


async def matter_pairing(radios: RadiosController, node_id: str | None) -> dict[str, Any]:
    if node_id is None:
        return {"node_id": None, "note": "No Matter pairing was started from here since "
                "Home Assistant started."}  # fmt: skip
    data = await radios.matter_pair_status(node_id)
    init = _dict(data.get("initMap"))
    failed = init.get("isPairingFailed") is True
    out: dict[str, Any] = {
        "node_id": node_id,
        "running": init.get("isRunning") is True,
        "stage": init.get("stage"),
        "device_found": init.get("isDeviceFound") is True,
        "device_created": init.get("hasDeviceId") is True,
        "failed": failed,
    }
    if failed:
        out["failure"] = {
            "stage": init.get("failedStage"),
            "code": init.get("errorCode"),
            "message": init.get("errorMessage"),
        }
    return out


_SETUP_CODE_RE = re.compile(r"^(\d{11}|\d{21}|MT:[0-9A-Z.\-]{19,})$")


def normalize_setup_code(code: str) -> str:
    """A Matter manual code without its spaces/dashes, or an ``MT:`` QR payload."""
    text = code.strip()
    compact = text if text.startswith("MT:") else re.sub(r"[\s-]", "", text)
    if not _SETUP_CODE_RE.match(compact):
        raise ToolError(
            "setup_code must be the 11- or 21-digit Matter pairing code (dashes allowed) or "
            "the MT:... QR payload. Nothing was sent."
        )
    return compact
