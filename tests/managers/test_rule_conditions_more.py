"""Rule authoring (``managers/automation/``, ``hub.rule_authoring``) on its own, no hass: more
Rule Machine conditions. A device's reading against another device's (``isDev_<C>``/
``relDevice_<C>``, an offset in ``state_<C>``), a variable against another variable
(``isVar_<C>``/``xVarR_<C>``), the rule's Private Boolean (Required Expression only), groups in
brackets inside an IF's expression, a wait and a Repeat While, and conditional triggers. Each
is built through the emulated rule's pages, read back equal, edited in place (the same app id)
and run by the emulated rule both ways; the schema and the parser agree; wrong specs are
refused (with the error's code and words) with nothing sent.

Moved from tests/tools/test_rule_conditions_more.py (the tools' answers stay there: their
summaries, the app id and edited_in_place they answer, and a refusal as an error result with
its code, message and hint)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.rule_conditions_more import COOL, LIGHT, WARM, _press, _rule
from ..home_util import dev_id
from .rule_actions_more_util import _get as _read
from .rule_actions_more_util import _made, _updated
from .rule_actions_more_util import _read as _spec


def _writes(emu: HubEmulator) -> int:
    return len([r for r in emu.requests if r[0] != "GET"])


async def test_a_reading_against_another_devices(emu: HubEmulator, authoring: Hub) -> None:
    warm, cool = dev_id(emu, WARM), dev_id(emu, COOL)
    cond = {
        "device_id": warm,
        "attribute": "temperature",
        "op": "gt",
        "compare_to": {"device_id": cool, "offset": 2},
    }
    app_id = await _made(authoring, _rule(emu, "Warmer than the guest room", conditions=cond))
    assert (await _spec(authoring, app_id))["conditions"] == cond
    settings = emu.rule_machine.rules[int(app_id)].settings
    c = next(k[7:] for k, v in settings.items() if k.startswith("rCapab_"))
    assert settings[f"isDev_{c}"] is True and settings[f"relDevice_{c}"] == cool
    assert settings[f"RelrDev_{c}"] == ">" and settings[f"state_{c}"] == 2
    assert await _press(emu) == "on"  # 70.1 > 65.3 + 2
    emu.set_device_attribute(int(cool), "temperature", 69.0)
    assert await _press(emu) == "off"  # 70.1 > 71.0 is false

    # in place: now "cooler than the guest room", no offset, inside an IF
    lower = {k: v for k, v in cond.items() if k != "compare_to"}
    lower |= {"op": "lt", "compare_to": {"device_id": cool}}
    light = dev_id(emu, LIGHT)
    new = _rule(
        emu,
        "Cooler than the guest room",
        actions=[{"if": lower, "then": [{"command": "on", "device_ids": [light]}]}],
    )
    await _updated(authoring, app_id, new)
    assert (await _spec(authoring, app_id))["actions"] == new["actions"]
    assert await _press(emu) == "off"  # 70.1 < 69.0 is false
    emu.set_device_attribute(int(cool), "temperature", 72.5)
    assert await _press(emu) == "on"


async def test_a_variable_against_another_variable(emu: HubEmulator, authoring: Hub) -> None:
    cond = {"variable": "guestCount", "op": "lt", "compare_to": {"variable": "doorOpenCount"}}
    app_id = await _made(authoring, _rule(emu, "Fewer guests than door openings", conditions=cond))
    got = await _read(authoring, app_id)
    assert got["spec"]["conditions"] == cond
    assert any("guestCount < doorOpenCount" in line for line in got["rule_text"])
    assert await _press(emu) == "on"  # 2 < 17
    emu.set_variable("guestCount", 20)
    assert await _press(emu) == "off"

    # in place: the same test negated, in a Repeat While's place: an IF with an ELSE-IF
    light = dev_id(emu, LIGHT)
    new = _rule(
        emu,
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
    await _updated(authoring, app_id, new)
    assert (await _spec(authoring, app_id))["actions"] == new["actions"]
    assert await _press(emu) == "on"  # not (20 < 17)
    emu.set_variable("guestCount", 1)
    assert await _press(emu) == "off"


async def test_the_rules_private_boolean(emu: HubEmulator, authoring: Hub) -> None:
    light = dev_id(emu, LIGHT)
    spec = _rule(
        emu,
        "Once until re-armed",
        conditions={"private_boolean": True},
        actions=[{"command": "on", "device_ids": [light]}, {"set_private_boolean": False}],
    )
    app_id = await _made(authoring, spec)
    assert (await _spec(authoring, app_id))["conditions"] == {"private_boolean": True}
    settings = emu.rule_machine.rules[int(app_id)].settings
    c = next(k[7:] for k, v in settings.items() if v == "Private Boolean")
    assert settings[f"state_{c}"] == "true" and f"rDev_{c}" not in settings
    assert await _press(emu) == "on"  # true: it runs, and sets it false
    assert await _press(emu) == "off"  # false now: the Required Expression stops it

    new = {
        **spec,
        "conditions": {"private_boolean": False},
        "actions": [{"command": "on", "device_ids": [light]}, {"set_private_boolean": True}],
    }
    await _updated(authoring, app_id, new)
    assert (await _spec(authoring, app_id))["conditions"] == {"private_boolean": False}
    assert await _press(emu) == "on"  # still false from the last run: now it runs
    assert await _press(emu) == "off"  # and it set it true


async def test_groups_in_brackets_inside_an_if(emu: HubEmulator, authoring: Hub) -> None:
    light = dev_id(emu, LIGHT)
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
    app_id = await _made(authoring, _rule(emu, "Guests on a cold day", actions=actions))
    assert (await _spec(authoring, app_id))["actions"] == actions
    state = emu.rule_machine.rules[int(app_id)].state()
    assert any("(" in tokens for key, tokens in state["eval"].items() if key != "0"), state
    assert await _press(emu) == "on"  # 2 >= 1 and (17 > 100 or 48.7 < 50)
    emu.set_variable("outsideTemp", 60.0)
    assert await _press(emu) == "off"  # 2 >= 1 and (false or false)

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
    await _updated(authoring, app_id, _rule(emu, "Guests on a cold day", actions=new_actions))
    got = (await _spec(authoring, app_id))["actions"]
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
    assert await _press(emu) == "off"  # guestCount is 2, doors 17
    emu.set_variable("guestCount", 0)
    assert await _press(emu) == "on"  # 0 == 0 and 60 > 55


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
    emu: HubEmulator,
    authoring: Hub,
    conditions: dict[str, Any] | None,
    actions: list[dict[str, Any]] | None,
    error: str,
    words: str,
) -> None:
    names = {"WARM": dev_id(emu, WARM), "COOL": dev_id(emu, COOL), "LIGHT": dev_id(emu, LIGHT)}

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
    app_id = await _made(authoring, _rule(emu, "Left alone"))
    before = dict(emu.rule_machine.rules[int(app_id)].settings)
    writes = _writes(emu)
    rules = authoring.rule_authoring

    async def attempt(what: str) -> None:
        """The refused spec, as hub_create_rule or hub_update_rule gives it."""
        refused_spec = _rule(emu, "Refused", **parts)
        if what == "create":
            await rules.create(refused_spec, confirm=False, validate_only=False)
        else:
            await rules.update(app_id, refused_spec, None, confirm=False, validate_only=False)

    for what in ("create", "update"):
        with pytest.raises(ToolError) as refused:
            await attempt(what)
        assert refused.value.code == error, (what, refused.value.code, str(refused.value))
        assert words in str(refused.value) + (refused.value.hint or ""), (
            what,
            str(refused.value),
            refused.value.hint,
        )
    assert _writes(emu) == writes
    assert emu.rule_machine.rules[int(app_id)].settings == before


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
    emu: HubEmulator, authoring: Hub
) -> None:
    light = dev_id(emu, LIGHT)
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
    app_id = await _made(authoring, _rule(emu, "Waits for a group", actions=actions))
    assert (await _spec(authoring, app_id))["actions"] == actions
    evals = emu.rule_machine.rules[int(app_id)].state()["eval"]
    assert sum("(" in tokens for tokens in evals.values()) == 2, evals


async def test_a_conditional_trigger_takes_no_device_comparison(
    emu: HubEmulator, authoring: Hub
) -> None:
    gate = {
        "device_id": dev_id(emu, WARM),
        "attribute": "temperature",
        "op": "gt",
        "compare_to": {"device_id": dev_id(emu, COOL)},
    }
    spec = _rule(emu, "Gated")
    spec["triggers"][0]["only_if"] = gate
    writes = _writes(emu)
    rules_before = set(emu.rule_machine.rules)
    with pytest.raises(ToolError) as refused:
        await authoring.rule_authoring.create(spec, confirm=False, validate_only=False)
    assert refused.value.code == "not_supported", str(refused.value)
    assert "only_if.compare_to" in str(refused.value)
    assert _writes(emu) == writes
    assert set(emu.rule_machine.rules) == rules_before


async def test_a_conditional_trigger_compares_two_variables(
    emu: HubEmulator, authoring: Hub
) -> None:
    # selectTriggers' isVar_<N> / xVarR_<N>: the on-hub server's live-verified static path
    spec = _rule(emu, "Gated by two variables")
    gate = {"variable": "guestCount", "op": "lt", "compare_to": {"variable": "doorOpenCount"}}
    spec["triggers"][0]["only_if"] = gate
    app_id = await _made(authoring, spec)
    assert (await _spec(authoring, app_id))["triggers"] == spec["triggers"]
    assert await _press(emu) == "on"  # 2 < 17
    emu.set_variable("guestCount", 20)
    assert await _press(emu) == "off"
