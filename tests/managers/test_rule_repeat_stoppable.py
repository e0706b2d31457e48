"""A repeat's Stoppable? (``stopRepeat.<N>``) on Repeat n times and Repeat While, through rule
authoring (``managers/automation/``, ``hub.rule_authoring``) on its own, no hass: written on the
emulated pages after the interval (and times), shown in the rule's settings
(``hub.apps.get_app``), read back equal, flipped off and on by an in-place edit (the same app
id), false read as absent, and the repeats still run on the emulated clock; a value that is not
a boolean is refused before anything is sent. The emulated repeat pages the builder writes to
show Stoppable? only after the interval, as last field.

Moved from tests/tools/test_rule_repeat_stoppable.py (the tools' answers stay there: the dry
run and create summaries, hub_get_app's settings, hub_update_rule's edited_in_place, and a
refusal as an error result)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.rule_fields import action_fields, repeat_fields

from ..helpers.rule_repeat_stoppable import stoppable_spec
from ..home_util import dev_id


async def _read(authoring: Hub, app_id: str) -> dict[str, Any]:
    got = await authoring.rule_authoring.get(app_id)
    assert got["undecompiled"] == [], got
    spec: dict[str, Any] = got["spec"]
    return spec


async def _update(authoring: Hub, app_id: str, spec: dict[str, Any]) -> dict[str, Any]:
    """A rule changed to a whole spec, as hub_update_rule changes it."""
    return await authoring.rule_authoring.update(
        app_id, spec, None, confirm=False, validate_only=False
    )


def _repeats(emu: HubEmulator, app_id: str) -> tuple[int, int]:
    model = emu.rule_machine.rules[int(app_id)]
    rep = next(n for n in model.actions if model.sub(n) == "getRepeat")
    whl = next(n for n in model.actions if model.sub(n) == "getWhile")
    return rep, whl


def _logs(emu: HubEmulator, msg: str) -> int:
    return [e.msg for e in emu.state.logs].count(msg)


async def test_stoppable_repeats_are_built_read_back_flipped_in_place_and_run(
    emu: HubEmulator, authoring: Hub
) -> None:
    rules = authoring.rule_authoring
    button, light = dev_id(emu, "Bedside Button"), dev_id(emu, "Office Light")
    spec = stoppable_spec(button, light, stoppable=True)
    assert parse_spec(spec).as_dict()["actions"] == spec["actions"]
    writes = len([r for r in emu.requests if r[0] != "GET"])
    dry = await rules.create(spec, confirm=False, validate_only=True)
    assert dry["valid"] is True and dry["sent"] is False, dry
    assert len([r for r in emu.requests if r[0] != "GET"]) == writes
    made = await rules.create(spec, confirm=False, validate_only=False)
    app_id = str(made["app_id"])
    model = emu.rule_machine.rules[int(app_id)]
    rep, whl = _repeats(emu, app_id)
    s = model.settings
    assert s[f"stopRepeat.{rep}"] is True and s[f"stopRepeat.{whl}"] is True
    # written after the interval and times, in the page's order
    keys = [k for k in s if k.endswith(f".{rep}")]
    assert keys.index(f"stopRepeat.{rep}") > keys.index(f"repeatN.{rep}"), keys
    wkeys = [k for k in s if k.endswith(f".{whl}")]
    assert wkeys.index(f"stopRepeat.{whl}") > wkeys.index(f"repeatSecond.{whl}"), wkeys
    assert (await _read(authoring, app_id))["actions"] == spec["actions"]
    app = await authoring.apps.get_app(app_id, None, include_state=True)
    shown = app["settings"]
    assert shown[f"stopRepeat.{rep}"] is True and shown[f"stopRepeat.{whl}"] is True, shown

    # the repeats run as before: two blinks, then ticks while the light is on
    emu.run_command(int(light), "on", [])
    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    assert _logs(emu, "blink") == 1
    await emu.clock.advance(seconds=31)
    assert _logs(emu, "blink") == 2 and _logs(emu, "tick") == 1
    await emu.clock.advance(seconds=21)
    assert _logs(emu, "tick") == 2
    emu.run_command(int(light), "off", [])
    await emu.clock.advance(seconds=60)
    assert _logs(emu, "tick") == 2 and _logs(emu, "blink") == 2

    # flipped off in place: the same app id, no stopRepeat left, read back without it
    plain = stoppable_spec(button, light, stoppable=False)
    upd = await _update(authoring, app_id, plain)
    assert upd["app_id"] == app_id and upd["edited_in_place"] is True, upd
    rep, whl = _repeats(emu, app_id)
    s = emu.rule_machine.rules[int(app_id)].settings
    assert not s.get(f"stopRepeat.{rep}") and not s.get(f"stopRepeat.{whl}"), s
    assert (await _read(authoring, app_id))["actions"] == plain["actions"]
    # false is the default: it reads back as absent
    falsy = stoppable_spec(button, light, stoppable=False)
    falsy["actions"][0]["stoppable"] = False
    assert parse_spec(falsy).as_dict()["actions"] == plain["actions"]

    # and on again
    upd = await _update(authoring, app_id, spec)
    assert upd["app_id"] == app_id, upd
    rep, whl = _repeats(emu, app_id)
    s = emu.rule_machine.rules[int(app_id)].settings
    assert s[f"stopRepeat.{rep}"] is True and s[f"stopRepeat.{whl}"] is True
    assert (await _read(authoring, app_id))["actions"] == spec["actions"]
    before = _logs(emu, "blink")
    emu.run_command(int(button), "push", [1])
    await emu.clock.settle()
    await emu.clock.advance(seconds=31)
    assert _logs(emu, "blink") == before + 2


async def test_a_stoppable_that_is_not_a_boolean_is_refused_and_nothing_is_sent(
    emu: HubEmulator, authoring: Hub
) -> None:
    button, light = dev_id(emu, "Bedside Button"), dev_id(emu, "Office Light")
    apps = set(emu.state.apps)
    for i, wrong in enumerate(("yes", 1)):
        spec = stoppable_spec(button, light, stoppable=True)
        spec["actions"][i]["stoppable"] = wrong
        writes = len([r for r in emu.requests if r[0] != "GET"])
        with pytest.raises(ToolError) as refused:
            await authoring.rule_authoring.create(spec, confirm=False, validate_only=False)
        assert refused.value.code == "invalid_request", refused.value
        assert f"actions[{i}].stoppable" in str(refused.value), refused.value
        assert len([r for r in emu.requests if r[0] != "GET"]) == writes
    assert set(emu.state.apps) == apps


async def test_the_emulated_repeat_pages_show_stoppable_after_the_interval(
    emu: HubEmulator,
) -> None:
    n = 3
    interval = {f"repeatHour.{n}": 0, f"repeatMinute.{n}": 0, f"repeatSecond.{n}": 5}
    whl = repeat_fields(interval, n)
    assert [i["name"] for i in whl.inputs][-1] == f"stopRepeat.{n}" and whl.complete
    assert [i["name"] for i in repeat_fields({}, n).inputs] == list(interval)  # not yet
    s = {f"actType.{n}": "repeatActs", f"actSubType.{n}": "getRepeat", **interval}
    rep = action_fields({**s, f"repeatN.{n}": 2}, n, emu.rule_machine.env, 1)
    names = [i["name"] for i in rep.inputs]
    assert names[-2:] == [f"repeatN.{n}", f"stopRepeat.{n}"] and rep.complete, names
