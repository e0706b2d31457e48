"""Room endpoints."""

from __future__ import annotations

from typing import Any

from .client import HubClient
from .errors import HubBadResponseError
from .models import Room, dict_list, norm_id, parse_rooms_tree


async def fetch_rooms(client: HubClient) -> list[Room]:
    """Every room with its device ids (/hub2/roomsList)."""
    return parse_rooms_tree(await client.get_json("/hub2/roomsList"))


async def fetch_device_ids(client: HubClient) -> set[str]:
    """The id of every device on the hub (/device/listWithCapabilities/json)."""
    tree = await client.get_json("/device/listWithCapabilities/json")
    return {str(d.get("id")) for d in dict_list(tree)}


async def save_room(client: HubClient, room_id: str, name: str, device_ids: list[str]) -> str:
    """POST /room/save (JSON; roomId 0 creates; deviceIds is the COMPLETE membership)."""
    body: dict[str, Any] = {
        "roomId": int(room_id),
        "name": name,
        "deviceIds": [int(d) for d in device_ids],
    }
    data = await client.post_json("/room/save", body)
    new_id = norm_id(data.get("roomId")) if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("error") or new_id is None:
        msg = data.get("error") if isinstance(data, dict) else data
        raise HubBadResponseError(f"The hub refused to save room '{name}': {msg}")
    return new_id


async def delete_room(client: HubClient, room_id: str) -> None:
    """POST /room/delete/<id> with {roomId}."""
    await client.post_json(
        f"/room/delete/{int(room_id)}", {"roomId": int(room_id)}, what=f"delete room {room_id}"
    )
