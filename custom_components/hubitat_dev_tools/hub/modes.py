"""Location mode endpoints: list, activate (Maker API or admin), create, rename, delete."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .client import HubClient


async def fetch_modes(client: HubClient) -> dict[str, Any]:
    """GET /modes/json: {modes:[{id,name,icon,conditions}], currentModeId, ...}."""
    data = await client.get_json("/modes/json")
    return data if isinstance(data, dict) else {}


async def activate_mode_maker(client: HubClient, mode_id: str) -> Any:
    """Maker GET /modes/<id> (returns the full modes list)."""
    return await client.maker_get(f"modes/{quote(mode_id, safe='')}", retry=False)


async def activate_mode_admin(client: HubClient, mode_id: str) -> None:
    """Admin POST /location/mode/update {modeId} (the hub UI's path)."""
    await client.post_json(
        "/location/mode/update", {"modeId": int(mode_id)}, what="activate the mode"
    )


async def create_mode(client: HubClient, name: str, icon: str | None) -> None:
    """POST /modes/jsonCreate."""
    body: dict[str, Any] = {"name": name}
    if icon:
        body["icon"] = icon
    await client.post_json("/modes/jsonCreate", body, what=f"create mode '{name}'")


async def update_mode(client: HubClient, mode_id: str, name: str, icon: str | None) -> None:
    """POST /modes/jsonUpdate {id, name, icon?}."""
    body: dict[str, Any] = {"id": int(mode_id), "name": name}
    if icon:
        body["icon"] = icon
    await client.post_json("/modes/jsonUpdate", body, what="update the mode")


async def delete_mode(client: HubClient, mode_id: str) -> None:
    """GET /modes/jsonDelete/<id>."""
    await client.request(
        "GET",
        f"/modes/jsonDelete/{int(mode_id)}",
        expect="any",
        retry=False,
        what="delete the mode",
    )
