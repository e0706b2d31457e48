"""Z-Wave inclusion prompts (S2 keys, DSK PIN), SmartStart, node replace; Zigbee ping.

Each write is checked against what the hub asks or lists first (a PIN only while the hub
waits for one, a SmartStart entry that is listed and deletable) and read back after. The
DSK never leaves: SmartStart entries are named by a short hash of it, and the PIN the user
types is sent once and never echoed, logged or kept.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ToolError
from ..hub.controllers import RadiosController
from ..hub.effects import poll_until
from ..hub.errors import HubBadResponseError, HubNotFoundError
from ..hub.models import dict_list
from ..hub.radios import S2_KEYS

_PIN_RE = re.compile(r"^\d{5}$")
# the page the hub UI opens for a running replace (its nodeReplace info page)
_REPLACE_PAGE = "the hub's own Replace page (Settings, Z-Wave Details, Replace)"
_KEY_NAMES = {
    "S2AccessControl": "S2 Access Control",
    "S2Authenticated": "S2 Authenticated",
    "S2Unauthenticated": "S2 Unauthenticated",
    "S0Unauthenticated": "S0",
}
S2_KEY_NAMES = tuple(_KEY_NAMES.values())  # what s2_keys takes, as inclusion_view names them


# the argument each special action needs (and no other action takes)
_ACTION_ARG = {"s2_enter_pin": "dsk_pin", "smartstart_delete": "smartstart_id",
               "ping_on": "device_ids", "ping_off": "device_ids"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ActionExtra:
    """The arguments only some operations take."""

    dsk_pin: str | None = None
    smartstart_id: str | None = None
    device_ids: list[str] | None = None
    s2_keys: list[str] | None = None  # a subset of the requested keys (s2_grant_keys only)

    def check(self, action: str) -> None:
        if self.s2_keys is not None and action != "s2_grant_keys":
            raise ToolError("s2_keys goes with action=s2_grant_keys only. Nothing was sent.")
        for name in ("dsk_pin", "smartstart_id", "device_ids"):
            wanted = [a for a, arg in _ACTION_ARG.items() if arg == name]
            given = getattr(self, name) is not None
            if given != (action in wanted):
                raise ToolError(
                    f"{name} goes with action={' or '.join(wanted)} (which needs it). "
                    "Nothing was sent."
                )


def smartstart_id(dsk: Any) -> str:
    """A SmartStart entry's handle: 8 hex digits of a hash of its DSK (the DSK stays here)."""
    return hashlib.sha256(str(dsk).encode()).hexdigest()[:8]


def _flag(value: Any) -> bool:
    return value is True or value == "true"


def _request(status: Mapping[str, Any]) -> dict[str, Any]:
    req = status.get("userRequest")
    return req if isinstance(req, dict) else {}


def granted_keys(req: Mapping[str, Any], names: list[str] | None) -> dict[str, bool]:
    """Each S2 key -> granted: the requested ones, or the chosen subset of them.

    A key the device did not ask for is refused (the S2 bootstrap grants only a subset of
    the request; the hub UI's grant dialog echoes each requested key as a Boolean).
    """
    requested = {k for k in S2_KEYS if _flag(req.get(k))}
    if names is None:
        return {k: k in requested for k in S2_KEYS}
    by_name = {v: k for k, v in _KEY_NAMES.items()}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise ToolError(
            f"Unknown S2 key {', '.join(unknown)}; the keys are {', '.join(S2_KEY_NAMES)}. "
            "Nothing was sent."
        )
    chosen = {by_name[n] for n in names}
    extra = sorted(_KEY_NAMES[k] for k in chosen - requested)
    if extra:
        asked = [_KEY_NAMES[k] for k in S2_KEYS if k in requested] or ["none"]
        raise ToolError(
            f"The device did not ask for {', '.join(extra)} (it asked for "
            f"{', '.join(asked)}); only requested keys can be granted. Nothing was sent.",
            subject="s2_request",
        )
    if not chosen:
        raise ToolError(
            "s2_keys is empty: grant at least one requested key, or use action=s2_skip. "
            "Nothing was sent."
        )
    return {k: k in chosen for k in S2_KEYS}


