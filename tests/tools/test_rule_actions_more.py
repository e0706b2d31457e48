"""More Rule Machine actions through the tools: per-mode device settings, fades and level
changes, Set Variable from a device attribute or variable math, delays from a variable or at
random, Cancel Rule Timers, and DateTime local variables. Each rule is built on the emulated
pages, read back equal, edited in place (the same app id) and run."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..home_util import dev_id


def _motion_again(hub: HubEmulator, motion: str) -> None:
    hub.set_device_attribute(int(motion), "motion", "inactive")
    hub.set_device_attribute(int(motion), "motion", "active")


def _attr(hub: HubEmulator, device: str, attr: str) -> Any:
    return hub.state.devices[int(device)].attrs[attr].value


async def _made(call_tool: ToolCaller, spec: dict[str, Any], **args: Any) -> str:
    result = await call_tool("hub_create_rule", {"rule": spec, **args})
    assert not result.error, result.data
    return str(result.data["app_id"])


async def _read(call_tool: ToolCaller, app_id: str) -> dict[str, Any]:
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [], got.data
    spec: dict[str, Any] = got.data["spec"]
    return spec


async def _updated(call_tool: ToolCaller, app_id: str, spec: dict[str, Any], **args: Any) -> None:
    result = await call_tool("hub_update_rule", {"app_id": app_id, "rule": spec, **args})
    assert not result.error, result.data
    assert result.data["app_id"] == app_id and result.data["edited_in_place"] is True, result.data


async def _fire(hub: HubEmulator, motion: str) -> None:
    _motion_again(hub, motion)
    await hub.clock.settle()
    await hub.clock.advance(1)


async def test_per_mode_device_actions_are_built_read_back_edited_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    dimmer, porch = dev_id(hub, "Kitchen Light"), dev_id(hub, "Porch Light")
    rgbw, ct = dev_id(hub, "Office Desk Lamp"), dev_id(hub, "Kitchen Island Pendants")
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
    dry = await call_tool("hub_create_rule", {"rule": spec, "validate_only": True})
    assert not dry.error, dry.data
    assert "  Dim per mode: Kitchen Light: Day: 80, Night: 10" in dry.data["rule_text"]
    app_id = await _made(call_tool, spec)
    model = hub.rule_machine.rules[int(app_id)]
    s = model.settings
    night = str(next(m.id for m in hub.state.modes if m.name == "Night"))
    per_level = next(n for n in model.actions if s[f"actSubType.{n}"] == "getDimmersPerMode")
    assert s[f"level{night}.{per_level}"] == 10
    per_ct = next(n for n in model.actions if s[f"actSubType.{n}"] == "getColorTempPerMode")
    assert s[f"ctMode{night}.{per_ct}Level"] == 20  # the level's name ends after the number
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]
    text = (await call_tool("hub_get_rule", {"app_id": app_id})).data["rule_text"]
    assert "Dim per mode" in str(text)

    hub.set_mode("Night")
    await _fire(hub, motion)
    assert _attr(hub, dimmer, "level") == 10
    assert _attr(hub, porch, "switch") == "on" and _attr(hub, rgbw, "switch") == "off"
    assert _attr(hub, ct, "colorTemperature") == 2200 and _attr(hub, ct, "level") == 20

    hub.set_mode("Day")
    await _fire(hub, motion)
    assert _attr(hub, dimmer, "level") == 80 and _attr(hub, porch, "switch") == "off"
    assert _attr(hub, rgbw, "colorName") == "Blue" and _attr(hub, rgbw, "level") == 70

    # edited in place: the night level changes, the app id stays
    spec["actions"][0] = {"set_level_per_mode": {"Day": 80, "Night": 25}, "device_ids": [dimmer]}
    await _updated(call_tool, app_id, spec)
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]
    hub.set_mode("Night")
    await _fire(hub, motion)
    assert _attr(hub, dimmer, "level") == 25


def _commands(hub: HubEmulator, device: str) -> list[str]:
    return [
        e.description or "" for e in hub.state.devices[int(device)].events if e.type == "command"
    ]


async def test_fades_and_level_changes_run_on_the_emulated_clock(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    living, kitchen = dev_id(hub, "Living Room Dimmer"), dev_id(hub, "Kitchen Light")
    lamp, guest = dev_id(hub, "Master Bedroom Lamp"), dev_id(hub, "Guest Lamp")
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
    app_id = await _made(call_tool, spec)
    s = hub.rule_machine.rules[int(app_id)].settings
    subs = {s[f"actSubType.{n}"]: n for n in hub.rule_machine.rules[int(app_id)].actions}
    assert s[f"dimFadeUp.{subs['getFadeDimmer']}"] is False
    assert s[f"dimRL.{subs['getRLDimmer']}"] is False  # dimRL true is lower (inverted)
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]

    hub.set_device_attribute(int(kitchen), "level", 80)
    await _fire(hub, motion)
    assert _attr(hub, kitchen, "level") == 50
    assert any("startLevelChange(up)" in c for c in _commands(hub, guest))
    assert any("stopLevelChange()" in c for c in _commands(hub, guest))
    await hub.clock.advance(minutes=5)
    halfway = _attr(hub, living, "level")
    assert 30 <= halfway <= 50, halfway  # on its way from 70 to 10
    assert 2200 < _attr(hub, lamp, "colorTemperature") < 4000
    await hub.clock.advance(minutes=6)
    assert _attr(hub, living, "level") == 10
    assert _attr(hub, lamp, "colorTemperature") == 4000

    # edited in place: the fade goes up instead
    spec["actions"][0] = {
        "fade_level": 90,
        "minutes": 2,
        "direction": "raise",
        "device_ids": [living],
    }
    await _updated(call_tool, app_id, spec)
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]
    await _fire(hub, motion)
    await hub.clock.advance(minutes=3)
    assert _attr(hub, living, "level") == 90


async def test_set_variable_from_a_device_and_from_math(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, sensor = dev_id(hub, "Office Motion"), dev_id(hub, "Dining Room Sensor")
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
    app_id = await _made(call_tool, spec)
    s = hub.rule_machine.rules[int(app_id)].settings
    math_n = next(
        n
        for n in hub.rule_machine.rules[int(app_id)].actions
        if s.get(f"valMathOp.{n}") == "absolute"
    )
    assert s[f"numOp.{math_n}"] == "variable math" and s[f"xVar3.{math_n}"] == "(constant)"
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]

    before = int(str(hub.state.variables["doorOpenCount"].value))
    humidity = _attr(hub, sensor, "humidity")
    await _fire(hub, motion)
    assert hub.state.variables["guestCount"].value == int(humidity)
    assert hub.state.variables["doorOpenCount"].value == before + 1
    assert hub.state.variables["thermostatOffset"].value == 2.5
    assert hub.rule_machine.rules[int(app_id)].local.variables["tally"]["value"] == 4 * int(
        humidity
    )

    spec["actions"][1] = {
        "set_variable": "doorOpenCount",
        "math": {"left": "doorOpenCount", "op": "-", "right": 2},
    }
    # the read shows the local variable as the run left it; the spec given sets it back
    assert (await _read(call_tool, app_id))["local_variables"][0]["value"] == 4 * int(humidity)
    await _updated(call_tool, app_id, spec)
    got = await _read(call_tool, app_id)
    assert got["actions"] == spec["actions"]
    assert got["local_variables"] == [{"name": "tally", "type": "integer", "value": 4}]
    await _fire(hub, motion)
    assert hub.state.variables["doorOpenCount"].value == before - 1


async def test_delays_from_a_variable_random_ones_and_cancel_timers(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, door = dev_id(hub, "Office Motion"), dev_id(hub, "Office Door")
    porch, kitchen = dev_id(hub, "Porch Light"), dev_id(hub, "Kitchen Light")
    hub.set_variable("guestCount", 30)  # the delay's seconds
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
    app_id = await _made(call_tool, delayed)
    assert (await _read(call_tool, app_id))["actions"] == delayed["actions"]
    stopper: dict[str, Any] = {
        "name": "Stop the porch",
        "triggers": [{"device_id": door, "attribute": "contact", "is": "open"}],
        "actions": [{"cancel_timers": [app_id]}],
    }
    stop_id = await _made(call_tool, stopper)
    assert (await _read(call_tool, stop_id))["actions"] == stopper["actions"]

    hub.set_device_attribute(int(porch), "switch", "off")
    hub.set_device_attribute(int(kitchen), "switch", "on")
    await _fire(hub, motion)
    await hub.clock.advance(20)
    assert _attr(hub, porch, "switch") == "off"  # 30 seconds, from the variable
    await hub.clock.advance(15)
    assert _attr(hub, porch, "switch") == "on"
    await hub.clock.advance(minutes=2)  # the random delay is at most 2 minutes
    assert _attr(hub, kitchen, "switch") == "off"

    # a second run is cancelled by the other rule while it waits out its delay
    hub.set_device_attribute(int(porch), "switch", "off")
    await _fire(hub, motion)
    hub.set_device_attribute(int(door), "contact", "closed")
    hub.set_device_attribute(int(door), "contact", "open")
    await hub.clock.advance(60)
    assert _attr(hub, porch, "switch") == "off"

    delayed["actions"][0] = {"delay_from_variable": "guestCount"}
    await _updated(call_tool, app_id, delayed)
    assert (await _read(call_tool, app_id))["actions"] == delayed["actions"]


async def test_datetime_local_variables_are_kept_in_the_hubs_form(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = dev_id(hub, "Office Motion")
    spec: dict[str, Any] = {
        "name": "With a date",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "local_variables": [
            {"name": "due", "type": "datetime", "value": "2026-05-17T14:30:00-04:00"}
        ],
        "actions": [{"log": "due is %due%"}],
    }
    app_id = await _made(call_tool, spec)
    model = hub.rule_machine.rules[int(app_id)]
    assert model.local.variables["due"] == {
        "type": "datetime",
        "value": "2026-05-17T14:30:00.000-0400",
    }
    got = await _read(call_tool, app_id)  # answers show timestamps with a colon offset
    assert got["local_variables"] == [
        {"name": "due", "type": "datetime", "value": "2026-05-17T14:30:00.000-04:00"}
    ]
    assert hub.rule_machine.rules[int(app_id)].local.variables["due"]["value"].endswith("-0400")
    spec["local_variables"][0]["value"] = "2026-06-01T08:00:00Z"
    await _updated(call_tool, app_id, spec)
    got = await _read(call_tool, app_id)
    assert got["local_variables"][0]["value"] == "2026-06-01T08:00:00.000+00:00"


async def test_wrong_targets_are_refused_and_nothing_changes(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, sensor = dev_id(hub, "Office Motion"), dev_id(hub, "Dining Room Sensor")
    porch = dev_id(hub, "Porch Light")
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
    before = set(hub.rule_machine.rules)
    writes = len([r for r in hub.requests if r[0] != "GET"])
    for action, why in cases:
        result = await call_tool("hub_create_rule", {"rule": {**base, "actions": [action]}})
        assert result.error, (action, result.data)
        assert why in result.data["message"], (why, result.data)
    assert set(hub.rule_machine.rules) == before
    assert len([r for r in hub.requests if r[0] != "GET"]) == writes
    bad_local = {
        **base,
        "local_variables": [{"name": "due", "type": "datetime", "value": "2026-05-17 14:30"}],
        "actions": [{"log": "x"}],
    }
    result = await call_tool("hub_create_rule", {"rule": bad_local})
    assert result.error and "UTC offset" in result.data["message"], result.data


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

    from custom_components.hubitat_dev_tools.errors import ToolError
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


async def test_a_read_leaves_out_devices_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES

    motion, porch = dev_id(hub, "Office Motion"), dev_id(hub, "Porch Light")
    guest, kitchen = dev_id(hub, "Guest Lamp"), dev_id(hub, "Kitchen Light")
    spec: dict[str, Any] = {
        "name": "Partly hidden",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [
            {"stop_level_change": [guest, kitchen]},
            {"choose_per_mode": {"Night": {"on": [porch], "off": [guest]}}},
        ],
    }
    app_id = await _made(call_tool, spec)
    allowed = [motion, porch, kitchen]
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: allowed})
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    actions = got.data["spec"]["actions"]
    assert actions[0] == {"stop_level_change": [kitchen]}
    assert actions[1] == {"choose_per_mode": {"Night": {"on": [porch], "off": []}}}
    assert guest not in str(got.data)
