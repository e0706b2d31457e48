"""hub_call_rule on several rules: every rule checked before any is called, per-rule results."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.seed_specs import RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..conftest import ToolCaller, ok, refused


def runs(hub: HubEmulator, rule: int) -> int:
    return hub.state.dev.internals[rule].runs


async def test_several_rules_run_in_one_call(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = runs(hub, RULE_MOTION), runs(hub, RULE_LEAK)
    ids = [str(RULE_MOTION), str(RULE_LEAK), str(RULE_MOTION)]  # a repeat runs once
    args = {"app_ids": ids, "action": "run_actions", "confirm": True}  # the leak rule: a siren
    data = await ok(call_tool, "hub_call_rule", args)
    assert data["count"] == 2 and data["failed"] == 0, data
    assert [r["app_id"] for r in data["results"]] == [str(RULE_MOTION), str(RULE_LEAK)]
    assert all(r["ok"] for r in data["results"])
    assert (runs(hub, RULE_MOTION), runs(hub, RULE_LEAK)) == (before[0] + 1, before[1] + 1)
    stop = await ok(call_tool, "hub_call_rule", {"app_ids": ids[:2], "action": "stop"})
    assert stop["failed"] == 0 and hub.state.dev.internals[RULE_LEAK].state["stopped"] is True
    again = await ok(call_tool, "hub_call_rule", {"app_ids": ids[:2], "action": "stop"})
    assert all(r.get("unchanged") for r in again["results"])


async def test_one_bad_rule_stops_the_whole_batch_before_anything_runs(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = runs(hub, RULE_MOTION)
    requests = len(hub.requests)
    args = {"app_ids": [str(RULE_MOTION), str(VRB_PORCH)], "action": "run_actions"}
    data = await refused(call_tool, "hub_call_rule", args)
    assert f"rule {VRB_PORCH}" in data["message"] and "none was" in data["message"]
    assert runs(hub, RULE_MOTION) == before
    assert [m for m, _p in hub.requests[requests:] if m == "POST"] == []
    # a sensitive rule in the batch needs confirm for the whole batch
    args = {"app_ids": [str(RULE_MOTION), str(RULE_GOODNIGHT)], "action": "run_actions"}
    await refused(call_tool, "hub_call_rule", args, "confirmation_required")
    assert runs(hub, RULE_MOTION) == before
    data = await ok(call_tool, "hub_call_rule", {**args, "confirm": True})
    assert data["failed"] == 0 and runs(hub, RULE_MOTION) == before + 1
    await refused(call_tool, "hub_call_rule", {"action": "stop"})


async def test_a_rule_that_fails_while_acting_answers_for_itself(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.hubvar_routes.fallback.dropped_buttons = frozenset({"stopRule"})
    args = {"app_ids": [str(RULE_MOTION), str(RULE_LEAK)], "action": "stop"}
    data = await ok(call_tool, "hub_call_rule", args)
    assert data["failed"] == 2 and all("did not change" in r["error"] for r in data["results"])


async def test_list_rules_reads_the_private_boolean(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    state = hub.state.dev.internals[RULE_MOTION].state
    state["privateBoolean"] = False
    data = await ok(call_tool, "hub_list_rules", {"engine": "rule_machine"})
    rules = {r["app_id"]: r for r in data["rules"]}
    assert rules[str(RULE_MOTION)]["private_boolean"] is False
    await ok(call_tool, "hub_call_rule", {"app_id": str(RULE_MOTION), "action": "stop"})
    await ok(call_tool, "hub_call_rule", {"app_id": str(RULE_MOTION), "action": "start"})
    assert state["privateBoolean"] is True  # Start resets it
