"""Rooms: list with device counts."""

from __future__ import annotations

from typing import Any

from ..hub.client import HubClient
from ..hub.rooms import fetch_rooms


class RoomManager:
    """Room reads and writes."""

    def __init__(self, client: HubClient) -> None:
        self._client = client

    async def list_rooms(self, *, allowed: set[str] | None = None) -> list[dict[str, Any]]:
        """Every room with its device count and ids (restricted to ``allowed`` ids if given)."""
        rooms = await fetch_rooms(self._client)
        out = []
        for room in rooms:
            ids = [d for d in room.device_ids if allowed is None or d in allowed]
            out.append(
                {"room_id": room.id, "name": room.name, "device_count": len(ids), "device_ids": ids}
            )
        return sorted(out, key=lambda r: str(r["name"]).lower())
