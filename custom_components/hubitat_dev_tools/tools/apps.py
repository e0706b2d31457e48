"""Installed-app tools: tree, pages and state, settings editor, enable/disable, delete,
export/clone/import (App Cloner), HPM."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..safety import ToolKind
from .args import ToolArgs, arg, match, numeric_id
from .base import HubTool, ToolCall, connector, on_hub
from .code import BACKUP_NAME
from .errors import add_advice
from .files import file_name
from .paging import cursor_arg, limit_arg, paginate

TOOL_DOMAIN = "apps"

APP_ID = numeric_id("app_id")
NEW_NAME = vol.All(str, vol.Strip, vol.Length(min=1, max=200))
PAGE_NAME = vol.All(str, match(r"^[A-Za-z0-9_]{1,80}$", msg="page must be a page name"))
APPS = "Installed app id (from hub_list_apps)"


@dataclass(frozen=True, slots=True, kw_only=True)
class ListAppsArgs(ToolArgs):
    text: str | None = arg(str, "Part of the name or type, or an exact app id")
    kind: str = arg(
        vol.In(["all", "user", "builtin", "disabled", "parents"]),
        "all, user, builtin, disabled, parents",
        default="all",
    )
    device_id: str | None = arg(numeric_id("device_id"), "Only apps that use this device")
    include_hidden: bool = arg(bool, "Include hidden apps", default=False)
    limit: int = limit_arg(default=200, maximum=500)
    cursor: str | None = cursor_arg()
    scope: str = arg(
        vol.In(["instances", "types"]), "instances, or types one can add", default="instances"
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class GetAppArgs(ToolArgs):
    app_id: str = arg(APP_ID, APPS, required=True)
    page: str | None = arg(PAGE_NAME, "Config page name; omit for the main page")
    include_state: bool = arg(bool, "Include the app's state", default=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class SetAppDisabledArgs(ToolArgs):
    app_id: str = arg(APP_ID, "Installed app id", required=True)
    disabled: bool = arg(bool, "true to disable, false to enable", required=True)
    confirm: bool = arg(
        bool, "true to disable a safety app, or enable one that reaches locks etc.", default=False
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteAppArgs(ToolArgs):
    app_id: str = arg(APP_ID, "Installed app id", required=True)
    force: bool = arg(bool, "Hard delete (default)", default=True)


class ListAppsTool(HubTool[ListAppsArgs]):
    name = "hub_list_apps"
    covers = (
        on_hub("hub_list_apps"),
        on_hub("hub_list_device_dependents", "device_id"),
        connector("list_apps"),
    )
    title = "List installed apps"
    description = (
        "List installed (running) apps as a tree in tree order: app_id, name, type, "
        "parent_id, depth, disabled, user (community code) vs built-in. Filter by text, by "
        "kind (user, builtin, disabled, parents) or by device_id to find the apps that use a "
        "device. Rules are apps too; hub_list_rules adds their paused/stopped status. App "
        "code (the Groovy) is in hub_list_code. scope=types: the built-in and user app "
        "types one can add with hub_create_app (type_id, name, menu; text/kind filter)."
    )

    async def run(self, call: ToolCall, args: ListAppsArgs) -> dict[str, Any]:
        if args.scope == "types":
            if args.device_id is not None or args.kind not in ("all", "user", "builtin"):
                raise ToolError(
                    "scope=types filters by text and kind all, user or builtin only. Nothing "
                    "was sent.",
                    hint="Omit device_id (and kind disabled/parents) when listing types.",
                )
            types = await call.hub.app_create.types(text=args.text, kind=args.kind)
            return paginate(types, args, key="types", default_limit=200)
        apps = await call.hub.apps.list_apps(
            text=args.text,
            kind=args.kind,
            device_id=args.device_id,
            include_hidden=args.include_hidden,
        )
        return paginate(apps, args, key="apps", default_limit=200)


class GetAppTool(HubTool[GetAppArgs]):
    name = "hub_get_app"
    covers = (
        on_hub("hub_list_app_pages"),
        on_hub("hub_get_app_config"),
        on_hub("hub_set_rule", "raw page walk: page="),
    )
    hub_text = ("config_page", "settings", "state")
    title = "Get installed app"
    description = (
        "Read one installed app: its configuration page (sections with every input's type, "
        "title and current value, text, buttons and links to other pages), settings, child "
        "apps, and its internal state (state variables, event subscriptions, scheduled "
        "jobs). Multi-page apps: pass page= one of the page names listed under 'pages'. "
        "Very large values are cut. For a rule's health use hub_get_rule_health. A named "
        "page runs the app's code for that page and can change its state: such a read is "
        "audited as a change and needs the Write master on."
    )

    def writes(self, args: dict[str, Any]) -> bool:
        """Rendering a named page runs the app's page method, which can change its state."""
        page = args.get("page")
        return bool(page) and str(page).strip() not in ("mainPage", "main")

    async def run(self, call: ToolCall, args: GetAppArgs) -> dict[str, Any]:
        return await call.hub.apps.get_app(
            args.app_id,
            args.page,
            include_state=args.include_state,
            screen=await call.hub.devices.screen(call.device_allowed),
        )


