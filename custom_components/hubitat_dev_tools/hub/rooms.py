"""Room endpoints."""

from __future__ import annotations

from typing import Any

from .client import HubClient
from .effects import confirm_effect, wait_for_effect
from .errors import HubBadResponseError, HubRefusedError
from .models import Room, dict_list, norm_id, parse_rooms_tree


async def fetch_rooms(client: HubClient) -> list[Room]:
    """Every room with its device ids (/hub2/roomsList)."""
    return parse_rooms_tree(await client.get_json("/hub2/roomsList"))


async def fetch_device_ids(client: HubClient) -> set[str]:
    """The id of every device on the hub (/device/listWithCapabilities/json)."""
    tree = await client.get_json("/device/listWithCapabilities/json")
    return {str(d.get("id")) for d in dict_list(tree)}


async def save_room(client: HubClient, room_id: str, name: str, device_ids: list[str]) -> str:
    """POST /room/save (JSON; roomId 0 creates; deviceIds is the COMPLETE membership).

    The hub UI reads only ``error`` from the answer, so the saved room is found by re-listing
    (by id, or by name for a new room) and checked: its name as sent, every device sent in
    it (the hub may add a parent's children).
    """
    body: dict[str, Any] = {
        "roomId": int(room_id),
        "name": name,
        "deviceIds": [int(d) for d in device_ids],
    }
    data = await client.post_json("/room/save", body, check=False)
    if isinstance(data, dict) and data.get("error"):
        raise HubRefusedError(
            f"The hub refused to save room '{name}': {data['error']}", reason=str(data["error"])
        )
    answered = norm_id(data.get("roomId")) if isinstance(data, dict) else None
    saved: list[str] = []

    async def landed() -> bool:
        for room in await fetch_rooms(client):
            same = room.id == room_id if room_id != "0" else room.name.lower() == name.lower()
            same = same or (answered is not None and room.id == answered)
            if same and room.name == name and set(device_ids) <= set(room.device_ids):
                saved.append(room.id)
                return True
        return False

    if not await wait_for_effect(landed):
        raise HubBadResponseError(
            f"The hub did not save room '{name}': the rooms list does not show it as sent",
            hint="Read the rooms again; retry once if the room is unchanged.",
        )
    return saved[-1]


async def delete_room(client: HubClient, room_id: str) -> None:
    """GET /room/delete/<id> (as the hub UI does; answer unread); verified by re-listing."""

    async def gone() -> bool:
        return all(room.id != room_id for room in await fetch_rooms(client))

    await confirm_effect(
        lambda: client.request("GET", f"/room/delete/{int(room_id)}", expect="any", retry=False),
        gone,
        failed=f"The hub did not delete room {room_id}: it is still in the rooms list",
    )
