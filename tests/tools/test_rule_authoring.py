"""Native Rule Machine authoring: the spec, its checks, the plan, and the rule on the hub."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..home_util import dev_id


def porch_rule(motion: str, light: str) -> dict[str, Any]:
    """The owner's porch rule: on with motion after sunset, off 5 minutes after it stops."""
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


def porch_spec(hub: HubEmulator) -> dict[str, Any]:
    return porch_rule(dev_id(hub, "Kitchen Motion"), dev_id(hub, "Porch Light"))


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


VALID_SPECS: list[dict[str, Any]] = [
    {
        "name": "Cool the office",
        "triggers": [
            {
                "device_id": "21",
                "attribute": "temperature",
                "op": "gt",
                "value": 78,
                "stays_for": {"minutes": 10},
            }
        ],
        "conditions": {"all": [{"mode": ["Day"]}, {"between": {"from": "12:00", "to": "18:00"}}]},
        "actions": [
            {"command": "on", "device_ids": ["33"]},
            {"notify": "Office fan on", "device_ids": ["40"]},
        ],
    },
    {
        "name": "Every kind",
        "triggers": [
            {"time": "07:30"},
            {"sun": "sunset", "offset_minutes": -15},
            {"every": {"minutes": 15}},
            {"every": {"hours": 2}},
            {"mode": ["Night"]},
            {"variable": "Guests", "op": "gte", "value": 2},
            {"button_device_id": "5", "button": 2, "event": "held"},
            {"device_ids": ["1", "2"], "attribute": "contact", "is": "open", "all": True},
            {"device_id": "3", "attribute": "switch", "changes": True},
        ],
        "conditions": {
            "any": [
                {"not": {"device_id": "3", "attribute": "switch", "is": "on"}},
                {"variable": "Guests", "op": "eq", "value": 0},
                {"between": {"from": {"sun": "sunset", "offset_minutes": 30}, "to": "sunrise"}},
            ]
        },
        "actions": [
            {
                "if": {"device_id": "3", "attribute": "switch", "is": "on"},
                "then": [
                    {
                        "command": "setLevel",
                        "device_ids": ["4"],
                        "arguments": [40],
                        "delay": {"seconds": 30},
                        "cancelable": True,
                    }
                ],
                "else": [{"log": "was off"}],
            },
            {
                "repeat_while": {"device_id": "1", "attribute": "contact", "is": "open"},
                "every": {"minutes": 1},
                "do": [{"notify": "Still open", "device_id": "40"}],
            },
            {"set_mode": "Night"},
            {"set_variable": "Guests", "value": 0},
            {"set_variable": "Copy", "from_variable": "Guests"},
            {
                "wait": [{"device_id": "1", "attribute": "contact", "is": "closed"}],
                "timeout": {"minutes": 5},
            },
            {"cancel_delays": True},
            {"run_rule": ["140"]},
        ],
        "paused": True,
        "logging": ["events", "actions"],
    },
]
INVALID_SPECS: list[dict[str, Any]] = [
    {"triggers": [], "actions": [{"log": "x"}]},  # no name
    {"name": "x", "actions": []},
    {"name": "x", "triggers": [{"time": "7:3"}], "actions": [{"log": "x"}]},
    {
        "name": "x",
        "triggers": [{"device_id": "1", "attribute": "motion", "op": "is", "value": 1}],
        "actions": [{"log": "x"}],
    },
    {"name": "x", "actions": [{"log": "x"}], "extra": True},
    {"name": "x", "triggers": [{"every": {"minutes": 7}}], "actions": [{"log": "x"}]},
]


def test_schema_and_parser_agree() -> None:
    import jsonschema  # type: ignore[import-untyped]

    from custom_components.hubitat_dev_tools.errors import ToolError
    from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
    from custom_components.hubitat_dev_tools.managers.automation.schema import SPEC_SCHEMA

    jsonschema.Draft202012Validator.check_schema(SPEC_SCHEMA)
    validator = jsonschema.Draft202012Validator(SPEC_SCHEMA)
    for spec in VALID_SPECS:
        assert not list(validator.iter_errors(spec)), spec["name"]
        parsed = parse_spec(spec)
        # the canonical form parses to itself
        assert parse_spec(parsed.as_dict()).as_dict() == parsed.as_dict()
    for spec in INVALID_SPECS:
        assert list(validator.iter_errors(spec)), spec
        try:
            parse_spec(spec)
        except ToolError:
            pass
        else:
            raise AssertionError(f"parser took {spec}")


async def test_devices_outside_the_allowlist_are_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES

    light = dev_id(hub, "Porch Light")
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [light]})
    data = await _refused(call_tool, porch_spec(hub))
    assert data["error"] == "device_not_allowed", data
