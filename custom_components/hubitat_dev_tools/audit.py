"""Audit trail of every write and every refused write, kept across restarts."""

from __future__ import annotations

import math
from collections import deque
from datetime import UTC, datetime
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store

from .const import AUDIT_MAX_ENTRIES, AUDIT_STORAGE_VERSION, DOMAIN

_SECRET_KEYS = ("password", "token", "secret", "cookie", "code", "pin")
_SAVE_DELAY = 5.0


_INT_LIMIT = 2**53  # beyond this, integers are stored as text (JSON/orjson safe)


def _storable(value: Any) -> Any:
    """Return a scalar that Home Assistant's JSON storage accepts."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if abs(value) < _INT_LIMIT else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    return repr(value)[:200]


def redact_args(args: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of tool arguments with secret-looking values hidden and long text cut."""
    out: dict[str, Any] = {}
    for raw_key, value in args.items():
        key = str(raw_key)
        if any(s in key.lower() for s in _SECRET_KEYS):
            out[key] = "**REDACTED**"
        elif isinstance(value, str) and len(value) > 200:
            out[key] = value[:200] + f"... ({len(value)} chars)"
        elif isinstance(value, dict):
            out[key] = redact_args(value)
        elif isinstance(value, list):
            out[key] = [redact_args(v) if isinstance(v, dict) else _storable(v) for v in value[:50]]
            if len(value) > 50:
                out[key].append(f"... ({len(value)} items)")
        else:
            out[key] = _storable(value)
    return out


class AuditTrail:
    """A bounded list of audit records stored in Home Assistant's storage."""

    def __init__(self, hass: HomeAssistant, max_entries: int = AUDIT_MAX_ENTRIES) -> None:
        self._store: Store[dict[str, Any]] = Store(hass, AUDIT_STORAGE_VERSION, f"{DOMAIN}.audit")
        self._records: deque[dict[str, Any]] = deque(maxlen=max_entries)

    async def async_load(self) -> None:
        """Load stored records."""
        data = await self._store.async_load()
        if data and isinstance(data.get("records"), list):
            self._records.extend(r for r in data["records"] if isinstance(r, dict))

    def record(
        self,
        *,
        user: str | None,
        user_id: str | None,
        tool: str,
        hub: str | None,
        args: dict[str, Any],
        outcome: str,
        detail: str | None = None,
        gateway: str | None = None,
    ) -> None:
        """Append one record and schedule a save.

        ``tool`` is always the tool that ran (or was refused); ``gateway`` the gateway it
        was called through, if any.
        """
        self._records.append(
            {
                "time": datetime.now(UTC).isoformat(timespec="seconds"),
                "user": user,
                "user_id": user_id,
                "tool": tool,
                "gateway": gateway,
                "hub": hub,
                "args": redact_args(args),
                "outcome": outcome,
                "detail": detail,
            }
        )
        self._store.async_delay_save(self._data, _SAVE_DELAY)

    def _data(self) -> dict[str, Any]:
        return {"records": list(self._records)}

    def recent(self, limit: int | None = 50) -> list[dict[str, Any]]:
        """Return the newest records first (all of them with ``limit=None``)."""
        newest_first = list(reversed(self._records))
        return newest_first if limit is None else newest_first[:limit]

    def __len__(self) -> int:
        """Return how many records are kept."""
        return len(self._records)

    async def async_flush(self) -> None:
        """Write pending records now."""
        await self._store.async_save(self._data())
