"""Safety by effect: every path that makes a sensitive thing act asks, as the direct tool does.

Each test first shows the path exists (the confirmed call acts), then that the same call
without confirm (or reaching a device outside the allowlist) is refused with nothing changed,
and that the refusal names what the call reaches.
"""

from __future__ import annotations

import json
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES, OPT_DISABLED_TOOLS
from hubitat_emulator import HubEmulator
from hubitat_emulator.scenes import SCENE_LOCKUP
from hubitat_emulator.seed_specs import RULE_GOODNIGHT, RULE_MOTION

from ..conftest import ToolCaller, ok, refused, until
from ..home_util import dev_id
from .hostile_effects_util import changes_since, set_options


def runs(hub: HubEmulator, rule: int) -> int:
    return hub.state.dev.internals[rule].runs


async def lock_rule(call_tool: ToolCaller, hub: HubEmulator, name: str = "Lock at night") -> str:
    """A rule (built through the tools, confirmed) whose action locks the Back Door Lock."""
    spec = {
        "name": name,
        "triggers": [
            {"device_id": dev_id(hub, "Office Motion"), "attribute": "motion", "is": "active"}
        ],
        "actions": [{"command": "lock", "device_ids": [dev_id(hub, "Back Door Lock")]}],
    }
    data = await ok(call_tool, "hub_create_rule", {"rule": spec, "confirm": True})
    return str(data["app_id"])


# ------------------------------------------------------------ a rule's page button


