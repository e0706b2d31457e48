"""A repeat's Stoppable? through the tools: their own part, their answers. hub_create_rule
answers a dry run's and a build's summary, hub_get_rule reads the repeats back with it,
hub_get_app shows the ``stopRepeat.<N>`` settings, hub_update_rule answers the same app id and
edited_in_place when it is flipped off, and a value that is not a boolean is an error result
naming the part, with nothing sent.

The building (the fields' order on the pages), the read back, the in-place flips, the repeats
running on the emulated clock, every wrong value and the emulated repeat pages are tested
without hass in tests/managers/test_rule_repeat_stoppable.py."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..helpers.rule_repeat_stoppable import stoppable_spec
from ..home_util import dev_id


def _repeats(hub: HubEmulator, app_id: str) -> tuple[int, int]:
    model = hub.rule_machine.rules[int(app_id)]
    rep = next(n for n in model.actions if model.sub(n) == "getRepeat")
    whl = next(n for n in model.actions if model.sub(n) == "getWhile")
    return rep, whl


async def test_stoppable_repeats_through_the_tools(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button, light = dev_id(hub, "Bedside Button"), dev_id(hub, "Office Light")
    spec = stoppable_spec(button, light, stoppable=True)
    dry = await ok(call_tool, "hub_create_rule", {"rule": spec, "validate_only": True})
    assert dry["summary"] == "Spec is valid; nothing was sent", dry
    made = await ok(call_tool, "hub_create_rule", {"rule": spec})
    app_id = str(made["app_id"])
    assert made["summary"] == f"Created rule {app_id} (Blink while on)", made
    got = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert got["undecompiled"] == [] and got["spec"]["actions"] == spec["actions"], got
    rep, whl = _repeats(hub, app_id)
    shown = (await ok(call_tool, "hub_get_app", {"app_id": app_id}))["settings"]
    assert shown[f"stopRepeat.{rep}"] is True and shown[f"stopRepeat.{whl}"] is True, shown

    plain = stoppable_spec(button, light, stoppable=False)
    upd = await ok(call_tool, "hub_update_rule", {"app_id": app_id, "rule": plain})
    assert upd["summary"] == f"Updated rule {app_id} in place", upd
    assert upd["app_id"] == app_id and upd["edited_in_place"] is True, upd
    got = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert got["spec"]["actions"] == plain["actions"], got


async def test_a_stoppable_that_is_not_a_boolean_is_refused_and_nothing_is_sent(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    button, light = dev_id(hub, "Bedside Button"), dev_id(hub, "Office Light")
    apps = set(hub.state.apps)
    spec = stoppable_spec(button, light, stoppable=True)
    spec["actions"][1]["stoppable"] = "yes"
    writes = len([r for r in hub.requests if r[0] != "GET"])
    data = await refused(call_tool, "hub_create_rule", {"rule": spec}, "invalid_request")
    assert "actions[1].stoppable" in data["message"], data
    assert len([r for r in hub.requests if r[0] != "GET"]) == writes
    assert set(hub.state.apps) == apps
