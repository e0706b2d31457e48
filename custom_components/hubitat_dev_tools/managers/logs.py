"""Logs, events, performance statistics and scheduled jobs.

Past logs come from ``/logs/past/json`` (oldest first, naive UTC, continuation lines, HTML):
they are parsed, filtered here, returned newest first, and paged with a cursor that pins the
newest entry of the first page, so new log lines do not shift later pages.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ..device_refs import DeviceScreen
from ..errors import ToolError
from ..hub.apps import InstalledApp
from ..hub.controllers import AppsController, EventsController, LogsController
from ..hub.errors import HubError
from ..hub.health import parse_uptime
from ..hub.logs import LEVELS, LogLine, strip_tags
from ..hub.models import parse_hub_time
from ..redact import redact
from .events import DeviceAllowed, device_visible, line_allowed, refuse_outside_source, shown_line

PAGE_BUDGET_BYTES = 80_000
MESSAGE_MAX_CHARS = 1500


def parse_when(value: str | None, field: str) -> datetime | None:
    """ISO date-time (naive = UTC) -> aware datetime; ToolError otherwise."""
    if value is None or not str(value).strip():
        return None
    parsed = parse_hub_time(str(value))
    if parsed is None:
        raise ToolError(
            f"{field} '{value}' is not an ISO date-time. Nothing was sent to the hub.",
            hint="Use e.g. 2026-11-29T08:00:00Z (UTC) or with an offset.",
        )
    return parsed


def window_start(since: str | None, hours_back: float | None) -> datetime | None:
    """The start of a time window: ``since`` (ISO), or the last ``hours_back`` hours if
    that is later."""
    start = parse_when(since, "since")
    if hours_back:
        back = datetime.now(UTC) - timedelta(hours=hours_back)
        start = max(start, back) if start else back
    return start


@dataclass(frozen=True, slots=True, kw_only=True)
class LogQuery:
    """Which past log entries to return: filters and the page."""

    since: datetime | None = None
    until: datetime | None = None
    level: str | None = None  # this level and above
    source_type: str | None = None  # dev | app
    source_id: str | None = None  # needs source_type
    patterns: tuple[str, ...] = ()  # case-insensitive, in the redacted name or message
    match_all: bool = False  # every pattern (else any)
    limit: int = 50
    cursor: str | None = None


def _encode_cursor(anchor: datetime | None, offset: int) -> str:
    raw = json.dumps({"a": anchor.isoformat() if anchor else None, "o": offset})
    return base64.urlsafe_b64encode(f"logs:{raw}".encode()).decode().rstrip("=")


MAX_CURSOR_CHARS = 512
MAX_CURSOR_OFFSET = 10**9


def _decode_cursor(cursor: str) -> tuple[datetime | None, int]:
    """The anchor and offset of a cursor _encode_cursor made; ToolError(invalid_cursor) for
    anything else (every malformed shape, never an internal error)."""
    try:
        if len(cursor) > MAX_CURSOR_CHARS or not cursor.isascii():
            raise ValueError(cursor)
        text = base64.urlsafe_b64decode((cursor + "=" * (-len(cursor) % 4)).encode()).decode()
        if not text.startswith("logs:"):
            raise ValueError(text)
        data = json.loads(text[5:])
        if not isinstance(data, dict) or set(data) != {"a", "o"}:
            raise ValueError(text)
        raw_anchor, offset = data["a"], data["o"]
        if type(offset) is not int or not 0 <= offset <= MAX_CURSOR_OFFSET:
            raise ValueError(offset)
        anchor = None
        if raw_anchor is not None:
            if not isinstance(raw_anchor, str):
                raise ValueError(raw_anchor)
            anchor = datetime.fromisoformat(raw_anchor)
            if anchor.tzinfo is None:  # ours are always aware: naive ones cannot compare
                raise ValueError(raw_anchor)
    except (ValueError, TypeError, OverflowError, RecursionError, binascii.Error):
        raise ToolError(
            "The cursor is not one a log read returned.",
            code="invalid_cursor",
            hint="Omit cursor for the first page, then pass next_cursor as is.",
        ) from None
    return anchor, offset


def _cut(text: str, limit: int = MESSAGE_MAX_CHARS) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... (+{len(text) - limit} chars)"


# What the numbers mean (the hub UI's own labels: "% of busy", "runtime / uptime total").
_PERFORMANCE_MEANING = (
    "busy_share_pct: this item's share of all devices' (or all apps') busy time since boot; "
    "the rows sum to about 100, it is not hub CPU. *_runtime_pct_of_uptime: the time spent "
    "in device (app) code as a share of the time since boot. total_ms: run time since boot."
)


class LogsManager:
    """Hub logs and events."""

    def __init__(
        self, logs: LogsController, events: EventsController, apps: AppsController
    ) -> None:
        self._logs = logs
        self._events = events
        self._apps_library = apps

    async def logs(
        self,
        query: LogQuery,
        *,
        device_allowed: DeviceAllowed,
        screen: DeviceScreen | None = None,
    ) -> dict[str, Any]:
        """Filtered, newest-first, paged past logs.

        ``device_allowed`` is the call's device allowlist: a query scoped to a device outside
        it is refused before any request, and other devices' lines outside it are left out
        (as a live log tail does). Patterns match the redacted text the answer shows.
        """
        since, until = query.since, query.until
        anchor, offset = _decode_cursor(query.cursor) if query.cursor else (None, 0)
        source_type, source_id = query.source_type, query.source_id
        if source_id and not source_type:
            raise ToolError(
                "source_id needs source_type ('dev' for a device, 'app' for an app). "
                "Nothing was sent to the hub."
            )
        refuse_outside_source(source_type, source_id, device_allowed)
        min_level = LEVELS.index(query.level) if query.level else 0
        patterns = [p.lower() for p in query.patterns if p]
        mode_all = query.match_all

        fetched = await self._logs.past(source_type, source_id)
        lines = [
            line
            for line in fetched
            if line_allowed(line.source_type, line.source_id, device_allowed)
        ]

        def keep(line: LogLine) -> bool:
            if line.level in LEVELS and LEVELS.index(line.level) < min_level:
                return False
            if source_type and line.source_type and line.source_type != source_type:
                return False
            if source_id and line.source_id and line.source_id != source_id:
                return False
            if line.time is not None:
                if since and line.time < since:
                    return False
                if until and line.time > until:
                    return False
                if anchor and line.time > anchor:
                    return False
            if patterns:  # the redacted text: a pattern cannot probe a hidden secret
                item = shown_line(line, screen)
                hay = f"{item.get('name') or ''}\n{item.get('message') or ''}".lower()
                hits = [p in hay for p in patterns]
                if not (all(hits) if mode_all else any(hits)):
                    return False
            return True

        matched = [line for line in reversed(lines) if keep(line)]
        if anchor is None and matched and matched[0].time is not None:
            anchor = matched[0].time
        if offset > len(matched):
            raise ToolError(
                "The cursor points past the end of the matching logs.",
                code="invalid_cursor",
                hint="Start again without a cursor.",
            )
        limit = query.limit
        page: list[dict[str, Any]] = []
        used = 0
        for line in matched[offset : offset + limit]:
            item = shown_line(line, screen)
            item["message"] = _cut(item["message"])
            size = len(json.dumps(item, ensure_ascii=False).encode())
            if page and used + size > PAGE_BUDGET_BYTES:
                break
            page.append(item)
            used += size
        end = offset + len(page)
        by_level: dict[str, int] = {}
        for line in matched:
            by_level[line.level] = by_level.get(line.level, 0) + 1
        out: dict[str, Any] = {
            "logs": page,
            "matched": len(matched),
            "matched_by_level": by_level,
            "scanned": len(lines),
            "oldest_available": lines[0].time.isoformat() if lines and lines[0].time else None,
        }
        if end < len(matched):
            out["next_cursor"] = _encode_cursor(anchor, end)
        return out

    async def events(
        self,
        source: str,
        limit: int,
        since: datetime | None,
        name: str | None,
        app_id: str | None = None,
        *,
        device_allowed: DeviceAllowed,
        screen: DeviceScreen | None = None,
    ) -> dict[str, Any]:
        """Hub events and/or location events (or one app's events), newest first.

        An event that names a device outside ``device_allowed`` is left out, and with
        ``screen`` such a device's label in an app's or the location's event text is
        replaced; ``name`` matches the event name the answer shows (redacted, screened).
        """
        sources: list[tuple[str, Sequence[Mapping[str, Any]]]]
        if app_id is not None:
            sources = [("app", await self._events.app(app_id))]
        else:
            want_hub = source in ("hub", "all")
            want_loc = source in ("location", "all")
            hub_read: Awaitable[Sequence[Mapping[str, Any]]] = (
                self._events.hub() if want_hub else _empty()
            )
            loc_read: Awaitable[Sequence[Mapping[str, Any]]] = (
                self._events.location() if want_loc else _empty()
            )
            hub_events, loc_events = await asyncio.gather(hub_read, loc_read)
            sources = [("hub", hub_events), ("location", loc_events)]
        merged: list[tuple[datetime | None, dict[str, Any]]] = []
        for kind, events in sources:
            for e in events:
                when = parse_hub_time(e.get("date"))
                if since and when and when < since:
                    continue
                if not device_visible(e.get("deviceId"), device_allowed):
                    continue
                raw = {
                    "source": kind,
                    "name": str(e.get("name") or ""),
                    "value": e.get("value"),
                    "unit": e.get("unit"),
                    "description": strip_tags(str(e.get("descriptionText") or "")) or None,
                    "type": e.get("type"),
                    "date": when.isoformat(timespec="seconds") if when else e.get("date"),
                }
                item: dict[str, Any] = redact({k: v for k, v in raw.items() if v is not None})
                if screen is not None and screen.active:  # "Intrusion Alert: Back Door Lock"
                    for key in ("name", "value", "description"):
                        if isinstance(item.get(key), str):
                            item[key] = screen.text(item[key])
                if name and name.lower() not in str(item.get("name") or "").lower():
                    continue
                merged.append((when, item))
        merged.sort(key=lambda t: t[0] or datetime.min.replace(tzinfo=UTC), reverse=True)
        items = [item for _w, item in merged[:limit]]
        out: dict[str, Any] = {"events": items, "count": len(items), "total_matched": len(merged)}
        if app_id is not None:
            out = {"app_id": app_id, **out}
        return out

    async def performance(
        self, kind: str, sort_by: str, limit: int, *, device_allowed: DeviceAllowed
    ) -> dict[str, Any]:
        """Device/app busy %, event counts, runtime and state size from ``/logs/json``
        (the rows of devices outside ``device_allowed`` left out). The hub names an app's
        row by its type ("Rule-5.1"): the app list gives its label ("Goodnight") and type."""
        stats, apps = await asyncio.gather(
            self._logs.stats(),
            self._apps() if kind in ("app", "both") else _no_apps(),
        )
        data: Mapping[str, Any] = stats
        for row in data.get("appStats") or []:
            app = apps.get(str(row.get("id"))) if isinstance(row, dict) else None
            if app is not None:
                row["name"] = app.name
                if app.type and app.type != app.name:
                    row["type"] = app.type
        keys: dict[str, Callable[[dict[str, Any]], Any]] = {
            "pct": lambda s: -float(s.get("pct") or 0),
            "count": lambda s: -int(s.get("count") or 0),
            "state_size": lambda s: -int(s.get("stateSize") or 0),
            "total_ms": lambda s: -int(s.get("total") or 0),
            "name": lambda s: str(s.get("name") or "").lower(),
        }

        def rows(raw: Any, id_key: str) -> list[dict[str, Any]]:
            stats = [
                s
                for s in raw or []
                if isinstance(s, dict)
                and (id_key != "device_id" or device_visible(s.get("id"), device_allowed))
            ]
            stats.sort(key=keys[sort_by])
            return [
                {
                    id_key: str(s.get("id")),
                    "name": strip_tags(str(s.get("name") or "")),
                    "busy_share_pct": s.get("pct"),
                    "count": s.get("count"),
                    "total_ms": s.get("total"),
                    "state_size": s.get("stateSize"),
                    "large_state": int(s.get("stateSize") or 0) > 5000,
                    **({"type": strip_tags(str(s["type"]))} if s.get("type") else {}),
                }
                for s in stats[:limit]
            ]

        out: dict[str, Any] = {
            "uptime": data.get("uptime"),
            "uptime_seconds": parse_uptime(data.get("uptime")),
            "devices_runtime_pct_of_uptime": data.get("devicePct"),
            "apps_runtime_pct_of_uptime": data.get("appPct"),
            "devices_total_ms": data.get("totalDevicesRuntime"),
            "apps_total_ms": data.get("totalAppsRuntime"),
            "meaning": _PERFORMANCE_MEANING,
        }
        for wanted, key, raw_key, id_key in (
            ("device", "devices", "deviceStats", "device_id"),
            ("app", "apps", "appStats", "app_id"),
        ):
            if kind not in (wanted, "both"):
                continue
            out[key] = rows(data.get(raw_key), id_key)
            listed = any(isinstance(s, dict) for s in data.get(raw_key) or [])
            if not out[key] and not listed:  # none listed (not: all outside the allowlist)
                out[f"{key}_note"] = f"The hub listed no per-{wanted} statistics" + (
                    f" although {key} ran {out[f'{key}_total_ms']} ms: its {wanted} "
                    "stats collection may be off (Logs > Device/App stats on the hub)."
                    if out[f"{key}_total_ms"]
                    else "."
                )
        return out

    async def _apps(self) -> dict[str, InstalledApp]:
        """The installed apps by id (none when the list cannot be read)."""
        try:
            return {a.id: a for a in await self._apps_library.list()}
        except HubError:
            return {}

    async def jobs(self, limit: int, screen: DeviceScreen | None = None) -> dict[str, Any]:
        """Scheduled jobs, running jobs and pending hub commands from ``/logs/json`` (with
        ``screen``, devices outside the allowlist left out of them)."""
        data = await self._logs.stats()

        def clean(raw: Any) -> list[dict[str, Any]]:
            out = []
            for j in raw or []:
                if isinstance(j, dict):
                    out.append(
                        {
                            k: strip_tags(v) if isinstance(v, str) else v
                            for k, v in j.items()
                            if v is not None
                        }
                    )
            return out

        jobs = clean(data.get("jobs"))
        running = clean(data.get("runningJobs"))
        commands = clean(data.get("hubCommands"))
        out = {
            "scheduled": jobs[:limit],
            "scheduled_total": len(jobs),
            "running": running[:limit],
            "hub_commands": commands[:limit],
        }
        return screen.answer(out) if screen is not None else out


async def _empty() -> list[dict[str, Any]]:
    return []


async def _no_apps() -> dict[str, InstalledApp]:
    return {}
