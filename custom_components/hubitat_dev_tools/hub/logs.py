"""Logs, events, performance and jobs endpoints (``/logs/*``, ``/hub/eventsJson``)."""

from __future__ import annotations

import html
import re
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any
from urllib.parse import quote

from .client import HubClient
from .errors import HubNotFoundError
from .models import dict_list

# "<yyyy-MM-dd HH:mm:ss.SSS>\t<LEVEL>\t<type>|<id>|<name>|<msg>" (naive UTC, hub UI parser)
_LINE_RE = re.compile(
    r"^(?P<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,3})?)\t(?P<level>[A-Za-z]+)\t"
    r"(?P<rest>.*)$",
    re.DOTALL,
)
_TAG_RE = re.compile(r"<br\s*/?>|<[^>]+>", re.IGNORECASE)
LEVELS = ("trace", "debug", "info", "warn", "error")


def strip_tags(text: str) -> str:
    """Remove HTML tags (``<br>`` becomes a newline) and unescape entities."""
    out = _TAG_RE.sub(lambda m: "\n" if m.group(0).lower().startswith("<br") else "", text)
    return html.unescape(out).strip()


@dataclass(slots=True)
class LogLine:
    """One parsed hub log entry (continuation lines joined)."""

    time: datetime | None
    level: str
    source_type: str
    source_id: str
    name: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data (the fields in order, the time as ISO text)."""
        when = self.time.isoformat(timespec="milliseconds") if self.time else None
        return asdict(self) | {"time": when}


# The hub's log time: ``yyyy-MM-dd HH:mm:ss[.SSS]`` (past logs: UTC; /logsocket: hub-local).
LOG_TIME_FORMATS = ("%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S")


def parse_log_time(text: str, tz: tzinfo | None) -> datetime | None:
    """A hub log time in zone ``tz`` (None: naive), or None when it is in no known form."""
    for fmt in LOG_TIME_FORMATS:
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=tz)
        except ValueError:
            continue
    return None


def _parse_time(text: str) -> datetime | None:
    return parse_log_time(text, UTC)


def _parse_legacy(line: str) -> LogLine | None:
    """kingpanther13's fixture order: ``name\\tlevel\\tmessage\\ttime\\ttype``."""
    parts = line.split("\t")
    if len(parts) < 5 or parts[1].lower() not in LEVELS:
        return None
    return LogLine(
        time=_parse_time(parts[3]),
        level=parts[1].lower(),
        source_type=parts[4],
        source_id="",
        name=strip_tags(parts[0]),
        message=strip_tags("\t".join(parts[2:3])),
    )


def parse_log_lines(lines: Any) -> list[LogLine]:
    """Parse ``/logs/past/json`` (oldest first); lines without a timestamp continue the
    previous entry. Returns oldest first."""
    out: list[LogLine] = []
    if not isinstance(lines, list):
        return out
    for raw in lines:
        line = str(raw)
        match = _LINE_RE.match(line)
        if match is None:
            legacy = _parse_legacy(line)
            if legacy is not None:
                out.append(legacy)
            elif out:
                extra = strip_tags(line)
                if extra:
                    out[-1].message = f"{out[-1].message}\n{extra}"
            continue
        rest = match.group("rest")
        fields = rest.split("|", 3)
        if len(fields) == 4:
            stype, sid, name, msg = fields
        else:
            stype, sid, name, msg = "", "", "", rest
        out.append(
            LogLine(
                time=_parse_time(match.group("time")),
                level=match.group("level").lower(),
                source_type=stype,
                source_id=sid,
                name=strip_tags(name),
                message=strip_tags(msg),
            )
        )
    return out


async def fetch_past_logs(
    client: HubClient, source_type: str | None = None, source_id: str | None = None
) -> list[LogLine]:
    """Past logs, oldest first; scoped server-side to one device or app when both given."""
    params = None
    if source_type and source_id:
        params = {"type": source_type, "id": source_id}
    return parse_log_lines(await client.get_json("/logs/past/json", params=params))


async def fetch_stats(client: HubClient) -> dict[str, Any]:
    """``/logs/json``: uptime, device/app runtime statistics, scheduled and running jobs."""
    data = await client.get_json("/logs/json")
    return data if isinstance(data, dict) else {}


async def fetch_hub_events(client: HubClient) -> list[dict[str, Any]]:
    """``/hub/eventsJson``: hub events (system start, ...), newest first."""
    data = await client.get_json("/hub/eventsJson")
    return dict_list(data)


async def fetch_location_events(client: HubClient) -> list[dict[str, Any]]:
    """``/logs/eventsJson``: location events (mode, HSM, hub variables), newest first."""
    data = await client.get_json("/logs/eventsJson")
    return dict_list(data)


async def fetch_app_events(client: HubClient, app_id: str) -> list[dict[str, Any]]:
    """``/installedapp/eventsJson/<id>``: one app's event history, newest first, as the
    hub UI's app events page reads it (``[{name, value, descriptionText, date, ...}]``)."""
    try:
        data = await client.get_json(f"/installedapp/eventsJson/{quote(app_id, safe='')}")
    except HubNotFoundError as err:
        raise HubNotFoundError(f"No app with id {app_id} on the hub", subject="app") from err
    return dict_list(data)
