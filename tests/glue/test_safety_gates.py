"""The gate matrix: every gate refuses, directly and through gateways, and nothing reaches
the hub; hidden tools are unreachable and absent from lists and search; the audit trail
records the refusals (as the sub-tool, with the gateway noted)."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools.const import (
    API_ID,
    OPT_ALLOW_READ,
    OPT_ALLOW_WRITE,
    OPT_ALLOWED_DEVICES,
    OPT_DISABLED_GATEWAYS,
    OPT_DISABLED_TOOLS,
    OPT_SURFACE,
    SURFACE_FLAT,
)
from custom_components.hubitat_dev_tools.domain_data import get_domain_data
from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from custom_components.hubitat_dev_tools.tools.base import HubTool
from custom_components.hubitat_dev_tools.tools.surface import GatewayTool
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ToolReply, entry_data, llm_context, sent_since
from ..mcp_client import Mcp


async def device_ids(call_tool: ToolCaller, n: int = 2) -> list[str]:
    result = await call_tool("hub_list_devices", {"capability": "Switch", "limit": n})
    assert not result.error, result.data
    return [d["device_id"] for d in result.data["devices"]]


async def listed(hass: HomeAssistant, user: User) -> list[llm.Tool]:
    api = await llm.async_get_api(hass, API_ID, llm_context(user))
    return api.tools


def last_audit(hass: HomeAssistant) -> dict[str, Any]:
    shared = get_domain_data(hass)
    assert shared is not None
    return shared.audit.recent(1)[0]


# (gate, options, tool, args, expected error code). Args may use {dev} for an allowed
# switch and {other} for a switch outside the allowlist.
GATES: list[tuple[str, dict[str, Any], str, dict[str, Any], str]] = [
    ("write_master", {OPT_ALLOW_WRITE: False}, "hub_create_backup", {}, "writes_disabled"),
    (
        "write_master_core",
        {OPT_ALLOW_WRITE: False},
        "hub_call_device_command",
        {"device_id": "{dev}", "command": "on"},
        "writes_disabled",
    ),
    ("read_master", {OPT_ALLOW_READ: False}, "hub_list_rooms", {}, "reads_disabled"),
    (
        "tool_disabled",
        {OPT_DISABLED_TOOLS: ["hub_create_backup"]},
        "hub_create_backup",
        {},
        "tool_disabled",
    ),
    (
        "gateway_disabled",
        {OPT_DISABLED_GATEWAYS: ["hub_manage_backups"]},
        "hub_create_backup",
        {},
        "gateway_disabled",
    ),
    (
        "device_allowlist_command",
        {OPT_ALLOWED_DEVICES: ["{dev}"]},
        "hub_call_device_command",
        {"device_id": "{other}", "command": "on"},
        "device_not_allowed",
    ),
    (
        "device_allowlist_read",
        {OPT_ALLOWED_DEVICES: ["{dev}"]},
        "hub_get_device",
        {"device_id": "{other}"},
        "device_not_allowed",
    ),
    ("confirm", {}, "hub_delete_room", {"room": "Kitchen"}, "confirmation_required"),
    (
        "backup_24h",
        {},
        "hub_delete_room",
        {"room": "Kitchen", "confirm": True},
        "backup_required",
    ),
]


OPTION_CODES = {"writes_disabled", "reads_disabled", "tool_disabled", "gateway_disabled"}


def _fill(value: Any, dev: str, other: str) -> Any:
    if isinstance(value, str):
        return value.replace("{dev}", dev).replace("{other}", other)
    if isinstance(value, list):
        return [_fill(v, dev, other) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, dev, other) for k, v in value.items()}
    return value


@pytest.mark.parametrize("path", ["direct", "gateway", "flat"])
@pytest.mark.parametrize(
    ("gate", "options", "tool", "args", "code"), GATES, ids=[g[0] for g in GATES]
)
async def test_gate_refuses_and_sends_nothing(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    path: str,
    gate: str,
    options: dict[str, Any],
    tool: str,
    args: dict[str, Any],
    code: str,
) -> None:
    dev, other = await device_ids(call_tool)
    cls = next(c for c in TOOL_CLASSES if c.name == tool)
    opts = _fill(options, dev, other)
    if path == "flat":
        opts[OPT_SURFACE] = SURFACE_FLAT
    hass.config_entries.async_update_entry(entry, options=opts)
    args = _fill(args, dev, other)
    before = len(hub.requests)
    if path == "gateway" and (gateway := cls.gateway()) is not None:
        result = await call_tool(gateway, {"tool": tool, "args": args})
    else:
        # by name: listed (core, flat), or a sub-tool of a listed gateway (compact)
        result = await call_tool(tool, args)
    assert result.error, result.data
    assert result.data["error"] == code, result.data
    assert "hub_get_tool_guide" in result.data["hint"]
    new = sent_since(hub, before)
    if code == "backup_required":  # only the hub's backup list was read
        assert all(m == "GET" and "ackup" in p for m, p in new), new
    else:
        assert new == [], new
    if cls.kind != "read":
        record = last_audit(hass)
        assert record["tool"] == tool
        assert record["outcome"] == "refused"
        assert code in record["detail"]
        hidden_by_options = code in OPTION_CODES
        expect_gw = None
        if path == "gateway" or (path == "direct" and not hidden_by_options):
            expect_gw = cls.gateway()
        assert record["gateway"] == expect_gw, record


async def test_non_admin_refused_through_gateways(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_read_only_user: User,
    hass_admin_user: User,
) -> None:
    gateways = [t for t in await listed(hass, hass_admin_user) if isinstance(t, GatewayTool)]
    assert gateways
    before = len(hub.requests)
    for gateway in gateways:
        for who in (hass_read_only_user, None):
            result = await call_tool(gateway.name, {}, user=who)
            assert result.error
            assert result.data["error"] == "not_admin"
            sub = gateway.tools[0]
            result = await call_tool(gateway.name, {"tool": sub.name, "args": {}}, user=who)
            assert result.error
            assert result.data["error"] in ("not_admin", "invalid_arguments")
    assert sent_since(hub, before) == []


async def test_hidden_tools_absent_everywhere(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_admin_user: User,
) -> None:
    hass.config_entries.async_update_entry(
        entry,
        options={
            OPT_DISABLED_TOOLS: ["hub_create_backup", "hub_list_rooms"],
            OPT_DISABLED_GATEWAYS: ["hub_manage_rooms"],
        },
    )
    hidden = {"hub_create_backup", "hub_list_rooms"} | {
        c.name for c in TOOL_CLASSES if c.gateway() == "hub_manage_rooms"
    }
    tools = await listed(hass, hass_admin_user)
    names = {t.name for t in tools}
    reachable = set(names)
    for tool in tools:
        if isinstance(tool, GatewayTool):
            reachable |= {t.name for t in tool.tools}
            enum = tool.parameters.schema
            assert not hidden & {t.name for t in tool.tools}, enum
    assert "hub_manage_rooms" not in names
    assert not hidden & reachable
    # Search never returns them.
    for query in ("create a backup", "list rooms", "delete a room", "rename a room"):
        result = await call_tool("hub_search_tools", {"query": query, "max_results": 20})
        assert not result.error, result.data
        assert not hidden & {r["name"] for r in result.data["results"]}, query
    # Flat surface: not listed either.
    hass.config_entries.async_update_entry(
        entry, options={**entry.options, OPT_SURFACE: SURFACE_FLAT}
    )
    flat = {t.name for t in await listed(hass, hass_admin_user)}
    assert not hidden & flat
    assert "hub_get_info" in flat
    # Called anyway (by name, or through a gateway): refused, nothing sent.
    before = len(hub.requests)
    assert (await call_tool("hub_create_backup")).data["error"] == "tool_disabled"
    assert (await call_tool("hub_list_rooms")).data["error"] == "tool_disabled"
    hass.config_entries.async_update_entry(entry, options={**entry.options, OPT_SURFACE: "compact"})
    via = await call_tool("hub_manage_backups", {"tool": "hub_create_backup", "args": {}})
    assert via.error
    assert via.data["error"] in ("tool_disabled", "tool_not_available")
    assert sent_since(hub, before) == []


async def test_mcp_read_only_option_hides_every_write(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    hass_client: ClientSessionGenerator,
) -> None:
    from homeassistant.components.mcp_server.config_flow import (
        ModelContextServerProtocolConfigFlow as McpFlow,
    )
    from homeassistant.setup import async_setup_component

    if McpFlow.MINOR_VERSION < 4:
        pytest.skip("mcp_server has no read-only option before 2026.11")
    assert await async_setup_component(hass, "homeassistant", {})
    mcp_entry = MockConfigEntry(
        domain="mcp_server",
        version=McpFlow.VERSION,
        minor_version=McpFlow.MINOR_VERSION,
        data={
            "llm_hass_api": [API_ID],
            "all_llm_apis": False,
            "require_admin": True,
            "read_only": True,
        },
    )
    mcp_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(mcp_entry.entry_id)
    await hass.async_block_till_done()
    mcp = Mcp(await hass_client())
    for surface in ("compact", SURFACE_FLAT):
        hass.config_entries.async_update_entry(entry, options={OPT_SURFACE: surface})
        tools = (await mcp.rpc("tools/list"))["tools"]
        assert tools
        assert all(t["annotations"]["readOnlyHint"] for t in tools)
        assert not any(t["name"].startswith("hub_manage_") for t in tools)
    hass.config_entries.async_update_entry(entry, options={})
    before = len(hub.requests)
    is_error, data = await mcp.call("hub_create_backup")
    assert is_error
    assert "tool_not_available" in str(data) or "not found" in str(data).lower()
    is_error, data = await mcp.call("hub_manage_backups", {"tool": "hub_create_backup"})
    assert is_error
    # A read gateway cannot run a write.
    read_gw = next(
        t["name"] for t in (await mcp.rpc("tools/list"))["tools"] if t["name"] == "hub_read_rooms"
    )
    is_error, data = await mcp.call(read_gw, {"tool": "hub_delete_room", "args": {}})
    assert is_error
    assert sent_since(hub, before) == []


async def test_read_only_filter_blocks_writes_by_any_path(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, hass_admin_user: User
) -> None:
    """What mcp_server's read-only option does (2026.11+), applied to our API instance."""
    for surface in ("compact", SURFACE_FLAT):
        hass.config_entries.async_update_entry(entry, options={OPT_SURFACE: surface})
        api = await llm.async_get_api(hass, API_ID, llm_context(hass_admin_user))
        api.tools = [t for t in api.tools if t.annotations.read_only]
        assert api.tools
        before = len(hub.requests)
        for cls in TOOL_CLASSES:
            if cls.kind == "read":
                continue
            result = await api.async_call_tool(llm.ToolInput(tool_name=cls.name, tool_args={}))
            assert result.error
            assert result.data["error"] == "tool_not_available", (cls.name, result.data)
            if gateway := cls.gateway():
                result = await api.async_call_tool(
                    llm.ToolInput(tool_name=gateway, tool_args={"tool": cls.name, "args": {}})
                )
                assert result.data["error"] == "tool_not_available", result.data
        # Search shows no write either.
        found: ToolReply = await api.async_call_tool(
            llm.ToolInput(tool_name="hub_search_tools", tool_args={"query": "delete create set"})
        )
        assert all(r["kind"] == "read" for r in found.data["results"]), found.data
        assert sent_since(hub, before) == []


