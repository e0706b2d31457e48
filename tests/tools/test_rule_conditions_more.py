"""More Rule Machine conditions through the tools: a device's reading against another
device's (``isDev_<C>``/``relDevice_<C>``, an offset in ``state_<C>``), a variable against
another variable (``isVar_<C>``/``xVarR_<C>``), the rule's Private Boolean (Required
Expression only) and groups in brackets inside an IF's expression. Each is built, read back
equal with hub_get_rule, edited in place with hub_update_rule (the same app id) and run by
the emulated rule both ways; wrong specs are refused with nothing sent."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..home_util import dev_id

LIGHT, BUTTON = "Office Light", "Bedside Button"
WARM, COOL = "Dining Room Sensor", "Guest Room Sensor"  # 70.1 and 65.3 degrees


def _rule(hub: HubEmulator, name: str, **parts: Any) -> dict[str, Any]:
    light = dev_id(hub, LIGHT)
    return {
        "name": name,
        "triggers": [{"button_device_id": dev_id(hub, BUTTON), "button": 1, "event": "pushed"}],
        "actions": [{"command": "on", "device_ids": [light]}],
        **parts,
    }


async def _press(hub: HubEmulator) -> str:
    """Turn the light off, push the button, and answer the light's switch afterwards."""
    light = int(dev_id(hub, LIGHT))
    hub.run_command(light, "off", [])
    hub.run_command(int(dev_id(hub, BUTTON)), "push", [1])
    await hub.clock.settle()
    return str(hub.device(light)["attributes"]["switch"])


async def _made(call_tool: ToolCaller, spec: dict[str, Any]) -> str:
    made = await call_tool("hub_create_rule", {"rule": spec})
    assert not made.error, made.data
    return str(made.data["app_id"])


async def _spec(call_tool: ToolCaller, app_id: str) -> dict[str, Any]:
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [], got.data
    spec: dict[str, Any] = got.data["spec"]
    return spec


async def _updated(call_tool: ToolCaller, app_id: str, spec: dict[str, Any]) -> None:
    done = await call_tool("hub_update_rule", {"app_id": app_id, "rule": spec})
    assert not done.error, done.data
    assert done.data["app_id"] == app_id and done.data["edited_in_place"] is True, done.data


