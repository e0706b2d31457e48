"""Where code comes from (``managers/code_sources.py``, through the code manager) on its own,
no hass: a source downloaded from a URL (each URL checked first, a byte order mark dropped,
web pages and failed downloads refused), read from a File Manager file, and several items in
one call (all checked before anything is written, then one result each), over the emulated
hub and a loopback download host.

Moved from tests/tools/test_code_sources.py (the source and batch logic is the manager's; the
tools' confirmation gate, the admin option for local URLs, the one-source argument refusals,
the top-level type of a batch, the advice on a failed item and the MCP forms stay there)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.code import HubVersionConflictError
from custom_components.hubitat_dev_tools.managers.code import CodeManager
from custom_components.hubitat_dev_tools.managers.code_sources import CodeItemSpec, SourceSpec
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.code_sources import DRIVER, saves
from ..loopback_host import LoopbackHost, serving


@pytest.fixture
async def raw_host(socket_enabled: None) -> AsyncIterator[LoopbackHost]:
    """GitHub's raw host, paths looked up decoded."""
    async with serving(LoopbackHost()) as host:
        yield host


@pytest.fixture
async def code(manager_hub: Hub) -> AsyncIterator[CodeManager]:
    """The code manager with a session for downloads (the integration gives it Home
    Assistant's, which checks certificates)."""
    async with aiohttp.ClientSession() as session:
        manager_hub.code.use_download_session(session)
        yield manager_hub.code


async def allow_any(url: str) -> None:
    """A URL check that lets every URL through (the tools' check is tested there)."""


async def test_install_from_url(emu: HubEmulator, manager_hub: Hub, raw_host: LoopbackHost) -> None:
    url = raw_host.add("/acme/relay.groovy", "\ufeff" + DRIVER)
    spec = SourceSpec(source_url=url)
    # never the hub's session (it checks no certificate): without one, nothing is fetched
    with pytest.raises(ToolError) as no_session:
        await manager_hub.code.source_text(spec, allow_any)
    assert no_session.value.code == "source_unavailable" and raw_host.hits == []
    checked: list[str] = []

    async def check(asked: str) -> None:
        checked.append(asked)

    async with aiohttp.ClientSession() as session:
        manager_hub.code.use_download_session(session)
        text = await manager_hub.code.source_text(spec, check)
        assert text == DRIVER  # the BOM dropped
        installed = await manager_hub.code.install("driver", text)
    item = emu.state.dev.code[("driver", int(installed["id"]))]
    assert item.name == "Url Relay" and item.source == DRIVER
    assert raw_host.hits == ["/acme/relay.groovy"] and checked == [url]
    assert spec.origin() == {"source_url": url}


async def test_bad_downloads(emu: HubEmulator, code: CodeManager, raw_host: LoopbackHost) -> None:
    before = len(emu.requests)
    page = raw_host.add("/blob.groovy", "<!DOCTYPE html><html><body>code</body></html>")
    for url, why in ((page, "web page"), (raw_host.base + "/missing", "HTTP 404")):
        with pytest.raises(ToolError) as err:
            await code.source_text(SourceSpec(source_url=url), allow_any)
        assert err.value.code == "source_unavailable", err.value
        assert why in str(err.value)
    assert saves(emu, before) == []


async def test_update_from_file_keeps_backup_and_version_check(
    emu: HubEmulator, code: CodeManager
) -> None:
    item = emu.state.dev.code[("driver", 1)]
    edited = item.source + "\n// from a file\n"
    emu.files.write("plug.groovy", edited.encode())
    text = await code.source_text(SourceSpec(file_name="plug.groovy"), allow_any)
    assert text == edited
    with pytest.raises(HubVersionConflictError) as stale:
        await code.update("driver", "1", text, 3)
    assert stale.value.code == "version_conflict" and item.source != edited
    result = await code.update("driver", "1", text, None)
    assert result["item_backup"]["backup"]
    assert item.source == edited and result["version"] == 8
    with pytest.raises(ToolError) as missing:
        await code.source_text(SourceSpec(file_name="nope.groovy"), allow_any)
    assert missing.value.code == "not_found"


async def test_bulk_update_reports_each_item(emu: HubEmulator, code: CodeManager) -> None:
    plug, spare = emu.state.dev.code[("driver", 1)], emu.state.dev.code[("driver", 2)]
    good = plug.source + "\n// bulk\n"
    broken = spare.source + "\ndef oops() {\n"
    library = emu.state.dev.code[("library", 1)]
    data = await code.save_items(
        [
            CodeItemSpec("driver", "1", SourceSpec(source=good)),
            CodeItemSpec("driver", "2", SourceSpec(source=broken)),
            CodeItemSpec("library", "1", SourceSpec(source=library.source)),
        ],
        allow_any,
    )
    assert [r["status"] for r in data["results"]] == ["updated", "failed", "unchanged"]
    assert [r["id"] for r in data["results"]] == ["1", "2", "1"]
    assert data["failed"] == 1 and "2 of 3" in data["summary"]
    assert data["results"][0]["item_backup"]["backup"] and plug.source == good
    assert data["results"][1]["error"] == "compile_error" and data["results"][1]["message"]
    assert spare.source != broken


async def test_bulk_checks_everything_before_writing(emu: HubEmulator, code: CodeManager) -> None:
    before = len(emu.requests)
    with pytest.raises(ToolError) as err:
        await code.save_items(
            [
                CodeItemSpec("driver", "1", SourceSpec(source="// fine\n")),
                CodeItemSpec("driver", "999", SourceSpec(source="// no such driver\n")),
                CodeItemSpec("app", "1", SourceSpec(file_name="missing.groovy")),
            ],
            allow_any,
        )
    assert err.value.code == "invalid_request"
    problems = (err.value.extra or {})["problems"]
    assert [p["index"] for p in problems] == [1, 2]
    assert {p["error"] for p in problems} == {"not_found"}
    assert saves(emu, before) == []
    assert not [p for m, p in emu.requests[before:] if m == "POST"]  # no backup either


async def test_bulk_install(emu: HubEmulator, code: CodeManager) -> None:
    emu.files.write("b.groovy", DRIVER.replace("Url Relay", "File Relay").encode())
    data = await code.save_items(
        [
            CodeItemSpec("driver", None, SourceSpec(source=DRIVER)),
            CodeItemSpec("driver", None, SourceSpec(file_name="b.groovy")),
        ],
        allow_any,
    )
    assert [r["status"] for r in data["results"]] == ["installed", "installed"]
    assert data["failed"] == 0
    names = {c.name for c in emu.state.dev.items("driver")}
    assert {"Url Relay", "File Relay"} <= names
    assert data["results"][1]["file_name"] == "b.groovy"
    assert "file_name" not in data["results"][0]  # inline text names no origin
