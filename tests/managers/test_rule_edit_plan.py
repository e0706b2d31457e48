"""The plan of an in-place rule update (``managers/automation/edits.py``): only the parts that
differ change, actions kept by their longest common run (a part the decoder does not know kept
at any cost), triggers by the kept start of the list, and a change that would remove or rebuild
an unknown part refused naming it."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.managers.automation.edits import (
    PartUnknown,
    Shape,
    action_blocks,
    canonical,
    known_view,
    plan_edits,
)

A: dict[str, Any] = {"log": "a"}
B: dict[str, Any] = {"log": "b"}
C: dict[str, Any] = {"log": "c"}
U: dict[str, Any] = {"unknown": "Rule Machine action 'x/getY'"}
T1: dict[str, Any] = {"mode": ["Day"]}
T2: dict[str, Any] = {"mode": ["Night"]}


def _rule(**parts: Any) -> dict[str, Any]:
    return {"name": "R", "triggers": [T1], "actions": [A], **parts}


def _shape(rule: dict[str, Any], *, unknown_actions: set[int] | None = None) -> Shape:
    blocks = [[str(i + 1)] for i in range(len(rule["actions"]))]
    triggers = [str(i + 1) for i in range(len(rule["triggers"]))]
    unknown = {i for i, a in enumerate(rule["actions"]) if "unknown" in a}
    return Shape(triggers, blocks, unknown_actions=unknown | (unknown_actions or set()))


def test_an_unchanged_rule_plans_nothing() -> None:
    rule = _rule(actions=[A, U, B])
    plan = plan_edits(rule, _shape(rule), rule)
    assert plan.empty() and plan.keep_actions == {0: 0, 1: 1, 2: 2}


def test_one_changed_action_is_the_only_one_made_again() -> None:
    rule = _rule(actions=[A, B, U, C])
    want = _rule(actions=[A, {"log": "b2"}, U, C])
    plan = plan_edits(rule, _shape(rule), want)
    assert plan.remove_actions == [1] and plan.add_actions == [(1, {"log": "b2"})]
    assert plan.keep_actions == {0: 0, 2: 2, 3: 3}
    assert plan.remove_triggers == [] and plan.conditions == "keep" and not plan.name


def test_an_unknown_action_is_kept_over_a_known_one() -> None:
    rule = _rule(actions=[A, U, B])
    plan = plan_edits(rule, _shape(rule), _rule(actions=[A, B, U]))
    assert plan.keep_actions == {0: 0, 2: 1}  # B is made again after U, not U after B
    assert plan.add_actions == [(1, B)] and plan.remove_actions == [2]


def test_a_change_that_needs_an_unknown_part_is_refused_naming_it() -> None:
    rule = _rule(actions=[A, U])
    with pytest.raises(PartUnknown) as err:
        plan_edits(rule, _shape(rule), _rule(actions=[A]))
    assert err.value.code == "not_supported" and err.value.extra == {
        "part": "actions[1]",
        "page": "selectActions",
    }
    # an action read whole but with a detail undecoded (a log's delay) counts as unknown
    rule = _rule(actions=[A, B])
    with pytest.raises(PartUnknown, match=r"rule\.actions\[1\]"):
        plan_edits(rule, _shape(rule, unknown_actions={1}), _rule(actions=[A, C]))
    # a placeholder cannot be built where there was none
    with pytest.raises(PartUnknown, match=r"rule\.actions\[1\]"):
        plan_edits(rule, _shape(rule), _rule(actions=[A, U, B]))
    # a restriction has no form: it stays
    with pytest.raises(PartUnknown, match="restrictions"):
        plan_edits(_rule(restrictions=[U]), _shape(_rule()), _rule())


def test_triggers_keep_the_start_of_the_list_and_add_the_rest() -> None:
    rule = _rule(triggers=[T1, T2])
    plan = plan_edits(rule, _shape(rule), _rule(triggers=[T2, T1]))
    assert plan.remove_triggers == [0] and plan.add_triggers == [T1]
    plan = plan_edits(rule, _shape(rule), _rule(triggers=[T1, T2, {"mode": ["Away"]}]))
    assert plan.remove_triggers == [] and plan.add_triggers == [{"mode": ["Away"]}]


def test_a_changed_local_variable_makes_its_users_again() -> None:
    use = {"set_variable": "n", "value": 1}
    rule = _rule(actions=[A, use], local_variables=[{"name": "n", "type": "integer", "value": 0}])
    want = {**rule, "local_variables": [{"name": "n", "type": "integer", "value": 5}]}
    plan = plan_edits(rule, _shape(rule), want)
    assert plan.remove_locals == ["n"] and plan.add_locals == ["n"]
    assert plan.remove_actions == [1] and plan.add_actions == [(1, use)]


def test_action_rows_group_by_block() -> None:
    subs = {
        "actSubType.1": "getLogMsg",
        "actSubType.2": "getIfThen",
        "actSubType.3": "getLogMsg",
        "actSubType.4": "getElse",
        "actSubType.5": "getEndIf",
        "actSubType.6": "getRepeat",
        "actSubType.7": "getStopRepeat",
    }
    order = ["1", "2", "3", "4", "5", "6", "7"]
    assert action_blocks(order, subs) == [["1"], ["2", "3", "4", "5"], ["6", "7"]]


def test_the_known_view_leaves_the_placeholders_out_and_puts_them_back() -> None:
    want = _rule(actions=[A, U], conditions=U, restrictions=[U])
    view, where = known_view(want)
    assert view["actions"] == [A] and "conditions" not in view and "restrictions" not in view
    assert canonical(want, view, where) == want
    only_unknown, _ = known_view(_rule(actions=[U]))
    assert only_unknown["actions"] == [{"comment": "stand-in"}]  # never sent
