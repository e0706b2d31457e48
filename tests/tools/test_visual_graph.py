"""Visual Rules in the graph format (VRB 2.0) through the tools: hub_get_visual_rule,
hub_create_visual_rule and hub_update_visual_rule (validate_only too).

The tools' part is here: their arguments (paused, nodes and edges, validate_only) reaching the
manager, their answers and summaries, the "not both formats" refusal, the device allowlist and
the confirmation a lock in a graph needs. The structural check of a graph (every problem the
2.0 editor's ``validateRule`` finds), reading, checking, creating and updating a graph rule
and the hub's save answer are tested without hass in tests/managers/test_visual_graph.py.
"""

from __future__ import annotations

import json

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH

from ..conftest import ToolCaller, ok, refused
from ..helpers.visual_graph import dev, graph_rule, paused, porch_graph


async def test_read_answers_the_parsed_graph(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answer (reading and parsing: tests/managers/test_visual_graph.py)."""
    rule = graph_rule(hub)
    got = await ok(call_tool, "hub_get_visual_rule", {"app_id": str(rule)})
    assert got["format"] == "graph" and isinstance(got["definition"]["ruleJson"], str)
    assert [n["id"] for n in got["graph"]["nodes"]] == ["trigger-1", "action-1"]
    classic = await ok(call_tool, "hub_get_visual_rule", {"app_id": str(VRB_PORCH)})
    assert classic["format"] == "classic" and "graph" not in classic


async def test_validate_only_answers_the_draft_and_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """validate_only as the tool answers it (every problem of a draft:
    tests/managers/test_visual_graph.py)."""
    graph = porch_graph(hub)
    graph["edges"].append({"from": "action-1", "to": "nowhere"})
    graph["nodes"][1]["deviceIds"] = [99999]
    before = len(hub.requests)
    draft = await ok(
        call_tool, "hub_create_visual_rule", {"name": "Draft", **graph, "validate_only": True}
    )
    assert draft["summary"] == "Draft checked, nothing sent: 2 problem(s)", draft
    assert draft["valid"] is False and len(draft["problems"]) == 2
    assert "nowhere" in draft["problems"][0] and "no device 99999" in draft["problems"][1]
    good = await ok(
        call_tool,
        "hub_create_visual_rule",
        {"name": "Draft", **porch_graph(hub, dark_only=True), "validate_only": True},
    )
    assert good["summary"] == "Draft checked, nothing sent: valid"
    assert good["valid"] is True and good["graph"]["version"] == 1
    classic = await ok(
        call_tool,
        "hub_create_visual_rule",
        {"name": "Draft", "when_nodes": [{"triggerType": "time"}], "validate_only": True},
    )
    assert classic["valid"] is False and "unknown node type 'time'" in classic["problems"][0]
    assert "graph" not in classic  # a classic draft answers no graph
    writes = [p for m, p in hub.requests[before:] if m == "POST" or "create" in p]
    assert writes == []


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
    """The tools' arguments and answers (the rule's life on the hub, the format refusals and
    the read-back: tests/managers/test_visual_graph.py)."""
    hub.hubvar_routes.fallback.vrb_creates_graph = True
    args = {"name": "Graph porch", **porch_graph(hub), "paused": True}
    made = await ok(call_tool, "hub_create_visual_rule", args)
    rule = int(made["app_id"])
    assert made["summary"] == f"Created Visual Rule {rule} (Graph porch)"
    stored = hub.state.dev.vrb_graph[rule]
    assert stored["name"] == "Graph porch" and made["validation_errors"] == []
    assert paused(hub, rule) is True  # paused=true reaches the new rule
    hub.mark_backup_now()
    changed = await ok(
        call_tool,
        "hub_update_visual_rule",
        {"app_id": str(rule), **porch_graph(hub, dark_only=True), "paused": False},
    )
    assert changed["summary"] == f"Updated Visual Rule {rule}" and changed["item_backup"]
    assert paused(hub, rule) is False and len(json.loads(stored["ruleJson"])["nodes"]) == 3
    # a refusal and a save the hub does not keep, as the tool answers them
    data = await refused(
        call_tool,
        "hub_update_visual_rule",
        {"app_id": str(rule), "then_nodes": [{"actionType": "cancelWait"}]},
    )
    assert "graph format" in data["message"]
    hub.hubvar_routes.fallback.drop_rule_writes = True
    lost = await refused(call_tool, "hub_update_visual_rule", {"app_id": str(rule), "name": "Y"})
    assert lost["error"] == "hub_bad_response"


async def test_one_format_at_a_time(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's own refusal of both formats in one call (a format the firmware does not
    create: tests/managers/test_visual_graph.py)."""
    apps, before = set(hub.state.apps), len(hub.requests)
    both = {"name": "G", **porch_graph(hub), "then_nodes": [{"actionType": "cancelWait"}]}
    assert "not both" in (await refused(call_tool, "hub_create_visual_rule", both))["message"]
    assert set(hub.state.apps) == apps
    assert [p for m, p in hub.requests[before:] if m == "POST" or "create" in p] == []
    data = await refused(call_tool, "hub_create_visual_rule", {"name": "G", **porch_graph(hub)})
    assert "creates Visual Rules in the classic format" in data["message"]
    assert set(hub.state.apps) == apps


async def test_validate_only_on_an_update_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answer (the merged graph checked: tests/managers/test_visual_graph.py)."""
    rule = graph_rule(hub)
    before = hub.state.dev.vrb_graph[rule]["ruleJson"]
    args = {"app_id": str(rule), "edges": [{"from": "trigger-1", "to": "x"}], "validate_only": True}
    draft = await ok(call_tool, "hub_update_visual_rule", args)
    assert draft["valid"] is False and draft["summary"].startswith("Draft checked, nothing sent")
    assert any("'x' does not exist" in p for p in draft["problems"])
    assert hub.state.dev.vrb_graph[rule]["ruleJson"] == before
