"""Health endpoints beyond identity: the plain-text numbers (free memory, temperature,
database size), memory history CSV, CPU load text, uptime parsing."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Any

from .client import HubClient
from .info import fetch_plain_number


@dataclass(slots=True)
class MemorySample:
    """One row of ``/hub/advanced/freeOSMemoryHistory``."""

    time: str
    free_os_kb: int | None
    cpu_avg_5m: float | None
    total_java_kb: int | None
    free_java_kb: int | None
    direct_java_kb: int | None

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data: every column the hub gives (a C-4 has no direct Java one:
        left out)."""
        out: dict[str, Any] = {
            "time": self.time,
            "free_os_kb": self.free_os_kb,
            "cpu_avg_5m": self.cpu_avg_5m,
            "total_java_kb": self.total_java_kb,
            "free_java_kb": self.free_java_kb,
        }
        if self.direct_java_kb is not None:
            out["direct_java_kb"] = self.direct_java_kb
        return out


def _num(text: str) -> float | None:
    try:
        return float(text.strip())
    except ValueError:
        return None


def _int(text: str) -> int | None:
    value = _num(text)
    return int(value) if value is not None else None


_HISTORY_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M")
_HISTORY_NO_YEAR = "%m-%d %H:%M:%S"


def history_time(text: str, tz: tzinfo | None, now: datetime | None = None) -> str:
    """A memory-history time (hub-local, with or without the year) as ISO 8601.

    With the hub's time zone the result carries its offset. A date without a year is in the
    last twelve months (the history covers the time since boot). Other text is kept.
    """
    stamp: datetime | None = None
    for fmt in _HISTORY_FORMATS:
        with contextlib.suppress(ValueError):
            stamp = datetime.strptime(text, fmt)
            break
    if stamp is None:
        try:
            # the year is given so that 02-29 parses; it is replaced below
            stamp = datetime.strptime(f"2000-{text}", f"%Y-{_HISTORY_NO_YEAR}")
        except ValueError:
            return text
        today = (now or datetime.now(tz)).replace(tzinfo=None)
        with contextlib.suppress(ValueError):
            stamp = stamp.replace(year=today.year)
            if stamp > today + timedelta(days=1):
                stamp = stamp.replace(year=today.year - 1)
    if tz is not None:
        stamp = stamp.replace(tzinfo=tz)
    return stamp.isoformat()


def parse_memory_history(text: str, tz: tzinfo | None = None) -> list[MemorySample]:
    """Parse the CSV (both date forms: ``2026-04-19 10:00`` and ``04-12 03:20:19``; the
    times are hub-local, given as ISO 8601 with the hub's offset when ``tz`` is known).
    Oldest first; the C-4's missing Direct Java column is tolerated."""
    out: list[MemorySample] = []
    for line in text.splitlines():
        cols = [c.strip() for c in line.split(",")]
        if len(cols) < 3 or not re.match(r"^\d", cols[0]):
            continue  # header or junk
        pad = [*cols, "", "", "", ""]
        out.append(
            MemorySample(
                time=history_time(cols[0], tz),
                free_os_kb=_int(pad[1]),
                cpu_avg_5m=_num(pad[2]),
                total_java_kb=_int(pad[3]),
                free_java_kb=_int(pad[4]),
                direct_java_kb=_int(pad[5]),
            )
        )
    return out


async def fetch_free_os_memory(client: HubClient) -> float | None:
    """Free OS memory in KB (plain text)."""
    return await fetch_plain_number(client, "/hub/advanced/freeOSMemory")


async def fetch_internal_temperature(client: HubClient) -> float | None:
    """The hub's internal temperature in °C (plain text)."""
    return await fetch_plain_number(client, "/hub/advanced/internalTempCelsius")


async def fetch_database_size(client: HubClient) -> float | None:
    """The database size as the hub reports it (plain text; MB on current firmware)."""
    return await fetch_plain_number(client, "/hub/advanced/databaseSize")


async def fetch_memory_history(client: HubClient) -> list[MemorySample]:
    """Free OS memory and CPU history (about one row per 5 minutes since boot)."""
    text = await client.get_text("/hub/advanced/freeOSMemoryHistory")
    return parse_memory_history(text, client.time_zone)


def parse_cpu_info(text: str) -> dict[str, Any]:
    """``Processors 4 Load Average 0.15`` -> {"processors": 4, "load_average": 0.15}."""
    out: dict[str, Any] = {}
    if m := re.search(r"Processors\s+(\d+)", text):
        out["processors"] = int(m.group(1))
    if m := re.search(r"Load Average\s+(-?\d+(?:\.\d+)?)", text):
        out["load_average"] = float(m.group(1))
    return out


async def fetch_cpu_info(client: HubClient) -> dict[str, Any]:
    """CPU count and load average (404 on a C-4)."""
    return parse_cpu_info(await client.get_text("/hub/cpuInfo"))


def parse_uptime(text: Any) -> int | None:
    """``5d 2h`` / ``1d 3h 20m 5s`` / seconds -> seconds."""
    if text is None:
        return None
    if isinstance(text, int | float):
        return int(text)
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    found = re.findall(r"(\d+)\s*([dhms])", str(text))
    if not found:
        return int(str(text)) if str(text).isdigit() else None
    return sum(int(n) * units[u] for n, u in found)
