"""Live tools: log lines as they happen (/logsocket) and the ring of recent hub events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..hub.events import LOG_LEVELS
from ..managers.events import EventFilter, LogFilter, refuse_outside_source
from .args import ToolArgs, arg, numeric_id
from .base import HubTool, ToolCall

TOOL_DOMAIN = "logs"

MAX_WINDOW_S = 60
SOURCES = ("DEVICE", "APP", "HUB", "LOCATION")


@dataclass(frozen=True, slots=True, kw_only=True)
class TailLogsArgs(ToolArgs):
    window_s: float = arg(
        vol.All(vol.Coerce(float), vol.Range(min=0, max=MAX_WINDOW_S)),
        "Seconds to listen (0-60); 0 = recent lines only",
        default=10,
    )
    level: str | None = arg(
        vol.In(LOG_LEVELS), "Minimum severity: error, warn, info, debug or trace"
    )
    source_type: str | None = arg(vol.In(("dev", "app")), "dev (devices) or app (apps)")
    source_id: str | None = arg(numeric_id("source_id"), "Device or app id")
    source: str | None = arg(str, "Part of the device or app name")
    text: str | None = arg(str, "Text the message must contain")
    include_recent: bool = arg(bool, "Also return recent lines already seen", default=True)
    limit: int = arg(vol.All(int, vol.Range(min=1, max=500)), "Max lines returned", default=100)


class TailLogsTool(HubTool[TailLogsArgs]):
    name = "hub_tail_logs"
    hub_text = ("lines", "recent")
    title = "Tail live logs"
    description = (
        "Watch the hub's log live: returns the log lines that arrive within the next "
        "window_s seconds (max 60), filtered by level (this level and more severe), source "
        "(dev/app, id, or part of the name) and text, plus the most recent lines already "
        "seen. Run it right after an action to see what the hub logs about it. For older "
        "log history use hub_get_logs."
    )

    async def run(self, call: ToolCall, args: TailLogsArgs) -> dict[str, Any]:
        log_filter = LogFilter(
            level=args.level,
            source_type=args.source_type,
            source_id=args.source_id,
            source=args.source,
            text=args.text,
        )
        window, cut = call.wait_budget(args.window_s)
        # refused before the screen reads the device list: a refusal sends nothing
        refuse_outside_source(args.source_type, args.source_id, call.device_allowed)
        out = await call.hub.live.tail_logs(
            log_filter,
            window,
            args.limit,
            include_recent=args.include_recent,
            device_allowed=call.device_allowed,
            screen=await call.hub.devices.screen(call.device_allowed),
        )
        if cut:
            out["pending"] = (
                f"Listened {window:.0f} s instead of {args.window_s:.0f} s so the call answers "
                "in time; call again for more."
            )
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class RecentEventsArgs(ToolArgs):
    device_id: str | None = arg(numeric_id("device_id"), "Only this device's events")
    source: str | None = arg(vol.All(vol.Upper, vol.In(SOURCES)), "DEVICE, APP, HUB or LOCATION")
    name: str | None = arg(str, "Event name, e.g. mode, hsmStatus, temperature")
    since_s: float | None = arg(
        vol.All(vol.Coerce(float), vol.Range(min=0, max=7 * 86400)),
        "Only events of the last N seconds",
    )
    limit: int = arg(vol.All(int, vol.Range(min=1, max=500)), "Max events returned", default=50)


class ListRecentEventsTool(HubTool[RecentEventsArgs]):
    name = "hub_list_recent_events"
    hub_text = ("events",)
    title = "List recent hub events"
    description = (
        "The latest events the hub pushed live, newest first, from an in-memory ring: "
        "attribute changes, mode, HSM, hub variables, app and hub events. Filter by "
        "device_id, source (DEVICE, APP, HUB, LOCATION), event name (e.g. mode, hsmStatus, "
        "variable:guestCount) and since_s. Answers at once without asking the hub; the ring "
        "only covers the time since Home Assistant connected. For older history use "
        "hub_list_device_events (a device) or hub_list_events (mode, HSM, variables, hub)."
    )

    async def run(self, call: ToolCall, args: RecentEventsArgs) -> dict[str, Any]:
        event_filter = EventFilter(
            device_id=args.device_id, source=args.source, name=args.name, since_s=args.since_s
        )
        return await call.hub.live.recent_events(event_filter, args.limit, call.device_allowed)


ORDER = 50

TOOLS: tuple[type[HubTool[Any]], ...] = (TailLogsTool, ListRecentEventsTool)
