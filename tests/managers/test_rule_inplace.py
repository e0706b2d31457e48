"""Rule authoring's in-place update (``managers/automation/``, ``hub.rule_authoring.update``)
on its own, no hass: the same app id, only the parts that differ removed, added or moved
through the rule's pages, the rest untouched, the rule backed up first and the whole rule
verified; a part the decoder does not know is kept byte for byte, and a change that would need
it removed is refused with nothing sent; a disabled rule stays disabled; pages that lack a
control the edit needs, or an owner's open action editor, get a refusal, never a new app; a
failure before anything was removed leaves the rule as it was, and a cancelled update puts the
rule back.

Moved from tests/tools/test_rule_inplace.py (the tools' answers stay there: the update's
summary, a refusal as an error result and the hints that name the tools and the page to edit
by hand)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
from typing import Any

import aiohttp
import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import RULE_GOODNIGHT

from ..conftest import until
from ..helpers.rule_inplace import _new, _old
from ..home_util import dev_id
from ..rm_util import Wizard


def _app_ids(emu: HubEmulator) -> set[int]:
    """Every installed app's id: an update makes no app and removes none."""
    return set(emu.state.apps)


async def _made(manager_hub: Hub, spec: dict[str, Any]) -> str:
    """A rule built as hub_create_rule builds it (no device allowlist); its app id."""
    made = await manager_hub.rule_authoring.create(spec, confirm=False, validate_only=False)
    return str(made["app_id"])


async def _update(
    manager_hub: Hub,
    app_id: str,
    *,
    rule: dict[str, Any] | None = None,
    patch: list[Any] | None = None,
    confirm: bool = False,
    validate_only: bool = False,
) -> dict[str, Any]:
    """The update as hub_update_rule asks it (no device allowlist)."""
    return await manager_hub.rule_authoring.update(
        app_id, rule, patch, confirm=confirm, validate_only=validate_only
    )


async def _refused(manager_hub: Hub, app_id: str, **kw: Any) -> ToolError:
    with pytest.raises(ToolError) as refused:
        await _update(manager_hub, app_id, **kw)
    return refused.value


async def _spec(manager_hub: Hub, app_id: str) -> dict[str, Any]:
    spec: dict[str, Any] = (await manager_hub.rule_authoring.get(app_id))["spec"]
    return spec


