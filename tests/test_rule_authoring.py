"""Native Rule Machine authoring: the spec, its checks, the plan, and the rule on the hub."""

from __future__ import annotations

from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from .conftest import ToolCaller
from .home_util import dev_id


def porch_spec(hub: HubEmulator) -> dict[str, Any]:
    motion, light = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Porch Light")
    return {
        "name": "Porch light at night",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "conditions": {"between": {"from": "sunset", "to": "sunrise"}},
        "actions": [
            {"cancel_delays": True},
            {"command": "on", "device_ids": [light]},
            {"wait": [{"device_id": motion, "attribute": "motion", "is": "inactive"}]},
            {"delay": {"minutes": 5}, "cancelable": True},
            {"command": "off", "device_ids": [light]},
        ],
    }


async def test_validate_only_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    result = await call_tool("hub_create_rule", {"rule": porch_spec(hub), "validate_only": True})
    assert not result.error, result.data
    data = result.data
    assert data["valid"] is True and data["sent"] is False
    assert "Required Expression: Time between Sunset and Sunrise" in data["rule_text"]
    assert any('tCapab{N} = "Motion"' in s for s in data["plan"]["steps"])
    writes = [r for r in hub.requests[before:] if r[0] != "GET"]
    assert writes == []


async def _refused(call_tool: ToolCaller, rule: dict[str, Any], **extra: Any) -> dict[str, Any]:
    result = await call_tool("hub_create_rule", {"rule": rule, "validate_only": True, **extra})
    assert result.error, result.data
    data: dict[str, Any] = result.data
    return data


async def test_spec_shape_errors_name_the_part(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    base = porch_spec(hub)
    cases: list[tuple[dict[str, Any], str]] = [
        ({**base, "name": ""}, "rule.name"),
        ({**base, "actions": []}, "rule.actions"),
        ({**base, "actions": [{"delay": {"minutes": -1}}]}, "rule.actions[0].delay.minutes"),
        ({**base, "actions": [{"flash": True}]}, "rule.actions[0]"),
        ({**base, "triggers": [{"time": "25:00"}]}, "rule.triggers[0].time"),
        ({**base, "triggers": [{"every": {"minutes": 7}}]}, "rule.triggers[0].every.minutes"),
        (
            {**base, "triggers": [{"device_id": "x1", "attribute": "motion", "is": "active"}]},
            "rule.triggers[0].device_id",
        ),
        ({**base, "conditions": {"all": [{"any": []}]}}, "rule.conditions.all[0]"),
        ({**base, "bogus": 1}, "unknown key(s) bogus"),
    ]
    for rule, where in cases:
        data = await _refused(call_tool, rule)
        assert where in data["message"], (where, data)


async def test_inexpressible_parts_are_refused_with_what_can(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    base = porch_spec(hub)
    data = await _refused(call_tool, {**base, "triggers": [{"hsm": "armedAway"}]})
    assert data["error"] == "not_supported"
    assert "sun (sunrise|sunset" in data["hint"]
    data = await _refused(call_tool, {**base, "conditions": {"days": ["Mon"]}})
    assert "days-of-week" in data["message"]
    two_waits = {**base, "actions": [base["actions"][2], base["actions"][2]]}
    data = await _refused(call_tool, two_waits)
    assert "more than one wait" in data["message"]


async def test_hub_checks_before_anything_is_sent(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    base = porch_spec(hub)
    light = dev_id(hub, "Porch Light")
    lock = dev_id(hub, "Front Door Lock")
    before = [r for r in hub.requests if r[0] != "GET"]
    data = await _refused(
        call_tool,
        {**base, "triggers": [{"device_id": "9999", "attribute": "motion", "is": "active"}]},
    )
    assert data["error"] == "not_found" and "9999" in data["message"]
    data = await _refused(
        call_tool,
        {**base, "triggers": [{"device_id": light, "attribute": "motion", "is": "active"}]},
    )
    assert "rule.triggers[0]" in data["message"] and "no attribute 'motion'" in data["message"]
    data = await _refused(
        call_tool,
        {
            **base,
            "actions": [{"command": "setLevel", "device_ids": [light], "arguments": ["bright"]}],
        },
    )
    assert "rule.actions[0]" in data["message"]
    data = await _refused(
        call_tool, {**base, "actions": [{"command": "unlock", "device_ids": [lock]}]}
    )
    assert data["error"] == "confirmation_required"
    data = await _refused(call_tool, {**base, "actions": [{"set_mode": "Vacation"}]})
    assert "no mode 'Vacation'" in data["message"]
    data = await _refused(
        call_tool, {**base, "actions": [{"set_variable": "NoSuchVar", "value": 1}]}
    )
    assert "no variable 'NoSuchVar'" in data["message"]
    data = await _refused(call_tool, {**base, "actions": [{"run_rule": ["99999"]}]})
    assert "no Rule Machine rule 99999" in data["message"]
    assert [r for r in hub.requests if r[0] != "GET"] == before


async def test_unlock_with_confirm_is_valid(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rule = {
        **porch_spec(hub),
        "actions": [{"command": "unlock", "device_ids": [dev_id(hub, "Front Door Lock")]}],
    }
    result = await call_tool(
        "hub_create_rule", {"rule": rule, "validate_only": True, "confirm": True}
    )
    assert not result.error, result.data
    assert any("lockRL.{A} = true" in s for s in result.data["plan"]["steps"])


async def test_search_finds_rule_tools_for_owner_sentences(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    sentences = [
        "when Front Porch Motion detects motion after sunset, turn on the Porch Light and "
        "turn it off 5 minutes after motion stops",
        "make an automation that turns off the kitchen lights at 11pm",
        "when the garage door opens send me a notification",
        "every day at 7 set the thermostat to 70",
        "create a rule: if the temperature is above 80 then turn on the fan",
        "what does my motion lighting rule do",
    ]
    for sentence in sentences:
        result = await call_tool("hub_search_tools", {"query": sentence})
        assert not result.error, result.data
        names = [t["name"] for t in result.data["results"]][:3]
        assert "hub_create_rule" in names or "hub_get_rule" in names, (sentence, names)
