"""Live tools: log lines as they happen (/logsocket) and the ring of recent hub events."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import probatio as vol

from ..hub.events import LOG_LEVELS, HubEvent, LogLine, level_rank
from ..safety import ToolKind
from .args import ascii_re
from .base import HubTool, ToolCall

MAX_WINDOW_S = 60
SOURCES = ("DEVICE", "APP", "HUB", "LOCATION")


def _log_filter(args: dict[str, Any], allowed: Callable[[str], bool]) -> Any:
    max_rank = level_rank(args.get("level") or "trace")
    source_type = args.get("source_type")
    source_id = str(args["source_id"]) if args.get("source_id") is not None else None
    name = (args.get("source") or "").strip().lower()
    text = (args.get("text") or "").strip().lower()

    def match(line: LogLine) -> bool:
        if level_rank(line.level) > max_rank:
            return False
        if line.source_type == "dev" and line.source_id and not allowed(line.source_id):
            return False
        if source_type and line.source_type != source_type:
            return False
        if source_id and line.source_id != source_id:
            return False
        if name and name not in (line.name or "").lower():
            return False
        return not text or text in line.message.lower()

    return match


class TailLogsTool(HubTool):
    """hub_tail_logs."""

    name = "hub_tail_logs"
    title = "Tail live logs"
    description = (
        "Watch the hub's log live: returns the log lines that arrive within the next "
        "window_s seconds (max 60), filtered by level (this level and more severe), source "
        "(dev/app, id, or part of the name) and text, plus the most recent lines already "
        "seen. Run it right after an action to see what the hub logs about it. For older "
        "log history use hub_get_logs."
    )
    domain = "logs"
    kind = ToolKind.READ
    fields = {
        vol.Optional(
            "window_s", default=10, description="Seconds to listen (0-60); 0 = recent lines only"
        ): vol.All(vol.Coerce(float), vol.Range(min=0, max=MAX_WINDOW_S)),
        vol.Optional(
            "level", description="Minimum severity: error, warn, info, debug or trace"
        ): vol.In(LOG_LEVELS),
        vol.Optional("source_type", description="dev (devices) or app (apps)"): vol.In(
            ("dev", "app")
        ),
        vol.Optional("source_id", description="Device or app id"): vol.All(
            vol.Coerce(str), vol.Match(ascii_re(r"^\d+$"), msg="source_id must be a numeric id")
        ),
        vol.Optional("source", description="Part of the device or app name"): str,
        vol.Optional("text", description="Text the message must contain"): str,
        vol.Optional(
            "include_recent", default=True, description="Also return recent lines already seen"
        ): bool,
        vol.Optional("limit", default=100, description="Max lines returned"): vol.All(
            int, vol.Range(min=1, max=500)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Collect live lines for the window (cache when live, else a one-shot socket)."""
        match = _log_filter(args, call.device_allowed)
        window: float = args["window_s"]
        limit: int = args["limit"]
        cache = call.hub.cache
        started = time.monotonic()
        recent: list[LogLine] = []
        if cache is not None and args["include_recent"]:
            recent = cache.recent_logs(match, limit=limit)
        if cache is not None and cache.logs_live:
            lines = await cache.collect_logs(match, window, limit=limit)
            via = "live_stream"
        else:
            lines = await call.hub.logs.listen_logs(match, window, limit)
            via = "one_shot_socket"
        out: dict[str, Any] = {
            "lines": [line.as_dict() for line in lines],
            "count": len(lines),
            "listened_s": round(time.monotonic() - started, 2),
            "via": via,
        }
        if args["include_recent"]:
            out["recent"] = [line.as_dict() for line in reversed(recent)]
            if cache is None:
                out["recent_note"] = (
                    "No live log ring for this hub (the event stream is not running); "
                    "use hub_get_logs for past lines."
                )
        if len(lines) >= limit:
            out["truncated"] = f"Stopped at {limit} lines; narrow with level/source/text."
        return out


def _event_filter(args: dict[str, Any], allowed: Callable[[str], bool]) -> Any:
    device_id = args.get("device_id")
    source = args.get("source")
    name = args.get("name")
    since = time.time() - args["since_s"] if args.get("since_s") else None

    def match(event: HubEvent) -> bool:
        if device_id and event.device_id != device_id:
            return False
        if event.device_id is not None and not allowed(event.device_id):
            return False
        if source and event.source != source:
            return False
        if name and event.name != name:
            return False
        return since is None or event.received_at >= since

    return match


def _history_row(row: dict[str, Any], source: str) -> dict[str, Any]:
    out = {
        "time": row.get("date"),
        "source": source,
        "name": row.get("name"),
        "value": row.get("value"),
    }
    if row.get("deviceId") is not None:
        out["device_id"] = str(row["deviceId"])
    if row.get("descriptionText"):
        out["description"] = row["descriptionText"]
    return out


class ListRecentEventsTool(HubTool):
    """hub_list_recent_events."""

    name = "hub_list_recent_events"
    title = "List recent hub events"
    description = (
        "The latest events the hub pushed live, newest first, from an in-memory ring: "
        "attribute changes, mode, HSM, hub variables, app and hub events. Filter by "
        "device_id, source (DEVICE, APP, HUB, LOCATION), event name (e.g. mode, hsmStatus, "
        "variable:guestCount) and since_s. Answers at once without asking the hub; the ring "
        "only covers the time since Home Assistant connected. For older history use "
        "hub_list_device_events (a device) or hub_list_events (mode, HSM, variables, hub)."
    )
    domain = "logs"
    kind = ToolKind.READ
    fields = {
        vol.Optional("device_id", description="Only this device's events"): vol.All(
            vol.Coerce(str), vol.Match(ascii_re(r"^\d+$"), msg="device_id must be a numeric id")
        ),
        vol.Optional("source", description="DEVICE, APP, HUB or LOCATION"): vol.All(
            vol.Upper, vol.In(SOURCES)
        ),
        vol.Optional("name", description="Event name, e.g. mode, hsmStatus, temperature"): str,
        vol.Optional("since_s", description="Only events of the last N seconds"): vol.All(
            vol.Coerce(float), vol.Range(min=0, max=7 * 86400)
        ),
        vol.Optional("limit", default=50, description="Max events returned"): vol.All(
            int, vol.Range(min=1, max=500)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Answer from the ring; without a running stream, from the hub's history."""
        limit: int = args["limit"]
        cache = call.hub.cache
        if cache is not None:
            events = cache.recent_events(_event_filter(args, call.device_allowed), limit=limit)
            return {
                "events": [e.as_dict() for e in events],
                "count": len(events),
                "ring_size": len(cache.events),
                "freshness": cache.freshness(),
            }
        # No live stream: the hub's own history (one request).
        rows: list[dict[str, Any]]
        if args.get("device_id"):
            raw = await call.hub.logs.device_history(args["device_id"])
            rows = [_history_row(r, "DEVICE") | {"device_id": args["device_id"]} for r in raw]
        else:
            raw_loc = await call.hub.logs.location_history()
            rows = [_history_row(r, "LOCATION") for r in raw_loc]
        if args.get("source"):
            rows = [r for r in rows if r["source"] == args["source"]]
        if args.get("name"):
            rows = [r for r in rows if r["name"] == args["name"]]
        return {
            "events": rows[:limit],
            "count": min(len(rows), limit),
            "freshness": {"source": "hub_history", "live": False},
            "note": "The live event stream is not running for this hub; this is the hub's "
            + ("device history." if args.get("device_id") else "location event history."),
        }


ORDER = 50

TOOLS: tuple[type[HubTool], ...] = (TailLogsTool, ListRecentEventsTool)
