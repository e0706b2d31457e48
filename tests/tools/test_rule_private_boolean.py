"""hub_set_rule_private_boolean: a helper rule with one Set Private Boolean action, run once by
its Run Actions button and deleted, against the emulated Rule Machine and its rule runner."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.rule_definition import RuleDefinition, RuleEngine
from hubitat_emulator.rule_runner import RuleRunner
from hubitat_emulator.seed_specs import BR_PORCH, RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..conftest import ToolCaller, ok, refused

TOOL = "hub_set_rule_private_boolean"


async def listed(call_tool: ToolCaller) -> dict[str, Any]:
    data = await ok(call_tool, "hub_list_rules", {"engine": "rule_machine"})
    return {r["app_id"]: r.get("private_boolean") for r in data["rules"]}


def posts(hub: HubEmulator, since: int) -> list[str]:
    return [p for m, p in hub.requests[since:] if m == "POST"]


async def test_set_false_then_true_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    apps = set(hub.state.apps)
    data = await ok(
        call_tool, "hub_set_rule_private_boolean", {"app_id": str(RULE_MOTION), "value": False}
    )
    assert data["verified"] is True and data["helper_removed"] is True, data
    row = data["results"][0]
    assert row["app_id"] == str(RULE_MOTION) and row["private_boolean"] is False
    assert "warning" not in data
    assert (await listed(call_tool))[str(RULE_MOTION)] is False
    assert set(hub.state.apps) == apps  # the helper rule is gone
    helper = int(data["helper_app_id"])
    assert helper not in hub.state.apps and helper not in hub.rule_machine.rules
    # the other way, two rules at once (the leak rule sounds a siren: confirm)
    args = {"app_ids": [str(RULE_MOTION), str(RULE_LEAK)], "value": True}
    await refused(call_tool, TOOL, args, "confirmation_required")
    data = await ok(call_tool, TOOL, {**args, "confirm": True})
    assert [r["private_boolean"] for r in data["results"]] == [True, True], data
    shown = await listed(call_tool)
    assert shown[str(RULE_MOTION)] is True and shown[str(RULE_LEAK)] is True
    assert set(hub.state.apps) == apps
    # already so: said per rule, still verified
    again = await ok(call_tool, TOOL, {"app_id": str(RULE_MOTION), "value": True})
    assert again["results"][0].get("unchanged") is True and again["verified"] is True


async def test_a_rule_commanding_a_lock_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    apps, sent = set(hub.state.apps), len(hub.requests)
    state = hub.state.dev.internals[RULE_GOODNIGHT].state

    def private() -> Any:
        return state["privateBoolean"]

    assert private() is True
    args = {"app_id": str(RULE_GOODNIGHT), "value": False}
    data = await refused(call_tool, TOOL, args, "confirmation_required")
    assert "Front Door Lock" in data["message"], data
    assert posts(hub, sent) == [] and set(hub.state.apps) == apps
    assert private() is True
    done = await ok(call_tool, TOOL, {**args, "confirm": True})
    assert done["verified"] is True
    assert private() is False
    assert set(hub.state.apps) == apps


async def test_refusals_change_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    apps, sent = set(hub.state.apps), len(hub.requests)
    unknown = await refused(call_tool, TOOL, {"app_id": "99999", "value": True}, "not_found")
    assert "99999" in unknown["message"]
    visual = await refused(call_tool, TOOL, {"app_id": str(VRB_PORCH), "value": True})
    assert "Only Rule Machine rules" in visual["message"], visual
    mixed = {"app_ids": [str(RULE_MOTION), str(BR_PORCH)], "value": False}
    basic = await refused(call_tool, TOOL, mixed)
    assert f"app {BR_PORCH}" in basic["message"], basic
    await refused(call_tool, TOOL, {"value": True})
    assert posts(hub, sent) == [] and set(hub.state.apps) == apps
    assert hub.state.dev.internals[RULE_MOTION].state["privateBoolean"] is True


class _Failing:
    """The hub's rule engine, with a fault switched on once the helper's actions ran."""

    def __init__(self, hub: HubEmulator, inner: RuleEngine, fail: dict[str, int]) -> None:
        self.hub, self.inner, self.fail = hub, inner, fail

    def install(self, rule: RuleDefinition) -> None:
        self.inner.install(rule)

    def remove(self, app_id: int) -> None:
        self.inner.remove(app_id)

    def run_actions(self, app_id: int) -> None:
        self.inner.run_actions(app_id)
        self.hub.faults.fail_paths.update(self.fail)

    def shutdown(self) -> None:
        self.inner.shutdown()

    def set_private_boolean(self, app_ids: list[int], value: bool) -> None:
        self.inner.set_private_boolean(app_ids, value)


async def test_a_failure_after_the_build_leaves_no_helper(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    apps = set(hub.state.apps)
    runner = hub.rule_engine
    hub.rule_engine = _Failing(hub, runner, {"/installedapp/statusJson": 500})
    data = await refused(call_tool, TOOL, {"app_id": str(RULE_MOTION), "value": False})
    assert "helper rule" in data["message"] and "was removed" in data["message"], data
    hub.faults.fail_paths.clear()
    assert set(hub.state.apps) == apps


async def test_a_helper_that_cannot_be_deleted_is_named(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    apps = set(hub.state.apps)
    runner = hub.rule_engine
    hub.rule_engine = _Failing(hub, runner, {"/installedapp/forcedelete": 500})
    data = await ok(call_tool, TOOL, {"app_id": str(RULE_MOTION), "value": False})
    helper = data["helper_app_id"]
    assert data["helper_removed"] is False and helper in data["warning"], data
    assert data["verified"] is True
    hub.faults.fail_paths.clear()
    assert set(hub.state.apps) == apps | {int(helper)}


async def test_a_cancel_at_any_point_leaves_no_helper(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A call cancelled while the helper is built, checked, resumed or run (a client gone,
    mcp_server's time-out) leaves no helper rule: one whose id never came back is found by
    its name."""
    apps = set(hub.state.apps)
    args = {"app_id": str(RULE_MOTION), "value": False}
    hub.faults.delay_paths = {"/installedapp/": 0.02}  # room to land inside each step
    for steps in (3, 12, 25, 40, 60, 90):
        task = asyncio.ensure_future(call_tool(TOOL, args))
        start = len(hub.requests)
        for _ in range(2000):  # until that many requests went out (at most 10 s)
            if len(hub.requests) - start >= steps or task.done():
                break
            await asyncio.sleep(0.005)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await hub.clock.settle()
        assert set(hub.state.apps) == apps, (steps, set(hub.state.apps) - apps)


async def test_start_resets_the_private_boolean(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Stop then Start sets a rule's private boolean back to true, as Rule Machine does; the
    runner, which the rule's conditions read, follows."""
    spec = {
        "name": "Flagged",
        "triggers": [{"time": "07:00"}],
        "actions": [{"log": "ran"}],
    }
    made = await ok(call_tool, "hub_create_rule", {"rule": spec})
    app_id = str(made["app_id"])
    await ok(call_tool, TOOL, {"app_id": app_id, "value": False})
    assert (await listed(call_tool))[app_id] is False
    await ok(call_tool, "hub_call_rule", {"app_id": app_id, "action": "stop"})
    assert (await listed(call_tool))[app_id] is False  # Stop keeps it
    await ok(call_tool, "hub_call_rule", {"app_id": app_id, "action": "start"})
    assert (await listed(call_tool))[app_id] is True
    runner = hub.rule_machine.engine
    assert isinstance(runner, RuleRunner) and runner.private.get(int(app_id)) is True
