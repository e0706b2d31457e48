"""File Manager logic: listing with filters, paged text reads, writes and deletes that back
up the existing file first (``<base>_backup_<yyyyMMdd-HHmmss><ext>``)."""

from __future__ import annotations

import fnmatch
from datetime import UTC, datetime
from typing import Any, NotRequired, TypedDict

from ..errors import ToolError
from ..hub.client import HubClient
from ..hub.errors import HubBadResponseError
from ..hub.files import (
    MAX_TEXT_READ_BYTES,
    HubFile,
    delete_file,
    list_files_with_space,
    read_file_bytes,
    read_text_file,
    valid_file_name,
    write_file,
)

BINARY_EXTENSIONS = frozenset(
    {
        "png", "jpg", "jpeg", "gif", "bmp", "ico", "webp", "zip", "gz", "tgz", "lzf", "bin",
        "pdf", "mp3", "wav", "ogg", "mp4", "woff", "woff2", "ttf", "otf", "jar", "gbl", "ota",
    }
)  # fmt: skip
MAX_WRITE_BYTES = 1_000_000
BACKUP_MARK = "_backup_"


class FileListing(TypedDict):
    """The File Manager's files (entries as :meth:`FilesManager.list` describes them)."""

    files: list[dict[str, Any]]
    free_space_bytes: int | None
    total_size_bytes: int


class FileWritten(TypedDict):
    """A write: the stored file, and where the previous version was copied."""

    summary: str
    file: dict[str, Any]
    created: bool
    backup_file: NotRequired[str]


class FileDeleted(TypedDict):
    """A delete, and where the copy is kept (none for backup copies)."""

    summary: str
    deleted: str
    backup_file: NotRequired[str]


def check_name(name: str) -> None:
    """Refuse names the File Manager would not accept (before anything is sent)."""
    if not valid_file_name(name):
        raise ToolError(
            f"Invalid file name '{name}'. Use letters, digits, '.', '_' and '-', starting "
            "with a letter or digit; no folders or '..'. Nothing was sent to the hub.",
            hint="Pick a plain name such as my-notes.txt.",
        )


def is_binary_name(name: str) -> bool:
    """True for extensions we never show inline."""
    return "." in name and name.rsplit(".", 1)[1].lower() in BINARY_EXTENSIONS


