"""A repeat's Stoppable? (``stopRepeat.<N>``) on Repeat n times and Repeat While: built on the
emulated pages after the interval (and times), read back equal, flipped by an in-place edit
(the same app id), and the repeats still run; a wrong value is refused before anything is
sent."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
from hubitat_emulator import HubEmulator
from hubitat_emulator.rule_fields import action_fields, repeat_fields

from ..conftest import ToolCaller
from ..home_util import dev_id


def _spec(button: str, light: str, *, stoppable: bool) -> dict[str, Any]:
    flag: dict[str, Any] = {"stoppable": True} if stoppable else {}
    return {
        "name": "Blink while on",
        "triggers": [{"button_device_id": button, "button": 1, "event": "pushed"}],
        "actions": [
            {"repeat": 2, "every": {"seconds": 30}, **flag, "do": [{"log": "blink"}]},
            {
                "repeat_while": {"device_id": light, "attribute": "switch", "is": "on"},
                "every": {"seconds": 20},
                **flag,
                "do": [{"log": "tick"}],
            },
        ],
    }


async def _read(call_tool: ToolCaller, app_id: str) -> dict[str, Any]:
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [], got.data
    spec: dict[str, Any] = got.data["spec"]
    return spec


def _repeats(hub: HubEmulator, app_id: str) -> tuple[int, int]:
    model = hub.rule_machine.rules[int(app_id)]
    rep = next(n for n in model.actions if model.sub(n) == "getRepeat")
    whl = next(n for n in model.actions if model.sub(n) == "getWhile")
    return rep, whl


def _logs(hub: HubEmulator, msg: str) -> int:
    return [e.msg for e in hub.state.logs].count(msg)


async def test_stoppable_repeats_are_built_read_back_flipped_in_place_and_run(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button, light = dev_id(hub, "Bedside Button"), dev_id(hub, "Office Light")
    spec = _spec(button, light, stoppable=True)
    assert parse_spec(spec).as_dict()["actions"] == spec["actions"]
    dry = await call_tool("hub_create_rule", {"rule": spec, "validate_only": True})
    assert not dry.error, dry.data
    made = await call_tool("hub_create_rule", {"rule": spec})
    assert not made.error, made.data
    app_id = str(made.data["app_id"])
    model = hub.rule_machine.rules[int(app_id)]
    rep, whl = _repeats(hub, app_id)
    s = model.settings
    assert s[f"stopRepeat.{rep}"] is True and s[f"stopRepeat.{whl}"] is True
    # written after the interval and times, in the page's order
    keys = [k for k in s if k.endswith(f".{rep}")]
    assert keys.index(f"stopRepeat.{rep}") > keys.index(f"repeatN.{rep}"), keys
    wkeys = [k for k in s if k.endswith(f".{whl}")]
    assert wkeys.index(f"stopRepeat.{whl}") > wkeys.index(f"repeatSecond.{whl}"), wkeys
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]
    app = await call_tool("hub_get_app", {"app_id": app_id})
    assert not app.error, app.data
    shown = app.data["settings"]
    assert shown[f"stopRepeat.{rep}"] is True and shown[f"stopRepeat.{whl}"] is True, shown

    # the repeats run as before: two blinks, then ticks while the light is on
    hub.run_command(int(light), "on", [])
    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    assert _logs(hub, "blink") == 1
    await hub.clock.advance(seconds=31)
    assert _logs(hub, "blink") == 2 and _logs(hub, "tick") == 1
    await hub.clock.advance(seconds=21)
    assert _logs(hub, "tick") == 2
    hub.run_command(int(light), "off", [])
    await hub.clock.advance(seconds=60)
    assert _logs(hub, "tick") == 2 and _logs(hub, "blink") == 2

    # flipped off in place: the same app id, no stopRepeat left, read back without it
    plain = _spec(button, light, stoppable=False)
    upd = await call_tool("hub_update_rule", {"app_id": app_id, "rule": plain})
    assert not upd.error, upd.data
    assert upd.data["app_id"] == app_id and upd.data["edited_in_place"] is True, upd.data
    rep, whl = _repeats(hub, app_id)
    s = hub.rule_machine.rules[int(app_id)].settings
    assert not s.get(f"stopRepeat.{rep}") and not s.get(f"stopRepeat.{whl}"), s
    assert (await _read(call_tool, app_id))["actions"] == plain["actions"]
    # false is the default: it reads back as absent
    falsy = _spec(button, light, stoppable=False)
    falsy["actions"][0]["stoppable"] = False
    assert parse_spec(falsy).as_dict()["actions"] == plain["actions"]

    # and on again
    upd = await call_tool("hub_update_rule", {"app_id": app_id, "rule": spec})
    assert not upd.error and upd.data["app_id"] == app_id, upd.data
    rep, whl = _repeats(hub, app_id)
    s = hub.rule_machine.rules[int(app_id)].settings
    assert s[f"stopRepeat.{rep}"] is True and s[f"stopRepeat.{whl}"] is True
    assert (await _read(call_tool, app_id))["actions"] == spec["actions"]
    before = _logs(hub, "blink")
    hub.run_command(int(button), "push", [1])
    await hub.clock.settle()
    await hub.clock.advance(seconds=31)
    assert _logs(hub, "blink") == before + 2


async def test_a_stoppable_that_is_not_a_boolean_is_refused_and_nothing_is_sent(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button, light = dev_id(hub, "Bedside Button"), dev_id(hub, "Office Light")
    apps = set(hub.state.apps)
    for i, wrong in enumerate(("yes", 1)):
        spec = _spec(button, light, stoppable=True)
        spec["actions"][i]["stoppable"] = wrong
        writes = len([r for r in hub.requests if r[0] != "GET"])
        refused = await call_tool("hub_create_rule", {"rule": spec})
        assert refused.error and refused.data["error"] == "invalid_request", refused.data
        assert f"actions[{i}].stoppable" in refused.data["message"], refused.data
        assert len([r for r in hub.requests if r[0] != "GET"]) == writes
    assert set(hub.state.apps) == apps


async def test_the_emulated_repeat_pages_show_stoppable_after_the_interval(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    n = 3
    interval = {f"repeatHour.{n}": 0, f"repeatMinute.{n}": 0, f"repeatSecond.{n}": 5}
    whl = repeat_fields(interval, n)
    assert [i["name"] for i in whl.inputs][-1] == f"stopRepeat.{n}" and whl.complete
    assert [i["name"] for i in repeat_fields({}, n).inputs] == list(interval)  # not yet
    s = {f"actType.{n}": "repeatActs", f"actSubType.{n}": "getRepeat", **interval}
    rep = action_fields({**s, f"repeatN.{n}": 2}, n, hub.rule_machine.env, 1)
    names = [i["name"] for i in rep.inputs]
    assert names[-2:] == [f"repeatN.{n}", f"stopRepeat.{n}"] and rep.complete, names
