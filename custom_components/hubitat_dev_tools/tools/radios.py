"""Radio tools: details, Z-Wave repair, radio operations, failed-node removal, settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..hub.radios import RADIO_ACTIONS, SPECIAL_ACTIONS
from ..managers.radio_zwave import S2_KEY_NAMES, ActionExtra
from ..safety import ToolKind
from .args import ToolArgs, arg, numeric_id
from .base import HubTool, ToolCall, on_hub
from .errors import add_advice

TOOL_DOMAIN = "radios"

RADIO = vol.In(("zwave", "zigbee", "matter"))
# the region codes the hub UI offers (vue-hub2.min.js regionOptions, UNKNOWN left out)
ZWAVE_REGIONS = ("US", "USLR", "EU", "AU", "HK", "MY", "IN", "IL", "RU", "CN", "JP", "KR")
RADIO_DESC = "zwave, zigbee or matter"
INCLUDE_BLOCKS = (
    "smartstart", "inclusion", "node_replace", "antenna_test", "firmware",
    "node_state", "exclusion", "zigbee_network", "matter_pairing", "matter_logs",
)  # fmt: skip


def allowlist_active(call: ToolCall) -> bool:
    """True when a device allowlist limits this call.

    Without an allowlist every id is allowed; an allowlist never holds the empty id.
    """
    return not call.device_allowed("")


@dataclass(frozen=True, slots=True, kw_only=True)
class RadioDetailsArgs(ToolArgs):
    radio: str = arg(
        vol.In(("zwave", "zigbee", "matter", "all")), "zwave, zigbee, matter or all", default="all"
    )
    node_id: int | None = arg(
        vol.All(int, vol.Range(min=1, max=4000)), "Only this Z-Wave node id (decimal)"
    )
    include_topology: bool = arg(bool, "Add the Z-Wave route table", default=False)
    limit: int = arg(
        vol.All(int, vol.Range(min=1, max=500)), "Max nodes/devices per radio", default=100
    )
    include: list[str] = arg(
        [vol.In(INCLUDE_BLOCKS)],
        "Extra blocks (firmware, node_state: with node_id)",
        default=list,
    )


class GetRadioDetailsTool(HubTool[RadioDetailsArgs]):
    name = "hub_get_radio_details"
    covers = (on_hub("hub_get_radio_details"),)
    title = "Get radio details"
    description = (
        "Z-Wave, Zigbee and Matter radio details: enabled/healthy, firmware, region, channel "
        "and PAN id; Z-Wave nodes (state, route, packet error rate, RTT, RSSI, neighbours, "
        "battery) with failed nodes first; Zigbee devices (active, last message, RSSI/LQI); "
        "Matter devices. Use it for 'which Z-Wave devices are failing' and to follow S2 "
        "prompts, replace, firmware, exclusion, pairing, Matter logs (include). To start a Z-Wave "
        "repair use hub_start_zwave_repair; for other radio operations "
        "hub_call_radio_action; settings: hub_update_radio_settings."
    )

    async def run(self, call: ToolCall, args: RadioDetailsArgs) -> dict[str, Any]:
        details = await call.hub.radios.details(
            args.radio,
            args.node_id,
            args.include_topology,
            args.limit,
            tuple(args.include),
            call.device_allowed,
        )
        # nodes and devices name the hub's devices: those outside the allowlist are left out
        # (a node keeps its radio figures; its device id and name are replaced)
        _details_advice(details)
        return (await call.hub.devices.screen(call.device_allowed)).answer(details)


class StartZwaveRepairTool(HubTool[ToolArgs]):
    name = "hub_start_zwave_repair"
    covers = (on_hub("hub_call_zwave"),)
    title = "Start Z-Wave repair"
    description = (
        "Start a Z-Wave network repair (rebuilds routes; takes minutes to hours and slows "
        "Z-Wave meanwhile). If a repair or inclusion is already running it is reported, not "
        "restarted. Follow progress with hub_get_zwave_repair_status. It does not remove "
        "failed nodes."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        out = await call.hub.radios.start_repair()
        if out.get("started"):
            add_advice(out, "note", "Poll hub_get_zwave_repair_status.")
        return out


class GetZwaveRepairStatusTool(HubTool[ToolArgs]):
    name = "hub_get_zwave_repair_status"
    covers = (on_hub("hub_call_zwave"),)
    title = "Get Z-Wave repair status"
    description = (
        "Whether a Z-Wave repair is running, its stage and progress text. To start one use "
        "hub_start_zwave_repair."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        status = await call.hub.radios.repair_status()
        # the progress text names the node being repaired by its device's label
        return (await call.hub.devices.screen(call.device_allowed)).answer(status)


@dataclass(frozen=True, slots=True, kw_only=True)
class RadioActionArgs(ToolArgs):
    radio: str = arg(RADIO, RADIO_DESC, required=True)
    action: str = arg(
        vol.In((*RADIO_ACTIONS, *SPECIAL_ACTIONS)),
        "The operation (see the description)",
        required=True,
    )
    node_id: int | None = arg(
        vol.All(int, vol.Range(min=1, max=2**64)), "Z-Wave node id (decimal) or Matter node id"
    )
    setup_code: str | None = arg(
        vol.All(str, vol.Length(min=11, max=200)), "Matter pairing code, for action=pair"
    )
    dsk_pin: str | None = arg(vol.All(str, vol.Length(max=10)), "User's 5-digit S2 PIN")
    s2_keys: list[str] | None = arg(
        vol.All([vol.In(S2_KEY_NAMES)], vol.Length(min=1, max=4)),
        "Grant only these requested keys (default all)",
    )
    smartstart_id: str | None = arg(vol.All(str, vol.Length(max=20)), None)
    device_ids: list[str] | None = arg(
        vol.All([numeric_id("device_id")], vol.Length(min=1, max=100)), None
    )
    confirm: bool = arg(bool, "true to share a lock or other sensitive device", default=False)


class CallRadioActionTool(HubTool[RadioActionArgs]):
    name = "hub_call_radio_action"
    covers = (
        on_hub("hub_call_destructive_ops", "firmware_abort"),
        on_hub("hub_set_zigbee"),
        on_hub("hub_call_zwave"),
        on_hub("hub_call_zigbee"),
        on_hub("hub_call_matter"),
    )
    title = "Run a radio operation"
    description = (
        "Run one Z-Wave, Zigbee or Matter operation. zwave: inclusion_start/inclusion_stop "
        "(pair new devices), s2_grant_keys (s2_keys: only some)/s2_enter_pin (dsk_pin)/s2_skip "
        "(its S2 prompt; keys also in a node replace), "
        "exclusion_start/exclusion_stop (remove a device by its button), smartstart_delete, "
        "stats_refresh, repair_cancel, node_replace_stop, antenna_test_continue; with "
        "node_id: node_refresh/node_rediscover/node_reinitialize, node_repair, node_replace "
        "(failed node), firmware_abort, antenna_test_start. "
        "zigbee: ping_on/ping_off (device_ids; keep-alive), radio_reboot, rebuild_network, "
        "channel_scan (about a minute: status running means call again after "
        "retry_after_s). matter: pair (setup_code), "
        "open_pairing_window (node_id; answers a code to share the device; confirm=true for a "
        "lock or other sensitive device). Repair: "
        "hub_start_zwave_repair; failed nodes: hub_delete_zwave_node; settings: "
        "hub_update_radio_settings."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: RadioActionArgs) -> dict[str, Any]:
        out = await call.hub.radios.radio_action(
            args.radio,
            args.action,
            args.node_id,
            args.setup_code,
            extra=ActionExtra(
                args.dsk_pin, args.smartstart_id, args.device_ids, s2_keys=args.s2_keys
            ),
            device_allowed=call.device_allowed,
            allowlist_active=allowlist_active(call),
            deadline=call.deadline,
            confirm=args.confirm,
            sensitivity=call.hub.sensitivity,
        )
        if note := ACTION_NOTES.get(args.action):  # the hub's own operations (not special)
            out["note"] = note
        if args.action in ("ping_on", "ping_off") and "note" in out:
            add_advice(out, "note", "Turn it on with hub_update_radio_settings.")
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteZwaveNodeArgs(ToolArgs):
    node_id: int = arg(
        vol.All(int, vol.Range(min=2, max=4000)), "Z-Wave node id (decimal)", required=True
    )


class DeleteZwaveNodeTool(HubTool[DeleteZwaveNodeArgs]):
    name = "hub_delete_zwave_node"
    covers = (on_hub("hub_call_zwave"),)
    title = "Remove a failed Z-Wave node"
    description = (
        "Remove a FAILED Z-Wave node from the network; the hub deletes the device on it too "
        "(its apps lose it). Refused for a node that is not failed: exclude a working device "
        "with hub_call_radio_action action=exclusion_start instead. hub_get_radio_details "
        "lists failed nodes first."
    )
    kind = ToolKind.DESTRUCTIVE

    async def run(self, call: ToolCall, args: DeleteZwaveNodeArgs) -> dict[str, Any]:
        out = await call.hub.radios.remove_failed_node(args.node_id, call.device_allowed)
        if "warning" in out:  # still listed
            add_advice(
                out, "warning", "Check hub_get_radio_details in a minute before trying again."
            )
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class RadioSettingsArgs(ToolArgs):
    radio: str = arg(RADIO, RADIO_DESC, required=True)
    enabled: bool | None = arg(bool, "Radio on (true) or off (false)")
    long_range_channel: int | None = arg(vol.In((0, 1, 255)), "Z-Wave LR: 0, 1 or 255")
    channel: int | None = arg(vol.All(int, vol.Range(min=11, max=26)), "Zigbee channel (11-26)")
    power_level: int | None = arg(
        vol.All(int, vol.Range(min=1, max=30)), "Zigbee transmit power level"
    )
    rebuild_network_on_reboot: bool | None = arg(bool, "Zigbee")
    inactive_device_ping: bool | None = arg(bool, "Zigbee")
    region: str | None = arg(vol.In(ZWAVE_REGIONS), None)
    reset: bool | None = arg(bool, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class InstallRadioFirmwareArgs(ToolArgs):
    radio: str = arg(vol.In(("zwave", "zigbee")), "zwave or zigbee", required=True)
    node_id: int | None = arg(vol.All(int, vol.Range(min=2, max=4000)), "Z-Wave device node")
    file_name: str | None = arg(vol.All(str, vol.Length(max=200)), None)
    target: int | None = arg(vol.All(int, vol.Range(min=0, max=255)), "Default: the first")


class InstallRadioFirmwareTool(HubTool[InstallRadioFirmwareArgs]):
    name = "hub_install_radio_firmware"
    covers = (on_hub("hub_call_destructive_ops"),)
    title = "Install radio or device firmware"
    description = (
        "Flash firmware the hub offers: the Zigbee radio's, the Z-Wave radio's (C-7+), "
        "or with node_id+file_name a Z-Wave device's (an updater file, or a File Manager file "
        "put there first). A power loss meanwhile can brick it. Progress: "
        "hub_get_radio_details include=[firmware]."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: InstallRadioFirmwareArgs) -> dict[str, Any]:
        out = await call.hub.radios.install_firmware(
            args.radio, args.node_id, args.file_name, args.target, call.device_allowed,
            call.deadline,
        )  # fmt: skip
        if args.node_id is not None and out.get("node_id") is not None:  # a device's
            add_advice(
                out,
                "note",
                "Follow with hub_get_radio_details include=[firmware] node_id; stop with "
                "hub_call_radio_action action=firmware_abort.",
            )
        elif out.get("radio") == "zwave" and "note" in out:
            add_advice(
                out,
                "note",
                "Follow with hub_get_radio_details include=[firmware]; at stage REBOOT reboot "
                "the hub (hub_reboot_hub).",
            )
        elif out.get("radio") == "zigbee":
            if "note" in out:
                add_advice(out, "note", "Follow with hub_get_radio_details include=[firmware].")
            _zigbee_job_advice(out.get("job"))
        return out


class UpdateRadioSettingsTool(HubTool[RadioSettingsArgs]):
    name = "hub_update_radio_settings"
    covers = (
        on_hub("hub_call_destructive_ops", "reset"),
        on_hub("hub_set_zwave"),
        on_hub("hub_set_zigbee"),
        on_hub("hub_call_matter"),
    )
    title = "Update radio settings"
    description = (
        "Change a radio's settings. zwave: enabled, long_range_channel (0, 1 or 255). "
        "zigbee: enabled, channel and power_level (checked against what the hub offers), "
        "rebuild_network_on_reboot, inactive_device_ping. matter: enabled (takes effect "
        "after a reboot). Turning a radio off makes all its devices unreachable; a new "
        "Zigbee channel can make older devices drop off. Answers the settings read back. "
        "zwave region: the country's. reset=true wipes the radio: every device must pair "
        "again. Firmware: hub_install_radio_firmware."
    )
    kind = ToolKind.DESTRUCTIVE

    async def run(self, call: ToolCall, args: RadioSettingsArgs) -> dict[str, Any]:
        wanted = {
            "enabled": args.enabled,
            "long_range_channel": args.long_range_channel,
            "channel": args.channel,
            "power_level": args.power_level,
            "rebuild_network_on_reboot": args.rebuild_network_on_reboot,
            "inactive_device_ping": args.inactive_device_ping,
            "region": args.region,
            "reset": args.reset or None,
        }
        changes = {key: value for key, value in wanted.items() if value is not None}
        out = await call.hub.radios.update_settings(args.radio, changes, call.deadline)
        if args.radio == "matter" and "enabled" in changes and "note" in out:
            add_advice(out, "note", "Reboot with hub_reboot_hub.")
        return out


def _zigbee_job_advice(job: Any) -> None:
    if isinstance(job, dict) and "note" in job:  # Zigbee left off
        add_advice(job, "note", "Turn it on with hub_update_radio_settings enabled=true.")


def _details_advice(details: dict[str, Any]) -> None:
    """What to call next, added to the blocks of the radio details that need it."""
    firmware = details.get("firmware")
    if isinstance(firmware, dict):
        zwave = firmware.get("zwave_radio")
        if isinstance(zwave, dict) and "note" in zwave:  # at stage REBOOT
            add_advice(zwave, "note", "Reboot with hub_reboot_hub.")
        zigbee = firmware.get("zigbee_radio")
        if isinstance(zigbee, dict):
            _zigbee_job_advice(zigbee.get("job"))
    pairing = details.get("matter_pairing")
    if isinstance(pairing, dict) and pairing.get("node_id") is None and "note" in pairing:
        add_advice(pairing, "note", "Start one with hub_call_radio_action action=pair.")


# What to do after a radio operation (set as the answer's note), by action.
ACTION_NOTES = {
    "inclusion_start": "The hub is listening for new Z-Wave devices (about a minute): put the "
    "device in pairing mode now. New devices appear in hub_list_devices; stop with "
    "action=inclusion_stop. An S2 device asks for keys and its PIN: poll "
    "hub_get_radio_details include=[inclusion].",
    "exclusion_start": "The hub now removes any Z-Wave device whose exclusion button is "
    "pressed (about a minute): follow with hub_get_radio_details include=[exclusion]. Stop "
    "with action=exclusion_stop.",
    "radio_reboot": "The Zigbee radio restarts; Zigbee devices are unreachable for a moment "
    "(hub_get_radio_details include=[zigbee_network] says when it is ONLINE again).",
    "rebuild_network": "Zigbee routes are being rebuilt; devices may be slow for a while.",
    "pair": "Commissioning runs on the hub: follow it with hub_get_radio_details "
    "include=[matter_pairing]; the new device appears in hub_list_devices.",
    "node_repair": "The node's routes are being rebuilt: follow with hub_get_zwave_repair_status.",
    "antenna_test_start": "Follow with hub_get_radio_details include=[antenna_test]; when "
    "it waits for the user, act on its message, then action=antenna_test_continue.",
    "stats_refresh": "The Z-Wave statistics were refreshed: read them with hub_get_radio_details.",
}


ORDER = 74

TOOLS: tuple[type[HubTool[Any]], ...] = (
    GetRadioDetailsTool,
    StartZwaveRepairTool,
    GetZwaveRepairStatusTool,
    CallRadioActionTool,
    DeleteZwaveNodeTool,
    UpdateRadioSettingsTool,
    InstallRadioFirmwareTool,
)
