"""File Manager logic: listing with filters, paged text reads, and ONE backup-first writer.

Every write that can replace a file (a file write, an app export's ``save_as``,
a bundle export's ``overwrite``) and every delete goes through :meth:`FilesManager.put`
/ :meth:`FilesManager.delete`: the existing file's exact bytes are first copied to
``<base>_backup_<yyyyMMdd-HHmmss>-<mmm>-<nn><ext>`` (milliseconds plus a two-digit counter, so
two writes in one second keep both originals and the names still sort by time), the copy is
checked, and only then is the file replaced or deleted. Backup copies are no exception: a
copy of a copy is kept too (to reclaim space, delete them in the hub's own File Manager).
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Callable, Collection
from datetime import UTC, datetime
from typing import Any, NotRequired, TypedDict

from ..errors import ToolError
from ..hub.controllers import FilesController
from ..hub.errors import HubBadResponseError
from ..hub.files import MAX_TEXT_READ_BYTES, HubFile, valid_file_name

BINARY_EXTENSIONS = frozenset(
    {
        "png", "jpg", "jpeg", "gif", "bmp", "ico", "webp", "zip", "gz", "tgz", "lzf", "bin",
        "pdf", "mp3", "wav", "ogg", "mp4", "woff", "woff2", "ttf", "otf", "jar", "gbl", "ota",
    }
)  # fmt: skip
MAX_WRITE_BYTES = 1_000_000
BACKUP_MARK = "_backup_"
MAX_NAME = 128  # the File Manager's name limit (hub/files.valid_file_name)
MAX_COUNTER = 99


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
    """A delete, and where the copy is kept."""

    summary: str
    deleted: str
    backup_file: str


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


def time_stamp(now: datetime, counter: int) -> str:
    """``20261129-233000-123-01``: UTC to the millisecond plus a counter (sorts by time)."""
    return f"{now:%Y%m%d-%H%M%S}-{now.microsecond // 1000:03d}-{counter:02d}"


def unique_name(
    make: Callable[[str], str], taken: Collection[str], now: datetime | None = None
) -> str:
    """The first ``make(stamp)`` not in ``taken``, counting up within one millisecond."""
    when = now or datetime.now(UTC)
    for counter in range(1, MAX_COUNTER + 1):
        name = make(time_stamp(when, counter))
        if name not in taken:
            return name
    raise ToolError(
        f"{MAX_COUNTER} copies named like {make(time_stamp(when, 1))} already exist; "
        "nothing was changed.",
        hint="Retry in a moment.",
    )


def backup_name(name: str, stamp: str) -> str:
    """``notes.txt`` -> ``notes_backup_20261129-233000-123-01.txt`` (kept under the name
    limit by shortening the base)."""
    base, dot, ext = name.rpartition(".")
    if not dot or not base:
        base, ext = name, ""
    tail = f"{BACKUP_MARK}{stamp}" + (f".{ext}" if ext else "")
    return base[: max(1, MAX_NAME - len(tail))] + tail


class FilesManager:
    """The hub's File Manager (root folder)."""

    def __init__(self, files: FilesController, base_url: str) -> None:
        self._files = files
        self._base_url = base_url  # for each file's download URL
        # one backup-first change at a time, so two copies never get the same name
        self._lock = asyncio.Lock()

    def _as_dict(self, f: HubFile) -> dict[str, Any]:
        out = f.as_dict(self._base_url)
        if not f.is_dir:
            out["binary"] = is_binary_name(f.name)
            if BACKUP_MARK in f.name:
                out["is_backup"] = True
        return out

    async def _lookup(self, name: str) -> tuple[HubFile | None, set[str]]:
        """The file ``name`` (None if absent) and every name in the root folder."""
        files, _free = await self._files.list_with_space()
        found = next((f for f in files if f.name == name and not f.is_dir), None)
        return found, {f.name for f in files}

    async def _find(self, name: str) -> HubFile | None:
        return (await self._lookup(name))[0]

    async def _existing(self, name: str, *, nothing_done: str = "") -> tuple[HubFile, set[str]]:
        """The file ``name`` (checked first) and every name; not_found if there is none."""
        check_name(name)
        found, names = await self._lookup(name)
        if found is None:
            raise ToolError(
                f"There is no file '{name}' in the hub's File Manager{nothing_done}.",
                code="not_found",
                subject="file_name",
            )
        return found, names

    async def list(self, text: str | None = None) -> FileListing:
        """Files (folders last), newest first, filtered by substring or glob."""
        files, free = await self._files.list_with_space()
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

    async def download(self, name: str, *, max_bytes: int) -> tuple[HubFile, bytes]:
        """One file's exact bytes, checked to exist and to be at most ``max_bytes`` (by its
        listed size first, then by the capped download itself)."""
        found, _names = await self._existing(name)
        if found.size is not None and found.size > max_bytes:
            raise ToolError(
                f"'{name}' is {found.size} bytes; at most {max_bytes} are accepted here. "
                "Nothing was downloaded.",
                code="file_too_large",
            )
        return found, await self._files.read_bytes(name, max_bytes=max_bytes)

    async def read(self, name: str, offset: int, length: int) -> dict[str, Any]:
        """Text inline (a character window); binary as size + download URL."""
        found, _names = await self._existing(name)
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
        text = await self._files.read_text(name, max_bytes=MAX_TEXT_READ_BYTES)
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

    async def _backup_existing(self, existing: HubFile, taken: Collection[str]) -> str:
        """Copy an existing file (exact bytes) to a fresh backup name and check the copy."""
        data = await self._files.read_bytes(existing.name)
        target = unique_name(lambda stamp: backup_name(existing.name, stamp), taken)
        await self._files.write(target, data)
        copy = await self._find(target)
        if copy is None or (copy.size is not None and copy.size != len(data)):
            raise HubBadResponseError(
                f"The backup copy {target} was not stored correctly; '{existing.name}' was "
                "left unchanged.",
                hint="Check the hub's free space and retry.",
                subject="backup_copy",
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
        return await self.put(name, data)

    async def put(self, name: str, data: bytes) -> FileWritten:
        """THE writer: store ``data`` as ``name``, first copying any existing file of that
        name (verified), then verifying the stored size. Every overwrite path uses this."""
        check_name(name)
        async with self._lock:
            existing, names = await self._lookup(name)
            backup = await self._backup_existing(existing, names) if existing else None
            await self._files.write(name, data)
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
        """Delete a file after backing it up (backup copies too: a copy is always kept)."""
        async with self._lock:
            existing, names = await self._existing(name, nothing_done="; nothing was deleted")
            backup = await self._backup_existing(existing, names)
            await self._files.delete(name)  # its answer is not trusted: re-list
            if await self._find(name) is not None:
                raise HubBadResponseError(f"The hub still lists '{name}' after deleting it.")
        return {
            "summary": f"Deleted {name}; a copy is kept as {backup}",
            "deleted": name,
            "backup_file": backup,
        }
