"""Code endpoints (§11): listings, ajax/code, both editors' saves, deletes, bundles."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape
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
    assert libs[0]["usedByAppTypes"] == "Motion Announcer" and libs[0]["usedByDeviceTypes"] == ""
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
    created = await post(session, url, {"source": DRIVER, "version": 1})  # as the editor sends
    assert created["success"] is True
    assert_same_shape("code/json_save", created)
    new_id = created["id"]
    broken = await post(session, url, {"id": new_id, "source": DRIVER + "}\n", "version": 1})
    assert broken["success"] is False and "@ line 5, column 1" in broken["message"]
    assert_same_shape("code/json_save_refused", broken)
    stale = await post(session, url, {"id": new_id, "source": DRIVER, "version": 0})
    assert stale["success"] is False and "Version mismatch" in stale["message"]
    ok = await post(session, url, {"id": new_id, "source": DRIVER + "\n", "version": 1})
    assert ok == {"success": True, "id": new_id, "message": None}
    assert hub.state.dev.code[("driver", new_id)].version == 2
    nodef = await post(session, url, {"id": None, "source": "def x() {}\n", "version": 1})
    assert "Metadata Error" in nodef["message"]
    dup = await post(session, url, {"id": None, "source": DRIVER, "version": 1})
    assert dup["success"] is False and "already exists" in dup["message"]


async def test_include_needs_library(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    src = 'definition(name: "I", namespace: "i")\n#include nope.Lib\n'
    result = await post(session, f"{hub.url}/app/saveOrUpdateJson", {"id": None, "source": src})
    assert result["message"] == "Library nope.Lib not found (line 2)"


async def test_library_save_answers_its_version(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    lib = hub.state.dev.code[("library", 1)]
    body = {"id": 1, "source": lib.source + "\n// x\n", "version": lib.version}
    saved = await post(session, f"{hub.url}/library/saveOrUpdateJson", body)
    assert saved["success"] is True and saved["version"] == lib.version
    assert_same_shape("code/library_save", saved)


async def test_legacy_forms(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    hub.state.version = "2.4.4.156"
    form = {"id": "", "version": "", "create": "", "source": DRIVER}
    async with session.post(f"{hub.url}/driver/save", data=form, allow_redirects=False) as resp:
        assert resp.status == 302
        new_id = int(resp.headers["Location"].rsplit("/", 1)[1])
    assert resp.headers["Location"] == f"/driver/editor/{new_id}"
    assert hub.state.dev.code[("driver", new_id)].source == DRIVER
    broken = form | {"source": "def x() {\n"}
    async with session.post(f"{hub.url}/app/save", data=broken) as resp:
        page = await resp.text()
    assert resp.status == 200 and "alert-close" in page and "startup failed" in page
    update = {"id": str(new_id), "version": "1", "source": DRIVER + "// v2\n"}
    async with session.post(f"{hub.url}/driver/ajax/update", data=update) as resp:
        answer = json.loads(await resp.text())
    assert answer["status"] == "success" and hub.state.dev.code[("driver", new_id)].version == 2
    assert_same_shape("code/form_update", answer)
    async with session.post(f"{hub.url}/driver/ajax/update", data=update) as resp:
        stale = json.loads(await resp.text())
    assert stale["status"] == "error" and "Version mismatch" in stale["errorMessage"]
    assert_same_shape("code/form_update_refused", stale)
    # 2.5 answers the legacy create with its page and creates nothing
    hub.state.version = "2.5.0.143"
    before = set(hub.state.dev.code)
    other = form | {"source": DRIVER.replace("Emu Relay", "Emu Relay 2")}
    async with session.post(f"{hub.url}/driver/save", data=other, allow_redirects=False) as resp:
        assert resp.status == 200
    assert set(hub.state.dev.code) == before


async def test_deletes(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    in_use = await get_json(session, f"{hub.url}/app/edit/deleteJson/1")
    assert in_use["status"] == "error" and "installed instances" in in_use["errorMessage"]
    assert_same_shape("code/app_delete_refused", in_use)
    assert ("app", 1) in hub.state.dev.code
    safe = await get_json(session, f"{hub.url}/app/edit/deleteJsonSafe/1")
    assert safe["status"] == "error"
    driver = await get_json(session, f"{hub.url}/driver/editor/deleteJson/2")
    assert driver == {"status": "true"} and ("driver", 2) not in hub.state.dev.code
    assert_same_shape("code/driver_delete", driver)
    app = await get_json(session, f"{hub.url}/app/edit/deleteJson/2")
    assert ("app", 2) not in hub.state.dev.code
    assert_same_shape("code/app_delete", app)
    lib = await get_json(session, f"{hub.url}/library/edit/deleteJson/1")
    assert lib == {"success": True, "message": None}
    assert_same_shape("code/library_delete", lib)


async def test_bundles(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    bad = await get_json(session, f"{hub.url}/bundle2/uploadZipFromUrl?url=https://x/y.zip")
    assert bad["success"] is False
    url = "https://example.com/bundles/acme-tools.zip"
    ok = await get_json(session, f"{hub.url}/bundle2/uploadZipFromUrl", params={"url": url})
    assert ok["success"] is True and len(hub.state.dev.bundles) == 2
    assert_same_shape("code/bundle_install", ok)
    async with session.get(f"{hub.url}/bundle/export/1") as resp:
        assert resp.content_type == "application/zip" and (await resp.read())[:2] == b"PK"
    deleted = await get_json(session, f"{hub.url}/bundle/deleteJson/1")
    assert deleted == {"success": True, "message": None} and 1 not in hub.state.dev.bundles
    assert_same_shape("code/bundle_delete", deleted)
    assert ("app", 3) in hub.state.dev.code  # the container only: its code stays
    second = max(hub.state.dev.bundles)
    full = await get_json(session, f"{hub.url}/bundle/deleteJson/{second}", params={"full": "true"})
    assert full["success"] is True and not hub.state.dev.bundles
    missing = await get_json(session, f"{hub.url}/bundle/deleteJson/77")
    assert missing["success"] is False