async def test_gateway_lists_schemas_and_runs_sub_tool(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    listing = await call_tool("hub_read_rooms")
    assert not listing.error, listing.data
    names = [t["name"] for t in listing.data["tools"]]
    assert "hub_list_rooms" in names
    schema = next(t for t in listing.data["tools"] if t["name"] == "hub_list_rooms")
    assert schema["input_schema"]["type"] == "object"
    assert schema["kind"] == "read"
    ran = await call_tool("hub_read_rooms", {"tool": "hub_list_rooms", "args": {}})
    assert not ran.error, ran.data
    assert ran.data["count"] > 0
    wrong = await call_tool("hub_read_rooms", {"tool": "hub_delete_room", "args": {}})
    assert wrong.data["error"] == "not_in_gateway"
    assert "hub_manage_rooms" in wrong.data["hint"]
    unknown = await call_tool("hub_read_rooms", {"tool": "hub_nope"})
    assert unknown.data["error"] == "unknown_tool"
    # Sub-tool argument validation still applies through the gateway.
    bad = await call_tool("hub_read_devices", {"tool": "hub_list_device_events", "args": {"x": 1}})
    assert bad.error


async def test_gateway_write_audited_as_sub_tool(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_manage_backups", {"tool": "hub_create_backup", "args": {}})
    assert not result.error, result.data
    record = last_audit(hass)
    assert record["tool"] == "hub_create_backup"
    assert record["gateway"] == "hub_manage_backups"
    assert record["outcome"] == "ok"
    entries = await call_tool("hub_list_audit_entries", {"tool": "hub_create_backup"})
    assert not entries.error, entries.data
    assert entries.data["entries"][0]["gateway"] == "hub_manage_backups"
    assert entries.data["total"] >= 1


async def test_device_allowlist_filters_lists(
    hass: HomeAssistant, entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    dev, _other = await device_ids(call_tool)
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [dev]})
    result = await call_tool("hub_list_devices")
    assert not result.error, result.data
    assert [d["device_id"] for d in result.data["devices"]] == [dev]
    ok = await call_tool("hub_get_device", {"device_id": dev})
    assert not ok.error, ok.data


async def test_catalog_tools_need_admin_and_follow_disable_lists(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    call_tool: ToolCaller,
    hass_read_only_user: User,
    hass_admin_user: User,
) -> None:
    refused = await call_tool("hub_search_tools", {"query": "x"}, user=hass_read_only_user)
    assert refused.data["error"] == "not_admin"
    # Masters do not hide catalog tools (they never reach the hub)...
    hass.config_entries.async_update_entry(
        entry, options={OPT_ALLOW_READ: False, OPT_ALLOW_WRITE: False}
    )
    assert not (await call_tool("hub_get_tool_guide")).error
    # ...and with both masters off only the catalog tools remain listed.
    for tool in await listed(hass, hass_admin_user):
        assert isinstance(tool, GatewayTool | HubTool), tool
        subs = tool.tools if isinstance(tool, GatewayTool) else [tool]
        assert all(not t.hub_access for t in subs), tool.name
    hass.config_entries.async_update_entry(
        entry, options={OPT_DISABLED_TOOLS: ["hub_get_tool_guide"]}
    )
    assert (await call_tool("hub_get_tool_guide")).data["error"] == "tool_disabled"


async def test_options_flow_surface_gateways_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    from homeassistant.data_entry_flow import FlowResultType

    dev, _other = await device_ids(call_tool)
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    assert result["data_schema"] is not None
    schema = result["data_schema"].schema
    keys = {str(k): v for k, v in schema.items()}
    assert {OPT_SURFACE, OPT_DISABLED_GATEWAYS, OPT_ALLOWED_DEVICES} <= set(keys)
    device_choices = keys[OPT_ALLOWED_DEVICES].config["options"]
    assert any(o["value"] == dev and dev in o["label"] for o in device_choices)
    assert "hub_manage_rooms" in keys[OPT_DISABLED_GATEWAYS].config["options"]
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {
            OPT_ALLOW_READ: True,
            OPT_ALLOW_WRITE: True,
            OPT_SURFACE: SURFACE_FLAT,
            OPT_DISABLED_GATEWAYS: ["hub_manage_rooms"],
            OPT_ALLOWED_DEVICES: [dev],
        },
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[OPT_SURFACE] == SURFACE_FLAT
    assert entry.options[OPT_ALLOWED_DEVICES] == [dev]
    refused = await call_tool("hub_delete_room", {"room": "Kitchen", "confirm": True})
    assert refused.data["error"] == "gateway_disabled"


async def test_several_hubs_hide_only_what_every_hub_refuses(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    call_tool: ToolCaller,
    hass_admin_user: User,
    socket_enabled: None,
) -> None:
    from ..conftest import add_entry

    other = HubEmulator(command_delay=0.0, seed=7)  # another hub name and uid
    await other.start()
    try:
        assert other.hub_uid != entry.unique_id
        second = await add_entry(hass, other, options={OPT_DISABLED_TOOLS: ["hub_create_backup"]})
        del second
        names = set()
        for tool in await listed(hass, hass_admin_user):
            names |= {t.name for t in tool.tools} if isinstance(tool, GatewayTool) else {tool.name}
        assert "hub_create_backup" in names  # still allowed on the first hub
        refused = await call_tool("hub_create_backup", {"hub": other.hub_uid})
        assert refused.error, (other.hub_name, entry.title, refused.data)
        assert refused.data["error"] == "tool_disabled"
    finally:
        await other.stop()


async def test_retired_gateway_disable_carries_over_to_its_tools(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """An entry from before the gateway merge that disabled hub_manage_lifecycle keeps
    reboot, shutdown and firmware install switched off (now in hub_manage_hub)."""
    entry = MockConfigEntry(
        domain="hubitat_dev_tools",
        title=hub.hub_name,
        data=entry_data(hub),
        options={OPT_DISABLED_GATEWAYS: ["hub_manage_lifecycle", "hub_manage_rooms"]},
        unique_id=hub.hub_uid,
        version=1,
        minor_version=1,
    )
    entry.add_to_hass(hass)
    await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.minor_version == 2
    assert entry.options[OPT_DISABLED_GATEWAYS] == ["hub_manage_rooms"]
    assert set(entry.options[OPT_DISABLED_TOOLS]) == {
        "hub_reboot_hub",
        "hub_shutdown_hub",
        "hub_install_firmware_update",
    }
    refused = await call_tool("hub_manage_hub", {"tool": "hub_reboot_hub", "args": {}})
    assert refused.data["error"] == "tool_disabled"
    allowed = await call_tool("hub_manage_hub", {"tool": "hub_update_hub_settings"})
    assert allowed.data.get("error") != "tool_disabled"
