"""Hub variable create/delete through the Hub Variables app wizard (reference §10).

The wizard and the create and delete logic themselves, without Home Assistant:
tests/managers/test_variables_crud.py; here stay the tools' summaries, the confirmation and
backup gates, the Maker API requirement, the argument refusals and the advice."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.app_page import parse_page
from custom_components.hubitat_dev_tools.hub.apps import parse_config_page
from hubitat_emulator import HubEmulator
from hubitat_emulator.routes_hubvars import _HubVarRoutes

from ..conftest import ToolCaller, add_entry, ok
from ..contract import assert_same_shape, load_fixture
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
    """(b) The duplicate-name check reads the hub's list of every variable: a name the Maker
    API instance does not select is refused, saying so, before any wizard step."""
    hub.maker_variable_names = {"guestCount"}
    before = len(hub.requests)
    for spelled in ("houseStatus", "HOUSESTATUS"):
        result = await call_tool(
            "hub_create_variable", {"name": spelled, "type": "string", "value": "x"}
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
    assert not [p for _m, p in hub.requests[before:] if p.startswith("/installedapp/")]


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


async def test_wizard_page_has_the_real_shape(hub: HubEmulator, socket_enabled: None) -> None:
    page = parse_config_page(load_fixture("variables/wizard_page").answer, "77")
    inputs, buttons = parse_page(page)
    assert list(inputs) == ["hbVar", "varType"] and "moreVar" in buttons
    assert page["app"]["version"] == 5
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{hub.url}/installedapp/direct/hubVariables") as resp:
            app_id = resp.url.path.rsplit("/", 1)[-1]
        click = {"id": app_id, "name": "moreVar", "stateAttribute": "moreVar"}
        async with session.post(f"{hub.url}/installedapp/btn", data=click) as resp:
            assert_same_shape("apps/button_click", await resp.json(content_type=None))
        url = f"{hub.url}/installedapp/configure/json/{app_id}/hubVar"
        async with session.get(url) as resp:
            assert_same_shape("variables/wizard_page", await resp.json(content_type=None))


async def test_a_refusal_whose_effect_is_there_is_a_success(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    create = _HubVarRoutes._create

    def lying(self: Any, app: Any, **kw: Any) -> Any:
        create(self, app, **kw)  # the variable is made ...
        return self._fail("Something went wrong")  # ... and the answer says otherwise

    monkeypatch.setattr(_HubVarRoutes, "_create", lying)
    data = await ok(
        call_tool, "hub_create_variable", {"name": "partyLevel", "type": "integer", "value": 3}
    )
    assert data["value"] == 3 and "partyLevel" in hub.variables
