"""Item backups: JSON snapshots of code, apps, rules and dashboards in the hub's File Manager.

One file per snapshot, named ``hdt-backup_<kind>-<id>_<yyyymmdd-HHMMSS>-<mmm>-<nn>.json``
(UTC milliseconds plus a counter, so two snapshots in one second never share a name; the
older ``..._<yyyymmdd-HHMMSS>[-<n>].json`` names are still read). The File Manager accepts only
``[A-Za-z0-9._-]``. The file holds ``{"kind", "id", "name", "version", "saved_at", "reason",
...payload}``.

Edit series: before a series of edits the pre-edit original is kept, and a new edit backup is
skipped while the newest backup of that item is the series' own, under an hour old, AND the
item still is exactly as this tool's last edit left it (the caller reports that state with
:meth:`ItemBackups.edited`). Anything else (a manual edit in between, a restore, a restart of
the integration, a caller that reports nothing) writes a new backup.

Snapshots beyond ``MAX_PER_ITEM`` per item are pruned oldest first, except the item's oldest
snapshot (its original before the first edit), which is always kept.

Only what this integration wrote counts: names are not proof (anyone on the LAN, or
a file write, can put a file named like a backup into the File Manager), so every
snapshot written here is recorded in :class:`OwnedBackups`, one per hub, kept in Home
Assistant's storage by the glue (not on the hub, where a forged record would be as easy as
a forged file). Pruning, the "oldest copy" and the edit series look only at recorded files;
a file we did not record is never deleted and never counted. A recorded name whose file is
gone is forgotten; a snapshot written just before Home Assistant stopped but not yet
recorded is simply never pruned (the safe side).
"""

from __future__ import annotations

import asyncio
import json
import re
import weakref
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NotRequired, TypedDict

from ..errors import ToolError
from ..hub.client import HubClient
from ..hub.controllers import FilesController
from ..hub.errors import HubNotFoundError
from ..hub.files import valid_file_name
from ..redact import redact_document
from .files import unique_name

PREFIX = "hdt-backup_"
MAX_PER_ITEM = 10
SERIES_WINDOW = timedelta(hours=1)
_NAME_RE = re.compile(
    r"^hdt-backup_([a-z]+)-(\d+)_(\d{8}-\d{6})(?:-(\d{3})-(\d{2})|-(\d+))?\.json$"
)


class SavedBackup(TypedDict):
    """What :meth:`ItemBackups.save` answers (it goes into tool answers as ``item_backup``)."""

    backup: str
    reused: bool
    note: NotRequired[str]  # reused: which pre-edit original was kept
    pruned: NotRequired[list[str]]  # new: the old snapshots deleted to keep MAX_PER_ITEM


@dataclass(slots=True)
class BackupRef:
    """One item backup file in the File Manager."""

    file: str
    kind: str
    item_id: str
    taken: datetime
    counter: int = 0

    def as_dict(self) -> dict[str, Any]:
        """Return JSON-safe data."""
        return {
            "backup": self.file,
            "type": self.kind,
            "id": self.item_id,
            "taken": self.taken.isoformat(timespec="seconds"),
        }


