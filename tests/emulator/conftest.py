"""Fixtures for the emulated-hub tests (plain pytest-asyncio, real sockets on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest

from hubitat_emulator import HubEmulator

TOKEN = "maker-token-0001"
APP = 12


if importlib.util.find_spec("pytest_socket") is None:

    @pytest.fixture
    def socket_enabled() -> None:
        """Stand-in for pytest-socket's fixture when it is not installed."""


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """The emulator tests need no Home Assistant instance (overrides the parent autouse)."""


def fast_hub(**kwargs: Any) -> HubEmulator:
    """An emulator with short transition delays so the suite stays fast."""
    kwargs.setdefault("hsm_arming_delay", 0.05)
    kwargs.setdefault("door_travel_time", 0.05)
    kwargs.setdefault("reboot_starting_time", 0.2)
    return HubEmulator(**kwargs)


@pytest.fixture
async def hub(socket_enabled: None) -> AsyncIterator[HubEmulator]:
    emu = fast_hub()
    await emu.start()
    try:
        yield emu
    finally:
        await emu.stop()


@pytest.fixture
async def secure_hub(socket_enabled: None) -> AsyncIterator[HubEmulator]:
    emu = fast_hub(security=True)
    await emu.start()
    try:
        yield emu
    finally:
        await emu.stop()


def make_session(**kwargs: Any) -> aiohttp.ClientSession:
    """A client session that never touches DNS (no resolver threads) and keeps no cookies."""
    connector = aiohttp.TCPConnector(resolver=aiohttp.ThreadedResolver())
    kwargs.setdefault("cookie_jar", aiohttp.DummyCookieJar())
    return aiohttp.ClientSession(connector=connector, **kwargs)


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with make_session() as s:
        yield s


def maker(emu: HubEmulator, path: str, token: str | None = TOKEN) -> str:
    sep = "&" if "?" in path else "?"
    url = f"{emu.url}/apps/api/{emu.maker_app_id}{path}"
    return f"{url}{sep}access_token={token}" if token is not None else url


async def get_json(session: aiohttp.ClientSession, url: str, **kwargs: Any) -> Any:
    async with session.get(url, **kwargs) as resp:
        assert resp.status == 200, (url, resp.status, await resp.text())
        return json.loads(await resp.text())


async def login(session: aiohttp.ClientSession, emu: HubEmulator) -> str:
    """Log in; returns the ``HUBSESSION=...`` cookie pair."""
    async with session.post(
        f"{emu.url}/login",
        data={"username": emu.username, "password": emu.password, "submit": "Login"},
        allow_redirects=False,
    ) as resp:
        assert resp.status == 302
        return resp.headers["Set-Cookie"].split(";")[0]


async def next_frame(ws: aiohttp.ClientWebSocketResponse, timeout: float = 2.0) -> dict[str, Any]:
    """The next JSON frame, skipping non-JSON (junk) text frames."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        msg = await ws.receive(timeout=max(0.01, deadline - loop.time()))
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise AssertionError(f"unexpected websocket message {msg!r}")
        try:
            data = json.loads(msg.data)
        except ValueError:
            continue
        assert isinstance(data, dict)
        return data


async def frames_until(
    ws: aiohttp.ClientWebSocketResponse,
    pred: Callable[[dict[str, Any]], object],
    timeout: float = 2.0,
) -> list[dict[str, Any]]:
    """Collect frames until one satisfies ``pred`` (returned list ends with it)."""
    out: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await next_frame(ws, max(0.01, deadline - loop.time()))
        out.append(frame)
        if pred(frame):
            return out


async def eventually(check: Callable[[], object], timeout: float = 2.0) -> None:
    """Poll ``check()`` until it is truthy (robust against slow CI machines)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)
