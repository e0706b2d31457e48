"""Shared fixtures: a real hass, a real emulated hub on loopback, helpers to call tools."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Protocol

import pytest
from homeassistant.auth.models import User
from homeassistant.const import CONF_HOST, CONF_PASSWORD, CONF_PORT, CONF_USERNAME
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import Unauthorized
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
from yarl import URL

# Bind our package before any hass fixture runs: otherwise HA resolves the phcc testing
# package as `custom_components` and reports "Integration not found".
import custom_components.hubitat_dev_tools  # noqa: F401
from custom_components.hubitat_dev_tools import event_stream, snapshots
from custom_components.hubitat_dev_tools.const import (
    API_ID,
    CONF_MAKER_APP_ID,
    CONF_MAKER_TOKEN,
    DOMAIN,
)
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from hubitat_emulator import HubEmulator

from .mcp_client import Mcp


class ToolReply(Protocol):
    """An llm.ToolResult as the tests read it.

    Our tools always answer with a JSON object; each test knows the shape it asked for, so
    the values are read as ``Any`` instead of narrowing every JSON union by hand.
    """

    @property
    def data(self) -> dict[str, Any]: ...

    @property
    def error(self) -> bool: ...


class ToolCaller(Protocol):
    """The ``call_tool`` fixture: one tool through the real llm.API."""

    async def __call__(
        self, name: str, args: dict[str, Any] | None = None, *, user: User | None | str = "admin"
    ) -> ToolReply: ...


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Load custom integrations in every test."""


@pytest.fixture(autouse=True)
async def enable_event_loop_debug() -> None:
    """asyncio debug mode only when ``HDT_LOOP_DEBUG=1`` (Home Assistant's plugin turns it on
    for every test). In debug mode every task, handle and aiohttp request records the stack
    with its source lines, which is a third of a long test's time. ``.ci/run`` runs the glue
    (setup, flows, Repairs, diagnostics, Assist, the safety gates) a second time with it on,
    so its checks (calls from the wrong thread, slow callbacks, coroutines never awaited)
    still run over the code that meets Home Assistant's loop."""
    if os.environ.get("HDT_LOOP_DEBUG") == "1":
        asyncio.get_running_loop().set_debug(True)


@pytest.fixture(autouse=True)
def _snapshots_in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Snapshot files go to the test's own directory, not the shared testing config."""
    monkeypatch.setattr(snapshots, "SNAPSHOT_DIR", str(tmp_path / "hubitat_dev_tools"))


@pytest.fixture(autouse=True)
def _event_stream_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most tests check hub requests and read-after-change exactly: no live stream there.

    The event tests (tests/glue/test_event_stream.py, tests/tools/test_events*.py) turn the
    stream on with their own fixtures.
    """
    from dataclasses import replace

    monkeypatch.setattr(
        event_stream, "STREAM_CONFIG", replace(event_stream.STREAM_CONFIG, enabled=False)
    )


def entry_data(
    hub: HubEmulator, *, maker: bool = True, security: bool | None = None
) -> dict[str, Any]:
    """Config entry data pointing at an emulated hub."""
    url = URL(hub.url)
    data: dict[str, Any] = {CONF_HOST: url.host, CONF_PORT: url.port}
    if security if security is not None else hub.security:
        data[CONF_USERNAME] = hub.username
        data[CONF_PASSWORD] = hub.password
    if maker:
        data[CONF_MAKER_APP_ID] = str(hub.maker_app_id)
        data[CONF_MAKER_TOKEN] = hub.maker_token
    return data


@pytest.fixture
async def hub(socket_enabled: None) -> AsyncIterator[HubEmulator]:
    """A running emulated hub, Hub Security off."""
    emu = HubEmulator(command_delay=0.0)
    await emu.start()
    yield emu
    await emu.stop()


@pytest.fixture
async def secure_hub(socket_enabled: None) -> AsyncIterator[HubEmulator]:
    """A running emulated hub with Hub Security on."""
    emu = HubEmulator(security=True)
    await emu.start()
    yield emu
    await emu.stop()


async def add_entry(
    hass: HomeAssistant, hub: HubEmulator, *, options: dict[str, Any] | None = None, **kw: Any
) -> MockConfigEntry:
    """Add and set up a config entry for ``hub``."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=hub.hub_name,
        data=entry_data(hub, **kw),
        options=options or {},
        unique_id=hub.hub_uid,
    )
    entry.add_to_hass(hass)
    await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


@pytest.fixture
async def entry(hass: HomeAssistant, hub: HubEmulator) -> MockConfigEntry:
    """The integration set up against the emulated hub."""
    return await add_entry(hass, hub)


def llm_context(user: User | None) -> llm.LLMContext:
    """An LLM context as mcp_server builds it."""
    return llm.LLMContext(
        platform="mcp_server",
        context=Context(user_id=user.id) if user else None,
        language="*",
        assistant="conversation",
        device_id=None,
    )


