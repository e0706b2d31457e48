"""Constants for the hubitat_dev_tools integration."""

from __future__ import annotations

from typing import Final

DOMAIN: Final = "hubitat_dev_tools"
API_ID: Final = "hubitat_dev_tools"
API_NAME: Final = "Hubitat Dev Tools"

CONF_MAKER_APP_ID: Final = "maker_app_id"
CONF_MAKER_TOKEN: Final = "maker_token"
CONF_USE_SSL: Final = "use_ssl"

# Options (per hub entry). Read from entry.options at every call, so changes
# apply without a reload.
OPT_ALLOW_READ: Final = "allow_read"
OPT_ALLOW_WRITE: Final = "allow_write"
OPT_DISABLED_TOOLS: Final = "disabled_tools"
OPT_DISABLED_GATEWAYS: Final = "disabled_gateways"
# Device ids the assistant may see and control; empty means every device.
OPT_ALLOWED_DEVICES: Final = "allowed_devices"
# Which tools/list the assistant sees: a few core tools plus domain gateways, or every tool.
OPT_SURFACE: Final = "surface"
SURFACE_COMPACT: Final = "compact"
SURFACE_FLAT: Final = "flat"
# Let the hub download code and bundles from plain http and from local/private addresses
# (a LAN development server). Off: https to public addresses only (the hub fetches the URL).
OPT_ALLOW_LOCAL_CODE_URLS: Final = "allow_local_code_urls"
DEFAULT_ALLOW_LOCAL_CODE_URLS: Final = False
# "Approve in Home Assistant": a call of a covered confirm tier (errors.TIERS) waits for an
# administrator's approval in Home Assistant (Repairs, optionally a notification) instead of
# the model's confirm=true (approvals.py). Off for a new install.
OPT_APPROVE_IN_HA: Final = "approve_in_ha"
OPT_APPROVAL_TIERS: Final = "approval_tiers"
# A notify service (``notify.<name>``) also told of each approval request; empty: none.
OPT_APPROVAL_NOTIFY: Final = "approval_notify"
DEFAULT_APPROVE_IN_HA: Final = False
DEFAULT_APPROVAL_TIERS: Final = ("sensitive", "safety", "code", "destructive")
DEFAULT_ALLOW_READ: Final = True
DEFAULT_ALLOW_WRITE: Final = True
DEFAULT_SURFACE: Final = SURFACE_COMPACT

# Every tool result is capped at this many bytes of JSON, with an explicit marker.
RESULT_MAX_BYTES: Final = 100_000

# The destructive tier requires a hub backup no older than this.
BACKUP_MAX_AGE_SECONDS: Final = 24 * 3600

MCP_SERVER_DOMAIN: Final = "mcp_server"
CONF_LLM_HASS_API: Final = "llm_hass_api"
CONF_ALL_LLM_APIS: Final = "all_llm_apis"
ISSUE_MCP_MISSING: Final = "mcp_server_missing"
ISSUE_MCP_NOT_EXPOSING: Final = "mcp_server_not_exposing"
ISSUE_APPROVAL: Final = "approval"

AUDIT_STORAGE_VERSION: Final = 1
AUDIT_MAX_ENTRIES: Final = 500
# Hub configuration snapshots (snapshots.py): a daily one when on, the newest N kept.
OPT_SNAPSHOT_DAILY: Final = "snapshot_daily"
OPT_SNAPSHOT_RETENTION: Final = "snapshot_retention"
DEFAULT_SNAPSHOT_DAILY: Final = False
DEFAULT_SNAPSHOT_RETENTION: Final = 30
