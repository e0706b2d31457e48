"""File Manager (``docs/hub-endpoints.md``, Files): the hub's ``/local/`` file store.

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
* ``POST /hub/fileManager/delete``: the hub UI's ``deleteFile`` posts the JSON text
  ``{"name":"<f>","type":"file"}`` with no content type (a browser labels it ``text/plain``),
  with ``"folder":"<dir>"`` first for a file in a folder (its firmware file manager); at the
  root ``folder`` is left out. Answers ``{"status":true}``, or ``{"status":false}`` when there
  is no such file. Evidence: hub UI (``FileManagerComponent.deleteFile``). Assumptions: the
  body is read as JSON whatever its content type (an ``application/json`` one works too) and
  an empty ``folder`` is the root; a body that is not JSON (a form) answers 500, like other
  JSON-only hub endpoints.
"""

from __future__ import annotations

import json
import mimetypes
import re

from aiohttp import BodyPartReader, web

from .files import FileStore
from .responses import Responses

MAX_UPLOAD = 10 * 1024 * 1024
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
TOTAL_SPACE = 1_000_000_000


def setup(app: web.Application, store: FileStore, http: Responses) -> None:
    r = _FileRoutes(store, http)
    add = app.router
    add.add_get("/hub/fileManager/json", r.list_json)
    add.add_get("/local/{name}", r.download)
    add.add_get("/local/{folder}/{name}", r.download)
    add.add_post("/hub/fileManager/upload", r.upload)
    add.add_post("/hub/fileManager/upload/{folder}", r.upload)
    add.add_post("/hub/fileManager/delete", r.delete)


class _FileRoutes:
    def __init__(self, store: FileStore, http: Responses) -> None:
        self.store = store
        self.http = http

    async def list_json(self, request: web.Request) -> web.StreamResponse:
        folder = request.query.get("folder", "").strip("/")
        entries = sorted(
            (f for (fo, _n), f in self.store.files.items() if fo == folder),
            key=lambda f: f.name.lower(),
        )
        if self.store.bare_list:
            return self.http.json(
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
        return self.http.json(
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
            return self.http.not_found()
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
        return self.http.json({"success": True})

    async def delete(self, request: web.Request) -> web.StreamResponse:
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.http.error(500, "Server Error")
        if not isinstance(body, dict):
            return self.http.error(500, "Server Error")
        folder = str(body.get("folder") or "").strip("/")
        ok = self.store.delete(str(body.get("name") or ""), folder)
        return self.http.json({"status": ok})
