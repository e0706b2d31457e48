"""Visual Rules in the graph format (the 2.0 editor) on the managers, no hass: the structural
check of a draft (``managers/apps/visual_graph.py``: every problem the editor's
``validateRule`` finds, all at once, and the editor's node shape), and the Visual Rules
manager (``managers/apps/visual_rules.py``) reading, checking, creating and updating a graph
rule over the emulated hub: a draft checked without sending, a new rule that starts paused,
nodes and edges replaced or kept, the format of a rule and of the firmware respected, and a
save the hub does not keep caught by the read-back.

Shapes from the hub UI's 2.0 editor (``VisualRuleBuilder20`` in vue-hub2.min.js): nodes
``{id, type, triggerType|actionType, ...}``, edges ``{from, to, port}``.

Moved from tests/tools/test_visual_graph.py (the tools' arguments and answers, the
"not both formats" refusal, the device allowlist and the confirmation of a lock stay there)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
from custom_components.hubitat_dev_tools.hub.visual_rules import parse_graph_text
from custom_components.hubitat_dev_tools.managers.apps.visual_graph import check_graph
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator, vrb_graph
from hubitat_emulator.devstate import VRB_PORCH

from ..contract import assert_same_shape, load_fixture
from ..helpers.visual_graph import graph_rule, paused, porch_graph


def new_rule(name: str, graph: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A new graph rule's body as the create tool builds it from its arguments."""
    return {"rulePaused": False, "name": name, **graph, **more}


def writes(emu: HubEmulator, before: int) -> list[str]:
    """The requests since ``before`` that could have written something."""
    return [p for m, p in emu.requests[before:] if m == "POST" or "create" in p]


# ------------------------------------------------------------------ the structural check


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


# ------------------------------------------------------------ the hub's answers, parsed


def test_the_save_answer_fixture_parses() -> None:
    answer = load_fixture("apps/visual_rule_graph_save").answer
    assert parse_graph_text(answer["ruleJson"]) == {"version": 1, "nodes": [], "edges": []}
    assert parse_graph_text("") is None and parse_graph_text("[1]") is None


def test_the_emulators_save_answer_has_the_documented_shape(emu: HubEmulator) -> None:
    rule = emu.state.dev.vrb_graph[graph_rule(emu)]
    answer, name = vrb_graph.save(rule, json.dumps({"name": "N", "ruleJson": "{}"}), drop=False)
    assert_same_shape("apps/visual_rule_graph_save", answer)
    assert name == "N" and rule["ruleJson"] == "{}"
    refused_answer, _ = vrb_graph.save(rule, "not json", drop=False)
    assert refused_answer["success"] is False


async def test_read_parses_the_graph(emu: HubEmulator, manager_hub: Hub) -> None:
    rule = graph_rule(emu)
    got = await manager_hub.rules.visual.get(str(rule))
    assert got["format"] == "graph" and isinstance(got["definition"]["ruleJson"], str)
    graph = got.get("graph")
    assert graph is not None
    assert [n["id"] for n in graph["nodes"]] == ["trigger-1", "action-1"]
    classic = await manager_hub.rules.visual.get(str(VRB_PORCH))
    assert classic["format"] == "classic" and "graph" not in classic


# --------------------------------------------------------------- drafts checked, unsent


async def test_a_draft_answers_every_problem_and_sends_nothing(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    visual = manager_hub.rules.visual
    graph = porch_graph(emu)
    graph["edges"].append({"from": "action-1", "to": "nowhere"})
    graph["nodes"][1]["deviceIds"] = [99999]
    before = len(emu.requests)
    draft = await visual.check_draft({"name": "Draft", **graph})
    assert draft["valid"] is False and len(draft["problems"]) == 2, draft
    assert "nowhere" in draft["problems"][0] and "no device 99999" in draft["problems"][1]
    assert writes(emu, before) == []
    good = await visual.check_draft({"name": "Draft", **porch_graph(emu, dark_only=True)})
    assert good["valid"] is True and good["problems"] == [] and good["graph"]["version"] == 1
    classic = await visual.check_draft({"name": "Draft", "whenNodes": [{"triggerType": "time"}]})
    assert classic["valid"] is False and "unknown node type 'time'" in classic["problems"][0]
    assert classic["graph"] == {}
    assert writes(emu, before) == []


async def test_a_draft_of_an_update_checks_the_merged_graph(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    rule = graph_rule(emu)
    before = emu.state.dev.vrb_graph[rule]["ruleJson"]
    sent = len(emu.requests)
    # new edges only: the stored nodes are kept, so an edge to an unknown node is a problem
    draft = await manager_hub.rules.visual.check_draft(
        {"edges": [{"from": "trigger-1", "to": "x"}]}, app_id=str(rule)
    )
    assert draft["valid"] is False
    assert any("'x' does not exist" in p for p in draft["problems"])
    assert any("action node 'action-1' must have exactly one" in p for p in draft["problems"])
    assert emu.state.dev.vrb_graph[rule]["ruleJson"] == before
    assert writes(emu, sent) == []


# ------------------------------------------------------------------- create and update


async def test_create_and_update_a_graph_rule(emu: HubEmulator, manager_hub: Hub) -> None:
    visual = manager_hub.rules.visual
    emu.hubvar_routes.fallback.vrb_creates_graph = True
    made = await visual.create(new_rule("Graph porch", porch_graph(emu)))
    rule = int(made["app_id"])
    stored = emu.state.dev.vrb_graph[rule]
    assert stored["name"] == "Graph porch" and made.get("validation_errors") == []
    assert paused(emu, rule) is False
    assert json.loads(stored["ruleJson"])["edges"][0]["port"] == "next"
    changed = await visual.update(
        str(rule), {**porch_graph(emu, dark_only=True), "rulePaused": True}
    )
    assert changed.get("item_backup") and paused(emu, rule) is True
    assert len(json.loads(stored["ruleJson"])["nodes"]) == 3
    renamed = await visual.update(str(rule), {"name": "X"})
    assert renamed["name"] == "X" and stored["name"] == "X"
    assert len(json.loads(stored["ruleJson"])["nodes"]) == 3  # the graph is kept
    # classic lists for a graph rule are refused, and so is a graph for a classic rule
    with pytest.raises(ToolError, match="graph format"):
        await visual.update(str(rule), {"thenNodes": [{"actionType": "cancelWait"}]})
    with pytest.raises(ToolError, match="classic format"):
        await visual.update(str(VRB_PORCH), porch_graph(emu))
    assert "nodes" not in emu.state.dev.vrb[VRB_PORCH]
    # a hub that answers the save but keeps nothing is caught by the read-back
    emu.hubvar_routes.fallback.drop_rule_writes = True
    with pytest.raises(HubBadResponseError, match="does not hold"):
        await visual.update(str(rule), {"name": "Y"})
    assert stored["name"] == "X"


async def test_a_new_graph_rule_can_start_paused(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.hubvar_routes.fallback.vrb_creates_graph = True
    body = new_rule("Paused porch", porch_graph(emu), rulePaused=True)
    made = await manager_hub.rules.visual.create(body)
    assert emu.state.dev.vrb_graph[int(made["app_id"])]["rulePaused"] is True


async def test_formats_must_match_what_the_firmware_creates(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    apps = set(emu.state.apps)
    with pytest.raises(ToolError, match="creates Visual Rules in the classic format"):
        await manager_hub.rules.visual.create(new_rule("G", porch_graph(emu)))
    assert set(emu.state.apps) == apps  # the empty rule was removed
    assert any("/forcedelete/" in p for _m, p in emu.requests)
