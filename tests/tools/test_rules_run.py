"""hub_call_rule on several rules through the tool: the tool's own part. Its answer (the
batch's summary, the per-rule results), a refusal as an error result, the argument refusal
(no app_id nor app_ids), and the confirm a sensitive rule in the batch needs (the safety
chokepoint: nothing runs without it); one rule's summary, "(already so)" when it was;
hub_list_rules shows a rule's private boolean.

Every rule checked before any is called, a repeated id acted on once, the per-rule results
(an unchanged one, one failing while acting) and the private boolean reset by a start are
tested without hass in tests/managers/test_rules_run.py."""

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
    ids = [str(RULE_MOTION), str(RULE_LEAK), str(RULE_MOTION)]
    args = {"app_ids": ids, "action": "run_actions", "confirm": True}  # the leak rule: a siren
    data = await ok(call_tool, "hub_call_rule", args)
    assert data["summary"] == "run_actions on 2 rules: 2 done, 0 failed", data
    assert data["count"] == 2 and data["failed"] == 0, data
    assert [r["app_id"] for r in data["results"]] == [str(RULE_MOTION), str(RULE_LEAK)]
    assert (runs(hub, RULE_MOTION), runs(hub, RULE_LEAK)) == (before[0] + 1, before[1] + 1)
    stop = await ok(call_tool, "hub_call_rule", {"app_ids": ids[:2], "action": "stop"})
    assert stop["summary"] == "stop on 2 rules: 2 done, 0 failed", stop
    assert hub.state.dev.internals[RULE_LEAK].state["stopped"] is True


async def test_one_bad_rule_stops_the_whole_batch_before_anything_runs(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = runs(hub, RULE_MOTION)
    args = {"app_ids": [str(RULE_MOTION), str(VRB_PORCH)], "action": "run_actions"}
    data = await refused(call_tool, "hub_call_rule", args, "invalid_request")
    assert f"rule {VRB_PORCH}" in data["message"] and "none was" in data["message"]
    assert data["hint"].startswith("Drop or fix those rules"), data
    assert runs(hub, RULE_MOTION) == before
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
    assert data["summary"] == "stop on 2 rules: 0 done, 2 failed", data
    assert data["failed"] == 2 and all("did not change" in r["error"] for r in data["results"])


async def test_list_rules_reads_the_private_boolean(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.dev.internals[RULE_MOTION].state["privateBoolean"] = False
    data = await ok(call_tool, "hub_list_rules", {"engine": "rule_machine"})
    rules = {r["app_id"]: r for r in data["rules"]}
    assert rules[str(RULE_MOTION)]["private_boolean"] is False
    assert data["count"] == len(data["rules"])
    one = {"app_id": str(RULE_MOTION)}
    stop = await ok(call_tool, "hub_call_rule", {**one, "action": "stop"})
    assert stop["summary"].startswith(f"stop on rule {RULE_MOTION} ("), stop
    assert "already so" not in stop["summary"]
    await ok(call_tool, "hub_call_rule", {**one, "action": "start"})
    again = await ok(call_tool, "hub_call_rule", {**one, "action": "start"})
    assert again["summary"].endswith(" (already so)") and again["unchanged"] is True, again
