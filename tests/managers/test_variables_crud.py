"""Creating and deleting hub variables with the variables manager (``managers/variables.py``)
on its own, no hass: the Hub Variables app wizard one field at a time, a new variable the
Maker API instance does not select (confirmed by the hub's list of every variable), deleting
one, the refusal while a rule uses it, and the hub dropping the first delete; the refusals
made before any wizard step (a name that is not valid, a value its type does not take, a
name the hub already lists, selected or not), a hub refusal reported and a refusal whose
effect is there taken as a success, over the emulated hub (whose wizard page has the
recorded hub's shape).

Moved from tests/tools/test_variables_crud.py (the create and delete logic is the manager's;
the tools' summaries, the confirmation and backup gates, the Maker API requirement, the
argument refusals and the advice that names a tool stay there). Reading and setting values:
``test_variables.py``."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub import variables_wizard
from custom_components.hubitat_dev_tools.hub.app_page import parse_page
from custom_components.hubitat_dev_tools.hub.apps import parse_config_page
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubError
from custom_components.hubitat_dev_tools.hub.info import fetch_identity
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.routes_hubvars import _HubVarRoutes

from ..contract import assert_same_shape, load_fixture
from ..home_util import sent


@pytest.fixture
async def variables(manager_hub: Hub) -> Hub:
    """The hub with its identity read first, as the integration's setup does (the client
    then knows the hub's time zone, which DateTime values are written in)."""
    await fetch_identity(manager_hub.client)
    return manager_hub


def _fields(submit: dict[str, str]) -> list[str]:
    return [k[len("settings[") : -1] for k in submit if k.startswith("settings[")]


def _rule_id(emu: HubEmulator) -> int:
    return next(a.id for a in emu.state.apps.values() if a.type.startswith("Rule-"))


async def test_create_then_listed(emu: HubEmulator, variables: Hub) -> None:
    manager = variables.variables
    data = await manager.create_variable("partyLevel", "integer", "3")
    assert data == {"name": "partyLevel", "type": "integer", "value": 3}
    assert emu.variables["partyLevel"] == {"name": "partyLevel", "type": "integer", "value": 3}
    wizard = [p for m, p in emu.requests if p.startswith("/installedapp/")]
    assert "/installedapp/btn" in wizard and "/installedapp/update/json" in wizard
    await manager.create_variable("ratio", "bigdecimal", 0.5)
    await manager.create_variable("away", "boolean", True)
    await manager.create_variable("note", "string", "hi")
    await manager.create_variable("alarmAt", "datetime", "2026-06-27T10:30:00-06:00")
    by_name = {v["name"]: v for v in await manager.list_variables()}
    assert by_name["partyLevel"]["value"] == 3
    assert by_name["ratio"]["type"] == "bigdecimal" and by_name["away"]["value"] is True
    assert by_name["note"]["value"] == "hi" and by_name["alarmAt"]["type"] == "datetime"
    # the singleton: both creates used the same Hub Variables app
    assert sum(1 for a in emu.state.apps.values() if a.type == "Hub Variables") == 1


