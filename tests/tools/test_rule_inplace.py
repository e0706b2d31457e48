"""hub_update_rule edits a rule in place, part by part: the same app id, only the parts that
differ removed, added or moved through the rule's pages, the rest untouched, and the whole rule
verified; a part the decoder does not know is kept byte for byte, and a change that would need
it removed is refused with nothing changed; a disabled rule stays disabled; pages that lack a
control the edit needs, or an owner's open action editor, get a refusal, never a new app; a
cancelled update puts the rule back."""

from __future__ import annotations

import asyncio
import contextlib
import copy
from typing import Any

import aiohttp
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import RULE_GOODNIGHT

from ..conftest import ToolCaller, until
from ..home_util import dev_id
from ..rm_util import Wizard


def _app_ids(hub: HubEmulator) -> set[int]:
    """Every installed app's id: an update makes no app and removes none."""
    return set(hub.state.apps)


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
    rules = _app_ids(hub)
    new = _new(hub)
    updated = await call_tool("hub_update_rule", {"app_id": app_id, "rule": new})
    assert not updated.error, updated.data
    data = updated.data
    assert data["app_id"] == app_id and data["edited_in_place"] is True, data
    assert data["edits"] == {
        "triggers_removed": 2,
        "triggers_added": 1,
        "actions_removed": 2,  # the IF block (IF, then, ELSE, else, END-IF), set variable
        "actions_added": 1,
        "actions_kept": 0,
        "local_variables_removed": 1,
        "local_variables_added": 0,
        "required_expression": "removed",
        "name": "changed",
    }
    assert data["item_backup"]["backup"].startswith(f"hdt-backup_installedapp-{app_id}_")
    assert _app_ids(hub) == rules
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


