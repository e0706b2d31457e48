"""File Manager tools against the emulated hub: list, read, write, delete, gates.

The File Manager logic itself (listing, also of a hub answering a bare array, paged reads,
the backup-first write and delete, byte-exact for binary files), without Home Assistant:
tests/managers/test_files.py; the library's part (the hub's recorded File Manager answers
and the delete sent as the hub UI sends it): tests/hub/test_files.py. Here stay the tools'
paging, the file-name refusals, the confirmation and fresh-backup gates, the advice, the
error a failing hub answers and the hub-security path."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, refused
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
