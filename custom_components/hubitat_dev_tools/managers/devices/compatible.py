"""Hubitat's compatible-device catalog (static; cached for a day per hub)."""

from __future__ import annotations

import re
import time
from typing import Any, TypedDict, cast

from ...errors import ToolError
from ...hub.controllers import DevicesController
from ...hub.errors import HubBadResponseError

COMPATIBLE_TTL_S = 24 * 3600
INSTRUCTION_CHARS = 600


def _protocol_key(value: str) -> str:
    return re.sub(r"[^a-z0-9]", "", value.lower())


def _plain_text(value: Any) -> str:
    text = re.sub(r"<[^>]+>", " ", str(value or ""))
    return re.sub(r"\s+", " ", text).strip()


class CompatibleSearch(TypedDict):
    """Catalog rows (empty fields left out), how many are shown and how many matched."""

    devices: list[dict[str, Any]]
    count: int
    matches: int


class CompatibleDevices:
    """Search of the compatible-device catalog."""

    def __init__(self, devices: DevicesController) -> None:
        self._devices = devices
        self._compatible: tuple[float, list[dict[str, Any]]] | None = None

    async def search(
        self, text: str | None, protocol: str | None, limit: int, instructions: bool
    ) -> CompatibleSearch:
        """Search Hubitat's compatible-device catalog (cached for a day: it is static)."""
        now = time.monotonic()
        want = _protocol_key(protocol) if protocol else None
        if protocol and not want:
            raise ToolError(f"'{protocol}' is not a protocol (e.g. Z-Wave, Zigbee).")
        if self._compatible is None or now - self._compatible[0] > COMPATIBLE_TTL_S:
            fresh = cast(list[dict[str, Any]], await self._devices.compatible())
            if not fresh:
                raise HubBadResponseError(
                    "The hub's compatible-device list came back empty.",
                    hint="Retry later; the hub may still be starting.",
                )
            self._compatible = (now, fresh)
        catalog = self._compatible[1]
        words = [w for w in re.split(r"\s+", (text or "").lower()) if w]
        hits = []
        for item in catalog:
            haystack = " ".join(
                str(item.get(k) or "")
                for k in ("brand", "name", "productNumber", "deviceType", "driverName")
            ).lower()
            if any(w not in haystack for w in words):
                continue
            if want and _protocol_key(str(item.get("protocol") or "")) != want:
                continue
            hits.append(item)
        rows = []
        for item in hits[:limit]:
            row = {
                "brand": item.get("brand"),
                "name": item.get("name"),
                "product_number": item.get("productNumber"),
                "device_type": item.get("deviceType"),
                "protocol": item.get("protocol"),
                "driver": item.get("driverName"),
                "integration_app": item.get("integrationAppName"),
            }
            if instructions:
                for src, dst in (
                    ("joinInstructions", "pairing"),
                    ("excludeInstructions", "exclusion"),
                    ("factoryResetInstructions", "factory_reset"),
                    ("notes", "notes"),
                ):
                    plain = _plain_text(item.get(src))
                    if plain:
                        row[dst] = plain[:INSTRUCTION_CHARS]
            rows.append({k: v for k, v in row.items() if v not in (None, "")})
        return {"devices": rows, "count": len(rows), "matches": len(hits)}
