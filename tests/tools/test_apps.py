"""Installed apps, Rule Machine and Visual Rules tools against the emulated hub: the gates,
argument refusals, error codes, summaries and paging, and one call of each tool with its
answer checked. The app, rule, Visual Rule and HPM logic is tested without hass in
tests/managers (test_installed.py, with the app names shown decoded; test_rules.py, with the
engines of the listing, one rule's health and the local variables; test_visual_rules.py;
test_hpm.py). How the library reads the real hub's answers (the app tree, a config page and
status, click and submit answers, the Visual Rule answers) is tested without hass in
tests/hub/test_apps.py and tests/hub/test_app_page.py."""

from __future__ import annotations

import importlib

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, VRB_PORCH
from hubitat_emulator.seed import RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..conftest import ToolCaller


def writes(hub: HubEmulator) -> list[str]:
    return [
        p
        for m, p in hub.requests
        if m == "POST" or "delete" in p or "ruleBuilderPause" in p or "create" in p
    ]


async def test_list_apps_tool_pages_and_refuses_an_unknown_kind(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the paged answer and the argument refusal (the tree and its filters:
    tests/managers/test_installed.py)."""
    first = await call_tool("hub_list_apps", {"kind": "user", "limit": 1})
    assert not first.error, first.data
    assert len(first.data["apps"]) == 1 and first.data["total"] == 2
    rest = await call_tool("hub_list_apps", {"kind": "user", "cursor": first.data["next_cursor"]})
    assert "next_cursor" not in rest.data
    assert {a["name"] for a in first.data["apps"] + rest.data["apps"]} == {
        "Hall motion announcer",
        "Hubitat Package Manager",
    }
    before = len(hub.requests)
    bad = await call_tool("hub_list_apps", {"kind": "weird"})
    assert bad.error and bad.data["error"] == "invalid_arguments"
    assert len(hub.requests) == before


async def test_get_app_tool_reads_the_state_and_refuses(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    """The tool's part: the state read unless asked not to, the error codes and the argument
    refusal (the page and the state: tests/managers/test_installed.py)."""
    result = await call_tool("hub_get_app", {"app_id": RULE_MOTION})
    assert not result.error, result.data
    assert result.data["state"]["allLocalVars"]["timeout"]["value"] == 300
    missing = await call_tool("hub_get_app", {"app_id": 9999})
    assert missing.error and missing.data["error"] == "not_found"
    bad = await call_tool("hub_get_app", {"app_id": 1, "page": "../x"})
    assert bad.error and bad.data["error"] == "invalid_arguments"


async def test_set_app_disabled_tool_says_what_it_did(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its summaries (disabling and enabling read back:
    tests/managers/test_installed.py)."""
    args = {"app_id": APP_ANNOUNCER, "disabled": True}
    result = await call_tool("hub_set_app_disabled", args)
    assert not result.error, result.data
    assert result.data["summary"] == f"App {APP_ANNOUNCER} (Hall motion announcer) disabled"
    again = await call_tool("hub_set_app_disabled", args)
    assert again.data["summary"].endswith(" disabled (already)"), again.data
    enabled = await call_tool("hub_set_app_disabled", {**args, "disabled": False})
    assert enabled.data["summary"].endswith(") enabled"), enabled.data
    assert hub.state.apps[APP_ANNOUNCER].disabled is False


async def test_delete_app_gate_and_backup(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the confirmation and backup gates, the summary and the force argument
    (the item backup taken first, the built-in parent refused and the soft delete decided by
    its effect: tests/managers/test_installed.py)."""
    refused = await call_tool("hub_delete_app", {"app_id": RULE_GOODNIGHT})
    assert refused.error and refused.data["error"] == "confirmation_required"
    no_backup = await call_tool("hub_delete_app", {"app_id": RULE_GOODNIGHT, "confirm": True})
    assert no_backup.error and no_backup.data["error"] == "backup_required"
    assert RULE_GOODNIGHT in hub.state.apps
    hub.mark_backup_now()
    ok = await call_tool("hub_delete_app", {"app_id": RULE_GOODNIGHT, "confirm": True})
    assert not ok.error, ok.data
    assert RULE_GOODNIGHT not in hub.state.apps
    backup = ok.data["item_backup"]["backup"]
    assert ok.data["summary"].startswith(f"Deleted app {RULE_GOODNIGHT} (")
    assert ok.data["summary"].endswith(f"; backup {backup}") and hub.files.read(backup)
    # force=false reaches the hub as its soft delete
    soft = await call_tool("hub_delete_app", {"app_id": RULE_LEAK, "confirm": True, "force": False})
    assert not soft.error, soft.data
    assert f"/installedapp/delete/{RULE_LEAK}" in [p for _m, p in hub.requests]


async def test_hpm_packages_tool_answers_the_report(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    """The tool's part: it answers the manager's report (the packages, their drift and the
    untracked code: tests/managers/test_hpm.py)."""
    result = await call_tool("hub_list_hpm_packages")
    assert not result.error, result.data
    assert set(result.data) >= {"hpm_app_id", "packages", "packages_with_drift", "untracked_code"}
    assert "Acme Tools" in {p["name"] for p in result.data["packages"]}


async def test_list_rules_and_health_tools_answer(
    entry: MockConfigEntry, call_tool: ToolCaller
) -> None:
    """The tools' part: the answers and the refusal's error code (the engines and states
    listed and the health read: tests/managers/test_rules.py)."""
    result = await call_tool("hub_list_rules")
    assert not result.error, result.data
    rules = {r["app_id"]: r for r in result.data["rules"]}
    assert result.data["count"] == len(rules)
    assert rules[str(RULE_MOTION)]["engine"] == "rule_machine"
    assert rules[str(VRB_PORCH)]["engine"] == "visual"
    health = await call_tool("hub_get_rule_health", {"app_id": RULE_LEAK})
    assert not health.error, health.data
    assert health.data["healthy"] is False
    assert health.data["broken_markers"] and health.data["compiled_broken"] is True
    ok = await call_tool("hub_get_rule_health", {"app_id": RULE_MOTION})
    assert ok.data["healthy"] is True
    not_rule = await call_tool("hub_get_rule_health", {"app_id": APP_ANNOUNCER})
    assert not_rule.error and not_rule.data["error"] == "invalid_request"


async def test_local_variables_tool_answers(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    """The tool's part: the answer and the refusal's error code (the variables read:
    tests/managers/test_rules.py)."""
    result = await call_tool("hub_list_rule_local_variables", {"app_id": RULE_MOTION})
    assert result.data["variables"] == [{"name": "timeout", "type": "integer", "value": 300}]
    vrb = await call_tool("hub_list_rule_local_variables", {"app_id": VRB_PORCH})
    assert vrb.error and vrb.data["error"] == "invalid_request"


async def test_call_rule_and_pause_tools_refuse_and_summarize(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the argument refusal that sends nothing and the summaries (running,
    stopping and pausing read back: tests/managers/test_rules.py)."""
    before = len(hub.requests)
    bad = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "explode"})
    assert bad.error and bad.data["error"] == "invalid_arguments" and len(hub.requests) == before
    stop = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "stop"})
    assert not stop.error, stop.data
    assert stop.data["summary"] == f"stop on rule {RULE_MOTION} (Motion Lights - Kitchen)"
    again = await call_tool("hub_call_rule", {"app_id": RULE_MOTION, "action": "stop"})
    assert again.data["summary"].endswith(" (already so)"), again.data
    paused = await call_tool("hub_set_rule_paused", {"app_id": RULE_MOTION, "paused": True})
    assert paused.data["summary"] == f"Rule {RULE_MOTION} (Motion Lights - Kitchen) paused"
    twice = await call_tool("hub_set_rule_paused", {"app_id": RULE_MOTION, "paused": True})
    assert twice.data["summary"].endswith(" paused (already so)"), twice.data
    assert hub.state.dev.internals[RULE_MOTION].state["paused"] is True


