"""Hub-level tools: identity/health, backups, hub (location) settings."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..errors import ToolError
from ..safety import ToolKind
from .base import HubTool, ToolCall


class GetHubInfoTool(HubTool):
    """hub_get_info."""

    name = "hub_get_info"
    title = "Get hub info"
    description = (
        "Identify the Hubitat hub and its health basics in one call: name, model, firmware, "
        "IP, safe mode, free memory, temperature, database size, active hub alerts, location "
        "settings (scale, clock, voice), and whether Maker API and Hub Security are "
        "configured. Use it first when a question is about the "
        "hub itself. For devices use hub_list_devices."
    )
    domain = "hub"
    core = True
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the hub summary."""
        return await call.hub.info.info()


class CreateBackupTool(HubTool):
    """hub_create_backup."""

    name = "hub_create_backup"
    title = "Create hub backup"
    description = (
        "Create a hub database backup now (stored on the hub). Do this before risky changes; "
        "destructive tools require a backup from the last 24 hours. Takes up to a minute on "
        "large hubs. Does not download the file."
    )
    domain = "hub"
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Ask the hub to create a backup, then read the backup list back."""
        return await call.hub.backups.create()


class UpdateHubSettingsTool(HubTool):
    """hub_update_hub_settings."""

    name = "hub_update_hub_settings"
    title = "Update hub settings"
    description = (
        "Change the hub's own settings (Settings > Location): hub_name, latitude/longitude "
        "(sunrise/sunset), zip_code, temperature_scale (F or C), time_format (12 or 24), "
        "tts_voice (one of the hub's voices) and mdns_name. Only the given fields change: "
        "the hub saves these settings all at once, so the others are read and sent back "
        "unchanged. Answers what changed (from/to). The time zone (its change reboots the "
        "hub), date format, network and cloud settings are not changed here. Read the "
        "current values with hub_get_info."
    )
    domain = "hub"
    kind = ToolKind.WRITE
    fields = {
        vol.Optional("hub_name", description="The hub's name"): vol.All(
            str, vol.Strip, vol.Length(min=1, max=64)
        ),
        vol.Optional("latitude", description="Decimal degrees"): vol.All(
            vol.Any(int, float), vol.Range(min=-90, max=90)
        ),
        vol.Optional("longitude", description="Decimal degrees"): vol.All(
            vol.Any(int, float), vol.Range(min=-180, max=180)
        ),
        vol.Optional("zip_code", description="Postal code"): vol.All(
            str, vol.Strip, vol.Length(max=16)
        ),
        vol.Optional("temperature_scale", description="F or C"): vol.In(("F", "C")),
        vol.Optional("time_format", description="12 or 24"): vol.In(("12", "24")),
        vol.Optional("tts_voice", description="A text-to-speech voice of the hub"): vol.All(
            str, vol.Length(min=1, max=40)
        ),
        vol.Optional("mdns_name", description="Local network name (hubitat.local)"): vol.All(
            str,
            vol.Match(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$", msg="not a host name"),
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Read, merge, save, verify."""
        keys = {
            "hub_name": "name",
            "latitude": "latitude",
            "longitude": "longitude",
            "zip_code": "zipCode",
            "temperature_scale": "temperatureScale",
            "time_format": "clock",
            "tts_voice": "voice",
            "mdns_name": "mdnsName",
        }
        changes = {hub_key: args[arg] for arg, hub_key in keys.items() if arg in args}
        if not changes:
            raise ToolError(
                "Give at least one setting to change. Nothing was sent.",
                hint="hub_get_info shows the hub's name and basics.",
            )
        result = await call.hub.info.update_settings(changes)
        if result.get("unchanged"):
            return {"summary": "The hub already has these settings; nothing sent", **result}
        return {"summary": f"Hub settings changed: {', '.join(result['changed'])}", **result}


ORDER = 10

TOOLS: tuple[type[HubTool], ...] = (
    GetHubInfoTool,
    CreateBackupTool,
    UpdateHubSettingsTool,
)
