"""The File Manager manager (``managers/files.py``) on its own, no hass: listing (folders
last, glob filter, free space; none from a hub answering a bare array), paged text reads and
binary files by URL, and the backup-first write and delete (a binary file's backup byte for
byte), decided by what the hub then lists, over the emulated hub.

Moved from tests/tools/test_files.py (the file logic is the manager's; the tools' paging,
the file-name refusals, the confirmation and fresh-backup gates, the advice that names a
tool and the hub-security path stay there)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


async def test_list_files(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await manager_hub.files.list()
    names = [f["name"] for f in data["files"]]
    assert "notes.txt" in names and "logo.png" in names
    assert names[-1] == "firmware"  # folders last
    notes = next(f for f in data["files"] if f["name"] == "notes.txt")
    assert notes["size"] == len(emu.files.read("notes.txt") or b"")
    assert notes["url"].endswith("/local/notes.txt") and notes["binary"] is False
    assert next(f for f in data["files"] if f["name"] == "logo.png")["binary"] is True
    free = data["free_space_bytes"]
    assert free is not None and free > 0
    sizes = [f["size"] or 0 for f in data["files"] if f.get("type") != "dir"]
    assert data["total_size_bytes"] == sum(sizes) > 0
    glob = await manager_hub.files.list("*.json")
    assert [f["name"] for f in glob["files"]] == ["deviceProfiles.json"], glob


async def test_read_file_paged_and_binary(emu: HubEmulator, manager_hub: Hub) -> None:
    files = manager_hub.files
    text = (emu.files.read("notes.txt") or b"").decode()
    first = await files.read("notes.txt", 0, 100)
    assert first["content"] == text[:100] and first["total_chars"] == len(text)
    assert first["next_offset"] == 100
    second = await files.read("notes.txt", first["next_offset"], 60000)
    assert first["content"] + second["content"] == text and "next_offset" not in second
    before = len(emu.requests)
    binary = await files.read("logo.png", 0, 20000)
    assert binary["content"] is None and binary["binary"] is True and binary["size"] > 0
    assert not any(p.startswith("/local/") for _m, p in emu.requests[before:])
    with pytest.raises(ToolError, match=r"nope\.txt") as missing:
        await files.read("nope.txt", 0, 100)
    assert missing.value.code == "not_found" and missing.value.subject == "file_name"


async def test_write_backs_up_the_existing_file_first(emu: HubEmulator, manager_hub: Hub) -> None:
    old = emu.files.read("notes.txt")
    data = await manager_hub.files.write("notes.txt", "fresh")
    backup = data.get("backup_file")
    assert backup is not None
    assert backup.startswith("notes_backup_") and backup.endswith(".txt")
    assert emu.files.read(backup) == old
    assert emu.files.read("notes.txt") == b"fresh"
    assert data["summary"].startswith("Overwrote notes.txt") and backup in data["summary"]
    assert data["created"] is False
    uploads = [p for m, p in emu.requests if p.startswith("/hub/fileManager/upload")]
    assert len(uploads) == 2  # the backup copy, then the file
    created = await manager_hub.files.write("brand-new.json", "{}")
    assert created["created"] is True and "backup_file" not in created
    assert emu.files.read("brand-new.json") == b"{}"


async def test_delete_backs_up_then_deletes(emu: HubEmulator, manager_hub: Hub) -> None:
    files = manager_hub.files
    old = emu.files.read("energy-2026.csv")
    data = await files.delete("energy-2026.csv")
    assert data["deleted"] == "energy-2026.csv"
    assert emu.files.read("energy-2026.csv") is None
    assert emu.files.read(data["backup_file"]) == old
    # deleting the backup copy itself keeps a copy of the copy (nothing is lost)
    again = await files.delete(data["backup_file"])
    assert emu.files.read(again["backup_file"]) == old
    assert [n for n in emu.files.names() if "energy" in n] == [again["backup_file"]]
    with pytest.raises(ToolError) as missing:
        await files.delete("energy-2026.csv")
    assert missing.value.code == "not_found"


async def test_delete_is_decided_by_the_effect(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The answer is not trusted either way: a "status": false that deleted is a success.
    real = emu.files.delete

    def deleted_but_says_no(name: str, folder: str = "") -> bool:
        real(name, folder)
        return False

    monkeypatch.setattr(emu.files, "delete", deleted_but_says_no)
    data = await manager_hub.files.delete("notes.txt")
    assert data["deleted"] == "notes.txt" and emu.files.read("notes.txt") is None


async def test_list_files_of_a_hub_answering_a_bare_array(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    # older firmware answers the listing as a bare array, without the free space
    emu.files.bare_list = True
    data = await manager_hub.files.list()
    assert "notes.txt" in [f["name"] for f in data["files"]]
    assert data["free_space_bytes"] is None


async def test_binary_file_backed_up_byte_exact(emu: HubEmulator, manager_hub: Hub) -> None:
    old = emu.files.read("logo.png")
    assert old is not None and not old.isascii()
    data = await manager_hub.files.delete("logo.png")
    assert emu.files.read("logo.png") is None
    assert emu.files.read(data["backup_file"]) == old  # bytes, not text round-tripped