async def test_a_reading_against_another_devices(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    warm, cool = dev_id(hub, WARM), dev_id(hub, COOL)
    cond = {
        "device_id": warm,
        "attribute": "temperature",
        "op": "gt",
        "compare_to": {"device_id": cool, "offset": 2},
    }
    app_id = await _made(call_tool, _rule(hub, "Warmer than the guest room", conditions=cond))
    assert (await _spec(call_tool, app_id))["conditions"] == cond
    settings = hub.rule_machine.rules[int(app_id)].settings
    c = next(k[7:] for k, v in settings.items() if k.startswith("rCapab_"))
    assert settings[f"isDev_{c}"] is True and settings[f"relDevice_{c}"] == cool
    assert settings[f"RelrDev_{c}"] == ">" and settings[f"state_{c}"] == 2
    assert await _press(hub) == "on"  # 70.1 > 65.3 + 2
    hub.set_device_attribute(int(cool), "temperature", 69.0)
    assert await _press(hub) == "off"  # 70.1 > 71.0 is false

    # in place: now "cooler than the guest room", no offset, inside an IF
    lower = {k: v for k, v in cond.items() if k != "compare_to"}
    lower |= {"op": "lt", "compare_to": {"device_id": cool}}
    light = dev_id(hub, LIGHT)
    new = _rule(
        hub,
        "Cooler than the guest room",
        actions=[{"if": lower, "then": [{"command": "on", "device_ids": [light]}]}],
    )
    await _updated(call_tool, app_id, new)
    assert (await _spec(call_tool, app_id))["actions"] == new["actions"]
    assert await _press(hub) == "off"  # 70.1 < 69.0 is false
    hub.set_device_attribute(int(cool), "temperature", 72.5)
    assert await _press(hub) == "on"


async def test_a_variable_against_another_variable(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    cond = {"variable": "guestCount", "op": "lt", "compare_to": {"variable": "doorOpenCount"}}
    app_id = await _made(call_tool, _rule(hub, "Fewer guests than door openings", conditions=cond))
    assert (await _spec(call_tool, app_id))["conditions"] == cond
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert any("guestCount < doorOpenCount" in line for line in got.data["rule_text"])
    assert await _press(hub) == "on"  # 2 < 17
    hub.set_variable("guestCount", 20)
    assert await _press(hub) == "off"

    # in place: the same test negated, in a Repeat While's place: an IF with an ELSE-IF
    light = dev_id(hub, LIGHT)
    new = _rule(
        hub,
        "More guests than door openings",
        actions=[
            {
                "if": {"mode": ["Away"]},
                "then": [{"log": "away"}],
                "else_if": [
                    {"if": {"not": cond}, "then": [{"command": "on", "device_ids": [light]}]}
                ],
            }
        ],
    )
    await _updated(call_tool, app_id, new)
    assert (await _spec(call_tool, app_id))["actions"] == new["actions"]
    assert await _press(hub) == "on"  # not (20 < 17)
    hub.set_variable("guestCount", 1)
    assert await _press(hub) == "off"


async def test_the_rules_private_boolean(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, LIGHT)
    spec = _rule(
        hub,
        "Once until re-armed",
        conditions={"private_boolean": True},
        actions=[{"command": "on", "device_ids": [light]}, {"set_private_boolean": False}],
    )
    app_id = await _made(call_tool, spec)
    assert (await _spec(call_tool, app_id))["conditions"] == {"private_boolean": True}
    settings = hub.rule_machine.rules[int(app_id)].settings
    c = next(k[7:] for k, v in settings.items() if v == "Private Boolean")
    assert settings[f"state_{c}"] == "true" and f"rDev_{c}" not in settings
    assert await _press(hub) == "on"  # true: it runs, and sets it false
    assert await _press(hub) == "off"  # false now: the Required Expression stops it

    new = {
        **spec,
        "conditions": {"private_boolean": False},
        "actions": [{"command": "on", "device_ids": [light]}, {"set_private_boolean": True}],
    }
    await _updated(call_tool, app_id, new)
    assert (await _spec(call_tool, app_id))["conditions"] == {"private_boolean": False}
    assert await _press(hub) == "on"  # still false from the last run: now it runs
    assert await _press(hub) == "off"  # and it set it true


async def test_groups_in_brackets_inside_an_if(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, LIGHT)
    grouped = {
        "all": [
            {"variable": "guestCount", "op": "gte", "value": 1},
            {
                "any": [
                    {"variable": "doorOpenCount", "op": "gt", "value": 100},
                    {"variable": "outsideTemp", "op": "lt", "value": 50},
                ]
            },
        ]
    }
    actions = [{"if": grouped, "then": [{"command": "on", "device_ids": [light]}]}]
    app_id = await _made(call_tool, _rule(hub, "Guests on a cold day", actions=actions))
    assert (await _spec(call_tool, app_id))["actions"] == actions
    state = hub.rule_machine.rules[int(app_id)].state()
    assert any("(" in tokens for key, tokens in state["eval"].items() if key != "0"), state
    assert await _press(hub) == "on"  # 2 >= 1 and (17 > 100 or 48.7 < 50)
    hub.set_variable("outsideTemp", 60.0)
    assert await _press(hub) == "off"  # 2 >= 1 and (false or false)

    # in place: the group first, OR-ed with a plain test, in an IF with a nested group
    regrouped = {
        "any": [
            {
                "all": [
                    {"variable": "guestCount", "op": "eq", "value": 0},
                    {"any": [{"variable": "outsideTemp", "op": "gt", "value": 55}]},
                ]
            },
            {"variable": "doorOpenCount", "op": "gt", "value": 100},
        ]
    }
    new_actions = [{"if": regrouped, "then": [{"command": "on", "device_ids": [light]}]}]
    await _updated(call_tool, app_id, _rule(hub, "Guests on a cold day", actions=new_actions))
    got = (await _spec(call_tool, app_id))["actions"]
    # a one-item group reads back as its condition
    flat = {
        "any": [
            {
                "all": [
                    {"variable": "guestCount", "op": "eq", "value": 0},
                    {"variable": "outsideTemp", "op": "gt", "value": 55},
                ]
            },
            {"variable": "doorOpenCount", "op": "gt", "value": 100},
        ]
    }
    assert got == [{"if": flat, "then": new_actions[0]["then"]}]
    assert await _press(hub) == "off"  # guestCount is 2, doors 17
    hub.set_variable("guestCount", 0)
    assert await _press(hub) == "on"  # 0 == 0 and 60 > 55


@pytest.mark.parametrize(
    ("conditions", "actions", "error", "words"),
    [
        (
            None,
            [{"if": {"private_boolean": True}, "then": [{"log": "x"}]}],
            "not_supported",
            "Required Expression",
        ),
        (
            {
                "device_id": "WARM",
                "attribute": "temperature",
                "op": "gt",
                "compare_to": {"variable": "outsideTemp"},
            },
            None,
            "not_supported",
            "compare a device with a variable",
        ),
        (
            {"variable": "outsideTemp", "op": "gt", "compare_to": {"device_id": "WARM"}},
            None,
            "not_supported",
            "compare a variable with a device",
        ),
        (
            {
                "device_id": "LIGHT",
                "attribute": "switch",
                "op": "eq",
                "compare_to": {"device_id": "LIGHT"},
            },
            None,
            "invalid_request",
            "numeric attribute",
        ),
        (
            {
                "device_id": "WARM",
                "attribute": "temperature",
                "op": "gt",
                "value": 3,
                "compare_to": {"device_id": "COOL"},
            },
            None,
            "invalid_request",
            "value or compare_to",
        ),
        (
            {"device_id": "WARM", "attribute": "temperature", "compare_to": {"device_id": "COOL"}},
            None,
            "invalid_request",
            "compare_to needs op",
        ),
        (
            {
                "device_id": "WARM",
                "attribute": "temperature",
                "op": "gt",
                "compare_to": {"device_id": "COOL", "offset": "two"},
            },
            None,
            "invalid_request",
            "compare_to.offset",
        ),
        (
            {"variable": "guestCount", "op": "lt", "compare_to": {"variable": "noSuchVariable"}},
            None,
            "invalid_request",
            "compare_to.variable",
        ),
        ({"private_boolean": "yes"}, None, "invalid_request", "private_boolean"),
        ({"hsm": "armedAway"}, None, "not_supported", "HSM status"),
        ({"days": ["Monday"]}, None, "not_supported", "days-of-week"),
    ],
)
async def test_wrong_specs_are_refused_and_nothing_changes(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    conditions: dict[str, Any] | None,
    actions: list[dict[str, Any]] | None,
    error: str,
    words: str,
) -> None:
    names = {"WARM": dev_id(hub, WARM), "COOL": dev_id(hub, COOL), "LIGHT": dev_id(hub, LIGHT)}

    def ids(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: ids(v) for k, v in value.items()}
        if isinstance(value, list):
            return [ids(v) for v in value]
        return names.get(value, value) if isinstance(value, str) else value

    parts: dict[str, Any] = {}
    if conditions is not None:
        parts["conditions"] = ids(conditions)
    if actions is not None:
        parts["actions"] = actions
    app_id = await _made(call_tool, _rule(hub, "Left alone"))
    before = dict(hub.rule_machine.rules[int(app_id)].settings)
    writes = len([r for r in hub.requests if r[0] != "GET"])
    for tool, args in (
        ("hub_create_rule", {"rule": _rule(hub, "Refused", **parts)}),
        ("hub_update_rule", {"app_id": app_id, "rule": _rule(hub, "Refused", **parts)}),
    ):
        refused = await call_tool(tool, args)
        assert refused.error, (tool, refused.data)
        assert refused.data["error"] == error, (tool, refused.data)
        assert words in refused.data["message"] + refused.data.get("hint", ""), refused.data
    assert len([r for r in hub.requests if r[0] != "GET"]) == writes
    assert hub.rule_machine.rules[int(app_id)].settings == before


def test_the_schema_takes_the_new_conditions() -> None:
    import jsonschema  # type: ignore[import-untyped]

    from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
    from custom_components.hubitat_dev_tools.managers.automation.schema import SPEC_SCHEMA

    spec: dict[str, Any] = {
        "name": "All of them",
        "conditions": {
            "any": [
                {"private_boolean": False},
                {
                    "device_ids": ["1", "2"],
                    "attribute": "humidity",
                    "op": "gte",
                    "compare_to": {"device_id": "3", "offset": -2.5},
                },
            ]
        },
        "actions": [
            {
                "repeat_while": {
                    "all": [
                        {"not": {"variable": "a", "op": "ne", "compare_to": {"variable": "b"}}},
                        {"any": [{"mode": ["Day"]}, {"mode": ["Night"]}]},
                    ]
                },
                "every": {"minutes": 1},
                "do": [{"log": "x"}],
            },
            {"wait_until": {"any": [{"mode": ["Day"]}, {"all": [{"mode": ["Night"]}]}]}},
        ],
    }
    validator = jsonschema.Draft202012Validator(SPEC_SCHEMA)
    assert not list(validator.iter_errors(spec))
    parsed = parse_spec(spec).as_dict()
    assert parsed["conditions"] == spec["conditions"]
    assert parsed["actions"][0] == spec["actions"][0]
    # a group of one is its condition
    assert parsed["actions"][1] == {"wait_until": {"any": [{"mode": ["Day"]}, {"mode": ["Night"]}]}}
    wrong = {**spec, "conditions": {"private_boolean": True, "mode": ["Day"]}}
    assert list(validator.iter_errors(wrong))


async def test_groups_in_a_wait_and_a_repeat_while_read_back(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, LIGHT)
    group = {
        "any": [
            {"mode": ["Night"]},
            {"all": [{"variable": "guestCount", "op": "gt", "value": 5}, {"mode": ["Day"]}]},
        ]
    }
    actions = [
        {"wait_until": group, "timeout": {"minutes": 5}},
        {
            "repeat_while": {"all": [{"variable": "guestCount", "op": "gt", "value": 50}, group]},
            "every": {"minutes": 1},
            "do": [{"command": "on", "device_ids": [light]}],
        },
    ]
    app_id = await _made(call_tool, _rule(hub, "Waits for a group", actions=actions))
    assert (await _spec(call_tool, app_id))["actions"] == actions
    evals = hub.rule_machine.rules[int(app_id)].state()["eval"]
    assert sum("(" in tokens for tokens in evals.values()) == 2, evals


async def test_a_conditional_trigger_takes_no_device_comparison(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    gate = {
        "device_id": dev_id(hub, WARM),
        "attribute": "temperature",
        "op": "gt",
        "compare_to": {"device_id": dev_id(hub, COOL)},
    }
    spec = _rule(hub, "Gated")
    spec["triggers"][0]["only_if"] = gate
    writes = len([r for r in hub.requests if r[0] != "GET"])
    refused = await call_tool("hub_create_rule", {"rule": spec})
    assert refused.error and refused.data["error"] == "not_supported", refused.data
    assert "only_if.compare_to" in refused.data["message"]
    assert len([r for r in hub.requests if r[0] != "GET"]) == writes


async def test_a_conditional_trigger_compares_two_variables(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    # selectTriggers' isVar_<N> / xVarR_<N>: the on-hub server's live-verified static path
    spec = _rule(hub, "Gated by two variables")
    gate = {"variable": "guestCount", "op": "lt", "compare_to": {"variable": "doorOpenCount"}}
    spec["triggers"][0]["only_if"] = gate
    app_id = await _made(call_tool, spec)
    assert (await _spec(call_tool, app_id))["triggers"] == spec["triggers"]
    assert await _press(hub) == "on"  # 2 < 17
    hub.set_variable("guestCount", 20)
    assert await _press(hub) == "off"
