"""Maker API: token rules, quirky payload shapes, commands (pre-state then events), modes,
HSM, hub variables and rooms."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest
from aiohttp import web

from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape
from .conftest import eventually, frames_until, get_json, maker


def dev_id(emu: HubEmulator, label: str) -> int:
    return int(emu.find_device(label)["id"])


async def test_token_rules(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    for url in (maker(hub, "/devices", token=None), maker(hub, "/devices", token="nope")):
        async with session.get(url) as resp:
            assert resp.status == 401
            assert await resp.text() == "<oauth><error>invalid_token</error></oauth>"
    headers = {"Authorization": f"Bearer {hub.maker_token}"}
    data = await get_json(session, maker(hub, "/devices", token=None), headers=headers)
    assert data
    async with session.get(f"{hub.url}/apps/api/99/devices?access_token={hub.maker_token}") as r:
        assert r.status == 404


async def test_json_is_text_html_and_ids_are_strings(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    async with session.get(maker(hub, "/devices")) as resp:
        assert resp.content_type == "text/html"
        devices = json.loads(await resp.text())
    assert len(devices) >= 45
    assert all(isinstance(d["id"], str) for d in devices)
    kitchen = next(d for d in devices if d["label"] == "Kitchen Light")
    assert kitchen["type"] == "Generic Z-Wave Dimmer"
    assert kitchen["room"] == "Kitchen"


async def test_devices_all_flat_attributes_with_stray_keys(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    devices = await get_json(session, maker(hub, "/devices/all"))
    outlet = next(d for d in devices if d["label"] == "Coffee Maker")
    attrs = outlet["attributes"]
    assert isinstance(attrs, dict)
    assert "dataType" in attrs and "values" in attrs  # the known Maker quirk
    assert attrs["switch"] == "off"
    assert isinstance(attrs["power"], str)
    assert {"command": "on"} in outlet["commands"]
    assert outlet["capabilities"] and all(isinstance(c, str) for c in outlet["capabilities"])
    assert outlet["date"].endswith("+0000")


async def test_device_detail_quirks(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Coffee Maker")
    data = await get_json(session, maker(hub, f"/devices/{did}"))
    assert data["id"] == str(did)
    names = [a["name"] for a in data["attributes"]]
    assert names.count("switch") >= 2  # duplicate attribute (Switch + Outlet)
    assert data["commands"].count("on") >= 2  # duplicate commands
    assert any(isinstance(c, dict) and "attributes" in c for c in data["capabilities"])
    block = next(c for c in data["capabilities"] if isinstance(c, dict))
    assert block["attributes"][0]["dataType"] is None
    power = next(a for a in data["attributes"] if a["name"] == "power")
    assert power["dataType"] == "NUMBER" and isinstance(power["currentValue"], (int, float))
    sw = next(a for a in data["attributes"] if a["name"] == "switch")
    assert sw["values"] == ["on", "off"]
    everything = await get_json(session, maker(hub, "/devices/*"))
    assert isinstance(everything[0]["attributes"], list)


async def test_commands_capabilities_attribute_events(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    did = dev_id(hub, "Living Room Lamp")
    cmds = await get_json(session, maker(hub, f"/devices/{did}/commands"))
    by_name = {c["command"]: c["type"] for c in cmds}
    assert by_name["on"] == ["n/a"]
    assert by_name["setColor"] == ["COLOR_MAP"]
    assert by_name["setLevel"] == ["NUMBER", "NUMBER"]
    caps = await get_json(session, maker(hub, f"/devices/{did}/capabilities"))
    assert "Switch" in caps["capabilities"]
    blocks = [c for c in caps["capabilities"] if isinstance(c, dict)]
    assert any(
        a["name"] == "switch" and a["currentValue"] == "on" for b in blocks for a in b["attributes"]
    )
    attr = await get_json(session, maker(hub, f"/devices/{did}/attribute/level"))
    assert attr == {"id": str(did), "attribute": "level", "value": 45}
    events = await get_json(session, maker(hub, f"/devices/{did}/events?num=3"))
    assert 1 <= len(events) <= 3
    assert events[0]["device_id"] == str(did)
    assert events[0]["date"] >= events[-1]["date"]


async def test_command_returns_pre_state_then_emits(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    did = dev_id(hub, "Dining Chandelier")
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        before = await get_json(session, maker(hub, f"/devices/{did}/on"))
        sw = next(a for a in before["attributes"] if a["name"] == "switch")
        assert sw["currentValue"] == "off"  # state BEFORE the command
        frames = await frames_until(ws, lambda f: f["deviceId"] == did and f["name"] == "switch")
    frame = frames[-1]
    assert frame["value"] == "on" and frame["type"] == "digital" and frame["source"] == "DEVICE"
    assert hub.device(did)["attributes"]["switch"] == "on"
    after = await get_json(session, maker(hub, f"/devices/{did}"))
    assert next(a for a in after["attributes"] if a["name"] == "switch")["currentValue"] == "on"


async def test_multi_arg_and_json_commands(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    did = dev_id(hub, "Living Room Lamp")
    await get_json(session, maker(hub, f"/devices/{did}/setLevel/30,2"))
    assert hub.device(did)["attributes"]["level"] == 30
    color = json.dumps({"hue": 66, "saturation": 90, "level": 55})
    await get_json(session, maker(hub, f"/devices/{did}/setColor/{color}"))
    attrs = hub.device(did)["attributes"]
    assert (attrs["hue"], attrs["saturation"], attrs["level"]) == (66, 90, 55)
    assert attrs["colorMode"] == "RGB"
    await get_json(session, maker(hub, f"/devices/{did}/setColorTemperature/2700"))
    assert hub.device(did)["attributes"]["colorMode"] == "CT"
    await get_json(session, maker(hub, f"/devices/{did}/off"))
    assert hub.device(did)["attributes"]["switch"] == "off"
    await get_json(session, maker(hub, f"/devices/{did}/setLevel/20"))
    assert hub.device(did)["attributes"]["switch"] == "on"  # setLevel > 0 turns it on


async def test_unknown_command_and_bad_args(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    did = dev_id(hub, "Kitchen Light")
    async with session.get(maker(hub, f"/devices/{did}/explode")) as resp:
        assert resp.status == 404
    async with session.get(maker(hub, f"/devices/{did}/setLevel/bright")) as resp:
        assert resp.status == 500
        assert "error" in json.loads(await resp.text())
    async with session.get(maker(hub, "/devices/987654")) as resp:
        assert resp.status == 404


async def test_disabled_device_ignores_commands(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    dis = next(d for d in hub.state.devices.values() if d.disabled)
    before = len(dis.events)
    await get_json(session, maker(hub, f"/devices/{dis.id}/refresh"))
    switch = dev_id(hub, "Vacation Mode")
    hub.device_obj(switch).disabled = True
    await get_json(session, maker(hub, f"/devices/{switch}/on"))
    assert hub.device(switch)["attributes"]["switch"] == "off"
    assert len(dis.events) == before


@pytest.mark.parametrize(
    ("label", "command", "attr", "expected"),
    [
        ("Front Door Lock", "unlock", "lock", "unlocked"),
        ("Water Main Valve", "close", "valve", "closed"),
        ("Basement Siren", "both", "alarm", "both"),
        ("Living Room Fan", "setSpeed/high", "speed", "high"),
        ("Security Keypad", "armAway", "securityKeypad", "armed away"),
        ("Downstairs Thermostat", "setHeatingSetpoint/72", "heatingSetpoint", 72),
        ("Downstairs Thermostat", "setThermostatMode/cool", "thermostatMode", "cool"),
        ("Alice's Phone", "departed", "presence", "not present"),
    ],
)
async def test_stateful_commands(
    hub: HubEmulator,
    session: aiohttp.ClientSession,
    label: str,
    command: str,
    attr: str,
    expected: Any,
) -> None:
    did = dev_id(hub, label)
    await get_json(session, maker(hub, f"/devices/{did}/{command}"))
    assert hub.device(did)["attributes"][attr] == expected


async def test_fan_off_and_lock_codes(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    fan = dev_id(hub, "Living Room Fan")
    await get_json(session, maker(hub, f"/devices/{fan}/off"))
    assert hub.device(fan)["attributes"]["speed"] == "off"
    assert hub.device(fan)["attributes"]["switch"] == "off"
    lock = dev_id(hub, "Front Door Lock")
    await get_json(session, maker(hub, f"/devices/{lock}/setCode/4,9999,Guest"))
    codes = json.loads(str(hub.device(lock)["attributes"]["lockCodes"]))
    assert codes["4"] == {"name": "Guest", "code": "9999"}
    await get_json(session, maker(hub, f"/devices/{lock}/deleteCode/4"))
    assert "4" not in json.loads(str(hub.device(lock)["attributes"]["lockCodes"]))


async def test_garage_door_travels(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Garage Door")
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        await get_json(session, maker(hub, f"/devices/{did}/open"))
        assert hub.device(did)["attributes"]["door"] == "opening"
        frames = await frames_until(ws, lambda f: f["name"] == "door" and f["value"] == "open")
    values = [f["value"] for f in frames if f["name"] == "door"]
    assert values == ["opening", "open"]
    assert hub.device(did)["attributes"]["contact"] == "open"


async def test_button_push_always_emits(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Living Room Pico")
    before = len(hub.device_events(did))
    await get_json(session, maker(hub, f"/devices/{did}/push/1"))
    await get_json(session, maker(hub, f"/devices/{did}/push/1"))
    events = hub.device_events(did)[before:]
    state = [(e.name, e.value) for e in events if e.type != "command"]
    assert state == [("pushed", "1"), ("pushed", "1")]
    # each call is recorded too, with the Maker API as its producer
    calls = [e for e in events if e.type == "command"]
    assert [e.name for e in calls] == ["command-push", "command-push"]
    assert all(e.produced_by and "/installedapp/configure/" in e.produced_by for e in calls)


async def test_modes(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    modes = await get_json(session, maker(hub, "/modes"))
    assert [m["name"] for m in modes] == ["Day", "Evening", "Night", "Away"]
    assert all(isinstance(m["id"], int) for m in modes)
    start = hub.current_mode  # the seeded story's mode for this hour
    assert next(m for m in modes if m["active"])["name"] == start
    target = "Night" if start != "Night" else "Day"
    wanted = next(m["id"] for m in modes if m["name"] == target)
    after = await get_json(session, maker(hub, f"/modes/{wanted}"))
    assert next(m for m in after if m["active"])["name"] == target
    assert hub.current_mode == target
    async with session.get(maker(hub, "/modes/77")) as resp:
        assert resp.status == 404


async def test_hsm_arming_sequence(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    assert await get_json(session, maker(hub, "/hsm")) == {"hsm": "disarmed"}
    assert await get_json(session, maker(hub, "/hsm/armAway")) == {"hsm": "armingAway"}
    await eventually(lambda: hub.hsm_status == "armedAway")
    assert await get_json(session, maker(hub, "/hsm")) == {"hsm": "armedAway"}
    assert await get_json(session, maker(hub, "/hsm/disarm")) == {"hsm": "disarmed"}
    assert await get_json(session, maker(hub, "/hsm/disarmAll")) == {"hsm": "allDisarmed"}
    async with session.get(maker(hub, "/hsm/explode")) as resp:
        assert resp.status == 404


async def test_hub_variables(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    variables = await get_json(session, maker(hub, "/hubvariables"))
    types = {v["type"] for v in variables}
    assert types == {"integer", "bigdecimal", "boolean", "string", "datetime"}
    one = await get_json(session, maker(hub, "/hubvariables/guestCount"))
    assert one == {"name": "guestCount", "value": 2, "type": "integer"}
    assert (await get_json(session, maker(hub, "/hubvariables/guestCount/5")))["value"] == 5
    async with session.get(maker(hub, "/hubvariables/guestCount/lots")) as resp:
        assert resp.status == 400
    assert hub.variables["guestCount"]["value"] == 5
    flag = await get_json(session, maker(hub, "/hubvariables/vacationMode/TRUE"))
    assert flag["value"] is True
    when = await get_json(
        session, maker(hub, "/hubvariables/wakeUpTime/2026-06-27T07:15:00.000-0600")
    )
    assert when["value"].startswith("2026-06-27T")
    async with session.get(maker(hub, "/hubvariables/nope")) as resp:
        assert resp.status == 404


async def test_rooms(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    rooms = await get_json(session, maker(hub, "/rooms"))
    kitchen = next(r for r in rooms if r["name"] == "Kitchen")
    assert dev_id(hub, "Kitchen Light") in kitchen["deviceIds"]
    assert len(rooms) == 9


async def test_maker_device_allowlist(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = dev_id(hub, "Kitchen Light")
    hub.maker_device_ids = {did}
    devices = await get_json(session, maker(hub, "/devices"))
    assert [d["id"] for d in devices] == [str(did)]
    other = dev_id(hub, "Porch Light")
    async with session.get(maker(hub, f"/devices/{other}")) as resp:
        assert resp.status == 404


async def test_post_url_delivery(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    received: list[dict[str, Any]] = []
    got = asyncio.Event()

    async def sink(request: web.Request) -> web.Response:
        received.append(await request.json())
        got.set()
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post("/hook", sink)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        target = f"http://127.0.0.1:{port}/hook"
        reg = await get_json(session, maker(hub, f"/postURL/{quote(target, safe='')}"))
        assert reg == {"url": target}
        did = dev_id(hub, "Guest Lamp")
        hub.set_mode("Night")  # location events are off by default: not posted
        await get_json(session, maker(hub, f"/devices/{did}/on"))
        await asyncio.wait_for(got.wait(), 2)
        content = received[0]["content"]
        assert content["deviceId"] == str(did) and content["value"] == "on"
        assert content["unit"] is None and content["name"] == "switch"
        assert len(received) == 1
    finally:
        await get_json(session, maker(hub, "/postURL"))
        assert hub.post_url is None
        await runner.cleanup()


async def test_shade_set_level_moves_position(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    did = dev_id(hub, "Living Room Shades")
    await get_json(session, maker(hub, f"/devices/{did}/setLevel/40"))
    assert hub.device(did)["attributes"]["windowShade"] == "closing"
    await eventually(lambda: hub.device(did)["attributes"]["windowShade"] == "partially open")
    attrs = hub.device(did)["attributes"]
    assert (attrs["windowShade"], attrs["position"], attrs["level"]) == ("partially open", 40, 40)


async def test_device_details_have_the_real_shape(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    # Maker /devices/<id> as hacs-hubitat captured it: attributes with currentValue/dataType
    # (values for enums), capabilities mixing names and {attributes}, command names.
    for name in ("Kitchen Light", "Kitchen Sink Leak"):
        did = hub.find_device(name)["id"]
        assert_same_shape("maker/device", await get_json(session, maker(hub, f"/devices/{did}")))
