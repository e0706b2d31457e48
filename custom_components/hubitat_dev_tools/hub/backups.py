"""Hub database backup endpoints."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from .client import HubClient


@dataclass(slots=True)
class Backup:
    """One local backup file."""

    name: str
    created: datetime | None
    size: int | None


def parse_hub_time(text: str | None) -> datetime | None:
    """Parse hub timestamps: ISO with +0000 offsets, or naive UTC."""
    if not text:
        return None
    value = str(text).strip().replace("Z", "+00:00")
    if len(value) > 5 and value[-5] in "+-" and value[-4:].isdigit():
        value = f"{value[:-2]}:{value[-2:]}"  # +0000 -> +00:00
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


async def fetch_local_backups(client: HubClient) -> list[Backup]:
    """Local backups, newest first."""
    data = await client.get_json("/hub2/localBackups")
    out: list[Backup] = []
    if isinstance(data, list):
        for item in data:
            if isinstance(item, dict) and item.get("name"):
                size = item.get("size")
                out.append(
                    Backup(
                        name=str(item["name"]),
                        created=parse_hub_time(
                            item.get("createTimeOrig") or item.get("createTime")
                        ),
                        size=int(size) if isinstance(size, int | float) else None,
                    )
                )
    out.sort(key=lambda b: b.created or datetime.min.replace(tzinfo=UTC), reverse=True)
    return out
