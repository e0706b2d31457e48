"""Hub variable create/delete through the Hub Variables app wizard (reference §10)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub import variables_wizard
from custom_components.hubitat_dev_tools.hub.app_page import parse_page
from custom_components.hubitat_dev_tools.hub.apps import parse_config_page
from hubitat_emulator import HubEmulator
from hubitat_emulator.routes_hubvars import _HubVarRoutes

from ..conftest import ToolCaller, add_entry, ok
from ..contract import assert_same_shape, load_fixture
from ..home_util import sent


def _fields(submit: dict[str, str]) -> list[str]:
    return [k[len("settings[") : -1] for k in submit if k.startswith("settings[")]


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


async def test_create_while_the_maker_api_selects_only_some(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(a) A new variable is not selected in the Maker API instance: the create is confirmed
    by the hub's list of every variable (/hub2/hubMeshJson), reported created, and its
    value is readable with hub_get_variable (its latest change)."""
    hub.maker_variable_names = {"guestCount"}
    before = len(hub.requests)
    data = await ok(
        call_tool, "hub_create_variable", {"name": "partyLevel", "type": "integer", "value": 3}
    )
    assert data["name"] == "partyLevel" and data["value"] == 3 and data["type"] == "integer"
    assert data["maker_visible"] is False and "Maker API instance" in data["note"]
    assert "latest change" in data["note"]  # read back from its change, not as sent
    assert "Created integer variable partyLevel = 3" in data["summary"]
    assert hub.variables["partyLevel"] == {"name": "partyLevel", "type": "integer", "value": 3}
    assert "/hub2/hubMeshJson" in [p for _m, p in hub.requests[before:]]
    got = await ok(call_tool, "hub_get_variable", {"name": "partyLevel"})
    assert got["value"] == 3 and got["type"] == "integer" and got["maker_visible"] is False
    assert got["recent_changes"][0]["name"] == "partyLevel"
    listed = await ok(call_tool, "hub_list_variables")
    party = next(v for v in listed["variables"] if v["name"] == "partyLevel")
    assert party["value"] == 3 and party["maker_visible"] is False
    # a DateTime and a string too
    await ok(
        call_tool,
        "hub_create_variable",
        {"name": "alarmAt", "type": "datetime", "value": "2026-06-27T10:30:00-06:00"},
    )
    note = await ok(
        call_tool, "hub_create_variable", {"name": "note", "type": "string", "value": "hi"}
    )
    assert note["value"] == "hi" and "alarmAt" in hub.variables
    # a hub that keeps no change of the new variable: the value is reported as sent
    monkeypatch.setattr(type(hub.home), "_location_event", lambda *_a, **_k: None)
    quiet = await ok(
        call_tool, "hub_create_variable", {"name": "quiet", "type": "integer", "value": 7}
    )
    assert quiet["value"] == 7 and "as sent" in quiet["note"] and "quiet" in hub.variables
    monkeypatch.undo()
    # the Maker API path is unchanged for a variable its instance selects
    hub.maker_variable_names = None
    seen = await ok(
        call_tool, "hub_create_variable", {"name": "ratio", "type": "bigdecimal", "value": 0.5}
    )
    assert seen["value"] == 0.5 and "maker_visible" not in seen


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


