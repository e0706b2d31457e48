"""Live tools: log lines as they happen (/logsocket) and the ring of recent hub events."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any

import probatio as vol

from ..device_refs import device_refs
from ..domain_data import get_domain_data
from ..errors import ToolError
from ..hub.events import LOG_LEVELS
from ..managers.events import EventFilter, LogFilter, refuse_outside_source
from .args import ToolArgs, arg, numeric_id
from .base import HubTool, ToolCall, on_hub
from .errors import add_advice

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
    covers = (on_hub("hub_get_logs"),)
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
        if "recent_note" in out:
            add_advice(out, "recent_note", "Use hub_get_logs for past lines.")
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


# The tools whose calls command devices (their audit records explain a device's events).
COMMANDING_TOOLS = frozenset(
    {"hub_call_device_command", "hub_call_room_command", "hub_call_scene", "hub_call_rule"}
)
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")


@dataclass(frozen=True, slots=True, kw_only=True)
class EventCauseArgs(ToolArgs):
    device_id: str = arg(numeric_id("device_id"), "Device id", required=True)
    attribute: str | None = arg(str, "e.g. switch, motion")
    value: str | None = arg(str, "e.g. on")
    at: str | None = arg(str, "Near: ISO time or HH:MM (hub time); omit: newest")


def parse_when(text: str, zone: tzinfo | None, now: datetime) -> datetime:
    """``HH:MM`` (the last such time, hub time) or ISO 8601 (hub time without an offset)."""
    zone = zone or UTC
    m = _CLOCK.match(text.strip())
    if m:
        local_now = now.astimezone(zone)
        hour, minute = int(m.group(1)), int(m.group(2))
        if hour > 23 or minute > 59:
            raise ToolError(f"at={text!r} is not a time of day.", code="invalid_arguments")
        when = datetime.combine(local_now.date(), time(hour, minute), zone)
        return when - timedelta(days=1) if when > local_now else when
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError as err:
        raise ToolError(
            f"at={text!r} is neither HH:MM nor an ISO 8601 time. Nothing was read.",
            code="invalid_arguments",
            hint="Give e.g. at='23:58' or at='2026-12-02T23:58:00-07:00'.",
        ) from err
    return when if when.tzinfo else when.replace(tzinfo=zone)


class GetEventCauseTool(HubTool[EventCauseArgs]):
    name = "hub_get_event_cause"
    title = "Cause of a change"
    description = (
        "Why did a device do something (what turned the light on at midnight?): the change, "
        "what produced it (recorded by the hub, or ranked candidates with evidence and "
        "confidence) and what that reacted to, a few links back; one call."
    )
    hub_text = ("event", "producer", "chain", "summary")

    async def run(self, call: ToolCall, args: EventCauseArgs) -> dict[str, Any]:
        at = parse_when(args.at, call.hub.time_zone, datetime.now(UTC)) if args.at else None
        shared = get_domain_data(call.hass)
        records = shared.audit.recent(None) if shared else []

        def audit(device_id: str, start: datetime, end: datetime) -> list[Mapping[str, Any]]:
            out: list[Mapping[str, Any]] = []
            for rec in records:
                if rec.get("tool") not in COMMANDING_TOOLS or rec.get("outcome") != "ok":
                    continue
                if rec.get("hub") not in (None, call.runtime.title):
                    continue
                when = _time(rec.get("time"))
                if when is None or not start <= when <= end:
                    continue
                if device_id in device_refs(rec.get("args") or {}):
                    out.append(rec)
            return out

        found = await call.hub.event_causes.explain(
            args.device_id, attribute=args.attribute, value=args.value, at=at, audit=audit
        )
        # a link back may reach a device outside the allowlist: it is cut there
        screen = await call.hub.devices.screen(call.device_allowed)
        chain = found.get("chain") or []
        for n, link in enumerate(chain):
            if not call.device_allowed(str(link["event"]["device_id"])):
                found["chain"] = chain[:n]
                found["chain_cut"] = "the next link is a device outside the allowlist"
                break
        return screen.answer(found)


def _time(text: Any) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


ORDER = 50

TOOLS: tuple[type[HubTool[Any]], ...] = (TailLogsTool, ListRecentEventsTool, GetEventCauseTool)
