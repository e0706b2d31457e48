"""The emulated App Cloner (§12.6): entry redirect, seeding, views and what stalls them."""

from __future__ import annotations

import json

import aiohttp

from hubitat_emulator import HubEmulator
from hubitat_emulator.routes_cloner import CLONER_TYPE
from hubitat_emulator.seed import RULE_MOTION

from ..contract import assert_same_shape
from .conftest import get_json
from .emu_apps_util import bare_click


async def _open(hub: HubEmulator, session: aiohttp.ClientSession) -> tuple[int, str]:
    async with session.get(
        f"{hub.url}/installedapp/sysAppApi/appCloner/app/{RULE_MOTION}", allow_redirects=False
    ) as resp:
        assert resp.status == 302
        location = resp.headers["Location"]
    cloner_id = int(location.split("/")[3])
    assert hub.state.apps[cloner_id].type == CLONER_TYPE
    return cloner_id, location


def _source_form(cloner_id: int, hub: HubEmulator, **extra: str) -> dict[str, str]:
    return {
        "id": str(cloner_id),
        "formAction": "update",
        "currentPage": "main",
        "url": f"{hub.url}/installedapp/configure/{cloner_id}/main",
        "exportRuleButton.type": "button",
        "ruleUpload.type": "file-text",
        "cloneRuleButton.type": "button",
        **extra,
    }


async def test_entry_seeding_and_token(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    async with session.get(
        f"{hub.url}/installedapp/sysAppApi/appCloner/app/9999", allow_redirects=False
    ) as resp:
        assert resp.status == 404
    cloner_id, location = await _open(hub, session)
    bare = await get_json(session, f"{hub.url}/installedapp/configure/json/{cloner_id}/main")
    assert bare["configPage"]["sections"][0]["input"] == []  # not seeded yet
    async with session.get(f"{hub.url}{location.split('?')[0]}?access_token=wrong") as resp:
        assert resp.status == 401
    async with session.get(f"{hub.url}{location}") as resp:
        assert resp.status == 200
    page = await get_json(session, f"{hub.url}/installedapp/configure/json/{cloner_id}/main")
    names = [i["name"] for i in page["configPage"]["sections"][0]["input"]]
    assert names == ["exportRuleButton", "ruleUpload", "cloneRuleButton"]


async def test_export_needs_the_view_inputs(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    cloner_id, location = await _open(hub, session)
    async with session.get(f"{hub.url}{location}"):
        pass
    click = bare_click(cloner_id, "exportRuleButton")
    async with session.post(f"{hub.url}/installedapp/btn", data=click) as resp:
        assert_same_shape("apps/button_click", await resp.json(content_type=None))
    stalled = dict(_source_form(cloner_id, hub))
    del stalled["ruleUpload.type"]  # the wrong view's fields: nothing happens
    async with session.post(f"{hub.url}/installedapp/update/json", data=stalled) as resp:
        page = await resp.json(content_type=None)
    assert "filecontent" not in json.dumps(page)
    async with session.post(f"{hub.url}/installedapp/btn", data=click):
        pass
    async with session.post(
        f"{hub.url}/installedapp/update/json", data=_source_form(cloner_id, hub)
    ) as resp:
        page = await resp.json(content_type=None)
    download = next(
        i for i in page["configPage"]["sections"][0]["input"] if i["type"] == "download"
    )
    text = download["filecontent"]
    assert '\\\\"Day\\\\"' in text  # the hub's extra escaping of multi-select values
    assert str(RULE_MOTION) in json.loads(text.replace('\\\\"', '\\"'))["appReplacements"]
    # not stored: a later read shows the plain source view
    again = await get_json(session, f"{hub.url}/installedapp/configure/json/{cloner_id}/main")
    assert "filecontent" not in json.dumps(again)
