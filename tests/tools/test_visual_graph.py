"""Visual Rules in the graph format (VRB 2.0): read, validate a draft, create, update.

Shapes from the hub UI's 2.0 editor (``VisualRuleBuilder20`` in vue-hub2.min.js): nodes
``{id, type, triggerType|actionType, ...}``, edges ``{from, to, port}``; its ``validateRule``
problems are found before anything is sent.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.visual_rules import parse_graph_text
from custom_components.hubitat_dev_tools.managers.apps.visual_graph import check_graph
from hubitat_emulator import HubEmulator, vrb_graph
from hubitat_emulator.devstate import VRB_PORCH

from ..conftest import ToolCaller, ok, refused
from ..contract import assert_same_shape, load_fixture


def dev(hub: HubEmulator, label: str) -> int:
    return int(hub.find_device(label)["id"])


def porch_graph(hub: HubEmulator, *, dark_only: bool = False) -> dict[str, Any]:
    """Motion on the porch turns the porch light on (between sunset and sunrise)."""
    motion = dev(hub, "Front Porch Motion")
    light = dev(hub, "Porch Light")
    nodes: list[dict[str, Any]] = [
        {"id": "trigger-1", "type": "trigger", "triggerType": "motion",
         "motionSensors": [motion], "motionSensorEvent": "Motion starts"},
        {"id": "action-1", "type": "action", "actionType": "turnOn", "deviceIds": [light]},
    ]  # fmt: skip
    edges = [{"from": "trigger-1", "to": "action-1", "port": "next"}]
    if dark_only:
        nodes.append(
            {"id": "condition-1", "type": "condition", "triggerType": "timeIsBetween",
             "condition": "sunsetToSunrise"}
        )  # fmt: skip
        edges = [
            {"from": "trigger-1", "to": "condition-1"},
            {"from": "condition-1", "to": "action-1", "port": "true"},
        ]
    return {"nodes": nodes, "edges": edges}


def graph_rule(hub: HubEmulator) -> int:
    """A graph rule installed next to the seeded classic porch rule."""
    new_id = max(hub.state.apps) + 1
    hub.state.apps[new_id] = replace(hub.state.apps[VRB_PORCH], id=new_id, label="Graph porch")
    text = json.dumps({"version": 1, **porch_graph(hub)})
    hub.state.dev.vrb_graph[new_id] = {
        "name": "Graph porch", "rulePaused": False, "ruleJson": text, "validationErrors": [],
    }  # fmt: skip
    return new_id


def test_the_editors_rules_are_checked_all_at_once() -> None:
    graph = {
        "nodes": [
            {"id": "t", "type": "trigger", "triggerType": "switchCondition"},
            {"id": "a", "type": "action", "actionType": "turnOn", "switches": [5]},
            {"id": "a", "type": "action", "actionType": "bogus"},
            {"id": "c", "type": "condition", "triggerType": "daysOfWeek", "daysOfWeek": [1]},
        ],
        "edges": [
            {"from": "t", "to": "a", "port": "true"},
            {"from": "a", "to": "ghost"},
            {"from": "c", "to": "t"},
        ],
    }
    problems = check_graph(graph).problems
    text = "\n".join(problems)
    assert "'switchCondition' is a condition" in text
    assert "duplicate node id 'a'" in text and "unknown node type 'bogus'" in text
    assert "port 'true' is invalid for 't'" in text
    assert "destination node 'ghost' does not exist" in text
    assert "trigger node 't' cannot have incoming edges" in text
    assert "condition node 'c' must have exactly one incoming edge (it has 0)" in text
    assert "no trigger" in text
    cyc = {
        "nodes": [
            {"id": "t", "type": "trigger", "triggerType": "timeOfDay", "timeOfDay": "0700"},
            {"id": "a", "type": "action", "actionType": "cancelWait"},
            {"id": "b", "type": "action", "actionType": "exitAwayMode"},
        ],
        "edges": [{"from": "t", "to": "a"}, {"from": "a", "to": "b"}, {"from": "b", "to": "a"}],
    }
    assert any("cycles are not supported" in p for p in check_graph(cyc).problems)


def test_the_save_answer_fixture_parses() -> None:
    answer = load_fixture("apps/visual_rule_graph_save").answer
    assert parse_graph_text(answer["ruleJson"]) == {"version": 1, "nodes": [], "edges": []}
    assert parse_graph_text("") is None and parse_graph_text("[1]") is None


async def test_the_emulators_save_answer_has_the_documented_shape(
    entry: MockConfigEntry, hub: HubEmulator
) -> None:
    rule = hub.state.dev.vrb_graph[graph_rule(hub)]
    answer, name = vrb_graph.save(rule, json.dumps({"name": "N", "ruleJson": "{}"}), drop=False)
    assert_same_shape("apps/visual_rule_graph_save", answer)
    assert name == "N" and rule["ruleJson"] == "{}"
    refused_answer, _ = vrb_graph.save(rule, "not json", drop=False)
    assert refused_answer["success"] is False


def test_a_graph_node_keeps_the_editors_shape() -> None:
    checked = check_graph(
        {
            "nodes": [
                {"id": "trigger-1", "type": "trigger", "triggerType": "sunriseSunset",
                 "condition": "sunset"},
                {"id": "action-1", "type": "action", "actionType": "turnOn", "deviceIds": [9]},
            ],
            "edges": [{"from": "trigger-1", "to": "action-1"}],
        }
    )  # fmt: skip
    assert checked.problems == []
    trigger, action = checked.graph["nodes"]
    assert trigger["condition"] == "sunset" and trigger["triggerCondition"] == "trigger"
    assert action["switches"] == [9] and action["deviceIds"] == [9] and action["index"] == 1
    assert checked.graph["edges"] == [{"from": "trigger-1", "to": "action-1", "port": "next"}]
    assert [u.path for u in checked.uses] == ["nodes[1] ('action-1').switches[0]"]


async def test_read_parses_the_graph(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rule = graph_rule(hub)
    got = await ok(call_tool, "hub_get_visual_rule", {"app_id": str(rule)})
    assert got["format"] == "graph" and isinstance(got["definition"]["ruleJson"], str)
    assert [n["id"] for n in got["graph"]["nodes"]] == ["trigger-1", "action-1"]
    classic = await ok(call_tool, "hub_get_visual_rule", {"app_id": str(VRB_PORCH)})
    assert classic["format"] == "classic" and "graph" not in classic


async def test_validate_only_answers_every_problem_and_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    graph = porch_graph(hub)
    graph["edges"].append({"from": "action-1", "to": "nowhere"})
    graph["nodes"][1]["deviceIds"] = [99999]
    before = len(hub.requests)
    draft = await ok(
        call_tool, "hub_create_visual_rule", {"name": "Draft", **graph, "validate_only": True}
    )
    assert draft["valid"] is False and len(draft["problems"]) == 2, draft
    assert "nowhere" in draft["problems"][0] and "no device 99999" in draft["problems"][1]
    writes = [p for m, p in hub.requests[before:] if m == "POST" or "create" in p]
    assert writes == []
    good = await ok(
        call_tool,
        "hub_create_visual_rule",
        {"name": "Draft", **porch_graph(hub, dark_only=True), "validate_only": True},
    )
    assert good["valid"] is True and good["problems"] == [] and good["graph"]["version"] == 1
    classic = await ok(
        call_tool,
        "hub_create_visual_rule",
        {"name": "Draft", "when_nodes": [{"triggerType": "time"}], "validate_only": True},
    )
    assert classic["valid"] is False and "unknown node type 'time'" in classic["problems"][0]


async def test_a_lock_in_a_graph_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    graph = porch_graph(hub)
    lock = dev(hub, "Back Door Lock")
    graph["nodes"][1] = {"id": "action-1", "type": "action", "actionType": "lock", "locks": [lock]}
    args = {"name": "Lock up", **graph, "validate_only": True}
    draft = await ok(call_tool, "hub_create_visual_rule", args)
    assert draft["valid"] is False and draft["problems"] == []
    assert "Back Door Lock" in draft["needs_confirm"][0]
    confirmed = await ok(call_tool, "hub_create_visual_rule", {**args, "confirm": True})
    assert confirmed["valid"] is True
    hub.hubvar_routes.fallback.vrb_creates_graph = True
    await refused(call_tool, "hub_create_visual_rule", {**args, "validate_only": False},
                  "confirmation_required")  # fmt: skip


async def test_the_allowlist_holds_for_graph_nodes(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = str(dev(hub, "Front Porch Motion"))
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [motion]})
    await hass.async_block_till_done()
    hub.hubvar_routes.fallback.vrb_creates_graph = True
    before = set(hub.state.dev.vrb_graph)
    data = await refused(call_tool, "hub_create_visual_rule", {"name": "Porch", **porch_graph(hub)})
    assert data["error"] == "device_not_allowed", data
    assert set(hub.state.dev.vrb_graph) == before


async def test_create_and_update_a_graph_rule(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.hubvar_routes.fallback.vrb_creates_graph = True
    made = await ok(
        call_tool, "hub_create_visual_rule", {"name": "Graph porch", **porch_graph(hub)}
    )
    rule = int(made["app_id"])
    stored = hub.state.dev.vrb_graph[rule]
    assert stored["name"] == "Graph porch" and made["validation_errors"] == []
    assert json.loads(stored["ruleJson"])["edges"][0]["port"] == "next"
    hub.mark_backup_now()
    changed = await ok(
        call_tool,
        "hub_update_visual_rule",
        {"app_id": str(rule), **porch_graph(hub, dark_only=True), "paused": True},
    )
    assert changed["item_backup"] and stored["rulePaused"] is True
    assert len(json.loads(stored["ruleJson"])["nodes"]) == 3
    renamed = await ok(call_tool, "hub_update_visual_rule", {"app_id": str(rule), "name": "X"})
    assert renamed["name"] == "X" and stored["name"] == "X"
    assert len(json.loads(stored["ruleJson"])["nodes"]) == 3  # the graph is kept
    # classic lists for a graph rule are refused, and so is a graph for a classic rule
    data = await refused(
        call_tool,
        "hub_update_visual_rule",
        {"app_id": str(rule), "then_nodes": [{"actionType": "cancelWait"}]},
    )
    assert "graph format" in data["message"]
    await refused(
        call_tool, "hub_update_visual_rule", {"app_id": str(VRB_PORCH), **porch_graph(hub)}
    )
    # a hub that answers the save but keeps nothing is caught by the read-back
    hub.hubvar_routes.fallback.drop_rule_writes = True
    lost = await refused(call_tool, "hub_update_visual_rule", {"app_id": str(rule), "name": "Y"})
    assert lost["error"] == "hub_bad_response"


async def test_formats_must_match_what_the_firmware_creates(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    apps = set(hub.state.apps)
    data = await refused(call_tool, "hub_create_visual_rule", {"name": "G", **porch_graph(hub)})
    assert "creates Visual Rules in the classic format" in data["message"]
    assert set(hub.state.apps) == apps  # the empty rule was removed
    both = {"name": "G", **porch_graph(hub), "then_nodes": [{"actionType": "cancelWait"}]}
    assert "not both" in (await refused(call_tool, "hub_create_visual_rule", both))["message"]


def test_a_large_graph_is_checked_quickly() -> None:
    # a chain of 60 condition diamonds (2**60 paths): the check stays linear
    nodes: list[dict[str, Any]] = [
        {"id": "t", "type": "trigger", "triggerType": "timeOfDay", "timeOfDay": "0700"}
    ]
    edges: list[dict[str, Any]] = []
    prev = "t"
    for i in range(60):
        cond = f"c{i}"
        nodes.append({"id": cond, "type": "condition", "triggerType": "daysOfWeek",
                      "daysOfWeek": [1]})  # fmt: skip
        edges.append({"from": prev, "to": cond, "port": "true" if prev != "t" else "next"})
        prev = cond
    nodes.append({"id": "a", "type": "action", "actionType": "cancelWait"})
    edges.append({"from": prev, "to": "a", "port": "true"})
    edges.append({"from": "a", "to": "c0"})  # closes a loop
    problems = check_graph({"nodes": nodes, "edges": edges}).problems
    assert any("cycles are not supported" in p for p in problems), problems


async def test_a_new_graph_rule_can_start_paused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.hubvar_routes.fallback.vrb_creates_graph = True
    args = {"name": "Paused porch", **porch_graph(hub), "paused": True}
    made = await ok(call_tool, "hub_create_visual_rule", args)
    assert hub.state.dev.vrb_graph[int(made["app_id"])]["rulePaused"] is True


async def test_validate_only_on_an_update_checks_the_merged_graph(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rule = graph_rule(hub)
    before = hub.state.dev.vrb_graph[rule]["ruleJson"]
    # new edges only: the stored nodes are kept, so an edge to an unknown node is a problem
    args = {"app_id": str(rule), "edges": [{"from": "trigger-1", "to": "x"}], "validate_only": True}
    draft = await ok(call_tool, "hub_update_visual_rule", args)
    assert draft["valid"] is False
    assert any("'x' does not exist" in p for p in draft["problems"])
    assert any("action node 'action-1' must have exactly one" in p for p in draft["problems"])
    assert hub.state.dev.vrb_graph[rule]["ruleJson"] == before
