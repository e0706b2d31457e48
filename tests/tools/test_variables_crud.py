"""Hub variable create/delete through the Hub Variables app wizard (reference §10).

The wizard and the create and delete logic themselves (the refusals before any wizard step,
a hub refusal, a refusal whose effect is there), without Home Assistant:
tests/managers/test_variables_crud.py; here stay the tools' summaries, the confirmation and
backup gates, the Maker API requirement, the refusals as the tools answer them and the
advice. The emulated wizard page's shape against the recorded one is checked there too."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.routes_hubvars import _HubVarRoutes

from ..conftest import ToolCaller, add_entry, ok
from ..home_util import sent


def _rule_id(hub: HubEmulator) -> int:
    return next(a.id for a in hub.state.apps.values() if a.type.startswith("Rule-"))


async def test_create_while_the_maker_api_selects_only_some(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the create's summary, and a variable the Maker API instance does not
    select shown as such by hub_get_variable and hub_list_variables (the create itself:
    tests/managers/test_variables_crud.py::test_create_while_the_maker_api_selects_only_some
    and ::test_create_then_listed)."""
    hub.maker_variable_names = {"guestCount"}
    data = await ok(
        call_tool, "hub_create_variable", {"name": "partyLevel", "type": "integer", "value": 3}
    )
    assert data["summary"] == "Created integer variable partyLevel = 3"
    assert data["maker_visible"] is False and "Maker API instance" in data["note"]
    got = await ok(call_tool, "hub_get_variable", {"name": "partyLevel"})
    assert got["value"] == 3 and got["maker_visible"] is False
    listed = await ok(call_tool, "hub_list_variables")
    party = next(v for v in listed["variables"] if v["name"] == "partyLevel")
    assert party["value"] == 3 and party["maker_visible"] is False


async def test_a_name_only_the_hub_lists_is_refused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answer to a name the Maker API instance does not select: the message, the
    hint and the existing variable in the answer (the check itself, every spelling:
    tests/managers/test_variables_crud.py::test_a_name_only_the_hub_lists_is_refused)."""
    hub.maker_variable_names = {"guestCount"}
    before = len(hub.requests)
    result = await call_tool(
        "hub_create_variable", {"name": "HOUSESTATUS", "type": "string", "value": "x"}
    )
    assert result.error and "already exists" in result.data["message"], result.data
    assert "does not select" in result.data["message"]
    assert "Maker API instance's hub variables" in result.data["hint"]
    assert result.data["existing"] == {
        "kind": "variable",
        "id": "houseStatus",
        "name": "houseStatus",
    }
    assert sent(hub, before) == []


async def test_create_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The refusals as the tool answers them, and a type its arguments do not take (every
    refusal of the manager: tests/managers/test_variables_crud.py)."""
    before = len(hub.requests)
    for args, word in (
        ({"name": "9lives", "type": "integer", "value": 1}, "not a valid"),
        ({"name": "count", "type": "integer", "value": "two"}, "count"),
        ({"name": "guestCount", "type": "integer", "value": 1}, "already exists"),
    ):
        result = await call_tool("hub_create_variable", args)
        assert result.error and word in result.data["message"], (args, result.data)
    bad_type = await call_tool("hub_create_variable", {"name": "x", "type": "float", "value": 1})
    assert bad_type.error and bad_type.data["error"] == "invalid_arguments", bad_type.data
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
    """The tool's part: the refusal reaches the caller with its force=true hint, force
    reaches the delete and the summary counts the rules broken (the check of the rules
    itself: tests/managers/test_variables_crud.py::test_delete_refused_while_a_rule_uses_it)."""
    hub.mark_backup_now()
    rule = _rule_id(hub)
    await ok(call_tool, "hub_list_rules")  # materialise the rule's page internals
    hub.state.dev.internals[rule].paragraphs.append("Set Variable guestCount to 0")
    before = len(hub.requests)
    refused = await call_tool("hub_delete_variable", {"name": "guestCount", "confirm": True})
    assert refused.error and str(rule) in refused.data["message"], refused.data
    assert "force=true" in refused.data["hint"]
    assert sent(hub, before, "/installedapp") == [] and "guestCount" in hub.variables
    forced = await ok(
        call_tool, "hub_delete_variable", {"name": "guestCount", "confirm": True, "force": True}
    )
    assert forced["summary"] == "Deleted hub variable guestCount (forced; 1 rule(s) used it)"
    assert forced["broken_users"][0]["app_id"] == str(rule)
    assert "guestCount" not in hub.variables


async def test_hub_refusal_is_reported(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hub's refusal as the tool answers it (tests/managers/test_variables_crud.py)."""
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
