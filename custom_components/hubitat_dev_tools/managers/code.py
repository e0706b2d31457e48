"""Code: list, read (paged), install, update (backup first, version check), delete, restore;
sources from a URL or a File Manager file and several items at once (``code_sources``),
OAuth on app code (``hub/code_oauth``)."""

from __future__ import annotations

import asyncio
from typing import Any, NotRequired, TypedDict, cast

import aiohttp

from ..errors import ToolError
from ..hub.code import CODE_KINDS, CodeKind, CodeSource, HubVersionConflictError
from ..hub.code_oauth import AppOAuth
from ..hub.controllers import CodeController, DevicesController, FilesController
from ..hub.errors import HubError, HubNotFoundError
from ..hub.files import valid_file_name
from ..hub.models import norm_id
from .code_sources import (
    CodeItemSpec,
    SourceSpec,
    UrlCheck,
    fetch_url_text,
    item_error,
    read_file_source,
    require_one_source,
)
from .files import FilesManager
from .item_backups import ItemBackups, SavedBackup

DEFAULT_PAGE = 30_000
MAX_PAGE = 60_000


class InstalledCode(TypedDict):
    """New code: its id and version."""

    id: str
    version: int | None


class UpdatedCode(TypedDict):
    """An update: saved (previous -> new version, backup) or ``unchanged``."""

    id: str
    name: NotRequired[str]
    previous_version: NotRequired[int | None]
    version: int | None
    unchanged: NotRequired[bool]
    item_backup: NotRequired[SavedBackup]
    hub_message: NotRequired[str]  # what the hub said to a save it accepted, if anything


class DeletedCode(TypedDict):
    """A deleted item and the backup of its source."""

    id: str
    name: str
    item_backup: SavedBackup


class RestoredCode(TypedDict):
    """A restore: saved over the current code, installed as new, or ``unchanged``."""

    restored_as_new: NotRequired[bool]
    id: str
    previous_version: NotRequired[int | None]
    version: int | None
    unchanged: NotRequired[bool]
    note: NotRequired[str]
    item_backup: NotRequired[SavedBackup]


class InstalledBundles(TypedDict):
    """The bundles a bundle install added."""

    installed: list[dict[str, Any]]
    item_backups: list[SavedBackup]  # every user code item, saved before the install


class DeletedBundle(TypedDict):
    """The bundle that was deleted, as listed before."""

    deleted: dict[str, Any]


class ExportedBundle(TypedDict):
    """Where a bundle's .zip was saved."""

    bundle_id: str
    file: str
    size: int
    replaced_file_backup: NotRequired[str]  # overwrite=true: where the old file was copied


def page_text(text: str, offset: int, length: int) -> dict[str, Any]:
    """Slice ``text`` for size-aware paging; says where the next page starts."""
    total = len(text)
    if offset > total:
        raise ToolError(f"offset {offset} is past the end (the text has {total} characters).")
    chunk = text[offset : offset + length]
    end = offset + len(chunk)
    out: dict[str, Any] = {
        "offset": offset,
        "total_chars": total,
        "first_line": text.count("\n", 0, offset) + 1,
        "next_offset": end if end < total else None,
    }
    if end < total:
        out["more"] = f"Partial: call again with offset={end} for the rest."
    return out | {"text": chunk}


