"""The rules' private boolean manager (``managers/rule_flags.py``, ``hub.rule_flags``) on its
own, no hass: a helper rule with one Set Private Boolean action is built, run once by its Run
Actions button and deleted, against the emulated Rule Machine and its rule runner; each
target's value read back (and already so, said per rule), several rules at once, a rule that
commands a lock or sounds a siren gated on confirm, refusals (an unknown app, a Visual Rule, a
Basic Rule) sending nothing, a failure or a cancel at any point leaving no helper behind, a
helper that cannot be deleted named; Stop keeps the value and Start sets it back to true.

Moved from tests/tools/test_rule_private_boolean.py (the tools' answers stay there: the
summary, hub_list_rules showing the value, the refusal without a rule id, a refusal as an error
result and the warning that names the tool to delete a helper left behind)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.rule_runner import RuleRunner
from hubitat_emulator.seed_specs import BR_PORCH, RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..helpers.rule_private_boolean import FailingEngine


async def listed(manager_hub: Hub) -> dict[str, Any]:
    """Each Rule Machine rule's private boolean, as the rule list shows it."""
    rules = await manager_hub.rules.list_rules(
        "rule_machine", with_status=True, with_button_rules=True
    )
    return {r["app_id"]: r.get("private_boolean") for r in rules}


def posts(emu: HubEmulator, since: int) -> list[str]:
    return [p for m, p in emu.requests[since:] if m == "POST"]


async def _set(
    manager_hub: Hub, app_ids: list[str], value: bool, *, confirm: bool = False
) -> dict[str, Any]:
    """The call as hub_set_rule_private_boolean makes it (no device allowlist)."""
    return await manager_hub.rule_flags.set(app_ids, value, confirm=confirm)


async def _refusal(
    manager_hub: Hub, app_ids: list[str], value: bool, *, confirm: bool = False
) -> ToolError:
    with pytest.raises(ToolError) as refused:
        await _set(manager_hub, app_ids, value, confirm=confirm)
    return refused.value


async def test_set_false_then_true_read_back(emu: HubEmulator, manager_hub: Hub) -> None:
    apps = set(emu.state.apps)
    data = await _set(manager_hub, [str(RULE_MOTION)], False)
    assert data["verified"] is True and data["helper_removed"] is True, data
    row = data["results"][0]
    assert row["app_id"] == str(RULE_MOTION) and row["private_boolean"] is False
    assert row["before"] is True and "unchanged" not in row
    assert "warning" not in data
    assert (await listed(manager_hub))[str(RULE_MOTION)] is False
    assert emu.state.dev.internals[RULE_MOTION].state["privateBoolean"] is False
    assert set(emu.state.apps) == apps  # the helper rule is gone
    helper = int(data["helper_app_id"])
    assert helper not in emu.state.apps and helper not in emu.rule_machine.rules
    # the other way, two rules at once (the leak rule sounds a siren: confirm)
    ids = [str(RULE_MOTION), str(RULE_LEAK)]
    refused = await _refusal(manager_hub, ids, True)
    assert refused.code == "confirmation_required", refused
    data = await _set(manager_hub, ids, True, confirm=True)
    assert [r["private_boolean"] for r in data["results"]] == [True, True], data
    assert data["count"] == 2 and data["value"] is True
    shown = await listed(manager_hub)
    assert shown[str(RULE_MOTION)] is True and shown[str(RULE_LEAK)] is True
    assert set(emu.state.apps) == apps
    # already so: said per rule, still verified
    again = await _set(manager_hub, [str(RULE_MOTION)], True)
    assert again["results"][0].get("unchanged") is True and again["verified"] is True


async def test_a_rule_commanding_a_lock_needs_confirm(emu: HubEmulator, manager_hub: Hub) -> None:
    apps, sent = set(emu.state.apps), len(emu.requests)
    state = emu.state.dev.internals[RULE_GOODNIGHT].state

    def private() -> Any:
        return state["privateBoolean"]

    assert private() is True
    refused = await _refusal(manager_hub, [str(RULE_GOODNIGHT)], False)
    assert refused.code == "confirmation_required", refused
    assert "Front Door Lock" in str(refused), refused
    assert posts(emu, sent) == [] and set(emu.state.apps) == apps
    assert private() is True
    done = await _set(manager_hub, [str(RULE_GOODNIGHT)], False, confirm=True)
    assert done["verified"] is True
    assert private() is False
    assert set(emu.state.apps) == apps


