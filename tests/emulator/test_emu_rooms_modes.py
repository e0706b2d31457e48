"""Rooms and modes admin CRUD (with their traps)."""

from __future__ import annotations

import json

import aiohttp

from hubitat_emulator import HubEmulator

from .conftest import get_json


async def test_rooms_list_tree(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    data = await get_json(session, f"{hub.url}/hub2/roomsList")
    nodes = data["roomNodes"]
    assert all(n["key"] == f"ROOM-{n['data']['id']}" for n in nodes)
    assert all(n["data"]["type"] == "Room" for n in nodes)
    names = {n["data"]["name"] for n in nodes}
    assert {"Kitchen", "Living Room", "Garage", "Front Porch"} <= names
    unassigned = next(n for n in nodes if n["data"]["id"] == 999999)
    assert any(c["data"]["label"] == "Vacation Mode" for c in unassigned["children"])
    basement = next(n for n in nodes if n["data"]["name"] == "Basement")
    plug = next(c for c in basement["children"] if c["data"]["label"] == "Basement Double Plug")
    assert len(plug["children"]) == 2
    rooms = await get_json(session, f"{hub.url}/room/listRoomsJson")
    assert {"id": 1, "name": "Kitchen"} in rooms


async def test_room_save_create_rename_and_traps(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    url = f"{hub.url}/room/save"
    lamp = int(hub.find_device("Guest Lamp")["id"])
    async with session.post(url, json={"roomId": 0, "name": "Attic", "deviceIds": [lamp]}) as r:
        created = json.loads(await r.text())
    new_id = created["roomId"]
    assert isinstance(new_id, int) and hub.device(lamp)["room"] == "Attic"
    async with session.post(url, json={"id": new_id, "name": "Loft"}) as r:
        assert json.loads(await r.text()) == {"roomId": None, "error": "Invalid room id"}
    async with session.post(url, data={"roomId": "0", "name": "Form Room"}) as r:
        assert r.status == 500  # form-encoded is rejected
    async with session.post(url, json={"roomId": 0, "name": "kitchen"}) as r:
        dup = json.loads(await r.text())
        assert dup["roomId"] is None and dup["error"]
    body = {"roomId": new_id, "name": "Loft", "deviceIds": [lamp]}
    async with session.post(url, json=body) as r:
        assert json.loads(await r.text()) == {"roomId": new_id}
    assert hub.rooms[new_id]["name"] == "Loft" and hub.rooms[new_id]["deviceIds"] == [lamp]
    # deviceIds is the complete membership: omitting it empties the room
    async with session.post(url, json={"roomId": new_id, "name": "Loft"}) as r:
        assert r.status == 200
    assert hub.rooms[new_id]["deviceIds"] == [] and hub.device(lamp)["room_id"] is None


async def test_room_delete_unassigns(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    office = hub.rooms[6]
    assert office["name"] == "Office" and office["deviceIds"]
    # the hub UI deletes with a GET and reads nothing from the answer; POST is not in evidence
    async with session.post(f"{hub.url}/room/delete/6", json={"roomId": 6}) as r:
        assert r.status == 405
    assert 6 in hub.rooms
    async with session.get(f"{hub.url}/room/delete/6") as r:
        assert r.status == 200
    assert 6 not in hub.rooms
    assert all(hub.device(d)["room_id"] is None for d in office["deviceIds"])
    async with session.get(f"{hub.url}/room/delete/6") as r:  # gone already: same page
        assert r.status == 200


async def test_modes_admin(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    data = await get_json(session, f"{hub.url}/modes/json")
    active = hub.state.current_mode_id  # the seeded story's mode for this hour
    assert data["currentModeId"] == active
    assert [m["name"] for m in data["modes"]] == ["Day", "Evening", "Night", "Away"]
    async with session.post(f"{hub.url}/modes/jsonCreate", json={"name": "Party"}) as r:
        assert json.loads(await r.text())["success"] is True
    async with session.post(f"{hub.url}/modes/jsonCreate", json={"name": "Party"}) as r:
        assert json.loads(await r.text())["success"] is False
    party = next(m for m in hub.modes if m["name"] == "Party")
    body = {"id": party["id"], "name": "Fiesta"}
    async with session.post(f"{hub.url}/modes/jsonUpdate", json=body) as r:
        assert json.loads(await r.text())["success"] is True
    assert any(m["name"] == "Fiesta" for m in hub.modes)
    bad = await get_json(session, f"{hub.url}/modes/jsonDelete/{active}")
    assert bad["success"] is False and bad["message"]  # the active mode
    ok = await get_json(session, f"{hub.url}/modes/jsonDelete/{party['id']}")
    assert ok["success"] is True
    assert all(m["name"] != "Fiesta" for m in hub.modes)


async def test_location_mode_update(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    # a mode other than the seeded story's mode for this hour
    mode_id, name = (2, "Evening") if hub.current_mode != "Evening" else (3, "Night")
    async with session.post(f"{hub.url}/location/mode/update", json={"modeId": mode_id}) as r:
        assert json.loads(await r.text())["success"] is True
    assert hub.current_mode == name
    messages = await get_json(session, f"{hub.url}/hub/messages")
    assert messages["mode"]["name"] == name and messages["mode"]["id"] == mode_id
    events = await get_json(session, f"{hub.url}/logs/eventsJson")
    assert events[0]["name"] == "mode" and events[0]["value"] == name
