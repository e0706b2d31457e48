"""End to end through Home Assistant's real mcp_server over HTTP."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools.const import (
    API_ID,
    OPT_SURFACE,
    SURFACE_COMPACT,
    SURFACE_FLAT,
)
from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES, HubTool
from hubitat_emulator import HubEmulator

from .. import mcp_cases
from ..conftest import setup_mcp_server
from ..dns_util import use_fake_dns
from ..mcp_client import HEADERS, Mcp


@pytest.fixture(autouse=True)
def _fake_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """hub_install_bundle's URL check resolves its host: no DNS in the tests."""
    use_fake_dns(monkeypatch)


async def _tools_list(mcp: Mcp) -> dict[str, dict[str, Any]]:
    await mcp.rpc(
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    )
    return {t["name"]: t for t in (await mcp.rpc("tools/list"))["tools"]}


def _check_tool(tool: dict[str, Any], cls: type[HubTool[Any]]) -> None:
    assert tool["title"] == cls.title
    ann = tool["annotations"]
    assert ann["readOnlyHint"] is (cls.kind == "read")
    assert ann["destructiveHint"] is (cls.kind == "destructive" or cls.may_destroy)
    assert ann["idempotentHint"] is cls.idempotent
    assert ann["openWorldHint"] is cls.open_world
    assert ("hub" in tool["inputSchema"]["properties"]) is cls.hub_access


async def test_tools_list_flat_titles_and_annotations(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp
) -> None:
    hass.config_entries.async_update_entry(entry, options={OPT_SURFACE: SURFACE_FLAT})
    tools = await _tools_list(mcp)
    assert set(tools) == {cls.name for cls in TOOL_CLASSES}
    for cls in TOOL_CLASSES:
        _check_tool(tools[cls.name], cls)
    assert tools["hub_get_device"]["inputSchema"]["required"] == ["device_id"]


async def test_tools_list_compact_core_and_gateways(mcp: Mcp) -> None:
    tools = await _tools_list(mcp)  # compact is the default
    core = {cls.name for cls in TOOL_CLASSES if cls.core}
    assert core <= set(tools)
    reachable = set(core)
    for name, tool in tools.items():
        if name in core:
            _check_tool(tool, next(c for c in TOOL_CLASSES if c.name == name))
            continue
        assert name.startswith(("hub_read_", "hub_manage_")), name
        assert tool["title"]
        subs = [
            c for c in TOOL_CLASSES if c.name in tool["inputSchema"]["properties"]["tool"]["enum"]
        ]
        assert subs and all(c.gateway() == name for c in subs)
        ann = tool["annotations"]
        if name.startswith("hub_read_"):
            assert all(c.kind == "read" for c in subs)
            assert ann["readOnlyHint"] is True
            assert ann["destructiveHint"] is False
        else:
            assert all(c.kind != "read" for c in subs)
            assert ann["readOnlyHint"] is False
            assert ann["destructiveHint"] is any(
                c.kind == "destructive" or c.may_destroy for c in subs
            )
        assert ann["idempotentHint"] is all(c.idempotent for c in subs)
        assert ann["openWorldHint"] is any(c.open_world for c in subs)
        reachable.update(c.name for c in subs)
    # Every capability is reachable: directly or through exactly one gateway.
    assert reachable == {cls.name for cls in TOOL_CLASSES}


# tool name -> the mcp_cases module that has its case (filled by the first test that runs)
_CASE_MODULE: dict[str, str] = {}


async def _cases_for(mcp: Mcp, tool_name: str) -> dict[str, dict[str, Any]]:
    """The cases of the module holding ``tool_name``'s case (every module the first time).

    A module's setup (backups, exports, devices) costs hub requests, so once the map from
    tool to module is known each test runs only the setup its own case needs.
    """
    if tool_name in _CASE_MODULE:
        module = importlib.import_module(_CASE_MODULE[tool_name])
        cases: dict[str, dict[str, Any]] = await module.cases(mcp)
        return cases
    merged: dict[str, dict[str, Any]] = {}
    for info in pkgutil.iter_modules(mcp_cases.__path__):
        module = importlib.import_module(f"{mcp_cases.__name__}.{info.name}")
        found = await module.cases(mcp)
        _CASE_MODULE.update(dict.fromkeys(found, module.__name__))
        merged.update(found)
    return merged


@pytest.mark.parametrize("surface", [SURFACE_COMPACT, SURFACE_FLAT])
@pytest.mark.parametrize("tool_name", [cls.name for cls in TOOL_CLASSES])
async def test_every_tool_through_mcp(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp, tool_name: str, surface: str
) -> None:
    hass.config_entries.async_update_entry(entry, options={OPT_SURFACE: surface})
    cls = next(c for c in TOOL_CLASSES if c.name == tool_name)
    # the tool's own example call, else a case that needs set-up first
    args = {tool_name: cls.example} if cls.example is not None else await _cases_for(mcp, tool_name)
    assert tool_name in args, f"give {tool_name} an example, or a case in tests/mcp_cases/"
    gateway = cls.gateway()
    if surface == SURFACE_COMPACT and gateway is not None:
        # Through its gateway, as a model on the compact surface calls it.
        is_error, data = await mcp.call(gateway, {"tool": tool_name, "args": args[tool_name]})
    else:
        is_error, data = await mcp.call(tool_name, args[tool_name])
    assert not is_error, data
    assert isinstance(data, dict) and data


