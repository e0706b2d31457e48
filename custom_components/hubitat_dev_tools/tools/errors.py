"""Recovery advice for hub and manager errors, keyed by the error's code (and subject).

The hub library and the managers say what went wrong in their own terms, with a stable
``code`` and a ``subject``; what a model or a user should do next (which tool to call,
which Home Assistant screen to open) is decided here, so renaming a tool touches only the
tools layer.

Precedence, one rule for both kinds of error: the ``(code, subject)`` entry first, then the
call site's own hint (below the tools layer it names no tool); only a ``HubError`` falls
back further, to its code's entry.
- A ``HubError`` (:func:`hint_for`; raised by the library, or by a manager with a subject):
  ``HINTS[(code, subject)]``, else the call site's hint (not the class default), else
  ``HINTS[(code, None)]``, else the default.
- A ``ToolError`` of a manager (:func:`advise`, applied by ``tools/base.py`` to every
  error result): ``TOOL_HINTS[(code, subject)]`` (or ``HINTS[(code, subject)]``: a subject
  means the same for both), its ``{name}`` fields filled from the error's ``extra``; else
  the call site's hint, unchanged. A ``ToolError`` without subject keeps its hint (a tool's
  own error may name tools). No ``(code, None)`` entry applies to a ``ToolError``. Then,
  whatever the code, ``FACT_HINTS`` adds the advice for each fact of ``extra`` it knows
  (what a failure left behind, such as an app to delete). Per-item failures a manager
  lists (a code batch's ``error``/``subject`` items) get the same entries
  (:func:`advise_items`).

A manager's answer that calls for a next step gives the facts (ids, what is left to do);
the tool adds the sentence that names the tool to call (:func:`add_advice`).
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import ToolError
from ..hub.errors import HubError

_RECONFIGURE = "Settings > Devices & services > Hubitat Dev Tools > Reconfigure"

# (code, subject) -> hint for a HubError; (code, None) applies to every subject without
# its own entry. A ToolError's (code, subject) is looked up here too, after TOOL_HINTS.
HINTS: dict[tuple[str, str | None], str] = {
    ("hub_unreachable", None): (
        "The hub is offline, rebooting or its address changed. Wait a minute and retry; "
        "if the address changed, use Reconfigure on the integration."
    ),
    ("hub_auth", None): (
        "Hub Security credentials or the Maker API token are wrong or expired. "
        "A Home Assistant admin must re-authenticate the integration."
    ),
    ("hub_auth", "login"): (
        f"A Home Assistant admin must re-enter the Hub Security credentials ({_RECONFIGURE})."
    ),
    ("hub_auth", "no_credentials"): (
        "Hub Security is enabled on the hub. A Home Assistant admin must add the hub's "
        f"username and password ({_RECONFIGURE})."
    ),
    ("hub_auth", "maker_token"): (
        "The Maker API token was reset or the app was removed. A Home Assistant admin must "
        f"enter the current app id and token ({_RECONFIGURE})."
    ),
    ("firmware_unsupported", None): (
        "The hub's firmware does not offer this. Check hub_get_info for the version; "
        "after a platform update (hub_install_firmware_update), retry."
    ),
    ("maker_api_required", None): (
        "This needs the hub's Maker API. On the hub: Apps > Add Built-In App > Maker API, "
        "enable the needed devices/options, then enter its app id and access token in "
        f"Home Assistant: {_RECONFIGURE}."
    ),
    ("not_found", "device"): "Use hub_list_devices (filter by text) to find the device id.",
    ("not_found", "app"): "Find the app id with hub_list_apps (or hub_list_rules for rules).",
    ("not_found", "code"): "List the code with hub_list_code to find the id.",
    ("hub_bad_response", "device_command"): (
        "Check the device's declared commands and arguments with hub_get_device."
    ),
    ("hub_bad_response", "app_settings"): (
        "Read the page again with hub_get_app: a setting may have changed the page."
    ),
    ("hub_bad_response", "visual_rule"): (
        "Check the node lists (whenNodes/thenNodes/elseNodes) against an existing rule read "
        "with hub_get_visual_rule."
    ),
    ("hub_bad_response", "dashboard_layout"): (
        "Every tile needs id, template, col and row (copy them from hub_get_dashboard)."
    ),
    ("hub_bad_response", "code_delete"): (
        "If code is in use, remove the apps or devices using it first (see used_by in "
        "hub_list_code)."
    ),
    ("hub_busy", None): (
        "Other requests to the hub (a backup, an install, a long read) still hold every "
        "slot; nothing was sent. Wait a few seconds and retry once; do not start more long "
        "operations meanwhile."
    ),
    ("response_too_large", None): (
        "The hub's answer was too large to read, so nothing was returned. Ask for less: "
        "filter the list (text, fields, limit) or open large files by their url."
    ),
    ("version_conflict", None): (
        "Someone (or something) saved this code since you read it. Read it again with "
        "hub_get_code, re-apply your change to the current source, and save with "
        "expected_version set to the version you just read."
    ),
    ("hub_bad_response", "clone_late"): (
        "Check hub_list_apps in a minute before retrying: a late copy may appear, and "
        "retrying would make a second one."
    ),
    ("hub_bad_response", "clone_failed_after_press"): (
        "Check hub_list_apps before anything else; do not repeat this call blindly (that "
        "could make a second copy)."
    ),
    ("hub_bad_response", "clone_several"): (
        "Keep one (hub_get_app to compare) and delete the others with hub_delete_app; do "
        "not repeat this call."
    ),
    ("hub_bad_response", "cloner_import"): "Use a document made by hub_export_app, unchanged.",
    ("hub_bad_response", "button_rule"): (
        "Check that the device has the button and that no rule for it exists already "
        "(hub_get_app on the controller lists its child apps)."
    ),
    ("not_found", "parent_app"): "Find the parent app with hub_list_apps kind=parents.",
    ("not_found", "app_type"): (
        "List the types with hub_list_apps scope=types; user app code must be installed "
        "first (hub_install_code)."
    ),
    ("not_found", "child_app_code"): (
        "Give the child app's code id or exact name (hub_list_code type=app)."
    ),
    ("hub_bad_response", "app_unfinished"): (
        "Give the page's required inputs in settings (read a similar app with hub_get_app), "
        "or add it in the hub UI."
    ),
    ("hub_bad_response", "backup_restore"): (
        "Check the name with hub_list_backups; nothing was restored."
    ),
    ("not_found", "bundle"): "List bundles with hub_list_bundles.",
    ("not_found", "dashboard"): "List dashboards with hub_list_dashboards.",
    ("hub_bad_response", "legacy_dashboard"): (
        "Read it with hub_get_dashboard; fix its name or devices on its page "
        "(hub_update_app_settings) or delete it."
    ),
    ("not_found", "item_backup"): "List backups with hub_list_item_backups.",
    ("hub_bad_response", "backup_copy"): "Check the hub's free space (hub_list_files) and retry.",
    ("hub_bad_response", "firmware_install"): (
        "Check the hub's cloud connection (hub_get_health_report) and retry."
    ),
    ("hub_bad_response", "mode_rename"): "List the modes (hub_list_modes) and retry once.",
    ("hub_bad_response", "zwave_repair"): (
        "Check that the Z-Wave radio is enabled (hub_get_radio_details)."
    ),
    ("not_found", "radio_endpoint"): (
        "This firmware may not have it; check hub_check_firmware_update."
    ),
    ("hub_bad_response", "radio_busy"): (
        "A Z-Wave repair, inclusion or exclusion may be running: stop it first "
        "(hub_get_zwave_repair_status, action=inclusion_stop/exclusion_stop)."
    ),
    ("hub_bad_response", "zwave_node_remove"): (
        "The node may have answered again (it is then no longer failed); check "
        "hub_get_radio_details."
    ),
}


# What to do after a manager's ToolError, by (code, subject). ``{name}`` is filled from the
# error's ``extra`` (facts the error result carries too).
TOOL_HINTS: dict[tuple[str, str], str] = {
    # apps: the App Cloner
    ("invalid_request", "visual_rule_not_cloneable"): (
        "Read it with hub_get_visual_rule and create a copy with hub_create_visual_rule."
    ),
    ("invalid_request", "top_level_app"): (
        "Pick one of its child apps (hub_list_apps shows parent_id)."
    ),
    ("invalid_request", "not_button_controller"): (
        "Find it with hub_list_apps text='Button Controller', or create one with "
        "hub_create_app app_type='Button Controller'."
    ),
    ("invalid_request", "no_button_device"): (
        "Set it first: hub_update_app_settings app_id={app_id} settings={buttonDev: [<device id>]}."
    ),
    ("invalid_request", "rule_machine_app"): (
        "Create Rule Machine rules with hub_create_rule (it builds the triggers and actions too)."
    ),
    ("not_found", "parent_not_installed"): (
        "Install the parent first: hub_create_app app_type='{parent_type}', then create the "
        "{child_kind}."
    ),
    ("invalid_request", "button_rule_settings"): (
        "Create it, then edit its pages with hub_update_app_settings."
    ),
    ("invalid_request", "export_json"): (
        "Pass the 'export' object exactly as hub_export_app returned it, or the name of the "
        "file it was saved to."
    ),
    ("invalid_request", "not_an_export"): (
        "Use a document made by hub_export_app (or the hub's Export button)."
    ),
    ("invalid_request", "backup_without_export"): (
        "Only installed-app backups taken by hub_delete_app hold an export; re-create the "
        "app from the settings in the backup by hand."
    ),
    ("invalid_request", "file_name"): (
        "hub_list_files shows the file names (they are case-sensitive)."
    ),
    ("invalid_request", "export_object"): (
        "Pass the 'export' object exactly as hub_export_app returned it."
    ),
    # apps: settings pages
    ("invalid_request", "device_ids"): "Find ids with hub_list_devices.",
    ("not_found", "device_ids"): "Find ids with hub_list_devices.",
    ("invalid_request", "page_input"): (
        "Read the page with hub_get_app (pass page= for the other pages listed under "
        "'pages'); some inputs appear only after an earlier one is set."
    ),
    ("invalid_request", "settings_not_editable"): (
        "Hub variables: hub_create_variable/hub_delete_variable; Visual Rules: "
        "hub_update_visual_rule."
    ),
    ("invalid_request", "page_link"): "Links are listed per section under 'pages' by hub_get_app.",
    ("invalid_request", "page_button"): (
        "Buttons are listed per section under 'buttons' by hub_get_app."
    ),
    # rules
    ("invalid_request", "not_visual_rule"): "List Visual Rules with hub_list_rules engine=visual.",
    ("invalid_request", "not_rm_rule"): (
        "List Rule Machine rules with hub_list_rules engine=rule_machine."
    ),
    ("invalid_request", "not_rule"): "List rules with hub_list_rules.",
    ("invalid_request", "visual_rule_run"): (
        "It runs on its own triggers; pause or resume it with hub_set_rule_paused."
    ),
    ("invalid_request", "button_rule_action"): (
        "To keep it from acting, disable it with hub_set_app_disabled."
    ),
    ("invalid_request", "button_rule_trigger"): (
        "Read the rule with hub_get_app; its Button Controller sets its button."
    ),
    ("invalid_request", "rule_batch"): (
        "Drop or fix those rules (hub_list_rules engine=rule_machine), then call again."
    ),
    ("invalid_request", "mode_ids"): "Give mode ids from hub_list_modes.",
    ("device_not_allowed", "visual_rule_device"): (
        "Use a device hub_list_devices shows; an admin can change the allowlist."
    ),
    ("invalid_request", "visual_graph"): (
        "Fix them (validate_only=true lists them all) or compare with a rule read by "
        "hub_get_visual_rule."
    ),
    ("invalid_request", "visual_format"): (
        "Give nodes and edges (graph) or when/then/else nodes (classic) as the hub's rules "
        "read by hub_get_visual_rule show."
    ),
    ("invalid_request", "node_attribute"): (
        "Pick a device with '{attribute}' (hub_get_device lists its attributes; this one's "
        "are under attributes)."
    ),
    ("invalid_request", "node_command"): (
        "Pick a device that declares one of commands (hub_get_device lists its commands)."
    ),
    ("invalid_request", "visual_rule_format"): "Read its definition with hub_get_visual_rule.",
    # rule authoring: the spec checked against the hub
    ("invalid_request", "rule_read_not_rm"): (
        "List Rule Machine rules with hub_list_rules engine=rule_machine; Visual Rules are "
        "read with hub_get_visual_rule."
    ),
    ("invalid_request", "button_device"): (
        "Pick a button device (hub_list_devices capability=PushableButton)."
    ),
    ("not_found", "rule_file"): "List files with hub_list_files; write_file creates a file.",
    ("backup_required", "backup"): "Create a backup first (hub_create_backup), then retry.",
    ("invalid_request", "mode"): "Use a mode name from hub_list_modes.",
    ("invalid_request", "variable"): (
        "Create it with hub_create_variable first, or use an existing name."
    ),
    ("not_found", "rm_rule_ids"): "Find rule ids with hub_list_rules engine=rule_machine.",
    ("invalid_request", "rule_ids"): "Find ids with hub_list_rules.",
    ("invalid_request", "notification_device"): (
        "Pick a notification device (hub_list_devices capability=Notification)."
    ),
    ("hub_busy", "rule_editor_open"): (
        "Finish or cancel that action on the rule's page in the hub UI, then try again. If "
        "it stays open (one was seen to outlive 5 minutes), hub_delete_app and "
        "hub_create_rule make the rule again, with a new app id."
    ),
    ("not_supported", "rule_part_unknown"): (
        "Leave that part as hub_get_rule shows it, or change it by hand: hub_get_app "
        "app_id=<rule> page={page} shows its inputs, hub_update_app_settings page={page} "
        "writes them and presses its buttons; then hub_update_rule for the rest."
    ),
    ("not_supported", "rule_not_editable"): (
        "Edit the rule by hand: hub_get_app app_id=<rule> page=<page> shows a page's inputs "
        "and buttons, hub_update_app_settings writes and presses them."
    ),
    ("hub_bad_response", "rule_actions_left"): (
        "Read the rule with hub_get_rule before trying again."
    ),
    ("invalid_request", "local_variable_trigger"): (
        "Trigger on a hub variable (hub_create_variable) instead."
    ),
    ("invalid_request", "patch_path"): "Read the rule with hub_get_rule; paths follow its spec.",
    # backups
    ("not_found", "cloud_backup"): (
        "hub_list_backups with location='cloud' shows each backup's path."
    ),
    ("invalid_arguments", "cloud_backup_parts"): (
        "hub_list_backups location='cloud' shows has_zigbee / has_zwave."
    ),
    ("invalid_arguments", "backup_file"): (
        "hub_list_files shows the File Manager's files; hub backups end in .lzf."
    ),
    ("invalid_arguments", "cloud_migration"): (
        "To put another hub's database on this one (a migration), call hub_restore_backup "
        "again with migrate_from_other_hub=true, after the user agreed to lose this hub's "
        "own apps, rules and devices."
    ),
    ("invalid_arguments", "cloud_migration_own"): (
        "Leave out migrate_from_other_hub (hub_list_backups location='cloud' shows this_hub)."
    ),
    ("invalid_arguments", "cloud_restore_entitlement"): (
        "hub_list_backups location='cloud' shows restore_entitled; a local backup restores "
        "without a subscription."
    ),
    ("not_found", "local_backup"): "hub_list_backups shows the exact file names.",
    ("backup_required", "current_state_backup"): (
        "Create a backup with hub_create_backup, check it with hub_list_backups, then retry."
    ),
    ("invalid_request", "item_backup_name"): (
        "List backups with hub_list_item_backups and pass the 'backup' value."
    ),
    ("backup_changed", "restore_plan"): (
        "Plan again: hub_get_restore_plan finds the backups that still match."
    ),
    # dashboards
    ("invalid_request", "dashboard_ids"): "Read the ids with hub_list_dashboards.",
    ("invalid_request", "dashboard_tiles"): "Read the tile ids with hub_get_dashboard.",
    # devices
    ("invalid_request", "hub_mesh_not_offered"): "hub_get_hub_mesh shows whether Hub Mesh is on.",
    ("invalid_request", "room_missing"): (
        "Use an existing room, or create it first with hub_create_room."
    ),
    ("invalid_request", "driver"): (
        "Installed custom drivers and their ids: hub_list_code type=driver (install one "
        "with hub_install_code); a driver is named by name, id or namespace:name."
    ),
    ("invalid_request", "device_disabled"): (
        "Enable it first with hub_update_device(enabled=true)."
    ),
    ("invalid_request", "command_batch"): (
        "Fix or drop those entries (use hub_get_device for declared commands) and send the "
        "batch again."
    ),
    ("confirmation_required", "command_batch"): (
        "Fix or drop those entries (use hub_get_device for declared commands) and send the "
        "batch again."
    ),
    ("not_found", "device_event"): (
        "List its events with hub_list_device_events to see what it recorded."
    ),
    ("device_not_allowed", "log_source"): (
        "Do not retry with the same device; hub_list_devices shows the allowed devices. An "
        "admin can change the allowlist in the integration's options."
    ),
    ("not_found", "file_name"): "hub_list_files shows the file names (they are case-sensitive).",
    # modes and Hub Mesh
    ("invalid_request", "hub_mesh_off"): "enabled=true, then reboot the hub (hub_reboot_hub).",
    ("invalid_request", "mode_missing"): (
        "Use a mode name from hub_list_modes, or create it with hub_create_mode."
    ),
    ("invalid_request", "mode_active"): "Switch to another mode with hub_set_mode first.",
    # radios
    ("invalid_request", "zwave_node"): (
        "hub_get_radio_details radio=zwave lists the nodes (decimal ids)."
    ),
    ("invalid_request", "matter_node"): "hub_get_radio_details radio=matter lists the nodes.",
    ("invalid_request", "zwave_node_not_failed"): (
        "For a working device use hub_call_radio_action action=exclusion_start and its "
        "exclusion button, or hub_delete_device."
    ),
    ("invalid_request", "s2_request"): (
        "hub_get_radio_details include=[inclusion] shows what it waits for."
    ),
    ("invalid_request", "smartstart_entry"): (
        "hub_get_radio_details include=[smartstart] lists them with their ids."
    ),
    ("invalid_request", "firmware_file"): (
        "Put the file in the hub's File Manager (hub_list_files shows it), or upload it with "
        "the hub UI's firmware file manager (Z-Wave details)."
    ),
    # rooms, scenes, variables
    ("invalid_request", "room"): "Use a room name or id from hub_list_rooms.",
    ("invalid_request", "room_exists"): (
        "Pick another name, or use hub_update_room on the existing room."
    ),
    ("not_found", "not_rule"): "List rules with hub_list_rules.",
    ("invalid_request", "scene"): "Use a scene name or id from hub_list_scenes.",
    ("invalid_request", "variable_exists"): (
        "Change it with hub_set_variable, or pick another name."
    ),
    ("invalid_request", "variable_exists_unselected"): (
        "Pick another name, or add it to the Maker API instance's hub variables to change it "
        "with hub_set_variable."
    ),
    ("invalid_request", "variable_missing"): "List them with hub_list_variables.",
}

_FIELD = re.compile(r"\{(\w+)\}")


def _filled(advice: str, facts: dict[str, object] | None) -> str:
    if not facts:
        return advice
    return _FIELD.sub(lambda m: str(facts[m[1]]) if m[1] in facts else m[0], advice)


# Advice for a fact a manager's error carries in ``extra`` whatever its code and subject
# (what a failure left behind), added after the hint.
FACT_HINTS: dict[str, str] = {
    "delete_app_id": "Delete app {delete_app_id} with hub_delete_app.",
    "restore_flags_app_id": (
        "Set rule {restore_flags_app_id}'s pause and disable state with hub_set_rule_paused "
        "and hub_set_app_disabled."
    ),
    "import_backup": "hub_import_app from_backup={import_backup} makes it again.",
    "label_device_id": "Set the label with hub_update_device on device {label_device_id}.",
    "room_device_id": "Set the room with hub_update_device on device {room_device_id}.",
}


def advice_for(err: ToolError) -> str | None:
    """The advice for a manager's (or a tool's) error: its (code, subject) entry, else its
    own hint, then the advice for the facts it carries (see the module docstring)."""
    hint = err.hint
    if err.subject is not None:
        key = (err.code, err.subject)
        advice = TOOL_HINTS.get(key) or HINTS.get(key)
        if advice:
            hint = _filled(advice, err.extra)
    for fact in FACT_HINTS.keys() & (err.extra or {}).keys():
        if (more := _filled(FACT_HINTS[fact], err.extra)) not in (hint or ""):
            hint = f"{hint} {more}" if hint else more
    return hint


def add_advice(out: dict[str, Any], key: str, advice: str) -> None:
    """Append the tools layer's ``advice`` (naming the tool to call next) to the sentence a
    manager's answer holds under ``key``, or set it: a manager gives the facts only."""
    out[key] = f"{out[key]} {advice}" if out.get(key) else advice