async def test_visual_rule_tools_gate_refuse_and_summarize(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the summaries, the "nothing to change" refusal and the delete's
    confirmation (reading, creating, merging and deleting: tests/managers/test_visual_rules.py)."""
    got = await call_tool("hub_get_visual_rule", {"app_id": VRB_PORCH})
    assert got.data["format"] == "classic"
    nodes = got.data["definition"]
    created = await call_tool(
        "hub_create_visual_rule",
        {"name": "Copy", "when_nodes": nodes["whenNodes"], "then_nodes": nodes["thenNodes"]},
    )
    assert not created.error, created.data
    new_id = int(created.data["app_id"])
    assert created.data["summary"] == f"Created Visual Rule {new_id} (Copy)"
    updated = await call_tool("hub_update_visual_rule", {"app_id": new_id, "name": "Renamed"})
    assert not updated.error, updated.data
    assert updated.data["summary"] == f"Updated Visual Rule {new_id}"
    before = len(hub.requests)
    empty = await call_tool("hub_update_visual_rule", {"app_id": new_id})
    assert empty.error and empty.data["error"] == "invalid_request"
    assert hub.requests[before:] == []
    gate = await call_tool("hub_delete_visual_rule", {"app_id": new_id})
    assert gate.error and gate.data["error"] == "confirmation_required"
    assert new_id in hub.state.apps
    hub.mark_backup_now()
    deleted = await call_tool("hub_delete_visual_rule", {"app_id": new_id, "confirm": True})
    assert not deleted.error, deleted.data
    assert deleted.data["summary"] == f"Deleted Visual Rule {new_id} (Renamed)"
    assert new_id not in hub.state.apps


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
