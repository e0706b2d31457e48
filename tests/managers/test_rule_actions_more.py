"""Rule authoring (``managers/automation/``, ``hub.rule_authoring``) on its own, no hass: more
Rule Machine actions. Per-mode device settings, fades and level changes, Set Variable from a
device attribute or variable math, delays from a variable or at random, Cancel Rule Timers,
and DateTime local variables (kept in the hub's form). Each rule is built through the emulated
rule's pages, read back equal, edited in place (the same app id) and run by the emulated rule;
the schema and the parser agree on the new actions; wrong targets are refused with nothing
sent.

Moved from tests/tools/test_rule_actions_more.py (the tools' answers stay there: their
summaries, the app id and edited_in_place they answer, a refusal as an error result, a DateTime
answered with a colon offset, and a read leaving out devices outside the allowlist)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.rule_actions_more import _attr, _fire, _with_a_date
from ..home_util import dev_id
from .rule_actions_more_util import _get, _made, _read, _updated


def _writes(emu: HubEmulator) -> int:
    return len([r for r in emu.requests if r[0] != "GET"])


async def test_per_mode_device_actions_are_built_read_back_edited_and_run(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion = dev_id(emu, "Office Motion")
    dimmer, porch = dev_id(emu, "Kitchen Light"), dev_id(emu, "Porch Light")
    rgbw, ct = dev_id(emu, "Office Desk Lamp"), dev_id(emu, "Kitchen Island Pendants")
    spec: dict[str, Any] = {
        "name": "Lights by mode",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {"set_level_per_mode": {"Day": 80, "Night": 10}, "device_ids": [dimmer]},
            {"switch_per_mode": {"Day": "off", "Night": "on"}, "device_ids": [porch]},
            {"choose_per_mode": {"Night": {"on": [porch], "off": [rgbw]}}},
            {"color_per_mode": {"Day": {"color": "Blue", "level": 70}}, "device_ids": [rgbw]},
            {
                "color_temperature_per_mode": {"Night": {"kelvin": 2200, "level": 20}},
                "device_ids": [ct],
            },
        ],
    }
    writes = _writes(emu)
    dry = await authoring.rule_authoring.create(spec, confirm=False, validate_only=True)
    assert dry["sent"] is False and _writes(emu) == writes
    assert "  Dim per mode: Kitchen Light: Day: 80, Night: 10" in dry["rule_text"]
    app_id = await _made(authoring, spec)
    model = emu.rule_machine.rules[int(app_id)]
    s = model.settings
    night = str(next(m.id for m in emu.state.modes if m.name == "Night"))
    per_level = next(n for n in model.actions if s[f"actSubType.{n}"] == "getDimmersPerMode")
    assert s[f"level{night}.{per_level}"] == 10
    per_ct = next(n for n in model.actions if s[f"actSubType.{n}"] == "getColorTempPerMode")
    assert s[f"ctMode{night}.{per_ct}Level"] == 20  # the level's name ends after the number
    got = await _get(authoring, app_id)
    assert got["spec"]["actions"] == spec["actions"]
    assert "Dim per mode" in str(got["rule_text"])

    emu.set_mode("Night")
    await _fire(emu, motion)
    assert _attr(emu, dimmer, "level") == 10
    assert _attr(emu, porch, "switch") == "on" and _attr(emu, rgbw, "switch") == "off"
    assert _attr(emu, ct, "colorTemperature") == 2200 and _attr(emu, ct, "level") == 20

    emu.set_mode("Day")
    await _fire(emu, motion)
    assert _attr(emu, dimmer, "level") == 80 and _attr(emu, porch, "switch") == "off"
    assert _attr(emu, rgbw, "colorName") == "Blue" and _attr(emu, rgbw, "level") == 70

    # edited in place: the night level changes, the app id stays
    spec["actions"][0] = {"set_level_per_mode": {"Day": 80, "Night": 25}, "device_ids": [dimmer]}
    await _updated(authoring, app_id, spec)
    assert (await _read(authoring, app_id))["actions"] == spec["actions"]
    emu.set_mode("Night")
    await _fire(emu, motion)
    assert _attr(emu, dimmer, "level") == 25


def _commands(emu: HubEmulator, device: str) -> list[str]:
    return [
        e.description or "" for e in emu.state.devices[int(device)].events if e.type == "command"
    ]


async def test_fades_and_level_changes_run_on_the_emulated_clock(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion = dev_id(emu, "Office Motion")
    living, kitchen = dev_id(emu, "Living Room Dimmer"), dev_id(emu, "Kitchen Light")
    lamp, guest = dev_id(emu, "Master Bedroom Lamp"), dev_id(emu, "Guest Lamp")
    spec: dict[str, Any] = {
        "name": "Fades",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {"fade_level": 10, "minutes": 10, "direction": "lower", "device_ids": [living]},
            {
                "fade_color_temperature": 4000,
                "minutes": 8,
                "direction": "raise",
                "interval_seconds": 60,
                "device_ids": [lamp],
            },
            {"adjust_level": -30, "device_ids": [kitchen]},
            {"start_level_change": "raise", "device_ids": [guest]},
            {"stop_level_change": [guest]},
        ],
    }
    app_id = await _made(authoring, spec)
    s = emu.rule_machine.rules[int(app_id)].settings
    subs = {s[f"actSubType.{n}"]: n for n in emu.rule_machine.rules[int(app_id)].actions}
    assert s[f"dimFadeUp.{subs['getFadeDimmer']}"] is False
    assert s[f"dimRL.{subs['getRLDimmer']}"] is False  # dimRL true is lower (inverted)
    assert (await _read(authoring, app_id))["actions"] == spec["actions"]

    emu.set_device_attribute(int(kitchen), "level", 80)
    await _fire(emu, motion)
    assert _attr(emu, kitchen, "level") == 50
    assert any("startLevelChange(up)" in c for c in _commands(emu, guest))
    assert any("stopLevelChange()" in c for c in _commands(emu, guest))
    await emu.clock.advance(minutes=5)
    halfway = _attr(emu, living, "level")
    assert 30 <= halfway <= 50, halfway  # on its way from 70 to 10
    assert 2200 < _attr(emu, lamp, "colorTemperature") < 4000
    await emu.clock.advance(minutes=6)
    assert _attr(emu, living, "level") == 10
    assert _attr(emu, lamp, "colorTemperature") == 4000

    # edited in place: the fade goes up instead
    spec["actions"][0] = {
        "fade_level": 90,
        "minutes": 2,
        "direction": "raise",
        "device_ids": [living],
    }
    await _updated(authoring, app_id, spec)
    assert (await _read(authoring, app_id))["actions"] == spec["actions"]
    await _fire(emu, motion)
    await emu.clock.advance(minutes=3)
    assert _attr(emu, living, "level") == 90


async def test_set_variable_from_a_device_and_from_math(emu: HubEmulator, authoring: Hub) -> None:
    motion, sensor = dev_id(emu, "Office Motion"), dev_id(emu, "Dining Room Sensor")
    spec: dict[str, Any] = {
        "name": "Counting",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "local_variables": [{"name": "tally", "type": "integer", "value": 4}],
        "actions": [
            {
                "set_variable": "guestCount",
                "from_device": {"device_id": sensor, "attribute": "humidity"},
            },
            {
                "set_variable": "doorOpenCount",
                "math": {"left": "doorOpenCount", "op": "+", "right": 1},
            },
            {"set_variable": "thermostatOffset", "math": {"left": -2.5, "op": "absolute"}},
            {"set_variable": "tally", "math": {"left": "tally", "op": "*", "right": "guestCount"}},
        ],
    }
    app_id = await _made(authoring, spec)
    s = emu.rule_machine.rules[int(app_id)].settings
    math_n = next(
        n
        for n in emu.rule_machine.rules[int(app_id)].actions
        if s.get(f"valMathOp.{n}") == "absolute"
    )
    assert s[f"numOp.{math_n}"] == "variable math" and s[f"xVar3.{math_n}"] == "(constant)"
    assert (await _read(authoring, app_id))["actions"] == spec["actions"]

    before = int(str(emu.state.variables["doorOpenCount"].value))
    humidity = _attr(emu, sensor, "humidity")
    await _fire(emu, motion)
    assert emu.state.variables["guestCount"].value == int(humidity)
    assert emu.state.variables["doorOpenCount"].value == before + 1
    assert emu.state.variables["thermostatOffset"].value == 2.5
    assert emu.rule_machine.rules[int(app_id)].local.variables["tally"]["value"] == 4 * int(
        humidity
    )

    spec["actions"][1] = {
        "set_variable": "doorOpenCount",
        "math": {"left": "doorOpenCount", "op": "-", "right": 2},
    }
    # the read shows the local variable as the run left it; the spec given sets it back
    assert (await _read(authoring, app_id))["local_variables"][0]["value"] == 4 * int(humidity)
    await _updated(authoring, app_id, spec)
    got = await _read(authoring, app_id)
    assert got["actions"] == spec["actions"]
    assert got["local_variables"] == [{"name": "tally", "type": "integer", "value": 4}]
    await _fire(emu, motion)
    assert emu.state.variables["doorOpenCount"].value == before - 1


async def test_delays_from_a_variable_random_ones_and_cancel_timers(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion, door = dev_id(emu, "Office Motion"), dev_id(emu, "Office Door")
    porch, kitchen = dev_id(emu, "Porch Light"), dev_id(emu, "Kitchen Light")
    emu.set_variable("guestCount", 30)  # the delay's seconds
    delayed: dict[str, Any] = {
        "name": "Delayed porch",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {"delay_from_variable": "guestCount", "cancelable": True},
            {"command": "on", "device_ids": [porch]},
            {"delay": {"minutes": 2}, "random": True},
            {"command": "off", "device_ids": [kitchen]},
        ],
    }
    app_id = await _made(authoring, delayed)
    assert (await _read(authoring, app_id))["actions"] == delayed["actions"]
    stopper: dict[str, Any] = {
        "name": "Stop the porch",
        "triggers": [{"device_id": door, "attribute": "contact", "is": "open"}],
        "actions": [{"cancel_timers": [app_id]}],
    }
    stop_id = await _made(authoring, stopper)
    assert (await _read(authoring, stop_id))["actions"] == stopper["actions"]

    emu.set_device_attribute(int(porch), "switch", "off")
    emu.set_device_attribute(int(kitchen), "switch", "on")
    await _fire(emu, motion)
    await emu.clock.advance(20)
    assert _attr(emu, porch, "switch") == "off"  # 30 seconds, from the variable
    await emu.clock.advance(15)
    assert _attr(emu, porch, "switch") == "on"
    await emu.clock.advance(minutes=2)  # the random delay is at most 2 minutes
    assert _attr(emu, kitchen, "switch") == "off"

    # a second run is cancelled by the other rule while it waits out its delay
    emu.set_device_attribute(int(porch), "switch", "off")
    await _fire(emu, motion)
    emu.set_device_attribute(int(door), "contact", "closed")
    emu.set_device_attribute(int(door), "contact", "open")
    await emu.clock.advance(60)
    assert _attr(emu, porch, "switch") == "off"

    delayed["actions"][0] = {"delay_from_variable": "guestCount"}
    await _updated(authoring, app_id, delayed)
    assert (await _read(authoring, app_id))["actions"] == delayed["actions"]


async def test_datetime_local_variables_are_kept_in_the_hubs_form(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion = dev_id(emu, "Office Motion")
    spec = _with_a_date(motion)
    app_id = await _made(authoring, spec)
    model = emu.rule_machine.rules[int(app_id)]
    assert model.local.variables["due"] == {
        "type": "datetime",
        "value": "2026-05-17T14:30:00.000-0400",
    }
    # the manager reads the hub's form; the tools answer it with a colon offset
    # (tests/tools/test_rule_actions_more.py)
    got = await _read(authoring, app_id)
    assert got["local_variables"] == [
        {"name": "due", "type": "datetime", "value": "2026-05-17T14:30:00.000-0400"}
    ]
    assert emu.rule_machine.rules[int(app_id)].local.variables["due"]["value"].endswith("-0400")
    spec["local_variables"][0]["value"] = "2026-06-01T08:00:00Z"
    await _updated(authoring, app_id, spec)
    assert emu.rule_machine.rules[int(app_id)].local.variables["due"] == {
        "type": "datetime",
        "value": "2026-06-01T08:00:00.000+0000",
    }
    got = await _read(authoring, app_id)
    assert got["local_variables"][0]["value"] == "2026-06-01T08:00:00.000+0000"


async def test_wrong_targets_are_refused_and_nothing_changes(
    emu: HubEmulator, authoring: Hub
) -> None:
    motion, sensor = dev_id(emu, "Office Motion"), dev_id(emu, "Dining Room Sensor")
    porch = dev_id(emu, "Porch Light")
    base: dict[str, Any] = {
        "name": "Refused",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
    }
    cases: list[tuple[dict[str, Any], str]] = [
        (
            {"set_variable": "houseStatus", "math": {"left": 1, "op": "+", "right": 2}},
            "houseStatus",
        ),
        (
            {
                "set_variable": "vacationMode",
                "from_device": {"device_id": sensor, "attribute": "humidity"},
            },
            "vacationMode",
        ),
        (
            {"set_variable": "guestCount", "math": {"left": "houseStatus", "op": "negate"}},
            "houseStatus",
        ),
        ({"set_variable": "guestCount", "math": {"left": 1, "op": "+"}}, "right"),
        ({"set_variable": "guestCount", "math": {"left": 1, "op": "^", "right": 2}}, "operator"),
        (
            {
                "set_variable": "guestCount",
                "from_device": {"device_id": sensor, "attribute": "switch"},
            },
            "no attribute",
        ),
        ({"set_level_per_mode": {"Party": 50}, "device_ids": [sensor]}, "Party"),
        (
            {"color_per_mode": {"Day": {"color": "Red", "level": 5}}, "device_ids": [porch]},
            "setColor",
        ),
        ({"fade_level": 50, "minutes": 5, "device_ids": [porch]}, "direction"),
        ({"delay_from_variable": "lastArrival"}, "lastArrival"),
        ({"adjust_level": 0, "device_ids": [porch]}, "must not be 0"),
        ({"cancel_timers": ["99999"]}, "99999"),
    ]
    before = set(emu.rule_machine.rules)
    writes = _writes(emu)
    for action, why in cases:
        with pytest.raises(ToolError) as refused:
            await authoring.rule_authoring.create(
                {**base, "actions": [action]}, confirm=False, validate_only=False
            )
        assert why in str(refused.value), (why, str(refused.value))
    assert set(emu.rule_machine.rules) == before
    assert _writes(emu) == writes
    bad_local = {
        **base,
        "local_variables": [{"name": "due", "type": "datetime", "value": "2026-05-17 14:30"}],
        "actions": [{"log": "x"}],
    }
    with pytest.raises(ToolError, match="UTC offset"):
        await authoring.rule_authoring.create(bad_local, confirm=False, validate_only=False)
    assert set(emu.rule_machine.rules) == before
    assert _writes(emu) == writes


NEW_ACTIONS: list[dict[str, Any]] = [
    {"set_level_per_mode": {"Day": 80}, "device_ids": ["5"]},
    {"switch_per_mode": {"Night": "on"}, "device_id": "5"},
    {"choose_per_mode": {"Night": {"off": ["5", 6]}}},
    {"color_per_mode": {"Day": {"color": "Red", "level": 50}}, "device_ids": ["5"]},
    {"color_temperature_per_mode": {"Day": {"kelvin": 2700, "level": 50}}, "device_ids": ["5"]},
    {"fade_level": 0, "minutes": 30, "direction": "lower", "device_ids": ["5"]},
    {
        "fade_color_temperature": 6500,
        "minutes": 5,
        "direction": "raise",
        "interval_seconds": 30,
        "device_ids": ["5"],
    },
    {"start_level_change": "lower", "device_ids": ["5"]},
    {"stop_level_change": ["5"]},
    {"adjust_level": 15, "device_ids": ["5"]},
    {"cancel_timers": ["12"]},
    {"delay_from_variable": "secs", "cancelable": True, "random": True},
    {"delay": {"minutes": 3}, "random": True, "cancelable": True},
    {"set_variable": "n", "from_device": {"device_id": "5", "attribute": "level"}},
    {"set_variable": "n", "math": {"left": "n", "op": "%", "right": 7}},
    {"set_variable": "n", "math": {"left": 2.5, "op": "sqrt"}},
]
BAD_ACTIONS: list[dict[str, Any]] = [
    {"set_level_per_mode": {"Day": 101}, "device_ids": ["5"]},
    {"switch_per_mode": {"Day": "toggle"}, "device_ids": ["5"]},
    {"choose_per_mode": {"Day": {}}},
    {"fade_level": 10, "minutes": 0, "direction": "lower", "device_ids": ["5"]},
    {"start_level_change": "up", "device_ids": ["5"]},
    {"adjust_level": 0, "device_ids": ["5"]},
    {"set_variable": "n", "math": {"left": 1, "op": "sqrt", "right": 2}},
    {"set_variable": "n", "value": 1, "math": {"left": 1, "op": "negate"}},
    {"delay_from_variable": "secs", "minutes": 2},
]


def test_the_schema_and_the_parser_agree_on_the_new_actions() -> None:
    import jsonschema  # type: ignore[import-untyped]

    from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
    from custom_components.hubitat_dev_tools.managers.automation.schema import SPEC_SCHEMA

    validator = jsonschema.Draft202012Validator(SPEC_SCHEMA)
    spec: dict[str, Any] = {
        "name": "All of them",
        "local_variables": [
            {"name": "at", "type": "datetime", "value": "2026-01-02T03:04:05+01:00"}
        ],
        "actions": NEW_ACTIONS,
    }
    assert not list(validator.iter_errors(spec))
    parsed = parse_spec(spec).as_dict()
    assert parse_spec(parsed).as_dict() == parsed  # the canonical form parses to itself
    assert parsed["local_variables"][0]["value"] == "2026-01-02T03:04:05.000+0100"
    assert parsed["actions"][2] == {"choose_per_mode": {"Night": {"off": ["5", "6"]}}}
    for action in BAD_ACTIONS:
        bad = {"name": "x", "actions": [action]}
        assert list(validator.iter_errors(bad)), action
        try:
            parse_spec(bad)
        except ToolError:
            continue
        raise AssertionError(f"parser took {action}")