async def test_pressing_run_actions_on_a_lock_rules_page_needs_confirm(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    args = {"app_id": str(RULE_GOODNIGHT), "press": "runRuleAct"}
    before, count = len(hub.requests), runs(hub, RULE_GOODNIGHT)
    data = await refused(call_tool, "hub_update_app_settings", args, "confirmation_required")
    assert "Goodnight" in data["message"] and "Front Door" in data["message"], data
    assert changes_since(hub, before) == [] and runs(hub, RULE_GOODNIGHT) == count
    # hub_call_rule disabled does not open this path either
    set_options(hass, entry, **{OPT_DISABLED_TOOLS: ["hub_call_rule"]})
    await refused(call_tool, "hub_update_app_settings", args, "confirmation_required")
    # the path exists: confirmed, the button runs the rule
    await ok(call_tool, "hub_update_app_settings", {**args, "confirm": True})
    assert runs(hub, RULE_GOODNIGHT) == count + 1
    # a rule with nothing sensitive is pressed without confirm
    await ok(
        call_tool, "hub_update_app_settings", {"app_id": str(RULE_MOTION), "press": "runRuleAct"}
    )


# ------------------------------------------------------------ a rule running a rule


async def test_a_rule_that_runs_a_lock_rule_is_sensitive(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    target = await lock_rule(call_tool, hub)
    spec = {
        "name": "Runs the lock rule",
        "triggers": [
            {"device_id": dev_id(hub, "Office Motion"), "attribute": "motion", "is": "inactive"}
        ],
        "actions": [{"run_rule": [target]}],
    }
    apps_before = set(hub.state.apps)
    data = await refused(call_tool, "hub_create_rule", {"rule": spec}, "confirmation_required")
    assert f"rule {target}" in data["message"] and "Back Door Lock" in data["message"], data
    assert set(hub.state.apps) == apps_before
    for action in ({"resume_rules": [target]}, {"set_private_boolean": True, "rule_ids": [target]}):
        other = {**spec, "actions": [action]}
        await refused(call_tool, "hub_create_rule", {"rule": other}, "confirmation_required")
    made = await ok(call_tool, "hub_create_rule", {"rule": spec, "confirm": True})
    runner = str(made["app_id"])
    # its own Run Actions, and running it, are gated too (transitively)
    data = await refused(
        call_tool,
        "hub_call_rule",
        {"app_id": runner, "action": "run_actions"},
        "confirmation_required",
    )
    assert "Back Door Lock" in data["message"]
    await refused(
        call_tool,
        "hub_update_app_settings",
        {"app_id": runner, "press": "runRuleAct"},
        "confirmation_required",
    )
    # resuming, enabling and an enabled copy of it
    await ok(call_tool, "hub_set_rule_paused", {"app_id": runner, "paused": True})
    await refused(
        call_tool,
        "hub_set_rule_paused",
        {"app_id": runner, "paused": False},
        "confirmation_required",
    )
    await ok(call_tool, "hub_set_rule_paused", {"app_id": runner, "paused": False, "confirm": True})
    await ok(call_tool, "hub_set_app_disabled", {"app_id": runner, "disabled": True})
    await refused(
        call_tool,
        "hub_set_app_disabled",
        {"app_id": runner, "disabled": False},
        "confirmation_required",
    )
    assert hub.state.apps[int(runner)].disabled is True
    await refused(
        call_tool, "hub_clone_app", {"app_id": runner, "enable": True}, "confirmation_required"
    )


async def test_a_cycle_of_rules_running_each_other_is_judged(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    first = await ok(
        call_tool,
        "hub_create_rule",
        {
            "rule": {
                "name": "A",
                "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
                "actions": [{"command": "on", "device_ids": [dev_id(hub, "Office Light")]}],
            }
        },
    )
    second = await ok(
        call_tool,
        "hub_create_rule",
        {
            "rule": {
                "name": "B",
                "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
                "actions": [{"run_rule": [str(first["app_id"])]}],
            }
        },
    )
    # harmless both ways round: B runs A (a light), no confirm
    await ok(call_tool, "hub_call_rule", {"app_id": str(second["app_id"]), "action": "run_actions"})


# ------------------------------------------------------------ a scene's activator


async def test_a_lock_scenes_activator_is_as_sensitive_as_the_scene(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    activator, lock = dev_id(hub, "Lock Up Activator"), dev_id(hub, "Back Door Lock")
    before = len(hub.requests)
    data = await refused(
        call_tool,
        "hub_call_device_command",
        {"device_id": activator, "command": "on"},
        "confirmation_required",
    )
    assert "Lock Up" in data["message"] and "Back Door Lock" in data["message"], data
    batch = {"commands": [{"device_id": activator, "command": "on"}]}
    await refused(call_tool, "hub_call_device_command", batch, "confirmation_required")
    assert changes_since(hub, before) == []
    # only the activator allowlisted: the scene's lock is outside, so refused even confirmed
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: [activator]})
    data = await refused(
        call_tool,
        "hub_call_device_command",
        {"device_id": activator, "command": "on", "confirm": True},
        "device_not_allowed",
    )
    assert lock in data["message"]
    await refused(
        call_tool,
        "hub_call_scene",
        {"scene": str(SCENE_LOCKUP), "confirm": True},
        "device_not_allowed",
    )
    assert changes_since(hub, before) == []
    # the path exists: with the allowlist lifted and confirm, the scene locks the door
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: []})
    hub.set_device_attribute(int(lock), "lock", "unlocked")
    await ok(
        call_tool,
        "hub_call_device_command",
        {"device_id": activator, "command": "on", "confirm": True},
    )
    await until(lambda: hub.find_device("Back Door Lock")["attributes"]["lock"] == "locked")


# ------------------------------------------------------------ imports given as text


async def test_an_export_given_as_text_is_checked_like_an_object(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rule = await lock_rule(call_tool, hub)
    export = (await ok(call_tool, "hub_export_app", {"app_id": rule}))["export"]
    lock = dev_id(hub, "Back Door Lock")
    apps_before = set(hub.state.apps)
    for given in (export, json.dumps(export)):
        data = await refused(
            call_tool,
            "hub_import_app",
            {"export": given, "enable": True},
            "confirmation_required",
        )
        assert "Back Door Lock" in data["message"], data
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: [dev_id(hub, "Office Motion")]})
    for given in (export, json.dumps(export)):
        data = await refused(call_tool, "hub_import_app", {"export": given}, "device_not_allowed")
        assert lock in data["message"], data
    assert set(hub.state.apps) == apps_before
    set_options(hass, entry, **{OPT_ALLOWED_DEVICES: []})
    made = await ok(call_tool, "hub_import_app", {"export": json.dumps(export)})
    assert made["enabled"] is False  # starts disabled: no confirm needed for that


# ------------------------------------------------------------ safety systems, dashboards


