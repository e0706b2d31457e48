"""Running, stopping and starting several rules in one call (``managers/apps/rules.py``,
``hub.rules.call_rules``) on its own, no hass: a repeated id is acted on once, every rule is
checked before the first is acted on (one that cannot be called stops the whole batch, with
nothing sent), each rule answers for itself (one failing while acting does not stop the
others, an unchanged one says so); the listing reads a rule's private boolean, which starting
the rule resets.

Moved from tests/tools/test_rules_run.py (the tool's part stays there: its argument refusal,
the batch's summary, a refusal as an error result, and the confirm a sensitive rule in the
batch needs, which is the safety chokepoint's)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.seed_specs import RULE_LEAK, RULE_MOTION


def runs(emu: HubEmulator, rule: int) -> int:
    return emu.state.dev.internals[rule].runs


async def test_several_rules_run_in_one_call(emu: HubEmulator, manager_hub: Hub) -> None:
    rules = manager_hub.rules
    before = runs(emu, RULE_MOTION), runs(emu, RULE_LEAK)
    ids = [str(RULE_MOTION), str(RULE_LEAK), str(RULE_MOTION)]  # a repeat runs once
    # the leak rule sounds a siren: confirmed (the gate itself is tested with the tool)
    data = await rules.call_rules(ids, "run_actions", confirm=True)
    assert data["count"] == 2 and data["failed"] == 0, data
    assert data["action"] == "run_actions"
    assert [r["app_id"] for r in data["results"]] == [str(RULE_MOTION), str(RULE_LEAK)]
    assert all(r["ok"] for r in data["results"])
    assert (runs(emu, RULE_MOTION), runs(emu, RULE_LEAK)) == (before[0] + 1, before[1] + 1)
    stop = await rules.call_rules(ids[:2], "stop")
    assert stop["failed"] == 0 and emu.state.dev.internals[RULE_LEAK].state["stopped"] is True
    assert emu.state.dev.internals[RULE_MOTION].state["stopped"] is True
    assert not any(r.get("unchanged") for r in stop["results"])
    again = await rules.call_rules(ids[:2], "stop")
    assert all(r.get("unchanged") for r in again["results"])


async def test_one_bad_rule_stops_the_whole_batch_before_anything_runs(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = runs(emu, RULE_MOTION)
    requests = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await manager_hub.rules.call_rules([str(RULE_MOTION), str(VRB_PORCH)], "run_actions")
    message = str(refused.value)
    assert f"rule {VRB_PORCH}" in message and "none was" in message
    assert refused.value.code == "invalid_request" and refused.value.subject == "rule_batch"
    assert runs(emu, RULE_MOTION) == before
    assert [m for m, _p in emu.requests[requests:] if m == "POST"] == []


async def test_a_rule_that_fails_while_acting_answers_for_itself(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.hubvar_routes.fallback.dropped_buttons = frozenset({"stopRule"})
    ids = [str(RULE_MOTION), str(RULE_LEAK)]
    data = await manager_hub.rules.call_rules(ids, "stop")
    assert data["failed"] == 2 and all("did not change" in r["error"] for r in data["results"])
    assert [r["ok"] for r in data["results"]] == [False, False]
    assert emu.state.dev.internals[RULE_MOTION].state.get("stopped") is not True


async def test_list_rules_reads_the_private_boolean(emu: HubEmulator, manager_hub: Hub) -> None:
    rules = manager_hub.rules
    state = emu.state.dev.internals[RULE_MOTION].state
    state["privateBoolean"] = False
    listed = await rules.list_rules("rule_machine", with_status=True)
    by_id = {r["app_id"]: r for r in listed}
    assert by_id[str(RULE_MOTION)]["private_boolean"] is False
    await rules.call_rule(str(RULE_MOTION), "stop")
    await rules.call_rule(str(RULE_MOTION), "start")
    assert state["privateBoolean"] is True  # Start resets it
    listed = await rules.list_rules("rule_machine", with_status=True)
    assert {r["app_id"]: r for r in listed}[str(RULE_MOTION)]["private_boolean"] is True
