"""Rule actions on rules and on the hub: pause and resume rules, a private boolean, HSM,
Exit Rule and a comment; built on the emulated pages, read back and run."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..home_util import dev_id


def _motion_again(hub: HubEmulator, motion: str) -> None:
    """The motion sensor goes inactive, then active: a trigger even if it was active."""
    hub.set_device_attribute(int(motion), "motion", "inactive")
    hub.set_device_attribute(int(motion), "motion", "active")


async def _rule(call_tool: ToolCaller, spec: dict[str, Any], **args: Any) -> str:
    result = await call_tool("hub_create_rule", {"rule": spec, **args})
    assert not result.error, result.data
    return str(result.data["app_id"])


async def test_rule_and_hub_actions_are_built_read_back_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
    other = await _rule(
        call_tool,
        {
            "name": "Office light follower",
            "triggers": [{"device_id": motion, "attribute": "motion", "is": "inactive"}],
            "actions": [{"command": "off", "device_ids": [light]}],
        },
    )
    spec: dict[str, Any] = {
        "name": "Night guard",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {"set_private_boolean": False},
            {"set_private_boolean": True, "rule_ids": [other]},
            {"pause_rules": [other]},
            {"comment": "arm for the night, then stop"},
            {"log": "guard ran"},
            {"set_hsm": "armNight"},
            {"exit_rule": True},
            {"log": "never logged"},
        ],
    }
    refused = await call_tool("hub_create_rule", {"rule": spec})
    assert refused.error and refused.data["error"] == "confirmation_required", refused.data
    assert "HSM: armNight" in refused.data["message"]
    dry = await call_tool("hub_create_rule", {"rule": spec, "validate_only": True, "confirm": True})
    assert not dry.error, dry.data
    text = str(dry.data)
    assert "Pause Rules: Office light follower" in text and "Set HSM: armNight" in text
    assert "Private Boolean False: This Rule" in text
    app_id = await _rule(call_tool, spec, confirm=True)

    model = hub.rule_machine.rules[int(app_id)]
    s = model.settings
    # pvTF is the negation of the value (rule-storage notes 9.3; the on-hub server), "*" is this
    # rule
    first, second = (n for n in model.actions if s[f"actSubType.{n}"] == "getSetPrivateBoolean")
    assert s[f"pvTF.{first}"] is True and s[f"privateT.{first}"] == ["*"]
    assert s[f"pvTF.{second}"] is False and s[f"privateT.{second}"] == [other]
    pause = next(n for n in model.actions if s[f"actSubType.{n}"] == "getPauseResumeRules")
    assert s[f"pR.{pause}"] is False and s[f"pauseRuleType.{pause}"] == "Rule Machine"

    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]
    assert "Rule Boolean False: This Rule" in got.data["rule_text"]

    hub.set_mode("Day")
    _motion_again(hub, motion)
    await hub.clock.settle()
    for _ in range(50):
        if hub.state.hsm_status == "armedNight":
            break
        await hub.clock.settle()
    assert hub.state.hsm_status in ("armingNight", "armedNight")
    assert hub.rule_machine.rules[int(other)].paused is True
    assert hub.rule_machine.rules[int(app_id)].private is False
    assert hub.rule_machine.rules[int(other)].private is True
    listed = await call_tool("hub_list_rules", {"engine": "rule_machine"})
    guard = next(r for r in listed.data["rules"] if str(r["app_id"]) == app_id)
    assert guard.get("private_boolean") is False, guard
    # Exit Rule ended the run: the log action before it ran, the one after it never did
    messages = [e.msg for e in hub.state.logs]
    assert "guard ran" in messages and "never logged" not in messages

    # and back: a second rule resumes the first
    resume = await _rule(
        call_tool,
        {
            "name": "Morning",
            "triggers": [{"time": "07:00"}],
            "actions": [{"resume_rules": [other]}],
        },
    )
    back = await call_tool("hub_get_rule", {"app_id": resume})
    assert back.data["spec"]["actions"] == [{"resume_rules": [other]}]


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


async def test_an_unknown_rule_target_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    spec = {
        "name": "Bad target",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"set_private_boolean": True, "rule_ids": ["99999"]}],
    }
    before = set(hub.rule_machine.rules)
    result = await call_tool("hub_create_rule", {"rule": spec})
    assert result.error and result.data["error"] == "not_found"
    assert "rule.actions[0].rule_ids: no Rule Machine rule 99999" in result.data["message"]
    assert set(hub.rule_machine.rules) == before  # nothing was created


async def test_wait_until_is_built_read_back_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
    door = dev_id(hub, "Office Door")
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
    app_id = await _rule(call_tool, spec)
    model = hub.rule_machine.rules[int(app_id)]
    wait = next(n for n in model.actions if model.sub(n) == "getWaitRule")
    # the timeout is the action's delay fields, written before the expression (the on-hub server,
    # live)
    assert model.settings[f"delayAct.{wait}"] == "hrs:min:sec"
    assert model.settings[f"delayMin.{wait}"] == 10
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]
    assert any("Wait for expression" in line for line in got.data["rule_text"])

    def switch() -> object:
        return hub.device(int(light))["attributes"]["switch"]

    # the door closes: the wait ends and the light goes off
    hub.set_device_attribute(int(door), "contact", "open")
    hub.set_device_attribute(int(light), "switch", "off")
    _motion_again(hub, motion)
    await hub.clock.settle()
    assert switch() == "on"
    await hub.clock.advance(minutes=1)
    assert switch() == "on"
    hub.set_device_attribute(int(door), "contact", "closed")
    await hub.clock.settle()
    assert switch() == "off"
    # the door stays open: the timeout ends the wait
    hub.set_device_attribute(int(door), "contact", "open")
    _motion_again(hub, motion)
    await hub.clock.settle()
    assert switch() == "on"
    await hub.clock.advance(minutes=9)
    assert switch() == "on"
    await hub.clock.advance(minutes=1, seconds=1)
    assert switch() == "off"
    # the door already closed: the wait ends at once
    hub.set_device_attribute(int(door), "contact", "closed")
    _motion_again(hub, motion)
    await hub.clock.settle()
    assert switch() == "off"
    # a new trigger during the wait ends that run (as for Wait for Events)
    hub.set_device_attribute(int(door), "contact", "open")
    _motion_again(hub, motion)
    await hub.clock.settle()
    hub.set_device_attribute(int(light), "switch", "off")
    _motion_again(hub, motion)  # a second run, a second wait
    await hub.clock.settle()
    runs = hub.rule_engine.rules[int(app_id)].runs  # type: ignore[attr-defined]
    assert len(runs) == 1 and switch() == "on"


async def test_else_if_branches_are_built_read_back_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
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
    dry = await call_tool("hub_create_rule", {"rule": spec, "validate_only": True})
    assert "ELSE-IF (Mode is Evening) THEN" in str(dry.data), dry.data
    app_id = await _rule(call_tool, spec)
    model = hub.rule_machine.rules[int(app_id)]
    assert [model.sub(n) for n in model.actions].count("getElseIf") == 2
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]
    text = got.data["rule_text"]
    assert any(line.startswith("ELSE-IF (") for line in text), text

    async def run_in(mode: str) -> object:
        hub.set_mode(mode)
        _motion_again(hub, motion)
        await hub.clock.settle()
        return hub.device(int(light))["attributes"]["level"]

    assert await run_in("Night") == 10
    assert await run_in("Evening") == 40
    assert await run_in("Day") == 100
    assert await run_in("Away") == 100 and hub.device(int(light))["attributes"]["switch"] == "off"


async def test_repeat_n_times_is_built_read_back_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button, light = dev_id(hub, "Bedside Button"), dev_id(hub, "Office Light")
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
    app_id = await _rule(call_tool, spec)
    model = hub.rule_machine.rules[int(app_id)]
    rep = next(n for n in model.actions if model.sub(n) == "getRepeat")
    assert model.settings[f"repeatN.{rep}"] == 3 and model.settings[f"repeatSecond.{rep}"] == 30
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]
    assert any(line.endswith(", 3 times") for line in got.data["rule_text"]), got.data

    def blinks() -> int:
        return [e.msg for e in hub.state.logs].count("blink")

    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    assert blinks() == 1  # the first pass runs at once
    await hub.clock.advance(seconds=31)
    assert blinks() == 2 and "blinked" not in [e.msg for e in hub.state.logs]
    await hub.clock.advance(seconds=30)
    assert blinks() == 3 and "blinked" in [e.msg for e in hub.state.logs]
    await hub.clock.advance(seconds=120)
    assert blinks() == 3  # three times, no more


async def test_capture_restore_and_disable_are_built_read_back_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button, light = dev_id(hub, "Bedside Button"), dev_id(hub, "Office Light")
    motion = dev_id(hub, "Office Motion")
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
    no_capture = {**spec, "actions": [{"restore": True}]}
    refused = await call_tool("hub_create_rule", {"rule": no_capture})
    assert refused.error and "has no capture" in refused.data["message"]
    unconfirmed = await call_tool("hub_create_rule", {"rule": spec})
    assert unconfirmed.data["error"] == "confirmation_required"
    assert "disable Office Motion" in unconfirmed.data["message"]
    app_id = await _rule(call_tool, spec, confirm=True)
    model = hub.rule_machine.rules[int(app_id)]
    off = next(n for n in model.actions if model.sub(n) == "getDisable")
    # disEn true means Enable (the on-hub server, live)
    assert model.settings[f"disEn.{off}"] is False
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]

    hub.run_command(int(light), "setLevel", [60])
    await hub.clock.settle()
    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    attrs = hub.device(int(light))["attributes"]
    assert attrs["switch"] == "off"
    await hub.clock.advance(seconds=6)
    attrs = hub.device(int(light))["attributes"]
    assert attrs["switch"] == "on" and attrs["level"] == 60
    assert hub.state.devices[int(motion)].disabled is True

    back = await call_tool(
        "hub_create_rule",
        {"rule": {**spec, "name": "Enable again", "actions": [{"enable_devices": [motion]}]}},
    )
    assert not back.error, back.data


async def test_file_actions_are_built_read_back_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button = dev_id(hub, "Bedside Button")
    hub.files.write("door-log.txt", b"start\n")
    hub.files.write("old-notes.txt", b"x")
    spec: dict[str, Any] = {
        "name": "File keeping",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "actions": [
            {"write_file": "fresh.txt", "text": "written by a rule"},
            {"append_file": "door-log.txt", "text": "pushed\n"},
            {"delete_file": "old-notes.txt"},
        ],
    }
    missing = {**spec, "actions": [{"append_file": "nope.txt", "text": "x"}]}
    refused = await call_tool("hub_create_rule", {"rule": missing})
    assert refused.data["error"] == "not_found" and "nope.txt" in refused.data["message"]
    bad = {**spec, "actions": [{"write_file": "../up.txt", "text": "x"}]}
    assert (await call_tool("hub_create_rule", {"rule": bad})).data["error"] == "invalid_request"
    unconfirmed = await call_tool("hub_create_rule", {"rule": spec})
    assert unconfirmed.data["error"] == "confirmation_required"
    assert "delete file old-notes.txt" in unconfirmed.data["message"]
    hub.mark_backup_now()  # it appends to an existing file: hub_write_file's tier
    app_id = await _rule(call_tool, spec, confirm=True)
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]

    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    assert hub.files.read("fresh.txt") == b"written by a rule"
    assert hub.files.read("door-log.txt") == b"start\npushed\n"
    assert hub.files.read("old-notes.txt") is None


async def test_delay_per_mode_is_built_read_back_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button, light = dev_id(hub, "Bedside Button"), dev_id(hub, "Office Light")
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
    assert "Siesta" in (await call_tool("hub_create_rule", {"rule": bad})).data["message"]
    app_id = await _rule(call_tool, spec)
    model = hub.rule_machine.rules[int(app_id)]
    n = next(a for a in model.actions if model.sub(a) == "getDelayPerMode")
    # the modes by id, each delay by the mode's name (the on-hub server, live)
    assert sorted(model.settings[f"delayModes.{n}"]) == ["1", "3"]
    assert model.settings[f"delayMinuteNight.{n}"] == 1
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]

    def switch() -> object:
        return hub.device(int(light))["attributes"]["switch"]

    hub.set_mode("Night")
    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    assert switch() == "on"
    await hub.clock.advance(seconds=61)
    assert switch() == "off"
    hub.set_mode("Evening")  # not listed: no delay
    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    assert switch() == "off"
    hub.set_mode("Day")
    hub.run_command(int(button), "push", [1])
    await hub.clock.advance(minutes=5)
    assert switch() == "on"
    await hub.clock.advance(minutes=5, seconds=1)
    assert switch() == "off"


async def test_an_else_if_branch_holds_a_nested_if(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
    door = dev_id(hub, "Office Door")
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
    app_id = await _rule(call_tool, spec)
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]


async def test_modes_named_in_another_case_are_written_as_the_hub_names_them(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
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
    result = await call_tool("hub_create_rule", {"rule": spec})
    assert not result.error, result.data
    got = await call_tool("hub_get_rule", {"app_id": result.data["app_id"]})
    back = got.data["spec"]
    assert back["triggers"] == [{"mode": ["Night"]}]
    assert back["conditions"] == {"not": {"mode": ["Away"]}}
    assert back["actions"] == [
        {"delay_per_mode": {"Night": {"minutes": 1}}},
        {"if": {"mode": ["Night"]}, "then": [{"set_mode": "Evening"}]},
    ]
