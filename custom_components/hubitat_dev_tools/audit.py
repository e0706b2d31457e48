"""Audit trail of every write and every refused write, kept across restarts.

One record per call: a write is recorded (``begin``, outcome ``started``) before its first
hub request and the SAME record gets its outcome (``finish``: ok, failed, refused,
interrupted) after; a refusal before any hub request is one ``record``. A record still
``started`` when Home Assistant stopped is loaded back as ``interrupted``.

Bounded whatever the callers send: arguments are redacted (:mod:`.redact`, plus the lock
code of ``setCode`` commands), every string (dict keys too) is cut at every depth, lists and
dicts are cut, one record has a byte cap and the whole trail a total byte cap with the oldest
records evicted first. Saves are debounced (``Store.async_delay_save``) and flushed on
unload. Refused calls from non-admin or unknown callers are only counted (``stats``): a
caller without rights cannot push real records out.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store

from .const import AUDIT_MAX_ENTRIES, AUDIT_STORAGE_VERSION, DOMAIN
from .redact import redact_arguments

OUTCOME_STARTED = "started"
OUTCOME_INTERRUPTED = "interrupted"
OUTCOMES = ("ok", "refused", "failed", OUTCOME_INTERRUPTED, OUTCOME_STARTED)

SAVE_DELAY = 5.0
MAX_STRING = 200  # characters of any string value kept
MAX_KEY = 60  # characters of any dict key kept
MAX_ITEMS = 50  # list items / dict keys kept per level
MAX_DEPTH = 6
MAX_DETAIL = 500
MAX_RECORD_BYTES = 8_000  # the arguments of one record, once bounded
MAX_TOTAL_BYTES = 1_500_000  # every record together
_INT_LIMIT = 2**53  # beyond this, integers are stored as text (JSON/orjson safe)

# Device commands whose positional arguments hold a lock code: (command, argument index).


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


def _scalar(value: Any) -> Any:
    """A scalar that Home Assistant's JSON storage accepts."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return _cut(value, MAX_STRING)
    if isinstance(value, int):
        return value if abs(value) < _INT_LIMIT else _cut(str(value), MAX_STRING)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    return _cut(repr(value), MAX_STRING)


def bound(value: Any, depth: int = 0) -> Any:
    """``value`` with every string (keys too) cut, lists/dicts cut and depth capped."""
    if isinstance(value, dict):
        if depth >= MAX_DEPTH:
            return f"... ({len(value)} keys)"
        out: dict[str, Any] = {}
        for i, (k, v) in enumerate(value.items()):
            if i >= MAX_ITEMS:
                out["..."] = f"{len(value)} keys"
                break
            out[_cut(str(k), MAX_KEY)] = bound(v, depth + 1)
        return out
    if isinstance(value, list | tuple):
        if depth >= MAX_DEPTH:
            return f"... ({len(value)} items)"
        items = [bound(v, depth + 1) for v in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            items.append(f"... ({len(value)} items)")
        return items
    return _scalar(value)


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str).encode())


def redact_args(args: dict[str, Any]) -> dict[str, Any]:
    """Tool arguments as stored: secrets redacted, everything bounded (<= MAX_RECORD_BYTES)."""
    safe = bound(redact_arguments(args))
    if not isinstance(safe, dict):
        return {}
    size = _size(safe)
    if size <= MAX_RECORD_BYTES:
        return safe
    # Too large even when cut: keep the top-level scalars, summarise the rest.
    out: dict[str, Any] = {}
    for key, value in safe.items():
        small = value if not isinstance(value, dict | list) else f"... ({_size(value)} bytes)"
        out[key] = small
        if _size(out) > MAX_RECORD_BYTES:
            out[key] = "..."
            out["..."] = f"arguments of {size} bytes, not kept"
            break
    return out


