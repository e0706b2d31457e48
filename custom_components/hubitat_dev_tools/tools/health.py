"""Health tools: the hub health report and device health."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..safety import ToolKind
from .base import HubTool, ToolCall


class GetHealthReportTool(HubTool):
    """hub_get_health_report."""

    name = "hub_get_health_report"
    title = "Get hub health report"
    description = (
        "One hub health report: model, firmware, uptime, free memory, CPU load, temperature, "
        "database size, the hub's own alerts (low memory, large database, radio offline, "
        "backup failed, update available) with an overall status, memory/CPU history since "
        "boot with a trend (falling free memory = a leak), and the newest backup's age. Use "
        "it for 'is my hub healthy / why is it slow'; then hub_get_performance_stats for the "
        "busy devices and apps, hub_get_device_health for failing devices."
    )
    domain = "health"
    kind = ToolKind.READ
    fields = {
        vol.Optional(
            "history_points", default=12, description="Recent history rows to include (0-288)"
        ): vol.All(int, vol.Range(min=0, max=288)),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the report."""
        return await call.hub.health.report(args["history_points"])


class GetDeviceHealthTool(HubTool):
    """hub_get_device_health."""

    name = "hub_get_device_health"
    title = "Get device health"
    description = (
        "Find failing devices: devices silent longer than a threshold (defaults: 25 h battery "
        "devices, 24 h presence, 72 h mains-powered; or stale_hours for all), batteries under "
        "a threshold, disabled devices, and devices with errors or warnings in recent logs. "
        "Virtual and child devices are not checked for silence unless asked. For radio-level "
        "detail (failed Z-Wave nodes, routes) use hub_get_radio_details."
    )
    domain = "health"
    kind = ToolKind.READ
    fields = {
        vol.Optional("stale_hours", description="Silent threshold for every device"): vol.All(
            vol.Coerce(float), vol.Range(min=0.1, max=24 * 365)
        ),
        vol.Optional("battery_threshold", default=20, description="Low battery below %"): vol.All(
            int, vol.Range(min=1, max=100)
        ),
        vol.Optional(
            "error_hours", default=24, description="Look for log errors in the last N hours"
        ): vol.All(vol.Coerce(float), vol.Range(min=0.1, max=24 * 31)),
        vol.Optional("include_virtual", default=False, description="Check virtual devices"): bool,
        vol.Optional("limit", default=50, description="Max devices per list"): vol.All(
            int, vol.Range(min=1, max=500)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the device health lists."""
        return await call.hub.health.device_health(
            stale_hours=args.get("stale_hours"),
            battery_threshold=args["battery_threshold"],
            error_hours=args["error_hours"],
            include_virtual=args["include_virtual"],
            device_allowed=call.device_allowed,
            limit=args["limit"],
        )


ORDER = 73

TOOLS: tuple[type[HubTool], ...] = (GetHealthReportTool, GetDeviceHealthTool)