async def test_an_update_is_made_in_place_and_the_rule_keeps_its_app_id(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    app_id = await _made(manager_hub, _old(emu))
    rules = _app_ids(emu)
    new = _new(emu)
    data = await _update(manager_hub, app_id, rule=new)
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
    assert emu.files.read(data["item_backup"]["backup"]) is not None
    assert _app_ids(emu) == rules
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["paused"] is False
    assert {k: got["spec"][k] for k in new} == new and "conditions" not in got["spec"]
    assert emu.state.apps[int(app_id)].label == "Office off button"

    light, motion = dev_id(emu, "Office Light"), dev_id(emu, "Office Motion")
    button = dev_id(emu, "Bedside Button")
    emu.run_command(int(light), "off", [])
    emu.set_device_attribute(int(motion), "motion", "inactive")
    emu.set_device_attribute(int(motion), "motion", "active")  # the old trigger: gone
    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    assert emu.device(int(light))["attributes"]["switch"] == "off"
    emu.run_command(int(light), "on", [])
    emu.run_command(int(button), "hold", [1])
    await emu.clock.settle()
    assert emu.device(int(light))["attributes"]["switch"] == "off"


async def test_a_disabled_rule_is_edited_and_stays_disabled(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    app_id = await _made(manager_hub, _old(emu))
    # Rule Machine ignores deletes on it (on-hub server)
    emu.state.apps[int(app_id)].disabled = True
    patch = [{"op": "replace", "path": "/actions/1/value", "value": 2}]
    updated = await _update(manager_hub, app_id, patch=patch)
    assert updated["edited_in_place"] is True and updated["enabled"] is False
    assert emu.state.apps[int(app_id)].disabled is True
    assert (await _spec(manager_hub, app_id))["actions"][1] == {
        "set_variable": "visits",
        "value": 2,
    }


async def test_pages_that_lack_the_delete_control_get_a_refusal_not_a_new_rule(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    app_id = await _made(manager_hub, _old(emu))
    rules = _app_ids(emu)
    model = emu.rule_machine.rules[int(app_id)]
    before = copy.deepcopy(model.settings)
    emu.rule_machine.hidden_fields = ["trashAll"]  # a firmware without the Delete button
    refused = await _refused(manager_hub, app_id, rule=_new(emu))
    emu.rule_machine.hidden_fields = []
    assert refused.code == "not_supported", refused
    assert "trashAll" in str(refused)
    assert _app_ids(emu) == rules and model.settings == before and model.paused is False


async def test_an_owners_open_action_editor_is_left_alone_and_the_update_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    app_id = await _made(manager_hub, _old(emu))
    was = await _spec(manager_hub, app_id)
    model = emu.rule_machine.rules[int(app_id)]
    model.act_n = 99  # the owner is editing an action in the hub UI
    refused = await _refused(manager_hub, app_id, rule=_new(emu))
    assert refused.code == "hub_busy", refused
    assert "action editor open" in str(refused)
    assert model.act_n == 99 and model.paused is False  # the editor and the rule as they were
    model.act_n = None
    assert await _spec(manager_hub, app_id) == was and int(app_id) in _app_ids(emu)


async def test_a_cancelled_update_puts_the_old_rule_back(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    app_id = await _made(manager_hub, _old(emu))
    rules = _app_ids(emu)
    was = await _spec(manager_hub, app_id)
    model = emu.rule_machine.rules[int(app_id)]
    emu.faults.delay_paths["/installedapp/update/json"] = 0.05
    task = asyncio.create_task(_update(manager_hub, app_id, rule=_new(emu)))
    await until(lambda: len(model.actions) < 6, what="the old actions removed")
    await until(lambda: len(model.triggers) < 2, what="an old trigger removed")
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await until(lambda: len(model.actions) == 6 and not model.paused, timeout=30, what="put back")
    emu.faults.delay_paths.clear()
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["spec"] == was and got["undecompiled"] == []
    assert _app_ids(emu) == rules  # the same app, and no other left behind


async def test_a_failure_before_anything_is_removed_leaves_the_rule_as_it_was(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    app_id = await _made(manager_hub, _old(emu))
    rules = _app_ids(emu)
    was = await _spec(manager_hub, app_id)
    model = emu.rule_machine.rules[int(app_id)]
    emu.state.apps[int(app_id)].disabled = True
    emu.faults.fail_paths["/installedapp/disable"] = 500  # enabling it for the edit fails
    with pytest.raises(HubError) as failed:
        await _update(manager_hub, app_id, rule=_new(emu))
    emu.faults.fail_paths.clear()
    assert "put back" not in str(failed.value)  # nothing was removed, nothing rebuilt
    assert model.paused is False and emu.state.apps[int(app_id)].disabled is True
    assert await _spec(manager_hub, app_id) == was and _app_ids(emu) == rules


# ------------------------------------------------------------ parts the decoder does not know


def _hall(emu: HubEmulator) -> dict[str, Any]:
    motion, light = dev_id(emu, "Office Motion"), dev_id(emu, "Office Light")
    return {
        "name": "Hall helper",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"command": "on", "device_ids": [light]}, {"log": "hello"}],
    }


async def _with_unknown_parts(emu: HubEmulator, app_id: str) -> tuple[int, int]:
    """Add two actions the decoder does not know through the rule's raw pages (the requests
    the hub UI sends): a private boolean set on this rule and on another (read as a
    placeholder), and a log with a delay (read as a log, its delay listed undecoded)."""
    async with aiohttp.ClientSession(base_url=emu.url) as session:
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


def _rows_of(emu: HubEmulator, app_id: str, *rows: int) -> dict[str, Any]:
    model = emu.rule_machine.rules[int(app_id)]
    suffixes = tuple(f".{n}" for n in rows)
    return {
        "settings": {k: v for k, v in model.settings.items() if k.endswith(suffixes)},
        "meta": {k: v for k, v in model.meta.items() if k.endswith(suffixes)},
        "exprs": {n: repr(model.exprs.get(f"a{n}")) for n in rows},
    }


async def test_a_patch_to_known_parts_keeps_the_unknown_ones_as_they_are(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    app_id = await _made(manager_hub, _hall(emu))
    flag, late = await _with_unknown_parts(emu, app_id)
    read = await manager_hub.rule_authoring.get(app_id)
    assert len(read["undecompiled"]) == 2, read["undecompiled"]
    assert set(read["spec"]["actions"][2]) == {"unknown"}
    assert read["spec"]["actions"][3] == {"log": "later"}  # its delay: undecoded
    kept = _rows_of(emu, app_id, flag, late)
    model = emu.rule_machine.rules[int(app_id)]
    rules = _app_ids(emu)
    patch = [
        {"op": "replace", "path": "/triggers/0/is", "value": "inactive"},
        {"op": "replace", "path": "/actions/1/log", "value": "hello again"},
        {"op": "replace", "path": "/name", "value": "Hall helper 2"},
    ]
    sent = len(emu.requests)
    # the kept placeholder sets Goodnight's private boolean (it commands the locks)
    plan = await _update(manager_hub, app_id, patch=patch, validate_only=True, confirm=True)
    assert plan["sent"] is False, plan
    assert plan["edits"]["actions_removed"] == 1 and plan["edits"]["actions_kept"] == 3
    assert plan["spec"]["actions"][2] == read["spec"]["actions"][2]  # the placeholder kept
    assert [r for r in emu.requests[sent:] if r[0] != "GET"] == []
    data = await _update(manager_hub, app_id, patch=patch, confirm=True)
    assert data["app_id"] == app_id and data["edits"]["actions_kept"] == 3, data
    assert data["edits"]["triggers_removed"] == 1 and data["edits"]["actions_added"] == 1
    assert _app_ids(emu) == rules  # no app made, none removed
    assert _rows_of(emu, app_id, flag, late) == kept  # byte for byte
    assert model.actions[2:] == [flag, late]  # where they were: the new log moved above them
    got = await manager_hub.rule_authoring.get(app_id)
    want = copy.deepcopy(read["spec"])
    want["name"], want["triggers"][0]["is"] = "Hall helper 2", "inactive"
    want["actions"][1] = {"log": "hello again"}
    assert got["spec"] == want
    assert [u["why"] for u in got["undecompiled"]] == [u["why"] for u in read["undecompiled"]]


async def test_a_change_that_needs_an_unknown_part_removed_is_refused_and_changes_nothing(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    app_id = await _made(manager_hub, _hall(emu))
    await _with_unknown_parts(emu, app_id)
    model = emu.rule_machine.rules[int(app_id)]
    before = (copy.deepcopy(model.settings), model.state(), list(model.triggers))
    rules, sent = _app_ids(emu), len(emu.requests)
    for patch, part in (
        ([{"op": "remove", "path": "/actions/2"}], "actions[2]"),  # the placeholder
        ([{"op": "replace", "path": "/actions/3/log", "value": "x"}], "actions[3]"),  # delay
        ([{"op": "move", "from": "/actions/0", "path": "/actions/3"}], None),  # not an op
    ):
        refused = await _refused(manager_hub, app_id, patch=patch)
        if part is not None:
            assert refused.code == "not_supported", refused
            assert f"rule.{part}" in str(refused)
            # the page to edit it on by hand
            assert refused.extra is not None and refused.extra["page"] == "selectActions"
    # a whole spec that swaps the two unknown actions: one of them would be made again
    spec = await _spec(manager_hub, app_id)
    spec["actions"][2], spec["actions"][3] = spec["actions"][3], spec["actions"][2]
    refused = await _refused(manager_hub, app_id, rule=spec)
    assert refused.code == "not_supported", refused
    assert (model.settings, model.state(), model.triggers) == before
    assert [r for r in emu.requests[sent:] if r[0] != "GET"] == []  # nothing sent
    assert _app_ids(emu) == rules


async def test_a_one_action_change_leaves_the_other_actions_alone(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    light, lamp = dev_id(emu, "Office Light"), dev_id(emu, "Kitchen Light")
    spec = {
        **_old(emu),
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
    start = len(emu.requests)
    app_id = await _made(manager_hub, spec)
    build = emu.requests[start:]
    model = emu.rule_machine.rules[int(app_id)]
    others = [n for i, n in enumerate(model.actions) if i != 1]
    kept = _rows_of(emu, app_id, *others)
    rules = _app_ids(emu)
    start = len(emu.requests)
    patch = [{"op": "replace", "path": "/actions/1/log", "value": "two"}]
    updated = await _update(manager_hub, app_id, patch=patch)
    edit = emu.requests[start:]
    assert updated["edits"]["actions_kept"] == 3 and _app_ids(emu) == rules
    assert [n for i, n in enumerate(model.actions) if i != 1] == others  # same rows, same order
    assert _rows_of(emu, app_id, *others) == kept
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["spec"]["actions"][1] == {"log": "two"} and got["undecompiled"] == []
    assert "Broken" not in " ".join(got["rule_text"])  # the ghost IF cleared the context
    # a rebuild sent the whole build again, and its removals besides
    posts = [r for r in edit if r[0] == "POST"]
    built = [r for r in build if r[0] == "POST"]
    assert len(posts) * 2 < len(built) and len(edit) < len(build), (len(edit), len(build))
