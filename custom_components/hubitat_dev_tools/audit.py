"""Audit trail of every write and every refused write, kept across restarts.

One record per call: a write is recorded (``begin``, outcome ``started``) before its first
hub request and the SAME record gets its outcome (``finish``: ok, failed, refused,
interrupted) after; a refusal before any hub request is one ``record``. A record still
``started`` when Home Assistant stopped is loaded back as ``interrupted``.

Bounded whatever the callers send: arguments are redacted (:mod:`.redact`, plus the lock
code of ``setCode`` commands), every string (dict keys too) is cut at every depth, lists and
dicts are cut, one record has a byte cap and the whole trail a total byte cap. Saves are
debounced (``Store.async_delay_save``) and flushed on unload. Refused calls from non-admin or
unknown callers are only counted (``stats``): a caller without rights cannot push real
records out.

A refused call of an administrator (outcome ``refused``, whether refused before the record
was begun or after) cannot flush the trail either: it is kept compact (time, user, tool,
gateway, hub, ``code``, a short detail and a capped digest of the arguments, never their
full text), and a repeat of the same (user, tool, gateway, hub, code) within
``REFUSAL_WINDOW`` only raises the first record's ``count`` (and ``last_time``). Eviction
(over ``max_entries`` records or ``max_bytes``) drops refusals first, oldest first; a
write's record (ok, failed, interrupted, started) goes only when no refusal is left, oldest
first, and a confirmed write's record (an unlock, a delete) only when no other is left.
Every record, and every outcome, is also one line in Home Assistant's log (INFO, redacted,
capped), so the trail survives as far as the log does.

A call with ``validate_only=true`` (a rule checked and planned, nothing sent) is a check,
not a change: its record is marked ``check: true`` and goes first with the refusals when
the trail is full (readers of changes, such as ``hub_list_changes``, leave it out).
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import re
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store

from .const import AUDIT_MAX_ENTRIES, AUDIT_STORAGE_VERSION, DOMAIN
from .redact import redact_arguments, redact_text

_LOGGER = logging.getLogger(__name__)
# Home Assistant's root logger is at WARNING unless configured: the audit lines are INFO and
# would vanish. The trail's own logger says INFO unless the owner's `logger:` config sets it.
if _LOGGER.level == logging.NOTSET:
    _LOGGER.setLevel(logging.INFO)

OUTCOME_STARTED = "started"
OUTCOME_INTERRUPTED = "interrupted"
OUTCOME_REFUSED = "refused"
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
REFUSAL_WINDOW = 3600.0  # seconds: repeats of one refusal within it raise a count
DIGEST_BYTES = 300  # the arguments of a refusal: a digest this small
DIGEST_STRING = 40  # characters of a digest's values (and keys) kept
REFUSAL_DETAIL = 200
LOG_LINE = 2_000  # characters of one audit line in Home Assistant's log
_CODE_RE = re.compile(r"[a-z][a-z0-9_]{0,59}")

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


# Arguments that carry a whole file's bytes: stored as their size only (a backup's start
# says nothing an owner needs, and it is the hub's database).
_FILE_CONTENT_KEYS = frozenset({"content_base64"})


def _sized_contents(args: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (
            f"({len(v)} characters, not kept)"
            if k in _FILE_CONTENT_KEYS and isinstance(v, str)
            else v
        )
        for k, v in args.items()
    }


def _redacted(args: dict[str, Any]) -> dict[str, Any]:
    """``redact_arguments`` of the arguments; arguments nested too deeply to walk are not
    kept (their names are), so the call is still recorded."""
    try:
        return redact_arguments(_sized_contents(args))
    except RecursionError:
        return dict.fromkeys(args, "(nested too deeply to record)")


def redact_args(args: dict[str, Any]) -> dict[str, Any]:
    """Tool arguments as stored: secrets redacted, everything bounded (<= MAX_RECORD_BYTES)."""
    safe = bound(_redacted(args))
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


def digest_args(args: dict[str, Any]) -> dict[str, Any]:
    """A refusal's arguments: redacted, top-level names with short values, at most
    ``DIGEST_BYTES`` (what was asked, not what was sent)."""
    safe = _redacted(args)
    out: dict[str, Any] = {}
    for i, (key, value) in enumerate(safe.items()):
        if i >= 8:
            out["..."] = f"{len(safe)} arguments"
            break
        if isinstance(value, dict):
            short: Any = f"{{{len(value)} keys}}"
        elif isinstance(value, list | tuple):
            short = f"[{len(value)} items]"
        elif isinstance(value, str):
            short = _cut(value, DIGEST_STRING)
        else:
            short = _scalar(value)
            if isinstance(short, str):
                short = _cut(short, DIGEST_STRING)
        out[_cut(str(key), DIGEST_STRING)] = short
        if _size(out) > DIGEST_BYTES:
            del out[_cut(str(key), DIGEST_STRING)]
            out["..."] = f"{len(safe)} arguments"
            break
    return out


def _code(detail: str | None) -> str | None:
    """The error code a refusal's detail starts with (``"tool_disabled: ..."``)."""
    head = (detail or "").split(":", 1)[0].strip()
    return head if _CODE_RE.fullmatch(head) else None


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
        self._repeats = 0  # refusals folded into an earlier record's count
        # (user, tool, gateway, hub, code) -> the open refusal record, when it was opened
        self._open: dict[tuple[Any, ...], tuple[dict[str, Any], float]] = {}

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
            elif rec.get("outcome") == OUTCOME_REFUSED and "count" not in rec:
                self._compact(rec)  # stored by an older version in full
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
        self._evict()

    def _evict(self) -> None:
        """Over a bound: refusals go first (oldest first), a write's record only then."""
        while len(self._records) > 1 and (
            self._bytes > self._max_bytes or len(self._records) > self._max_entries
        ):
            lowest = min(_keep_rank(r) for r in self._records)
            index = next(i for i, r in enumerate(self._records) if _keep_rank(r) == lowest)
            self._remove(index)
            self._evicted += 1

    def _remove(self, index: int) -> None:
        old = self._records[index]
        del self._records[index]
        self._bytes -= self._sizes.pop(old["id"], 0)

    def _compact(self, rec: dict[str, Any]) -> None:
        """A refusal as kept: a code, a short detail, an argument digest and a count."""
        args = rec.get("args")
        rec["args"] = digest_args(args) if isinstance(args, dict) else {}
        detail = rec.get("detail")
        rec["code"] = _code(detail if isinstance(detail, str) else None)
        if isinstance(detail, str):
            rec["detail"] = _cut(detail, REFUSAL_DETAIL)
        rec.setdefault("count", 1)

    def _refused(self, rec: dict[str, Any], *, kept: bool) -> dict[str, Any]:
        """Compact a refusal; fold it into an open record of the same refusal (then it is
        dropped from the trail, if ``kept`` there). The record that holds it."""
        self._compact(rec)
        key = (rec["user_id"], rec["tool"], rec["gateway"], rec["hub"], rec["code"])
        now = time.monotonic()
        found = self._open.get(key)
        if found is not None and now - found[1] < REFUSAL_WINDOW and found[0]["id"] in self._sizes:
            into = found[0]
            into["count"] = int(into.get("count") or 1) + 1
            into["last_time"] = rec["time"] if "ended" not in rec else rec["ended"]
            self._repeats += 1
            if kept:
                index = next((i for i, r in enumerate(self._records) if r is rec), None)
                if index is not None:
                    self._remove(index)
            self._resize(into)
            return into
        self._open[key] = (rec, now)
        if kept:
            self._resize(rec)
        else:
            self._append(rec)
        return rec

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
        if outcome == OUTCOME_REFUSED:  # refused by a check after the record was begun
            _log(self._refused(rec, kept=True), record_id)
        else:
            self._resize(rec)
            _log(rec, record_id)
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
        if is_check(args):
            rec["check"] = True
        if outcome == OUTCOME_REFUSED:
            kept = self._refused(rec, kept=False)
            _log(kept, record_id)
            self._save()
            return str(kept["id"])
        if outcome == OUTCOME_STARTED:
            self._pending[record_id] = rec
        self._append(rec)
        _log(rec, record_id)
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
            "refusals": sum(1 for r in self._records if r.get("outcome") == OUTCOME_REFUSED),
            "refused_repeats": self._repeats,
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


