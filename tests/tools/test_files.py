"""File Manager tools against the emulated hub: list, read, write, delete, gates.

The File Manager logic itself (listing, also of a hub answering a bare array, paged reads,
the backup-first write and delete, byte-exact for binary files), without Home Assistant:
tests/managers/test_files.py; here stay the tools' paging, the file-name refusals, the
confirmation and fresh-backup gates, the advice, the error a failing hub answers, the
hub-security path and the hub's recorded File Manager answers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from yarl import URL

from custom_components.hubitat_dev_tools.hub import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.files import (
    delete_file,
    list_files,
    list_files_with_space,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, refused
from ..contract import assert_same_shape
from ..fixture_client import fixture_client
from ..ops_util import writes


async def test_list_files(entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller) -> None:
    """The tool's part: the filter reaches the listing, the pages and the free space (the
    listing itself: tests/managers/test_files.py::test_list_files)."""
    data = await ok(call_tool, "hub_list_files")
    names = [f["name"] for f in data["files"]]
    assert "notes.txt" in names and data["free_space_bytes"] > 0
    glob = await ok(call_tool, "hub_list_files", {"filter": "*.json"})
    assert [f["name"] for f in glob["files"]] == ["deviceProfiles.json"], glob
    page = await ok(call_tool, "hub_list_files", {"limit": 2})
    assert [f["name"] for f in page["files"]] == names[:2] and page["next_cursor"]
    rest = await ok(call_tool, "hub_list_files", {"limit": 10, "cursor": page["next_cursor"]})
    assert [f["name"] for f in rest["files"]] == names[2:]


async def test_read_file_paged(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: offset and length reach the read, and a missing file's advice names
    hub_list_files (the paged and binary reads themselves:
    tests/managers/test_files.py::test_read_file_paged_and_binary)."""
    text = (hub.files.read("notes.txt") or b"").decode()
    second = await ok(
        call_tool, "hub_read_file", {"file_name": "notes.txt", "offset": 100, "length": 50}
    )
    assert second["content"] == text[100:150] and second["next_offset"] == 150
    missing = await refused(call_tool, "hub_read_file", {"file_name": "nope.txt"}, "not_found")
    assert "hub_list_files" in missing["hint"]


@pytest.mark.parametrize(
    "name", ["../etc/passwd", "a/b.txt", ".hidden", "", "x" * 200, "a b.txt", "..", "-x"]
)
async def test_bad_file_names_never_reach_the_hub(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, name: str
) -> None:
    hub.mark_backup_now()
    before = len(hub.requests)
    for tool, args in (
        ("hub_read_file", {"file_name": name}),
        ("hub_write_file", {"file_name": name, "content": "x", "confirm": True}),
        ("hub_delete_file", {"file_name": name, "confirm": True}),
    ):
        await refused(call_tool, tool, args, "invalid_arguments")
    assert hub.requests[before:] == []