class AuditTrail:
    """A bounded list of audit records stored in Home Assistant's storage."""

    def __init__(
        self,
        hass: HomeAssistant,
        max_entries: int = AUDIT_MAX_ENTRIES,
        max_bytes: int = MAX_TOTAL_BYTES,
    ) -> None:
        self._store: Store[dict[str, Any]] = Store(hass, AUDIT_STORAGE_VERSION, f"{DOMAIN}.audit")
        self._records: deque[dict[str, Any]] = deque()
        self._sizes: dict[str, int] = {}
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._bytes = 0
        self._ids = itertools.count(1)
        # decimal, not hex: a hex run id could hold a PIN-like run such as "a4821f"
        self._run = str(int(time.time() * 1000))
        self._pending: dict[str, dict[str, Any]] = {}
        self._unauthorized = 0
        self._evicted = 0

    async def async_load(self) -> None:
        """Load stored records (a call that never finished becomes ``interrupted``)."""
        data = await self._store.async_load()
        if not data or not isinstance(data.get("records"), list):
            return
        for raw in data["records"]:
            if not isinstance(raw, dict):
                continue
            rec = dict(raw)
            rec.setdefault("id", self._new_id())
            if rec.get("outcome") == OUTCOME_STARTED:
                rec["outcome"] = OUTCOME_INTERRUPTED
                rec["detail"] = "Home Assistant stopped before the call finished."
            self._append(rec)
        if isinstance(count := data.get("unauthorized_refused"), int):
            self._unauthorized = count

    def _new_id(self) -> str:
        return f"{self._run}-{next(self._ids)}"

    def _append(self, rec: dict[str, Any]) -> None:
        size = _size(rec)
        self._records.append(rec)
        self._sizes[rec["id"]] = size
        self._bytes += size
        while len(self._records) > 1 and (
            self._bytes > self._max_bytes or len(self._records) > self._max_entries
        ):
            old = self._records.popleft()
            self._bytes -= self._sizes.pop(old["id"], 0)
            self._evicted += 1

    def _resize(self, rec: dict[str, Any]) -> None:
        if rec["id"] in self._sizes:
            new = _size(rec)
            self._bytes += new - self._sizes[rec["id"]]
            self._sizes[rec["id"]] = new
        else:  # evicted while running: the outcome is still recorded, once
            self._append(rec)

    def _save(self) -> None:
        self._store.async_delay_save(self._data, SAVE_DELAY)

    def begin(self, **fields: Any) -> str:
        """Record a call's intent (outcome ``started``) before its first hub request; its id.

        Takes :meth:`record`'s fields except ``outcome`` and ``detail``.
        """
        return self.record(outcome=OUTCOME_STARTED, **fields)

    def finish(self, record_id: str, outcome: str, detail: str | None = None) -> None:
        """Give a started record its outcome (once; later calls for the id are ignored)."""
        rec = self._pending.pop(record_id, None)
        if rec is None:
            return
        rec["outcome"] = outcome
        rec["detail"] = _cut(detail, MAX_DETAIL) if detail is not None else None
        rec["ended"] = datetime.now(UTC).isoformat(timespec="seconds")
        self._resize(rec)
        self._save()

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
    ) -> str:
        """Append one record (synchronously: nothing to cancel); its id.

        Outcome ``started`` opens it for :meth:`finish`; any other outcome is final (a
        refusal before any hub request). ``tool`` is always the tool that ran (or was
        refused); ``gateway`` the gateway it was called through, if any.
        """
        record_id = self._new_id()
        rec = {
            "id": record_id,
            "time": datetime.now(UTC).isoformat(timespec="seconds"),
            "user": _scalar(user),
            "user_id": _scalar(user_id),
            "tool": _scalar(tool),
            "gateway": _scalar(gateway),
            "hub": _scalar(hub),
            "args": redact_args(args),
            "outcome": outcome,
            "detail": _cut(detail, MAX_DETAIL) if detail is not None else None,
        }
        if outcome == OUTCOME_STARTED:
            self._pending[record_id] = rec
        self._append(rec)
        self._save()
        return record_id

    def count_unauthorized(self) -> None:
        """Count a refused call of a non-admin or unknown caller (not stored as a record)."""
        self._unauthorized += 1
        self._save()

    def stats(self) -> dict[str, Any]:
        """Sizes and counters, for diagnostics."""
        return {
            "records": len(self._records),
            "bytes": self._bytes,
            "max_bytes": self._max_bytes,
            "max_records": self._max_entries,
            "evicted": self._evicted,
            "running": len(self._pending),
            "unauthorized_refused": self._unauthorized,
        }

    def _data(self) -> dict[str, Any]:
        return {"records": list(self._records), "unauthorized_refused": self._unauthorized}

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