def inclusion_view(status: Mapping[str, Any]) -> dict[str, Any]:
    """What the hub is doing with a device being included, and what it waits for."""
    req = _request(status)
    kind = req.get("type")
    out: dict[str, Any] = {
        "found_devices": [
            {"id": key, "name": v.get("name") or v.get("label")} if isinstance(v, dict)
            else {"id": key}
            for key, v in (status.get("deviceMap") or {}).items()
        ],
        "initializing": [
            {"id": key, "stage": v.get("stage"), "type": v.get("type")}
            for key, v in (status.get("initMap") or {}).items()
            if isinstance(v, dict)
        ],
        "waiting_for": None,
    }  # fmt: skip
    if kind == "grantKeys":
        out["waiting_for"] = "s2_keys"
        out["requested_keys"] = [_KEY_NAMES[k] for k in S2_KEYS if _flag(req.get(k))]
        out["next"] = (
            "action=s2_grant_keys (secure; s2_keys to grant only some of them) or s2_skip "
            "(no security)"
        )
    elif kind == "securityCode":
        out["waiting_for"] = "s2_pin"
        out["next"] = (
            "Ask the user for the first 5 digits of the DSK on the device or its QR label; "
            "action=s2_enter_pin with dsk_pin, or s2_skip"
        )
    return out


def replace_view(data: Mapping[str, Any]) -> dict[str, Any]:
    """A node replace's progress and the S2 prompt it waits on (keys: answered here)."""
    replaced = data.get("replacedNode")
    replaced = replaced if isinstance(replaced, dict) else {}
    req = _request(data)
    kind = req.get("type")
    out: dict[str, Any] = {
        "running": _flag(replaced.get("running")) if "running" in replaced else None,
        "status": replaced.get("status"),
        "waiting_for": {"grantKeys": "s2_keys", "securityCode": "s2_pin"}.get(str(kind)),
    }
    if kind == "grantKeys":
        out["requested_keys"] = [_KEY_NAMES[k] for k in S2_KEYS if _flag(req.get(k))]
        out["next"] = (
            "action=s2_grant_keys (secure; s2_keys to grant only some of them) or s2_skip "
            "(no security)"
        )
    elif kind == "securityCode":
        out["note"] = (
            f"The replacing device asks for its S2 PIN: enter it on {_REPLACE_PAGE}; it is "
            "not answered from here."
        )
    return out


