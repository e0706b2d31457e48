"""Rule authoring (``managers/automation/``, ``hub.rule_authoring``) on its own, no hass: rule
actions on rules and on the hub (pausing and resuming rules, a private boolean, HSM, Exit Rule,
a comment), Wait until an expression, ELSE-IF branches (one holding a nested IF), Repeat n
times, capture and restore, disabling devices, File Manager writes, delays per mode and modes
named in another case: each checked before anything is sent, built through the emulated rule's
pages, its settings on the emulated Rule Machine, read back equal and run by the emulated rule
on the emulated clock. Refusals (a sensitive action without confirm, an unknown rule or file, a
bad spec) raise before anything is created.

Moved from tests/tools/test_rule_hub_actions.py (the tools' answers stay there: the refusal as
an error result, the dry run's and the build's summaries, the rule read with hub_get_rule and
the private boolean hub_list_rules shows)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.rule_hub_actions import _night_guard
from ..home_util import dev_id


def _motion_again(emu: HubEmulator, motion: str) -> None:
    """The motion sensor goes inactive, then active: a trigger even if it was active."""
    emu.set_device_attribute(int(motion), "motion", "inactive")
    emu.set_device_attribute(int(motion), "motion", "active")


async def _rule(manager_hub: Hub, spec: dict[str, Any], *, confirm: bool = False) -> str:
    """A rule built as hub_create_rule builds it (no device allowlist); its app id."""
    made = await manager_hub.rule_authoring.create(spec, confirm=confirm, validate_only=False)
    return str(made["app_id"])


async def _refusal(manager_hub: Hub, spec: dict[str, Any], *, confirm: bool = False) -> ToolError:
    """The refusal of building ``spec``."""
    with pytest.raises(ToolError) as refused:
        await manager_hub.rule_authoring.create(spec, confirm=confirm, validate_only=False)
    return refused.value


async def test_rule_and_hub_actions_are_built_read_back_and_run(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    motion, light = dev_id(emu, "Office Motion"), dev_id(emu, "Office Light")
    other = await _rule(
        manager_hub,
        {
            "name": "Office light follower",
            "triggers": [{"device_id": motion, "attribute": "motion", "is": "inactive"}],
            "actions": [{"command": "off", "device_ids": [light]}],
        },
    )
    spec = _night_guard(motion, other)
    before = set(emu.rule_machine.rules)
    refused = await _refusal(manager_hub, spec)
    assert refused.code == "confirmation_required", refused
    assert "HSM: armNight" in str(refused)
    assert set(emu.rule_machine.rules) == before  # nothing was created
    dry = await manager_hub.rule_authoring.create(spec, confirm=True, validate_only=True)
    assert dry["valid"] is True and dry["sent"] is False
    text = str(dry)
    assert "Pause Rules: Office light follower" in text and "Set HSM: armNight" in text
    assert "Private Boolean False: This Rule" in text
    assert set(emu.rule_machine.rules) == before
    app_id = await _rule(manager_hub, spec, confirm=True)

    model = emu.rule_machine.rules[int(app_id)]
    s = model.settings
    # pvTF is the negation of the value (rule-storage notes 9.3; the on-hub server), "*" is this
    # rule
    first, second = (n for n in model.actions if s[f"actSubType.{n}"] == "getSetPrivateBoolean")
    assert s[f"pvTF.{first}"] is True and s[f"privateT.{first}"] == ["*"]
    assert s[f"pvTF.{second}"] is False and s[f"privateT.{second}"] == [other]
    pause = next(n for n in model.actions if s[f"actSubType.{n}"] == "getPauseResumeRules")
    assert s[f"pR.{pause}"] is False and s[f"pauseRuleType.{pause}"] == "Rule Machine"

    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"]
    assert "Rule Boolean False: This Rule" in got["rule_text"]

    emu.set_mode("Day")
    _motion_again(emu, motion)
    await emu.clock.settle()
    for _ in range(50):
        if emu.state.hsm_status == "armedNight":
            break
        await emu.clock.settle()
    assert emu.state.hsm_status in ("armingNight", "armedNight")
    assert emu.rule_machine.rules[int(other)].paused is True
    assert emu.rule_machine.rules[int(app_id)].private is False
    assert emu.rule_machine.rules[int(other)].private is True
    listed = await manager_hub.rules.list_rules(
        "rule_machine", with_status=True, with_button_rules=True
    )
    guard = next(r for r in listed if str(r["app_id"]) == app_id)
    assert guard.get("private_boolean") is False, guard
    # Exit Rule ended the run: the log action before it ran, the one after it never did
    messages = [e.msg for e in emu.state.logs]
    assert "guard ran" in messages and "never logged" not in messages

    # and back: a second rule resumes the first
    resume = await _rule(
        manager_hub,
        {
            "name": "Morning",
            "triggers": [{"time": "07:00"}],
            "actions": [{"resume_rules": [other]}],
        },
    )
    back = await manager_hub.rule_authoring.get(resume)
    assert back["spec"]["actions"] == [{"resume_rules": [other]}]


def test_rule_and_hub_actions_are_checked_before_anything_is_sent() -> None:
    base: dict[str, Any] = {"name": "r"}
    for action, why in (
        ({"set_hsm": "armAll"}, "not an HSM command"),
        ({"exit_rule": False}, "must be true"),
        ({"comment": " "}, "non-empty text"),
        ({"pause_rules": ["abc"]}, "rule app id"),
        ({"set_private_boolean": "yes"}, "true or false"),
        ({"set_private_boolean": True, "rules": ["1"]}, "unknown key"),
    ):
        with pytest.raises(ToolError, match=why):
            parse_spec({**base, "actions": [action]})
    spec = parse_spec({**base, "actions": [{"resume_rules": ["45", "45", 46]}]})
    assert spec.actions[0].rule_ids == ("45", "46")


async def test_an_unknown_rule_target_is_refused(emu: HubEmulator, manager_hub: Hub) -> None:
    motion = dev_id(emu, "Office Motion")
    spec = {
        "name": "Bad target",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"set_private_boolean": True, "rule_ids": ["99999"]}],
    }
    before, sent = set(emu.rule_machine.rules), len(emu.requests)
    refused = await _refusal(manager_hub, spec)
    assert refused.code == "not_found"
    assert "rule.actions[0].rule_ids: no Rule Machine rule 99999" in str(refused)
    assert set(emu.rule_machine.rules) == before  # nothing was created
    assert [p for m, p in emu.requests[sent:] if m != "GET"] == []


async def test_wait_until_is_built_read_back_and_run(emu: HubEmulator, manager_hub: Hub) -> None:
    motion, light = dev_id(emu, "Office Motion"), dev_id(emu, "Office Light")
    door = dev_id(emu, "Office Door")
    spec: dict[str, Any] = {
        "name": "Light until the door closes",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {"command": "on", "device_ids": [light]},
            {
                "wait_until": {"device_id": door, "attribute": "contact", "is": "closed"},
                "timeout": {"minutes": 10},
            },
            {"command": "off", "device_ids": [light]},
        ],
    }
    app_id = await _rule(manager_hub, spec)
    model = emu.rule_machine.rules[int(app_id)]
    wait = next(n for n in model.actions if model.sub(n) == "getWaitRule")
    # the timeout is the action's delay fields, written before the expression (the on-hub server,
    # live)
    assert model.settings[f"delayAct.{wait}"] == "hrs:min:sec"
    assert model.settings[f"delayMin.{wait}"] == 10
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"]
    assert any("Wait for expression" in line for line in got["rule_text"])

    def switch() -> object:
        return emu.device(int(light))["attributes"]["switch"]

    # the door closes: the wait ends and the light goes off
    emu.set_device_attribute(int(door), "contact", "open")
    emu.set_device_attribute(int(light), "switch", "off")
    _motion_again(emu, motion)
    await emu.clock.settle()
    assert switch() == "on"
    await emu.clock.advance(minutes=1)
    assert switch() == "on"
    emu.set_device_attribute(int(door), "contact", "closed")
    await emu.clock.settle()
    assert switch() == "off"
    # the door stays open: the timeout ends the wait
    emu.set_device_attribute(int(door), "contact", "open")
    _motion_again(emu, motion)
    await emu.clock.settle()
    assert switch() == "on"
    await emu.clock.advance(minutes=9)
    assert switch() == "on"
    await emu.clock.advance(minutes=1, seconds=1)
    assert switch() == "off"
    # the door already closed: the wait ends at once
    emu.set_device_attribute(int(door), "contact", "closed")
    _motion_again(emu, motion)
    await emu.clock.settle()
    assert switch() == "off"
    # a new trigger during the wait ends that run (as for Wait for Events)
    emu.set_device_attribute(int(door), "contact", "open")
    _motion_again(emu, motion)
    await emu.clock.settle()
    emu.set_device_attribute(int(light), "switch", "off")
    _motion_again(emu, motion)  # a second run, a second wait
    await emu.clock.settle()
    runs = emu.rule_engine.rules[int(app_id)].runs  # type: ignore[attr-defined]
    assert len(runs) == 1 and switch() == "on"


async def test_else_if_branches_are_built_read_back_and_run(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    motion, light = dev_id(emu, "Office Motion"), dev_id(emu, "Office Light")
    spec: dict[str, Any] = {
        "name": "Office light by mode",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {
                "if": {"mode": ["Night"]},
                "then": [{"command": "setLevel", "device_ids": [light], "arguments": [10]}],
                "else_if": [
                    {
                        "if": {"mode": ["Evening"]},
                        "then": [{"command": "setLevel", "device_ids": [light], "arguments": [40]}],
                    },
                    {
                        "if": {"mode": ["Away"]},
                        "then": [{"command": "off", "device_ids": [light]}],
                    },
                ],
                "else": [{"command": "setLevel", "device_ids": [light], "arguments": [100]}],
            },
            {"log": "office light set"},
        ],
    }
    dry = await manager_hub.rule_authoring.create(spec, confirm=False, validate_only=True)
    assert "ELSE-IF (Mode is Evening) THEN" in str(dry), dry
    app_id = await _rule(manager_hub, spec)
    model = emu.rule_machine.rules[int(app_id)]
    assert [model.sub(n) for n in model.actions].count("getElseIf") == 2
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"]
    text = got["rule_text"]
    assert any(line.startswith("ELSE-IF (") for line in text), text

    async def run_in(mode: str) -> object:
        emu.set_mode(mode)
        _motion_again(emu, motion)
        await emu.clock.settle()
        return emu.device(int(light))["attributes"]["level"]

    assert await run_in("Night") == 10
    assert await run_in("Evening") == 40
    assert await run_in("Day") == 100
    assert await run_in("Away") == 100 and emu.device(int(light))["attributes"]["switch"] == "off"


async def test_repeat_n_times_is_built_read_back_and_run(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    button, light = dev_id(emu, "Bedside Button"), dev_id(emu, "Office Light")
    spec: dict[str, Any] = {
        "name": "Blink the office light",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "actions": [
            {
                "repeat": 3,
                "every": {"seconds": 30},
                "do": [{"log": "blink"}, {"command": "on", "device_ids": [light]}],
            },
            {"log": "blinked"},
        ],
    }
    assert parse_spec(spec).as_dict()["actions"] == spec["actions"]
    with pytest.raises(ToolError, match="from 1 to 1000"):
        parse_spec({**spec, "actions": [{**spec["actions"][0], "repeat": 0}]})
    app_id = await _rule(manager_hub, spec)
    model = emu.rule_machine.rules[int(app_id)]
    rep = next(n for n in model.actions if model.sub(n) == "getRepeat")
    assert model.settings[f"repeatN.{rep}"] == 3 and model.settings[f"repeatSecond.{rep}"] == 30
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"]
    assert any(line.endswith(", 3 times") for line in got["rule_text"]), got

    def blinks() -> int:
        return [e.msg for e in emu.state.logs].count("blink")

    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    assert blinks() == 1  # the first pass runs at once
    await emu.clock.advance(seconds=31)
    assert blinks() == 2 and "blinked" not in [e.msg for e in emu.state.logs]
    await emu.clock.advance(seconds=30)
    assert blinks() == 3 and "blinked" in [e.msg for e in emu.state.logs]
    await emu.clock.advance(seconds=120)
    assert blinks() == 3  # three times, no more


async def test_capture_restore_and_disable_are_built_read_back_and_run(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    button, light = dev_id(emu, "Bedside Button"), dev_id(emu, "Office Light")
    motion = dev_id(emu, "Office Motion")
    spec: dict[str, Any] = {
        "name": "Flash and put back",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "actions": [
            {"capture": [light]},
            {"command": "off", "device_ids": [light]},
            {"delay": {"seconds": 5}},
            {"restore": True},
            {"disable_devices": [motion]},
        ],
    }
    before = set(emu.rule_machine.rules)
    no_capture = {**spec, "actions": [{"restore": True}]}
    assert "has no capture" in str(await _refusal(manager_hub, no_capture))
    unconfirmed = await _refusal(manager_hub, spec)
    assert unconfirmed.code == "confirmation_required"
    assert "disable Office Motion" in str(unconfirmed)
    assert set(emu.rule_machine.rules) == before
    app_id = await _rule(manager_hub, spec, confirm=True)
    model = emu.rule_machine.rules[int(app_id)]
    off = next(n for n in model.actions if model.sub(n) == "getDisable")
    # disEn true means Enable (the on-hub server, live)
    assert model.settings[f"disEn.{off}"] is False
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"]

    emu.run_command(int(light), "setLevel", [60])
    await emu.clock.settle()
    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    attrs = emu.device(int(light))["attributes"]
    assert attrs["switch"] == "off"
    await emu.clock.advance(seconds=6)
    attrs = emu.device(int(light))["attributes"]
    assert attrs["switch"] == "on" and attrs["level"] == 60
    assert emu.state.devices[int(motion)].disabled is True

    # enabling a device again needs no confirm
    back = await _rule(
        manager_hub, {**spec, "name": "Enable again", "actions": [{"enable_devices": [motion]}]}
    )
    assert emu.rule_machine.rules[int(back)].actions


async def test_file_actions_are_built_read_back_and_run(emu: HubEmulator, manager_hub: Hub) -> None:
    button = dev_id(emu, "Bedside Button")
    emu.files.write("door-log.txt", b"start\n")
    emu.files.write("old-notes.txt", b"x")
    spec: dict[str, Any] = {
        "name": "File keeping",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "actions": [
            {"write_file": "fresh.txt", "text": "written by a rule"},
            {"append_file": "door-log.txt", "text": "pushed\n"},
            {"delete_file": "old-notes.txt"},
        ],
    }
    before = set(emu.rule_machine.rules)
    missing = {**spec, "actions": [{"append_file": "nope.txt", "text": "x"}]}
    refused = await _refusal(manager_hub, missing)
    assert refused.code == "not_found" and "nope.txt" in str(refused)
    bad = {**spec, "actions": [{"write_file": "../up.txt", "text": "x"}]}
    assert (await _refusal(manager_hub, bad)).code == "invalid_request"
    unconfirmed = await _refusal(manager_hub, spec)
    assert unconfirmed.code == "confirmation_required"
    assert "delete file old-notes.txt" in str(unconfirmed)
    assert set(emu.rule_machine.rules) == before
    emu.mark_backup_now()  # it appends to an existing file: hub_write_file's tier
    app_id = await _rule(manager_hub, spec, confirm=True)
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"]

    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    assert emu.files.read("fresh.txt") == b"written by a rule"
    assert emu.files.read("door-log.txt") == b"start\npushed\n"
    assert emu.files.read("old-notes.txt") is None


async def test_delay_per_mode_is_built_read_back_and_run(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    button, light = dev_id(emu, "Bedside Button"), dev_id(emu, "Office Light")
    spec: dict[str, Any] = {
        "name": "Light off later, by mode",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "actions": [
            {"command": "on", "device_ids": [light]},
            {"delay_per_mode": {"Night": {"minutes": 1}, "Day": {"minutes": 10}}},
            {"command": "off", "device_ids": [light]},
        ],
    }
    bad = {**spec, "actions": [{"delay_per_mode": {"Siesta": {"minutes": 1}}}]}
    assert "Siesta" in str(await _refusal(manager_hub, bad))
    app_id = await _rule(manager_hub, spec)
    model = emu.rule_machine.rules[int(app_id)]
    n = next(a for a in model.actions if model.sub(a) == "getDelayPerMode")
    # the modes by id, each delay by the mode's name (the on-hub server, live)
    assert sorted(model.settings[f"delayModes.{n}"]) == ["1", "3"]
    assert model.settings[f"delayMinuteNight.{n}"] == 1
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"]

    def switch() -> object:
        return emu.device(int(light))["attributes"]["switch"]

    emu.set_mode("Night")
    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    assert switch() == "on"
    await emu.clock.advance(seconds=61)
    assert switch() == "off"
    emu.set_mode("Evening")  # not listed: no delay
    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    assert switch() == "off"
    emu.set_mode("Day")
    emu.run_command(int(button), "push", [1])
    await emu.clock.advance(minutes=5)
    assert switch() == "on"
    await emu.clock.advance(minutes=5, seconds=1)
    assert switch() == "off"


async def test_an_else_if_branch_holds_a_nested_if(emu: HubEmulator, manager_hub: Hub) -> None:
    motion, light = dev_id(emu, "Office Motion"), dev_id(emu, "Office Light")
    door = dev_id(emu, "Office Door")
    spec: dict[str, Any] = {
        "name": "Nested branches",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {
                "if": {"mode": ["Night"]},
                "then": [{"command": "off", "device_ids": [light]}],
                "else_if": [
                    {
                        "if": {"mode": ["Evening"]},
                        "then": [
                            {
                                "if": {"device_id": door, "attribute": "contact", "is": "open"},
                                "then": [{"command": "on", "device_ids": [light]}],
                                "else": [{"log": "door shut"}],
                            }
                        ],
                    }
                ],
            }
        ],
    }
    app_id = await _rule(manager_hub, spec)
    got = await manager_hub.rule_authoring.get(app_id)
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"]


async def test_modes_named_in_another_case_are_written_as_the_hub_names_them(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    spec: dict[str, Any] = {
        "name": "Modes in lower case",
        "triggers": [{"mode": ["night"]}],
        "conditions": {"not": {"mode": ["away"]}},
        "actions": [
            {"delay_per_mode": {"night": {"minutes": 1}}},
            {
                "if": {"mode": ["NIGHT"]},
                "then": [{"set_mode": "evening"}],
            },
        ],
    }
    app_id = await _rule(manager_hub, spec)
    back = (await manager_hub.rule_authoring.get(app_id))["spec"]
    assert back["triggers"] == [{"mode": ["Night"]}]
    assert back["conditions"] == {"not": {"mode": ["Away"]}}
    assert back["actions"] == [
        {"delay_per_mode": {"Night": {"minutes": 1}}},
        {"if": {"mode": ["Night"]}, "then": [{"set_mode": "Evening"}]},
    ]
