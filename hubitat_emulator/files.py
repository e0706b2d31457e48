"""The File Manager's store (``/local/``): files and folders, and the seeded ones."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .clock import utcnow


@dataclass
class StoredFile:
    """One file (or folder) in the File Manager."""

    name: str
    data: bytes
    modified: datetime
    id: int
    folder: str = ""
    is_dir: bool = False


@dataclass
class FileStore:
    """The File Manager's files, keyed by (folder, name)."""

    files: dict[tuple[str, str], StoredFile] = field(default_factory=dict)
    bare_list: bool = False
    next_id: int = 1000

    def put(
        self, name: str, data: bytes | str, *, folder: str = "", when: datetime | None = None
    ) -> None:
        """Create or overwrite a file."""
        raw = data.encode() if isinstance(data, str) else bytes(data)
        self.next_id += 1
        old = self.files.get((folder, name))
        self.files[(folder, name)] = StoredFile(
            name, raw, when or utcnow(), old.id if old else self.next_id, folder
        )

    def write(self, name: str, data: bytes, folder: str = "") -> None:
        """Create or overwrite a file (same as ``put``)."""
        self.put(name, data, folder=folder)

    def mkdir(self, name: str) -> None:
        """Add a folder to the root."""
        self.next_id += 1
        self.files[("", name)] = StoredFile(name, b"", utcnow(), self.next_id, "", True)

    def get(self, name: str, folder: str = "") -> StoredFile | None:
        """The file (not a folder) with this name, or None."""
        found = self.files.get((folder, name))
        return found if found is not None and not found.is_dir else None

    def read(self, name: str, folder: str = "") -> bytes | None:
        """Return a file's bytes, or None."""
        found = self.get(name, folder)
        return found.data if found else None

    def names(self, folder: str = "") -> list[str]:
        """File names (no folders) in a folder, sorted."""
        return sorted(n for (f, n), sf in self.files.items() if f == folder and not sf.is_dir)

    def delete(self, name: str, folder: str = "") -> bool:
        """Delete a file; False when there is none."""
        if self.get(name, folder) is None:
            return False
        del self.files[(folder, name)]
        return True

    @property
    def used(self) -> int:
        """Bytes used by all files."""
        return sum(len(f.data) for f in self.files.values())


def seed_files() -> FileStore:
    """A few realistic files: JSON, text, CSV, a binary image, a folder with a file."""
    store = FileStore()
    now = utcnow()
    store.mkdir("firmware")
    store.put(
        "deviceProfiles.json",
        json.dumps({"profiles": [{"name": "Aeotec", "params": {"1": 0}}]}, indent=2),
        when=now - timedelta(days=40),
    )
    notes = "\n".join(f"line {i}: notes about the hub setup" for i in range(1, 401))
    store.put("notes.txt", notes + "\n", when=now - timedelta(days=3))
    store.put("energy-2026.csv", "date,kwh\n2026-01-01,12.5\n2026-01-02,11.9\n", when=now)
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
    store.put("logo.png", png, when=now - timedelta(days=100))
    store.put("fw-notes.txt", "zigbee firmware notes\n", folder="firmware")
    return store
