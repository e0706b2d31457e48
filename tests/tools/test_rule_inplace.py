"""hub_update_rule edits a rule in place: the same app id, everything of the old rule
removed through its pages (actions, Required Expression, triggers, local variables) and the
new spec built and verified; a disabled rule stays disabled; a rule whose pages refuse the
deletes is rebuilt instead, one whose owner has an action editor open is left alone; a
cancelled update puts the old rule back."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, until
from ..home_util import dev_id


def _rules(hub: HubEmulator) -> set[int]:
    return {a.id for a in hub.state.apps.values() if a.type == "Rule-5.1"}


def _old(hub: HubEmulator) -> dict[str, Any]:
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
    button = dev_id(hub, "Bedside Button")
    return {
        "name": "Office helper",
        "triggers": [
            {"device_id": motion, "attribute": "motion", "is": "active"},
            {"button_device_id": button, "button": 1, "event": "pushed"},
        ],
        "conditions": {"not": {"mode": ["Away"]}},
        "local_variables": [{"name": "visits", "type": "integer", "value": 0}],
        "actions": [
            {
                "if": {"device_id": light, "attribute": "switch", "is": "off"},
                "then": [{"command": "on", "device_ids": [light]}],
                "else": [{"log": "already on"}],
            },
            {"set_variable": "visits", "value": 1},
        ],
    }


def _new(hub: HubEmulator) -> dict[str, Any]:
    light, button = dev_id(hub, "Office Light"), dev_id(hub, "Bedside Button")
    return {
        "name": "Office off button",
        "triggers": [{"button_device_id": button, "button": 1, "event": "held"}],
        "actions": [{"command": "off", "device_ids": [light]}],
    }


async def _made(call_tool: ToolCaller, spec: dict[str, Any]) -> str:
    made = await call_tool("hub_create_rule", {"rule": spec})
    assert not made.error, made.data
    return str(made.data["app_id"])


async def test_an_update_is_made_in_place_and_the_rule_keeps_its_app_id(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    rules = _rules(hub)
    new = _new(hub)
    updated = await call_tool("hub_update_rule", {"app_id": app_id, "rule": new})
    assert not updated.error, updated.data
    data = updated.data
    assert data["app_id"] == app_id and data["edited_in_place"] is True, data
    assert data["removed"] == {
        "actions": 6,  # IF, then, ELSE, else, END-IF, set variable
        "triggers": 2,
        "local_variables": 1,
        "required_expression": 1,
    }
    assert data["item_backup"]["backup"].startswith(f"hdt-backup_installedapp-{app_id}_")
    assert _rules(hub) == rules
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["undecompiled"] == [] and got["paused"] is False
    assert {k: got["spec"][k] for k in new} == new and "conditions" not in got["spec"]
    assert hub.state.apps[int(app_id)].label == "Office off button"

    light, motion = dev_id(hub, "Office Light"), dev_id(hub, "Office Motion")
    button = dev_id(hub, "Bedside Button")
    hub.run_command(int(light), "off", [])
    hub.set_device_attribute(int(motion), "motion", "inactive")
    hub.set_device_attribute(int(motion), "motion", "active")  # the old trigger: gone
    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    assert hub.device(int(light))["attributes"]["switch"] == "off"
    hub.run_command(int(light), "on", [])
    hub.run_command(int(button), "hold", [1])
    await hub.clock.settle()
    assert hub.device(int(light))["attributes"]["switch"] == "off"


async def test_a_disabled_rule_is_edited_and_stays_disabled(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    # Rule Machine ignores deletes on it (on-hub server)
    hub.state.apps[int(app_id)].disabled = True
    patch = [{"op": "replace", "path": "/actions/1/value", "value": 2}]
    updated = await call_tool("hub_update_rule", {"app_id": app_id, "patch": patch})
    assert not updated.error, updated.data
    assert updated.data["edited_in_place"] is True and updated.data["enabled"] is False
    assert hub.state.apps[int(app_id)].disabled is True
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["spec"]["actions"][1] == {"set_variable": "visits", "value": 2}


async def test_pages_that_refuse_the_deletes_get_a_rebuilt_rule_and_say_why(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    hub.rule_machine.hidden_fields = ["trashAll"]  # a firmware without the Delete button
    updated = await call_tool("hub_update_rule", {"app_id": app_id, "rule": _new(hub)})
    hub.rule_machine.hidden_fields = []
    assert not updated.error, updated.data
    data = updated.data
    assert "edited_in_place" not in data and data["replaced_app_id"] == app_id
    assert data["app_id"] != app_id and data["old_rule_removed"] is True
    assert "could not be edited in place" in data["note"] and "trashAll" in data["note"]
    assert int(app_id) not in _rules(hub)


async def test_an_owners_open_action_editor_is_left_alone_and_the_update_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    was = (await call_tool("hub_get_rule", {"app_id": app_id})).data["spec"]
    model = hub.rule_machine.rules[int(app_id)]
    model.act_n = 99  # the owner is editing an action in the hub UI
    refused = await call_tool("hub_update_rule", {"app_id": app_id, "rule": _new(hub)})
    assert refused.error and refused.data["error"] == "hub_busy", refused.data
    assert "action editor open" in refused.data["message"]
    assert model.act_n == 99 and model.paused is False  # the editor and the rule as they were
    model.act_n = None
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["spec"] == was and int(app_id) in _rules(hub)


async def test_a_cancelled_update_puts_the_old_rule_back(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    old = _old(hub)
    app_id = await _made(call_tool, old)
    rules = _rules(hub)
    was = (await call_tool("hub_get_rule", {"app_id": app_id})).data["spec"]
    model = hub.rule_machine.rules[int(app_id)]
    hub.faults.delay_paths["/installedapp/update/json"] = 0.05
    task = asyncio.create_task(call_tool("hub_update_rule", {"app_id": app_id, "rule": _new(hub)}))
    await until(lambda: not model.actions and not model.triggers, what="the rule emptied")
    await until(lambda: bool(model.triggers), what="the new build under way")
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await until(lambda: len(model.actions) == 6 and not model.paused, timeout=30, what="put back")
    hub.faults.delay_paths.clear()
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["spec"] == was and got["undecompiled"] == []
    assert _rules(hub) == rules  # the same app, and no other left behind


async def test_a_failure_before_anything_is_removed_leaves_the_rule_as_it_was(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    rules = _rules(hub)
    was = (await call_tool("hub_get_rule", {"app_id": app_id})).data["spec"]
    model = hub.rule_machine.rules[int(app_id)]
    hub.state.apps[int(app_id)].disabled = True
    hub.faults.fail_paths["/installedapp/disable"] = 500  # enabling it for the edit fails
    failed = await call_tool("hub_update_rule", {"app_id": app_id, "rule": _new(hub)})
    hub.faults.fail_paths.clear()
    assert failed.error, failed.data
    assert "put back" not in failed.data["message"]  # nothing was removed, nothing rebuilt
    assert model.paused is False and hub.state.apps[int(app_id)].disabled is True
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["spec"] == was and _rules(hub) == rules
