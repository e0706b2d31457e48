"""The library's room functions (``hub/rooms.py``) on their own, no hass: the rooms tree read
from the hub's recorded answer (the Unassigned pseudo-room left out, a device's children
counted as members), a room saved with the body the hub UI sends and found by listing the
rooms again (whatever the save answered), a room deleted with the hub UI's GET and decided by
listing the rooms again, and the emulated hub answering a room save in the recorded shape and
unassigning a deleted room's devices.

Moved from tests/tools/test_rooms.py (test_rooms_parser_reads_the_contract_fixture,
test_room_save_is_found_by_re_listing, test_room_delete_is_a_get_decided_by_re_listing: the
room tools called by name, their summaries, the confirmation gate, the "nothing to change"
refusal, the device allowlist and the error a failing hub answers stay there) and the
library half of tests/managers/test_rooms.py::test_room_writes_follow_the_hub_ui (the save
answer's shape; the rooms manager's delete as the hub UI deletes stays there)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools.hub import effects
from custom_components.hubitat_dev_tools.hub import rooms as hub_rooms
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubRefusedError
from custom_components.hubitat_dev_tools.hub.models import parse_rooms_tree
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape, load_fixture
from ..home_util import dev_id
from ..hub_fake import FakeHub


@pytest.fixture
def quick_effects(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(effects, "EFFECT_WAIT", 0.05)
    monkeypatch.setattr(effects, "EFFECT_INTERVAL", 0.01)


@pytest.fixture
async def client(hub: HubEmulator) -> AsyncIterator[HubClient]:
    """The library's client of the emulated hub (Hub Security off)."""
    url = URL(hub.url)
    async with aiohttp.ClientSession() as session:
        yield HubClient(session, HubConnection(host=str(url.host), port=url.port))


def room_of(hub: HubEmulator, label: str) -> str | None:
    room: str | None = hub.find_device(label)["room"]
    return room


# ------------------------------------------------------------------ recorded hub answers


def test_rooms_parser_reads_the_contract_fixture() -> None:
    rooms = parse_rooms_tree(load_fixture("rooms/rooms_list").answer)
    # the Unassigned pseudo-room (999999) is not a room; children count as members
    assert [(r.id, r.name, r.device_ids) for r in rooms] == [("2", "Kitchen", ["6", "8", "9", "7"])]


def _rooms(*rooms: tuple[int, str, list[int]]) -> dict[str, Any]:
    """A /hub2/roomsList answer in the fixture's shape with these rooms."""
    fx = load_fixture("rooms/rooms_list").answer
    device = fx["roomNodes"][0]["children"][1]
    nodes = [
        {
            "key": f"ROOM-{rid}",
            "data": {"id": rid, "name": name, "type": "Room"},
            "children": [
                {**device, "key": f"DEV-{d}", "data": {**device["data"], "id": d}} for d in ids
            ],
        }
        for rid, name, ids in rooms
    ]
    return {**fx, "roomNodes": nodes}


@pytest.mark.usefixtures("quick_effects")
async def test_room_save_is_found_by_re_listing() -> None:
    answer = load_fixture("rooms/room_save").answer
    fake = FakeHub({"POST /room/save": answer, "GET /hub2/roomsList": _rooms((12, "Attic", [6]))})
    assert await hub_rooms.save_room(fake.client, "0", "Attic", ["6"]) == "12"
    assert fake.calls[0][2]["json_body"] == {"roomId": 0, "name": "Attic", "deviceIds": [6]}
    # the hub UI reads only `error`: an answer without roomId is fine when the list shows it
    fake.answers["POST /room/save"] = {}
    assert await hub_rooms.save_room(fake.client, "0", "Attic", ["6"]) == "12"
    fake.answers["POST /room/save"] = {"roomId": None, "error": "Invalid room id"}
    with pytest.raises(HubRefusedError, match="Invalid room id"):
        await hub_rooms.save_room(fake.client, "5", "Attic", [])
    # an answer that claims success with nothing in the list is a failure
    fake.answers["POST /room/save"] = answer
    with pytest.raises(HubBadResponseError, match="does not show it"):
        await hub_rooms.save_room(fake.client, "0", "Loft", [])


@pytest.mark.usefixtures("quick_effects")
async def test_room_delete_is_a_get_decided_by_re_listing() -> None:
    lists = iter([_rooms((5, "Den", [])), _rooms()])
    fake = FakeHub({"GET /room/delete/5": "", "GET /hub2/roomsList": lambda: next(lists)})
    await hub_rooms.delete_room(fake.client, "5")
    assert fake.calls[0][:2] == ("GET", "/room/delete/5")
    # an error answer whose effect is there is a success
    fake.answers["GET /room/delete/5"] = HubBadResponseError("HTTP 500")
    fake.answers["GET /hub2/roomsList"] = _rooms()
    await hub_rooms.delete_room(fake.client, "5")
    # the room still listed: a failure, whatever the hub answered
    fake.answers["GET /room/delete/5"] = ""
    fake.answers["GET /hub2/roomsList"] = _rooms((5, "Den", []))
    with pytest.raises(HubBadResponseError, match="still in the rooms list"):
        await hub_rooms.delete_room(fake.client, "5")


# ------------------------------------------------------------------ the emulated hub


async def test_room_save_and_delete_follow_the_hub_ui(hub: HubEmulator, client: HubClient) -> None:
    """A room saved as the hub UI saves it answers in the recorded shape; the library's delete
    is the hub UI's GET of /room/delete/<id>, and the room's devices become unassigned."""
    lamp = dev_id(hub, "Guest Lamp")
    saved = await client.post_json(
        "/room/save", {"roomId": 0, "name": "Attic", "deviceIds": [int(lamp)]}
    )
    assert_same_shape("rooms/room_save", saved)
    assert room_of(hub, "Guest Lamp") == "Attic"
    before = len(hub.requests)
    await hub_rooms.delete_room(client, str(saved["roomId"]))
    assert room_of(hub, "Guest Lamp") is None
    assert "Attic" not in [r.name for r in await hub_rooms.fetch_rooms(client)]
    deletes = [(m, p) for m, p in hub.requests[before:] if p.startswith("/room/delete/")]
    assert deletes == [("GET", f"/room/delete/{saved['roomId']}")]
