"""Code from a URL or a File Manager file, several items in one call, built-in drivers: the
tools' part (the confirmation gate before any download, the admin option for local URLs, the
one-source argument refusals, a batch's top-level type and answer, the MCP forms) and the
download helpers. The source and batch logic is tested without hass in
tests/managers/test_code_sources.py, the built-in driver types in
tests/managers/test_code.py."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import (
    OPT_ALLOW_LOCAL_CODE_URLS,
    OPT_SURFACE,
    SURFACE_COMPACT,
    SURFACE_FLAT,
)
from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.code import builtin_drivers
from custom_components.hubitat_dev_tools.managers.code_sources import (
    as_source_text,
    fetch_url_text,
)
from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..contract import load_fixture
from ..helpers.code_sources import DRIVER, saves
from ..loopback_host import LoopbackHost, serving
from ..mcp_cases.code_sources import source_cases
from ..mcp_client import Mcp


@pytest.fixture
async def raw_host(socket_enabled: None) -> AsyncIterator[LoopbackHost]:
    """GitHub's raw host, paths looked up decoded."""
    async with serving(LoopbackHost()) as host:
        yield host


@pytest.fixture
def local_urls(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    """The admin option that lets code come from local http URLs (the loopback host)."""
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOW_LOCAL_CODE_URLS: True})


async def test_install_from_url(
    local_urls: None, hub: HubEmulator, raw_host: LoopbackHost, call_tool: ToolCaller
) -> None:
    """The tool's part: the admin option lets a local URL through, and the answer names the
    URL (the download, the byte order mark dropped and the refused downloads:
    tests/managers/test_code_sources.py)."""
    url = raw_host.add("/acme/relay.groovy", "\ufeff" + DRIVER)
    result = await call_tool(
        "hub_install_code", {"type": "driver", "source_url": url, "confirm": True}
    )
    assert not result.error, result.data
    assert result.data["source_url"] == url
    assert result.data["summary"] == f"Installed new driver code with id {result.data['id']}"
    assert hub.state.dev.code[("driver", int(result.data["id"]))].source == DRIVER
    assert raw_host.hits == ["/acme/relay.groovy"]


async def test_url_refused_without_the_option(
    entry: MockConfigEntry, hub: HubEmulator, raw_host: LoopbackHost, call_tool: ToolCaller
) -> None:
    url = raw_host.add("/x.groovy", DRIVER)
    before = len(hub.requests)
    result = await call_tool(
        "hub_install_code", {"type": "driver", "source_url": url, "confirm": True}
    )
    assert result.error and result.data["error"] == "url_not_allowed"
    assert raw_host.hits == [] and hub.requests[before:] == []


async def test_confirm_before_any_download(
    local_urls: None, hub: HubEmulator, raw_host: LoopbackHost, call_tool: ToolCaller
) -> None:
    url = raw_host.add("/x.groovy", DRIVER)
    result = await call_tool("hub_install_code", {"type": "driver", "source_url": url})
    assert result.error and result.data["error"] == "confirmation_required"
    batch = await call_tool("hub_update_code", {"items": [{"type": "driver", "id": "1"}]})
    assert batch.error and batch.data["error"] == "confirmation_required"
    assert raw_host.hits == []


async def test_every_redirect_is_checked(raw_host: LoopbackHost) -> None:
    final = raw_host.add("/final.groovy", DRIVER)
    start = raw_host.add("/start", "", status=302, Location="/final.groovy")
    checked: list[str] = []

    async def allow(url: str) -> None:
        checked.append(url)

    async def refuse_final(url: str) -> None:
        if url.endswith("final.groovy"):
            raise ToolError("refused", code="url_not_allowed")

    async with aiohttp.ClientSession() as session:
        assert await fetch_url_text(session, start, allow) == DRIVER
        assert checked == [start, final]
        with pytest.raises(ToolError) as err:
            await fetch_url_text(session, start, refuse_final)
    assert err.value.code == "url_not_allowed"
    assert raw_host.hits.count("/final.groovy") == 1  # never fetched once refused


def test_source_text_rules() -> None:
    assert as_source_text(b"\xef\xbb\xbfdef x() {}", "f") == "def x() {}"
    for data in (b"\xff\xfe\x00", b"  ", b"<html><body>x</body></html>"):
        with pytest.raises(ToolError):
            as_source_text(data, "f")