async def test_pages_that_lack_the_delete_control_get_a_refusal_not_a_new_rule(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    rules = _app_ids(hub)
    model = hub.rule_machine.rules[int(app_id)]
    before = copy.deepcopy(model.settings)
    hub.rule_machine.hidden_fields = ["trashAll"]  # a firmware without the Delete button
    refused = await call_tool("hub_update_rule", {"app_id": app_id, "rule": _new(hub)})
    hub.rule_machine.hidden_fields = []
    assert refused.error and refused.data["error"] == "not_supported", refused.data
    assert "trashAll" in refused.data["message"]
    assert "hub_update_app_settings" in refused.data["hint"]
    assert _app_ids(hub) == rules and model.settings == before and model.paused is False


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
    assert got["spec"] == was and int(app_id) in _app_ids(hub)


async def test_a_cancelled_update_puts_the_old_rule_back(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    old = _old(hub)
    app_id = await _made(call_tool, old)
    rules = _app_ids(hub)
    was = (await call_tool("hub_get_rule", {"app_id": app_id})).data["spec"]
    model = hub.rule_machine.rules[int(app_id)]
    hub.faults.delay_paths["/installedapp/update/json"] = 0.05
    task = asyncio.create_task(call_tool("hub_update_rule", {"app_id": app_id, "rule": _new(hub)}))
    await until(lambda: len(model.actions) < 6, what="the old actions removed")
    await until(lambda: len(model.triggers) < 2, what="an old trigger removed")
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await until(lambda: len(model.actions) == 6 and not model.paused, timeout=30, what="put back")
    hub.faults.delay_paths.clear()
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["spec"] == was and got["undecompiled"] == []
    assert _app_ids(hub) == rules  # the same app, and no other left behind


async def test_a_failure_before_anything_is_removed_leaves_the_rule_as_it_was(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    rules = _app_ids(hub)
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
    assert got["spec"] == was and _app_ids(hub) == rules


# ------------------------------------------------------------ parts the decoder does not know


def _hall(hub: HubEmulator) -> dict[str, Any]:
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
    return {
        "name": "Hall helper",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"command": "on", "device_ids": [light]}, {"log": "hello"}],
    }


async def _with_unknown_parts(hub: HubEmulator, app_id: str) -> tuple[int, int]:
    """Add two actions the decoder does not know through the rule's raw pages (the requests
    the hub UI sends): a private boolean set on this rule and on another (read as a
    placeholder), and a log with a delay (read as a log, its delay listed undecoded)."""
    async with aiohttp.ClientSession(base_url=hub.url) as session:
        w = Wizard(session, int(app_id))
        flag = await w.add_action(
            "rulesActs",
            "getSetPrivateBoolean",
            ("pvRuleType.<N>", "Rule Machine"),
            ("pvTF.<N>", False),
            ("privateT.<N>", ["*", str(RULE_GOODNIGHT)]),
        )
        late = await w.add_action(
            "messageActs",
            "getLogMsg",
            ("logmsg.<N>", "later"),
            ("delayAct.<N>", "hrs:min:sec"),
            ("delayHor.<N>", 0),
            ("delayMin.<N>", 1),
            ("delaySec.<N>", 0),
        )
        await w.click(None, "updateRule")
    return flag, late


def _rows_of(hub: HubEmulator, app_id: str, *rows: int) -> dict[str, Any]:
    model = hub.rule_machine.rules[int(app_id)]
    suffixes = tuple(f".{n}" for n in rows)
    return {
        "settings": {k: v for k, v in model.settings.items() if k.endswith(suffixes)},
        "meta": {k: v for k, v in model.meta.items() if k.endswith(suffixes)},
        "exprs": {n: repr(model.exprs.get(f"a{n}")) for n in rows},
    }


async def test_a_patch_to_known_parts_keeps_the_unknown_ones_as_they_are(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _hall(hub))
    flag, late = await _with_unknown_parts(hub, app_id)
    read = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert len(read["undecompiled"]) == 2, read["undecompiled"]
    assert set(read["spec"]["actions"][2]) == {"unknown"}
    assert read["spec"]["actions"][3] == {"log": "later"}  # its delay: undecoded
    kept = _rows_of(hub, app_id, flag, late)
    model = hub.rule_machine.rules[int(app_id)]
    rules = _app_ids(hub)
    patch = [
        {"op": "replace", "path": "/triggers/0/is", "value": "inactive"},
        {"op": "replace", "path": "/actions/1/log", "value": "hello again"},
        {"op": "replace", "path": "/name", "value": "Hall helper 2"},
    ]
    sent = len(hub.requests)
    plan = await call_tool(
        "hub_update_rule",
        # the kept placeholder sets Goodnight's private boolean (it commands the locks)
        {"app_id": app_id, "patch": patch, "validate_only": True, "confirm": True},
    )
    assert not plan.error and plan.data["sent"] is False, plan.data
    assert plan.data["edits"]["actions_removed"] == 1 and plan.data["edits"]["actions_kept"] == 3
    assert plan.data["spec"]["actions"][2] == read["spec"]["actions"][2]  # the placeholder kept
    assert [r for r in hub.requests[sent:] if r[0] != "GET"] == []
    updated = await call_tool(
        "hub_update_rule", {"app_id": app_id, "patch": patch, "confirm": True}
    )
    assert not updated.error, updated.data
    data = updated.data
    assert data["app_id"] == app_id and data["edits"]["actions_kept"] == 3, data
    assert data["edits"]["triggers_removed"] == 1 and data["edits"]["actions_added"] == 1
    assert _app_ids(hub) == rules  # no app made, none removed
    assert _rows_of(hub, app_id, flag, late) == kept  # byte for byte
    assert model.actions[2:] == [flag, late]  # where they were: the new log moved above them
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    want = copy.deepcopy(read["spec"])
    want["name"], want["triggers"][0]["is"] = "Hall helper 2", "inactive"
    want["actions"][1] = {"log": "hello again"}
    assert got["spec"] == want
    assert [u["why"] for u in got["undecompiled"]] == [u["why"] for u in read["undecompiled"]]


async def test_a_change_that_needs_an_unknown_part_removed_is_refused_and_changes_nothing(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _hall(hub))
    await _with_unknown_parts(hub, app_id)
    model = hub.rule_machine.rules[int(app_id)]
    before = (copy.deepcopy(model.settings), model.state(), list(model.triggers))
    rules, sent = _app_ids(hub), len(hub.requests)
    for patch, part in (
        ([{"op": "remove", "path": "/actions/2"}], "actions[2]"),  # the placeholder
        ([{"op": "replace", "path": "/actions/3/log", "value": "x"}], "actions[3]"),  # delay
        ([{"op": "move", "from": "/actions/0", "path": "/actions/3"}], None),  # not an op
    ):
        refused = await call_tool("hub_update_rule", {"app_id": app_id, "patch": patch})
        assert refused.error, refused.data
        if part is not None:
            assert refused.data["error"] == "not_supported", refused.data
            assert f"rule.{part}" in refused.data["message"]
            assert "page=selectActions" in refused.data["hint"], refused.data
    # a whole spec that swaps the two unknown actions: one of them would be made again
    spec = (await call_tool("hub_get_rule", {"app_id": app_id})).data["spec"]
    spec["actions"][2], spec["actions"][3] = spec["actions"][3], spec["actions"][2]
    refused = await call_tool("hub_update_rule", {"app_id": app_id, "rule": spec})
    assert refused.error and refused.data["error"] == "not_supported", refused.data
    assert (model.settings, model.state(), model.triggers) == before
    assert [r for r in hub.requests[sent:] if r[0] != "GET"] == []  # nothing sent
    assert _app_ids(hub) == rules


async def test_a_one_action_change_leaves_the_other_actions_alone(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, lamp = dev_id(hub, "Office Light"), dev_id(hub, "Kitchen Light")
    spec = {
        **_old(hub),
        "actions": [
            {"command": "on", "device_ids": [light]},
            {"log": "one"},
            {
                "if": {"device_id": light, "attribute": "switch", "is": "on"},
                "then": [{"command": "on", "device_ids": [lamp]}],
            },
            {"set_variable": "visits", "value": 1},
        ],
    }
    start = len(hub.requests)
    app_id = await _made(call_tool, spec)
    build = hub.requests[start:]
    model = hub.rule_machine.rules[int(app_id)]
    others = [n for i, n in enumerate(model.actions) if i != 1]
    kept = _rows_of(hub, app_id, *others)
    rules = _app_ids(hub)
    start = len(hub.requests)
    patch = [{"op": "replace", "path": "/actions/1/log", "value": "two"}]
    updated = await call_tool("hub_update_rule", {"app_id": app_id, "patch": patch})
    edit = hub.requests[start:]
    assert not updated.error, updated.data
    assert updated.data["edits"]["actions_kept"] == 3 and _app_ids(hub) == rules
    assert [n for i, n in enumerate(model.actions) if i != 1] == others  # same rows, same order
    assert _rows_of(hub, app_id, *others) == kept
    got = (await call_tool("hub_get_rule", {"app_id": app_id})).data
    assert got["spec"]["actions"][1] == {"log": "two"} and got["undecompiled"] == []
    assert "Broken" not in " ".join(got["rule_text"])  # the ghost IF cleared the context
    # a rebuild sent the whole build again, and its removals besides
    posts = [r for r in edit if r[0] == "POST"]
    built = [r for r in build if r[0] == "POST"]
    assert len(posts) * 2 < len(built) and len(edit) < len(build), (len(edit), len(build))
    print(
        f"one-action change: {len(edit)} requests ({len(posts)} POST); the rule's build "
        f"alone: {len(build)} ({len(built)} POST)"
    )
