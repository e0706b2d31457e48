"""Code tools: apps/drivers/libraries code, item backups, bundles."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..managers.code import DEFAULT_PAGE, MAX_PAGE, CodeManager, page_text
from ..safety import ToolKind
from .args import ascii_re
from .base import HubTool, ToolCall
from .paging import paginate, paging_fields

CODE_TYPE = vol.In(["app", "driver", "library"])
CODE_ID = vol.All(vol.Coerce(str), vol.Match(ascii_re(r"^\d+$"), msg="id must be a numeric id"))
SOURCE = vol.All(str, vol.Length(min=1, max=1_000_000))
BACKUP_NAME = vol.All(str, vol.Length(min=1, max=128))
OFFSET = vol.All(int, vol.Range(min=0))
LENGTH = vol.All(int, vol.Range(min=1000, max=MAX_PAGE))


def _manager(call: ToolCall) -> CodeManager:
    return call.hub.code


class ListCodeTool(HubTool):
    """hub_list_code."""

    name = "hub_list_code"
    title = "List apps, drivers and libraries code"
    description = (
        "List the user code installed on the hub (Apps Code, Drivers Code, Libraries Code): "
        "type, id, name, namespace, version (libraries), last modified and what uses it "
        "(installed apps, devices, or for libraries the apps/drivers that #include them). "
        "Filter by type and text. Read a source with hub_get_code. Built-in Hubitat apps and "
        "drivers have no readable source and are not listed; running app instances are in "
        "hub_list_apps."
    )
    domain = "code"
    fields = {
        vol.Optional("type", description="app, driver or library; omit for all"): CODE_TYPE,
        vol.Optional("text", description="Part of the name or namespace, or an exact id"): str,
        **paging_fields(default_limit=200, max_limit=500),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the code items."""
        items = await _manager(call).list_code(args.get("type"), args.get("text"))
        return paginate(items, args, key="code", default_limit=200)