async def test_update_from_file_names_the_file(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the answer names the file, and a missing file's code (the file read,
    the backup and the version check: tests/managers/test_code_sources.py)."""
    item = hub.state.dev.code[("driver", 1)]
    edited = item.source + "\n// from a file\n"
    hub.files.write("plug.groovy", edited.encode())
    result = await call_tool(
        "hub_update_code",
        {"type": "driver", "id": "1", "file_name": "plug.groovy", "confirm": True},
    )
    assert not result.error, result.data
    assert result.data["file_name"] == "plug.groovy" and result.data["item_backup"]["backup"]
    assert result.data["summary"] == "Saved driver 1 (Acme Smart Plug): version 7 -> 8"
    assert item.source == edited
    missing = await call_tool(
        "hub_update_code",
        {"type": "driver", "id": "1", "file_name": "nope.groovy", "confirm": True},
    )
    assert missing.error and missing.data["error"] == "not_found"


@pytest.mark.parametrize(
    "args",
    [
        {"type": "driver", "confirm": True},
        {"type": "driver", "source": DRIVER, "file_name": "a.groovy", "confirm": True},
        {"source": DRIVER, "confirm": True},
        {"items": [{"source": DRIVER}], "source": DRIVER, "confirm": True},
        {"items": [{"source": DRIVER}], "confirm": True},
        {"items": [{"type": "driver"}], "confirm": True},
    ],
)
async def test_exactly_one_source(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, args: dict[str, object]
) -> None:
    before = len(hub.requests)
    result = await call_tool("hub_install_code", args)
    assert result.error and result.data["error"] == "invalid_request", result.data
    assert saves(hub, before) == []


async def test_bulk_update_reports_each_item(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the top-level type for items without one, an item's own type, and
    the answer (each item's result and the count: tests/managers/test_code_sources.py)."""
    plug, spare = hub.state.dev.code[("driver", 1)], hub.state.dev.code[("driver", 2)]
    good = plug.source + "\n// bulk\n"
    broken = spare.source + "\ndef oops() {\n"
    result = await call_tool(
        "hub_update_code",
        {
            "type": "driver",
            "items": [
                {"id": "1", "source": good},
                {"id": "2", "source": broken},
                {"type": "library", "id": "1", "source": hub.state.dev.code[("library", 1)].source},
            ],
            "confirm": True,
        },
    )
    assert not result.error, result.data
    data = result.data
    assert [r["type"] for r in data["results"]] == ["driver", "driver", "library"]
    assert [r["status"] for r in data["results"]] == ["updated", "failed", "unchanged"]
    assert data["failed"] == 1 and "2 of 3" in data["summary"]
    assert "subject" not in data["results"][1]  # turned into the tools' advice


async def test_bulk_problems_are_in_the_answer(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the problems found before writing are in the error's answer (every
    item checked before anything is written: tests/managers/test_code_sources.py)."""
    before = len(hub.requests)
    result = await call_tool(
        "hub_update_code",
        {
            "items": [
                {"type": "driver", "id": "1", "source": "// fine\n"},
                {"type": "driver", "id": "999", "source": "// no such driver\n"},
            ],
            "confirm": True,
        },
    )
    assert result.error and result.data["error"] == "invalid_request"
    problems = result.data["problems"]
    assert [(p["index"], p["error"]) for p in problems] == [(1, "not_found")]
    assert "nothing was changed" in result.data["message"]
    assert saves(hub, before) == []


async def test_bulk_install(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the top-level type for each item and the answer (each install and
    the file it came from: tests/managers/test_code_sources.py)."""
    hub.files.write("b.groovy", DRIVER.replace("Url Relay", "File Relay").encode())
    result = await call_tool(
        "hub_install_code",
        {
            "type": "driver",
            "items": [{"source": DRIVER}, {"file_name": "b.groovy"}],
            "confirm": True,
        },
    )
    assert not result.error, result.data
    assert [r["status"] for r in result.data["results"]] == ["installed", "installed"]
    assert [r["type"] for r in result.data["results"]] == ["driver", "driver"]
    assert result.data["results"][1]["file_name"] == "b.groovy"
    assert result.data["summary"] == "2 of 2 items done"


def test_builtin_driver_catalog_parser() -> None:
    drivers = load_fixture("devices/drivers").answer["drivers"]
    out = builtin_drivers(drivers)
    assert out and all(d["builtin"] and d["type"] == "driver" for d in out)
    assert not [d for d in out if d["category"] == "Hidden"]
    sys_ids = {str(d["id"]) for d in drivers if d.get("type") == "sys"}
    assert {d["id"] for d in out} <= sys_ids


async def test_list_builtin_drivers(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    """The tool's part: builtin reaches the manager, off by default, and the answer is one
    page (which built-in types are listed: tests/managers/test_code.py)."""
    plain = await call_tool("hub_list_code", {"type": "driver"})
    assert not [d for d in plain.data["code"] if d.get("builtin")]
    result = await call_tool("hub_list_code", {"type": "driver", "builtin": True, "limit": 500})
    assert not result.error, result.data
    items = result.data["code"]
    assert any(d["name"] == "Virtual Switch" and d.get("builtin") for d in items)
    assert len(items) == result.data["total"] and "next_cursor" not in result.data


@pytest.mark.parametrize("surface", [SURFACE_COMPACT, SURFACE_FLAT])
async def test_source_forms_through_mcp(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    mcp: Mcp,
    hub: HubEmulator,
    raw_host: LoopbackHost,
    surface: str,
) -> None:
    hass.config_entries.async_update_entry(
        entry, options={OPT_SURFACE: surface, OPT_ALLOW_LOCAL_CODE_URLS: True}
    )
    url = raw_host.add("/mcp.groovy", DRIVER.replace("Url Relay", "Mcp Url Relay"))
    for name, args in (await source_cases(mcp, hub, url)).items():
        tool = name.split("#")[0]
        gateway = next(c for c in TOOL_CLASSES if c.name == tool).gateway()
        if surface == SURFACE_COMPACT and gateway is not None:
            is_error, data = await mcp.call(gateway, {"tool": tool, "args": args})
        else:
            is_error, data = await mcp.call(tool, args)
        assert not is_error, (name, data)
        assert isinstance(data, dict) and "clientSecret" not in json.dumps(data)
