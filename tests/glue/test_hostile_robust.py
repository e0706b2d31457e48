"""Hostile calls against the robustness limits (issue 13, deliverable 8).

Each case is a finding of the issue: run through the real mcp_server where a tool is the way
in (else against the client or the config flow), asserting the safe result AND that nothing
changed on the emulated hub (no write request, its state as before).
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from homeassistant import config_entries
from homeassistant.const import CONF_HOST, CONF_PASSWORD, CONF_PORT
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from yarl import URL

from custom_components.hubitat_dev_tools.const import CONF_MAKER_TOKEN
from custom_components.hubitat_dev_tools.hub.answers import check_success, is_login_form
from custom_components.hubitat_dev_tools.hub.client import (
    DEFAULT_MAX_BODY,
    HubClient,
    HubConnection,
)
from custom_components.hubitat_dev_tools.hub.devices import fetch_compatible_devices
from custom_components.hubitat_dev_tools.hub.errors import (
    HubAuthError,
    HubBadResponseError,
    HubBusyError,
    HubRefusedError,
    HubResponseTooLargeError,
)
from custom_components.hubitat_dev_tools.hub.events import (
    MAX_EVENT_FRAME_CHARS,
    MAX_LOG_FRAME_CHARS,
    MAX_LOG_MESSAGE_CHARS,
)
from custom_components.hubitat_dev_tools.hub.files import MAX_TEXT_READ_BYTES
from custom_components.hubitat_dev_tools.hub.info import fetch_identity
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from custom_components.hubitat_dev_tools.tools.errors import hint_for
from hubitat_emulator import HubEmulator
from hubitat_emulator.responses import error_page, login_page

from ..conftest import ToolCaller, a_switch, add_entry, ensure_stream, entry_data, until
from ..loopback_host import LoopbackHost, serving
from ..mcp_client import Mcp

MIB = 1024 * 1024


async def via(mcp: Mcp, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
    """Call ``tool`` as a model on the default (compact) surface does: through its gateway."""
    cls = next(c for c in TOOL_CLASSES if c.name == tool)
    gateway = cls.gateway()
    if gateway is None:
        return await mcp.call(tool, args)
    return await mcp.call(gateway, {"tool": tool, "args": args})


async def refused_via(mcp: Mcp, tool: str, args: dict[str, Any], code: str) -> dict[str, Any]:
    is_error, data = await via(mcp, tool, args)
    assert is_error and isinstance(data, dict), data
    assert data["error"] == code, data
    assert data.get("hint"), data
    return data


def writes(hub: HubEmulator, before: int) -> list[tuple[str, str]]:
    """Requests since ``before`` that could change the hub (anything but a GET)."""
    return [(m, p) for m, p in hub.requests[before:] if m != "GET"]


def connection(hub: HubEmulator, **kw: Any) -> HubConnection:
    url = URL(hub.url)
    return HubConnection(host=str(url.host), port=url.port, **kw)


@pytest.fixture
async def session(socket_enabled: None) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as s:
        yield s


def b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


# ------------------------------------------------------------------ response size cap


async def test_oversized_answer_is_response_too_large(mcp: Mcp, hub: HubEmulator) -> None:
    before = len(hub.requests)
    hub.faults.pad_paths = {"/hub2/devicesList": DEFAULT_MAX_BODY + 1}
    data = await refused_via(mcp, "hub_list_devices", {}, "response_too_large")
    assert "limit" in data["message"]
    assert writes(hub, before) == []
    hub.faults.pad_paths = {}
    assert (await mcp.ok("hub_list_devices", {}))["total"] > 0  # the next call is fine


async def test_capped_read_and_explicit_larger_cap(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(session, connection(hub))
    hub.faults.pad_paths = {"/hub/details/json": 2 * MIB}
    with pytest.raises(HubResponseTooLargeError) as err:
        await client.get_json("/hub/details/json", max_bytes=MIB)
    assert err.value.code == "response_too_large"
    assert isinstance(err.value, HubBadResponseError)
    assert "response_too_large" in str(err.value.code) and hint_for(err.value)
    # A call that needs more says so, and the same answer fits.
    assert (await client.get_json("/hub/details/json", max_bytes=4 * MIB))["hubUID"]
    # The compatible-device catalog (~1 MB) has the larger download cap: it fits even when
    # it grows past the default one.
    hub.faults.pad_paths = {"/hub/compatibleDevices": DEFAULT_MAX_BODY}
    assert await fetch_compatible_devices(client)


async def test_compressed_answer_is_capped_by_its_decoded_size(
    session: aiohttp.ClientSession,
) -> None:
    """A gzip answer declares its compressed length; what is decoded is what gets capped."""
    body = gzip.compress(b"[" + b"0," * MIB + b"0]")  # about 2 MB decoded, a few KB sent
    json_type = ("Content-Type", "application/json")
    host = LoopbackHost()
    host.add("/hub/details/json", body, header_pairs=[("Content-Encoding", "gzip"), json_type])
    # two Content-Encoding headers, identity first: the decoder follows the last
    twice = [("Content-Encoding", "identity"), ("Content-Encoding", "gzip"), json_type]
    host.add("/hub/twice", body, header_pairs=twice)
    async with serving(host):
        port = int(host.base.rsplit(":", 1)[1])
        client = HubClient(session, HubConnection(host="127.0.0.1", port=port))
        with pytest.raises(HubResponseTooLargeError):
            await client.get_json("/hub/details/json", max_bytes=MIB)
        assert len(body) < MIB  # the declared (compressed) length alone was within the cap
        assert await client.get_json("/hub/details/json", max_bytes=4 * MIB) == [0] * (MIB + 1)
        with pytest.raises(HubResponseTooLargeError) as err:
            await client.get_json("/hub/twice", max_bytes=MIB)
        assert "more than" in str(err.value)  # stopped while reading, not after it


# ------------------------------------------------------------------ file reads


async def test_huge_file_refused_before_download(mcp: Mcp, hub: HubEmulator) -> None:
    hub.files.put("huge.log", "a" * (MAX_TEXT_READ_BYTES + 10))
    before = len(hub.requests)
    data = await refused_via(mcp, "hub_read_file", {"file_name": "huge.log"}, "file_too_large")
    assert "/local/huge.log" in data["hint"]
    assert ("GET", "/local/huge.log") not in hub.requests[before:]  # nothing downloaded
    assert writes(hub, before) == []


async def test_file_larger_than_listed_stops_at_the_cap(mcp: Mcp, hub: HubEmulator) -> None:
    """A listing that understates the size: the download itself is capped."""
    hub.files.put("liar.txt", "small")
    hub.faults.pad_paths = {"/local/liar.txt": MAX_TEXT_READ_BYTES + 1}
    before = len(hub.requests)
    await refused_via(mcp, "hub_read_file", {"file_name": "liar.txt"}, "response_too_large")
    assert writes(hub, before) == []


async def test_html_files_are_data_not_a_login_page(mcp: Mcp, hub: HubEmulator) -> None:
    """An .html file (even with a form) can be overwritten and deleted; no reauth starts."""
    page = "<!DOCTYPE html><html><body><form action='/search'><input name='q'></form></body></html>"
    hub.files.put("page.html", page)
    hub.mark_backup_now()
    data = await via(
        mcp,
        "hub_write_file",
        {"file_name": "page.html", "content": "<html>new</html>", "confirm": True},
    )
    assert not data[0], data
    stored = hub.files.get("page.html")
    assert stored is not None and stored.data == b"<html>new</html>"
    backups = [f for (_folder, name), f in hub.files.files.items() if name.startswith("page_")]
    assert backups and backups[0].data == page.encode()
    is_error, deleted = await via(
        mcp, "hub_delete_file", {"file_name": "page.html", "confirm": True}
    )
    assert not is_error, deleted
    assert hub.files.get("page.html") is None


async def test_login_form_detection() -> None:
    assert is_login_form(login_page())
    assert not is_login_form(error_page(500, "Server Error"))
    assert not is_login_form("<html><body><form action='/login'><input name='q'></form></html>")
    assert not is_login_form('{"login": "<form>"}')


async def test_html_answer_without_hub_security_is_not_auth(
    hass: HomeAssistant, hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    """Hub Security off: an HTML answer is a bad answer, never an auth error (no reauth)."""
    hub.files.put("page.html", "<!DOCTYPE html><html><body>hello</body></html>")
    client = HubClient(session, connection(hub))
    with pytest.raises(HubBadResponseError) as err:
        await client.get_json("/local/page.html")
    assert not isinstance(err.value, HubAuthError)
    assert (await client.get_bytes("/local/page.html")).startswith(b"<!DOCTYPE")
    assert not [p for _m, p in hub.requests if p.startswith("/login")]


async def test_error_snippets_are_redacted(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(
        session, connection(hub, username="u", password="pw-s3cret", maker_token="tok-s3cret")
    )
    body = 'failed: password=pw-s3cret token tok-s3cret {"access_token": "other-secret"}'
    with pytest.raises(HubBadResponseError) as err:
        client._decode(500, body, "/x", "json")
    message = str(err.value)
    for secret in ("pw-s3cret", "tok-s3cret", "other-secret"):
        assert secret not in message
    assert "HTTP 500" in message
    with pytest.raises(HubRefusedError) as refused:
        check_success({"success": False, "message": "bad access_token=abc123"}, "do x")
    assert "abc123" not in str(refused.value) and "abc123" not in str(refused.value.reason)


# ------------------------------------------------------------------ request slots


async def test_busy_hub_answers_hub_busy_and_sends_nothing(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    client = HubClient(session, connection(hub), max_in_flight=1, acquire_timeout=0.2)
    hub.faults.delay_paths = {"/hub2/hubData": 1.0}
    slow = asyncio.ensure_future(client.get_json("/hub2/hubData"))
    await until(lambda: client.in_flight == 1)
    before = len(hub.requests)
    with pytest.raises(HubBusyError) as err:
        await fetch_identity(client)
    assert err.value.code == "hub_busy"
    assert "retry" in (hint_for(err.value) or "").lower()
    assert ("GET", "/hub/details/json") not in hub.requests[before:]
    await slow


async def test_hub_busy_through_mcp(mcp: Mcp, hub: HubEmulator, entry: Any) -> None:
    """Every slot held (four slow operations): a tool answers hub_busy, nothing is sent."""
    client = entry.runtime_data.hub.client
    client.acquire_timeout = 0.2
    for _ in range(4):
        await client._sem.acquire()
    before = len(hub.requests)
    try:
        data = await refused_via(
            mcp, "hub_get_device", {"device_id": str(a_switch(hub))}, "hub_busy"
        )
        assert "nothing was sent" in data["hint"]
        assert hub.requests[before:] == []
    finally:
        for _ in range(4):
            client._sem.release()
    assert (await via(mcp, "hub_get_device", {"device_id": str(a_switch(hub))}))[0] is False


async def test_slow_requests_leave_a_slot_for_short_ones(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    """Four slow backups no longer starve every other call (hydration included)."""
    client = HubClient(session, connection(hub), max_in_flight=4, acquire_timeout=5.0)
    hub.faults.delay_paths = {"/hub2/hubData": 1.5}
    slow = [
        asyncio.ensure_future(client.request("GET", "/hub2/hubData", timeout=60)) for _ in range(4)
    ]
    await until(lambda: client.in_flight == 3)
    started = time.monotonic()
    assert (await fetch_identity(client)).hub_uid == hub.hub_uid
    assert time.monotonic() - started < 1.0  # it did not wait for a slow one
    await asyncio.gather(*slow)
    assert client.max_in_flight_seen <= 4


# ------------------------------------------------------------------ sockets


async def test_frames_over_the_cap_are_junk(
    hass: HomeAssistant, hub: HubEmulator, fast_stream: Any
) -> None:
    entry = await add_entry(hass, hub)
    cache: StateCache = await ensure_stream(hass, entry)
    await until(lambda: cache.logs_live, what="log socket")
    junk = cache.junk_frames
    hub.faults.oversize_frames = MAX_EVENT_FRAME_CHARS + 1000  # under the log frame cap
    switch = a_switch(hub)
    now = hub.device(switch)["attributes"]["switch"]
    hub.run_command(switch, "off" if now == "on" else "on", [])
    hub.add_log("info", "after a large frame", source_type="dev", source_id=switch)
    await until(lambda: any(e.name == "switch" for e in cache.events), what="switch event")
    await until(lambda: any(x.message == "after a large frame" for x in cache.logs))
    assert cache.junk_frames > junk  # the oversize event frames
    assert not [e for e in cache.events if e.name == "oversize"]
    big = [x for x in cache.logs if x.message.startswith("xxx")]
    assert big and all(len(x.message) <= MAX_LOG_MESSAGE_CHARS + 40 for x in big)
    # A log frame over its cap is junk too; the socket stays up.
    hub.faults.oversize_frames = MAX_LOG_FRAME_CHARS + 1000
    count = len(big)
    junk = cache.junk_frames
    hub.add_log("info", "after a huge frame")
    await until(lambda: any(x.message == "after a huge frame" for x in cache.logs))
    assert cache.junk_frames > junk
    assert len([x for x in cache.logs if x.message.startswith("xxx")]) == count
    assert cache.live
    hub.faults.oversize_frames = 0
    await hass.config_entries.async_unload(entry.entry_id)


async def test_concurrent_tails_share_one_socket(
    hass: HomeAssistant, hub: HubEmulator, entry: Any, call_tool: ToolCaller
) -> None:
    assert entry.runtime_data.hub.cache is None  # no stream: the one-shot path
    before = len(hub.requests)
    loop = asyncio.get_running_loop()
    loop.call_later(0.4, lambda: hub.add_log("warn", "shared line", source_type="app", source_id=4))
    calls = [call_tool("hub_tail_logs", {"window_s": 0.8}) for _ in range(6)]
    results = await asyncio.gather(*calls)
    for result in results:
        assert not result.error, result.data
        assert [x["message"] for x in result.data["lines"]] == ["shared line"]
    upgrades = [p for _m, p in hub.requests[before:] if p == "/logsocket"]
    assert len(upgrades) == 1
    assert writes(hub, before) == []
    assert entry.runtime_data.hub.logs is not None
    await until(lambda: hub.log_socket_count == 0, what="socket closed")


async def test_a_late_tail_joins_the_open_socket(
    hass: HomeAssistant, hub: HubEmulator, entry: Any, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    first = asyncio.ensure_future(call_tool("hub_tail_logs", {"window_s": 1.0}))
    await until(lambda: hub.log_socket_count == 1, what="first socket")
    second = asyncio.ensure_future(call_tool("hub_tail_logs", {"window_s": 0.5, "level": "error"}))
    await asyncio.sleep(0.1)
    hub.add_log("error", "for both")
    hub.add_log("info", "for the first only")
    a, b = await asyncio.gather(first, second)
    assert [x["message"] for x in a.data["lines"]] == ["for both", "for the first only"]
    assert [x["message"] for x in b.data["lines"]] == ["for both"]
    assert len([p for _m, p in hub.requests[before:] if p == "/logsocket"]) == 1


# ------------------------------------------------------------------ cursors


BAD_CURSORS = [
    "bzrCsg",  # "o:²": a digit to str.isdigit, not to int()
    "!!!!",
    "é",
    "o:1",
    "x" * 5000,
    b64("o:-1"),
    b64("o:1e3"),
    b64("o:" + "9" * 40),
    b64("logs:{}"),
]


async def test_every_malformed_cursor_is_invalid_cursor(mcp: Mcp, hub: HubEmulator) -> None:
    before = len(hub.requests)
    for cursor in BAD_CURSORS:
        is_error, data = await mcp.call("hub_list_devices", {"cursor": cursor})
        assert is_error and data["error"] == "invalid_cursor", (cursor, data)
    logs = [
        *BAD_CURSORS,
        b64('logs:{"a": null, "o": Infinity}'),
        b64('logs:{"a": null, "o": 1e400}'),
        b64('logs:{"a": "2026-01-01", "o": 1}'),
        b64('logs:{"a": 5, "o": 1}'),
        b64('logs:{"a": null, "o": true}'),
        b64("logs:[1, 2]"),
        b64("logs:" + "[" * 300),
    ]
    for cursor in logs:
        await refused_via(mcp, "hub_get_logs", {"cursor": cursor}, "invalid_cursor")
    assert writes(hub, before) == []


# ------------------------------------------------------------------ patterns


async def test_trailing_newlines_are_refused(mcp: Mcp, hub: HubEmulator) -> None:
    switch = a_switch(hub)
    state = hub.device(switch)["attributes"]["switch"]
    before = len(hub.requests)
    for args in ({"device_id": f"{switch}\n"}, {"device_id": f"{switch}\n\n"}):
        await refused_via(mcp, "hub_get_device", args, "invalid_arguments")
    is_error, data = await mcp.call(
        "hub_call_device_command", {"device_id": f"{switch}\n", "command": "toggle"}
    )
    assert is_error and data["error"] == "invalid_arguments", data
    await refused_via(
        mcp, "hub_install_bundle", {"url": "https://example.com/a.zip\n"}, "invalid_arguments"
    )
    await refused_via(
        mcp, "hub_get_logs", {"source_type": "dev", "source_id": "5\n"}, "invalid_arguments"
    )
    assert hub.requests[before:] == []  # refused before anything was sent
    assert hub.device(switch)["attributes"]["switch"] == state


# ------------------------------------------------------------------ finite numbers


def a_dimmer(hub: HubEmulator) -> int:
    for dev_id in hub.device_ids():
        dev = hub.device(dev_id)
        if "level" in dev["attributes"] and not dev.get("disabled"):
            return dev_id
    raise AssertionError("no dimmer in the emulated home")


async def test_non_finite_command_arguments_are_refused(
    mcp: Mcp, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    dimmer = a_dimmer(hub)
    level = hub.device(dimmer)["attributes"]["level"]
    before = len(hub.requests)
    for value in ("NaN", "inf", "-Infinity", "1e999", "1_0"):
        is_error, data = await mcp.call(
            "hub_call_device_command",
            {"device_id": str(dimmer), "command": "setLevel", "arguments": [value]},
        )
        assert is_error, (value, data)
        assert data["error"] == "invalid_request", data
    for number in (float("nan"), float("inf")):  # as JSON numbers (Python's json allows them)
        result = await call_tool(
            "hub_call_device_command",
            {"device_id": str(dimmer), "command": "setLevel", "arguments": [number]},
        )
        assert result.error and "finite" in result.data["message"], result.data
    sent = [p for _m, p in hub.requests[before:] if "setLevel" in p]
    assert sent == []
    assert hub.device(dimmer)["attributes"]["level"] == level


# ------------------------------------------------------------------ reconfigure


async def test_reconfigure_checks_identity_before_sending_stored_secrets(
    hass: HomeAssistant, secure_hub: HubEmulator, socket_enabled: None
) -> None:
    entry = await add_entry(hass, secure_hub)
    other = HubEmulator(seed=7, security=True)
    await other.start()
    try:
        # Stored password and token left blank, a new address whose hub needs a login.
        flow = await entry.start_reconfigure_flow(hass)
        form = entry_data(other)
        form.pop(CONF_PASSWORD)
        form.pop(CONF_MAKER_TOKEN)
        result = await hass.config_entries.flow.async_configure(flow["flow_id"], form)
        assert result["type"] is FlowResultType.FORM
        assert result["errors"] == {"base": "reenter_password"}
        assert not [p for _m, p in other.requests if p.startswith(("/login", "/apps/api"))]
        # Hub Security off there: identified without secrets, a different hub.
        other.security = False
        result = await hass.config_entries.flow.async_configure(flow["flow_id"], form)
        assert result["type"] is FlowResultType.ABORT and result["reason"] == "wrong_hub"
        assert not [p for _m, p in other.requests if p.startswith(("/login", "/apps/api"))]
        assert not [p for _m, p in other.requests if "access_token" in p]
    finally:
        await other.stop()
    assert entry.data[CONF_HOST] == URL(secure_hub.url).host


async def test_reconfigure_same_hub_new_address_needs_the_password_typed(
    hass: HomeAssistant, secure_hub: HubEmulator, socket_enabled: None
) -> None:
    entry = await add_entry(hass, secure_hub)
    moved = HubEmulator(seed=7, security=True)  # the same hub (its UID), at another address
    moved.state.hub_uid = secure_hub.hub_uid
    moved.username, moved.password = secure_hub.username, secure_hub.password
    moved.maker_app_id, moved.maker_token = secure_hub.maker_app_id, secure_hub.maker_token
    await moved.start()
    try:
        flow = await entry.start_reconfigure_flow(hass)
        form = entry_data(moved)
        form.pop(CONF_PASSWORD)
        form.pop(CONF_MAKER_TOKEN)
        result = await hass.config_entries.flow.async_configure(flow["flow_id"], form)
        assert result["errors"] == {"base": "reenter_password"}
        assert not [p for _m, p in moved.requests if p.startswith(("/login", "/apps/api"))]
        form[CONF_PASSWORD] = secure_hub.password  # typed: meant for that address
        result = await hass.config_entries.flow.async_configure(flow["flow_id"], form)
        assert result["type"] is FlowResultType.ABORT
        assert result["reason"] == "reconfigure_successful"
        assert entry.data[CONF_PORT] == URL(moved.url).port
        assert entry.data[CONF_MAKER_TOKEN] == secure_hub.maker_token  # kept
        await hass.async_block_till_done()
        flows = hass.config_entries.flow.async_progress()
        assert all(f["context"]["source"] != config_entries.SOURCE_REAUTH for f in flows)
        await hass.config_entries.async_unload(entry.entry_id)
    finally:
        await moved.stop()