async def test_create_while_the_maker_api_selects_only_some(
    emu: HubEmulator, variables: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(a) A new variable is not selected in the Maker API instance: the create is confirmed
    by the hub's list of every variable (/hub2/hubMeshJson), reported created, and its
    value is readable (its latest change)."""
    manager = variables.variables
    emu.maker_variable_names = {"guestCount"}
    before = len(emu.requests)
    data = await manager.create_variable("partyLevel", "integer", 3)
    assert data["name"] == "partyLevel" and data["value"] == 3 and data["type"] == "integer"
    assert data.get("maker_visible") is False
    note = data.get("note", "")
    assert "Maker API instance" in note
    assert "latest change" in note  # read back from its change, not as sent
    assert emu.variables["partyLevel"] == {"name": "partyLevel", "type": "integer", "value": 3}
    assert "/hub2/hubMeshJson" in [p for _m, p in emu.requests[before:]]
    got = await manager.get_variable("partyLevel")
    assert got["value"] == 3 and got["type"] == "integer" and got.get("maker_visible") is False
    assert got["recent_changes"][0]["name"] == "partyLevel"
    listed = (await manager.inventory())["variables"]
    party = next(v for v in listed if v["name"] == "partyLevel")
    assert party["value"] == 3 and party["maker_visible"] is False
    # a DateTime and a string too
    await manager.create_variable("alarmAt", "datetime", "2026-06-27T10:30:00-06:00")
    note_var = await manager.create_variable("note", "string", "hi")
    assert note_var["value"] == "hi" and "alarmAt" in emu.variables
    # a hub that keeps no change of the new variable: the value is reported as sent
    monkeypatch.setattr(type(emu.home), "_location_event", lambda *_a, **_k: None)
    quiet = await manager.create_variable("quiet", "integer", 7)
    assert quiet["value"] == 7 and "as sent" in quiet.get("note", "")
    assert "quiet" in emu.variables
    monkeypatch.undo()
    # the Maker API path is unchanged for a variable its instance selects
    emu.maker_variable_names = None
    seen = await manager.create_variable("ratio", "bigdecimal", 0.5)
    assert seen["value"] == 0.5 and "maker_visible" not in seen


async def test_delete_an_unselected_variable(
    emu: HubEmulator, variables: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variable the Maker API instance does not select is deleted through the wizard and
    judged gone by the hub's list of every variable (the dropped first try included)."""
    monkeypatch.setattr(variables_wizard, "EFFECT_WAIT", 0.4)
    manager = variables.variables
    emu.set_variable("doorOpenCount", 18)
    emu.maker_variable_names = {"guestCount"}
    data = await manager.delete_variable("doorOpenCount")
    assert data["name"] == "doorOpenCount" and data["type"] == "integer"
    assert data["last_value"] == 18 and "doorOpenCount" not in emu.variables
    confirms = [c for c in emu.state.dev.clicks if c["name"] == "delConfirm"]
    assert len(confirms) == 2  # the first was dropped: the hub's list still had it
    with pytest.raises(ToolError, match="No hub variable") as missing:
        await manager.delete_variable("doorOpenCount")
    assert "houseStatus" in str(missing.value)  # every variable, selected or not


async def test_delete_refused_while_a_rule_uses_it(emu: HubEmulator, variables: Hub) -> None:
    manager = variables.variables
    rule = _rule_id(emu)
    await variables.rules.list_rules("all", with_status=True)  # the rule's page internals
    emu.state.dev.internals[rule].paragraphs.append("Set Variable guestCount to 0")
    before = len(emu.requests)
    with pytest.raises(ToolError) as refused:
        await manager.delete_variable("guestCount")
    assert str(rule) in str(refused.value), str(refused.value)
    assert "force=true" in str(refused.value.hint)
    assert sent(emu, before, "/installedapp") == []
    assert "guestCount" in emu.variables
    # a variable no rule mentions is deleted without force
    plain = await manager.delete_variable("doorOpenCount")
    assert "broken_users" not in plain and "doorOpenCount" not in emu.variables
    forced = await manager.delete_variable("guestCount", force=True)
    assert forced.get("broken_users", [])[0]["app_id"] == str(rule)
    assert "guestCount" not in emu.variables


async def test_wizard_posts_one_field_at_a_time_with_the_page_version(
    emu: HubEmulator, variables: Hub
) -> None:
    manager = variables.variables
    routes = emu.hubvar_routes
    await manager.create_variable("level", "integer", 4)
    assert [_fields(f) for f in routes.submits] == [["hbVar"], ["varType"], ["varValue"]]
    versions = [int(f["version"]) for f in routes.submits]
    assert versions == sorted(set(versions))  # each read afresh: the version moved on
    for form in routes.submits:
        assert form["currentPage"] == "hubVar" and form["formAction"] == "update"
        assert form["pageBreadcrumbs"] == '["mainPage"]'
    assert routes.submits[2]["varValue.type"] == "textarea"
    assert routes.submits[1]["settings[varType]"] == "Number"
    # the wizard's clicks carry the hubVar page context (the on-hub server's live-verified wizard)
    more = next(c for c in emu.state.dev.clicks if c["name"] == "moreVar")
    assert more["stateAttribute"] == "moreVar" and more["currentPage"] == "hubVar"
    routes.submits.clear()
    await manager.create_variable("wakeAt", "datetime", "2026-06-27T10:30:45-06:00")
    # varDate and varTime in ONE submit: the hub commits on varDate (date-only when alone)
    # and closes the form (the on-hub server issue #447); dateTimeDone is not needed then
    assert [sorted(_fields(f)) for f in routes.submits] == [
        ["hbVar"],
        ["varType"],
        ["varDate", "varTime"],
    ]
    assert routes.submits[2]["settings[varDate]"] == "2026-06-27"
    assert routes.submits[2]["settings[varTime]"] == "10:30"  # HH:mm, as the wizard takes it
    assert emu.state.dev.clicks[-1]["name"] != "dateTimeDone"
    assert "wakeAt" in emu.variables and "T10:30" in str(emu.state.variables["wakeAt"].value)


def _never_delete(button: Any) -> Any:
    async def handler(self: Any, request: Any) -> Any:
        form = await request.post()
        if form.get("name") == "delConfirm":
            return self.http.json({"status": "success"})
        return await button(self, request)

    return handler


async def test_delete_copes_with_the_dropped_first_try(
    emu: HubEmulator, variables: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(variables_wizard, "EFFECT_WAIT", 0.4)
    manager = variables.variables
    routes = emu.hubvar_routes
    assert routes.drop_first_delete  # the emulator's default, as a real hub sometimes does
    await manager.delete_variable("houseStatus")
    confirms = [c for c in emu.state.dev.clicks if c["name"] == "delConfirm"]
    assert len(confirms) == 2 and "houseStatus" not in emu.variables
    picks = [c for c in emu.state.dev.clicks if c.get("stateAttribute") == "deleteGV"]
    assert [c["name"] for c in picks] == ["houseStatus", "houseStatus"]
    # a hub that takes the first try: one sequence
    routes.drop_first_delete = False
    emu.state.dev.clicks.clear()
    await manager.delete_variable("doorOpenCount")
    assert [c["name"] for c in emu.state.dev.clicks].count("delConfirm") == 1
    assert "doorOpenCount" not in emu.variables
    # a hub that never deletes: reported after two tries, not as a success
    monkeypatch.setattr(_HubVarRoutes, "button", _never_delete(_HubVarRoutes.button))
    with pytest.raises(HubBadResponseError, match="still listed after 2 attempts"):
        await manager.delete_variable("guestCount")
    assert "guestCount" in emu.variables


async def test_a_name_only_the_hub_lists_is_refused(emu: HubEmulator, variables: Hub) -> None:
    """The duplicate-name check reads the hub's list of every variable: a name the Maker
    API instance does not select is refused, saying so, before any wizard step."""
    emu.maker_variable_names = {"guestCount"}
    before = len(emu.requests)
    for spelled in ("houseStatus", "HOUSESTATUS"):
        with pytest.raises(ToolError, match="already exists") as refused:
            await variables.variables.create_variable(spelled, "string", "x")
        assert "does not select" in str(refused.value)
        assert "Maker API instance's hub variables" in str(refused.value.hint)
        assert refused.value.subject == "variable_exists_unselected"
        assert refused.value.extra == {
            "existing": {"kind": "variable", "id": "houseStatus", "name": "houseStatus"}
        }
    assert sent(emu, before) == []
    assert not [p for _m, p in emu.requests[before:] if p.startswith("/installedapp/")]


async def test_create_refusals_send_nothing(emu: HubEmulator, variables: Hub) -> None:
    manager = variables.variables
    before = len(emu.requests)
    for name, vtype, value, word in (
        ("9lives", "integer", 1, "not a valid"),
        ("has space", "string", "x", "not a valid"),
        ("count", "integer", "two", "count"),
        ("count", "integer", 2.5, "count"),
        ("flag", "boolean", "maybe", "flag"),
        ("label", "string", "", "empty"),
        ("when", "datetime", "tomorrow", "when"),
        ("x", "float", 1, "Unknown type"),
        ("guestCount", "integer", 1, "already exists"),
        ("GUESTCOUNT", "integer", 1, "already exists"),
    ):
        with pytest.raises(ToolError, match=word):
            await manager.create_variable(name, vtype, value)
    with pytest.raises(ToolError) as visible:
        await manager.create_variable("guestCount", "integer", 1)
    assert visible.value.subject == "variable_exists"
    assert sent(emu, before) == []
    assert not [p for _m, p in emu.requests[before:] if p.startswith("/installedapp/")]


async def test_hub_refusal_is_reported(
    emu: HubEmulator, variables: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_HubVarRoutes, "_create", lambda self, app, **_: self._fail("Hub is busy"))
    with pytest.raises(HubError, match="Hub is busy"):
        await variables.variables.create_variable("partyLevel", "integer", 3)
    assert "partyLevel" not in emu.variables


async def test_a_refusal_whose_effect_is_there_is_a_success(
    emu: HubEmulator, variables: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    create = _HubVarRoutes._create

    def lying(self: Any, app: Any, **kw: Any) -> Any:
        create(self, app, **kw)  # the variable is made ...
        return self._fail("Something went wrong")  # ... and the answer says otherwise

    monkeypatch.setattr(_HubVarRoutes, "_create", lying)
    data = await variables.variables.create_variable("partyLevel", "integer", 3)
    assert data["value"] == 3 and "partyLevel" in emu.variables


async def test_wizard_page_has_the_real_shape(emu: HubEmulator, socket_enabled: None) -> None:
    """The emulated Hub Variables wizard answers in the recorded hub's shapes."""
    page = parse_config_page(load_fixture("variables/wizard_page").answer, "77")
    inputs, buttons = parse_page(page)
    assert list(inputs) == ["hbVar", "varType"] and "moreVar" in buttons
    assert page["app"]["version"] == 5
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{emu.url}/installedapp/direct/hubVariables") as resp:
            app_id = resp.url.path.rsplit("/", 1)[-1]
        click = {"id": app_id, "name": "moreVar", "stateAttribute": "moreVar"}
        async with session.post(f"{emu.url}/installedapp/btn", data=click) as resp:
            assert_same_shape("apps/button_click", await resp.json(content_type=None))
        url = f"{emu.url}/installedapp/configure/json/{app_id}/hubVar"
        async with session.get(url) as resp:
            assert_same_shape("variables/wizard_page", await resp.json(content_type=None))
