"""Health tools: the hub health report and device health."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from .args import ToolArgs, arg
from .base import HubTool, ToolCall, connector, on_hub
from .paging import decode_cursor, paginate

TOOL_DOMAIN = "health"
# At most a day of 5-minute history rows per page (older rows: page with history_cursor).
MAX_HISTORY_PAGE = 288


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthReportArgs(ToolArgs):
    history_points: int = arg(
        vol.All(int, vol.Range(min=0, max=MAX_HISTORY_PAGE)),
        f"History rows per page (0-{MAX_HISTORY_PAGE})",
        default=12,
    )
    history_cursor: str | None = arg(str, "A previous history.next_cursor: the next, older rows")


@dataclass(frozen=True, slots=True)
class _HistoryPage:
    """The history page a call asks for, in the shape :func:`paginate` reads."""

    limit: int
    cursor: str | None


class GetHealthReportTool(HubTool[HealthReportArgs]):
    name = "hub_get_health_report"
    covers = (
        on_hub("hub_get_info"),
        on_hub("hub_get_metrics"),
        on_hub("hub_get_memory_history", "history_points, history_cursor"),
        connector("get_hub_diagnostics"),
    )
    title = "Get hub health report"
    description = (
        "One hub health report: model, firmware, uptime, free memory, CPU load, temperature, "
        "database size, the hub's own alerts (low memory, large database, radio offline, "
        "backup failed, update available) with an overall status, memory/CPU history since "
        "boot with a trend (falling free memory = a leak), and the newest backup's age. Use "
        "it for 'is my hub healthy / why is it slow'; then hub_get_performance_stats for the "
        "busy devices and apps, hub_get_device_health for failing devices. Older history "
        "rows: history.next_cursor as history_cursor."
    )

    async def run(self, call: ToolCall, args: HealthReportArgs) -> dict[str, Any]:
        if args.history_cursor and not args.history_points:
            raise ToolError(
                "history_cursor pages through history rows, but history_points is 0.",
                code="invalid_arguments",
                hint="Pass history_points (1-288) with history_cursor, or omit the cursor.",
            )
        decode_cursor(args.history_cursor)  # refuse a malformed cursor before any request
        report, samples = await call.hub.health.report_and_history()
        if args.history_points:
            # Pages run from the newest row back to boot; each page is shown oldest first.
            rows = [s.as_dict() for s in reversed(samples)]
            page = paginate(rows, _HistoryPage(args.history_points, args.history_cursor))
            history: dict[str, Any] = report["history"]
            history["rows"] = page["items"][::-1]
            history["total"] = page["total"]
            if "next_cursor" in page:
                history["next_cursor"] = page["next_cursor"]
        return report


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceHealthArgs(ToolArgs):
    stale_hours: float | None = arg(
        vol.All(vol.Coerce(float), vol.Range(min=0.1, max=24 * 365)),
        "Silent threshold for every device",
    )
    battery_threshold: int = arg(
        vol.All(int, vol.Range(min=1, max=100)), "Low battery below %", default=20
    )
    error_hours: float = arg(
        vol.All(vol.Coerce(float), vol.Range(min=0.1, max=24 * 31)),
        "Look for log errors in the last N hours",
        default=24,
    )
    include_virtual: bool = arg(bool, "Check virtual devices", default=False)
    limit: int = arg(vol.All(int, vol.Range(min=1, max=500)), "Max devices per list", default=50)


class GetDeviceHealthTool(HubTool[DeviceHealthArgs]):
    name = "hub_get_device_health"
    covers = (on_hub("hub_get_device_health"),)
    title = "Get device health"
    description = (
        "Find failing devices: devices silent longer than a threshold (defaults: 25 h battery "
        "devices, 24 h presence, 72 h mains-powered; or stale_hours for all), batteries under "
        "a threshold, disabled devices, and devices with errors or warnings in recent logs. "
        "Virtual and child devices are not checked for silence unless asked. For radio-level "
        "detail (failed Z-Wave nodes, routes) use hub_get_radio_details."
    )

    async def run(self, call: ToolCall, args: DeviceHealthArgs) -> dict[str, Any]:
        health, rules = await asyncio.gather(
            call.hub.health.device_health(
                stale_hours=args.stale_hours,
                battery_threshold=args.battery_threshold,
                error_hours=args.error_hours,
                include_virtual=args.include_virtual,
                device_allowed=call.device_allowed,
                limit=args.limit,
            ),
            call.hub.home.rules_with_findings(),
        )
        # the rules a broken or disabled device leaves unable to work (details:
        # hub_get_rule_health without app_id)
        return {**health, "rules_with_findings": rules}


ORDER = 73

TOOLS: tuple[type[HubTool[Any]], ...] = (GetHealthReportTool, GetDeviceHealthTool)
