"""Radio tools: details, Z-Wave repair, radio operations, failed-node removal, settings."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..hub.radios import RADIO_ACTIONS
from ..safety import ToolKind, allowed_device_ids
from .base import HubTool, ToolCall


class GetRadioDetailsTool(HubTool):
    """hub_get_radio_details."""

    name = "hub_get_radio_details"
    title = "Get radio details"
    description = (
        "Z-Wave, Zigbee and Matter radio details: enabled/healthy, firmware, region, channel "
        "and PAN id; Z-Wave nodes (state, route, packet error rate, RTT, RSSI, neighbours, "
        "battery) with failed nodes first; Zigbee devices (active, last message, RSSI/LQI); "
        "Matter devices. Use it for 'which Z-Wave devices are failing'. To start a Z-Wave "
        "repair use hub_start_zwave_repair; for other radio operations "
        "hub_call_radio_action; settings: hub_update_radio_settings."
    )
    domain = "radios"
    kind = ToolKind.READ
    fields = {
        vol.Optional("radio", default="all", description="zwave, zigbee, matter or all"): vol.In(
            ("zwave", "zigbee", "matter", "all")
        ),
        vol.Optional("node_id", description="Only this Z-Wave node id (decimal)"): vol.All(
            int, vol.Range(min=1, max=4000)
        ),
        vol.Optional(
            "include_topology", default=False, description="Add the Z-Wave route table"
        ): bool,
        vol.Optional("limit", default=100, description="Max nodes/devices per radio"): vol.All(
            int, vol.Range(min=1, max=500)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the radio details."""
        return await call.hub.radios.details(
            args["radio"], args.get("node_id"), args["include_topology"], args["limit"]
        )


class StartZwaveRepairTool(HubTool):
    """hub_start_zwave_repair."""

    name = "hub_start_zwave_repair"
    title = "Start Z-Wave repair"
    description = (
        "Start a Z-Wave network repair (rebuilds routes; takes minutes to hours and slows "
        "Z-Wave meanwhile). If a repair or inclusion is already running it is reported, not "
        "restarted. Follow progress with hub_get_zwave_repair_status. It does not remove "
        "failed nodes."
    )
    domain = "radios"
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Start the repair."""
        return await call.hub.radios.start_repair()


class GetZwaveRepairStatusTool(HubTool):
    """hub_get_zwave_repair_status."""

    name = "hub_get_zwave_repair_status"
    title = "Get Z-Wave repair status"
    description = (
        "Whether a Z-Wave repair is running, its stage and progress text. To start one use "
        "hub_start_zwave_repair."
    )
    domain = "radios"
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the repair status."""
        return await call.hub.radios.repair_status()


