"""Rule Machine's Periodic Schedule through the tools (hub_create_rule, hub_get_rule,
hub_update_rule): the tools' own part, their answers. A periodic rule is created (its summary,
app id and rule text), read back (the spec and the hub text note), edited in place (the same
app id, edited_in_place) and run; a bad trigger is an error result naming the part, nothing
sent; a dry run answers its summary, rule text and plan.

Every frequency, the dated one-shot Certain Time and conditional triggers (built, read back,
edited in place and run on the emulated clock), the periodic sub-page's fields, the dry run's
text, the schema and the parser agreeing, and every bad spec refused are tested without hass
in tests/managers/test_rule_triggers_periodic.py."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok
from ..helpers.rule_triggers_periodic import _at, _fires_at, _spec
from ..home_util import sent


async def test_a_periodic_rule_is_created_read_back_and_edited_in_place(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    weekly = {"periodic": {"frequency": "weekly", "days": ["monday", "friday"], "at": "07:30"}}
    made = await ok(call_tool, "hub_create_rule", {"rule": _spec(hub, weekly)})
    app_id = str(made["app_id"])
    assert made["summary"] == f"Created rule {app_id} (Timed light)", made
    assert made["verified"] is True and int(app_id) in hub.rule_machine.rules
    assert any("Periodic Schedule: every Monday, Friday at 7:30 AM" in t for t in made["rule_text"])
    got = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert got["undecompiled"] == [] and got["spec"]["triggers"] == [weekly], got
    assert "rule_text" in got["hub_text"]
    await _fires_at(hub, _at(3, 8, 0), _at(4, 7, 30))  # Thursday, then Friday 07:30

    edited = {"periodic": {"frequency": "weekly", "days": ["sunday"], "at": "09:00"}}
    updated = await ok(call_tool, "hub_update_rule", {"app_id": app_id, "rule": _spec(hub, edited)})
    assert updated["summary"] == f"Updated rule {app_id} in place", updated
    assert updated["app_id"] == app_id and updated["edited_in_place"] is True
    got = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert got["undecompiled"] == [] and got["spec"]["triggers"] == [edited], got
    await _fires_at(hub, _at(3, 8, 0), _at(6, 9, 0))


@pytest.mark.parametrize(
    ("trigger", "where"),
    [
        ({"periodic": {"frequency": "fortnightly", "every": 2}}, "periodic.frequency"),
        ({"time": "07:30", "date": "2026-02-30"}, "triggers[0].date"),
    ],
)
async def test_a_bad_trigger_is_an_error_result_and_nothing_is_sent(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    trigger: dict[str, Any],
    where: str,
) -> None:
    made = await ok(call_tool, "hub_create_rule", {"rule": _spec(hub, {"time": "06:00"})})
    app_id = str(made["app_id"])
    before_settings = dict(hub.rule_machine.rules[int(app_id)].settings)
    before = len(hub.requests)
    refused = await call_tool("hub_create_rule", {"rule": _spec(hub, trigger)})
    assert refused.error and where in refused.data["message"], refused.data
    assert refused.data["error"] == "invalid_request", refused.data
    refused = await call_tool("hub_update_rule", {"app_id": app_id, "rule": _spec(hub, trigger)})
    assert refused.error and where in refused.data["message"], refused.data
    assert sent(hub, before) == []
    assert hub.rule_machine.rules[int(app_id)].settings == before_settings


async def test_a_dry_run_answers_its_summary_text_and_plan(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    spec = _spec(hub, {"time": "07:30", "date": "2027-01-10", "only_if": {"mode": ["night"]}})
    before = len(hub.requests)
    result = await ok(call_tool, "hub_create_rule", {"rule": spec, "validate_only": True})
    assert result["summary"] == "Spec is valid; nothing was sent", result
    text = [line.strip() for line in result["rule_text"]]
    assert "When time is 07:30 on 2027-01-10 (once) only if ( Mode is Night )" in text
    assert any("condTrig.{N} = {C}" in s for s in result["plan"]["steps"])
    assert sent(hub, before) == []
