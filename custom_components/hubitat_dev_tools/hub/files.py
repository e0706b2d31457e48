"""File Manager endpoints: list, read, write, delete hub files (the hub's /local/ store)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import aiohttp

from .client import MAX_DOWNLOAD_BYTES, HubClient

FILE_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
# The largest file read as text (it is then shown in character windows).
MAX_TEXT_READ_BYTES = 4 * 1024 * 1024


def valid_file_name(name: str) -> bool:
    """Return True for names the File Manager accepts (no paths, no traversal)."""
    return bool(FILE_NAME_RE.fullmatch(name)) and ".." not in name and len(name) <= 128


@dataclass(slots=True)
class HubFile:
    """One File Manager entry."""

    name: str
    size: int | None
    modified: datetime | None
    is_dir: bool = False

    def as_dict(self, base_url: str) -> dict[str, Any]:
        """Return JSON-safe data including the download URL."""
        out: dict[str, Any] = {
            "name": self.name,
            "size": self.size,
            "modified": self.modified.isoformat(timespec="seconds") if self.modified else None,
        }
        if self.is_dir:
            out["type"] = "dir"
        else:
            out["url"] = f"{base_url}/local/{quote(self.name)}"
        return out


def _parse_date(value: Any) -> datetime | None:
    if value in (None, ""):
        return None
    text = str(value)
    if text.isdigit():  # epoch milliseconds (current firmware, as a string)
        return datetime.fromtimestamp(int(text) / 1000, tz=UTC)
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def parse_file_list(payload: Any) -> list[HubFile]:
    """Accept both list shapes: ``{"files": [...]}`` and a bare array."""
    items = payload.get("files") if isinstance(payload, dict) else payload
    out: list[HubFile] = []
    for item in items or []:
        if not isinstance(item, dict) or not item.get("name"):
            continue
        size = item.get("size")
        size_int = int(size) if isinstance(size, int | str) and str(size).isdigit() else None
        out.append(
            HubFile(
                name=str(item["name"]),
                size=size_int,
                modified=_parse_date(item.get("date")),
                is_dir=item.get("type") == "dir",
            )
        )
    return out


async def list_files(client: HubClient) -> list[HubFile]:
    """Every file in the File Manager's root folder."""
    return parse_file_list(await client.get_json("/hub/fileManager/json"))


async def list_files_with_space(client: HubClient) -> tuple[list[HubFile], int | None]:
    """The root folder's files and the free space in bytes (None on the bare-array shape)."""
    payload = await client.get_json("/hub/fileManager/json")
    free = payload.get("freeSpace") if isinstance(payload, dict) else None
    return parse_file_list(payload), int(free) if isinstance(free, int | float) else None


async def read_text_file(
    client: HubClient, name: str, *, max_bytes: int = MAX_TEXT_READ_BYTES
) -> str:
    """Download one file as text (undecodable bytes replaced); HubNotFoundError if absent,
    HubResponseTooLargeError past ``max_bytes`` (the download stops there)."""
    text: str = await client.request(
        "GET", f"/local/{quote(name)}", expect="text", max_bytes=max_bytes
    )
    return text


async def read_file_bytes(
    client: HubClient, name: str, *, max_bytes: int = MAX_DOWNLOAD_BYTES
) -> bytes:
    """Download one file's exact bytes (binary-safe); HubNotFoundError if absent,
    HubResponseTooLargeError past ``max_bytes`` (the download stops there)."""
    return await client.get_bytes(f"/local/{quote(name)}", max_bytes=max_bytes)


def upload_form(name: str, data: bytes) -> aiohttp.FormData:
    """The hub UI's uploaders' form: one part ``uploadFile`` whose filename is the name."""
    form = aiohttp.FormData()
    form.add_field("uploadFile", data, filename=name, content_type="application/octet-stream")
    return form


async def write_file(client: HubClient, name: str, data: bytes, *, folder: str = "") -> None:
    """Upload (create or overwrite) one file into the root folder, or ``folder`` (the hub UI's
    File Manager component posts to ``/hub/fileManager/upload/<folder>``; its firmware file
    manager is that component on ``firmware``): the form field ``uploadFile``, nothing else.
    The caller re-lists to check the effect."""
    form = upload_form(name, data)
    path = (
        f"/hub/fileManager/upload/{quote(folder, safe='')}" if folder else "/hub/fileManager/upload"
    )
    await client.request("POST", path, data=form, expect="any")


async def delete_file(client: HubClient, name: str, *, folder: str = "") -> Any:
    """Delete one file as the hub UI's File Manager component does (``deleteFile``).

    It posts ``JSON.stringify({folder: this.path, name, type})`` without a content type, so
    the browser labels it ``text/plain;charset=UTF-8`` (a text body here gets aiohttp's
    ``text/plain; charset=utf-8``); at the root ``path`` is undefined and ``JSON.stringify``
    leaves ``folder`` out; in a folder (the firmware file manager: ``firmware``) it is sent.
    The answer (``{"status": true|false}`` in the hub UI) is returned, not trusted: the
    caller decides by re-listing (a file still listed was not deleted, whatever it said).
    """
    body: dict[str, str] = {"folder": folder} if folder else {}
    body |= {"name": name, "type": "file"}
    return await client.request(
        "POST",
        "/hub/fileManager/delete",
        data=json.dumps(body),  # a text body: aiohttp labels it text/plain; charset=utf-8
        expect="any",
    )
