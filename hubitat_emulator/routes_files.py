"""File Manager (``hubitat-hub-api.md`` §14): the hub's ``/local/`` file store.

Owned by the hub-operations work (issue 7); other emulator modules and tests use
``emu.files`` (``read``, ``write``/``put``, ``delete``, ``names``).

* ``GET /hub/fileManager/json[?folder=<dir>]`` answers the current object shape
  ``{"files":[{"date":"<epoch ms>","size":"<bytes>","name","id","type":"file"|"dir"}],
  "path":<folder or null>,"freeSpace":<int>}`` (``date`` and ``size`` are strings). Set
  ``emu.files.bare_list = True`` for the older bare-array shape
  ``[{"name","size":<int>,"date":"<epoch ms>"}]`` (no folders).
* ``GET /local/<name>`` serves the raw bytes (404 HTML page when absent). Files inside a
  folder are served at ``/local/<folder>/<name>``.
* ``POST /hub/fileManager/upload[/<folder>]``: ``multipart/form-data`` with the field
  ``uploadFile`` (the part's filename is the file name) and an optional ``folder`` field;
  creates or overwrites. Answers ``{"success":true}``. Decisions where the reference is silent:
  a missing ``uploadFile`` part or a name outside ``^[A-Za-z0-9][A-Za-z0-9._-]*$`` answers
  ``400 {"success":false,"message":..}``; more than 10 MB answers ``413``.
* ``POST /hub/fileManager/delete`` JSON ``{"folder":"","name":"<f>","type":"file"}`` answers
  ``{"status":true}``, or ``{"status":false}`` when there is no such file. A form body (not
  JSON) answers 500, like other JSON-only hub endpoints.
"""

from __future__ import annotations

import json
import mimetypes
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from aiohttp import BodyPartReader, web

from .clock import utcnow

if TYPE_CHECKING:
    from .hub import HubEmulator

MAX_UPLOAD = 10 * 1024 * 1024
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
TOTAL_SPACE = 1_000_000_000


def error_page(status: int, reason: str) -> str:
    from .hub import error_page as page  # hub.py imports this module at load time

    return page(status, reason)


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


def setup(app: web.Application, emu: HubEmulator) -> None:
    r = _FileRoutes(emu)
    add = app.router
    add.add_get("/hub/fileManager/json", r.list_json)
    add.add_get("/local/{name}", r.download)
    add.add_get("/local/{folder}/{name}", r.download)
    add.add_post("/hub/fileManager/upload", r.upload)
    add.add_post("/hub/fileManager/upload/{folder}", r.upload)
    add.add_post("/hub/fileManager/delete", r.delete)


class _FileRoutes:
    def __init__(self, emu: HubEmulator) -> None:
        self.emu = emu

    @property
    def store(self) -> FileStore:
        store: FileStore = self.emu.files
        return store

    async def list_json(self, request: web.Request) -> web.StreamResponse:
        folder = request.query.get("folder", "").strip("/")
        entries = sorted(
            (f for (fo, _n), f in self.store.files.items() if fo == folder),
            key=lambda f: f.name.lower(),
        )
        if self.store.bare_list:
            return self.emu.json(
                [
                    {
                        "name": f.name,
                        "size": len(f.data),
                        "date": str(int(f.modified.timestamp() * 1000)),
                    }
                    for f in entries
                    if not f.is_dir
                ]
            )
        return self.emu.json(
            {
                "files": [
                    {
                        "date": str(int(f.modified.timestamp() * 1000)),
                        "size": str(len(f.data)),
                        "name": f.name,
                        "id": str(-f.id * 7919),
                        "type": "dir" if f.is_dir else "file",
                    }
                    for f in entries
                ],
                "path": folder or None,
                "freeSpace": TOTAL_SPACE - self.store.used,
            }
        )

    async def download(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        found = self.store.get(name, request.match_info.get("folder", ""))
        if found is None:
            return self.emu.html_page(error_page(404, "Not Found"), status=404)
        ctype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        return web.Response(body=found.data, content_type=ctype)

    @staticmethod
    def _fail(status: int, message: str) -> web.Response:
        body = json.dumps({"success": False, "message": message})
        return web.Response(text=body, status=status, content_type="application/json")

    async def upload(self, request: web.Request) -> web.StreamResponse:
        if not request.content_type.startswith("multipart/"):
            return self._fail(400, "Expected multipart/form-data")
        folder = request.match_info.get("folder", "")
        name: str | None = None
        data: bytes | None = None
        try:
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "uploadFile":
                    name = part.filename
                    chunks = bytearray()
                    while chunk := await part.read_chunk():
                        chunks += chunk
                        if len(chunks) > MAX_UPLOAD:
                            return self._fail(413, "File is larger than 10 MB")
                    data = bytes(chunks)
                elif part.name == "folder":
                    folder = (await part.text()).strip("/") or folder
        except (AssertionError, ValueError):
            return self._fail(400, "Malformed multipart body")
        if name is None or data is None:
            return self._fail(400, "No uploadFile part")
        if not NAME_RE.fullmatch(name) or ".." in name:
            return self._fail(400, f"Invalid file name: {name}")
        self.store.put(name, data, folder=folder)
        return self.emu.json({"success": True})

    async def delete(self, request: web.Request) -> web.StreamResponse:
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.emu.html_page(error_page(500, "Server Error"), status=500)
        if not isinstance(body, dict):
            return self.emu.html_page(error_page(500, "Server Error"), status=500)
        folder = str(body.get("folder") or "").strip("/")
        ok = self.store.delete(str(body.get("name") or ""), folder)
        return self.emu.json({"status": ok})
