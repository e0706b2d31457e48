"""Room endpoints."""

from __future__ import annotations

from .client import HubClient
from .models import Room, parse_rooms_tree


async def fetch_rooms(client: HubClient) -> list[Room]:
    """Every room with its device ids (/hub2/roomsList)."""
    return parse_rooms_tree(await client.get_json("/hub2/roomsList"))