class CallRadioActionTool(HubTool):
    """hub_call_radio_action."""

    name = "hub_call_radio_action"
    title = "Run a radio operation"
    description = (
        "Run one Z-Wave, Zigbee or Matter operation. zwave: inclusion_start/inclusion_stop "
        "(pair new devices), exclusion_start/exclusion_stop (remove a device by its button), "
        "repair_cancel, node_refresh/node_rediscover/node_reinitialize (node_id). zigbee: "
        "radio_reboot, rebuild_network, channel_scan (answers the channel energies). "
        "matter: pair (setup_code), open_pairing_window (node_id; answers a code to share "
        "the device). Nodes are checked to exist first. Start a Z-Wave repair with "
        "hub_start_zwave_repair; remove a failed Z-Wave node with hub_delete_zwave_node. "
        "Radio settings are in hub_update_radio_settings."
    )
    domain = "radios"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("radio", description="zwave, zigbee or matter"): vol.In(
            ("zwave", "zigbee", "matter")
        ),
        vol.Required("action", description="The operation (see the description)"): vol.In(
            tuple(RADIO_ACTIONS)
        ),
        vol.Optional("node_id", description="Z-Wave node id (decimal) or Matter node id"): (
            vol.All(int, vol.Range(min=1, max=2**64))
        ),
        vol.Optional("setup_code", description="Matter pairing code, for action=pair"): vol.All(
            str, vol.Length(min=11, max=200)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Validate and run."""
        result = await call.hub.radios.radio_action(
            args["radio"],
            args["action"],
            args.get("node_id"),
            args.get("setup_code"),
            device_allowed=call.device_allowed,
            allowlist_active=allowed_device_ids(call.runtime) is not None,
        )
        node = f" on node {result['node_id']}" if result.get("node_id") else ""
        return {"summary": f"{args['radio']} {args['action']}{node}: done", **result}


class DeleteZwaveNodeTool(HubTool):
    """hub_delete_zwave_node."""

    name = "hub_delete_zwave_node"
    title = "Remove a failed Z-Wave node"
    description = (
        "Remove a FAILED Z-Wave node from the network; the hub deletes the device on it too "
        "(its apps lose it). Refused for a node that is not failed: exclude a working device "
        "with hub_call_radio_action action=exclusion_start instead. hub_get_radio_details "
        "lists failed nodes first. Destructive: needs confirm=true and a hub backup from the "
        "last 24 hours."
    )
    domain = "radios"
    kind = ToolKind.DESTRUCTIVE
    fields = {
        vol.Required("node_id", description="Z-Wave node id (decimal)"): vol.All(
            int, vol.Range(min=2, max=4000)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Check it failed, remove, verify."""
        result = await call.hub.radios.remove_failed_node(args["node_id"], call.device_allowed)
        if not result["removed"]:
            result["warning"] = (
                "The hub accepted the removal but still lists the node; check "
                "hub_get_radio_details in a minute before trying again."
            )
        verb = "Removed" if result["removed"] else "Asked the hub to remove"
        return {
            "summary": f"{verb} failed Z-Wave node {args['node_id']} ({result['device_name']})",
            **result,
        }


class UpdateRadioSettingsTool(HubTool):
    """hub_update_radio_settings."""

    name = "hub_update_radio_settings"
    title = "Update radio settings"
    description = (
        "Change a radio's settings. zwave: enabled, long_range_channel (0, 1 or 255). "
        "zigbee: enabled, channel and power_level (checked against what the hub offers), "
        "rebuild_network_on_reboot, inactive_device_ping. matter: enabled (takes effect "
        "after a reboot). Turning a radio off makes all its devices unreachable; a new "
        "Zigbee channel can make older devices drop off. Answers the settings read back. "
        "Z-Wave region and radio firmware are not changed here. Destructive: needs "
        "confirm=true and a hub backup from the last 24 hours."
    )
    domain = "radios"
    kind = ToolKind.DESTRUCTIVE
    fields = {
        vol.Required("radio", description="zwave, zigbee or matter"): vol.In(
            ("zwave", "zigbee", "matter")
        ),
        vol.Optional("enabled", description="Radio on (true) or off (false)"): bool,
        vol.Optional("long_range_channel", description="Z-Wave LR: 0, 1 or 255"): vol.In(
            (0, 1, 255)
        ),
        vol.Optional("channel", description="Zigbee channel (11-26)"): vol.All(
            int, vol.Range(min=11, max=26)
        ),
        vol.Optional("power_level", description="Zigbee transmit power level"): vol.All(
            int, vol.Range(min=1, max=30)
        ),
        vol.Optional("rebuild_network_on_reboot", description="Zigbee"): bool,
        vol.Optional("inactive_device_ping", description="Zigbee"): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Validate against the hub's offer, set, read back."""
        changes = {
            k: v for k, v in args.items() if k not in ("radio", "hub", "confirm") and v is not None
        }
        result = await call.hub.radios.update_settings(args["radio"], changes)
        return {"summary": f"{args['radio']} settings: {result['settings']}", **result}


ORDER = 74

TOOLS: tuple[type[HubTool], ...] = (
    GetRadioDetailsTool,
    StartZwaveRepairTool,
    GetZwaveRepairStatusTool,
    CallRadioActionTool,
    DeleteZwaveNodeTool,
    UpdateRadioSettingsTool,
)