class SetAppDisabledTool(HubTool[SetAppDisabledArgs]):
    name = "hub_set_app_disabled"
    acting = True
    covers = (
        on_hub("hub_set_app_disabled"),
        connector("hubitat_set_app_disabled"),
    )
    title = "Enable or disable app"
    description = (
        "Disable (disabled=true) or re-enable (disabled=false) an installed app or rule "
        "without deleting it; a disabled app does nothing until enabled. Verified by reading "
        "it back. To pause a rule while keeping it enabled use hub_set_rule_paused. "
        "Disabling HSM, Mode Manager or a Maker API, or enabling an app that reaches a lock, "
        "garage door, valve, siren, HSM, a file or an HTTP call, needs confirm=true."
    )
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: SetAppDisabledArgs) -> dict[str, Any]:
        if not args.disabled:
            await require_app_reach(
                call, [args.app_id], args.confirm, f"Enabling app {args.app_id}"
            )
        result = await call.hub.apps.set_disabled(args.app_id, args.disabled, confirm=args.confirm)
        verb = "disabled" if args.disabled else "enabled"
        note = " (already)" if result.get("unchanged") else ""
        return {"summary": f"App {args.app_id} ({result['name']}) {verb}{note}", **result}


class DeleteAppTool(HubTool[DeleteAppArgs]):
    name = "hub_delete_app"
    covers = (on_hub("hub_delete_native_app"),)
    title = "Delete installed app"
    description = (
        "Delete an installed app or rule (and its child apps). First its configuration, "
        "settings, state and (classic apps) the hub's App Cloner export are saved as an "
        "item backup in the File Manager; hub_import_app from_backup=<backup> re-creates "
        "it with a new id. force=true (default) removes it without the app's own "
        "uninstall prompts; force=false is the hub's soft delete. Built-in parent apps "
        "with children are refused. For Visual Rules prefer hub_delete_visual_rule."
    )
    kind = ToolKind.DESTRUCTIVE

    async def run(self, call: ToolCall, args: DeleteAppArgs) -> dict[str, Any]:
        result = await call.hub.apps.delete(args.app_id, force=args.force)
        kids = f" and {result['children_deleted']} child apps" if result["children_deleted"] else ""
        return {
            "summary": f"Deleted app {args.app_id} ({result['name']}){kids}; backup "
            f"{result['item_backup']['backup']}",
            **result,
        }


class ListHpmPackagesTool(HubTool[ToolArgs]):
    name = "hub_list_hpm_packages"
    covers = (on_hub("hub_list_hpm_packages"),)
    title = "List HPM packages"
    description = (
        "List the packages Hubitat Package Manager (HPM) tracks on this hub: name, version, "
        "beta, manifest URL, the apps and drivers each installed, and drift against the "
        "hub's user code (required parts never installed, code gone from the hub, and "
        "untracked_code: user code no package claims). Fails with not_found without HPM."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await call.hub.hpm.packages()


MAX_SETTINGS = 50
_SETTING_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,99}$")
BUTTON_NAME = vol.All(str, match(r"^[A-Za-z0-9_|.-]{1,120}$", msg="press must be a button name"))
STATE_ATTRIBUTE = vol.All(
    str, match(r"^[A-Za-z][A-Za-z0-9_]{0,40}$", msg="state_attribute must be a name")
)


