"""Dashboards as real hubs answer them (issue 14): contract fixtures fed to the parsers,
the emulator's write answers held to them, and every write decided by its effect."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from yarl import URL

from custom_components.hubitat_dev_tools.hub import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub import dashboards as dash
from custom_components.hubitat_dev_tools.hub.dashboards import (
    config_query,
    layout_mismatches,
    navigation_csv,
    parse_dashboards,
    parse_pin_token,
    written_id,
)
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed import DASH_MAIN

from ..conftest import ToolCaller
from ..contract import assert_same_shape, load_fixture


@pytest.fixture
def quick_effects(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poll a missing effect for a moment only (the tests that expect none)."""
    monkeypatch.setattr(dash, "EFFECT_WAIT_S", 0.2)
    monkeypatch.setattr(dash, "EFFECT_POLL_S", 0.05)


@pytest.fixture
async def client(hub: HubEmulator) -> AsyncIterator[HubClient]:
    url = URL(hub.url)
    conn = HubConnection(host=str(url.host), port=url.port)
    async with aiohttp.ClientSession() as session:
        yield HubClient(session, conn)


def queries(hub: HubEmulator, path: str, since: int = 0) -> list[dict[str, str]]:
    """The query strings of every request to ``path`` since ``since``."""
    out = []
    for _method, path_qs in hub.requests[since:]:
        parts = urlsplit(path_qs)
        if parts.path == path:
            out.append({k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()})
    return out


# ---------------------------------------------------------------- reality -> parsers


def test_list_fixture_easy_and_legacy() -> None:
    listed = parse_dashboards(load_fixture("dashboards/all").answer)
    easy, legacy = listed
    assert (easy.dashboard_id, easy.type, easy.version) == ("412", "easy", "2.0")
    assert (legacy.dashboard_id, legacy.type, legacy.version) == ("37", "legacy", "1.0")
    assert easy.device_ids == ["12", "34"] and legacy.device_ids == ["12"]
    # the stored "[0,415]" becomes the plain list the hub parses; placeholder PINs are no PIN
    assert easy.options["navigationSelection"] == "0,415"
    assert easy.options["dashboardPin"] == "" and easy.options["hsmPin"] == ""
    assert legacy.options["dashboardPin"] == "" and legacy.options["hsmPin"] == ""
    assert easy.options["showHSMTile"] is True and easy.options["theme"] == "dark"
    # the access token is kept for the hub, never shown
    assert easy.access_token and easy.access_token not in json.dumps(easy.as_dict())
    assert "accessToken" not in json.dumps([d.as_dict() for d in listed])


def test_list_fixture_other_shapes() -> None:
    (as_list,) = parse_dashboards(load_fixture("dashboards/all_device_list").answer)
    assert as_list.device_ids == ["12", "34"] and as_list.options["navigationSelection"] == ""
    assert as_list.options["dashboardPin"] == "1234" and as_list.options["hsmPin"] == "5678"
    no_version = parse_dashboards(load_fixture("dashboards/all_without_version").answer)
    assert [(d.dashboard_id, d.type) for d in no_version] == [("412", "easy"), ("500", "easy")]
    assert no_version[1].device_ids == ["99"] and no_version[1].access_token is None


def test_pin_token_and_write_answers() -> None:
    assert parse_pin_token(str(load_fixture("dashboards/select").answer_text)) == "a1b2c3d4"
    assert parse_pin_token("<html></html>") == ""
    assert written_id(load_fixture("dashboards/create").answer) == "777"
    assert written_id(load_fixture("dashboards/create_installed_app_id").answer) == "777"
    assert written_id(load_fixture("dashboards/update").answer) == "412"
    assert written_id(load_fixture("dashboards/delete").answer) is None


def test_query_never_echoes_placeholders() -> None:
    assert navigation_csv("[1,2]") == navigation_csv([1, 2]) == navigation_csv("1, 2") == "1,2"
    assert navigation_csv("null") == navigation_csv(None) == navigation_csv("[]") == ""
    easy = parse_dashboards(load_fixture("dashboards/all").answer)[0]
    q = config_query("Living Room", easy.device_ids, easy.options, version="2.0")
    assert q["navigationSelection"] == "0,415" and q["deviceIds"] == "12,34"
    assert q["dashboardPin"] == "" and q["hsmPin"] == "" and q["version"] == "2.0"
    q = config_query("x", [], {"dashboardPin": "None", "hsmPin": "null", "theme": "null"})
    assert q["dashboardPin"] == q["hsmPin"] == "" and "theme" not in q
    # every key the hub UI sends (the update is a full replacement)
    assert set(q) == {
        "name",
        "deviceIds",
        "navigationSelection",
        *dash.BOOL_OPTIONS,
        *dash.PIN_OPTIONS,
    }


