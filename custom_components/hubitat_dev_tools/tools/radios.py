"""Radio tools: Z-Wave/Zigbee/Matter details, Z-Wave repair start and status."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..managers.radios import RadioManager
from ..safety import ToolKind
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
        "repair use hub_start_zwave_repair. Radio settings cannot be changed here."
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
        return await RadioManager(call.runtime.client).details(
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
        return await RadioManager(call.runtime.client).start_repair()


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
        return await RadioManager(call.runtime.client).repair_status()


ORDER = 74

TOOLS: tuple[type[HubTool], ...] = (
    GetRadioDetailsTool,
    StartZwaveRepairTool,
    GetZwaveRepairStatusTool,
)
