"""Hub variable create/delete through the Hub Variables app wizard (reference §10)."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.routes_hubvars import _HubVarRoutes

from .conftest import ToolCaller, add_entry, ok
from .home_util import sent


def _rule_id(hub: HubEmulator) -> int:
    return next(a.id for a in hub.state.apps.values() if a.type.startswith("Rule-"))


async def test_create_then_listed(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(
        call_tool, "hub_create_variable", {"name": "partyLevel", "type": "integer", "value": "3"}
    )
    assert data["name"] == "partyLevel" and data["value"] == 3 and "summary" in data
    assert hub.variables["partyLevel"] == {"name": "partyLevel", "type": "integer", "value": 3}
    wizard = [p for m, p in hub.requests if p.startswith("/installedapp/")]
    assert "/installedapp/btn" in wizard and "/installedapp/update/json" in wizard
    await ok(
        call_tool, "hub_create_variable", {"name": "ratio", "type": "bigdecimal", "value": 0.5}
    )
    await ok(call_tool, "hub_create_variable", {"name": "away", "type": "boolean", "value": True})
    await ok(call_tool, "hub_create_variable", {"name": "note", "type": "string", "value": "hi"})
    await ok(
        call_tool,
        "hub_create_variable",
        {"name": "alarmAt", "type": "datetime", "value": "2026-06-27T10:30:00-06:00"},
    )
    listed = await ok(call_tool, "hub_list_variables")
    by_name = {v["name"]: v for v in listed["variables"]}
    assert by_name["partyLevel"]["value"] == 3
    assert by_name["ratio"]["type"] == "bigdecimal" and by_name["away"]["value"] is True
    assert by_name["note"]["value"] == "hi" and by_name["alarmAt"]["type"] == "datetime"
    # the singleton: both creates used the same Hub Variables app
    assert sum(1 for a in hub.state.apps.values() if a.type == "Hub Variables") == 1


async def test_create_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    for args, word in (
        ({"name": "9lives", "type": "integer", "value": 1}, "not a valid"),
        ({"name": "has space", "type": "string", "value": "x"}, "not a valid"),
        ({"name": "count", "type": "integer", "value": "two"}, "count"),
        ({"name": "count", "type": "integer", "value": 2.5}, "count"),
        ({"name": "flag", "type": "boolean", "value": "maybe"}, "flag"),
        ({"name": "label", "type": "string", "value": ""}, "empty"),
        ({"name": "when", "type": "datetime", "value": "tomorrow"}, "when"),
        ({"name": "guestCount", "type": "integer", "value": 1}, "already exists"),
        ({"name": "GUESTCOUNT", "type": "integer", "value": 1}, "already exists"),
    ):
        result = await call_tool("hub_create_variable", args)
        assert result.error and word in result.data["message"], (args, result.data)
    bad_type = await call_tool("hub_create_variable", {"name": "x", "type": "float", "value": 1})
    assert bad_type.error
    assert sent(hub, before) == []
    assert not [p for _m, p in hub.requests[before:] if p.startswith("/installedapp/")]


async def test_delete_gates(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    no_confirm = await call_tool("hub_delete_variable", {"name": "houseStatus"})
    assert no_confirm.error and no_confirm.data["error"] == "confirmation_required"
    no_backup = await call_tool("hub_delete_variable", {"name": "houseStatus", "confirm": True})
    assert no_backup.error and "backup" in no_backup.data["message"].lower()
    assert sent(hub, before, "/installedapp") == []
    assert "houseStatus" in hub.variables
    hub.mark_backup_now()
    data = await ok(call_tool, "hub_delete_variable", {"name": "houseStatus", "confirm": True})
    assert data["name"] == "houseStatus" and "summary" in data
    assert "houseStatus" not in hub.variables
    listed = await ok(call_tool, "hub_list_variables")
    assert "houseStatus" not in {v["name"] for v in listed["variables"]}
    missing = await call_tool("hub_delete_variable", {"name": "houseStatus", "confirm": True})
    assert missing.error and "No hub variable" in missing.data["message"]


async def test_delete_refused_while_a_rule_uses_it(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    rule = _rule_id(hub)
    await ok(call_tool, "hub_list_rules")  # materialise the rule's page internals
    hub.state.dev.internals[rule].paragraphs.append("Set Variable guestCount to 0")
    before = len(hub.requests)
    refused = await call_tool("hub_delete_variable", {"name": "guestCount", "confirm": True})
    assert refused.error and str(rule) in refused.data["message"], refused.data
    assert "force=true" in refused.data["hint"]
    assert sent(hub, before, "/installedapp") == []
    assert "guestCount" in hub.variables
    # a variable no rule mentions is deleted without force
    await ok(call_tool, "hub_delete_variable", {"name": "doorOpenCount", "confirm": True})
    forced = await ok(
        call_tool, "hub_delete_variable", {"name": "guestCount", "confirm": True, "force": True}
    )
    assert forced["broken_users"][0]["app_id"] == str(rule)
    assert "guestCount" not in hub.variables


async def test_hub_refusal_is_reported(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_HubVarRoutes, "_create", lambda self, app, **_: self._fail("Hub is busy"))
    result = await call_tool(
        "hub_create_variable", {"name": "partyLevel", "type": "integer", "value": 3}
    )
    assert result.error and "Hub is busy" in result.data["message"], result.data
    assert "partyLevel" not in hub.variables


async def test_crud_needs_maker(hass: Any, hub: HubEmulator, call_tool: ToolCaller) -> None:
    await add_entry(hass, hub, maker=False)
    hub.mark_backup_now()
    for tool, args in (
        ("hub_create_variable", {"name": "x", "type": "integer", "value": 1}),
        ("hub_delete_variable", {"name": "guestCount", "confirm": True}),
    ):
        result = await call_tool(tool, args)
        assert result.error and result.data["error"] == "maker_api_required", tool
