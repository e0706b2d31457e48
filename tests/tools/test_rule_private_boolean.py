"""hub_set_rule_private_boolean's own part: its summary and answer, the value shown by
hub_list_rules, the refusals as error results (no rule id given, an unknown app, a rule that
commands a lock without confirm), the warning that names hub_delete_app for a helper rule that
could not be deleted, and Stop and Start through hub_call_rule.

The private boolean manager itself (the helper rule built, run once and deleted, each value
read back, already so per rule, the confirm gate, refusals sending nothing, a failure or a
cancel at any point leaving no helper, Start setting the value back to true) is tested without
hass in tests/managers/test_rule_private_boolean.py."""

from __future__ import annotations

from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..conftest import ToolCaller, ok, refused
from ..helpers.rule_private_boolean import FailingEngine

TOOL = "hub_set_rule_private_boolean"


async def listed(call_tool: ToolCaller) -> dict[str, Any]:
    data = await ok(call_tool, "hub_list_rules", {"engine": "rule_machine"})
    return {r["app_id"]: r.get("private_boolean") for r in data["rules"]}


async def test_set_false_then_true_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    apps = set(hub.state.apps)
    data = await ok(
        call_tool, "hub_set_rule_private_boolean", {"app_id": str(RULE_MOTION), "value": False}
    )
    assert data["summary"] == "Private boolean false on 1 rule(s), verified", data
    assert data["verified"] is True and data["helper_removed"] is True, data
    assert data["results"][0]["private_boolean"] is False and "warning" not in data
    assert (await listed(call_tool))[str(RULE_MOTION)] is False
    assert set(hub.state.apps) == apps  # the helper rule is gone
    # the other way, two rules at once (the leak rule sounds a siren: confirm)
    args = {"app_ids": [str(RULE_MOTION), str(RULE_LEAK)], "value": True}
    await refused(call_tool, TOOL, args, "confirmation_required")
    data = await ok(call_tool, TOOL, {**args, "confirm": True})
    assert data["summary"] == "Private boolean true on 2 rule(s), verified", data
    shown = await listed(call_tool)
    assert shown[str(RULE_MOTION)] is True and shown[str(RULE_LEAK)] is True


async def test_refusals_change_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    apps, sent = set(hub.state.apps), len(hub.requests)
    none = await refused(call_tool, TOOL, {"value": True})
    assert "Give app_id or app_ids" in none["message"], none
    unknown = await refused(call_tool, TOOL, {"app_id": "99999", "value": True}, "not_found")
    assert "99999" in unknown["message"]
    lock = await refused(
        call_tool, TOOL, {"app_id": str(RULE_GOODNIGHT), "value": False}, "confirmation_required"
    )
    assert "Front Door Lock" in lock["message"], lock
    assert [p for m, p in hub.requests[sent:] if m == "POST"] == []
    assert set(hub.state.apps) == apps


async def test_a_helper_that_cannot_be_deleted_is_named(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    runner = hub.rule_engine
    hub.rule_engine = FailingEngine(hub, runner, {"/installedapp/forcedelete": 500})
    data = await ok(call_tool, TOOL, {"app_id": str(RULE_MOTION), "value": False})
    hub.faults.fail_paths.clear()
    helper = data["helper_app_id"]
    assert data["helper_removed"] is False and helper in data["warning"], data
    assert f"Or delete app {helper} with hub_delete_app." in data["warning"]
    assert data["summary"] == "Private boolean false on 1 rule(s), verified"


async def test_start_resets_the_private_boolean(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Stop then Start through hub_call_rule: the value hub_list_rules shows follows."""
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
