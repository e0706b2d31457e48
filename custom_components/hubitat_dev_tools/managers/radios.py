"""Radio details (with a health summary), Z-Wave repair and radio operations (settings:
``radio_settings.py``; the channel scan job: ``radio_scan.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from ..errors import ToolError
from ..hub.controllers import FilesController, FirmwareController, RadiosController
from ..hub.errors import (
    HubBadResponseError,
    HubError,
    HubFirmwareError,
    HubNotFoundError,
    HubRefusedError,
)
from ..hub.models import dict_list, parse_hub_time
from ..hub.radios import RADIO_ACTIONS, SPECIAL_ACTIONS, zwave_repair_modern
from ..hub.results import RadioAction
from . import radio_reads
from .radio_firmware import RadioFirmware
from .radio_scan import ChannelScanJob
from .radio_settings import update_radio_settings
from .radio_zwave import ActionExtra, ZwaveInclusion, inclusion_view

if TYPE_CHECKING:
    from .sensitivity import SensitivityModel

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


DeviceActivity = Callable[[], Awaitable[dict[str, str | None]]]
STALE_COUNTER_S = 300  # a device event this much newer than the radio's counter is noted


def _note_newer_activity(nodes: list[dict[str, Any]], activity: dict[str, str | None]) -> None:
    """Where a node's device reported after the radio's last-received time, say so: the
    radio's counters reset with its statistics, the device's events do not."""
    for node in nodes:
        device_last = parse_hub_time(activity.get(str(node.get("deviceId"))))
        radio_last = parse_hub_time(node.get("lastReceived"))
        if device_last is None or radio_last is None:
            continue
        if (device_last - radio_last).total_seconds() > STALE_COUNTER_S:
            node["device_last_activity"] = device_last.isoformat(timespec="seconds")
            node["last_heard_note"] = (
                "The device reported after the radio's lastReceived; the radio's counters "
                "reset with its statistics (and a FAILED state is the radio's last verdict), "
                "so the device's own last activity is the newer truth."
            )


class RadioManager:
    """Radio details and Z-Wave repair."""

    def __init__(
        self,
        radios: RadiosController,
        platform: FirmwareController,
        files: FilesController,
        device_activity: DeviceActivity | None = None,
    ) -> None:
        self._radios = radios
        self._platform = platform  # the hub's model and firmware (the Z-Wave repair's kind)
        self._device_activity = device_activity
        self._modern_repair: bool | None = None  # the hub's Z-Wave kind, read once
        self.scan = ChannelScanJob(radios)
        self.inclusion = ZwaveInclusion(radios)
        self.firmware = RadioFirmware(radios, files)
        self._matter_pair_node: str | None = None  # the last pairing started from here

    async def _repair_is_modern(self, details: Mapping[str, Any] | None = None) -> bool:
        """C-7-and-later repair (``zwaveRepair2``) or a C-5's, as the hub UI decides."""
        if self._modern_repair is None:
            if details is None:
                details = await self._radios.zwave_details()
            self._modern_repair = zwave_repair_modern(
                cast(dict[str, Any], details), self._platform.platform
            )
        return self._modern_repair

    async def zwave(self, node_id: int | None, topology: bool, limit: int) -> dict[str, Any]:
        data = await self._radios.zwave_details()
        nodes = dict_list(data.get("nodes"))
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
            "secure_join": data.get("secureJoin"),
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
        if self._device_activity is not None:
            with contextlib.suppress(HubError):  # the node list stands on its own
                _note_newer_activity(out["nodes"], await self._device_activity())
        if topology and not await self._repair_is_modern(data):
            out["topology_unavailable"] = "firmware_unsupported"  # the UI: C-7 and later only
        elif topology:
            try:
                out["topology"] = (await self._radios.zwave_topology())[:20000]
            except HubError as err:
                out["topology_unavailable"] = err.code
        return out

    async def zigbee(self, limit: int) -> dict[str, Any]:
        data = await self._radios.zigbee_details()
        devices = dict_list(data.get("devices"))
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
            data = await self._radios.matter_details()
        except HubNotFoundError:
            return {"available": False, "note": "This hub has no Matter support (or it is off)."}
        devices = dict_list(data.get("devices"))
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
        self,
        radio: str,
        node_id: int | None,
        topology: bool,
        limit: int,
        include: tuple[str, ...] = (),
        device_allowed: Callable[[str], bool] = lambda _device_id: True,
    ) -> dict[str, Any]:
        """One radio, or all three (each failing independently), plus the ``include``
        blocks (SmartStart, inclusion prompts, node replace, firmware, status pollers)."""
        if "node_state" in include and node_id is None:
            raise ToolError("include=[node_state] needs node_id. Nothing was read.")
        out: dict[str, Any]
        if radio == "zwave":
            out = {"zwave": await self.zwave(node_id, topology, limit)}
        elif radio == "zigbee":
            out = {"zigbee": await self.zigbee(limit)}
        elif radio == "matter":
            out = {"matter": await self.matter(limit)}
        else:
            zw, zb, mt = await asyncio.gather(
                _safe(self.zwave(node_id, topology, limit)),
                _safe(self.zigbee(limit)),
                _safe(self.matter(limit)),
            )
            out = {"zwave": zw, "zigbee": zb, "matter": mt}
        radios = self._radios
        blocks: dict[str, Callable[[], Awaitable[dict[str, Any]]]] = {
            "smartstart": self._smartstart,
            "inclusion": self._inclusion,
            "node_replace": self.inclusion.node_replace_status,
            "antenna_test": self._antenna_test,
            "firmware": partial(self.firmware.status, node_id),
            "node_state": partial(self._node_state, node_id, limit, device_allowed),
            "exclusion": partial(radio_reads.exclusion, radios),
            "zigbee_network": partial(radio_reads.zigbee_network, radios),
            "matter_pairing": partial(radio_reads.matter_pairing, radios, self._matter_pair_node),
            "matter_logs": partial(radio_reads.matter_logs, radios, limit),
        }
        for name in dict.fromkeys(include):
            out[name] = await _safe(blocks[name]())
        return out

    async def _node_state(
        self, node_id: int | None, limit: int, device_allowed: Callable[[str], bool]
    ) -> dict[str, Any]:
        """One node's stack state, for a node whose device the assistant may see."""
        assert node_id is not None
        try:
            await self._zwave_node(node_id, device_allowed)
        except ToolError as err:
            return {"unavailable": err.code, "message": str(err)}
        return await radio_reads.node_state(self._radios, node_id, limit)

    async def _smartstart(self) -> dict[str, Any]:
        entries = await self.inclusion.smartstart()
        return {"count": len(entries), "entries": entries}

    async def _antenna_test(self) -> dict[str, Any]:
        data = await self._radios.antenna_test()
        keys = {
            "stage": "stage",
            "message": "message",
            "test_number": "testNumber",
            "rssi_with_antenna": "antennaRSSI",
            "rssi_without_antenna": "noAntennaRSSI",
        }
        out = {ours: data.get(theirs) for ours, theirs in keys.items()}
        if data.get("stage") == "WAITING_FOR_USER":
            out["next"] = "Do what the message says, then action=antenna_test_continue"
        return out

    async def _inclusion(self) -> dict[str, Any]:
        return inclusion_view(await self._radios.inclusion_status())

    async def repair_status(self) -> dict[str, Any]:
        """The Z-Wave repair's stage and progress text."""
        modern = await self._repair_is_modern()
        status = await self._radios.zwave_repair_status(modern=modern)
        return {
            "running": status.get("running"),
            "stage": status.get("stage"),
            "progress": _strip(status.get("html")) or None,
        }

    async def start_repair(self) -> dict[str, Any]:
        """Start a Z-Wave repair; an already running one is reported, not restarted."""
        modern = await self._repair_is_modern()
        result = await self._radios.start_zwave_repair(modern=modern)
        status = await self.repair_status()
        if result.get("success") in (True, "true"):
            return {
                "summary": "Z-Wave repair started",
                "started": True,
                **status,
                "note": "A repair takes minutes to hours and slows Z-Wave while it runs.",
            }
        message = str(result.get("message") or "")
        if "already running" in message.lower():
            return {
                "summary": "A Z-Wave repair (or inclusion) is already running; not restarted",
                "started": False,
                **status,
            }
        raise HubBadResponseError(
            f"The hub did not start a Z-Wave repair: {message or result}",
            hint="Check that the Z-Wave radio is enabled.",
            subject="zwave_repair",
        )

    # ------------------------------------------------------------------ operations

    async def _zwave_node(
        self, node_id: int, device_allowed: Callable[[str], bool]
    ) -> dict[str, Any]:
        data = await self._radios.zwave_details()
        for node in dict_list(data.get("nodes")):
            if str(node.get("nodeId")) == str(node_id):
                if node_id == 1:
                    break
                _check_allowed(node.get("deviceId"), device_allowed)
                return node
        raise ToolError(
            f"There is no Z-Wave node {node_id} (other than the hub's own controller, 1). "
            "Nothing was sent.",
            subject="zwave_node",
        )

    async def radio_action(
        self,
        radio: str,
        action: str,
        node_id: int | None,
        setup_code: str | None,
        *,
        extra: ActionExtra | None = None,
        device_allowed: Callable[[str], bool] = lambda _device_id: True,
        allowlist_active: bool = False,
        deadline: float | None = None,
        confirm: bool = False,
        sensitivity: SensitivityModel | None = None,
    ) -> dict[str, Any]:
        """One radio operation, validated first (action of that radio, node, setup code).

        Opening a Matter pairing window shares the device with another controller: for a
        sensitive device (a lock) the sensitivity gate asks for confirm=true first.

        ``deadline`` (``time.monotonic()``) bounds the slow ones (the Zigbee channel scan).
        """
        extra = extra or ActionExtra()
        own = [a for a, r in ACTION_RADIO.items() if r == radio]
        if action not in own:
            raise ToolError(
                f"'{action}' is not a {radio} action; {radio} actions: {', '.join(own)}. "
                "Nothing was sent."
            )
        extra.check(action)
        needs_node = action in NODE_ACTIONS
        if needs_node and node_id is None:
            raise ToolError(f"{action} needs node_id. Nothing was sent.")
        if not needs_node and node_id is not None:
            raise ToolError(f"{action} takes no node_id. Nothing was sent.")
        if (action == "pair") != (setup_code is not None):
            raise ToolError(
                "setup_code goes with action=pair (and pair needs it). Nothing was sent."
            )
        if action == "exclusion_start" and allowlist_active:
            raise ToolError(
                "Exclusion can remove any Z-Wave device, and this assistant is limited to some "
                "devices (device allowlist). Nothing was sent.",
                code="device_not_allowed",
                hint="Exclude the device from the hub UI, or ask an admin to lift the allowlist.",
            )
        target: dict[str, Any] = {}
        node: dict[str, Any] = {}
        if needs_node and radio == "zwave":
            assert node_id is not None
            node = await self._zwave_node(node_id, device_allowed)
            target = {"node_id": node_id, "device_id": node.get("deviceId")}
            target["device_name"] = node.get("deviceName")
        elif needs_node:
            try:
                details = await self._radios.matter_details()
            except HubNotFoundError as err:
                raise ToolError(
                    "This hub has no Matter support (or it is off). Nothing was sent."
                ) from err
            devices = dict_list(details.get("devices"))
            device = next((d for d in devices if str(d.get("nodeId")) == str(node_id)), None)
            if device is None:
                raise ToolError(
                    f"There is no Matter node {node_id}. Nothing was sent.",
                    subject="matter_node",
                )
            _check_allowed(device.get("id"), device_allowed)
            target = {"node_id": node_id, "device_id": device.get("id")}
            if (
                action == "open_pairing_window"
                and sensitivity is not None
                and device.get("id") not in (None, "")
            ):
                sensitivity.require(
                    await sensitivity.devices([str(device.get("id"))]),
                    confirm=confirm,
                    allowed=device_allowed,
                    what=f"Sharing Matter node {node_id} with another controller",
                )
        code = radio_reads.normalize_setup_code(setup_code) if setup_code is not None else None
        if action in MODERN_ONLY and not await self._repair_is_modern():
            raise HubFirmwareError(
                f"{action} needs a C-7 or newer hub (the hub's own UI offers it only there). "
                "Nothing was sent."
            )
        if action in ("node_repair", "antenna_test_start") and not (
            str(node.get("nodeState")).upper() == "OK" and node.get("listening") is True
        ):
            raise ToolError(
                f"Node {node_id} is {node.get('nodeState')}"
                f"{'' if node.get('listening') else ', battery (not listening)'}: the hub "
                "repairs only a working, always-listening node. Nothing was sent.",
                hint="Wake a battery device, or use node_refresh / node_reinitialize.",
            )
        if action == "channel_scan":
            return await self._channel_scan(radio, action, deadline)
        if action in SPECIAL_ACTIONS:
            return await self._special(action, node, extra, device_allowed)
        try:
            answer = await self._radios.action(
                cast(RadioAction, action), node_id=node_id, setup_code=code
            )
        except HubNotFoundError as err:
            raise HubNotFoundError(
                f"This hub has no {radio} endpoint for {action} (HTTP 404).",
                hint="Matter needs a C-8 or newer hub."
                if radio == "matter"
                else "This firmware may not have it.",
                subject=None if radio == "matter" else "radio_endpoint",
            ) from err
        except HubRefusedError as err:
            err.hint = (
                "A Z-Wave repair, inclusion or exclusion may be running: stop it first "
                "(action=inclusion_stop/exclusion_stop)."
            )
            err.subject = "radio_busy"
            raise
        on_node = f" on node {node_id}" if target.get("node_id") else ""
        out: dict[str, Any] = {
            "summary": f"{radio} {action}{on_node}: done",
            "radio": radio,
            "action": action,
            **target,
        }
        if action == "open_pairing_window":
            out["setup_code"] = answer.get("setupCode")
        if action == "pair":
            self._pair_started(answer, out)
        return out

    def _pair_started(self, answer: Mapping[str, Any], out: dict[str, Any]) -> None:
        node = radio_reads.pair_started_node(answer.get("bare"))
        if node is not None:
            self._matter_pair_node = out["node_id"] = node

    async def _special(
        self,
        action: str,
        node: dict[str, Any],
        extra: ActionExtra,
        device_allowed: Callable[[str], bool],
    ) -> dict[str, Any]:
        """The operations with their own request shape (S2, SmartStart, replace, ping)."""
        if action.startswith("s2_"):
            return await self.inclusion.s2_answer(action, extra.dsk_pin, extra.s2_keys)
        if action == "smartstart_delete":
            assert extra.smartstart_id is not None
            return await self.inclusion.smartstart_delete(extra.smartstart_id, device_allowed)
        if action == "node_replace":
            return await self.inclusion.node_replace(node)
        if action == "firmware_abort":
            return await self.firmware.abort_device(int(node["nodeId"]))
        return await self.inclusion.zigbee_ping(
            extra.device_ids or [], action == "ping_on", device_allowed
        )

    async def _channel_scan(
        self, radio: str, action: str, deadline: float | None
    ) -> dict[str, Any]:
        """The Zigbee scan: a background job this call waits for within its budget."""
        scan = await self.scan.run(deadline)
        base = {"radio": radio, "action": action, "started_at": scan["started_at"]}
        if scan["status"] == "running":
            return {
                "summary": "zigbee channel_scan: still running",
                **base,
                "status": "running",
                "retry_after_s": scan["retry_after_s"],
                "note": "The hub scans for about a minute. Call channel_scan again after "
                "retry_after_s seconds for this scan's result (no second scan is started).",
            }
        return {"summary": "zigbee channel_scan: done", **base, "channel_scan": scan["channels"]}

    def close(self) -> None:
        """Stop background work (a channel scan, a firmware job) when the entry unloads."""
        self.scan.close()
        self.firmware.close()

    async def remove_failed_node(
        self, node_id: int, device_allowed: Callable[[str], bool] = lambda _device_id: True
    ) -> dict[str, Any]:
        """Remove a FAILED Z-Wave node (and the device on it); refused for a working node."""
        node = await self._zwave_node(node_id, device_allowed)
        state = str(node.get("nodeState") or "")
        if state.upper() != "FAILED":
            raise ToolError(
                f"Z-Wave node {node_id} ({node.get('deviceName')}) is {state or 'not failed'}; "
                "only a failed node can be removed. Nothing was sent.",
                hint="Exclude a working device with its exclusion button, or delete it.",
                subject="zwave_node_not_failed",
            )
        try:
            await self._radios.remove_zwave_node(node_id)
        except HubRefusedError as err:
            err.hint = "The node may have answered again (it is then no longer failed)."
            err.subject = "zwave_node_remove"
            raise
        still = True
        for delay in (0.0, 0.5, 1.0, 2.0):  # the hub may list the node a moment longer
            await asyncio.sleep(delay)
            data = await self._radios.zwave_details()
            still = any(str(n.get("nodeId")) == str(node_id) for n in dict_list(data.get("nodes")))
            if not still:
                break
        verb = "Asked the hub to remove" if still else "Removed"
        out: dict[str, Any] = {
            "summary": f"{verb} failed Z-Wave node {node_id} ({node.get('deviceName')})",
            "node_id": node_id,
            "device_id": node.get("deviceId"),
            "device_name": node.get("deviceName"),
            "removed": not still,
        }
        if still:
            out["warning"] = "The hub accepted the removal but still lists the node."
        return out

    async def install_firmware(
        self,
        radio: str,
        node_id: int | None,
        file_name: str | None,
        target: int | None,
        device_allowed: Callable[[str], bool] = lambda _device_id: True,
        deadline: float | None = None,
    ) -> dict[str, Any]:
        """Radio firmware (Zigbee, the Z-Wave chip) or, with node_id, a Z-Wave device's."""
        if radio == "zigbee" and (node_id, file_name, target) != (None, None, None):
            raise ToolError("node_id, file_name and target are Z-Wave only. Nothing was sent.")
        if radio == "zigbee":
            return await self.firmware.install_zigbee_radio(deadline)
        if node_id is None:
            if file_name is not None or target is not None:
                raise ToolError("file_name and target go with node_id. Nothing was sent.")
            return await self.firmware.install_zwave_radio()
        node = await self._zwave_node(node_id, device_allowed)
        return await self.firmware.install_device(node, file_name, target)

    async def update_settings(
        self, radio: str, changes: dict[str, Any], deadline: float | None = None
    ) -> dict[str, Any]:
        """Change radio settings, each checked against what the hub offers; read back.
        ``reset`` (alone) resets the radio instead."""
        if changes.pop("reset", None):
            if changes:
                raise ToolError("reset goes alone (it wipes every setting). Nothing was sent.")
            return await self.firmware.reset(radio)
        result = await update_radio_settings(self._radios, radio, changes, deadline)
        return {"summary": f"{radio} settings: {result['settings']}", **result}


async def _safe(coro: Awaitable[Any]) -> Any:
    """A block of a details read: its hub error becomes ``{unavailable, message}``."""
    try:
        return await coro
    except HubError as err:
        return {"unavailable": err.code, "message": str(err)}


def _check_allowed(device_id: Any, device_allowed: Callable[[str], bool]) -> None:
    """Refuse a node whose device is outside the assistant's device allowlist."""
    if device_id is not None and not device_allowed(str(device_id)):
        raise ToolError(
            f"That node is device {device_id}, outside the assistant's device allowlist. "
            "Nothing was sent.",
            code="device_not_allowed",
            hint="Do not retry with this node; an admin can change the allowlist.",
        )


ACTION_RADIO = {a: spec[0] for a, spec in RADIO_ACTIONS.items()} | SPECIAL_ACTIONS
NODE_ACTIONS = frozenset(
    {a for a, spec in RADIO_ACTIONS.items() if spec[3]} | {"node_replace", "firmware_abort"}
)
MODERN_ONLY = frozenset(
    {"repair_cancel", "node_repair", "stats_refresh", "antenna_test_start", "antenna_test_continue"}
)