def parse_backup_name(name: str) -> BackupRef | None:
    """Return the reference for one of our backup files, or None for any other file."""
    m = _NAME_RE.fullmatch(name)
    if m is None:
        return None
    taken = datetime.strptime(m.group(3), "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    millis, counter, old_counter = m.group(4, 5, 6)
    if millis is not None:
        taken += timedelta(milliseconds=int(millis))
    return BackupRef(name, m.group(1), m.group(2), taken, int(counter or old_counter or 0))


StoreNames = Callable[[list[str]], Awaitable[None]]


class OwnedBackups:
    """The item backup files this integration wrote on one hub and has not deleted.

    One per hub client, shared by every :class:`ItemBackups` of it (several managers keep
    their own), together with the lock that orders snapshots. Memory only until the glue
    hands it the stored names and a function that stores every change (:meth:`persist`).
    """

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self._names: set[str] = set()
        self._store: StoreNames | None = None

    def persist(self, stored: Iterable[object], store: StoreNames) -> None:
        """Start from the names stored before (Home Assistant or the hub restarted) and
        store every change with ``store`` (awaited)."""
        self._names.update(n for n in stored if isinstance(n, str) and parse_backup_name(n))
        self._store = store

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def names(self) -> frozenset[str]:
        """Every recorded name."""
        return frozenset(self._names)

    async def add(self, name: str) -> None:
        """Record a snapshot this integration just wrote."""
        self._names.add(name)
        await self._save()

    async def drop(self, names: Iterable[str]) -> None:
        """Forget files that were deleted (by us, or by anyone: see :meth:`ItemBackups.save`)."""
        gone = self._names.intersection(names)
        if gone:
            self._names -= gone
            await self._save()

    async def _save(self) -> None:
        if self._store is not None:
            await self._store(sorted(self._names))


_OWNED: weakref.WeakKeyDictionary[HubClient, OwnedBackups] = weakref.WeakKeyDictionary()


def owned_backups(client: HubClient) -> OwnedBackups:
    """The record of the snapshots written on ``client``'s hub (one per client)."""
    owned = _OWNED.get(client)
    if owned is None:
        owned = _OWNED[client] = OwnedBackups()
    return owned


def _holds(current: Any, expected: Any) -> bool:
    """True when ``current`` has every value of ``expected`` (dicts compared key by key)."""
    if isinstance(expected, dict):
        return isinstance(current, dict) and all(
            k in current and _holds(current[k], v) for k, v in expected.items()
        )
    return bool(current == expected)


class ItemBackups:
    """Create, list, read and prune item backups in the File Manager."""

    def __init__(self, files: FilesController) -> None:
        self._files = files
        # shared by every ItemBackups of this hub (keyed by the controller's client): what we
        # wrote, and one snapshot at a time (names and pruning never race)
        self._owned = owned_backups(files.client)
        self._newest: dict[tuple[str, str], str] = {}  # item -> the snapshot we wrote last
        # item -> (series snapshot, the state our last edit left the item in)
        self._series: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}

    async def list(self, kind: str | None = None, item_id: str | None = None) -> list[BackupRef]:
        """Our backups, newest first, optionally for one kind / item."""
        refs = [r for f in await self._files.list() if (r := parse_backup_name(f.name))]
        refs = [
            r
            for r in refs
            if (kind is None or r.kind == kind) and (item_id is None or r.item_id == item_id)
        ]
        return sorted(refs, key=lambda r: (r.taken, r.counter, r.file), reverse=True)

    def ours(self, file: str) -> bool:
        """Whether this integration wrote this backup file (and recorded it)."""
        return file in self._owned

    async def read(self, file: str) -> dict[str, Any]:
        """Read and parse one backup file."""
        if parse_backup_name(file) is None or not valid_file_name(file):
            raise ToolError(
                f"'{file}' is not an item backup name (hdt-backup_<type>-<id>_<time>.json).",
                subject="item_backup_name",
            )
        try:
            text = await self._files.read_text(file)
        except HubNotFoundError as err:
            raise HubNotFoundError(
                f"No backup file {file} in the File Manager",
                subject="item_backup",
            ) from err
        try:
            data = json.loads(text)
        except ValueError as err:
            raise ToolError(f"Backup {file} is not valid JSON; it cannot be used.") from err
        if not isinstance(data, dict):
            raise ToolError(f"Backup {file} does not hold an item snapshot.")
        redacted: dict[str, Any] = redact_document(data)  # backups written before redaction
        return redacted

    async def save(
        self,
        kind: str,
        item_id: str,
        payload: dict[str, Any],
        *,
        reason: str,
        series: bool = False,
    ) -> SavedBackup:
        """Store a snapshot; with ``series`` reuse the series' backup (see the module doc)."""
        async with self._owned.lock:
            return await self._save(kind, item_id, payload, reason=reason, series=series)

    def edited(self, kind: str, item_id: str, state: dict[str, Any]) -> None:
        """Report the state a series edit left the item in (a part of the snapshot payload,
        e.g. ``{"source": ..., "version": ...}``): the next series edit reuses the backup only
        while the item still holds exactly that."""
        key = (kind, item_id)
        if key in self._newest:
            self._series[key] = (self._newest[key], state)

    async def _save(
        self, kind: str, item_id: str, payload: dict[str, Any], *, reason: str, series: bool
    ) -> SavedBackup:
        now = datetime.now(UTC)
        key = (kind, item_id)
        listed = await self.list()
        # forget what is gone (deleted by hand, or by anyone), then look at ours only
        await self._owned.drop(self._owned.names() - {r.file for r in listed})
        taken = {r.file for r in listed if r.kind == kind and r.item_id == item_id}
        existing = [r for r in listed if r.file in taken and r.file in self._owned]
        tail = self._series.pop(key, None)
        newest = existing[0] if existing else None
        changed = False  # the series is young, but the item is not as our last edit left it
        young = newest is not None and now - newest.taken < SERIES_WINDOW
        if series and tail and newest and young and tail[0] == newest.file:
            if _holds(payload, tail[1]):
                self._series[key] = tail
                return {
                    "backup": newest.file,
                    "reused": True,
                    "note": "Kept the pre-edit original from "
                    f"{newest.taken.isoformat(timespec='seconds')} (edit series within an hour).",
                }
            changed = True
        # a new name clear of every file named like a backup of the item, forged ones too
        name = unique_name(lambda stamp: f"{PREFIX}{kind}-{item_id}_{stamp}.json", taken, now)
        doc = {
            "kind": kind,
            "id": item_id,
            "saved_at": now.isoformat(timespec="seconds"),
            "reason": reason,
            **redact_document(payload),  # File Manager files are readable on the LAN
        }
        await self._files.write(name, json.dumps(doc, indent=1).encode())
        await self._owned.add(name)
        self._newest[key] = name
        pruned = []
        # keep the new one, the newest MAX_PER_ITEM - 2 before it and the oldest (the
        # original): of OUR snapshots only; a file we did not write is not ours to delete
        for old in existing[MAX_PER_ITEM - 2 : -1] if len(existing) >= MAX_PER_ITEM else []:
            await self._files.delete(old.file)
            await self._owned.drop([old.file])
            pruned.append(old.file)
        out: SavedBackup = {"backup": name, "reused": False}
        if changed:
            out["note"] = (
                f"{kind} {item_id} changed since the last edit by this tool (edited by hand?); "
                "that state was backed up too."
            )
        if pruned:
            out["pruned"] = pruned
        return out

    async def discard(self, file: str) -> None:
        """Delete one backup (used when an operation is rolled back before it changed
        anything)."""
        await self._files.delete(file)
        await self._owned.drop([file])
