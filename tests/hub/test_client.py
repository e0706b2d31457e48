"""The hub client against the emulated hub: auth, quirks, faults, bounds (no HA)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools.hub import (
    HubAuthError,
    HubBadResponseError,
    HubClient,
    HubConnection,
    HubNotFoundError,
    HubTimeoutError,
    HubUnreachableError,
    MakerNotConfiguredError,
)
from custom_components.hubitat_dev_tools.hub.answers import is_login_form, is_login_rejected
from custom_components.hubitat_dev_tools.hub.client import loads
from custom_components.hubitat_dev_tools.hub.devices import fetch_device, fetch_devices
from custom_components.hubitat_dev_tools.hub.events import LOG_PATH, HubSocket
from custom_components.hubitat_dev_tools.hub.info import fetch_identity
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape, load_fixture
from ..fixture_client import fixture_client


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as sess:
        yield sess


def conn(hub: HubEmulator, *, password: str | None = None, maker: bool = True) -> HubConnection:
    url = URL(hub.url)
    return HubConnection(
        host=str(url.host),
        port=url.port,
        username=hub.username if hub.security else None,
        password=(password or hub.password) if hub.security else None,
        maker_app_id=str(hub.maker_app_id) if maker else None,
        maker_token=hub.maker_token if maker else None,
    )


def test_base_url_forms() -> None:
    assert HubConnection("192.0.2.5").base_url == "http://192.0.2.5"
    assert HubConnection("192.0.2.5", port=8080).base_url == "http://192.0.2.5:8080"
    assert HubConnection("http://hub.local/", use_ssl=True).base_url == "https://hub.local"
    assert HubConnection("192.0.2.5:8081").base_url == "http://192.0.2.5:8081"
    assert HubConnection("fe80::1", port=80).base_url == "http://[fe80::1]:80"


async def test_identity_without_security(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    client = HubClient(session, conn(hub))
    identity = await fetch_identity(client)
    assert identity.hub_uid == hub.hub_uid
    assert identity.ip is not None and "<" not in identity.ip  # HTML stripped
    assert client.session_cookie is None


async def test_security_login_and_cookie(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(session, conn(secure_hub))
    identity = await fetch_identity(client)
    assert identity.hub_uid == secure_hub.hub_uid
    assert client.session_cookie is not None
    logins = [p for m, p in secure_hub.requests if p.startswith("/login")]
    assert len(logins) == 1


async def test_security_wrong_password(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(session, conn(secure_hub, password="wrong"))
    with pytest.raises(HubAuthError) as err:
        await fetch_identity(client)
    assert "wrong" not in str(err.value)


async def test_security_without_credentials_is_auth_error(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    url = URL(secure_hub.url)
    client = HubClient(session, HubConnection(host=str(url.host), port=url.port))
    with pytest.raises(HubAuthError, match="no credentials"):
        await fetch_identity(client)


async def test_expired_cookie_relogs_once(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(session, conn(secure_hub))
    await fetch_identity(client)
    first = client.session_cookie
    secure_hub.expire_sessions()
    await fetch_identity(client)
    assert client.session_cookie != first
    logins = [p for m, p in secure_hub.requests if p.startswith("/login")]
    assert len(logins) == 2


async def test_concurrent_requests_share_one_relogin(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(session, conn(secure_hub))
    await fetch_identity(client)
    secure_hub.expire_sessions()
    await asyncio.gather(*(fetch_identity(client) for _ in range(6)))
    logins = [p for m, p in secure_hub.requests if p.startswith("/login")]
    assert len(logins) == 2  # the first login + exactly one re-login


async def test_html_login_page_is_auth_error(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(session, conn(secure_hub))
    secure_hub.faults.html_login = True
    with pytest.raises(HubAuthError, match="even after logging in again"):
        await fetch_identity(client)


async def test_hub_down(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    client = HubClient(session, conn(hub))
    hub.faults.down = True
    with pytest.raises((HubUnreachableError, HubBadResponseError)):
        await fetch_identity(client)


async def test_hub_stopped_is_unreachable(
    session: aiohttp.ClientSession, socket_enabled: None
) -> None:
    emu = HubEmulator()
    await emu.start()
    client = HubClient(session, conn(emu))
    await emu.stop()
    with pytest.raises(HubUnreachableError):
        await fetch_identity(client)


async def test_slow_hub_times_out(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    client = HubClient(session, conn(hub), timeout=0.2)
    hub.faults.delay = 1.0
    with pytest.raises(HubTimeoutError):
        await fetch_identity(client)


async def test_one_retry_on_503(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    client = HubClient(session, conn(hub))
    hub.faults.error_status = 503
    hub.faults.error_burst = 1
    identity = await fetch_identity(client)
    assert identity.hub_uid == hub.hub_uid
    hub.faults.error_burst = 2
    with pytest.raises(HubBadResponseError, match="503"):
        await fetch_identity(client)


async def test_500_not_retried(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    client = HubClient(session, conn(hub))
    hub.faults.error_status = 500
    hub.faults.error_burst = 1
    before = len(hub.requests)
    with pytest.raises(HubBadResponseError, match="500"):
        await fetch_identity(client)
    assert len(hub.requests) == before + 1


async def test_in_flight_bound(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    client = HubClient(session, conn(hub), max_in_flight=3)
    hub.faults.delay = 0.05
    await asyncio.gather(*(fetch_identity(client) for _ in range(12)))
    assert hub.max_in_flight_seen <= 3
    assert client.max_in_flight_seen == 3


async def test_device_tree_flattened_with_children(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(session, conn(hub))
    devices = await fetch_devices(client)
    assert len(devices) >= 40
    ids = [d.id for d in devices]
    assert len(ids) == len(set(ids))
    children = [d for d in devices if d.parent_id]
    assert children, "the seeded home has child devices"
    parent = next(d for d in devices if d.id == children[0].parent_id)
    assert children[0].id in parent.child_ids
    assert all(isinstance(d.id, str) for d in devices)
    assert any(d.capabilities for d in devices)


async def test_unknown_device_not_found(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    client = HubClient(session, conn(hub))
    with pytest.raises(HubNotFoundError) as err:
        await fetch_device(client, "987654")
    assert err.value.subject == "device" and "hub_" not in (err.value.hint or "")
    # The advice that names a tool comes from the tools layer's table.
    from custom_components.hubitat_dev_tools.tools.errors import hint_for

    assert "hub_list_devices" in (hint_for(err.value) or "")


async def test_maker(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    client = HubClient(session, conn(hub))
    modes = await client.maker_get("modes")
    assert any(m["active"] for m in modes)
    bad = HubClient(
        session,
        HubConnection(
            host=str(URL(hub.url).host),
            port=URL(hub.url).port,
            maker_app_id=str(hub.maker_app_id),
            maker_token="nope-secret",
        ),
    )
    with pytest.raises(HubAuthError) as err:
        await bad.maker_get("modes")
    assert "nope-secret" not in str(err.value)
    none = HubClient(session, conn(hub, maker=False))
    with pytest.raises(MakerNotConfiguredError) as err2:
        await none.maker_get("modes")
    assert "Maker API" in (err2.value.hint or "")


def test_failure_envelope_checks() -> None:
    """The client's two envelope checks: refusal on ``success: false``; a required success."""
    from custom_components.hubitat_dev_tools.hub.answers import check_success, require_success
    from custom_components.hubitat_dev_tools.hub.errors import HubRefusedError

    check_success({"success": True}, "x")
    check_success("plain text", "x")  # no envelope: nothing to refuse
    with pytest.raises(HubRefusedError) as err:
        check_success({"success": "false", "errorMessage": "in use"}, "delete app 5")
    assert err.value.reason == "in use" and "delete app 5" in str(err.value)
    assert err.value.code == "hub_bad_response"  # same wire code as any bad answer
    assert require_success({"success": "true", "id": 3}, "x") == {"success": "true", "id": 3}
    for answer in ({}, "OK", None, {"success": None}):
        with pytest.raises(HubRefusedError):
            require_success(answer, "restore b1")


