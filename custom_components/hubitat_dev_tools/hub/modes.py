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
    """POST /modes/jsonCreate ``{name, icon, daysOfWeek}``: the hub UI's new-mode body
    (``ModeController.postBody`` without an id: the icon, ``""`` for none, and the editor's
    starting days, every day)."""
    body: dict[str, Any] = {"name": name, "icon": icon or "", "daysOfWeek": list(ALL_DAYS)}
    await client.post_json("/modes/jsonCreate", body, what=f"create mode '{name}'")


# The days the hub UI's mode editor starts from when a mode has no day schedule (0 = Sunday).
ALL_DAYS = (0, 1, 2, 3, 4, 5, 6)


def mode_days(conditions: dict[str, list[dict[str, Any]]], mode_id: str) -> list[int]:
    """The days the hub UI's mode editor posts back for a mode it did not reschedule.

    Hub UI (``vue-hub2.min.js``, ``ModeController``): ``daysOfWeek`` starts as every day
    and ``fetchFullModesConditionsData`` replaces it with the ``daysOfWeek`` of the mode's
    ``daysOfWeek`` entry in ``/modes/easyModeManager/json`` (``conditions``, keyed by the
    mode id) when there is one.
    """
    for item in conditions.get(str(mode_id)) or []:
        if item.get("triggerType") != "daysOfWeek":
            continue
        raw = item.get("daysOfWeek")
        if isinstance(raw, list):
            return [int(d) for d in raw if isinstance(d, int | str) and str(d).isdigit()]
    return list(ALL_DAYS)


async def update_mode(
    client: HubClient, mode_id: str, name: str, icon: str, days_of_week: list[int]
) -> None:
    """POST /modes/jsonUpdate ``{name, icon, daysOfWeek, id}``: the hub UI's body, in its order.

    The hub UI (``ModeController.postBody``) always sends the icon (the mode's, ``""`` for
    none) and ``daysOfWeek`` (see :func:`mode_days`): the caller passes both as they are
    unless it changes them.
    """
    body: dict[str, Any] = {
        "name": name,
        "icon": icon,
        "daysOfWeek": list(days_of_week),
        "id": int(mode_id),
    }
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
