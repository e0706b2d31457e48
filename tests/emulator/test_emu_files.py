"""File Manager (§14): list shapes, /local/<name>, multipart upload, JSON delete."""

from __future__ import annotations

import json

import aiohttp

from hubitat_emulator import HubEmulator

from .conftest import get_json, login


async def test_list_object_shape(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    data = await get_json(session, f"{hub.url}/hub/fileManager/json")
    assert set(data) == {"files", "path", "freeSpace"} and data["path"] is None
    by_name = {f["name"]: f for f in data["files"]}
    notes = by_name["notes.txt"]
    assert notes["type"] == "file" and isinstance(notes["size"], str) and notes["date"].isdigit()
    assert by_name["firmware"]["type"] == "dir"
    inner = await get_json(session, f"{hub.url}/hub/fileManager/json?folder=firmware")
    assert [f["name"] for f in inner["files"]] == ["fw-notes.txt"] and inner["path"] == "firmware"


async def test_list_bare_array(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    hub.files.bare_list = True
    data = await get_json(session, f"{hub.url}/hub/fileManager/json")
    assert isinstance(data, list) and all(isinstance(f["size"], int) for f in data)


async def test_download_upload_delete(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    async with session.get(f"{hub.url}/local/logo.png") as resp:
        assert resp.status == 200 and (await resp.read()).startswith(b"\x89PNG")
    async with session.get(f"{hub.url}/local/missing.txt") as resp:
        assert resp.status == 404
    form = aiohttp.FormData()
    form.add_field("uploadFile", b"hello", filename="new.txt")
    form.add_field("folder", "")
    async with session.post(f"{hub.url}/hub/fileManager/upload", data=form) as resp:
        assert resp.status == 200 and json.loads(await resp.text()) == {"success": True}
    assert hub.files.read("new.txt") == b"hello"
    async with session.get(f"{hub.url}/local/new.txt") as resp:
        assert await resp.read() == b"hello"
    body = {"folder": "", "name": "new.txt", "type": "file"}
    async with session.post(f"{hub.url}/hub/fileManager/delete", json=body) as resp:
        assert json.loads(await resp.text()) == {"status": True}
    async with session.post(f"{hub.url}/hub/fileManager/delete", json=body) as resp:
        assert json.loads(await resp.text()) == {"status": False}
    assert hub.files.read("new.txt") is None


async def test_upload_refusals(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    form = aiohttp.FormData()
    form.add_field("uploadFile", b"x", filename="../etc")
    async with session.post(f"{hub.url}/hub/fileManager/upload", data=form) as resp:
        assert resp.status == 400
    form = aiohttp.FormData()
    form.add_field("other", "x")
    async with session.post(f"{hub.url}/hub/fileManager/upload", data=form) as resp:
        assert resp.status == 400
    async with session.post(
        f"{hub.url}/hub/fileManager/delete", data={"name": "notes.txt"}
    ) as resp:
        assert resp.status == 500
    assert hub.files.read("notes.txt") is not None


async def test_files_need_login(secure_hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    async with session.get(f"{secure_hub.url}/local/notes.txt") as resp:
        assert "text/html" in resp.headers["Content-Type"]
        assert "Login" in await resp.text()
    cookie = await login(session, secure_hub)
    async with session.get(f"{secure_hub.url}/local/notes.txt", headers={"Cookie": cookie}) as resp:
        assert (await resp.text()).startswith("line 1:")
