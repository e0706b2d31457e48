"""A rule read back from its state in the hub's own shapes (``eval``, ``actions``,
``actionList``), and the Required Expression's sub-expressions built, read back and run."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.apps import parse_status
from custom_components.hubitat_dev_tools.managers.automation.authoring import _settings, _state
from custom_components.hubitat_dev_tools.managers.automation.decompile import Decompiler
from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
from custom_components.hubitat_dev_tools.managers.automation.stored_expr import (
    Group,
    Unreadable,
    parse_tokens,
    read_expression,
    tokens_of,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..contract import load_fixture, shape_errors
from ..home_util import dev_id


def _decompile(status: dict[str, Any]) -> Decompiler:
    values, ids = _settings(status)
    return Decompiler(values, ids, {"1": "Home"}, _state(status))


def _fixture_status() -> dict[str, Any]:
    return parse_status(json.loads(json.dumps(load_fixture("apps/rule_state_json").answer)), "612")


def test_a_rule_in_the_hubs_state_shapes_reads_back_whole() -> None:
    dec = _decompile(_fixture_status())
    spec = dec.spec("Hall light on motion")
    assert dec.undecompiled == []
    # the Required Expression is eval["0"]: a number and a digit string joined by AND
    assert spec["conditions"] == {
        "all": [{"mode": ["Home"]}, {"variable": "Guests", "op": "eq", "value": 0}]
    }
    # actionList order (5, 2, 3, 1, 4), the IF's expression by its rule field (eval["2"] = 6,
    # a bare number), the END-IF kept although it has no actType; eval["1"] is residue
    assert spec["actions"] == [
        {"command": "on", "device_ids": ["8"]},
        {
            "if": {"device_id": "30", "attribute": "temperature", "op": "lte", "value": 15},
            "then": [{"command": "on", "device_ids": ["9"]}],
        },
        {"command": "off", "device_ids": ["8"]},
    ]


def test_without_an_action_list_the_order_comes_from_every_subtype_row() -> None:
    status = _fixture_status()
    del status["appState"]["actionList"]
    # the END-IF (1) has no actType.1 but is kept; the emptied row 9 is not an action
    assert _decompile(status).action_indexes() == [1, 2, 3, 4, 5]


def test_stored_tokens_in_every_shape_the_hub_keeps() -> None:
    assert tokens_of([5, "AND", 7, "or", "10"]) == [5, "AND", 7, "OR", 10]
    assert tokens_of(12) == [12] and tokens_of("23") == [23] and tokens_of([]) is None
    assert tokens_of(["( sub-expression", 1, "end-sub-expression )"]) == ["(", 1, ")"]
    tree = parse_tokens([1, "AND", "(", 2, "OR", "(", 3, "AND", 4, ")", ")"])
    assert tree == Group([1, Group([2, Group([3, 4], ["AND"])], ["OR"])], ["AND"])
    for bad, why in (
        ([1, 2], "two conditions"),
        ([1, "AND"], "ends without"),
        (["(", 1], "never closed"),
        ([1, ")"], "closing bracket"),
        (["OR", 1], "operator"),
    ):
        with pytest.raises(Unreadable, match=why):
            parse_tokens(tokens_of(bad) or [])
    with pytest.raises(Unreadable, match="not a condition"):
        tokens_of([1, "AND", True])
    with pytest.raises(Unreadable, match="grouped"):
        read_expression({"0": [1, "AND", 2]}, 0, {"0": 1})
    assert read_expression({"0": [1]}, 0, {"0": 0}) == Group([1], [])


def test_mixed_operators_and_xor_are_read_and_marked() -> None:
    status = _fixture_status()
    status["appState"]["eval"]["0"] = [3, "AND", 4, "OR", 6]
    dec = _decompile(status)
    dec.spec("x")
    assert [u["part"] for u in dec.undecompiled] == ["conditions"]
    assert "AND and OR mixed" in dec.undecompiled[0]["why"]
    status["appState"]["eval"]["0"] = [3, "XOR", 4]
    dec = _decompile(status)
    dec.spec("x")
    assert "XOR" in dec.undecompiled[0]["why"]
    status["appState"]["eval"]["0"] = [3, "AND", "(", 4]
    dec = _decompile(status)
    dec.spec("x")
    assert "never closed" in dec.undecompiled[0]["why"]


def test_groups_nest_in_the_required_expression_and_in_an_if() -> None:
    base: dict[str, Any] = {"name": "r", "actions": [{"log": "x"}]}
    leaf = {"mode": ["Night"]}
    nested = {"all": [leaf, {"any": [leaf, {"mode": ["Day"]}]}]}
    spec = parse_spec({**base, "conditions": nested})
    assert spec.conditions is not None and spec.conditions.nested()
    assert spec.as_dict()["conditions"] == nested
    # a group of one is the condition itself
    one = parse_spec({**base, "conditions": {"all": [leaf, {"any": [leaf]}]}})
    assert one.as_dict()["conditions"] == {"all": [leaf, leaf]}
    in_if = [{"if": nested, "then": [{"log": "x"}]}]
    assert parse_spec({**base, "actions": in_if}).as_dict()["actions"] == in_if
    refused = (
        ({**base, "conditions": {"not": {"any": [leaf, leaf]}}}, "not of a group"),
        (
            {
                **base,
                "conditions": {
                    "all": [leaf, {"any": [leaf, {"all": [leaf, {"any": [leaf, leaf]}]}]}]
                },
            },
            "at most 3 deep",
        ),
    )
    for value, why in refused:
        with pytest.raises(ToolError, match=why):
            parse_spec(value)


@pytest.mark.parametrize("lagging_echo", [False, True])
async def test_a_sub_expression_is_built_read_back_and_run(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    lagging_echo: bool,
) -> None:
    # lagging: the answer to a cond/oper submit shows the page before it; the walk reads the
    # page again rather than stop at the picker the answer lacks
    hub.rule_machine.lagging_echo = lagging_echo
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
    door = dev_id(hub, "Office Door")
    conditions = {
        "all": [
            {"device_id": door, "attribute": "contact", "is": "closed"},
            {"any": [{"mode": ["Night"]}, {"variable": "guestCount", "op": "gte", "value": 3}]},
        ]
    }
    spec = {
        "name": "Office at night or with guests",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "conditions": conditions,
        "actions": [{"command": "on", "device_ids": [light]}],
    }
    dry = await call_tool("hub_create_rule", {"rule": spec, "validate_only": True})
    assert not dry.error, dry.data
    assert "( Mode is Night OR Variable guestCount >= 3 )" in json.dumps(dry.data)
    result = await call_tool("hub_create_rule", {"rule": spec})
    assert not result.error, result.data
    app_id = result.data["app_id"]
    # cond=b opened the bracket and the closing operator closed it (the on-hub server, live): the
    # tokens
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{hub.url}/installedapp/statusJson/{app_id}") as resp,
    ):
        state = {e["name"]: e["value"] for e in json.loads(await resp.text())["appState"]}
    tokens = state["eval"]["0"]
    assert tokens[1:3] == ["AND", "("] and tokens[-1] == ")" and "OR" in tokens
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [] and got.data["spec"]["conditions"] == conditions

    # the emulator's state has the fixture's shapes
    fixture = {
        e["name"]: e["value"] for e in load_fixture("apps/rule_state_json").answer["appState"]
    }
    for key, maps in (
        ("actions", ("$",)),
        ("actionList", ()),
        ("eval", ("$",)),
        ("parens", ("$",)),
        ("hasPredicate", ()),
        ("predCapabs", ()),
        ("capabsfalse", ("$",)),
    ):
        assert shape_errors(fixture[key], state[key], maps) == [], key

    # run: door closed, mode Day, guestCount 2 -> the group is false, nothing happens
    hub.set_device_attribute(int(door), "contact", "closed")
    hub.set_device_attribute(int(light), "switch", "off")
    hub.set_mode("Day")
    hub.set_variable("guestCount", 2)
    hub.set_device_attribute(int(motion), "motion", "active")
    await hub.clock.settle()
    assert hub.device(int(light))["attributes"]["switch"] == "off"
    hub.set_device_attribute(int(motion), "motion", "inactive")
    hub.set_variable("guestCount", 3)  # the OR's second half is true now
    hub.set_device_attribute(int(motion), "motion", "active")
    await hub.clock.settle()
    assert hub.device(int(light))["attributes"]["switch"] == "on"


async def test_else_and_end_if_rows_without_act_type_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.rule_machine.closers_without_act_type = True
    light, door = dev_id(hub, "Office Light"), dev_id(hub, "Office Door")
    spec = {
        "name": "Door light",
        "triggers": [{"device_id": door, "attribute": "contact", "changes": True}],
        "actions": [
            {
                "if": {"device_id": door, "attribute": "contact", "is": "open"},
                "then": [{"command": "on", "device_ids": [light]}],
                "else": [{"command": "off", "device_ids": [light]}],
            },
            {"log": "door changed"},
        ],
    }
    result = await call_tool("hub_create_rule", {"rule": spec})
    assert not result.error, result.data
    model = hub.rule_machine.rules[int(result.data["app_id"])]
    closers = [n for n in model.actions if model.sub(n) in ("getElse", "getEndIf")]
    assert len(closers) == 2 and not any(f"actType.{n}" in model.settings for n in closers)
    got = await call_tool("hub_get_rule", {"app_id": result.data["app_id"]})
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]


def _with_action(status: dict[str, Any], n: int, sub: str, **settings: Any) -> Decompiler:
    """The fixture rule with action ``n`` replaced by ``sub`` and its settings."""
    items = [i for i in status["appSettings"] if not i["name"].endswith(f".{n}")]
    items.append({"name": f"actSubType.{n}", "value": sub, "type": "enum"})
    items += [{"name": f"{k}.{n}", "value": v, "type": "text"} for k, v in settings.items()]
    return _decompile({**status, "appSettings": items})


def test_flags_in_every_stored_form() -> None:
    status = _fixture_status()
    # pR and pvTF as a never-switched bool input stores them: empty (pause; set true)
    dec = _with_action(status, 5, "getPauseResumeRules", pR="", pauseRule=["140"])
    assert dec.spec("x")["actions"][0] == {"pause_rules": ["140"]}
    dec = _with_action(status, 5, "getSetPrivateBoolean", pvTF="", privateT=["*"])
    assert dec.spec("x")["actions"][0] == {"set_private_boolean": True}
    dec = _with_action(status, 5, "getSetPrivateBoolean", pvTF="true", privateT=["*", "1809"])
    dec.spec("x")
    assert "this rule and on others" in dec.undecompiled[0]["why"]
    dec = _with_action(status, 5, "getSetPrivateBoolean", pvTF="true", privateT=[])
    dec.spec("x")
    assert "no rule to set" in dec.undecompiled[0]["why"]
    # a Required Expression counts only while hasPredicate is true
    status["appState"]["hasPredicate"] = False
    assert "conditions" not in _decompile(status).spec("x")


def test_an_else_if_after_the_else_is_marked() -> None:
    status = _fixture_status()
    status["appState"]["actionList"] = ["2", "3", "6", "7", "5", "1"]
    items = list(status["appSettings"])
    items += [
        {"name": "actSubType.6", "value": "getElse", "type": "enum"},
        {"name": "actSubType.7", "value": "getElseIf", "type": "enum"},
    ]
    dec = _decompile({**status, "appSettings": items})
    dec.spec("x")
    assert any("getElseIf" in u["why"] for u in dec.undecompiled), dec.undecompiled
