"""Hub identity and health basics."""

from __future__ import annotations

import asyncio
from typing import Any

from ..hub.client import HubClient
from ..hub.errors import HubError
from ..hub.info import HubIdentity, fetch_hub_data, fetch_identity, fetch_plain_number


class HubInfoManager:
    """Answers "what hub is this and is it healthy" in one call."""

    def __init__(self, client: HubClient) -> None:
        self._client = client

    async def identity(self) -> HubIdentity:
        """Return the hub's identity (used by setup and the config flow)."""
        return await fetch_identity(self._client)

    async def info(self) -> dict[str, Any]:
        """Identity, firmware, model, alerts and health basics."""

        async def optional(path: str) -> float | None:
            try:
                return await fetch_plain_number(self._client, path)
            except HubError:
                return None

        identity, hub_data, free_mem, temp, db_size = await asyncio.gather(
            fetch_identity(self._client),
            fetch_hub_data(self._client),
            optional("/hub/advanced/freeOSMemory"),
            optional("/hub/advanced/internalTempCelsius"),
            optional("/hub/advanced/databaseSize"),
        )
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
            "safe_mode": bool(hub_data.get("safeMode", False)),
            "free_memory_kb": free_mem,
            "temperature_c": temp,
            "database_size": db_size,
            "active_alerts": active_alerts,
            "messages": [str(m) for m in alerts.get("headerMessages") or []],
            "platform_update_available": bool(alerts.get("platformUpdateAvailable", False)),
            "maker_api_configured": self._client.connection.has_maker,
            "hub_security_configured": self._client.connection.has_security,
        }
