"""The "Between two dates" condition through the tools (hub_create_rule, hub_get_rule): the
tools' own part, their answers. A rule with it is created (its summary and rule text), read
back (the spec and the rule text hub_get_rule answers) and run; a bad date is an error result
naming the part.

The settings a live hub's rules store, the read-back, the rule text, the run across New Year,
times and NOT, and every bad date refused are tested without hass in
tests/managers/test_rule_dates.py."""

from __future__ import annotations

from datetime import datetime

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import HUB_TZ

from ..conftest import ToolCaller, ok
from ..helpers.rule_dates import _pressed_at, _spec
from ..home_util import sent


async def test_a_between_dates_rule_is_created_and_read_back(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    spec = _spec(hub, {"from": "10-31 15:00", "to": "10-31 23:00"})
    spec["conditions"] = {"not": spec["conditions"]}
    made = await ok(call_tool, "hub_create_rule", {"rule": spec})
    app_id = str(made["app_id"])
    assert made["summary"] == f"Created rule {app_id} (Holiday lights)", made
    assert "Required Expression" in made["rule_text"]
    got = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert got["undecompiled"] == []
    assert got["spec"]["conditions"] == {
        "not": {"dates": {"from": "10-31 15:00", "to": "10-31 23:00"}}
    }
    assert any(
        "NOT Between October 31 at 15:00 and October 31 at 23:00" in t for t in got["rule_text"]
    )
    assert await _pressed_at(hub, datetime(2026, 10, 31, 16, 0, tzinfo=HUB_TZ)) == "off"
    assert await _pressed_at(hub, datetime(2026, 10, 31, 12, 0, tzinfo=HUB_TZ)) == "on"


async def test_a_bad_date_is_an_error_result_naming_the_part(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    refused = await call_tool(
        "hub_create_rule", {"rule": _spec(hub, {"from": "13-01", "to": "12-31"})}
    )
    assert refused.error and refused.data["error"] == "invalid_request", refused.data
    assert "dates.from" in refused.data["message"], refused.data
    assert sent(hub, before) == []
