"""Rule authoring (``managers/automation/``, ``hub.rule_authoring``) on its own, no hass: the
spec, its checks and the plan. A dry run answers the rule text and the page steps and sends
nothing; a bad spec names the part at fault; what the spec cannot say is refused with what it
can; the checks against the hub (devices, attributes, commands, modes, variables, rules, the
confirm gate, the device allowlist) refuse before anything is sent; the published schema and
the parser agree.

Moved from tests/tools/test_rule_authoring.py (the tools' answers stay there: the dry run's
summary, a refusal as an error result, the device allowlist from the integration's options and
the tool search for owners' sentences)."""

from __future__ import annotations

from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.automation.parse import parse_spec
from custom_components.hubitat_dev_tools.managers.automation.schema import SPEC_SCHEMA
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.rule_authoring import porch_spec
from ..home_util import dev_id


def _writes(emu: HubEmulator) -> list[tuple[str, str]]:
    return [r for r in emu.requests if r[0] != "GET"]


async def _dry_run(manager_hub: Hub, rule: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """A dry run as hub_create_rule validate_only=true asks it."""
    args: dict[str, Any] = {"confirm": False, **kw}
    return await manager_hub.rule_authoring.create(rule, validate_only=True, **args)


async def _refused(manager_hub: Hub, rule: dict[str, Any], **kw: Any) -> ToolError:
    with pytest.raises(ToolError) as refused:
        await _dry_run(manager_hub, rule, **kw)
    return refused.value


async def test_validate_only_sends_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    before = len(emu.requests)
    data = await _dry_run(manager_hub, porch_spec(emu))
    assert data["valid"] is True and data["sent"] is False
    assert "Required Expression: Time between Sunset and Sunrise" in data["rule_text"]
    assert any('tCapab{N} = "Motion"' in s for s in data["plan"]["steps"])
    assert data["plan"]["page_requests"] == len(data["plan"]["steps"])
    writes = [r for r in emu.requests[before:] if r[0] != "GET"]
    assert writes == []


async def test_spec_shape_errors_name_the_part(emu: HubEmulator, manager_hub: Hub) -> None:
    base = porch_spec(emu)
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
        refused = await _refused(manager_hub, rule)
        assert where in str(refused), (where, refused)


async def test_inexpressible_parts_are_refused_with_what_can(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    base = porch_spec(emu)
    refused = await _refused(manager_hub, {**base, "triggers": [{"hsm": "armedAway"}]})
    assert refused.code == "not_supported"
    assert refused.hint is not None and "sun (sunrise|sunset" in refused.hint
    refused = await _refused(manager_hub, {**base, "conditions": {"days": ["Mon"]}})
    assert "days-of-week" in str(refused)
    two_waits = {**base, "actions": [base["actions"][2], base["actions"][2]]}
    assert "more than one wait" in str(await _refused(manager_hub, two_waits))


async def test_hub_checks_before_anything_is_sent(emu: HubEmulator, manager_hub: Hub) -> None:
    base = porch_spec(emu)
    light = dev_id(emu, "Porch Light")
    lock = dev_id(emu, "Front Door Lock")
    before = _writes(emu)
    refused = await _refused(
        manager_hub,
        {**base, "triggers": [{"device_id": "9999", "attribute": "motion", "is": "active"}]},
    )
    assert refused.code == "not_found" and "9999" in str(refused)
    refused = await _refused(
        manager_hub,
        {**base, "triggers": [{"device_id": light, "attribute": "motion", "is": "active"}]},
    )
    assert "rule.triggers[0]" in str(refused) and "no attribute 'motion'" in str(refused)
    refused = await _refused(
        manager_hub,
        {
            **base,
            "actions": [{"command": "setLevel", "device_ids": [light], "arguments": ["bright"]}],
        },
    )
    assert "rule.actions[0]" in str(refused)
    refused = await _refused(
        manager_hub, {**base, "actions": [{"command": "unlock", "device_ids": [lock]}]}
    )
    assert refused.code == "confirmation_required"
    refused = await _refused(manager_hub, {**base, "actions": [{"set_mode": "Vacation"}]})
    assert "no mode 'Vacation'" in str(refused)
    refused = await _refused(
        manager_hub, {**base, "actions": [{"set_variable": "NoSuchVar", "value": 1}]}
    )
    assert "no variable 'NoSuchVar'" in str(refused)
    refused = await _refused(manager_hub, {**base, "actions": [{"run_rule": ["99999"]}]})
    assert "no Rule Machine rule 99999" in str(refused)
    assert _writes(emu) == before


async def test_unlock_with_confirm_is_valid(emu: HubEmulator, manager_hub: Hub) -> None:
    rule = {
        **porch_spec(emu),
        "actions": [{"command": "unlock", "device_ids": [dev_id(emu, "Front Door Lock")]}],
    }
    data = await _dry_run(manager_hub, rule, confirm=True)
    assert any("lockRL.{A} = true" in s for s in data["plan"]["steps"])


async def test_devices_outside_the_allowlist_are_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """Added: the manager's own allowlist check (the tool passes the integration's allowlist
    as ``device_allowed``)."""
    light = dev_id(emu, "Porch Light")
    before = _writes(emu)
    refused = await _refused(manager_hub, porch_spec(emu), device_allowed=lambda d: d == light)
    assert refused.code == "device_not_allowed", refused
    assert _writes(emu) == before


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
    jsonschema.Draft202012Validator.check_schema(SPEC_SCHEMA)
    validator = jsonschema.Draft202012Validator(SPEC_SCHEMA)
    for spec in VALID_SPECS:
        assert not list(validator.iter_errors(spec)), spec["name"]
        parsed = parse_spec(spec)
        # the canonical form parses to itself
        assert parse_spec(parsed.as_dict()).as_dict() == parsed.as_dict()
    for spec in INVALID_SPECS:
        assert list(validator.iter_errors(spec)), spec
        with pytest.raises(ToolError):
            parse_spec(spec)
