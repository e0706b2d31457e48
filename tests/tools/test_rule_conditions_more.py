"""More Rule Machine conditions through the tools (hub_create_rule, hub_get_rule,
hub_update_rule): the tools' own part, their answers. A rule comparing a device's reading with
another device's is created (its summary), read back equal, edited in place (the same app id,
edited_in_place) and run; a wrong spec is an error result with its code, message and hint,
from either tool, with nothing sent.

Every condition (a reading against another device's, a variable against another variable,
the rule's Private Boolean, groups in brackets in an IF, a wait and a Repeat While, conditional
triggers) built, read back, edited in place and run both ways, the schema and the parser
agreeing, and every wrong spec refused are tested without hass in
tests/managers/test_rule_conditions_more.py."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok
from ..helpers.rule_conditions_more import COOL, LIGHT, WARM, _press, _rule
from ..home_util import dev_id


async def _spec(call_tool: ToolCaller, app_id: str) -> dict[str, Any]:
    got = await ok(call_tool, "hub_get_rule", {"app_id": app_id})
    assert got["undecompiled"] == [], got
    spec: dict[str, Any] = got["spec"]
    return spec


async def test_a_device_comparison_is_created_read_back_and_edited_in_place(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    warm, cool = dev_id(hub, WARM), dev_id(hub, COOL)
    cond = {
        "device_id": warm,
        "attribute": "temperature",
        "op": "gt",
        "compare_to": {"device_id": cool, "offset": 2},
    }
    made = await ok(
        call_tool,
        "hub_create_rule",
        {"rule": _rule(hub, "Warmer than the guest room", conditions=cond)},
    )
    app_id = str(made["app_id"])
    assert made["summary"] == f"Created rule {app_id} (Warmer than the guest room)", made
    assert (await _spec(call_tool, app_id))["conditions"] == cond
    assert await _press(hub) == "on"  # 70.1 > 65.3 + 2

    lower = {k: v for k, v in cond.items() if k != "compare_to"}
    lower |= {"op": "lt", "compare_to": {"device_id": cool}}
    light = dev_id(hub, LIGHT)
    new = _rule(
        hub,
        "Cooler than the guest room",
        actions=[{"if": lower, "then": [{"command": "on", "device_ids": [light]}]}],
    )
    done = await ok(call_tool, "hub_update_rule", {"app_id": app_id, "rule": new})
    assert done["summary"] == f"Updated rule {app_id} in place", done
    assert done["app_id"] == app_id and done["edited_in_place"] is True, done
    assert (await _spec(call_tool, app_id))["actions"] == new["actions"]
    assert await _press(hub) == "off"  # 70.1 < 65.3 is false


@pytest.mark.parametrize(
    ("conditions", "actions", "error", "words"),
    [
        (
            None,
            [{"if": {"private_boolean": True}, "then": [{"log": "x"}]}],
            "not_supported",
            "Required Expression",
        ),
        (
            {
                "device_id": "LIGHT",
                "attribute": "switch",
                "op": "eq",
                "compare_to": {"device_id": "LIGHT"},
            },
            None,
            "invalid_request",
            "numeric attribute",
        ),
    ],
)
async def test_a_wrong_spec_is_an_error_result_and_nothing_changes(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    conditions: dict[str, Any] | None,
    actions: list[dict[str, Any]] | None,
    error: str,
    words: str,
) -> None:
    light = dev_id(hub, LIGHT)

    def ids(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: ids(v) for k, v in value.items()}
        return light if value == "LIGHT" else value

    parts: dict[str, Any] = {}
    if conditions is not None:
        parts["conditions"] = ids(conditions)
    if actions is not None:
        parts["actions"] = actions
    made = await ok(call_tool, "hub_create_rule", {"rule": _rule(hub, "Left alone")})
    app_id = str(made["app_id"])
    before = dict(hub.rule_machine.rules[int(app_id)].settings)
    writes = len([r for r in hub.requests if r[0] != "GET"])
    for tool, args in (
        ("hub_create_rule", {"rule": _rule(hub, "Refused", **parts)}),
        ("hub_update_rule", {"app_id": app_id, "rule": _rule(hub, "Refused", **parts)}),
    ):
        refused = await call_tool(tool, args)
        assert refused.error, (tool, refused.data)
        assert refused.data["error"] == error, (tool, refused.data)
        assert words in refused.data["message"] + refused.data.get("hint", ""), refused.data
    assert len([r for r in hub.requests if r[0] != "GET"]) == writes
    assert hub.rule_machine.rules[int(app_id)].settings == before