def settings_map(value: Any) -> dict[str, Any]:
    """Schema validator: {input name: value}; values are text, numbers, booleans or lists."""
    if not isinstance(value, dict):
        raise vol.Invalid("settings must be an object of {input name: value}")
    if len(value) > MAX_SETTINGS:
        raise vol.Invalid(f"at most {MAX_SETTINGS} settings per call")
    for name, item in value.items():
        if not isinstance(name, str) or not _SETTING_NAME_RE.match(name):
            raise vol.Invalid(f"'{name}' is not an input name")
        items = item if isinstance(item, list) else [item]
        if len(items) > 200 or not all(
            isinstance(v, str | int | float | bool) and (not isinstance(v, str) or len(v) <= 10_000)
            for v in items
        ):
            raise vol.Invalid(f"{name}: give text, a number, true/false or a list of those")
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateAppSettingsArgs(ToolArgs):
    app_id: str = arg(APP_ID, APPS, required=True)
    page: str | None = arg(PAGE_NAME, "Config page name; omit for the main page")
    settings: dict[str, Any] | None = arg(vol.All(dict, settings_map), "{input name: value}")
    press: str | None = arg(BUTTON_NAME, "A button on the page to press afterwards")
    state_attribute: str | None = arg(
        STATE_ATTRIBUTE, "The press's stateAttribute (Rule Machine: moreCond, doActN...)"
    )
    sub_page: str | None = arg(
        PAGE_NAME, "Then go to this sub-page the page links to now (the link's params)"
    )
    confirm: bool = arg(
        bool,
        "true to edit HSM, Mode Manager or our Maker API, or add a lock/siren-like device",
        default=False,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ExportAppArgs(ToolArgs):
    app_id: str = arg(APP_ID, APPS, required=True)
    save_as: str | None = arg(file_name, "Save to this File Manager file instead")


@dataclass(frozen=True, slots=True, kw_only=True)
class CloneAppArgs(ToolArgs):
    app_id: str = arg(APP_ID, "Installed app id to copy", required=True)
    new_name: str | None = arg(NEW_NAME, "Name of the copy")
    enable: bool = arg(bool, "Leave the copy enabled", default=False)
    confirm: bool = arg(bool, "true to enable a copy that reaches locks etc.", default=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportAppArgs(ToolArgs):
    export: dict[str, Any] | str | None = arg(
        vol.Any(dict, vol.All(str, vol.Length(min=2, max=1_000_000))),
        "The export object (or its JSON text)",
    )
    from_file: str | None = arg(file_name, "File Manager file holding an export")
    from_backup: str | None = arg(BACKUP_NAME, "Item backup name from hub_delete_app")
    seed_app_id: str | None = arg(APP_ID, "An app under the target parent")
    new_name: str | None = arg(NEW_NAME, "Name of the new app")
    enable: bool = arg(bool, "Leave the new app enabled", default=False)
    allow_missing_devices: bool = arg(bool, "Import even if devices are gone", default=False)
    confirm: bool = arg(bool, "true to enable an app that reaches locks etc.", default=False)


class UpdateAppSettingsTool(HubTool[UpdateAppSettingsArgs]):
    name = "hub_update_app_settings"
    covers = (
        on_hub("hub_set_native_app"),
        on_hub("hub_set_rule", "raw page walk: settings, press with state_attribute, sub_page"),
        on_hub("hub_update_dashboard"),
    )
    title = "Update app settings"
    description = (
        "Edit a classic app or rule (Rule Machine, Room Lighting, Button Controller, user "
        "apps...) as its page does: set inputs on one page (settings={input name: value}), "
        "then optionally press a button of that page (e.g. updateRule/Done; Rule Machine's "
        "wizard buttons with state_attribute), then a linked sub-page "
        "(sub_page, e.g. periodic). Read the page "
        "first with hub_get_app: only inputs shown there can be set; values are checked "
        "against each input's type, options and the hub's devices before anything is sent "
        "(device inputs take ids, enums option keys). The answer shows the page after the "
        "change (new inputs it revealed) and not_applied what the hub did not keep. Backed "
        "up first (once per hour of edits). Visual Rules: hub_update_visual_rule."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: UpdateAppSettingsArgs) -> dict[str, Any]:
        settings = args.settings or {}
        if args.state_attribute and args.press is None:
            raise ToolError(
                "state_attribute goes with press (the button it is clicked with). Nothing was sent."
            )
        if not settings and args.press is None and args.sub_page is None:
            raise ToolError(
                "Give settings, press or sub_page (or several). Nothing was sent.",
                hint="hub_get_app shows the page's inputs and buttons.",
            )
        result = await call.hub.app_settings.update_settings(
            args.app_id,
            page=args.page,
            settings=settings,
            press=args.press,
            device_allowed=call.device_allowed,
            confirm=args.confirm,
            state_attribute=args.state_attribute,
            sub_page=args.sub_page,
        )
        done = f"set {len(result['applied'])} of {len(settings)}" if settings else ""
        pressed = f"pressed {result['pressed']}" if result.get("pressed") else ""
        opened = f"opened {result['opened']}" if result.get("opened") else ""
        return {
            "summary": f"App {args.app_id} ({result['name']}), page {result['page']}: "
            + ", ".join(p for p in (done, pressed, opened) if p),
            **result,
        }


def _cloner_advice(result: dict[str, Any]) -> None:
    """What to call about what an App Cloner operation left behind."""
    if result.get("still_enabled_app_ids"):
        add_advice(result, "warning", "Disable them with hub_set_app_disabled.")
    if result.get("cloner_left_behind"):
        add_advice(result, "warning", "Delete it with hub_delete_app.")


class ExportAppTool(HubTool[ExportAppArgs]):
    name = "hub_export_app"
    covers = (on_hub("hub_export_native_app"),)
    title = "Export installed app"
    description = (
        "Export a classic app or rule (Rule Machine, Room Lighting, Button Controller, "
        "Basic Rule, user apps, ...) with its child apps, settings and state, through the "
        "hub's own App Cloner: the document hub_import_app takes. Lists the apps and devices "
        "it holds. Large exports (over 60,000 characters) or save_as= are written to the "
        "File Manager instead of being returned. The hub briefly creates and removes a "
        "helper app. Visual Rules are not classic apps (use hub_get_visual_rule); a rule "
        "with a Required Expression cannot be exported by the hub."
    )
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: ExportAppArgs) -> dict[str, Any]:
        result = await call.hub.cloner.export_app(args.app_id, args.save_as)
        _cloner_advice(result)
        if result.get("saved_as"):
            add_advice(
                result, "note", f"Import it with hub_import_app from_file={result['saved_as']}."
            )
        where = f" to {result['saved_as']}" if result.get("saved_as") else ""
        return {
            "summary": f"Exported app {args.app_id} ({result['name']}) with "
            f"{len(result['apps'])} app(s) and {len(result['devices'])} device(s){where}",
            **result,
        }


class CloneAppTool(HubTool[CloneAppArgs]):
    name = "hub_clone_app"
    covers = (
        on_hub("hub_clone_native_app"),
        on_hub("hub_clone_dashboard"),
    )
    title = "Clone installed app"
    description = (
        "Copy a classic app or rule, deep (child apps, settings, pause state), under the "
        "same parent through the hub's own App Cloner; the copy gets new_name (default "
        "'<name> (copy)'). The copy is disabled right after creation (with its child apps) "
        "so it does nothing until you enable it with hub_set_app_disabled; enable=true "
        "leaves it live. Do not repeat a call that reported a created copy. For Visual "
        "Rules use hub_create_visual_rule; for Easy Dashboards hub_clone_dashboard. "
        "enable=true on an app that reaches something sensitive needs confirm=true."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CloneAppArgs) -> dict[str, Any]:
        model = call.hub.sensitivity
        model.require(
            await model.apps([args.app_id]),
            confirm=args.confirm or not args.enable,
            allowed=call.device_allowed,
            what=f"An enabled copy of app {args.app_id}",
        )
        result = await call.hub.cloner.clone_app(args.app_id, args.new_name, args.enable)
        _cloner_advice(result)
        state = "enabled" if result["enabled"] else "disabled"
        return {
            "summary": f"Cloned app {args.app_id} as app {result['new_app_id']} "
            f"({result['name']}, {state})",
            **result,
        }


class ImportAppTool(HubTool[ImportAppArgs]):
    name = "hub_import_app"
    covers = (on_hub("hub_import_native_app"),)
    title = "Import app from an export"
    description = (
        "Create a new app from an App Cloner export (the hub's own App Cloner). Give one of: "
        "export (from hub_export_app), from_file (a File Manager file) or from_backup (an "
        "item backup hub_delete_app took: re-creates a deleted app, new id). It lands next "
        "to seed_app_id (default: the first app of the export's type). Named devices must "
        "exist unless allow_missing_devices=true. It starts disabled (children too) until "
        "hub_set_app_disabled; enable=true leaves it live (confirm=true when it reaches "
        "locks, HSM, files or HTTP). Do not repeat a call that reported a created app."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: ImportAppArgs) -> dict[str, Any]:
        sources = (
            ("export", args.export),
            ("from_file", args.from_file),
            ("from_backup", args.from_backup),
        )
        given = [k for k, v in sources if v is not None]
        if len(given) != 1:
            raise ToolError(
                "Give exactly one of export, from_file or from_backup"
                + (f" (got {', '.join(given)})" if given else "")
                + ". Nothing was sent.",
                hint="hub_export_app returns 'export' (or 'saved_as' for large ones); "
                "hub_delete_app returns item_backup.backup.",
            )
        result = await call.hub.cloner.import_app(
            export=args.export,
            from_file=args.from_file,
            from_backup=args.from_backup,
            seed_app_id=args.seed_app_id,
            new_name=args.new_name,
            enable=args.enable,
            allow_missing_devices=args.allow_missing_devices,
            device_allowed=call.device_allowed,
            check=partial(_check_import, call, args),
        )
        _cloner_advice(result)
        state = "enabled" if result["enabled"] else "disabled"
        return {
            "summary": f"Imported {result['source']} as app {result['new_app_id']} "
            f"({result['name']}, {state})",
            **result,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateAppArgs(ToolArgs):
    app_type: str = arg(
        vol.All(str, vol.Strip, vol.Length(min=1, max=200)),
        "type_id or name (hub_list_apps scope=types), or a child kind",
        required=True,
    )
    parent_app_id: str | None = arg(APP_ID, "Create as a child of this installed app")
    name: str | None = arg(NEW_NAME, "The new app's name")
    settings: dict[str, Any] | None = arg(vol.All(dict, settings_map), "First page {input: value}")
    confirm: bool = arg(
        bool,
        "true for user app code, HSM, Mode Manager, Maker API, lock-like devices",
        default=False,
    )
    button: str | None = arg(
        match(r"^[1-9][0-9]{0,2} (pushed|held|doubleTapped|released)$", msg="button: '3 pushed'"),
        "Button Rule only: '<n> pushed|held|doubleTapped|released'",
    )


class CreateAppTool(HubTool[CreateAppArgs]):
    name = "hub_create_app"
    covers = (
        on_hub("hub_create_app"),
        on_hub("hub_set_native_app"),
    )
    title = "Create app instance"
    description = (
        "Add an app as the hub UI's Add Built-In App / Add User App do: app_type from "
        "hub_list_apps scope=types, or a built-in child kind (Basic Rule, Button "
        "Controller, Group, Notifier, Dashboard, Room Lights = a Room Lighting instance) under its "
        "installed parent (install the "
        "parent first); user child apps need parent_app_id. Fills the first page (settings, "
        "name), presses Done and reads the app back; a new app the hub does not finish is "
        "removed. User app code runs with access to every device: confirm=true. Rules: "
        "hub_create_rule; code: hub_install_code. Button Rule: parent_app_id=its Button "
        "Controller + button; the controller sets its trigger, add actions with "
        "hub_update_app_settings."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CreateAppArgs) -> dict[str, Any]:
        result = await call.hub.app_create.create(
            args.app_type,
            parent_app_id=args.parent_app_id,
            settings=args.settings or {},
            name=args.name,
            device_allowed=call.device_allowed,
            confirm=args.confirm,
            button=args.button,
        )
        if "next" in result:  # a Button Rule, made through its controller
            add_advice(
                result,
                "next",
                f"Edit its pages with hub_update_app_settings app_id={result['app_id']}; "
                "hub_update_rule edits Rule Machine rules only.",
            )
            if result.get("warning"):
                add_advice(
                    result, "warning", f"Check it with hub_get_app app_id={result['parent_id']}."
                )
        if kids := result.get("child_kinds"):
            result["hint"] = f"To add one under it: hub_create_app app_type='{kids[0]}'."
        return result


ORDER = 62

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListAppsTool,
    GetAppTool,
    SetAppDisabledTool,
    UpdateAppSettingsTool,
    DeleteAppTool,
    CreateAppTool,
    ExportAppTool,
    CloneAppTool,
    ImportAppTool,
    ListHpmPackagesTool,
)


async def require_app_reach(call: ToolCall, app_ids: list[str], confirm: bool, what: str) -> None:
    """The sensitivity gate for making installed apps act (enabling, running, resuming)."""
    model = call.hub.sensitivity
    model.require(
        await model.apps(app_ids), confirm=confirm, allowed=call.device_allowed, what=what
    )


async def _check_import(call: ToolCall, args: ImportAppArgs, document: dict[str, Any]) -> None:
    """What an export reaches, parsed (given as an object or as text alike): the allowlist
    always, confirm when it is to start enabled."""
    model = call.hub.sensitivity
    model.require(
        await model.document(document, label="the imported app"),
        confirm=args.confirm or not args.enable,
        allowed=call.device_allowed,
        what="Importing this export" + (" enabled" if args.enable else ""),
    )