@pytest.fixture
def call_tool(hass: HomeAssistant, hass_admin_user: User) -> ToolCaller:
    """Call one of our tools through the real llm.API, as the admin user by default."""

    async def _call(
        name: str, args: dict[str, Any] | None = None, *, user: User | None | str = "admin"
    ) -> ToolReply:
        who = hass_admin_user if user == "admin" else user
        assert not isinstance(who, str)
        try:
            api = await llm.async_get_api(hass, API_ID, llm_context(who))
        except Unauthorized:
            # HA 2026.11+ enforces our API's requires_admin in core, before our own
            # chokepoint runs; to the caller it is the same refusal.
            return llm.ToolResult(
                data={"error": "not_admin", "message": "refused by Home Assistant core"},
                error=True,
            )
        return await api.async_call_tool(llm.ToolInput(tool_name=name, tool_args=args or {}))

    return _call


async def setup_mcp_server(
    hass: HomeAssistant, *, apis: list[str] | None = None, all_apis: bool = False
) -> MockConfigEntry:
    """Set up core's mcp_server with an entry serving ``apis``."""
    from homeassistant.components.mcp_server.config_flow import (
        ModelContextServerProtocolConfigFlow as McpFlow,
    )

    assert await async_setup_component(hass, "homeassistant", {})
    data: dict[str, Any] = {
        "llm_hass_api": apis if apis is not None else [API_ID],
        "all_llm_apis": all_apis,
        "require_admin": True,
    }
    if McpFlow.MINOR_VERSION >= 4:
        data["read_only"] = False
    mcp = MockConfigEntry(
        domain="mcp_server", version=McpFlow.VERSION, minor_version=McpFlow.MINOR_VERSION, data=data
    )
    mcp.add_to_hass(hass)
    assert await hass.config_entries.async_setup(mcp.entry_id)
    await hass.async_block_till_done()
    return mcp


@pytest.fixture
async def mcp(
    hass: HomeAssistant, entry: MockConfigEntry, hass_client: ClientSessionGenerator
) -> Mcp:
    """An MCP client talking to the real mcp_server, which serves our API (admin token)."""
    await setup_mcp_server(hass, apis=[API_ID])
    return Mcp(await hass_client())


# ------------------------------------------------------------ tool calls, requests, issues


async def ok(
    call_tool: ToolCaller, name: str, args: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Call a tool and assert it succeeded; return its data."""
    result = await call_tool(name, args or {})
    assert not result.error, result.data
    return result.data


async def refused(
    call_tool: ToolCaller, name: str, args: dict[str, Any], code: str | None = None
) -> dict[str, Any]:
    """Call a tool and assert it failed (with ``code`` if given); return its data."""
    result = await call_tool(name, args)
    assert result.error, result.data
    data = result.data
    if code is not None:
        assert data["error"] == code, data
    return data


def sent_since(hub: HubEmulator, before: int = 0) -> list[tuple[str, str]]:
    """The (method, path) requests the hub received since index ``before``."""
    return hub.requests[before:]


def our_issues(hass: HomeAssistant) -> set[str]:
    """Ids of this integration's open Repairs issues."""
    return {iid for (dom, iid) in ir.async_get(hass).issues if dom == DOMAIN}


async def until(cond: Callable[[], object], timeout: float = 5.0, what: str = "condition") -> None:
    """Wait (real time: the hub and its sockets are real) until ``cond()`` is truthy."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


# ------------------------------------------------------------ live event stream
# The stream is off by default (above); the event tests turn it on with
# ``pytestmark = pytest.mark.usefixtures("fast_stream")`` (autouse fixtures run first).

FAST = event_stream.StreamConfig(
    dead_peer_timeout=30.0,
    backoff_initial=0.05,
    backoff_max=0.2,
    stale_after=0.4,
    check_interval=0.05,
    connect_timeout=2.0,
)


@pytest.fixture
def fast_stream(monkeypatch: pytest.MonkeyPatch) -> event_stream.StreamConfig:
    """The stream on, with small timings for every stream started in the test (wired or not)."""
    monkeypatch.setattr(event_stream, "STREAM_CONFIG", FAST)
    return FAST


async def ensure_stream(
    hass: HomeAssistant, entry: MockConfigEntry, config: event_stream.StreamConfig | None = None
) -> StateCache:
    """The entry's live cache: the wired one, else start one here (stopped on unload)."""
    runtime = entry.runtime_data
    if runtime.hub.cache is None:
        stop = await event_stream.async_setup_event_stream(hass, entry, runtime, config)
        entry.async_on_unload(stop)
    cache: StateCache | None = runtime.hub.cache
    assert cache is not None
    await until(lambda: cache.live, what="stream live")
    return cache


@pytest.fixture
async def live(hass: HomeAssistant, entry: MockConfigEntry) -> AsyncIterator[StateCache]:
    """The entry with its stream live; unloaded at the end."""
    cache = await ensure_stream(hass, entry)
    yield cache
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()


def a_switch(hub: HubEmulator) -> int:
    """An enabled switch of the emulated home."""
    for dev_id in hub.device_ids():
        dev = hub.device(dev_id)
        if "switch" in dev["attributes"] and not dev.get("disabled"):
            return dev_id
    raise AssertionError("no switch in the emulated home")