async def test_refusals_change_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    apps, sent = set(emu.state.apps), len(emu.requests)
    unknown = await _refusal(manager_hub, ["99999"], True)
    assert unknown.code == "not_found" and "99999" in str(unknown)
    visual = await _refusal(manager_hub, [str(VRB_PORCH)], True)
    assert "Only Rule Machine rules" in str(visual), visual
    basic = await _refusal(manager_hub, [str(RULE_MOTION), str(BR_PORCH)], False)
    assert f"app {BR_PORCH}" in str(basic), basic
    assert posts(emu, sent) == [] and set(emu.state.apps) == apps
    assert emu.state.dev.internals[RULE_MOTION].state["privateBoolean"] is True


async def test_a_failure_after_the_build_leaves_no_helper(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    apps = set(emu.state.apps)
    runner = emu.rule_engine
    emu.rule_engine = FailingEngine(emu, runner, {"/installedapp/statusJson": 500})
    failed = await _refusal(manager_hub, [str(RULE_MOTION)], False)
    assert "helper rule" in str(failed) and "was removed" in str(failed), failed
    assert failed.outcome == "failed" and failed.extra is None
    emu.faults.fail_paths.clear()
    assert set(emu.state.apps) == apps


async def test_a_helper_that_cannot_be_deleted_is_named(emu: HubEmulator, manager_hub: Hub) -> None:
    apps = set(emu.state.apps)
    runner = emu.rule_engine
    emu.rule_engine = FailingEngine(emu, runner, {"/installedapp/forcedelete": 500})
    data = await _set(manager_hub, [str(RULE_MOTION)], False)
    helper = data["helper_app_id"]
    assert data["helper_removed"] is False and helper in data["warning"], data
    assert data["verified"] is True
    emu.faults.fail_paths.clear()
    assert set(emu.state.apps) == apps | {int(helper)}


async def test_a_cancel_at_any_point_leaves_no_helper(emu: HubEmulator, manager_hub: Hub) -> None:
    """A call cancelled while the helper is built, checked, resumed or run (a client gone,
    mcp_server's time-out) leaves no helper rule: one whose id never came back is found by
    its name."""
    apps = set(emu.state.apps)
    emu.faults.delay_paths = {"/installedapp/": 0.02}  # room to land inside each step
    for steps in (3, 12, 25, 40, 60, 90):
        task = asyncio.ensure_future(_set(manager_hub, [str(RULE_MOTION)], False))
        start = len(emu.requests)
        for _ in range(2000):  # until that many requests went out (at most 10 s)
            if len(emu.requests) - start >= steps or task.done():
                break
            await asyncio.sleep(0.005)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await emu.clock.settle()
        assert set(emu.state.apps) == apps, (steps, set(emu.state.apps) - apps)


async def test_start_resets_the_private_boolean(emu: HubEmulator, manager_hub: Hub) -> None:
    """Stop then Start sets a rule's private boolean back to true, as Rule Machine does; the
    runner, which the rule's conditions read, follows."""
    spec = {
        "name": "Flagged",
        "triggers": [{"time": "07:00"}],
        "actions": [{"log": "ran"}],
    }
    made = await manager_hub.rule_authoring.create(spec, confirm=False, validate_only=False)
    app_id = str(made["app_id"])
    await _set(manager_hub, [app_id], False)
    assert (await listed(manager_hub))[app_id] is False
    await manager_hub.rules.call_rule(app_id, "stop")
    assert (await listed(manager_hub))[app_id] is False  # Stop keeps it
    await manager_hub.rules.call_rule(app_id, "start")
    assert (await listed(manager_hub))[app_id] is True
    runner = emu.rule_machine.engine
    assert isinstance(runner, RuleRunner) and runner.private.get(int(app_id)) is True
