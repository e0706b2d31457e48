"""Code tools: apps/drivers/libraries code, item backups, bundles."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..hub.code import CodeKind
from ..hub.errors import HubError
from ..managers.code import DEFAULT_PAGE, MAX_PAGE, page_text
from ..managers.code_sources import CodeItemSpec, SourceSpec, UrlCheck, item_error
from ..safety import (
    CODE_CONFIRM_DESC,
    CODE_TIER_NOTE,
    ToolKind,
    check_code_tier,
    check_code_url,
)
from .args import ToolArgs, arg, match, numeric_id
from .base import HubTool, ToolCall, on_hub
from .errors import advise_items
from .paging import cursor_arg, limit_arg, paginate

TOOL_DOMAIN = "code"

CODE_TYPE = vol.In(["app", "driver", "library"])
CODE_ID = numeric_id("id")
SOURCE = vol.All(str, vol.Length(min=1, max=1_000_000))
BACKUP_NAME = vol.All(str, vol.Length(min=1, max=128))
OFFSET = vol.All(int, vol.Range(min=0))
LENGTH = vol.All(int, vol.Range(min=1000, max=MAX_PAGE))
TYPE_DESC = "app, driver or library"
ID_DESC = "Code id (from hub_list_code)"
ITEM_BACKUP_DESC = "Backup file name from hub_list_item_backups"
URL = vol.All(str, match(r"^https?://\S+$", msg="url must be an http(s) URL"), vol.Length(max=2000))
FILE_NAME = vol.All(str, vol.Length(min=1, max=128))
VERSION = vol.All(int, vol.Range(min=0))
MAX_ITEMS = 10
URL_DESC = "https link to the raw source (fetched by this integration)"
FILE_DESC = "File Manager file holding the source"
_SOURCES = {
    vol.Optional("source"): SOURCE,
    vol.Optional("source_url"): URL,
    vol.Optional("file_name"): FILE_NAME,
}
INSTALL_ITEM = vol.Schema({vol.Optional("type"): CODE_TYPE, **_SOURCES})
UPDATE_ITEM = vol.Schema(
    {
        vol.Optional("type"): CODE_TYPE,
        vol.Required("id"): CODE_ID,
        **_SOURCES,
        vol.Optional("expected_version"): VERSION,
    }
)
ITEMS_DESC = "Several items instead (each one source); type defaults to the top-level type"


def _advised(batch: dict[str, Any]) -> dict[str, Any]:
    """A code batch's answer with each failed item's advice (see ``advise_items``)."""
    advise_items(batch.get("results"))
    return batch


def url_check(call: ToolCall) -> UrlCheck:
    """Every URL a source comes from (and each redirect) passes the code URL check."""

    async def check(url: str) -> None:
        try:
            await check_code_url(call.runtime, url)
        except ToolError as err:  # the same rule; here the integration is the one fetching
            message = str(err).replace("The hub is not asked to download", "Not downloading")
            raise ToolError(message, code=err.code, hint=err.hint) from None

    return check


def spec_of(entry: dict[str, Any]) -> SourceSpec:
    return SourceSpec(entry.get("source"), entry.get("source_url"), entry.get("file_name"))


def batch_items(
    items: list[dict[str, Any]], kind: CodeKind | None, *, update: bool
) -> list[CodeItemSpec]:
    """The items form: each entry's type (or the top-level one), id, source, version."""
    out = []
    for n, entry in enumerate(items):
        item_kind = entry.get("type") or kind
        if item_kind is None:
            raise ToolError(f"items[{n}] has no type and no top-level type is given.")
        out.append(
            CodeItemSpec(
                item_kind,
                str(entry["id"]) if update else None,
                spec_of(entry),
                entry.get("expected_version"),
            )
        )
    return out


