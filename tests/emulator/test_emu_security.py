"""Hub Security: login cookie, the HTML login trap, failed-login behaviour, session faults."""

from __future__ import annotations

import json

import aiohttp
import pytest

from hubitat_emulator import HubEmulator

from .conftest import get_json, login, make_session, maker


async def test_security_off_needs_no_auth(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    data = await get_json(session, f"{hub.url}/hub2/hubData")
    assert data["model"] == "C-8 Pro"
    async with session.post(f"{hub.url}/room/save", json={"roomId": 0, "name": "Attic"}) as resp:
        assert resp.status == 200
        assert "roomId" in json.loads(await resp.text())


async def test_every_response_sets_hubsession(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    for path in ("/hub2/hubData", "/hub/advanced/freeOSMemory", "/nope"):
        async with session.get(hub.url + path) as resp:
            assert resp.headers["Set-Cookie"].startswith("HUBSESSION=node0")
    async with session.get(maker(hub, "/devices")) as resp:
        assert "HUBSESSION=" in resp.headers["Set-Cookie"]


async def test_login_sets_cookie_and_unlocks_admin(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    async with session.post(
        f"{secure_hub.url}/login",
        data={"username": "admin", "password": "hubpass"},
        allow_redirects=False,
    ) as resp:
        assert resp.status == 302
        assert resp.headers["Location"] == "/"
        cookie = resp.headers["Set-Cookie"]
        assert cookie.startswith("HUBSESSION=") and "Path=/" in cookie
    pair = cookie.split(";")[0]
    data = await get_json(session, f"{secure_hub.url}/hub2/devicesList", headers={"Cookie": pair})
    assert data["devices"]
    # the valid cookie is echoed back unchanged
    async with session.get(f"{secure_hub.url}/hub2/hubData", headers={"Cookie": pair}) as resp:
        assert resp.headers["Set-Cookie"].split(";")[0] == pair


async def test_login_with_a_real_cookie_jar(secure_hub: HubEmulator) -> None:
    jar = aiohttp.CookieJar(unsafe=True)  # IP-address host
    async with make_session(cookie_jar=jar) as s:
        async with s.post(
            f"{secure_hub.url}/login", data={"username": "admin", "password": "hubpass"}
        ) as resp:
            assert resp.status == 200  # followed the redirect to /
        data = await get_json(s, f"{secure_hub.url}/hub2/hubData")
        assert data["hubId"] == secure_hub.state.hub_uid


async def test_wrong_password_is_200_login_page_without_cookie(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    async with session.post(
        f"{secure_hub.url}/login",
        data={"username": "admin", "password": "wrong", "submit": "Login"},
        allow_redirects=False,
    ) as resp:
        assert resp.status == 200
        assert resp.content_type == "text/html"
        assert "Set-Cookie" not in resp.headers
        body = await resp.text()
    assert "The login information you supplied was incorrect." in body
    assert '<form action="/login"' in body


async def test_html_login_trap_for_get_and_401_for_post(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    async with session.get(f"{secure_hub.url}/hub2/devicesList") as resp:
        assert resp.status == 200
        assert resp.content_type == "text/html"
        body = await resp.text()
        assert resp.headers["Set-Cookie"].startswith("HUBSESSION=")  # but not a valid one
    with pytest.raises(json.JSONDecodeError):
        json.loads(body)
    assert "<form" in body
    async with session.post(f"{secure_hub.url}/device/runmethod", json={"id": 1}) as resp:
        assert resp.status == 401
    # a cookie the hub handed out without a login is not valid
    junk = resp.headers["Set-Cookie"].split(";")[0]
    async with session.get(f"{secure_hub.url}/hub2/hubData", headers={"Cookie": junk}) as resp:
        assert "<form" in await resp.text()


async def test_open_paths_and_maker_ignore_hub_security(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    data = await get_json(session, f"{secure_hub.url}/hubStatus")
    assert data["status"] == "running"
    devices = await get_json(session, maker(secure_hub, "/devices"))
    assert devices


async def test_websocket_requires_cookie(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
        await session.ws_connect(f"{secure_hub.url}/eventsocket")
    assert err.value.status == 401
    pair = await login(session, secure_hub)
    async with session.ws_connect(f"{secure_hub.url}/eventsocket", headers={"Cookie": pair}) as ws:
        assert not ws.closed


@pytest.mark.parametrize("status", [302, 200, 401, 403])
async def test_websocket_refusal_status_is_a_knob(
    secure_hub: HubEmulator, session: aiohttp.ClientSession, status: int
) -> None:
    # No evidence shows what a real hub answers an upgrade without a session: each is served.
    secure_hub.server.ws_refusal_status = status
    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
        await session.ws_connect(f"{secure_hub.url}/logsocket")
    # aiohttp follows the redirect to the login page, which answers 200.
    assert err.value.status == (200 if status == 302 else status)
    if status == 302:
        assert [r.status for r in err.value.history] == [302]
        assert err.value.history[0].headers["Location"] == "/login"
    pair = await login(session, secure_hub)
    async with session.ws_connect(f"{secure_hub.url}/logsocket", headers={"Cookie": pair}) as ws:
        assert not ws.closed


async def test_expire_sessions(secure_hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    pair = await login(session, secure_hub)
    await get_json(session, f"{secure_hub.url}/hub2/hubData", headers={"Cookie": pair})
    secure_hub.expire_sessions()
    async with session.get(f"{secure_hub.url}/hub2/hubData", headers={"Cookie": pair}) as resp:
        assert resp.status == 200
        assert "<form" in await resp.text()
    async with session.post(
        f"{secure_hub.url}/device/disable", data={"id": "1"}, headers={"Cookie": pair}
    ) as resp:
        assert resp.status == 401
    # re-login works
    pair2 = await login(session, secure_hub)
    assert pair2 != pair
    await get_json(session, f"{secure_hub.url}/hub2/hubData", headers={"Cookie": pair2})


async def test_logout_invalidates(secure_hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    pair = await login(session, secure_hub)
    async with session.get(
        f"{secure_hub.url}/logout", headers={"Cookie": pair}, allow_redirects=False
    ) as resp:
        assert resp.status == 302
    async with session.get(f"{secure_hub.url}/hub2/hubData", headers={"Cookie": pair}) as resp:
        assert "<form" in await resp.text()


async def test_html_login_fault_even_with_valid_cookie(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    pair = await login(session, secure_hub)
    secure_hub.faults.html_login = True
    for method in ("GET", "POST"):
        async with session.request(
            method, f"{secure_hub.url}/hub2/hubData", headers={"Cookie": pair}
        ) as resp:
            assert resp.status == 200
            assert resp.content_type == "text/html"
            assert "<form" in await resp.text()
    # the Maker API is not an admin endpoint
    await get_json(session, maker(secure_hub, "/hsm"))
    secure_hub.faults.html_login = False
    await get_json(session, f"{secure_hub.url}/hub2/hubData", headers={"Cookie": pair})