async def test_per_api_url(mcp: Mcp) -> None:
    direct = Mcp(mcp.client, f"/api/mcp/{API_ID}")
    is_error, data = await direct.call("hub_list_rooms")
    assert not is_error
    assert data["count"] > 0


async def test_validation_error_is_result_not_rpc_error(mcp: Mcp, hub: HubEmulator) -> None:
    before = len(hub.requests)
    is_error, data = await mcp.call("hub_get_device", {"device_id": "abc"})
    assert is_error
    # The MCP SDK checks the published JSON schema first; our own check is the backstop.
    assert "validation error" in str(data) or data["error"] == "invalid_arguments"
    is_error, data = await mcp.call("hub_get_device", {"device_id": {"x": 1}})
    assert is_error
    assert len(hub.requests) == before


async def test_non_admin_token_refused(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hass_client: ClientSessionGenerator,
    hass_read_only_access_token: str,
) -> None:
    await setup_mcp_server(hass, apis=[API_ID])
    client = await hass_client(hass_read_only_access_token)
    for path in ("/api/mcp", f"/api/mcp/{API_ID}"):
        resp = await client.post(
            path,
            headers=HEADERS,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
        )
        assert resp.status in (401, 403), path


async def test_hub_down_is_error_result(mcp: Mcp, hub: HubEmulator) -> None:
    hub.faults.down = True
    is_error, data = await mcp.call("hub_list_devices")
    assert is_error
    assert data["hint"]
    assert data["error"] in ("hub_unreachable", "hub_bad_response")


# ------------------------------------------------ the tool set built once (issue 27 item 5)


async def test_cached_schemas_render_as_probatio_does(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp
) -> None:
    """tools/list answers our schemas from the rendering cache: each one equals what
    probatio renders from the tool's schema afresh, on both surfaces."""
    import probatio

    from custom_components.hubitat_dev_tools.tools.surface import build_gateways, registry

    tools = registry()
    fresh = {**tools, **{g.name: g for g in build_gateways(frozenset(tools))}}

    def rendered(name: str) -> dict[str, Any]:
        spec = probatio.to_openapi(fresh[name].parameters, openapi_version="3.1.0")
        out: dict[str, Any] = {"type": "object", "properties": spec["properties"]}
        if spec.get("required"):
            out["required"] = spec["required"]
        return out

    for surface in (SURFACE_COMPACT, SURFACE_FLAT):
        hass.config_entries.async_update_entry(entry, options={OPT_SURFACE: surface})
        listed = await _tools_list(mcp)
        for _ in range(2):  # the second list comes from the cache
            again = await _tools_list(mcp)
            assert again == listed
        for name, tool in listed.items():
            assert tool["inputSchema"] == rendered(name), name


async def test_tool_set_follows_options(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp
) -> None:
    """Built once per options: the same tool objects while options stay, a new set the
    moment a disable list, a master or the surface changes (no stale cache)."""
    from custom_components.hubitat_dev_tools.const import (
        OPT_ALLOW_WRITE,
        OPT_DISABLED_GATEWAYS,
        OPT_DISABLED_TOOLS,
    )
    from custom_components.hubitat_dev_tools.tools.surface import served_tools

    first, second = served_tools(hass), served_tools(hass)
    assert first == second and first is not second  # same objects, a list of its own
    assert all(a is b for a, b in zip(first, second, strict=True))

    assert {"hub_get_info", "hub_read_rules"} <= set(await _tools_list(mcp))
    hass.config_entries.async_update_entry(entry, options={OPT_DISABLED_TOOLS: ["hub_get_info"]})
    assert "hub_get_info" not in await _tools_list(mcp)
    is_error, data = await mcp.call("hub_get_info")
    assert is_error and data["error"] == "tool_disabled"

    hass.config_entries.async_update_entry(
        entry, options={OPT_DISABLED_GATEWAYS: ["hub_read_rules"]}
    )
    listed = await _tools_list(mcp)
    assert "hub_get_info" in listed and "hub_read_rules" not in listed

    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_WRITE: False})
    listed = await _tools_list(mcp)
    assert not any(n.startswith("hub_manage_") for n in listed)
    assert all(t["annotations"]["readOnlyHint"] for t in listed.values())

    hass.config_entries.async_update_entry(entry, options={})
    assert any(n.startswith("hub_manage_") for n in await _tools_list(mcp))


async def test_serializer_leaves_other_schemas_alone() -> None:
    """On a merged URL our serializer sees other APIs' nodes: it defers on every one."""
    import probatio

    from custom_components.hubitat_dev_tools.tools.base import rendered_schema

    foreign = probatio.Schema({probatio.Required("entity_id"): str})
    assert rendered_schema(foreign.schema) is probatio.UNSUPPORTED
    assert probatio.to_openapi(foreign, custom_serializer=rendered_schema) == probatio.to_openapi(
        foreign
    )