def looks_binary(text: str) -> bool:
    """True when downloaded text is really binary (NULs or many undecodable bytes)."""
    if "\x00" in text:
        return True
    sample = text[:8192]
    return bool(sample) and sample.count("\ufffd") > max(2, len(sample) // 100)


def backup_name(name: str, now: datetime | None = None) -> str:
    """``notes.txt`` -> ``notes_backup_20261129-233000.txt``."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    base, dot, ext = name.rpartition(".")
    if not dot or not base:
        return f"{name}{BACKUP_MARK}{stamp}"
    return f"{base}{BACKUP_MARK}{stamp}.{ext}"


class FilesManager:
    """The hub's File Manager (root folder)."""

    def __init__(self, client: HubClient) -> None:
        self._client = client

    def _as_dict(self, f: HubFile) -> dict[str, Any]:
        out = f.as_dict(self._client.base_url)
        if not f.is_dir:
            out["binary"] = is_binary_name(f.name)
            if BACKUP_MARK in f.name:
                out["is_backup"] = True
        return out

    async def _find(self, name: str) -> HubFile | None:
        files, _free = await list_files_with_space(self._client)
        return next((f for f in files if f.name == name and not f.is_dir), None)

    async def _existing(self, name: str, *, nothing_done: str = "") -> HubFile:
        """The file ``name`` (checked first); a not_found ToolError if there is none."""
        check_name(name)
        found = await self._find(name)
        if found is None:
            raise ToolError(
                f"There is no file '{name}' in the hub's File Manager{nothing_done}.",
                code="not_found",
                hint="hub_list_files shows the file names (they are case-sensitive).",
            )
        return found

    async def list(self, text: str | None = None) -> FileListing:
        """Files (folders last), newest first, filtered by substring or glob."""
        files, free = await list_files_with_space(self._client)
        if text:
            needle = text.lower()
            glob = any(c in text for c in "*?[")
            files = [
                f
                for f in files
                if (fnmatch.fnmatch(f.name.lower(), needle) if glob else needle in f.name.lower())
            ]
        files.sort(
            key=lambda f: (
                f.is_dir,
                -(f.modified.timestamp() if f.modified else 0),
                f.name.lower(),
            )
        )
        return {
            "files": [self._as_dict(f) for f in files],
            "free_space_bytes": free,
            "total_size_bytes": sum(f.size or 0 for f in files if not f.is_dir),
        }

    async def read(self, name: str, offset: int, length: int) -> dict[str, Any]:
        """Text inline (a character window); binary as size + download URL."""
        found = await self._existing(name)
        meta = self._as_dict(found)
        if is_binary_name(name):
            return {**meta, "content": None, "note": "Binary file: not shown; use the url."}
        if found.size is not None and found.size > MAX_TEXT_READ_BYTES:
            raise ToolError(
                f"'{name}' is {found.size} bytes; files over {MAX_TEXT_READ_BYTES} bytes are "
                "not read inline. Nothing was downloaded.",
                code="file_too_large",
                hint=f"Open it from its url instead: {meta.get('url')}",
            )
        # The listed size was checked; the download itself is capped too (a size the
        # listing did not give, or got wrong, stops at the same limit).
        text = await read_text_file(self._client, name, max_bytes=MAX_TEXT_READ_BYTES)
        if looks_binary(text):
            meta["binary"] = True
            return {**meta, "content": None, "note": "Binary file: not shown; use the url."}
        total = len(text)
        if offset > total:
            raise ToolError(
                f"offset {offset} is past the end of '{name}' ({total} characters).",
                hint="Use an offset below total_chars.",
            )
        chunk = text[offset : offset + length]
        out = {
            **meta,
            "offset": offset,
            "length": len(chunk),
            "total_chars": total,
            "content": chunk,
        }
        if offset + len(chunk) < total:
            out["next_offset"] = offset + len(chunk)
        return out

    async def _backup_existing(self, existing: HubFile) -> str | None:
        """Copy an existing file (exact bytes) to its backup name; None for backup copies."""
        if BACKUP_MARK in existing.name:
            return None
        data = await read_file_bytes(self._client, existing.name)
        target = backup_name(existing.name)
        await write_file(self._client, target, data)
        copy = await self._find(target)
        if copy is None or (copy.size is not None and copy.size != len(data)):
            raise HubBadResponseError(
                f"The backup copy {target} was not stored correctly; '{existing.name}' was "
                "left unchanged.",
                hint="Check the hub's free space (hub_list_files) and retry.",
            )
        return target

    async def write(self, name: str, content: str) -> FileWritten:
        """Create or overwrite a text file; an existing file is backed up first."""
        check_name(name)
        data = content.encode()
        if len(data) > MAX_WRITE_BYTES:
            raise ToolError(
                f"content is {len(data)} bytes; the limit is {MAX_WRITE_BYTES}. Nothing was sent.",
                hint="Split the content over several files.",
            )
        existing = await self._find(name)
        backup = await self._backup_existing(existing) if existing is not None else None
        await write_file(self._client, name, data)
        stored = await self._find(name)
        if stored is None or (stored.size is not None and stored.size != len(data)):
            raise HubBadResponseError(
                f"The hub did not store '{name}' as sent"
                + (f" (the previous version is in {backup})" if backup else ""),
                hint="Check the hub's free space and retry.",
            )
        action = "Overwrote" if existing is not None else "Created"
        out: FileWritten = {
            "summary": f"{action} {name} ({len(data)} bytes)"
            + (f"; previous version saved as {backup}" if backup else ""),
            "file": self._as_dict(stored),
            "created": existing is None,
        }
        if backup:
            out["backup_file"] = backup
        return out

    async def delete(self, name: str) -> FileDeleted:
        """Delete a file after backing it up (backups themselves are deleted directly)."""
        existing = await self._existing(name, nothing_done="; nothing was deleted")
        backup = await self._backup_existing(existing)
        await delete_file(self._client, name)
        if await self._find(name) is not None:
            raise HubBadResponseError(f"The hub still lists '{name}' after deleting it.")
        out: FileDeleted = {
            "summary": f"Deleted {name}"
            + (f"; a copy is kept as {backup}" if backup else " (it was a backup copy)"),
            "deleted": name,
        }
        if backup:
            out["backup_file"] = backup
        return out
