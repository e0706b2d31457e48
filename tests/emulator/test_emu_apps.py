"""Installed apps, RM, VRB (§12) and Easy Dashboards (§13.1)."""

from __future__ import annotations

import json

import aiohttp

from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, VRB_PORCH
from hubitat_emulator.seed import RULE_LEAK, RULE_MOTION

from ..contract import assert_same_shape
from .conftest import get_json
from .emu_apps_util import bare_click


async def test_configure_and_status(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    cfg = await get_json(session, f"{hub.url}/installedapp/configure/json/{RULE_MOTION}")
    assert set(cfg) == {"app", "configPage", "settings", "childApps"}
    assert cfg["app"]["trueLabel"] == "Motion Lights - Kitchen"
    st = await get_json(session, f"{hub.url}/installedapp/statusJson/{RULE_MOTION}")
    assert isinstance(st["appState"], list)
    names = {e["name"] for e in st["appState"]}
    assert {"paused", "stopped", "allLocalVars"} <= names
    hpm = await get_json(session, f"{hub.url}/installedapp/statusJson/210")
    manifests = next(e for e in hpm["appState"] if e["name"] == "manifests")
    assert isinstance(manifests["value"], str)  # the JSON-string variant
    async with session.get(f"{hub.url}/installedapp/json/9999") as resp:
        assert resp.status == 404


async def test_broken_flag_lags_until_rendered(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    before = await get_json(session, f"{hub.url}/app/ruleBuilderJson/{RULE_LEAK}")
    assert before["broken"] is False
    await get_json(session, f"{hub.url}/installedapp/configure/json/{RULE_LEAK}")
    after = await get_json(session, f"{hub.url}/app/ruleBuilderJson/{RULE_LEAK}")
    assert after["broken"] is True
    assert await get_json(session, f"{hub.url}/app/ruleBuilderJson/9999") == {}


async def test_buttons_disable_delete(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    form = {"id": str(RULE_MOTION), "name": "pausRule", "settings[pausRule]": "clicked"}
    async with session.post(f"{hub.url}/installedapp/btn", data=form) as resp:
        assert json.loads(await resp.text()) == {"status": "success"}
    assert hub.state.dev.internals[RULE_MOTION].state["paused"] is True
    async with session.post(f"{hub.url}/installedapp/btn", data={**form, "name": "x"}) as resp:
        assert json.loads(await resp.text())["status"] != "success"
    body = {"id": APP_ANNOUNCER, "disable": True}
    async with session.post(f"{hub.url}/installedapp/disable", json=body) as resp:
        assert json.loads(await resp.text()) == {"success": True}
    assert hub.state.apps[APP_ANNOUNCER].disabled is True
    url = f"{hub.url}/installedapp/forcedelete/{RULE_MOTION}/quiet"
    async with session.get(url, allow_redirects=False) as resp:
        assert resp.status == 302
    assert RULE_MOTION not in hub.state.apps


async def test_visual_rules(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    rule = await get_json(session, f"{hub.url}/app/ruleBuilderJson/{VRB_PORCH}")
    assert {"name", "rulePaused", "whenNodes", "thenNodes", "elseNodes", "promptHistory"} <= set(
        rule
    )
    graph = await get_json(session, f"{hub.url}/app/ruleBuilder20Json/{VRB_PORCH}")
    assert graph == {"success": False, "message": "Rule builder instance not found"}
    async with session.get(f"{hub.url}/app/createVisualRuleBuilderRule") as resp:
        html = await resp.text()
    new_id = int(html.split("HubitatRuleBuilderAppId = ")[1].split(";")[0])
    body = {"name": "N", "rulePaused": False, "whenNodes": [{}], "thenNodes": [], "elseNodes": []}
    async with session.post(f"{hub.url}/app/ruleBuilderJson/{new_id}", json=body) as resp:
        assert json.loads(await resp.text()) == {"success": True}
    assert hub.state.apps[new_id].label == "N"
    bad = {**body, "thenNodes": ["x"]}
    async with session.post(f"{hub.url}/app/ruleBuilderJson/{new_id}", json=bad) as resp:
        assert json.loads(await resp.text())["success"] is False
    paused = await get_json(session, f"{hub.url}/app/ruleBuilderPause/{new_id}/true")
    assert paused == {"success": True} and hub.state.dev.vrb[new_id]["rulePaused"] is True


async def test_graph_visual_rules(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    """A graph rule (a knob: none is seeded) answers ruleBuilder20Json as the hub does."""
    hub.state.dev.vrb.pop(VRB_PORCH)  # the porch rule, now in the graph format
    hub.state.dev.vrb_graph[VRB_PORCH] = {
        "name": "G",
        "rulePaused": False,
        "ruleJson": "",
        "validationErrors": ["Node 3 has no device"],
    }
    body = {"name": "Graph", "ruleJson": json.dumps({"nodes": [], "edges": []})}
    url = f"{hub.url}/app/ruleBuilder20Json/{VRB_PORCH}"
    async with session.post(url, json=body) as resp:
        saved = json.loads(await resp.text())
    assert_same_shape("apps/visual_rule_graph", saved)
    assert saved["name"] == "Graph" and saved["validationErrors"] == ["Node 3 has no device"]
    assert await get_json(session, url) == saved
    paused = await get_json(session, f"{hub.url}/app/ruleBuilderPause/{VRB_PORCH}/true")
    assert paused == {"success": True} and hub.state.dev.vrb_graph[VRB_PORCH]["rulePaused"]
    other = await get_json(session, f"{hub.url}/app/ruleBuilder20Json/{RULE_MOTION}")
    assert other["success"] is False


async def test_easy_dashboards(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    assert await get_json(session, f"{hub.url}/dashboard/all") == []
    async with session.get(f"{hub.url}/dashboard/select") as resp:
        pin = (await resp.text()).split("globalDashboardPinToken = '")[1].split("'")[0]
    listed = await get_json(session, f"{hub.url}/dashboard/all?pinToken={pin}")
    assert listed[0]["deviceIds"] == "[]"
    assert {d["version"] for d in listed} == {"2.0", "1.0"}  # Easy and legacy
    created = await get_json(
        session, f"{hub.url}/dashboard/create?name=New&deviceIds=1,2&showModeTile=true"
    )
    assert created["success"] is True  # the hub UI reads success and id
    new_id = created["id"]
    upd = await get_json(
        session, f"{hub.url}/dashboard/update?id={new_id}&name=Renamed&navigationSelection=[1]"
    )
    assert upd["success"] is True
    cfg = hub.state.dev.easy_dashboards[new_id]
    assert cfg["deviceIds"] == "[]" and cfg["showModeTile"] is False  # wholesale
    assert cfg["navigationSelection"] == "[0]"  # "[1]" is not a plain list: it reads as 0
    # the hub UI sends only the id; the real hub says success: false and deletes
    gone = await get_json(session, f"{hub.url}/dashboard/delete?id={new_id}")
    assert gone == {"success": False} and new_id not in hub.state.dev.easy_dashboards


async def test_click_and_submit_answer_in_the_real_shape(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    click = bare_click(RULE_MOTION, "stopRule")
    async with session.post(f"{hub.url}/installedapp/btn", data=click) as resp:
        assert_same_shape("apps/button_click", json.loads(await resp.text()))
    assert hub.state.dev.internals[RULE_MOTION].state["stopped"] is True
    submit = {
        "id": str(RULE_MOTION),
        "version": "1",
        "formAction": "update",
        "currentPage": "mainPage",
        "pageBreadcrumbs": "[]",
        "settings[origLabel]": "Heat On <67",
        "origLabel.type": "text",
        "origLabel.multiple": "false",
    }
    async with session.post(f"{hub.url}/installedapp/update/json", data=submit) as resp:
        page = json.loads(await resp.text())
    assert_same_shape("apps/settings_submit", page)
    assert page["status"] == "success" and page["settings"]["origLabel"] == "Heat On <67"


async def test_rule_machine_takes_a_click_with_page_context_for_a_save(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    internals = hub.state.dev.internals.get(RULE_MOTION)
    version = internals.version if internals else 1
    click = {
        **bare_click(RULE_MOTION, "stopRule"),
        "formAction": "update",
        "currentPage": "mainPage",
    }
    async with session.post(f"{hub.url}/installedapp/btn", data=click) as resp:
        assert json.loads(await resp.text()) == {"status": "success"}  # it says so, but
    internals = hub.state.dev.internals[RULE_MOTION]
    assert not internals.state.get("stopped")  # the button did nothing
    assert internals.version == version + 1  # a save happened instead
    assert hub.state.dev.clicks[-1] == click


async def test_app_records_carry_entity_escaped_names(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    hub.state.apps[RULE_MOTION].label = "Heat On <67"
    config = await get_json(session, f"{hub.url}/installedapp/configure/json/{RULE_MOTION}")
    status = await get_json(session, f"{hub.url}/installedapp/statusJson/{RULE_MOTION}")
    record = await get_json(session, f"{hub.url}/installedapp/json/{RULE_MOTION}")
    assert config["app"]["label"] == "Heat On &lt;67"
    assert status["installedApp"]["label"] == "Heat On &lt;67"
    assert record["name"] == "Heat On &lt;67"


async def test_soft_delete_answers_in_the_real_shape(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    answer = await get_json(session, f"{hub.url}/installedapp/delete/{RULE_LEAK}")
    assert_same_shape("apps/delete", answer)
    assert RULE_LEAK not in hub.state.apps
