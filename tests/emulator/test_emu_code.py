"""Code endpoints (§11): listings, ajax/code, saveOrUpdateJson contract, deletes, bundles."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from hubitat_emulator import HubEmulator

from .conftest import get_json

DRIVER = 'metadata {\n    definition(name: "Emu Relay", namespace: "e") {\n    }\n}\n'


async def post(session: aiohttp.ClientSession, url: str, body: Any) -> Any:
    async with session.post(url, json=body) as resp:
        assert resp.status == 200
        return json.loads(await resp.text())


async def test_listings(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    apps = await get_json(session, f"{hub.url}/hub2/userAppTypes")
    assert {"id", "name", "namespace", "oauth", "lastModified", "usedBy"} <= set(apps[0])
    drivers = await get_json(session, f"{hub.url}/hub2/userDeviceTypes")
    assert drivers[0]["capabilities"]
    libs = await get_json(session, f"{hub.url}/hub2/userLibraries")
    assert libs[0]["usedByAppTypes"] == ["Motion Announcer"]
    bundles = await get_json(session, f"{hub.url}/hub2/userBundles")
    assert bundles[0]["content"].startswith("apps [Hubitat Package Manager]")
    lib = await get_json(session, f"{hub.url}/library/list/single/data/1")
    assert isinstance(lib, list) and lib[0]["source"].startswith("library(")
    code = await get_json(session, f"{hub.url}/app/ajax/code?id=1")
    assert code["status"] == "ok" and code["version"] == 4
    missing = await get_json(session, f"{hub.url}/driver/ajax/code?id=99")
    assert missing["status"] == "error"


async def test_save_contract(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    url = f"{hub.url}/driver/saveOrUpdateJson"
    async with session.post(url, data={"id": "", "source": DRIVER}) as resp:
        assert json.loads(await resp.text())["message"] == "Unknown error occurred"
    bom = await post(session, url, {"id": None, "source": "\ufeff" + DRIVER, "version": 1})
    assert bom["success"] is False and bom["message"] == "Unknown error occurred"
    created = await post(session, url, {"id": None, "source": DRIVER, "version": 1})
    assert created["success"] is True and created["version"] == 1
    new_id = created["id"]
    broken = await post(session, url, {"id": new_id, "source": DRIVER + "}\n", "version": 1})
    assert broken["success"] is False and "@ line 5, column 1" in broken["message"]
    stale = await post(session, url, {"id": new_id, "source": DRIVER, "version": 0})
    assert stale["success"] is False and "Version mismatch" in stale["message"]
    ok = await post(session, url, {"id": new_id, "source": DRIVER + "\n", "version": 1})
    assert ok == {"success": True, "id": new_id, "version": 2, "message": None}
    nodef = await post(session, url, {"id": None, "source": "def x() {}\n", "version": 1})
    assert "Metadata Error" in nodef["message"]
    dup = await post(session, url, {"id": None, "source": DRIVER, "version": 1})
    assert dup["success"] is False and "already exists" in dup["message"]


async def test_include_needs_library(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    src = 'definition(name: "I", namespace: "i")\n#include nope.Lib\n'
    result = await post(session, f"{hub.url}/app/saveOrUpdateJson", {"id": None, "source": src})
    assert result["message"] == "Library nope.Lib not found (line 2)"


async def test_deletes(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    in_use = await get_json(session, f"{hub.url}/app/edit/deleteJsonSafe/1")
    assert in_use["status"] is False
    assert (await get_json(session, f"{hub.url}/driver/editor/deleteJson/2")) == {"status": True}
    lib = await get_json(session, f"{hub.url}/library/edit/deleteJson/1")
    assert lib == {"success": True, "message": None}


async def test_bundles(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    bad = await get_json(session, f"{hub.url}/bundle2/uploadZipFromUrl?url=https://x/y.zip")
    assert bad["success"] is False
    url = "https://example.com/bundles/acme-tools.zip"
    ok = await get_json(session, f"{hub.url}/bundle2/uploadZipFromUrl", params={"url": url})
    assert ok["success"] is True and len(hub.state.dev.bundles) == 2
    async with session.get(f"{hub.url}/bundle/export/1") as resp:
        assert resp.content_type == "application/zip" and (await resp.read())[:2] == b"PK"
    async with session.get(f"{hub.url}/bundle/delete/1", allow_redirects=False) as resp:
        assert resp.status == 302 and resp.headers["Location"] == "/bundle/list"
    assert 1 not in hub.state.dev.bundles