async def test_redirect_and_binary_reads_relogin_once(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    """get_location and get_bytes share the request path's login handling."""
    client = HubClient(session, conn(secure_hub))
    bundle_id = min(secure_hub.state.dev.bundles)
    secure_hub.expire_sessions()  # nothing logged in yet: the first call logs in
    assert (await client.get_bytes(f"/bundle/export/{bundle_id}")).startswith(b"PK")
    secure_hub.expire_sessions()
    location = await client.get_location("/installedapp/direct/swapDevice")
    assert location
    secure_hub.expire_sessions()
    assert (await client.get_bytes(f"/bundle/export/{bundle_id}")).startswith(b"PK")
    logins = [p for m, p in secure_hub.requests if p.startswith("/login")]
    assert len(logins) == 3  # the first login, then exactly one re-login per expiry
    anonymous = HubClient(
        session, HubConnection(host=str(URL(secure_hub.url).host), port=URL(secure_hub.url).port)
    )
    for read in (
        anonymous.get_bytes(f"/bundle/export/{bundle_id}"),
        anonymous.get_location("/installedapp/direct/swapDevice"),
    ):
        with pytest.raises(HubAuthError) as err:
            await read
        assert err.value.subject == "no_credentials"


async def test_maker_commands_are_never_retried(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    """A busy answer to a Maker GET that changes something is not sent a second time."""
    from custom_components.hubitat_dev_tools.hub.hsm import hsm_command
    from custom_components.hubitat_dev_tools.hub.modes import activate_mode_maker
    from custom_components.hubitat_dev_tools.hub.variables import set_variable

    client = HubClient(session, conn(hub))
    hub.faults.error_status = 503
    commands = (
        lambda: hsm_command(client, "armAway"),
        lambda: activate_mode_maker(client, "2"),
        lambda: set_variable(client, "guestCount", "4"),
    )
    for command in commands:
        hub.faults.error_burst = 1
        before = len(hub.requests)
        with pytest.raises(HubBadResponseError, match="503"):
            await command()
        assert len(hub.requests) == before + 1  # sent once, never repeated
    hub.faults.error_burst = 1  # a read is still retried once
    assert isinstance(await client.maker_get("modes"), list | dict)


# ---------------------------------------------------------------------- websocket upgrades

# No evidence shows what a real hub answers a websocket upgrade without a valid session:
# the emulator serves each candidate, and each must be handled as a login problem.
_REFUSALS = [302, 200, 401, 403]


@pytest.mark.parametrize("status", _REFUSALS)
async def test_refused_upgrade_relogs_once_then_connects(
    secure_hub: HubEmulator, session: aiohttp.ClientSession, status: int
) -> None:
    secure_hub.server.ws_refusal_status = status
    client = HubClient(session, conn(secure_hub))
    await fetch_identity(client)
    secure_hub.expire_sessions()  # the cookie we hold is stale: the upgrade is refused
    socket = HubSocket(client, LOG_PATH, lambda _t: None)
    await socket.read_for(0.05, lambda _t: False)
    logins = [p for m, p in secure_hub.requests if m == "POST" and p.startswith("/login")]
    assert len(logins) == 2  # the first login + exactly one re-login


@pytest.mark.parametrize("status", _REFUSALS)
async def test_upgrade_refused_after_relogin_is_auth_error(
    secure_hub: HubEmulator,
    session: aiohttp.ClientSession,
    monkeypatch: pytest.MonkeyPatch,
    status: int,
) -> None:
    secure_hub.server.ws_refusal_status = status
    # logins work, but no session is ever good enough for the sockets
    monkeypatch.setattr(secure_hub.server, "session_valid", lambda r: r.path != LOG_PATH)
    client = HubClient(session, conn(secure_hub))
    socket = HubSocket(client, LOG_PATH, lambda _t: None)
    with pytest.raises(HubAuthError, match="even after logging in again") as err:
        await socket.read_for(0.05, lambda _t: False)
    assert err.value.subject == "login"
    logins = [p for m, p in secure_hub.requests if m == "POST" and p.startswith("/login")]
    assert len(logins) == 2


@pytest.mark.parametrize("status", _REFUSALS)
async def test_refused_upgrade_without_credentials_is_auth_error(
    secure_hub: HubEmulator, session: aiohttp.ClientSession, status: int
) -> None:
    secure_hub.server.ws_refusal_status = status
    url = URL(secure_hub.url)
    client = HubClient(session, HubConnection(host=str(url.host), port=url.port))
    socket = HubSocket(client, LOG_PATH, lambda _t: None)
    with pytest.raises(HubAuthError, match="no credentials") as err:
        await socket.read_for(0.05, lambda _t: False)
    assert err.value.subject == "no_credentials"
    assert not [p for m, p in secure_hub.requests if m == "POST" and p.startswith("/login")]


async def test_socket_stats_mark_a_refused_upgrade_as_auth_failure(
    secure_hub: HubEmulator, session: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    secure_hub.server.ws_refusal_status = 302
    monkeypatch.setattr(secure_hub.server, "session_valid", lambda r: r.path != LOG_PATH)
    client = HubClient(session, conn(secure_hub))
    socket = HubSocket(client, LOG_PATH, lambda _t: None, backoff_initial=0.01)
    task = asyncio.get_running_loop().create_task(socket.run())
    try:
        for _ in range(200):
            if socket.stats.auth_failed:
                break
            await asyncio.sleep(0.01)
        assert socket.stats.auth_failed
        assert "login" in (socket.stats.last_error or "").lower()
    finally:
        await socket.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


# ---------------------------------------------------------------------- contract fixtures


async def test_login_rejected_page_is_recognised(
    secure_hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    page = load_fixture("session/login_rejected").answer_text
    assert page is not None and is_login_rejected(page) and is_login_form(page)
    assert not is_login_rejected('{"success": true}')
    # the emulator answers a wrong password with the same page
    form = {"username": secure_hub.username, "password": "wrong", "submit": "Login"}
    async with session.post(f"{secure_hub.url}/login", data=form, allow_redirects=False) as resp:
        body = await resp.text()
    assert_same_shape("session/login_rejected", body)
    assert is_login_rejected(body)


async def test_hub_details_fixture_gives_identity_platform_and_zone() -> None:
    client = fixture_client("info/hub_details")
    identity = await fetch_identity(client)
    assert identity.hub_uid == "0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9"
    assert identity.ip == "192.0.2.10" and identity.firmware == "2.5.0.143"
    assert client.platform.at_least(2, 5) and client.platform.model == "C-8 Pro"
    assert str(client.time_zone) == "America/Denver"


@pytest.mark.parametrize(
    "text",
    [
        '{"devices": [{"id": 6, "label": "Kitchen", "level": 42.5, "on": true, "x": null}]}',
        "[1, NaN, Infinity, -Infinity]",
        "[123456789012345678901234567890, 1e400]",
        '"caf\\u00e9 \\ud83d\\ude00"',
        '{"a": 1, "a": 2}',
    ],
)
def test_loads_answers_as_the_standard_decoder(text: str) -> None:
    """The fast decoder gives what json.loads gives, including where orjson alone refuses."""
    got, want = loads(text), json.loads(text)
    assert repr(got) == repr(want)


def test_loads_refuses_what_is_not_json() -> None:
    with pytest.raises(json.JSONDecodeError, match="Expecting value"):
        loads("<html>Hub is starting</html>")
