"""/eventsocket and /logsocket frames, pings, junk/split frames and dropped sockets."""

from __future__ import annotations

import asyncio
from datetime import datetime
from zoneinfo import ZoneInfo

import aiohttp
import pytest

from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import HUB_TZ_NAME

from ..contract import assert_same_shape
from .conftest import fast_hub, frames_until, get_json, make_session, maker, next_frame

FRAME_KEYS = [
    "source",
    "name",
    "displayName",
    "value",
    "type",
    "unit",
    "deviceId",
    "hubId",
    "installedAppId",
    "descriptionText",
]


async def test_device_frame_shape(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = int(hub.find_device("Kitchen Sink Leak")["id"])
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        hub.set_device_attribute(did, "temperature", 66.5)
        frame = await next_frame(ws)
    assert list(frame) == FRAME_KEYS
    assert_same_shape("events/event_frame", frame)
    assert frame["source"] == "DEVICE" and frame["deviceId"] == did
    assert frame["value"] == "66.5" and isinstance(frame["value"], str)
    assert frame["type"] == "physical" and frame["unit"] == "°F"
    assert frame["installedAppId"] == 0 and frame["hubId"] == 0
    assert frame["displayName"] == "Kitchen Sink Leak"


async def test_location_frames_use_null_strings(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    hub.set_mode("Day")  # so that Night is a change, whatever hour the story left
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        hub.set_mode("Night")
        mode = await next_frame(ws)
        hub.set_variable("guestCount", 4)
        var = await next_frame(ws)
        hub.set_hsm("armedHome")
        hsm = await next_frame(ws)
        hub.hsm_alert("intrusion")
        alert = await next_frame(ws)
        hub.emit_app_event(93, "ruleFired", 5, "Rule ran")
        app = await next_frame(ws)
    assert (mode["source"], mode["name"], mode["value"]) == ("LOCATION", "mode", "Night")
    assert mode["deviceId"] == 0 and mode["type"] == "null" and mode["unit"] == "null"
    assert (var["name"], var["value"], var["source"]) == ("variable:guestCount", "4", "LOCATION")
    assert (hsm["name"], hsm["value"]) == ("hsmStatus", "armedHome")
    assert (alert["name"], alert["value"]) == ("hsmAlert", "intrusion")
    assert app["source"] == "APP" and app["installedAppId"] == 93 and app["value"] == "5"
    assert app["displayName"] == "null"
    assert hub.current_mode == "Night" and hub.hsm_status == "armedHome"


async def test_maker_hsm_and_mode_emit_frames(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        await get_json(session, maker(hub, "/hsm/armNight"))
        frames = await frames_until(ws, lambda f: f["value"] == "armedNight")
        assert [f["value"] for f in frames] == ["armingNight", "armedNight"]
        await get_json(session, maker(hub, "/modes/4"))
        frame = await next_frame(ws)
        assert (frame["name"], frame["value"]) == ("mode", "Away")
        await get_json(session, maker(hub, "/hubvariables/houseStatus/party"))
        frame = await next_frame(ws)
        assert (frame["name"], frame["value"]) == ("variable:houseStatus", "party")


async def test_unchanged_value_emits_nothing(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    did = int(hub.find_device("Vacation Mode")["id"])
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        hub.set_device_attribute(did, "switch", "off")  # already off
        hub.set_device_attribute(did, "switch", "off", force=True)
        frame = await next_frame(ws)
        assert frame["name"] == "switch"
        with pytest.raises(asyncio.TimeoutError):
            await ws.receive(timeout=0.1)


async def test_logsocket(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = int(hub.find_device("Kitchen Light")["id"])
    async with session.ws_connect(f"{hub.url}/logsocket") as ws:
        hub.add_log("error", "Oops <b>bad</b>", source_type="app", source_id=141, name="Leak")
        frame = await next_frame(ws)
        assert list(frame) == ["name", "msg", "id", "time", "type", "level"]
        assert_same_shape("events/log_frame", frame)
        assert frame["msg"] == "Oops &lt;b&gt;bad&lt;/b&gt;"
        assert (frame["id"], frame["type"], frame["level"]) == (141, "app", "error")
        assert len(frame["time"]) == 23 and frame["time"][10] == " "
        # hub-local time (the hub UI shows live log times as local), no offset
        local = datetime.now(ZoneInfo(HUB_TZ_NAME)).replace(tzinfo=None)
        sent = datetime.strptime(frame["time"], "%Y-%m-%d %H:%M:%S.%f")
        assert abs((local - sent).total_seconds()) < 5
        await get_json(session, maker(hub, f"/devices/{did}/off"))
        frame = await next_frame(ws)
    assert frame["msg"] == "Kitchen Light was turned off"
    assert (frame["type"], frame["id"], frame["level"]) == ("dev", did, "info")


async def test_server_pings(socket_enabled: None) -> None:
    emu = fast_hub(ping_interval=0.1)
    await emu.start()
    try:
        async with (
            make_session() as s,
            s.ws_connect(f"{emu.url}/eventsocket", autoping=False) as ws,
        ):
            msg = await ws.receive(timeout=2)
            assert msg.type == aiohttp.WSMsgType.PING
            await ws.pong(msg.data)
    finally:
        await emu.stop()


async def test_junk_and_split_frames(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    did = int(hub.find_device("Office Door")["id"])
    hub.faults.junk_frames = True
    hub.faults.split_frames = True
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        hub.set_device_attribute(did, "contact", "closed")
        junk = await ws.receive(timeout=2)
        assert junk.type == aiohttp.WSMsgType.TEXT and not junk.data.startswith("{")
        frame = await next_frame(ws)  # a fragmented message, reassembled by the library
        assert (frame["name"], frame["value"]) == ("contact", "closed")
        hub.set_device_attribute(did, "contact", "open")
        frame = await next_frame(ws)
        assert frame["value"] == "open"


async def test_drop_sockets(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    async with (
        session.ws_connect(f"{hub.url}/eventsocket") as ev,
        session.ws_connect(f"{hub.url}/logsocket") as lg,
    ):
        await asyncio.sleep(0.05)
        assert hub.event_socket_count == 1 and hub.log_socket_count == 1
        hub.drop_sockets()
        for ws in (ev, lg):
            msg = await ws.receive(timeout=2)
            assert msg.type in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSED,
                aiohttp.WSMsgType.ERROR,
            )
    await asyncio.sleep(0.05)
    assert hub.event_socket_count == 0
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:  # reconnect works
        target = "Evening" if hub.current_mode != "Evening" else "Night"
        hub.set_mode(target)  # a change from the seeded story's mode for this hour
        assert (await next_frame(ws))["value"] == target