def builtin_drivers(drivers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hub's built-in driver types (``/device/drivers`` type ``sys``; internal
    ``dep`` entries and the ``Hidden`` category left out, as the device type picker does)."""
    out = []
    for d in drivers:
        if d.get("type") != "sys" or d.get("category") == "Hidden" or norm_id(d.get("id")) is None:
            continue
        out.append(
            {
                "type": "driver",
                "id": norm_id(d.get("id")),
                "name": d.get("name"),
                "namespace": d.get("namespace"),
                "builtin": True,
                "category": d.get("category"),
            }
        )
    return out


def check_source(source: str) -> None:
    """Refuse sources the hub is known to reject for non-code reasons."""
    if source.startswith("\ufeff"):
        raise ToolError(
            "The source starts with a UTF-8 byte order mark, which makes the hub's save fail "
            "with 'Unknown error occurred'. Nothing was sent.",
            hint="Remove the BOM character at the start of the source and call again.",
        )
    if not source.strip():
        raise ToolError("The source is empty. Nothing was sent.")


class CodeManager:
    """Apps, drivers and libraries code, with item backups in the File Manager."""

    def __init__(
        self,
        code: CodeController,
        devices: DevicesController,
        hub_files: FilesController,
        files: FilesManager,
    ) -> None:
        self._code = code
        self._devices = devices  # the driver list (built-in driver types)
        self._hub_files = hub_files
        self._files = files
        self.backups = ItemBackups(hub_files)
        self._downloads: aiohttp.ClientSession | None = None

    def use_download_session(self, session: aiohttp.ClientSession) -> None:
        """Where code downloads go: a session that checks TLS certificates (the client's
        session talks to the hub, whose certificate is self-signed, and checks none)."""
        self._downloads = session

    @property
    def download_session(self) -> aiohttp.ClientSession | None:
        """The session downloads from the internet use (it checks certificates), if set."""
        return self._downloads

    async def list_code(
        self, kind: CodeKind | None, text: str | None, *, builtin: bool = False
    ) -> list[dict[str, Any]]:
        """User code of one or every kind, filtered by text (name or namespace); with
        ``builtin`` the hub's built-in driver types too (no source: device types only)."""
        kinds = [kind] if kind else list(CODE_KINDS)
        lists = await asyncio.gather(*(self._code.list(k) for k in kinds))
        items = [cast(dict[str, Any], i) for lst in lists for i in lst]
        if builtin and kind in (None, "driver"):
            drivers = cast(list[dict[str, Any]], await self._devices.drivers())
            items += builtin_drivers(drivers)
        if text:
            needle = text.strip().lower()
            items = [
                i
                for i in items
                if needle in str(i.get("name", "")).lower()
                or needle in str(i.get("namespace", "")).lower()
                or needle == str(i["id"])
            ]
        return items

    async def get_source(self, kind: CodeKind, item_id: str) -> CodeSource:
        """Full source and version."""
        return await self._code.source(kind, item_id)

    async def source_text(self, spec: SourceSpec, check: UrlCheck, where: str = "") -> str:
        """The source an item names: inline, downloaded from a URL, or a File Manager file."""
        require_one_source(spec, where)
        if spec.source_url is not None:
            if self._downloads is None:  # never the hub's session: it checks no certificate
                raise ToolError(
                    f"{where + ': ' if where else ''}downloads are not set up here (no session "
                    "that checks certificates). Nothing was sent.",
                    code="source_unavailable",
                    hint="Pass the text as source, or put it in the File Manager and use "
                    "file_name.",
                )
            text = await fetch_url_text(self._downloads, spec.source_url, check)
        elif spec.file_name is not None:
            text = await read_file_source(self._files, spec.file_name)
        else:
            text = spec.source or ""
        check_source(text)
        return text

    async def get_oauth(self, app_id: str) -> AppOAuth:
        """OAuth on one app code item: on or off, and its client id (never the secret)."""
        return await self._code.oauth(app_id)

    async def set_oauth(self, app_id: str, enabled: bool) -> AppOAuth:
        """Turn OAuth on/off for app code (the editor's dialog), confirmed by reading back."""
        return await self._code.set_oauth(app_id, enabled)

    async def save_items(self, items: list[CodeItemSpec], check: UrlCheck) -> dict[str, Any]:
        """Several installs/updates: all checked and fetched first (a problem anywhere and
        nothing is written), then saved one by one, each with its own result."""
        listed: dict[CodeKind, set[str]] = {}
        texts: list[str] = []
        problems: list[dict[str, Any]] = []
        for n, item in enumerate(items):
            try:
                if item.item_id is not None:
                    if item.kind not in listed:
                        listed[item.kind] = {str(i["id"]) for i in await self._code.list(item.kind)}
                    if item.item_id not in listed[item.kind]:
                        raise HubNotFoundError(f"No {item.kind} code with id {item.item_id}")
                texts.append(await self.source_text(item.spec, check, f"items[{n}]"))
            except (ToolError, HubError) as err:
                problems.append({"index": n, **item_error(err)})
        if problems:
            raise ToolError(
                f"{len(problems)} of {len(items)} items cannot be done (see problems); "
                "nothing was changed.",
                extra={"problems": problems},
                hint="Fix or drop those items and call again with the whole list.",
            )
        results = [
            await self._save_item(n, item, text)
            for n, (item, text) in enumerate(zip(items, texts, strict=True))
        ]
        failed = sum(1 for r in results if r["status"] == "failed")
        return {
            "summary": f"{len(items) - failed} of {len(items)} items done"
            + (f"; {failed} failed (see results)" if failed else ""),
            "results": results,
            "failed": failed,
        }

    async def _save_item(self, n: int, item: CodeItemSpec, text: str) -> dict[str, Any]:
        """One batch item, saved; its result (a failure is reported, not raised)."""
        head: dict[str, Any] = {"index": n, "type": item.kind, **item.spec.origin()}
        try:
            if item.item_id is None:
                installed = await self.install(item.kind, text)
                return {**head, "status": "installed", **installed}
            updated = await self.update(item.kind, item.item_id, text, item.expected_version)
        except (ToolError, HubError) as err:
            return {**head, "id": item.item_id, "status": "failed", **item_error(err)}
        status = "unchanged" if updated.get("unchanged") else "updated"
        return {**head, "status": status, **{k: v for k, v in updated.items() if k != "unchanged"}}

    async def install(self, kind: CodeKind, source: str) -> InstalledCode:
        """Install new code; compile errors come back verbatim."""
        check_source(source)
        saved = await self._code.install(kind, source)
        return {"id": saved.id, "version": saved.version}

    async def _backup_source(
        self, current: CodeSource, reason: str, *, series: bool
    ) -> SavedBackup:
        return await self.backups.save(
            current.kind,
            current.id,
            {"name": current.name, "version": current.version, "source": current.source},
            reason=reason,
            series=series,
        )

    async def update(
        self, kind: CodeKind, item_id: str, source: str, expected_version: int | None
    ) -> UpdatedCode:
        """Back up the current source, then save with the hub's optimistic version check."""
        check_source(source)
        current = await self.get_source(kind, item_id)
        if expected_version is not None and current.version != expected_version:
            raise HubVersionConflictError(
                f"{kind} {item_id} ({current.name}) is at version {current.version} on the hub, "
                f"not {expected_version}: it changed since you read it. Nothing was saved."
            )
        if current.source == source:
            return {
                "id": item_id,
                "version": current.version,
                "unchanged": True,
                "name": current.name,
            }
        backup = await self._backup_source(current, "before update", series=True)
        saved = await self._code.save(kind, item_id, source, current.version)
        self.backups.edited(kind, item_id, {"source": source, "version": saved.version})
        return {
            "id": saved.id,
            "name": current.name,
            "previous_version": current.version,
            "version": saved.version,
            "item_backup": backup,
        }

    async def resave(
        self, kind: CodeKind, item_id: str, expected_version: int | None
    ) -> UpdatedCode:
        """Save the current source again, unchanged, as the editor's Save does (it sends the
        editor's text and the version it loaded, changed or not): the hub compiles it anew
        (e.g. after a library it includes changed). Backed up first, as an update."""
        current = await self.get_source(kind, item_id)
        if expected_version is not None and current.version != expected_version:
            raise HubVersionConflictError(
                f"{kind} {item_id} ({current.name}) is at version {current.version} on the hub, "
                f"not {expected_version}: it changed since you read it. Nothing was saved."
            )
        check_source(current.source)
        backup = await self._backup_source(current, "before re-save", series=True)
        saved = await self._code.save(kind, item_id, current.source, current.version)
        self.backups.edited(kind, item_id, {"source": current.source, "version": saved.version})
        out: UpdatedCode = {
            "id": saved.id,
            "name": current.name,
            "previous_version": current.version,
            "version": saved.version,
            "item_backup": backup,
        }
        if saved.message:
            out["hub_message"] = saved.message
        return out

    async def delete(self, kind: CodeKind, item_id: str) -> DeletedCode:
        """Refuse code in use (as the hub's editor does), back up the source, then delete."""
        await self._code.refuse_if_in_use(kind, item_id)
        current = await self.get_source(kind, item_id)
        backup = await self._backup_source(current, "before delete", series=False)
        await self._code.delete(kind, item_id)
        return {"id": item_id, "name": current.name, "item_backup": backup}

    async def restore(self, file: str) -> RestoredCode:
        """Put a code backup back; the current source is backed up first; undone on failure."""
        doc = await self.backups.read(file)
        kind = doc.get("kind")
        source = doc.get("source")
        item_id = str(doc.get("id") or "")
        if kind not in CODE_KINDS or not isinstance(source, str) or not item_id:
            raise ToolError(
                f"Backup {file} is not a code backup (type {kind!r}); nothing was changed.",
                hint="Code backups have type app, driver or library.",
            )
        try:
            current: CodeSource | None = await self.get_source(kind, item_id)
        except HubNotFoundError:
            current = None
        if current is None:  # deleted since: install it again as new code
            saved = await self._code.install(kind, source)
            return {
                "restored_as_new": True,
                "id": saved.id,
                "version": saved.version,
                "note": f"{kind} {item_id} no longer existed; the backup was installed as "
                f"new code with id {saved.id}.",
            }
        if current.source == source:
            return {"id": item_id, "version": current.version, "unchanged": True}
        pre = await self._backup_source(current, f"before restore of {file}", series=False)
        try:
            saved = await self._code.save(kind, item_id, source, current.version)
        except HubError:
            await self._put_back(current)
            raise
        return {
            "id": saved.id,
            "previous_version": current.version,
            "version": saved.version,
            "item_backup": pre,
        }

    async def _put_back(self, original: CodeSource) -> None:
        """After a failed restore: make sure the hub still has the original source."""
        try:
            now = await self.get_source(original.kind, original.id)
        except HubError:
            return
        if now.source != original.source:
            await self._code.save(original.kind, original.id, original.source, now.version)

    # ------------------------------------------------------------------ bundles

    async def list_bundles(self) -> list[dict[str, Any]]:
        """Installed bundles."""
        return cast(list[dict[str, Any]], await self._code.bundles())

    async def install_bundle(self, url: str, *, private: bool) -> InstalledBundles:
        """Back up every user code item, then have the hub download and install a bundle.

        The hub overwrites code with the same names as the bundle's without asking, and
        which names a bundle holds is only known once the hub has it, so every item is
        saved first (an edit series within the hour reuses its backup).
        """
        before = {b["id"] for b in await self._code.bundles()}
        saved = await self._backup_all("before bundle install")
        await self._code.install_bundle(url, private=private)
        after = await self.list_bundles()
        return {
            "installed": [b for b in after if b["id"] not in before],
            "item_backups": saved,
        }

    async def _backup_all(self, reason: str) -> list[SavedBackup]:
        """Save the source of every user code item as an item backup (one by one)."""
        items = await self.list_code(None, None)
        saved: list[SavedBackup] = []
        for item in items:
            current = await self.get_source(item["type"], str(item["id"]))
            saved.append(await self._backup_source(current, reason, series=True))
        return saved

    async def _bundle(self, bundle_id: str) -> dict[str, Any]:
        """The installed bundle with this id (HubNotFoundError if none)."""
        bundles = {b["id"]: b for b in await self.list_bundles()}
        if bundle_id not in bundles:
            raise HubNotFoundError(f"No bundle with id {bundle_id}", subject="bundle")
        return bundles[bundle_id]

    async def delete_bundle(self, bundle_id: str) -> DeletedBundle:
        """Delete a bundle container (the hub's list confirms it is gone)."""
        bundle = await self._bundle(bundle_id)
        await self._code.delete_bundle(bundle_id)
        return {"deleted": bundle}

    async def export_bundle(
        self, bundle_id: str, file_name: str | None, *, overwrite: bool
    ) -> ExportedBundle:
        """Save a bundle's .zip into the File Manager."""
        bundle = await self._bundle(bundle_id)
        name = file_name or f"{bundle['name']}.zip"
        if not name.endswith(".zip"):
            name += ".zip"
        if not valid_file_name(name):
            raise ToolError(
                f"'{name}' is not a valid File Manager name (letters, digits, . _ - only)."
            )
        if not overwrite and name in {f.name for f in await self._hub_files.list()}:
            raise ToolError(
                f"{name} already exists in the File Manager. Nothing was written.",
                hint="Pass another file_name, or overwrite=true.",
            )
        data = await self._code.export_bundle(bundle_id)
        written = await self._files.put(name, data)  # an existing file is copied first
        out: ExportedBundle = {"bundle_id": bundle_id, "file": name, "size": len(data)}
        if "backup_file" in written:
            out["replaced_file_backup"] = written["backup_file"]
        return out