def _log(rec: dict[str, Any], call_id: str) -> None:
    """One line in Home Assistant's log per record and per outcome (redacted, capped).

    ``call_id`` is the call's own record id (a refusal folded into an earlier record logs
    that record's id and count too).
    """
    line: dict[str, Any] = {"id": call_id}
    if rec["id"] != call_id:
        line["record"] = rec["id"]
    for key in (
        "user",
        "tool",
        "gateway",
        "hub",
        "outcome",
        "check",
        "code",
        "count",
        "detail",
        "args",
    ):
        if rec.get(key) not in (None, {}):
            line[key] = rec[key]
    if isinstance(line.get("detail"), str):
        line["detail"] = redact_text(line["detail"])
    text = json.dumps(line, ensure_ascii=True, default=str)  # one line: newlines escaped
    _LOGGER.info("Audit: %s", _cut(text, LOG_LINE))


def is_check(args: Any) -> bool:
    """A call that only checks (``validate_only=true``): it changes nothing."""
    return isinstance(args, dict) and args.get("validate_only") is True


def _keep_rank(rec: dict[str, Any]) -> int:
    """Which records an over-full trail keeps longest: refusals and checks go first, then
    writes, and confirmed writes (an unlock, a delete) last, so a flood of cheap writes
    cannot push the record of a sensitive one out."""
    if rec.get("outcome") == OUTCOME_REFUSED or rec.get("check") is True:
        return 0
    args = rec.get("args")
    return 2 if isinstance(args, dict) and args.get("confirm") is True else 1
