"""Shared fixtures: a real hass, a real emulated hub on loopback, helpers to call tools."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Protocol

import pytest
from homeassistant.auth.models import User
from homeassistant.const import CONF_HOST, CONF_PASSWORD, CONF_PORT, CONF_USERNAME
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import Unauthorized
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
from yarl import URL

# Bind our package before any hass fixture runs: otherwise HA resolves the phcc testing
# package as `custom_components` and reports "Integration not found".
import custom_components.hubitat_dev_tools  # noqa: F401
from custom_components.hubitat_dev_tools.const import (
    API_ID,
    CONF_MAKER_APP_ID,
    CONF_MAKER_TOKEN,
    DOMAIN,
)
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
def _event_stream_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most tests check hub requests and read-after-change exactly: no live stream there.

    The tests/test_events_*.py files turn the stream on with their own fixtures.
    """
    from dataclasses import replace

    from custom_components.hubitat_dev_tools import event_stream

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