def refuse_mixed(items: list[Any] | None, single: dict[str, Any]) -> None:
    """The items form takes no single-item fields besides type."""
    if items is None:
        return
    extra = [k for k, v in single.items() if v is not None]
    if extra:
        raise ToolError(
            f"items cannot be combined with {', '.join(extra)}: put them inside each item."
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class ListCodeArgs(ToolArgs):
    type: CodeKind | None = arg(CODE_TYPE, "app, driver or library; omit for all")
    text: str | None = arg(str, "Part of the name or namespace, or an exact id")
    builtin: bool = arg(
        bool, "Add the built-in driver types (ids for hub_create_device)", default=False
    )
    limit: int = limit_arg(default=200, maximum=500)
    cursor: str | None = cursor_arg()


class ListCodeTool(HubTool[ListCodeArgs]):
    name = "hub_list_code"
    covers = (
        on_hub("hub_list_apps"),
        on_hub("hub_list_drivers", "type=driver, builtin=true"),
        on_hub("hub_list_libraries", "type=library"),
    )
    title = "List apps, drivers and libraries code"
    description = (
        "List the user code installed on the hub (Apps Code, Drivers Code, Libraries Code): "
        "type, id, name, namespace, version (libraries), last modified and what uses it "
        "(installed apps, devices, or for libraries the apps/drivers that #include them). "
        "Filter by type and text. Read a source with hub_get_code. Built-in Hubitat apps and "
        "drivers have no readable source; builtin=true adds the built-in driver types "
        "(builtin: true, no source). Running app instances are in hub_list_apps."
    )

    async def run(self, call: ToolCall, args: ListCodeArgs) -> dict[str, Any]:
        items = await call.hub.code.list_code(args.type, args.text, builtin=args.builtin)
        return paginate(items, args, key="code", default_limit=200)


@dataclass(frozen=True, slots=True, kw_only=True)
class CodeRefArgs(ToolArgs):
    type: CodeKind = arg(CODE_TYPE, TYPE_DESC, required=True)
    id: str = arg(CODE_ID, ID_DESC, required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class GetCodeArgs(CodeRefArgs):
    offset: int = arg(OFFSET, "Character offset to start at", default=0)
    length: int = arg(LENGTH, f"Characters per page (max {MAX_PAGE})", default=DEFAULT_PAGE)


class GetCodeTool(HubTool[GetCodeArgs]):
    name = "hub_get_code"
    covers = (
        on_hub("hub_get_source"),
        on_hub("hub_update_app"),
    )
    hub_text = ("source",)
    title = "Get code source"
    description = (
        "Read the Groovy source and current version of one app, driver or library. Large "
        "sources come in pages: the answer has total_chars and next_offset; call again with "
        "offset=next_offset until next_offset is null. Keep the version: pass it as "
        "expected_version to hub_update_code so a concurrent edit is detected. Apps: "
        "oauth {enabled, client_id} (the secret is never shown)."
    )

    async def run(self, call: ToolCall, args: GetCodeArgs) -> dict[str, Any]:
        src = await call.hub.code.get_source(args.type, args.id)
        page = page_text(src.source, args.offset, args.length)
        source = page.pop("text")
        out: dict[str, Any] = {
            "type": src.kind,
            "id": src.id,
            "name": src.name,
            "version": src.version,
        }
        if src.kind == "app" and args.offset == 0:
            # the source was read; OAuth is extra (left out when the hub cannot say)
            with contextlib.suppress(HubError):
                out["oauth"] = (await call.hub.code.get_oauth(src.id)).as_dict()
        return {**out, **page, "source": source}


@dataclass(frozen=True, slots=True, kw_only=True)
class InstallCodeArgs(ToolArgs):
    type: CodeKind | None = arg(CODE_TYPE, TYPE_DESC)
    source: str | None = arg(SOURCE, "The complete Groovy source")
    source_url: str | None = arg(URL, URL_DESC)
    file_name: str | None = arg(FILE_NAME, FILE_DESC)
    items: list[dict[str, Any]] | None = arg(
        vol.All([INSTALL_ITEM], vol.Length(min=1, max=MAX_ITEMS)), ITEMS_DESC
    )
    confirm: bool = arg(bool, CODE_CONFIRM_DESC, default=False)


class InstallCodeTool(HubTool[InstallCodeArgs]):
    name = "hub_install_code"
    covers = (
        on_hub("hub_create_app", "type=app"),
        on_hub("hub_create_driver", "type=driver"),
        on_hub("hub_create_library", "type=library"),
    )
    title = "Install new code"
    description = (
        "Install NEW app, driver or library code (the hub compiles it) from one of: source "
        "(Groovy text), source_url (raw link, like the editor's Import), file_name (File "
        "Manager). items: several at once, all checked first, then one result each. "
        "On a compile error nothing is installed and the hub's compiler message comes back "
        "verbatim with the line number: fix that line and call again. To change existing "
        "code use hub_update_code; to run an app after installing its code, add it in the "
        "hub UI (Apps > Add User App). " + CODE_TIER_NOTE
    )
    kind = ToolKind.WRITE
    idempotent = False
    open_world = True

    async def run(self, call: ToolCall, args: InstallCodeArgs) -> dict[str, Any]:
        single = {"source": args.source, "source_url": args.source_url, "file_name": args.file_name}
        refuse_mixed(args.items, single)
        if args.items is not None:
            check_code_tier(args.confirm, f"Installing {len(args.items)} code items")
            items = batch_items(args.items, args.type, update=False)
            return _advised(await call.hub.code.save_items(items, url_check(call)))
        if args.type is None:
            raise ToolError("type is required (app, driver or library), or use items.")
        check_code_tier(args.confirm, f"Installing new {args.type} code")
        spec = spec_of(single)
        text = await call.hub.code.source_text(spec, url_check(call))
        result = await call.hub.code.install(args.type, text)
        return {
            "summary": f"Installed new {args.type} code with id {result['id']}",
            "type": args.type,
            **result,
            **spec.origin(),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateCodeArgs(ToolArgs):
    type: CodeKind | None = arg(CODE_TYPE, TYPE_DESC)
    id: str | None = arg(CODE_ID, ID_DESC)
    source: str | None = arg(SOURCE, "The complete new Groovy source")
    source_url: str | None = arg(URL, URL_DESC)
    file_name: str | None = arg(FILE_NAME, FILE_DESC)
    expected_version: int | None = arg(VERSION, "The version you read with hub_get_code")
    oauth: bool | None = arg(bool, "Apps: true enables OAuth (answer: client_id), false disables")
    resave: bool = arg(bool, "Save the current source again, unchanged", default=False)
    update_instances: bool = arg(
        bool,
        "Apps: press Done on each installed app running it",
        default=False,
    )
    items: list[dict[str, Any]] | None = arg(
        vol.All([UPDATE_ITEM], vol.Length(min=1, max=MAX_ITEMS)), ITEMS_DESC
    )
    confirm: bool = arg(bool, CODE_CONFIRM_DESC, default=False)


class UpdateCodeTool(HubTool[UpdateCodeArgs]):
    name = "hub_update_code"
    covers = (
        on_hub("hub_update_app"),
        on_hub("hub_update_driver"),
        on_hub("hub_update_library"),
    )
    title = "Update code"
    description = (
        "Replace the source of an existing app, driver or library (the whole source) from "
        "one of source, source_url or file_name (as hub_install_code). The "
        "current source is first saved as an item backup (hub_restore_item_backup puts it "
        "back). Pass expected_version (from hub_get_code) to refuse the "
        "save if the code changed since you read it; the hub also rejects stale versions: "
        "error version_conflict. Compile errors come back verbatim with the line number and "
        "leave the old code running. oauth alone (no source) only changes OAuth. "
        "resave: save the current source again. update_instances (apps): press Done on each "
        "installed app running it (runs updated()). items: "
        "several updates, all checked first, one result each. " + CODE_TIER_NOTE
    )
    kind = ToolKind.WRITE
    open_world = True

    async def run(self, call: ToolCall, args: UpdateCodeArgs) -> dict[str, Any]:
        single = {"source": args.source, "source_url": args.source_url, "file_name": args.file_name}
        refuse_mixed(
            args.items,
            {
                **single,
                "id": args.id,
                "expected_version": args.expected_version,
                "oauth": args.oauth,
                "resave": args.resave or None,
                "update_instances": args.update_instances or None,
            },
        )
        if args.items is not None:
            check_code_tier(args.confirm, f"Updating {len(args.items)} code items")
            items = batch_items(args.items, args.type, update=True)
            return _advised(await call.hub.code.save_items(items, url_check(call)))
        if args.type is None or args.id is None:
            raise ToolError("type and id are required (or use items).")
        spec = spec_of(single)
        if args.oauth is not None and args.type != "app":
            raise ToolError("oauth applies to app code only. Nothing was changed.")
        if args.update_instances and args.type != "app":
            raise ToolError(
                "update_instances applies to app code only (drivers and libraries have no "
                "installed apps to press Done on). Nothing was changed."
            )
        if args.resave and spec.given():
            raise ToolError(
                "resave saves the current source again: it takes no source, source_url or "
                "file_name. Nothing was changed.",
                hint="To save a new source, leave resave out.",
            )
        saving = bool(spec.given()) or args.resave
        if args.oauth is not None and not saving and not args.update_instances:
            return await self._oauth_only(call, args.id, args.oauth, args.confirm)
        if not saving and not args.update_instances:
            raise ToolError(
                "Nothing to do: give a new source (source, source_url or file_name), "
                "resave=true, update_instances=true or oauth.",
            )
        what = (
            f"Replacing the source of {args.type} {args.id}"
            if spec.given()
            else f"Re-saving {args.type} {args.id}"
            if args.resave
            else f"Pressing Done on the apps running app code {args.id}"
        )
        check_code_tier(args.confirm, what)
        instances: list[tuple[str, str]] = []
        if args.update_instances:  # gated before anything is sent
            instances = await call.hub.code_instances.instances(args.id)
            await call.hub.code_instances.gate(
                instances,
                confirm=args.confirm,
                device_allowed=call.device_allowed,
                what=f"Pressing Done on the apps running app code {args.id} (they run updated())",
            )
        out: dict[str, Any] = {"type": args.type, "id": args.id}
        summary: list[str] = []
        if saving:
            if args.resave:
                result = await call.hub.code.resave(args.type, args.id, args.expected_version)
            else:
                text = await call.hub.code.source_text(spec, url_check(call))
                result = await call.hub.code.update(args.type, args.id, text, args.expected_version)
            if result.get("unchanged"):
                summary.append(f"{args.type} {args.id} already has this source; nothing saved")
            else:
                verb = "Re-saved" if args.resave else "Saved"
                summary.append(
                    f"{verb} {args.type} {args.id} ({result['name']}): version "
                    f"{result['previous_version']} -> {result['version']}"
                )
            out |= {**result, **spec.origin()}
            if args.resave:
                out["resaved"] = True
        if args.oauth is not None:  # the source is saved; OAuth is a step of its own
            try:
                out["oauth"] = (await call.hub.code.set_oauth(args.id, args.oauth)).as_dict()
            except (ToolError, HubError) as err:
                out["oauth"] = {"failed": True, **item_error(err)}
                advise_items([out["oauth"]])
                summary.append("the OAuth change FAILED (see oauth)")
        if args.update_instances:
            results = await call.hub.code_instances.press_all(instances)
            advise_items(results)
            done = sum(1 for r in results if r["status"] == "updated")
            out["instances"] = results
            summary.append(
                f"Done pressed on {done} of {len(results)} installed apps running it"
                if results
                else "no installed app runs this code (nothing to press Done on)"
            )
            if failed := sum(1 for r in results if r["status"] == "failed"):
                out["instances_failed"] = failed
        out["summary"] = "; ".join(summary)
        return out

    async def _oauth_only(
        self, call: ToolCall, app_id: str, enabled: bool, confirm: bool
    ) -> dict[str, Any]:
        verb = "Enabling" if enabled else "Disabling"
        check_code_tier(confirm, f"{verb} OAuth for app code {app_id}")
        state = await call.hub.code.set_oauth(app_id, enabled)
        said = f"on (client id {state.client_id})" if state.enabled else "off"
        return {
            "summary": f"OAuth for app code {app_id} is {said}; the client secret is not shown",
            "type": "app",
            "id": app_id,
            "oauth": state.as_dict(),
        }


class DeleteCodeTool(HubTool[CodeRefArgs]):
    name = "hub_delete_code"
    covers = (on_hub("hub_delete_item"),)
    title = "Delete code"
    description = (
        "Permanently delete app, driver or library code from the hub. The source is saved "
        "as an item backup in the File Manager first (restore with hub_restore_item_backup). "
        "The hub refuses while installed apps or devices use the code: remove those first."
    )
    kind = ToolKind.DESTRUCTIVE

    async def run(self, call: ToolCall, args: CodeRefArgs) -> dict[str, Any]:
        result = await call.hub.code.delete(args.type, args.id)
        return {
            "summary": f"Deleted {args.type} {args.id} ({result['name']}); backup "
            f"{result['item_backup']['backup']}",
            "type": args.type,
            **result,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ListItemBackupsArgs(ToolArgs):
    type: str | None = arg(
        vol.All(str, match(r"^[a-z]+$")),
        "app, driver, library, installedapp, visualrule or dashboard",
    )
    id: str | None = arg(CODE_ID, "Item id")
    limit: int = limit_arg(default=100, maximum=500)
    cursor: str | None = cursor_arg()


class ListItemBackupsTool(HubTool[ListItemBackupsArgs]):
    name = "hub_list_item_backups"
    covers = (on_hub("hub_list_backups"),)
    title = "List item backups"
    description = (
        "List the item backups this integration keeps in the hub's File Manager: snapshots "
        "of code (app/driver/library), installed apps, Visual Rules and dashboards taken "
        "before every update, delete or restore. Newest first. Read one with "
        "hub_get_item_backup, put code back with hub_restore_item_backup. Whole-hub database "
        "backups are a different thing (hub_create_backup)."
    )

    async def run(self, call: ToolCall, args: ListItemBackupsArgs) -> dict[str, Any]:
        refs = await call.hub.code.backups.list(args.type, args.id)
        return paginate([r.as_dict() for r in refs], args, key="backups")


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemBackupArgs(ToolArgs):
    backup: str = arg(BACKUP_NAME, ITEM_BACKUP_DESC, required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class GetItemBackupArgs(ItemBackupArgs):
    offset: int = arg(OFFSET, "Source character offset", default=0)
    length: int = arg(LENGTH, "Characters per page", default=DEFAULT_PAGE)


class GetItemBackupTool(HubTool[GetItemBackupArgs]):
    name = "hub_get_item_backup"
    covers = (on_hub("hub_get_backup"),)
    hub_text = ("source", "definition", "config", "settings", "state", "native_export")
    title = "Get item backup"
    description = (
        "Read one item backup (from hub_list_item_backups): what it is, when and why it was "
        "taken, and its content; a code backup's source is paged like hub_get_code "
        "(offset/length, next_offset)."
    )

    async def run(self, call: ToolCall, args: GetItemBackupArgs) -> dict[str, Any]:
        doc = await call.hub.code.backups.read(args.backup)
        out: dict[str, Any] = {"backup": args.backup}
        source = doc.pop("source", None)
        # an app's, rule's or dashboard's copy names its devices as the item does: those
        # outside the allowlist are left out (a code item's source is code, left as it is)
        screen = await call.hub.devices.screen(call.device_allowed)
        out.update(screen.answer(doc, keyed_maps=True))
        if isinstance(source, str):
            page = page_text(source, args.offset, args.length)
            out.update({k: v for k, v in page.items() if k != "text"})
            out["source"] = page["text"]
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class RestoreItemBackupArgs(ItemBackupArgs):
    confirm: bool = arg(bool, CODE_CONFIRM_DESC, default=False)


class RestoreItemBackupTool(HubTool[RestoreItemBackupArgs]):
    name = "hub_restore_item_backup"
    covers = (on_hub("hub_restore_backup"),)
    title = "Restore code from an item backup"
    description = (
        "Put an app, driver or library code backup (from hub_list_item_backups) back on the "
        "hub. The current source is backed up first; if the hub refuses the restore, the "
        "original is put back. Code deleted since is installed again as new code (new id). "
        "A deleted classic app (Rule Machine rules included) comes back with hub_import_app "
        "from_backup=<backup>; Visual Rule and dashboard snapshots are for reading and "
        "re-creating by hand. " + CODE_TIER_NOTE
    )
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: RestoreItemBackupArgs) -> dict[str, Any]:
        check_code_tier(args.confirm, f"Restoring {args.backup}")
        result = await call.hub.code.restore(args.backup)
        if result.get("unchanged"):
            summary = "The hub already has this source; nothing restored"
        elif result.get("restored_as_new"):
            summary = str(result["note"])
        else:
            summary = (
                f"Restored {args.backup}: version {result['previous_version']} -> "
                f"{result['version']}"
            )
        return {"summary": summary, **result}


class ListBundlesTool(HubTool[ToolArgs]):
    name = "hub_list_bundles"
    covers = (on_hub("hub_list_bundles"),)
    title = "List bundles"
    description = (
        "List installed code bundles (the Bundle Manager containers that HPM and bundle "
        "installs deliver code in): id, name, namespace, private, and the apps, drivers and "
        "libraries each contains. The code itself is in hub_list_code."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        bundles = await call.hub.code.list_bundles()
        return {"bundles": bundles, "count": len(bundles)}


@dataclass(frozen=True, slots=True, kw_only=True)
class InstallBundleArgs(ToolArgs):
    url: str = arg(
        vol.All(
            str,
            match(r"^https?://\S+$", msg="url must be an http(s) URL"),
            vol.Length(max=2000),
        ),
        "https URL of the bundle .zip",
        required=True,
    )
    private: bool = arg(bool, "Install as a private bundle", default=False)
    confirm: bool = arg(bool, CODE_CONFIRM_DESC, default=False)


class InstallBundleTool(HubTool[InstallBundleArgs]):
    name = "hub_install_bundle"
    covers = (on_hub("hub_install_bundle"),)
    title = "Install bundle from URL"
    description = (
        "Have the hub download a bundle .zip from a URL and install its apps, drivers and "
        "libraries (the way HPM does). The HUB fetches the URL: https on a public host "
        "only (local addresses need an admin option); only use URLs the user gave or "
        "trusts. The hub overwrites existing code with the same names, so every user code "
        "item is saved as an item backup first (hub_restore_item_backup). " + CODE_TIER_NOTE
    )
    kind = ToolKind.WRITE
    idempotent = False
    open_world = True

    async def run(self, call: ToolCall, args: InstallBundleArgs) -> dict[str, Any]:
        check_code_tier(args.confirm, f"Installing the bundle {args.url}")
        await check_code_url(call.runtime, args.url)
        result = await call.hub.code.install_bundle(args.url, private=args.private)
        names = ", ".join(str(b["name"]) for b in result["installed"]) or "no new bundle listed"
        return {"summary": f"Installed bundle from {args.url}: {names}", **result}


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteBundleArgs(ToolArgs):
    bundle_id: str = arg(CODE_ID, "Bundle id", required=True)


class DeleteBundleTool(HubTool[DeleteBundleArgs]):
    name = "hub_delete_bundle"
    covers = (on_hub("hub_delete_bundle"),)
    title = "Delete bundle"
    description = (
        "Delete an installed bundle container by id (from hub_list_bundles); verified by "
        "listing again. The code it delivered may stay in Apps/Drivers/Libraries Code: "
        "delete that separately with hub_delete_code."
    )
    kind = ToolKind.DESTRUCTIVE

    async def run(self, call: ToolCall, args: DeleteBundleArgs) -> dict[str, Any]:
        result = await call.hub.code.delete_bundle(args.bundle_id)
        return {"summary": f"Deleted bundle {args.bundle_id}", **result}


@dataclass(frozen=True, slots=True, kw_only=True)
class ExportBundleArgs(ToolArgs):
    bundle_id: str = arg(CODE_ID, "Bundle id (from hub_list_bundles)", required=True)
    file_name: str | None = arg(
        vol.All(str, vol.Length(min=1, max=120)), "File name; default <bundle name>.zip"
    )
    overwrite: bool = arg(bool, "Replace an existing file", default=False)


class ExportBundleTool(HubTool[ExportBundleArgs]):
    name = "hub_export_bundle"
    covers = (on_hub("hub_export_bundle"),)
    title = "Export bundle to File Manager"
    description = (
        "Save an installed bundle's .zip (its apps, drivers and libraries) into the hub's "
        "File Manager, e.g. before deleting it; downloadable at /local/<file>. Refuses to "
        "overwrite an existing file unless overwrite=true (then it is first copied to "
        "<name>_backup_<timestamp>.zip)."
    )
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: ExportBundleArgs) -> dict[str, Any]:
        result = await call.hub.code.export_bundle(
            args.bundle_id, args.file_name, overwrite=args.overwrite
        )
        return {
            "summary": f"Exported bundle {args.bundle_id} to {result['file']} "
            f"({result['size']} bytes)",
            **result,
        }


ORDER = 60

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListCodeTool,
    GetCodeTool,
    InstallCodeTool,
    UpdateCodeTool,
    DeleteCodeTool,
    ListItemBackupsTool,
    GetItemBackupTool,
    RestoreItemBackupTool,
    ListBundlesTool,
    InstallBundleTool,
    DeleteBundleTool,
    ExportBundleTool,
)