def test_layout_mismatches() -> None:
    sent = {"cols": 6, "tiles": [{"id": 0, "col": 1}, {"id": 1, "col": 2}]}
    assert (
        layout_mismatches(
            sent, {**sent, "rows": 4, "tiles": [{"id": 0, "col": 1, "x": 1}, {"id": 1, "col": 2}]}
        )
        == []
    )
    assert layout_mismatches(sent, {"cols": 5, "tiles": [{"id": 0, "col": 1}]}) == [
        "cols",
        "tile ids",
    ]
    assert layout_mismatches(
        sent, {**sent, "tiles": [{"id": 0, "col": 3}, {"id": 1, "col": 2}]}
    ) == ["tile 0"]


# ---------------------------------------------------------------- emulator -> reality


async def test_emulator_write_answers_have_the_real_shape(
    hub: HubEmulator, client: HubClient
) -> None:
    created = await client.get_json("/dashboard/create", params={"name": "Shape", "version": "2.0"})
    assert_same_shape("dashboards/create", created)
    new_id = written_id(created)
    assert new_id is not None
    updated = await client.get_json("/dashboard/update", params={"id": new_id, "name": "Shape 2"})
    assert_same_shape("dashboards/update", updated)
    deleted = await client.get_json("/dashboard/delete", params={"id": new_id})
    assert_same_shape("dashboards/delete", deleted)
    assert int(new_id) not in hub.state.dev.easy_dashboards  # deleted, though it said false


async def test_create_decided_by_effect(hub: HubEmulator, client: HubClient) -> None:
    pin = await dash.fetch_pin_token(client)
    made = await dash.create_easy(client, pin, "Hall", ["1"], {"showClockTile": True})
    assert made.type == "easy" and made.device_ids == ["1"] and made.options["showClockTile"]
    sent = queries(hub, "/dashboard/create")[-1]
    assert sent["version"] == "2.0" and sent["navigationSelection"] == ""
    # an answer without an id: the one new dashboard of that name is it
    hub.state.dev.dash_create_answer = {"success": True}
    assert (await dash.create_easy(client, pin, "Porch", [], {})).name == "Porch"
    # the hub said it failed, but the dashboard is there: a success
    hub.state.dev.dash_create_answer = {"success": False, "message": "odd"}
    assert (await dash.create_easy(client, pin, "Attic", [], {})).name == "Attic"


# ---------------------------------------------------------------- through the tools


async def test_update_keeps_navigation_and_pins(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    renamed = await call_tool("hub_update_dashboard", {"dashboard_id": 400, "name": "Lounge"})
    assert not renamed.error, renamed.data
    stored = hub.state.dev.easy_dashboards[400]
    assert stored["name"] == "Lounge" and stored["navigationSelection"] == "[0,401]"
    assert stored["hsmPin"] == "null" and stored["dashboardPin"] == ""  # still unset
    (sent,) = queries(hub, "/dashboard/update", before)
    assert sent["navigationSelection"] == "0,401"
    assert sent["dashboardPin"] == "" and sent["hsmPin"] == ""  # never "null"/"None"
    assert renamed.data["options"]["navigationSelection"] == "0,401"
    pinned = await call_tool(
        "hub_update_dashboard", {"dashboard_id": 401, "options": {"showClockTile": True}}
    )
    assert not pinned.error, pinned.data
    stored = hub.state.dev.easy_dashboards[401]
    assert stored["dashboardPin"] == "2580" and stored["showClockTile"] is True
    # a navigation given in the stored form is sent in the plain form
    nav = await call_tool(
        "hub_update_dashboard",
        {
            "dashboard_id": 401,
            "options": {"navigationSelection": "[0,400]", "hsmPin": "null"},
            "confirm": True,  # a PIN change is the safety tier
        },
    )
    assert not nav.error, nav.data
    assert hub.state.dev.easy_dashboards[401]["navigationSelection"] == "[0,400]"
    assert queries(hub, "/dashboard/update")[-1]["hsmPin"] == ""


async def test_update_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    bad_nav = await call_tool(
        "hub_update_dashboard", {"dashboard_id": 400, "options": {"navigationSelection": "home"}}
    )
    assert bad_nav.error and bad_nav.data["error"] == "invalid_request"
    bad_pin = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": 400, "options": {"dashboardPin": "12"}, "confirm": True},
    )
    assert bad_pin.error and bad_pin.data["error"] == "invalid_request"
    bad_theme = await call_tool(
        "hub_update_dashboard", {"dashboard_id": 400, "options": {"theme": "purple"}}
    )
    assert bad_theme.error and bad_theme.data["error"] == "invalid_request"
    # a legacy (version 1.0) dashboard listed by /dashboard/all is never sent an Easy update
    legacy = await call_tool(
        "hub_update_dashboard", {"dashboard_id": DASH_MAIN, "options": {"showClockTile": True}}
    )
    assert legacy.error and legacy.data["error"] == "invalid_request"
    assert queries(hub, "/dashboard/update") == []


