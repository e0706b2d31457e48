"""The rules manager (``managers/apps/rules.py``) on its own, no hass: the listing of Rule
Machine rules, Visual Rules and Button Rules, each engine with its own state, and the engine
filter (the Button Rule is made through the app creator as the hub UI would); running,
stopping and pausing a rule, each decided by its effect; one rule's health (the page's
BROKEN markers and the compiled flag, read through the rule checks) and a Rule Machine
rule's local variables, each refused for an app that is not such a rule.

The listing moved from tests/tools/test_button_rule_run.py (running the rule the list
describes and the tool's argument refusal stay there); running, stopping and pausing moved
from tests/tools/test_apps.py (the tools' argument refusals and summaries stay there); the
engines of the listing, the health and the local variables moved from
tests/tools/test_apps.py too (test_list_rules_and_health, test_local_variables: a call of
each tool and its answer stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, VRB_PORCH
from hubitat_emulator.seed import RULE_LEAK, RULE_MOTION


def _dev(emu: HubEmulator, label: str) -> int:
    return next(d.id for d in emu.state.devices.values() if d.label == label)


def _allow_all(_device_id: str) -> bool:
    return True


async def _create(manager_hub: Hub, app_type: str, **kw: Any) -> str:
    args: dict[str, Any] = {"parent_app_id": None, "settings": {}, "name": None, **kw}
    made = await manager_hub.app_create.create(
        app_type, device_allowed=_allow_all, confirm=False, **args
    )
    return str(made["app_id"])


async def _button_rule(emu: HubEmulator, manager_hub: Hub, button: str) -> str:
    """A Button Rule on the Pico made by its controller, turning the Office Light off
    (action 1), as the hub UI would."""
    await _create(manager_hub, "Button Controllers")
    pico = _dev(emu, "Living Room Pico")
    controller = await _create(
        manager_hub,
        "Button Controller",
        name="Pico",
        settings={"buttonDev": [str(pico)], "origLabel": "Pico"},
    )
    rule = await _create(manager_hub, "Button Rule", parent_app_id=controller, button=button)
    actions = {
        "actType.1": "switchActs",
        "actSubType.1": "getOnOffSwitch",
        "onOffSwitch.1": str(_dev(emu, "Office Light")),
        "onOff.1": False,
    }
    emu.buttons.give_actions(int(rule), actions, [1])
    return rule


async def test_button_rules_are_listed_with_their_button(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    rules = manager_hub.rules
    rule = await _button_rule(emu, manager_hub, "2 held")
    controller = str(emu.state.apps[int(rule)].parent_id)
    pico = str(_dev(emu, "Living Room Pico"))
    every = await rules.list_rules("all", with_status=True, with_button_rules=True)
    by_id = {r["app_id"]: r for r in every}
    listed = by_id[rule]
    assert listed["engine"] == "button" and listed["parent_id"] == controller, listed
    assert listed["button_device_ids"] == [pico]
    assert (listed["button"], listed["event"], listed["disabled"]) == (2, "held", False)
    # the other engines are still there, each with its own state
    assert by_id["140"]["engine"] == "rule_machine" and "stopped" in by_id["140"]
    porch = by_id[str(VRB_PORCH)]
    assert porch["engine"] == "visual" and "paused" in porch and "stopped" not in porch
    # without with_button_rules, engine all leaves the Button Rules out
    plain = await rules.list_rules("all", with_status=False)
    assert rule not in {r["app_id"] for r in plain} and "140" in {r["app_id"] for r in plain}
    # the engine filter: Button Rules only, and none of them elsewhere
    buttons = await rules.list_rules("button", with_status=True)
    assert [r["app_id"] for r in buttons] == [rule]
    for engine in ("rule_machine", "visual"):
        others = await rules.list_rules(engine, with_status=True, with_button_rules=True)
        assert others and {r["engine"] for r in others} == {engine}
    # disabled as the app list shows it; without status reads, the tree's fields only
    await manager_hub.apps.set_disabled(rule, True, confirm=True)
    quick = await rules.list_rules("button", with_status=False, with_button_rules=True)
    (entry,) = quick
    assert entry["disabled"] is True and "button" not in entry and "event" not in entry


async def test_call_rule_and_pause(emu: HubEmulator, manager_hub: Hub) -> None:
    rules, motion = manager_hub.rules, str(RULE_MOTION)
    internals = emu.state.dev.internals[RULE_MOTION]
    run = await rules.call_rule(motion, "run_actions")
    assert run["action"] == "run_actions" and "unchanged" not in run
    assert internals.runs == 1
    stop = await rules.call_rule(motion, "stop")
    assert "unchanged" not in stop and internals.state["stopped"] is True
    again = await rules.call_rule(motion, "stop")
    assert again["unchanged"] is True and internals.state["stopped"] is True
    paused = await rules.set_paused(motion, True, confirm=False)
    assert "unchanged" not in paused and internals.state["paused"] is True
    twice = await rules.set_paused(motion, True, confirm=False)
    assert twice["unchanged"] is True and internals.state["paused"] is True
    vrb = await rules.set_paused(str(VRB_PORCH), True, confirm=False)
    assert vrb["paused"] is True and emu.state.dev.vrb[VRB_PORCH]["rulePaused"] is True


async def test_stop_sends_only_what_the_hub_ui_sends(emu: HubEmulator, manager_hub: Hub) -> None:
    internals = emu.state.dev.internals[RULE_MOTION]
    emu.state.dev.clicks.clear()
    await manager_hub.rules.call_rule(str(RULE_MOTION), "stop")
    assert internals.state["stopped"] is True
    # the emulator, like Rule Machine, would take page-context fields for a settings save
    assert emu.state.dev.clicks == [
        {
            "id": str(RULE_MOTION),
            "name": "stopRule",
            "settings[stopRule]": "clicked",
            "stopRule.type": "button",
        }
    ]


async def test_rule_writes_are_decided_by_their_effect(emu: HubEmulator, manager_hub: Hub) -> None:
    rules = manager_hub.rules
    routes = emu.hubvar_routes.fallback  # the generic app routes
    routes.dropped_buttons = frozenset({"stopRule"})  # "success", and nothing happens
    with pytest.raises(HubBadResponseError, match="did not change its stopped state"):
        await rules.call_rule(str(RULE_MOTION), "stop")
    assert emu.state.dev.internals[RULE_MOTION].state["stopped"] is False
    routes.drop_rule_writes = True
    with pytest.raises(HubBadResponseError, match="did not change its pause state"):
        await rules.set_paused(str(VRB_PORCH), True, confirm=False)
    assert emu.state.dev.vrb[VRB_PORCH]["rulePaused"] is False


async def test_rules_are_listed_with_their_engine_and_state(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    rules = {
        r["app_id"]: r
        for r in await manager_hub.rules.list_rules("all", with_status=True, with_button_rules=True)
    }
    assert rules[str(RULE_MOTION)]["engine"] == "rule_machine"
    assert rules[str(RULE_MOTION)]["paused"] is False
    assert rules[str(VRB_PORCH)]["engine"] == "visual"
    # the state is the hub's: pausing the rule on the hub shows in the list
    emu.state.dev.internals[RULE_MOTION].state["paused"] = True
    again = await manager_hub.rules.list_rules("all", with_status=True)
    assert {r["app_id"]: r for r in again}[str(RULE_MOTION)]["paused"] is True


async def test_one_rules_health_reads_its_page_and_compiled_flag(manager_hub: Hub) -> None:
    checks = manager_hub.rule_checks
    found, checked, page = await checks.check(str(RULE_LEAK))
    assert checked == 1 and found  # not healthy
    assert page is not None
    assert page["broken_markers"] and page["compiled_broken"] is True
    assert page["healthy"] is False
    found, _checked, page = await checks.check(str(RULE_MOTION))
    assert found == [] and page is not None and page["healthy"] is True
    with pytest.raises(ToolError) as err:
        await checks.check(str(APP_ANNOUNCER))
    assert err.value.code == "invalid_request"
    with pytest.raises(ToolError) as missing:
        await checks.check("99999")
    assert missing.value.code == "not_found"


async def test_local_variables_of_a_rule_machine_rule(manager_hub: Hub) -> None:
    local = await manager_hub.rules.local_variables(str(RULE_MOTION))
    assert local["variables"] == [{"name": "timeout", "type": "integer", "value": 300}]
    assert local["count"] == 1 and local["name"] == "Motion Lights - Kitchen"
    with pytest.raises(ToolError) as err:
        await manager_hub.rules.local_variables(str(VRB_PORCH))
    assert err.value.code == "invalid_request"
