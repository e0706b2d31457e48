"""Item backups: JSON snapshots of code, apps, rules and dashboards in the hub's File Manager.

One file per snapshot, named ``hdt-backup_<kind>-<id>_<yyyymmdd-HHMMSS>.json`` (the File
Manager accepts only ``[A-Za-z0-9._-]``). The file holds ``{"kind", "id", "name", "version",
"saved_at", "reason", ...payload}``. Before a series of edits the pre-edit original is kept:
a new edit backup is skipped while the newest backup of that item is under an hour old.
Snapshots beyond ``MAX_PER_ITEM`` per item are pruned (oldest first).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NotRequired, TypedDict

from ..errors import ToolError
from ..hub.client import HubClient
from ..hub.errors import HubNotFoundError
from ..hub.files import delete_file, list_files, read_text_file, valid_file_name, write_file
from ..redact import redact_document

PREFIX = "hdt-backup_"
MAX_PER_ITEM = 10
SERIES_WINDOW = timedelta(hours=1)
_NAME_RE = re.compile(r"^hdt-backup_([a-z]+)-(\d+)_(\d{8}-\d{6})(?:-\d+)?\.json$")


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
    return BackupRef(name, m.group(1), m.group(2), taken)


class ItemBackups:
    """Create, list, read and prune item backups in the File Manager."""

    def __init__(self, client: HubClient) -> None:
        self._client = client

    async def list(self, kind: str | None = None, item_id: str | None = None) -> list[BackupRef]:
        """Our backups, newest first, optionally for one kind / item."""
        refs = [r for f in await list_files(self._client) if (r := parse_backup_name(f.name))]
        refs = [
            r
            for r in refs
            if (kind is None or r.kind == kind) and (item_id is None or r.item_id == item_id)
        ]
        return sorted(refs, key=lambda r: (r.taken, r.file), reverse=True)

    async def read(self, file: str) -> dict[str, Any]:
        """Read and parse one backup file."""
        if parse_backup_name(file) is None or not valid_file_name(file):
            raise ToolError(
                f"'{file}' is not an item backup name (hdt-backup_<type>-<id>_<time>.json).",
                hint="List backups with hub_list_item_backups and pass the 'backup' value.",
            )
        try:
            text = await read_text_file(self._client, file)
        except HubNotFoundError as err:
            raise HubNotFoundError(
                f"No backup file {file} in the File Manager",
                hint="List backups with hub_list_item_backups.",
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
        """Store a snapshot; with ``series`` reuse a backup younger than an hour."""
        now = datetime.now(UTC)
        existing = await self.list(kind, item_id)
        if series and existing and now - existing[0].taken < SERIES_WINDOW:
            return {
                "backup": existing[0].file,
                "reused": True,
                "note": "Kept the pre-edit original from "
                f"{existing[0].taken.isoformat(timespec='seconds')} (edit series within an hour).",
            }
        stamp = now.strftime("%Y%m%d-%H%M%S")
        name = f"{PREFIX}{kind}-{item_id}_{stamp}.json"
        taken = {r.file for r in existing}
        n = 1
        while name in taken:
            n += 1
            name = f"{PREFIX}{kind}-{item_id}_{stamp}-{n}.json"
        doc = {
            "kind": kind,
            "id": item_id,
            "saved_at": now.isoformat(timespec="seconds"),
            "reason": reason,
            **redact_document(payload),  # File Manager files are readable on the LAN
        }
        await write_file(self._client, name, json.dumps(doc, indent=1).encode())
        pruned = []
        for old in existing[MAX_PER_ITEM - 1 :]:
            await delete_file(self._client, old.file)
            pruned.append(old.file)
        out: SavedBackup = {"backup": name, "reused": False}
        if pruned:
            out["pruned"] = pruned
        return out

    async def discard(self, file: str) -> None:
        """Delete one backup (used when an operation is rolled back before it changed
        anything)."""
        await delete_file(self._client, file)