class ZwaveInclusion:
    """S2 answers, SmartStart entries, node replace and the Zigbee keep-alive ping."""

    def __init__(self, radios: RadiosController) -> None:
        self._radios = radios

    async def _pending(self, want: set[str]) -> tuple[dict[str, Any], bool]:
        """The S2 request the hub waits on, and whether it is a node replace's."""
        req = _request(await self._radios.inclusion_status())
        replace = False
        if req.get("type") not in ("grantKeys", "securityCode"):
            try:
                replacing = _request(await self._radios.node_replace_status())
            except HubNotFoundError:  # a hub without node replace (C-5)
                replacing = {}
            if replacing.get("type") in ("grantKeys", "securityCode"):
                req, replace = replacing, True
        if req.get("type") not in want:
            asked = {"grantKeys": "the S2 keys", "securityCode": "the S2 PIN"}
            raise ToolError(
                f"The hub is not waiting for {' or '.join(asked[w] for w in sorted(want))} "
                f"(it waits for {asked.get(str(req.get('type')), 'nothing')}). Nothing was sent.",
                subject="s2_request",
            )
        return req, replace

    async def _answered(self, kind: str) -> dict[str, Any]:
        """The inclusion status once the hub stopped asking ``kind`` (polled ~2 s)."""
        status = await poll_until(
            lambda: self._radios.inclusion_status(),
            lambda s: _request(s).get("type") != kind,
        )
        view = inclusion_view(status)
        if _request(status).get("type") == kind:
            raise HubBadResponseError(
                "The hub took the S2 answer but still asks for it",
                hint="The inclusion may have timed out; start it again (inclusion_start).",
            )
        return view

    async def _replace_answered(self) -> dict[str, Any]:
        """The node replace's status once the hub stopped asking for keys (polled ~2 s)."""
        status = await poll_until(
            lambda: self._radios.node_replace_status(),
            lambda s: _request(s).get("type") != "grantKeys",
        )
        if _request(status).get("type") == "grantKeys":
            raise HubBadResponseError(
                "The hub took the S2 keys of the replacing device but still asks for them",
                hint=f"Finish the replace on {_REPLACE_PAGE}.",
            )
        return replace_view(status)

    async def s2_answer(
        self, action: str, pin: str | None, keys: list[str] | None = None
    ) -> dict[str, Any]:
        """s2_grant_keys / s2_enter_pin / s2_skip, each only while the hub asks for it:
        during an inclusion, or (keys and skip) during a node replace."""
        if pin is not None and not _PIN_RE.match(pin.strip()):
            raise ToolError("dsk_pin must be the 5 digits of the device's PIN. Nothing was sent.")
        want = {"s2_grant_keys": {"grantKeys"}, "s2_enter_pin": {"securityCode"}}
        req, replace = await self._pending(want.get(action, {"grantKeys", "securityCode"}))
        kind = str(req.get("type"))
        grants: dict[str, bool] = {}
        if kind == "grantKeys":
            grants = granted_keys(req, keys if action == "s2_grant_keys" else None)
        if replace and kind == "securityCode":
            # the hub UI's replace dialog sends no PIN (its PIN button only logs): the hub's
            # own replace page takes it, and no request for it is known here
            raise ToolError(
                f"The replacing device asks for its S2 PIN, which only {_REPLACE_PAGE} takes: "
                "enter it there, or stop the replace with action=node_replace_stop. Nothing "
                "was sent.",
                subject="s2_request",
            )
        accept = action == "s2_grant_keys"
        if replace:
            await self._radios.send_replace_s2_grants(accept, grants)
            view = await self._replace_answered()
        elif kind == "grantKeys":
            await self._radios.send_s2_grants(accept, grants)
            view = await self._answered(kind)
        else:
            await self._radios.send_s2_code(pin is not None, (pin or "").strip())
            view = await self._answered(kind)
        done = {
            "s2_grant_keys": "S2 keys granted",
            "s2_enter_pin": "S2 PIN sent",
            "s2_skip": "S2 security skipped (the device joins without it)",
        }[action]
        out: dict[str, Any] = {
            "summary": f"zwave {action}{' (node replace)' if replace else ''}: {done}",
            "radio": "zwave", "action": action,
            "replace" if replace else "inclusion": view,
        }  # fmt: skip
        if accept:
            out["granted_keys"] = [_KEY_NAMES[k] for k in S2_KEYS if grants.get(k)]
            out["refused_keys"] = [
                _KEY_NAMES[k] for k in S2_KEYS if _flag(req.get(k)) and not grants.get(k)
            ]
        return out

    async def smartstart(self) -> list[dict[str, Any]]:
        """The SmartStart list, each entry with its ``id`` (no DSK)."""
        return [
            {
                "id": smartstart_id(item.get("dsk")),
                "name": item.get("nodeName") or "Unnamed device",
                "status": item.get("status"),
                "device_id": item.get("deviceId"),
                "can_delete": bool(item.get("canDelete")),
                **({"use_regular_inclusion": True} if item.get("suggestRegularInclusion") else {}),
            }
            for item in await self._radios.smartstart()
        ]

    async def smartstart_delete(
        self, entry_id: str, device_allowed: Callable[[str], bool]
    ) -> dict[str, Any]:
        """Delete one SmartStart entry (by its id), re-listed until it is gone."""
        items = await self._radios.smartstart()
        item = next((i for i in items if smartstart_id(i.get("dsk")) == entry_id.strip()), None)
        if item is None:
            raise ToolError(
                f"There is no SmartStart entry {entry_id}. Nothing was sent.",
                subject="smartstart_entry",
            )
        if not item.get("canDelete"):
            raise ToolError(
                f"The hub does not offer to delete SmartStart entry {entry_id} "
                f"({item.get('status')}). Nothing was sent."
            )
        device = item.get("deviceId")
        if device is not None and not device_allowed(str(device)):
            raise ToolError(
                f"That entry is device {device}, outside the assistant's device allowlist. "
                "Nothing was sent.",
                code="device_not_allowed",
            )
        await self._radios.delete_smartstart(str(item.get("dsk")))
        left = await poll_until(
            lambda: self._radios.smartstart(),
            lambda rows: all(smartstart_id(r.get("dsk")) != entry_id for r in rows),
        )
        if any(smartstart_id(r.get("dsk")) == entry_id for r in left):
            raise HubBadResponseError(
                f"The hub still lists SmartStart entry {entry_id} after the delete",
                hint="Delete it from the hub UI's Devices page.",
            )
        name = item.get("nodeName") or "Unnamed device"
        return {"summary": f"Deleted SmartStart entry {entry_id} ({name})", "id": entry_id,
                "name": name, "deleted": True}  # fmt: skip

    async def node_replace(self, node: dict[str, Any]) -> dict[str, Any]:
        """Start replacing a FAILED node (the hub UI offers it only for one with a device)."""
        node_id = int(node["nodeId"])
        if str(node.get("nodeState")).upper() != "FAILED" or node.get("deviceId") is None:
            raise ToolError(
                f"Z-Wave node {node_id} is {node.get('nodeState')}; only a FAILED node that "
                "has a device can be replaced. Nothing was sent."
            )
        await self._radios.start_node_replace(node_id)
        status = await self.node_replace_status()
        return {
            "summary": f"zwave node_replace on node {node_id}: started",
            "node_id": node_id, "device_id": node.get("deviceId"),
            "device_name": node.get("deviceName"), "replace": status,
            "note": "Put the new device in pairing mode now; it takes over the node and the "
            "device (its apps keep it). Follow with include=[node_replace] (an S2 device asks "
            "for keys there: action=s2_grant_keys or s2_skip); stop with "
            "action=node_replace_stop.",
        }  # fmt: skip

    async def node_replace_status(self) -> dict[str, Any]:
        return replace_view(await self._radios.node_replace_status())

    async def zigbee_ping(
        self, device_ids: list[str], on: bool, device_allowed: Callable[[str], bool]
    ) -> dict[str, Any]:
        """Turn the keep-alive ping on or off per Zigbee device; each read back."""
        if not device_ids:
            raise ToolError("ping_on/ping_off need device_ids. Nothing was sent.")
        details = await self._radios.zigbee_details()
        known = {str(d.get("id")): d for d in dict_list(details.get("devices"))}
        results: list[dict[str, Any]] = []
        for device_id in dict.fromkeys(str(d).strip() for d in device_ids):
            if not device_allowed(device_id):
                results.append({"device_id": device_id, "error": "device_not_allowed"})
            elif device_id not in known:
                results.append({"device_id": device_id, "error": "not a Zigbee device"})
            else:
                await self._radios.set_zigbee_device_ping(device_id, on)
                results.append({"device_id": device_id, "name": known[device_id].get("name")})
        sent = [r["device_id"] for r in results if "error" not in r]
        after = await poll_until(
            lambda: self._radios.zigbee_details(),
            lambda d: all(_ping(d, i) is on for i in sent),
        )
        for row in results:
            if "error" not in row:
                row["ping"] = _ping(after, row["device_id"])
                if row["ping"] is not on:
                    row["error"] = "the hub reads back a different ping setting"
        out: dict[str, Any] = {
            "summary": f"zigbee keep-alive ping {'on' if on else 'off'}: "
            f"{sum('error' not in r for r in results)} of {len(results)} devices",
            "radio": "zigbee", "devices": results,
        }  # fmt: skip
        if not after.get("inactiveDevicePingEnabled"):
            out["note"] = "The per-device ping acts only while inactive_device_ping is on."
        return out


def _ping(details: Mapping[str, Any], device_id: str) -> bool | None:
    for device in dict_list(details.get("devices")):
        if str(device.get("id")) == device_id:
            return device.get("ping") if isinstance(device.get("ping"), bool) else None
    return None
