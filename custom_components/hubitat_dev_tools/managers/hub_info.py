"""Hub identity, health basics and the hub's location settings."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

from ..errors import ToolError
from ..hub.answers import is_placeholder
from ..hub.client import HubClient
from ..hub.controllers import CompatController, HealthController, InfoController, NetworkController
from ..hub.errors import HubError
from ..hub.info import LOCATION_FIELDS, HubIdentity, hub_time_zone, identity_from
from ..hub.results import LocationSettings


def _same(a: Any, b: Any) -> bool:
    """Equal as numbers when both are numbers (the hub may answer 40.0 for 40), else as text."""
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


class HubInfoManager:
    """Answers "what hub is this and is it healthy" in one call."""

    def __init__(
        self,
        info: InfoController,
        health: HealthController,
        network: NetworkController,
        compat: CompatController,
        client: HubClient,
    ) -> None:
        self._info = info
        self._health = health
        self._network = network
        self._compat = compat
        # the connection's Maker API / security flags, and the time zone set after a change
        self._client = client

    async def identity(self) -> HubIdentity:
        """Return the hub's identity (used by setup and the config flow)."""
        return await self._info.identity()

    async def info(self) -> dict[str, Any]:
        """Identity, firmware, model, alerts and health basics."""

        async def optional(read: Callable[[], Awaitable[float | None]]) -> float | None:
            try:
                return await read()
            except HubError:
                return None

        async def network() -> dict[str, Any] | None:
            try:
                return (await self._network.config()).as_dict()
            except HubError:
                return None

        details, hub_data, free_mem, temp, db_size, net = await asyncio.gather(
            self._info.details(),
            self._info.hub_data(),
            optional(self._health.free_os_memory),
            optional(self._health.internal_temperature),
            optional(self._health.database_size),
            network(),
        )
        identity = identity_from(details)
        alerts = hub_data.get("alerts") if isinstance(hub_data.get("alerts"), dict) else {}
        assert isinstance(alerts, dict)
        active_alerts = sorted(k for k, v in alerts.items() if v is True)
        return {
            "hub_uid": identity.hub_uid,
            "name": identity.name,
            "model": hub_data.get("model") or identity.hardware,
            "hardware": identity.hardware,
            "firmware": identity.firmware or hub_data.get("version"),
            "ip": identity.ip,
            "mdns_name": identity.mdns_name,
            "time_zone": identity.time_zone,
            "location": {
                "latitude": details.get("latitude"),
                "longitude": details.get("longitude"),
                "zip_code": details.get("zipCode"),
                "temperature_scale": details.get("tempScale"),
                "time_format": details.get("timeFormat"),
                "date_format": details.get("dateFormat"),
                "tts_voice": details.get("ttsCurrent"),
            },
            "safe_mode": bool(hub_data.get("safeMode", False)),
            "free_memory_kb": free_mem,
            "temperature_c": temp,
            "database_size": db_size,
            "active_alerts": active_alerts,
            "messages": [str(m) for m in alerts.get("headerMessages") or []],
            "platform_update_available": bool(alerts.get("platformUpdateAvailable", False)),
            "network": net,
            "maker_api_configured": self._client.connection.has_maker,
            "hub_security_configured": self._client.connection.has_security,
        }

    async def compatibility(self, deadline: float | None = None) -> dict[str, Any]:
        """Read each endpoint the tools depend on once; report its shape (never raises)."""
        return cast(dict[str, Any], await self._compat.check(deadline=deadline))

    async def update_settings(
        self, changes: dict[str, Any], dark_mode: bool | None = None
    ) -> dict[str, Any]:
        """Read-merge-write the hub's location settings (the save is wholesale); the admin
        UI's dark mode is its own setter."""
        out: dict[str, Any] = {}
        if changes:
            out = await self._save_location(changes)
        if dark_mode is not None:
            await self._network.set_dark_mode(dark_mode)
            out.setdefault("changed", {})["dark_mode"] = {"to": dark_mode}
            out.pop("unchanged", None)
            out["dark_mode_note"] = (
                "Sent as the hub UI does; the hub offers no way to read it back: reload its "
                "web page to see the theme."
            )
        return out

    async def _save_location(self, changes: dict[str, Any]) -> dict[str, Any]:
        details: Mapping[str, Any] = await self._info.details()
        missing = [src for src in LOCATION_FIELDS.values() if src not in details]
        if missing:
            raise ToolError(
                f"The hub's details lack {', '.join(missing)}; saving would blank them, so "
                "nothing was sent.",
                hint="Change these settings in the hub UI (Settings > Location).",
            )
        zone = changes.get("timeZone")
        zones = details.get("timeZones")
        if zone is not None and isinstance(zones, list):
            ids = {z.get("id") for z in zones if isinstance(z, dict)} | {
                z for z in zones if isinstance(z, str)
            }
            if ids and zone not in ids:
                raise ToolError(
                    f"'{zone}' is not one of the hub's time zones. Nothing was sent.",
                    hint="Use an IANA zone id such as America/New_York or Europe/Paris.",
                )
        voices = details.get("ttsVoices")
        voice = changes.get("voice")
        if voice is not None and isinstance(voices, list) and voice not in voices:
            raise ToolError(
                f"'{voice}' is not one of the hub's voices: {', '.join(map(str, voices))}. "
                "Nothing was sent."
            )
        # The save is wholesale: what the hub reads back for "not set" goes back as "", never
        # as the placeholder text ("null", "None"), which the hub would store as data.
        current = {
            key: "" if is_placeholder(details[src]) else details[src]
            for key, src in LOCATION_FIELDS.items()
        }
        body = {**current, **changes}
        changed = {k: {"from": current[k], "to": v} for k, v in changes.items() if current[k] != v}
        if not changed:
            return {"changed": {}, "unchanged": True}
        await self._info.save_location(cast(LocationSettings, body))
        zone_changed = "timeZone" in changed
        try:
            after: Mapping[str, Any] = await self._info.details()
        except HubError:
            if not zone_changed:
                raise
            # A time-zone change may reboot the hub at once: the save was accepted, so times
            # are read in the new zone from now on (not only after the next reconnect).
            self._client.time_zone = hub_time_zone(body["timeZone"])
            return {
                "changed": changed,
                "rebooting": True,
                "note": "The time zone is saved and the hub is rebooting (about 1-3 minutes).",
            }
        kept = {key: after.get(LOCATION_FIELDS[key]) for key in changed}
        not_kept = [k for k, v in kept.items() if not _same(v, body[k])]
        out: dict[str, Any] = {"changed": changed}
        if not_kept:
            out["not_applied"] = {k: kept[k] for k in not_kept}
        if zone_changed and "timeZone" not in not_kept:
            self._client.time_zone = hub_time_zone(body["timeZone"])
            out["note_time_zone"] = (
                "A time-zone change needs a reboot: the hub may reboot on its own now; if not, "
                "reboot it so schedules and sunrise/sunset use the new zone."
            )
        if "name" in changed:
            out["note"] = (
                "The hub is renamed; its Home Assistant entry keeps its title until you rename "
                "it there."
            )
        return out