async def test_write_needs_confirm_and_fresh_backup(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    args = {"file_name": "notes.txt", "content": "new"}
    before = len(hub.requests)
    await refused(call_tool, "hub_write_file", args, "confirmation_required")
    assert hub.requests[before:] == []
    # the seeded backup is 30 h old: refused, and nothing but the backup list was read
    await refused(call_tool, "hub_write_file", {**args, "confirm": True}, "backup_required")
    assert writes(hub, before) == []
    assert (hub.files.read("notes.txt") or b"").startswith(b"line 1")


async def test_write_after_a_fresh_backup(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: a backup made with hub_create_backup passes the fresh-backup gate,
    and the write's answer (the backup-first write itself:
    tests/managers/test_files.py::test_write_backs_up_the_existing_file_first)."""
    await ok(call_tool, "hub_create_backup")
    data = await ok(
        call_tool, "hub_write_file", {"file_name": "notes.txt", "content": "fresh", "confirm": True}
    )
    assert data["summary"].startswith("Overwrote notes.txt") and data["created"] is False
    assert data["backup_file"].startswith("notes_backup_")
    assert hub.files.read("notes.txt") == b"fresh"


async def test_delete_file_answers_its_backup(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: past its gates the delete answers the file and its backup copy (the
    backup-first delete, byte-exact for a binary file:
    tests/managers/test_files.py::test_binary_file_backed_up_byte_exact)."""
    hub.mark_backup_now()
    old = hub.files.read("logo.png")
    data = await ok(call_tool, "hub_delete_file", {"file_name": "logo.png", "confirm": True})
    assert data["deleted"] == "logo.png" and data["backup_file"].startswith("logo_backup_")
    assert hub.files.read("logo.png") is None and hub.files.read(data["backup_file"]) == old


async def test_hub_error_is_reported(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.error_burst = 5
    data = await refused(call_tool, "hub_list_files", {})
    assert data["error"] == "hub_bad_response" and data["hint"]
    hub.faults.reset()
    hub.faults.down = True
    data = await refused(call_tool, "hub_read_file", {"file_name": "notes.txt"})
    assert data["error"] in ("hub_unreachable", "hub_bad_response")


async def test_write_with_hub_security(
    hass: HomeAssistant, secure_hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, secure_hub)
    secure_hub.mark_backup_now()
    secure_hub.expire_sessions()  # the backup download must log in again by itself
    data = await ok(
        call_tool, "hub_write_file", {"file_name": "notes.txt", "content": "x", "confirm": True}
    )
    backup = secure_hub.files.read(data["backup_file"], "")
    assert backup is not None and backup.startswith(b"line 1")
    assert secure_hub.files.read("notes.txt") == b"x"


# ---------------------------------------------------------------------- contract fixtures


async def test_file_list_fixtures_both_shapes() -> None:
    files, free = await list_files_with_space(fixture_client("files/file_list"))
    assert free == 999983489
    notes, folder = files
    assert (notes.name, notes.size, notes.is_dir) == ("notes.txt", 14292, False)
    assert notes.modified is not None and notes.modified.year == 2026
    assert folder.is_dir
    bare, no_free = await list_files_with_space(fixture_client("files/file_list_bare"))
    assert no_free is None
    assert [(f.name, f.size) for f in bare] == [("b.csv", 200), ("a.txt", 100)]
    assert bare[0].modified is not None and bare[0].modified.day == 19


async def test_delete_answer_has_the_hub_ui_shape(hub: HubEmulator) -> None:
    # the hub UI's body: JSON text, no JSON content type, no folder at the root
    body = json.dumps({"name": "notes.txt", "type": "file"})
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{hub.url}/hub/fileManager/delete", data=body) as resp,
    ):
        assert resp.request_info.headers["Content-Type"].startswith("text/plain")
        answer = json.loads(await resp.text())
    assert_same_shape("files/file_delete", answer)
    assert hub.files.read("notes.txt") is None


@asynccontextmanager
async def wire_client(hub: HubEmulator) -> AsyncIterator[tuple[HubClient, list[dict[str, Any]]]]:
    """A client of ``hub`` and the requests it put on the wire (method, path, headers, body)."""
    seen: list[dict[str, Any]] = []

    async def started(_s: Any, _c: Any, params: aiohttp.TraceRequestStartParams) -> None:
        seen.append({"method": params.method, "path": params.url.path, "body": b""})

    async def headers(_s: Any, _c: Any, params: aiohttp.TraceRequestHeadersSentParams) -> None:
        seen[-1]["headers"] = dict(params.headers)

    async def chunk(_s: Any, _c: Any, params: aiohttp.TraceRequestChunkSentParams) -> None:
        seen[-1]["body"] += params.chunk

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(started)
    trace.on_request_headers_sent.append(headers)
    trace.on_request_chunk_sent.append(chunk)
    url = URL(hub.url)
    async with aiohttp.ClientSession(trace_configs=[trace]) as session:
        yield HubClient(session, HubConnection(host=str(url.host), port=url.port)), seen


async def test_delete_sends_what_the_hub_ui_sends_and_is_read_back(hub: HubEmulator) -> None:
    hub.files.put("fw.bin", b"\x00\x01", folder="firmware")
    async with wire_client(hub) as (client, seen):
        await delete_file(client, "notes.txt")
        # in a folder (the UI's firmware file manager) the folder goes first
        await delete_file(client, "fw.bin", folder="firmware")
        left = [f.name for f in await list_files(client)]
    deletes = [r for r in seen if r["path"] == "/hub/fileManager/delete"]
    assert [r["body"].decode() for r in deletes] == [
        '{"name": "notes.txt", "type": "file"}',
        '{"folder": "firmware", "name": "fw.bin", "type": "file"}',
    ]
    for r in deletes:  # a JSON string without a JSON content type, as fetch() sends it
        assert r["headers"]["Content-Type"].startswith("text/plain"), r["headers"]
    # read back: both are gone
    assert "notes.txt" not in left and hub.files.read("notes.txt") is None
    assert hub.files.read("fw.bin", "firmware") is None
