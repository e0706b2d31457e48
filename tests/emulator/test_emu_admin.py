"""Admin device surface: trees, fullJson, runmethod, wholesale update, setters and creation."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from hubitat_emulator import HubEmulator

from .conftest import get_json


def dev_id(emu: HubEmulator, label: str) -> int:
    return int(emu.find_device(label)["id"])


def walk(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in nodes:
        out.append(n)
        out += walk(n["children"])
    return out


async def test_devices_list_is_a_tree(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    data = await get_json(session, f"{hub.url}/hub2/devicesList")
    top = data["devices"]
    everything = walk(top)
    assert len(everything) == len(hub.state.devices)
    assert all(isinstance(n["data"]["id"], int) for n in everything)
    parent = next(n for n in top if n["data"]["label"] == "Basement Double Plug")
    assert parent["parent"] is True
    kids = {c["data"]["label"] for c in parent["children"]}
    assert kids == {"Dehumidifier", "Chest Freezer"}
    top_labels = {n["data"]["label"] for n in top}
    assert "Dehumidifier" not in top_labels  # children only inside `children`
    node = next(n for n in top if n["data"]["label"] == "Kitchen Light")
    d = node["data"]
    assert node["key"] == f"DEV-{d['id']}"
    assert d["roomName"] == "Kitchen" and isinstance(d["roomId"], int)
    assert {"key": "switch", "value": "on"} in d["currentStates"]
    assert isinstance(d["tags"], str) and "lights" in d["tags"]
    assert d["lastActivity"].endswith("+0000")
    assert any(n["data"]["disabled"] for n in everything)


async def test_full_json_shape(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Living Room Lamp")
    data = await get_json(session, f"{hub.url}/device/fullJson/{did}")
    dev = data["device"]
    assert dev["id"] == did and dev["typeName"] == "Generic Zigbee RGBW Light"
    assert dev["roomName"] == "Living Room" and dev["roomId"] == 2
    lvl = dev["currentStates"]["level"]
    assert lvl["value"] == "45" and lvl["numberValue"] == 45 and lvl["unit"] == "%"
    assert lvl["dataType"] == "NUMBER" and lvl["date"][-5] in "+-"
    assert isinstance(dev["tags"], str)
    assert {"name": "txtEnable", "type": "bool", "value": True} in dev["settings"]
    assert isinstance(dev["version"], int)
    assert isinstance(data["appsUsingCount"], str)
    assert int(data["appsUsingCount"]) == len(data["appsUsing"])
    cmds = {c["name"]: c for c in data["commands"]}
    assert cmds["setColor"]["parameters"] == [{"name": "colorMap", "type": "COLOR_MAP"}]
    assert cmds["setLevel"]["arguments"] == ["NUMBER", "NUMBER"]
    assert cmds["on"]["capability"] in ("Switch", "Light")
    start = cmds["startLevelChange"]["parameters"][0]
    assert start["type"] == "ENUM" and start["constraints"] == ["up", "down"]
    thermo = dev_id(hub, "Downstairs Thermostat")
    tdata = await get_json(session, f"{hub.url}/device/fullJson/{thermo}")
    tcmds = {c["name"]: c for c in tdata["commands"]}
    assert tcmds["setSchedule"]["parameters"][0]["type"] == "JSON_OBJECT"
    assert tdata["parentApp"]["name"] == "Ecobee Integration"
    plug = dev_id(hub, "Basement Double Plug")
    pdata = await get_json(session, f"{hub.url}/device/fullJson/{plug}")
    assert len(pdata["childDevices"][str(plug)]) == 2
    async with session.get(f"{hub.url}/device/fullJson/987654") as resp:
        assert resp.status == 404


async def test_events_json_newest_first(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Kitchen Motion")
    hub.set_device_attribute(did, "motion", "inactive")
    events = await get_json(session, f"{hub.url}/device/eventsJson/{did}")
    assert events[0]["name"] == "motion" and events[0]["value"] == "inactive"
    assert events[0]["type"] == "physical" and events[0]["deviceId"] == did
    assert events[0]["id"] > events[-1]["id"]
    assert len(events) > 5  # seeded history


async def test_runmethod(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Office Light")
    url = f"{hub.url}/device/runmethod"
    body = {"id": did, "method": "setLevel", "args": [{"type": "NUMBER", "value": 40}]}
    async with session.post(url, json=body) as resp:
        assert json.loads(await resp.text()) == {"success": True, "message": None}
    assert hub.device(did)["attributes"]["level"] == 40
    async with session.post(url, json={"id": did, "method": "setLevel", "args": [40]}) as resp:
        assert resp.status == 500  # bare argument values
    async with session.post(url, json={"id": did, "method": "fly", "args": []}) as resp:
        data = json.loads(await resp.text())
        assert data["success"] is False and data["message"]
    async with session.post(url, json={"id": did, "method": "off", "args": []}) as resp:
        assert json.loads(await resp.text())["success"] is True
    assert hub.device(did)["attributes"]["switch"] == "off"


async def test_update_is_wholesale(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Kitchen Light")
    snap = hub.device(did)
    form = {"id": str(did), "version": str(snap["version"]), "label": "Kitchen Cans"}
    async with session.post(f"{hub.url}/device/update", data=form) as resp:
        assert json.loads(await resp.text())["success"] is True
    after = hub.device(did)
    assert after["label"] == "Kitchen Cans"
    assert after["name"] == "" and after["dni"] == ""  # omitted fields were blanked
    assert after["room_id"] is None and after["tags"] == []
    assert after["version"] == snap["version"] + 1
    stale = {"id": str(did), "version": str(snap["version"]), "label": "x"}
    async with session.post(f"{hub.url}/device/update", data=stale) as resp:
        assert json.loads(await resp.text())["success"] is False


async def test_update_read_merge_keeps_fields(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    did = dev_id(hub, "Porch Light")
    full = (await get_json(session, f"{hub.url}/device/fullJson/{did}"))["device"]
    form = {
        "id": str(did),
        "version": str(full["version"]),
        "name": full["name"],
        "label": full["label"],
        "deviceNetworkId": full["deviceNetworkId"],
        "deviceTypeId": str(full["deviceTypeId"]),
        "roomId": str(full["roomId"]),
        "tags": full["tags"] + ",new",
        "notes": "hello",
    }
    async with session.post(f"{hub.url}/device/update", data=form) as resp:
        assert resp.status == 200
    after = hub.device(did)
    assert after["room"] == "Front Porch" and "new" in after["tags"] and after["notes"] == "hello"
    tags = await get_json(session, f"{hub.url}/device/availableTags")
    assert "new" in tags and "lights" in tags


async def test_save_ignores_room(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Garage Light")
    form = {"id": str(did), "label": "Garage Shop Light", "roomId": "1"}
    async with session.post(f"{hub.url}/device/save", data=form) as resp:
        assert resp.status == 200
    assert hub.device(did)["label"] == "Garage Shop Light"
    assert hub.device(did)["room"] == "Garage"


async def test_disable(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Garage Light")
    async with session.get(f"{hub.url}/device/disable?id={did}&disable=true") as resp:
        assert resp.status == 405
    async with session.post(f"{hub.url}/device/disable", data={"id": did, "disable": "true"}) as r:
        assert r.status == 200
    assert hub.device(did)["disabled"] is True
    async with session.post(f"{hub.url}/device/disable", data={"id": did, "disable": "false"}) as r:
        assert r.status == 200
    assert hub.device(did)["disabled"] is False
    # what the hub UI sends: JSON {id, disable: <bool>}
    async with session.post(f"{hub.url}/device/disable", json={"id": did, "disable": True}) as r:
        assert r.status == 200
    assert hub.device(did)["disabled"] is True
    async with session.post(f"{hub.url}/device/disable", json={"id": did, "disable": False}) as r:
        assert r.status == 200
    assert hub.device(did)["disabled"] is False


async def test_room_setters(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Guest Mode")
    async with session.get(f"{hub.url}/device/updateLabel?deviceId={did}&label=x") as resp:
        assert resp.status == 404  # firmware-gated setter
    async with session.get(f"{hub.url}/device/setRoom?deviceId={did}&roomId=6") as resp:
        assert await resp.text() == "true"
    assert hub.device(did)["room"] == "Office"
    rooms_before = len(hub.rooms)
    async with session.get(f"{hub.url}/device/updateRoom?deviceId={did}&room=Kitchen") as resp:
        assert await resp.text() == "true"
    assert hub.device(did)["room"] == "Kitchen" and len(hub.rooms) == rooms_before
    # the trap: an id (or unknown name) silently creates a spurious room
    async with session.get(f"{hub.url}/device/updateRoom?deviceId={did}&room=6") as resp:
        assert await resp.text() == "true"
    assert hub.device(did)["room"] == "6" and len(hub.rooms) == rooms_before + 1


async def test_preference_save(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Kitchen Motion")
    url = f"{hub.url}/device/preference/save"
    async with session.post(url, json={"deviceId": did, "logEnable": True}) as resp:
        assert json.loads(await resp.text()) == {"success": True}
    assert hub.device(did)["settings"]["logEnable"] is False  # flat key: silent no-op
    body = {
        "deviceId": did,
        "preferences": [
            {"name": "logEnable", "type": "bool", "value": "true"},
            {"name": "motionReset", "type": "number", "value": "120"},
        ],
    }
    async with session.post(url, json=body) as resp:
        assert json.loads(await resp.text()) == {"success": True}
    settings = hub.device(did)["settings"]
    assert settings["logEnable"] is True and settings["motionReset"] == 120
    async with session.post(url, json={"deviceId": did, "showOnHome": False}) as resp:
        assert resp.status == 200
    assert hub.device_obj(did).show_on_home is False


async def test_drivers_create_and_delete(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    drivers = (await get_json(session, f"{hub.url}/device/drivers"))["drivers"]
    kinds = {d["type"] for d in drivers}
    assert kinds == {"sys", "usr", "dep"}
    virtual = [d for d in drivers if d["name"].startswith("Virtual ")]
    assert len(virtual) >= 5
    used = {d["driver"].id for d in [{"driver": x.driver} for x in hub.state.devices.values()]}
    assert used <= {d["id"] for d in drivers}
    vswitch = next(d["id"] for d in virtual if d["name"] == "Virtual Switch")
    created = await get_json(session, f"{hub.url}/device/createVirtual?deviceTypeId={vswitch}")
    new_id = created["deviceId"]
    assert hub.device(new_id)["type"] == "Virtual Switch"
    assert hub.device(new_id)["name"] == "Virtual Switch"  # named after its driver
    labelled = await get_json(
        session, f"{hub.url}/device/createVirtual?deviceTypeId={vswitch}&label=Ignored"
    )
    assert hub.device(labelled["deviceId"])["label"] is None  # no label parameter in evidence
    other = await get_json(session, f"{hub.url}/device/sysDriverByIdJson/{vswitch}")
    assert other["success"] is True and other["deviceId"] != new_id
    full = await get_json(session, f"{hub.url}/device/fullJson/{new_id}")
    assert full["device"]["currentStates"]["switch"]["value"] == "off"
    bad = await get_json(session, f"{hub.url}/device/sysDriverByIdJson/99999")
    assert bad["success"] is False
    gone = await get_json(session, f"{hub.url}/device/forceDelete/{new_id}/json")
    assert gone == {"status": "success"} and new_id not in hub.state.devices
    assert await get_json(session, f"{hub.url}/device/forceDelete/{new_id}/json") == {
        "status": "failed"
    }
    hub.state.force_delete_status = "partial"
    gone = await get_json(session, f"{hub.url}/device/forceDelete/{other['deviceId']}/json")
    assert gone == {"status": "partial"} and other["deviceId"] not in hub.state.devices
    # the older confirm link still deletes (its answer is a page: nothing to read)
    third = await get_json(session, f"{hub.url}/device/createVirtual?deviceTypeId={vswitch}")
    async with session.get(f"{hub.url}/device/forceDelete/{third['deviceId']}/yes") as resp:
        assert resp.status == 200
    assert third["deviceId"] not in hub.state.devices


async def test_lists(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    caps = await get_json(session, f"{hub.url}/device/listWithCapabilities/json")
    assert len(caps) == len(hub.state.devices)
    assert all(isinstance(c["id"], int) and isinstance(c["capabilities"], list) for c in caps)
    did = dev_id(hub, "Kitchen Motion")
    options = await get_json(session, f"{hub.url}/device/getReplacementOptions/{did}")
    assert options and {"id", "name", "deviceTypes"} <= set(options[0])
