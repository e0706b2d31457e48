"""Hub-level tools: identity/health, compatibility check, backup, hub (location) settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..managers.confirm import require_confirm
from ..safety import ToolKind, check_destructive
from .args import ToolArgs, arg, match
from .base import HubTool, ToolCall, on_hub
from .errors import add_advice

TOOL_DOMAIN = "hub"

HOST_NAME = match(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$", msg="not a host name")


@dataclass(frozen=True, slots=True, kw_only=True)
class HubSettingsArgs(ToolArgs):
    hub_name: str | None = arg(vol.All(str, vol.Strip, vol.Length(min=1, max=64)), "The hub's name")
    latitude: float | None = arg(
        vol.All(vol.Any(int, float), vol.Range(min=-90, max=90)), "Decimal degrees"
    )
    longitude: float | None = arg(
        vol.All(vol.Any(int, float), vol.Range(min=-180, max=180)), "Decimal degrees"
    )
    zip_code: str | None = arg(vol.All(str, vol.Strip, vol.Length(max=16)), "Postal code")
    temperature_scale: str | None = arg(vol.In(("F", "C")), "F or C")
    time_format: str | None = arg(vol.In(("12", "24")), "12 or 24")
    tts_voice: str | None = arg(
        vol.All(str, vol.Length(min=1, max=40)), "A text-to-speech voice of the hub"
    )
    mdns_name: str | None = arg(vol.All(str, HOST_NAME), "Local network name (hubitat.local)")
    time_zone: str | None = arg(vol.All(str, vol.Length(min=1, max=64)), "IANA id")
    dark_mode: bool | None = arg(bool, "Admin UI theme")
    confirm: bool = arg(bool, "true for time_zone or mdns_name", default=False)

    def changes(self) -> dict[str, Any]:
        """The given settings, keyed as the hub's location save names them."""
        given = {
            "name": self.hub_name,
            "latitude": self.latitude,
            "longitude": self.longitude,
            "zipCode": self.zip_code,
            "temperatureScale": self.temperature_scale,
            "clock": self.time_format,
            "voice": self.tts_voice,
            "mdnsName": self.mdns_name,
            "timeZone": self.time_zone,
        }
        return {hub_key: value for hub_key, value in given.items() if value is not None}


class GetHubInfoTool(HubTool[ToolArgs]):
    name = "hub_get_info"
    covers = (
        on_hub("hub_get_info"),
        on_hub("hub_get_metrics"),
    )
    title = "Get hub info"
    description = (
        "Identify the Hubitat hub and its health basics in one call: name, model, firmware "
        "version, IP, network, safe mode, free memory, temperature, database size, active "
        "hub alerts, location settings (scale, clock, voice), and whether Maker API and Hub "
        "Security are configured. Use it first for questions about the hub itself."
    )
    core = True
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await call.hub.info.info()


class CheckCompatibilityTool(HubTool[ToolArgs]):
    name = "hub_check_compatibility"
    title = "Check hub compatibility"
    description = (
        "Check that this integration works with this hub and its firmware (compatible?): "
        "it reads each hub endpoint "
        "they depend on once (about 30 read-only requests; nothing is changed or started) and "
        "reports per endpoint ok, unexpected_shape (the keys and JSON types seen, never "
        "values), missing (404, HTML instead of JSON, error status) or error, with the "
        "hub's firmware and model. Use it when a tool answered unexpectedly, and before "
        "filing a bug: the report is safe to attach to a bug report."
    )
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await call.hub.info.compatibility(deadline=call.deadline - 2.0)


class UpdateHubSettingsTool(HubTool[HubSettingsArgs]):
    name = "hub_update_hub_settings"
    covers = (on_hub("hub_set_system_settings"),)
    title = "Update hub settings"
    description = (
        "Change the hub's own settings (Settings > Location): hub_name, latitude/longitude "
        "(sunrise/sunset), zip_code, temperature_scale (F or C), time_format (12 or 24), "
        "tts_voice (one of the hub's voices), mdns_name (what finds the hub by name: "
        "confirm=true), dark_mode, time_zone (reboots; confirm=true, backup < 24 h). Only "
        "the given fields change (the others are sent back unchanged). Answers from/to. "
        "Network: hub_update_network_settings. Current: hub_get_info."
    )
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: HubSettingsArgs) -> dict[str, Any]:
        """Read, merge, save, verify."""
        changes = args.changes()
        if not changes and args.dark_mode is None:
            raise ToolError(
                "Give at least one setting to change. Nothing was sent.",
                hint="hub_get_info shows the hub's name and basics.",
            )
        if args.time_zone is not None:  # the destructive tier: the change reboots the hub
            await check_destructive(call.runtime, {"confirm": args.confirm})
        if args.mdns_name is not None:
            # whatever reaches the hub by its name (this integration when set up with it,
            # dashboards, other clients) loses it, and the old name is free for another device
            require_confirm(
                args.confirm,
                f"Renaming the hub on the local network to {args.mdns_name}.local breaks "
                "everything that reaches it by its current name.",
            )
        result = await call.hub.info.update_settings(changes, args.dark_mode)
        if result.get("rebooting"):
            add_advice(result, "note", "Check it with hub_get_info once it is back.")
        if "note_time_zone" in result:
            add_advice(result, "note_time_zone", "Reboot with hub_reboot_hub.")
        if result.get("unchanged"):
            return {"summary": "The hub already has these settings; nothing sent", **result}
        return {"summary": f"Hub settings changed: {', '.join(result['changed'])}", **result}


ORDER = 10

TOOLS: tuple[type[HubTool[Any]], ...] = (
    GetHubInfoTool,
    CheckCompatibilityTool,
    UpdateHubSettingsTool,
)