async def test_update_without_effect_fails(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, quick_effects: None
) -> None:
    hub.state.dev.dash_writes_apply = False
    result = await call_tool("hub_update_dashboard", {"dashboard_id": 400, "name": "Nope"})
    assert result.error and result.data["error"] == "hub_bad_response", result.data
    assert "name" in result.data["message"]


async def test_list_get_and_no_token_anywhere(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    listed = await call_tool("hub_list_dashboards")
    assert not listed.error, listed.data
    ids = [d["dashboard_id"] for d in listed.data["dashboards"]]
    assert len(ids) == len(set(ids))  # a legacy dashboard is listed once
    types = {d["dashboard_id"]: d["type"] for d in listed.data["dashboards"]}
    assert types["400"] == types["401"] == "easy" and types[str(DASH_MAIN)] == "legacy"
    tokens = [str(d["accessToken"]) for d in hub.state.dev.easy_dashboards.values()]
    tokens += [
        str(i.state["accessToken"])
        for i in hub.state.dev.internals.values()
        if i.state.get("accessToken")
    ]
    hub.mark_backup_now()
    answers: list[Any] = [listed.data]
    for name, args in (
        ("hub_get_dashboard", {"dashboard_id": 400}),
        ("hub_get_dashboard", {"dashboard_id": DASH_MAIN}),
        ("hub_update_dashboard", {"dashboard_id": 400, "name": "Den"}),
        ("hub_clone_dashboard", {"dashboard_id": 401}),
        ("hub_delete_dashboard", {"dashboard_id": 401, "confirm": True}),
    ):
        result = await call_tool(name, args)
        assert not result.error, (name, result.data)
        answers.append(result.data)
        if backup := result.data.get("item_backup"):
            answers.append(str(hub.files.read(backup["backup"])))
    text = json.dumps(answers)
    assert [t for t in tokens if t in text] == []


async def test_delete_decided_by_effect(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller, quick_effects: None
) -> None:
    hub.mark_backup_now()
    before = len(hub.requests)
    ok = await call_tool("hub_delete_dashboard", {"dashboard_id": 401, "confirm": True})
    assert not ok.error, ok.data  # the hub answered success: false, and deleted it
    assert 401 not in hub.state.dev.easy_dashboards
    assert queries(hub, "/dashboard/delete", before) == [{"id": "401"}]  # what the hub UI sends
    hub.state.dev.dash_writes_apply = False
    kept = await call_tool("hub_delete_dashboard", {"dashboard_id": 400, "confirm": True})
    assert kept.error and kept.data["error"] == "hub_bad_response", kept.data
    assert "still lists" in kept.data["message"] and 400 in hub.state.dev.easy_dashboards


async def test_legacy_layout_save_decided_by_effect(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.dev.dash_writes_apply = False  # the hub echoes the layout but keeps the old one
    result = await call_tool(
        "hub_update_dashboard", {"dashboard_id": DASH_MAIN, "update_tiles": [{"id": 1, "col": 4}]}
    )
    assert result.error and result.data["error"] == "hub_bad_response", result.data
    assert "tile 1" in result.data["message"]
    assert hub.state.dev.layouts[DASH_MAIN]["tiles"][1]["col"] == 2
    hub.state.dev.dash_writes_apply = True
    result = await call_tool(
        "hub_update_dashboard", {"dashboard_id": DASH_MAIN, "update_tiles": [{"id": 1, "col": 4}]}
    )
    assert not result.error, result.data
    assert hub.state.dev.layouts[DASH_MAIN]["tiles"][1]["col"] == 4