async def test_mode_manager_edits_need_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    args: dict[str, Any] = {"manager": "none"}
    before = len(hub.requests)
    data = await refused(call_tool, "hub_update_mode_manager", args, "confirmation_required")
    assert "Mode Manager" in data["message"]
    assert changes_since(hub, before) == []
    await ok(call_tool, "hub_update_mode_manager", {**args, "confirm": True})


async def test_a_lock_on_a_dashboard_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    board = (await ok(call_tool, "hub_create_dashboard", {"name": "Hall"}))["dashboard_id"]
    lock = dev_id(hub, "Front Door Lock")
    before = len(hub.requests)
    args = {"dashboard_id": str(board), "add_device_ids": [lock]}
    data = await refused(call_tool, "hub_update_dashboard", args, "confirmation_required")
    assert "Front Door Lock" in data["message"]
    await refused(
        call_tool,
        "hub_create_dashboard",
        {"name": "Doors", "device_ids": [lock]},
        "confirmation_required",
    )
    assert changes_since(hub, before) == []
    await ok(call_tool, "hub_update_dashboard", {**args, "confirm": True})
    light = dev_id(hub, "Office Light")
    await ok(
        call_tool, "hub_update_dashboard", {"dashboard_id": str(board), "add_device_ids": [light]}
    )


# ------------------------------------------------------------ a rule writing over a file


async def test_a_rule_that_overwrites_a_file_is_held_to_hub_write_files_rules(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.backups.clear()  # no hub backup yet
    hub.files.write("notes.txt", b"keep me")
    spec = {
        "name": "Overwriter",
        "triggers": [
            {"device_id": dev_id(hub, "Office Motion"), "attribute": "motion", "is": "active"}
        ],
        "actions": [{"write_file": "notes.txt", "text": "gone"}],
    }
    data = await refused(call_tool, "hub_create_rule", {"rule": spec}, "confirmation_required")
    assert "notes.txt" in data["message"]
    await refused(call_tool, "hub_create_rule", {"rule": spec, "confirm": True}, "backup_required")
    hub.mark_backup_now()
    await ok(call_tool, "hub_create_rule", {"rule": spec, "confirm": True})
    # a new file needs neither
    fresh = {**spec, "name": "New file", "actions": [{"write_file": "fresh.txt", "text": "x"}]}
    await ok(call_tool, "hub_create_rule", {"rule": fresh})


# ------------------------------------------------------------ Matter sharing, page renders


async def test_opening_a_pairing_window_for_a_lock_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = dev_id(hub, "Front Door Lock")
    hub.ops.radio_state.matter_nodes.append(
        {"nodeId": 3002, "online": True, "id": int(lock), "name": "Front Door Lock"}
    )
    args = {"radio": "matter", "action": "open_pairing_window", "node_id": 3002}
    before = len(hub.requests)
    data = await refused(call_tool, "hub_call_radio_action", args, "confirmation_required")
    assert "Front Door Lock" in data["message"] and "setup_code" not in data
    assert [p for _m, p in hub.requests[before:] if "openPairingWindow" in p] == []
    window = await ok(call_tool, "hub_call_radio_action", {**args, "confirm": True})
    assert window["setup_code"]


async def test_rendering_a_named_page_is_audited_as_a_change(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOW_WRITE

    main = await ok(call_tool, "hub_get_app", {"app_id": str(RULE_MOTION)})
    audit = await ok(call_tool, "hub_list_audit_entries", {})
    count = len(audit["entries"])
    named = await call_tool("hub_get_app", {"app_id": str(RULE_MOTION), "page": "mainPage"})
    assert not named.error and main["app_id"] == named.data["app_id"]
    await call_tool("hub_get_app", {"app_id": str(RULE_MOTION), "page": "otherPage"})
    after = await ok(call_tool, "hub_list_audit_entries", {})
    assert len(after["entries"]) == count + 1
    assert after["entries"][0]["tool"] == "hub_get_app"
    set_options(hass, entry, **{OPT_ALLOW_WRITE: False})
    await refused(
        call_tool,
        "hub_get_app",
        {"app_id": str(RULE_MOTION), "page": "otherPage"},
        "writes_disabled",
    )
    await ok(call_tool, "hub_get_app", {"app_id": str(RULE_MOTION)})