class GetCodeTool(HubTool):
    """hub_get_code."""

    name = "hub_get_code"
    title = "Get code source"
    description = (
        "Read the Groovy source and current version of one app, driver or library. Large "
        "sources come in pages: the answer has total_chars and next_offset; call again with "
        "offset=next_offset until next_offset is null. Keep the version: pass it as "
        "expected_version to hub_update_code so a concurrent edit is detected."
    )
    domain = "code"
    fields = {
        vol.Required("type", description="app, driver or library"): CODE_TYPE,
        vol.Required("id", description="Code id (from hub_list_code)"): CODE_ID,
        vol.Optional("offset", default=0, description="Character offset to start at"): OFFSET,
        vol.Optional(
            "length", default=DEFAULT_PAGE, description=f"Characters per page (max {MAX_PAGE})"
        ): LENGTH,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return one page of the source."""
        src = await _manager(call).get_source(args["type"], args["id"])
        page = page_text(src.source, args["offset"], args["length"])
        source = page.pop("text")
        return {
            "type": src.kind,
            "id": src.id,
            "name": src.name,
            "version": src.version,
            **page,
            "source": source,
        }


class InstallCodeTool(HubTool):
    """hub_install_code."""

    name = "hub_install_code"
    title = "Install new code"
    description = (
        "Install NEW app, driver or library code from Groovy source (the hub compiles it). "
        "On a compile error nothing is installed and the hub's compiler message comes back "
        "verbatim with the line number: fix that line and call again. To change existing "
        "code use hub_update_code; to run an app after installing its code, add it in the "
        "hub UI (Apps > Add User App)."
    )
    domain = "code"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("type", description="app, driver or library"): CODE_TYPE,
        vol.Required("source", description="The complete Groovy source"): SOURCE,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Install and report the new id."""
        result = await _manager(call).install(args["type"], args["source"])
        return {
            "summary": f"Installed new {args['type']} code with id {result['id']}",
            "type": args["type"],
            **result,
        }


class UpdateCodeTool(HubTool):
    """hub_update_code."""

    name = "hub_update_code"
    title = "Update code"
    description = (
        "Replace the source of an existing app, driver or library (the whole source). The "
        "current source is first saved as an item backup in the hub's File Manager (the "
        "pre-edit original is kept across a series of edits within an hour; restore it with "
        "hub_restore_item_backup). Pass expected_version (from hub_get_code) to refuse the "
        "save if the code changed since you read it; the hub also rejects stale versions: "
        "error version_conflict. Compile errors come back verbatim with the line number and "
        "leave the old code running."
    )
    domain = "code"
    kind = ToolKind.WRITE
    fields = {
        vol.Required("type", description="app, driver or library"): CODE_TYPE,
        vol.Required("id", description="Code id (from hub_list_code)"): CODE_ID,
        vol.Required("source", description="The complete new Groovy source"): SOURCE,
        vol.Optional(
            "expected_version", description="The version you read with hub_get_code"
        ): vol.All(int, vol.Range(min=0)),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Back up and save."""
        result = await _manager(call).update(
            args["type"], args["id"], args["source"], args.get("expected_version")
        )
        if result.get("unchanged"):
            summary = f"{args['type']} {args['id']} already has this source; nothing saved"
        else:
            summary = (
                f"Saved {args['type']} {args['id']} ({result['name']}): version "
                f"{result['previous_version']} -> {result['version']}"
            )
        return {"summary": summary, "type": args["type"], **result}


class DeleteCodeTool(HubTool):
    """hub_delete_code."""

    name = "hub_delete_code"
    title = "Delete code"
    description = (
        "Permanently delete app, driver or library code from the hub. The source is saved "
        "as an item backup in the File Manager first (restore with hub_restore_item_backup). "
        "The hub refuses while installed apps or devices use the code: remove those first. "
        "Destructive: needs confirm=true and a hub backup from the last 24 hours."
    )
    domain = "code"
    kind = ToolKind.DESTRUCTIVE
    fields = {
        vol.Required("type", description="app, driver or library"): CODE_TYPE,
        vol.Required("id", description="Code id (from hub_list_code)"): CODE_ID,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Back up and delete."""
        result = await _manager(call).delete(args["type"], args["id"])
        return {
            "summary": f"Deleted {args['type']} {args['id']} ({result['name']}); backup "
            f"{result['item_backup']['backup']}",
            "type": args["type"],
            **result,
        }


class ListItemBackupsTool(HubTool):
    """hub_list_item_backups."""

    name = "hub_list_item_backups"
    title = "List item backups"
    description = (
        "List the item backups this integration keeps in the hub's File Manager: snapshots "
        "of code (app/driver/library), installed apps, Visual Rules and dashboards taken "
        "before every update, delete or restore. Newest first. Read one with "
        "hub_get_item_backup, put code back with hub_restore_item_backup. Whole-hub database "
        "backups are a different thing (hub_create_backup)."
    )
    domain = "code"
    fields = {
        vol.Optional(
            "type", description="app, driver, library, installedapp, visualrule or dashboard"
        ): vol.All(str, vol.Match(r"^[a-z]+$")),
        vol.Optional("id", description="Item id"): CODE_ID,
        **paging_fields(default_limit=100, max_limit=500),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the backups."""
        refs = await _manager(call).backups.list(args.get("type"), args.get("id"))
        return paginate([r.as_dict() for r in refs], args, key="backups")


class GetItemBackupTool(HubTool):
    """hub_get_item_backup."""

    name = "hub_get_item_backup"
    title = "Get item backup"
    description = (
        "Read one item backup (from hub_list_item_backups): what it is, when and why it was "
        "taken, and its content; a code backup's source is paged like hub_get_code "
        "(offset/length, next_offset)."
    )
    domain = "code"
    fields = {
        vol.Required("backup", description="Backup file name from hub_list_item_backups"): (
            BACKUP_NAME
        ),
        vol.Optional("offset", default=0, description="Source character offset"): OFFSET,
        vol.Optional("length", default=DEFAULT_PAGE, description="Characters per page"): LENGTH,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the backup."""
        doc = await _manager(call).backups.read(args["backup"])
        out: dict[str, Any] = {"backup": args["backup"]}
        source = doc.pop("source", None)
        out.update(doc)
        if isinstance(source, str):
            page = page_text(source, args["offset"], args["length"])
            out.update({k: v for k, v in page.items() if k != "text"})
            out["source"] = page["text"]
        return out


class RestoreItemBackupTool(HubTool):
    """hub_restore_item_backup."""

    name = "hub_restore_item_backup"
    title = "Restore code from an item backup"
    description = (
        "Put an app, driver or library code backup (from hub_list_item_backups) back on the "
        "hub. The current source is backed up first; if the hub refuses the restore, the "
        "original is put back. Code deleted since is installed again as new code (new id). "
        "A deleted classic app (Rule Machine rules included) comes back with hub_import_app "
        "from_backup=<backup>; Visual Rule and dashboard snapshots are for reading and "
        "re-creating by hand."
    )
    domain = "code"
    kind = ToolKind.WRITE
    fields = {
        vol.Required("backup", description="Backup file name from hub_list_item_backups"): (
            BACKUP_NAME
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Restore."""
        result = await _manager(call).restore(args["backup"])
        if result.get("unchanged"):
            summary = "The hub already has this source; nothing restored"
        elif result.get("restored_as_new"):
            summary = str(result["note"])
        else:
            summary = (
                f"Restored {args['backup']}: version {result['previous_version']} -> "
                f"{result['version']}"
            )
        return {"summary": summary, **result}


class ListBundlesTool(HubTool):
    """hub_list_bundles."""

    name = "hub_list_bundles"
    title = "List bundles"
    description = (
        "List installed code bundles (the Bundle Manager containers that HPM and bundle "
        "installs deliver code in): id, name, namespace, private, and the apps, drivers and "
        "libraries each contains. The code itself is in hub_list_code."
    )
    domain = "code"

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the bundles."""
        bundles = await _manager(call).list_bundles()
        return {"bundles": bundles, "count": len(bundles)}


class InstallBundleTool(HubTool):
    """hub_install_bundle."""

    name = "hub_install_bundle"
    title = "Install bundle from URL"
    description = (
        "Have the hub download a bundle .zip from a URL and install its apps, drivers and "
        "libraries (the way HPM does). The HUB fetches the URL from the internet: only use "
        "URLs the user gave or trusts. Existing code with the same names is overwritten by "
        "the hub without an item backup; back it up with hub_get_code first if needed."
    )
    domain = "code"
    kind = ToolKind.WRITE
    idempotent = False
    open_world = True
    fields = {
        vol.Required("url", description="https URL of the bundle .zip"): vol.All(
            str,
            vol.Match(r"^https?://\S+$", msg="url must be an http(s) URL"),
            vol.Length(max=2000),
        ),
        vol.Optional("private", default=False, description="Install as a private bundle"): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Install and report the new bundles."""
        result = await _manager(call).install_bundle(args["url"], private=args["private"])
        names = ", ".join(str(b["name"]) for b in result["installed"]) or "no new bundle listed"
        return {"summary": f"Installed bundle from {args['url']}: {names}", **result}


class DeleteBundleTool(HubTool):
    """hub_delete_bundle."""

    name = "hub_delete_bundle"
    title = "Delete bundle"
    description = (
        "Delete an installed bundle container by id (from hub_list_bundles); verified by "
        "listing again. The code it delivered may stay in Apps/Drivers/Libraries Code: "
        "delete that separately with hub_delete_code. Destructive: needs confirm=true and a "
        "hub backup from the last 24 hours."
    )
    domain = "code"
    kind = ToolKind.DESTRUCTIVE
    fields = {vol.Required("bundle_id", description="Bundle id"): CODE_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Delete."""
        result = await _manager(call).delete_bundle(args["bundle_id"])
        return {"summary": f"Deleted bundle {args['bundle_id']}", **result}


class ExportBundleTool(HubTool):
    """hub_export_bundle."""

    name = "hub_export_bundle"
    title = "Export bundle to File Manager"
    description = (
        "Save an installed bundle's .zip (its apps, drivers and libraries) into the hub's "
        "File Manager, e.g. before deleting it; downloadable at /local/<file>. Refuses to "
        "overwrite an existing file unless overwrite=true."
    )
    domain = "code"
    kind = ToolKind.WRITE
    fields = {
        vol.Required("bundle_id", description="Bundle id (from hub_list_bundles)"): CODE_ID,
        vol.Optional("file_name", description="File name; default <bundle name>.zip"): vol.All(
            str, vol.Length(min=1, max=120)
        ),
        vol.Optional("overwrite", default=False, description="Replace an existing file"): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Export."""
        result = await _manager(call).export_bundle(
            args["bundle_id"], args.get("file_name"), overwrite=args["overwrite"]
        )
        return {
            "summary": f"Exported bundle {args['bundle_id']} to {result['file']} "
            f"({result['size']} bytes)",
            **result,
        }


ORDER = 60

TOOLS: tuple[type[HubTool], ...] = (
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
