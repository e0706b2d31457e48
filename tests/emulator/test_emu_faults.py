"""Fault injection, request accounting, reboot and the CLI."""

from __future__ import annotations

import asyncio
import json
import os
import selectors
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from hubitat_emulator import Faults, HubEmulator

from .conftest import eventually, get_json, make_session, maker, next_frame

ROOT = Path(__file__).resolve().parents[2]


async def test_requests_are_recorded(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    before = len(hub.requests)
    await get_json(session, f"{hub.url}/hub2/hubData?t=1")
    await get_json(session, maker(hub, "/hsm"))
    async with session.ws_connect(f"{hub.url}/eventsocket"):
        pass
    new = hub.requests[before:]
    assert new[0] == ("GET", "/hub2/hubData?t=1")
    assert new[1][1].startswith(f"/apps/api/{hub.maker_app_id}/hsm?access_token=")
    assert new[2] == ("GET", "/eventsocket")


async def test_down_closes_the_connection(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    hub.faults.down = True
    with pytest.raises(aiohttp.ClientConnectionError):
        async with session.get(f"{hub.url}/hub2/hubData") as resp:
            await resp.read()
    with pytest.raises(aiohttp.ClientError):
        await session.ws_connect(f"{hub.url}/eventsocket")
    hub.faults.down = False
    await get_json(session, f"{hub.url}/hub2/hubData")


async def test_delay_and_delay_paths(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    hub.faults.delay_paths = {"/device/fullJson": 0.3}
    t0 = time.monotonic()
    await get_json(session, f"{hub.url}/hub2/hubData")
    assert time.monotonic() - t0 < 0.3
    t0 = time.monotonic()
    did = hub.find_device("Kitchen Light")["id"]
    await get_json(session, f"{hub.url}/device/fullJson/{did}")
    assert time.monotonic() - t0 >= 0.3
    hub.faults.delay = 0.2
    timeout = aiohttp.ClientTimeout(total=0.1)
    with pytest.raises(asyncio.TimeoutError):
        async with session.get(f"{hub.url}/hub2/hubData", timeout=timeout) as resp:
            await resp.read()


async def test_error_burst(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    hub.faults.error_status = 503
    hub.faults.error_burst = 2
    for _ in range(2):
        async with session.get(f"{hub.url}/hub2/hubData") as resp:
            assert resp.status == 503
            assert resp.content_type == "text/html"
    assert hub.faults.error_burst == 0
    await get_json(session, f"{hub.url}/hub2/hubData")
    hub.faults.error_status = 408
    hub.faults.error_burst = 1
    async with session.get(maker(hub, "/devices")) as resp:
        assert resp.status == 408


async def test_max_in_flight(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    hub.faults.delay = 0.1

    async def one() -> None:
        await get_json(session, f"{hub.url}/hub2/hubData")

    await asyncio.gather(*(one() for _ in range(5)))
    assert hub.max_in_flight_seen == 5
    assert hub.in_flight == 0


async def test_faults_reset() -> None:
    faults = Faults(down=True, delay=1.0, error_burst=3, html_login=True)
    faults.delay_paths["/x"] = 2.0
    assert faults.delay_for("/x/y") == 3.0
    faults.reset()
    assert faults == Faults()


async def test_command_delay(socket_enabled: None) -> None:
    emu = HubEmulator(command_delay=0.1)
    await emu.start()
    try:
        did = int(emu.find_device("Garage Light")["id"])
        async with make_session() as s:
            await get_json(s, maker(emu, f"/devices/{did}/on"))
            assert emu.device(did)["attributes"]["switch"] == "off"
            await eventually(lambda: emu.device(did)["attributes"]["switch"] == "on")
    finally:
        await emu.stop()


async def test_reboot(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        task = hub.reboot(downtime=0.3, starting=0.3)
        msg = await ws.receive(timeout=2)
        assert msg.type in (
            aiohttp.WSMsgType.CLOSE,
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.ERROR,
        )
    with pytest.raises(aiohttp.ClientConnectionError):  # connection refused while down
        async with session.get(f"{hub.url}/hubStatus") as resp:
            await resp.read()
    statuses: list[str] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 3
    while loop.time() < deadline:
        try:
            async with session.get(f"{hub.url}/hubStatus") as resp:
                statuses.append((await resp.json(content_type=None))["status"])
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.02)
            continue
        if statuses[-1] == "starting":
            async with session.get(f"{hub.url}/hub2/hubData") as resp:
                assert resp.status == 503
            break
    assert statuses and statuses[-1] == "starting"
    async with session.ws_connect(f"{hub.url}/eventsocket") as ws:
        frame = await next_frame(ws, timeout=2)
    assert (frame["source"], frame["name"], frame["value"]) == ("HUB", "systemStart", "2.5.0.143")
    await task
    assert (await get_json(session, f"{hub.url}/hubStatus"))["status"] == "running"
    events = await get_json(session, f"{hub.url}/hub/eventsJson")
    assert events[0]["name"] == "systemStart"
    logs = await get_json(session, f"{hub.url}/logs/json")
    assert logs["uptime"].startswith("0d 0h 0m")


async def test_post_reboot_endpoint(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    async with session.get(f"{hub.url}/hub/reboot") as resp:
        assert resp.status == 404
    hub.reboot_downtime = 0.1
    async with session.post(f"{hub.url}/hub/reboot", json={}) as resp:
        assert resp.status == 200
    await eventually(lambda: hub.status == "down")


def test_cli(socket_enabled: None) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "hubitat_emulator", "--port", "0", "--security"]
    cmd += ["--devices", "80"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env, cwd=str(ROOT))
    try:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        buf = b""
        deadline = time.monotonic() + 15
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"DEVICES=" not in buf or not buf.endswith(b"\n"):
                assert sel.select(timeout=max(0.0, deadline - time.monotonic())), "CLI timed out"
                chunk = os.read(fd, 4096)
                assert chunk, "CLI exited early"
                buf += chunk
        lines: dict[str, str] = {}
        for line in buf.decode().splitlines():
            key, _, value = line.partition("=")
            lines[key] = value
        assert lines["HUB_URL"].startswith("http://127.0.0.1:")
        assert lines["MAKER_APP_ID"] == "12" and lines["MAKER_TOKEN"] == "maker-token-0001"
        assert lines["HUB_USERNAME"] == "admin" and lines["DEVICES"] == "80"
        with urllib.request.urlopen(lines["HUB_URL"] + "/hubStatus", timeout=5) as resp:
            assert json.loads(resp.read())["status"] == "running"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()
    assert proc.returncode == 0