async def test_delete_an_unselected_variable(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A variable the Maker API instance does not select is deleted through the wizard and
    judged gone by the hub's list of every variable (the dropped first try included)."""
    monkeypatch.setattr(variables_wizard, "EFFECT_WAIT", 0.4)
    hub.mark_backup_now()
    hub.set_variable("doorOpenCount", 18)
    hub.maker_variable_names = {"guestCount"}
    data = await ok(call_tool, "hub_delete_variable", {"name": "doorOpenCount", "confirm": True})
    assert data["name"] == "doorOpenCount" and data["type"] == "integer"
    assert data["last_value"] == 18 and "doorOpenCount" not in hub.variables
    confirms = [c for c in hub.state.dev.clicks if c["name"] == "delConfirm"]
    assert len(confirms) == 2  # the first was dropped: the hub's list still had it
    missing = await call_tool("hub_delete_variable", {"name": "doorOpenCount", "confirm": True})
    assert missing.error and "No hub variable" in missing.data["message"]
    assert "houseStatus" in missing.data["message"]  # every variable, selected or not


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


async def test_wizard_posts_one_field_at_a_time_with_the_page_version(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    routes = hub.hubvar_routes
    await ok(call_tool, "hub_create_variable", {"name": "level", "type": "integer", "value": 4})
    assert [_fields(f) for f in routes.submits] == [["hbVar"], ["varType"], ["varValue"]]
    versions = [int(f["version"]) for f in routes.submits]
    assert versions == sorted(set(versions))  # each read afresh: the version moved on
    for form in routes.submits:
        assert form["currentPage"] == "hubVar" and form["formAction"] == "update"
        assert form["pageBreadcrumbs"] == '["mainPage"]'
    assert routes.submits[2]["varValue.type"] == "textarea"
    assert routes.submits[1]["settings[varType]"] == "Number"
    # the wizard's clicks carry the hubVar page context (the on-hub server's live-verified wizard)
    more = next(c for c in hub.state.dev.clicks if c["name"] == "moreVar")
    assert more["stateAttribute"] == "moreVar" and more["currentPage"] == "hubVar"
    routes.submits.clear()
    await ok(
        call_tool,
        "hub_create_variable",
        {"name": "wakeAt", "type": "datetime", "value": "2026-06-27T10:30:45-06:00"},
    )
    # varDate and varTime in ONE submit: the hub commits on varDate (date-only when alone)
    # and closes the form (the on-hub server issue #447); dateTimeDone is not needed then
    assert [sorted(_fields(f)) for f in routes.submits] == [
        ["hbVar"],
        ["varType"],
        ["varDate", "varTime"],
    ]
    assert routes.submits[2]["settings[varDate]"] == "2026-06-27"
    assert routes.submits[2]["settings[varTime]"] == "10:30"  # HH:mm, as the wizard takes it
    assert hub.state.dev.clicks[-1]["name"] != "dateTimeDone"
    assert "wakeAt" in hub.variables and "T10:30" in str(hub.state.variables["wakeAt"].value)


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


async def test_delete_copes_with_the_dropped_first_try(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(variables_wizard, "EFFECT_WAIT", 0.4)
    hub.mark_backup_now()
    routes = hub.hubvar_routes
    assert routes.drop_first_delete  # the emulator's default, as a real hub sometimes does
    await ok(call_tool, "hub_delete_variable", {"name": "houseStatus", "confirm": True})
    confirms = [c for c in hub.state.dev.clicks if c["name"] == "delConfirm"]
    assert len(confirms) == 2 and "houseStatus" not in hub.variables
    picks = [c for c in hub.state.dev.clicks if c.get("stateAttribute") == "deleteGV"]
    assert [c["name"] for c in picks] == ["houseStatus", "houseStatus"]
    # a hub that takes the first try: one sequence
    routes.drop_first_delete = False
    hub.state.dev.clicks.clear()
    await ok(call_tool, "hub_delete_variable", {"name": "doorOpenCount", "confirm": True})
    assert [c["name"] for c in hub.state.dev.clicks].count("delConfirm") == 1
    # a hub that never deletes: reported after two tries, not as a success
    monkeypatch.setattr(_HubVarRoutes, "button", _never_delete(_HubVarRoutes.button))
    stuck = await call_tool("hub_delete_variable", {"name": "guestCount", "confirm": True})
    assert stuck.error and stuck.data["error"] == "hub_bad_response", stuck.data
    assert "still listed after 2 attempts" in stuck.data["message"]


def _never_delete(button: Any) -> Any:
    async def handler(self: Any, request: Any) -> Any:
        form = await request.post()
        if form.get("name") == "delConfirm":
            return self.http.json({"status": "success"})
        return await button(self, request)

    return handler


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