def advise_items(items: Any) -> None:
    """Per-item failures a manager lists (``{"error": code, "subject": ...}``, e.g. a code
    batch's): each gets its (code, subject) advice as its hint, the subject dropped."""
    if not isinstance(items, list):
        return
    for item in items:
        if isinstance(item, dict) and isinstance(subject := item.pop("subject", None), str):
            key = (str(item.get("error")), subject)
            if advice := TOOL_HINTS.get(key) or HINTS.get(key):
                item["hint"] = advice


def advise(err: ToolError) -> ToolError:
    """The error with the tools layer's advice as its hint (the same error object), and
    the per-item failures it carries advised too."""
    err.hint = advice_for(err)
    for value in (err.extra or {}).values():
        advise_items(value)
    return err


def hint_for(err: HubError) -> str | None:
    """The advice for a hub error: its subject's entry, a call site's own hint, its code's."""
    if err.subject and (hint := HINTS.get((err.code, err.subject))):
        return hint
    if err.hint and err.hint != type(err).default_hint:
        return err.hint
    return HINTS.get((err.code, None)) or err.hint


def tool_error(err: HubError) -> ToolError:
    """A hub error as the tool-side error (the hub was asked: the outcome is ``failed``)."""
    return ToolError(str(err), code=err.code, hint=hint_for(err), outcome="failed")
