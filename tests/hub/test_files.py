"""The library's File Manager functions (``hub/files.py``) on their own, no hass: the file
list read from the hub's recorded answers (the object with the free space, and the bare
array of older firmware without it), and the delete sent as the hub UI sends it (a JSON text
without a JSON content type, the folder first when there is one), answered by the emulated
hub in the recorded shape and read back from the list.

Moved from tests/tools/test_files.py (test_file_list_fixtures_both_shapes,
test_delete_answer_has_the_hub_ui_shape, test_delete_sends_what_the_hub_ui_sends_and_is_read_back:
the File Manager tools' paging, the file-name refusals, the confirmation and fresh-backup
gates, the advice, the error a failing hub answers and the hub-security path stay there; the
File Manager manager's logic is tested in tests/managers/test_files.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from yarl import URL

from custom_components.hubitat_dev_tools.hub import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.files import (
    delete_file,
    list_files,
    list_files_with_space,
)
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape
from ..fixture_client import fixture_client

# ------------------------------------------------------------------ recorded hub answers


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


# ------------------------------------------------------------------ the emulated hub


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
