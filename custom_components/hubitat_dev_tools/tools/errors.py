"""Recovery advice for hub errors, keyed by the library's error code (and subject).

The hub library says what went wrong in its own terms; what a model or a user should do
next (which tool to call, which Home Assistant screen to open) is decided here.
"""

from __future__ import annotations

from ..errors import ToolError
from ..hub.errors import HubError

_RECONFIGURE = "Settings > Devices & services > Hubitat Dev Tools > Reconfigure"

# (code, subject) -> hint; (code, None) applies to every subject without its own entry.
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
}


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
