"""Installed apps, Rule Machine and Visual Rules tools against the emulated hub."""

from __future__ import annotations

import importlib
import json

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.answers import check_success
from custom_components.hubitat_dev_tools.hub.app_page import check_page_answer, parse_page
from custom_components.hubitat_dev_tools.hub.apps import (
    app_name_text,
    is_classic_visual_rule,
    parse_app_tree,
    parse_config_page,
    parse_rule_builder20,
    parse_status,
)
from custom_components.hubitat_dev_tools.hub.errors import HubRefusedError
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, APP_HPM, VRB_PORCH
from hubitat_emulator.seed import APP_RULE_MACHINE, RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..conftest import ToolCaller
from ..contract import load_fixture


def writes(hub: HubEmulator) -> list[str]:
    return [
        p
        for m, p in hub.requests
        if m == "POST" or "delete" in p or "ruleBuilderPause" in p or "create" in p
    ]


async def test_list_apps_tree_and_filters(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_list_apps")
    assert not result.error, result.data
    apps = {a["app_id"]: a for a in result.data["apps"]}
    rule = apps[str(RULE_MOTION)]
    assert rule["parent_id"] == str(APP_RULE_MACHINE) and rule["depth"] == 1
    assert rule["name"] == "Motion Lights - Kitchen"
    assert str(VRB_PORCH) not in apps  # hidden
    user = await call_tool("hub_list_apps", {"kind": "user"})
    assert {a["name"] for a in user.data["apps"]} == {
        "Hall motion announcer",
        "Hubitat Package Manager",
    }
    dev = next(d for d in hub.state.devices.values() if RULE_LEAK in d.apps_using)
    using = await call_tool("hub_list_apps", {"device_id": dev.id})
    assert str(RULE_LEAK) in {a["app_id"] for a in using.data["apps"]}
    bad = await call_tool("hub_list_apps", {"kind": "weird"})
    assert bad.error and bad.data["error"] == "invalid_arguments"


async def test_get_app_page_and_state(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    result = await call_tool("hub_get_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    data = result.data
    assert data["label"] == "Motion Lights - Kitchen" and data["type"] == "Rule-5.1"
    sections = data["config_page"]["sections"]
    assert sections[0]["inputs"][0]["value"] == "Motion Lights - Kitchen"
    assert {"name": "runRuleAct", "title": "Run Actions"} in sections[1]["buttons"]
    assert data["state"]["allLocalVars"]["timeout"]["value"] == 300
    hpm = await call_tool("hub_get_app", {"app_id": 210})
    assert isinstance(hpm.data["state"]["manifests"], dict)  # JSON string parsed
    missing = await call_tool("hub_get_app", {"app_id": 9999})
    assert missing.error and missing.data["error"] == "not_found"
    bad = await call_tool("hub_get_app", {"app_id": 1, "page": "../x"})
    assert bad.error and bad.data["error"] == "invalid_arguments"


async def test_set_app_disabled(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_set_app_disabled", {"app_id": APP_ANNOUNCER, "disabled": True})
    assert not result.error, result.data
    assert hub.state.apps[APP_ANNOUNCER].disabled is True
    again = await call_tool("hub_set_app_disabled", {"app_id": APP_ANNOUNCER, "disabled": True})
    assert again.data["unchanged"] is True
    await call_tool("hub_set_app_disabled", {"app_id": APP_ANNOUNCER, "disabled": False})
    assert hub.state.apps[APP_ANNOUNCER].disabled is False


async def test_delete_app_gate_and_backup(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    refused = await call_tool("hub_delete_app", {"app_id": RULE_GOODNIGHT})
    assert refused.error and refused.data["error"] == "confirmation_required"
    no_backup = await call_tool("hub_delete_app", {"app_id": RULE_GOODNIGHT, "confirm": True})
    assert no_backup.error and no_backup.data["error"] == "backup_required"
    assert RULE_GOODNIGHT in hub.state.apps
    hub.mark_backup_now()
    parent = await call_tool("hub_delete_app", {"app_id": APP_RULE_MACHINE, "confirm": True})
    assert parent.error and parent.data["error"] == "invalid_request"
    ok = await call_tool("hub_delete_app", {"app_id": RULE_GOODNIGHT, "confirm": True})
    assert not ok.error, ok.data
    assert RULE_GOODNIGHT not in hub.state.apps
    snap = json.loads(hub.files.read(ok.data["item_backup"]["backup"]) or b"{}")
    assert snap["config"]["app"]["id"] == RULE_GOODNIGHT and "rule_builder" in snap
    paths = [p for _m, p in hub.requests]
    assert paths.index("/hub/fileManager/upload") < paths.index(
        f"/installedapp/forcedelete/{RULE_GOODNIGHT}/quiet"
    )


async def test_hpm_packages(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_list_hpm_packages")
    assert not result.error, result.data
    names = {p["name"]: p for p in result.data["packages"]}
    assert names["Acme Tools"]["version"] == "1.4.2"
    assert names["Acme Tools"]["apps"] == ["Motion Announcer"]
    assert result.data["packages_with_drift"] == 0 and "drift" not in names["Acme Tools"]
    claimed = {("app", "1"), ("driver", "1"), ("app", "3")}
    code = await call_tool("hub_list_code")
    expected = {(c["type"], str(c["id"])) for c in code.data["code"] if c["type"] != "library"}
    untracked = {(u["type"], u["code_id"]) for u in result.data["untracked_code"]}
    assert untracked == expected - claimed and untracked
    # a required part HPM never installed, and a part whose code was deleted on the hub
    manifests = hub.state.dev.internals[APP_HPM].state["manifests"]
    acme = manifests["https://example.com/acme/packageManifest.json"]
    acme["apps"].append({"id": "a2", "name": "Acme Scenes", "required": True})
    acme["drivers"][0]["heID"] = 999
    drifted = await call_tool("hub_list_hpm_packages")
    pkg = next(p for p in drifted.data["packages"] if p["name"] == "Acme Tools")
    assert drifted.data["packages_with_drift"] == 1
    assert pkg["drift"] == {
        "required_not_installed": [{"type": "app", "name": "Acme Scenes"}],
        "code_gone_from_hub": [{"type": "driver", "name": "Acme Smart Plug", "code_id": "999"}],
    }
    # the plug driver's code is now claimed by nobody
    assert ("driver", "1") in {(u["type"], u["code_id"]) for u in drifted.data["untracked_code"]}


async def test_list_rules_and_health(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    result = await call_tool("hub_list_rules")
    assert not result.error, result.data
    rules = {r["app_id"]: r for r in result.data["rules"]}
    assert rules[str(RULE_MOTION)]["engine"] == "rule_machine"
    assert rules[str(RULE_MOTION)]["paused"] is False
    assert rules[str(VRB_PORCH)]["engine"] == "visual"
    health = await call_tool("hub_get_rule_health", {"app_id": RULE_LEAK})
    assert not health.error, health.data
    assert health.data["healthy"] is False
    assert health.data["broken_markers"] and health.data["compiled_broken"] is True
    ok = await call_tool("hub_get_rule_health", {"app_id": RULE_MOTION})
    assert ok.data["healthy"] is True
    not_rule = await call_tool("hub_get_rule_health", {"app_id": APP_ANNOUNCER})
    assert not_rule.error and not_rule.data["error"] == "invalid_request"


async def test_local_variables(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    result = await call_tool("hub_list_rule_local_variables", {"app_id": RULE_MOTION})
    assert result.data["variables"] == [{"name": "timeout", "type": "integer", "value": 300}]
    vrb = await call_tool("hub_list_rule_local_variables", {"app_id": VRB_PORCH})
    assert vrb.error and vrb.data["error"] == "invalid_request"


async def test_call_rule_and_pause(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    internals = hub.state.dev.internals[RULE_MOTION]
    run = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "run_actions"})
    assert not run.error, run.data
    assert internals.runs == 1
    stop = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "stop"})
    assert not stop.error and internals.state["stopped"] is True
    again = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "stop"})
    assert again.data["unchanged"] is True and internals.state["stopped"] is True
    before = len(hub.requests)
    bad = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "explode"})
    assert bad.error and len(hub.requests) == before
    paused = await call_tool("hub_set_rule_paused", {"app_id": RULE_MOTION, "paused": True})
    assert not paused.error and internals.state["paused"] is True
    twice = await call_tool("hub_set_rule_paused", {"app_id": RULE_MOTION, "paused": True})
    assert twice.data["unchanged"] is True and internals.state["paused"] is True
    vrb = await call_tool("hub_set_rule_paused", {"app_id": VRB_PORCH, "paused": True})
    assert not vrb.error and hub.state.dev.vrb[VRB_PORCH]["rulePaused"] is True


async def test_visual_rules_crud(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    got = await call_tool("hub_get_visual_rule", {"app_id": VRB_PORCH})
    assert got.data["format"] == "classic"
    nodes = got.data["definition"]
    created = await call_tool(
        "hub_create_visual_rule",
        {"name": "Copy", "when_nodes": nodes["whenNodes"], "then_nodes": nodes["thenNodes"]},
    )
    assert not created.error, created.data
    new_id = int(created.data["app_id"])
    assert hub.state.dev.vrb[new_id]["thenNodes"] == nodes["thenNodes"]
    updated = await call_tool("hub_update_visual_rule", {"app_id": new_id, "name": "Renamed"})
    assert not updated.error, updated.data
    assert hub.state.dev.vrb[new_id]["name"] == "Renamed"
    assert hub.state.dev.vrb[new_id]["thenNodes"] == nodes["thenNodes"]  # merged
    empty = await call_tool("hub_update_visual_rule", {"app_id": new_id})
    assert empty.error and empty.data["error"] == "invalid_request"
    wrong = await call_tool("hub_get_visual_rule", {"app_id": RULE_MOTION})
    assert wrong.error
    gate = await call_tool("hub_delete_visual_rule", {"app_id": new_id})
    assert gate.error and gate.data["error"] == "confirmation_required"
    hub.mark_backup_now()
    deleted = await call_tool("hub_delete_visual_rule", {"app_id": new_id, "confirm": True})
    assert not deleted.error, deleted.data
    assert deleted.data["definition"]["name"] == "Renamed"
    assert new_id not in hub.state.apps


async def test_create_visual_rule_refused_definition_is_cleaned_up(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = set(hub.state.apps)
    sent = len(hub.requests)
    result = await call_tool(
        "hub_create_visual_rule", {"name": "Bad", "when_nodes": ["x"], "then_nodes": []}
    )
    # malformed nodes are refused before the first request, naming the node
    assert result.error and result.data["error"] == "invalid_request"
    assert "when_nodes[0]" in result.data["message"]
    assert hub.requests[sent:] == [] and set(hub.state.apps) == before
    # a save the hub answers but does not keep: the new empty rule is removed again
    hub.hubvar_routes.fallback.drop_rule_writes = True
    rule = (await call_tool("hub_get_visual_rule", {"app_id": VRB_PORCH})).data["definition"]
    result = await call_tool(
        "hub_create_visual_rule",
        {"name": "Bad", "when_nodes": rule["whenNodes"], "then_nodes": rule["thenNodes"]},
    )
    assert result.error and result.data["error"] == "hub_bad_response"
    assert "does not hold" in result.data["message"]
    assert set(hub.state.apps) == before
    assert any("/forcedelete/" in p for _m, p in hub.requests)


async def test_hub_error_maps(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.error_burst = 4
    hub.faults.error_status = 500
    result = await call_tool("hub_list_rules")
    assert result.error and result.data["error"] == "hub_bad_response"


DEV_TOOLS = [
    cls.name
    for module in ("code", "apps", "rules", "dashboards")
    for cls in importlib.import_module(f"custom_components.hubitat_dev_tools.tools.{module}").TOOLS
]


@pytest.mark.parametrize("tool_name", DEV_TOOLS)
async def test_invalid_arguments_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, tool_name: str
) -> None:
    before = len(hub.requests)
    result = await call_tool(tool_name, {"bogus_argument": 1})
    assert result.error and result.data["error"] == "invalid_arguments"
    assert len(hub.requests) == before


# ------------------------------------------------------------------ real-hub shapes


def test_app_tree_parses_the_real_shape() -> None:
    answer = load_fixture("apps/apps_list").answer
    apps = {a.id: a for a in parse_app_tree(answer)}
    assert apps["430"].parent_id == "21" and apps["430"].depth == 1
    assert apps["21"].children == ["430"] and apps["430"].is_rm_rule
    # markup removed, the name as the user typed it (decoded or not: both shapes are read)
    assert apps["430"].name == "Heat On <67 (Paused)"
    escaped = json.loads(json.dumps(answer).replace("Heat On <67", "Heat On &lt;67"))
    assert {a.id: a.name for a in parse_app_tree(escaped)}["430"] == "Heat On <67 (Paused)"
    assert app_name_text("a &amp;lt; b") == "a &lt; b"  # decoded once, never twice
    assert app_name_text("<b>Mini split =&lt;73.6</b>") == "Mini split =<73.6"


def test_config_page_and_status_parse_the_real_shapes() -> None:
    config = parse_config_page(load_fixture("apps/configure_json").answer, "430")
    assert config["app"]["label"] == "Heat On <67" and config["app"]["version"] == 12
    inputs, buttons = parse_page(config)
    assert set(inputs) == {"origLabel", "tDev0", "modes", "logging", "threshold"}
    assert inputs["tDev0"].is_device and inputs["tDev0"].device_ids == [12]
    assert list(buttons) == ["updateRule"] and not buttons["updateRule"].submit_on_change
    status = parse_status(load_fixture("apps/status_json").answer, "430")
    assert status["installedApp"]["label"] == "Heat On <67"
    state = status["appState"]
    assert state["manifests"] == {"a": 1} and state["stopped"] is False
    assert state["allLocalVars"]["timeout"]["value"] == 300
    # the older map shape of appState is read too
    assert parse_status({"appState": {"x": "[1]"}}, "1")["appState"] == {"x": [1]}


def test_click_and_submit_answers_decode_both_refusal_shapes() -> None:
    ok = load_fixture("apps/button_click").answer
    assert check_page_answer(ok, "press x") == ok
    page = load_fixture("apps/settings_submit").answer
    assert check_page_answer(page, "save")["configPage"]["name"] == "mainPage"
    for refusal, reason in (
        ({"status": "error", "message": "Invalid version"}, "Invalid version"),
        ({"status": "failed"}, "status 'failed'"),
        ({"success": False, "errorMessage": "nope"}, "nope"),
        ({"status": "false", "success": "false"}, "no reason given"),
    ):
        with pytest.raises(HubRefusedError) as err:
            check_page_answer(refusal, "press x")
        assert reason in str(err.value), refusal
    # no envelope at all (a page model alone, a text body) is not a refusal
    assert check_page_answer("<html></html>", "press x") == "<html></html>"


async def test_rule_buttons_send_only_what_the_hub_ui_sends(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    internals = hub.state.dev.internals[RULE_MOTION]
    hub.state.dev.clicks.clear()
    stop = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "stop"})
    assert not stop.error and internals.state["stopped"] is True
    # the emulator, like Rule Machine, would take page-context fields for a settings save
    assert hub.state.dev.clicks == [
        {
            "id": str(RULE_MOTION),
            "name": "stopRule",
            "settings[stopRule]": "clicked",
            "stopRule.type": "button",
        }
    ]


async def test_entity_escaped_app_names_are_shown_decoded(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.apps[RULE_MOTION].label = "Heat On <67 & rising"
    listed = await call_tool("hub_list_apps")
    names = {a["app_id"]: a["name"] for a in listed.data["apps"]}
    assert names[str(RULE_MOTION)] == "Heat On <67 & rising"
    got = await call_tool("hub_get_app", {"app_id": RULE_MOTION})
    assert got.data["label"] == "Heat On <67 & rising", got.data


async def test_soft_delete_reads_the_answer_and_decides_by_the_effect(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    fixture = load_fixture("apps/delete").answer
    check_success(fixture, "delete app 1")  # the hub UI's success: no refusal
    with pytest.raises(HubRefusedError, match="in use"):
        check_success({"success": False, "message": "App is in use"}, "delete app 1")
    hub.mark_backup_now()
    soft = await call_tool(
        "hub_delete_app", {"app_id": RULE_GOODNIGHT, "confirm": True, "force": False}
    )
    assert not soft.error and soft.data["still_listed"] is False, soft.data
    assert f"/installedapp/delete/{RULE_GOODNIGHT}" in [p for _m, p in hub.requests]
    routes = hub.hubvar_routes.fallback  # the generic app routes
    routes.delete_refusal = "App is in use"
    refused = await call_tool(
        "hub_delete_app", {"app_id": RULE_LEAK, "confirm": True, "force": False}
    )
    assert refused.error and "App is in use" in refused.data["message"], refused.data
    assert RULE_LEAK in hub.state.apps
    routes.delete_refusal, routes.delete_lies = None, True  # deletes, says it failed
    done = await call_tool("hub_delete_app", {"app_id": RULE_LEAK, "confirm": True, "force": False})
    assert not done.error and done.data["still_listed"] is False, done.data
    assert RULE_LEAK not in hub.state.apps


def test_visual_rule_answers_parse_the_real_shapes() -> None:
    classic = load_fixture("apps/visual_rule").answer
    assert is_classic_visual_rule(classic)
    assert not is_classic_visual_rule({})  # an unknown id
    assert not is_classic_visual_rule({"broken": False, "ruleText": []})  # an RM rule's state
    graph = parse_rule_builder20(load_fixture("apps/visual_rule_graph").answer)
    assert graph is not None and graph["validationErrors"] == ["Node 3 has no device"]
    assert json.loads(graph["ruleJson"]) == {"nodes": [], "edges": []}
    assert parse_rule_builder20({"success": False, "message": "not found"}) is None
    check_success(load_fixture("apps/visual_rule_pause").answer, "pause rule 1")


async def test_rule_writes_are_decided_by_their_effect(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    routes = hub.hubvar_routes.fallback  # the generic app routes
    routes.dropped_buttons = frozenset({"stopRule"})  # "success", and nothing happens
    stop = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "stop"})
    assert stop.error and stop.data["error"] == "hub_bad_response", stop.data
    routes.drop_rule_writes = True
    paused = await call_tool("hub_set_rule_paused", {"app_id": VRB_PORCH, "paused": True})
    assert paused.error and paused.data["error"] == "hub_bad_response", paused.data
    hub.mark_backup_now()
    renamed = await call_tool("hub_update_visual_rule", {"app_id": VRB_PORCH, "name": "Renamed"})
    assert renamed.error and "does not hold" in renamed.data["message"], renamed.data
    assert hub.state.dev.vrb[VRB_PORCH]["name"] == "Porch light on motion"
