"""hub_create_dashboard kind=legacy: a Hubitat® Dashboard child, read back from the list."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import aiohttp
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed import DASH_MAIN
from hubitat_emulator.seed_specs import APP_DASHBOARD

from ..conftest import ToolCaller


async def test_create_legacy_dashboard(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    ids = [str(d) for d in sorted(hub.state.devices)[:2]]
    result = await call_tool(
        "hub_create_dashboard", {"name": " Hall tablet ", "device_ids": ids, "kind": "legacy"}
    )
    assert not result.error, result.data
    new_id = result.data["dashboard_id"]
    assert result.data["type"] == "legacy" and result.data["name"] == "Hall tablet"
    assert sorted(result.data["device_ids"]) == sorted(ids)
    app = hub.state.apps[int(new_id)]
    assert app.parent_id == APP_DASHBOARD and app.label == "Hall tablet"
    listed = await call_tool("hub_list_dashboards")
    mine = [d for d in listed.data["dashboards"] if d["dashboard_id"] == new_id]
    assert mine and mine[0]["type"] == "legacy" and mine[0]["name"] == "Hall tablet"
    got = await call_tool("hub_get_dashboard", {"dashboard_id": new_id})
    assert not got.error, got.data
    assert got.data["layout"]["tiles"] == [] and sorted(got.data["device_ids"]) == sorted(ids)
    # tiles then go through hub_update_dashboard
    tiles = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": new_id, "add_tiles": [{"template": "clock", "col": 1, "row": 1}]},
    )
    assert not tiles.error, tiles.data


async def test_legacy_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    opts = await call_tool(
        "hub_create_dashboard", {"name": "X", "kind": "legacy", "options": {"showClockTile": True}}
    )
    assert opts.error and "layout" in opts.data["message"]
    bad = await call_tool("hub_create_dashboard", {"name": "X", "kind": "classic"})
    assert bad.error and bad.data["error"] == "invalid_arguments"
    # no legacy parent: said clearly, nothing created
    for app_id in [a.id for a in hub.state.apps.values() if a.parent_id == APP_DASHBOARD]:
        hub.state.apps.pop(app_id)
    hub.state.apps.pop(APP_DASHBOARD)
    before = set(hub.state.apps)
    none = await call_tool("hub_create_dashboard", {"name": "Y", "kind": "legacy"})
    assert none.error and none.data["error"] == "not_found"
    assert "hub_create_app" in (none.data.get("hint") or "") and set(hub.state.apps) == before
    # the parent can be added back, then a dashboard under it
    parent = await call_tool("hub_create_app", {"app_type": "Hubitat® Dashboard"})
    assert not parent.error and parent.data["created"] is True, parent.data
    made = await call_tool("hub_create_dashboard", {"name": "Y", "kind": "legacy"})
    assert not made.error, made.data
    assert made.data["parent_id"] == parent.data["app_id"] and made.data["device_ids"] == []


async def test_every_layout_request_takes_a_fresh_request_token(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The on-hub server (mcp-dashboards-lib.groovy): every page load mints a token, "tokens are
    timestamped server-side and stale ones are rejected"; so the read, the POST and the read-back of
    a layout edit each take their own (the emulated hub spends a token on first use)."""
    start = len(hub.requests)
    result = await call_tool(
        "hub_update_dashboard", {"dashboard_id": DASH_MAIN, "update_tiles": [{"id": 1, "col": 5}]}
    )
    assert not result.error, result.data
    assert [t["col"] for t in hub.state.dev.layouts[DASH_MAIN]["tiles"] if t["id"] == 1] == [5]
    page = f"/apps/api/{DASH_MAIN}/dashboard/{DASH_MAIN}"
    sent = [(m, urlsplit(p)) for m, p in hub.requests[start:] if p.startswith(page)]
    layout = [(m, parse_qs(u.query)["requestToken"]) for m, u in sent if u.path.endswith("/layout")]
    assert [m for m, _t in layout] == ["GET", "POST", "GET"]  # read, save, read-back
    tokens = [t for _m, (t,) in layout]
    assert len(set(tokens)) == 3
    # each one right after the page load that minted it
    assert [u.path for _m, u in sent] == [page, f"{page}/layout"] * 3


async def test_emulated_hub_refuses_a_spent_or_stale_request_token(hub: HubEmulator) -> None:
    access = hub.state.dev.internals[DASH_MAIN].state["accessToken"]
    page = f"{hub.url}/apps/api/{DASH_MAIN}/dashboard/{DASH_MAIN}"

    async def mint(session: aiohttp.ClientSession) -> str:
        async with session.get(page, params={"access_token": access}) as r:
            html = await r.text()
        return html.split("javascriptRequestToken = '")[1].split("'")[0]

    async def layout_status(session: aiohttp.ClientSession, token: str) -> int:
        query = {"access_token": access, "requestToken": token}
        async with session.get(f"{page}/layout", params=query) as r:
            return r.status

    async with aiohttp.ClientSession() as session:
        token = await mint(session)
        assert await layout_status(session, token) == 200
        assert await layout_status(session, token) == 401  # spent
        stale = await mint(session)
        await hub.clock.advance(seconds=hub.state.dev.legacy_token_ttl_s + 1)
        assert await layout_status(session, stale) == 401  # too old
        assert await layout_status(session, await mint(session)) == 200


def _update_posts(hub: HubEmulator, before: int) -> list[tuple[str, str]]:
    return [(m, p) for m, p in hub.requests[before:] if p.startswith("/installedapp/update")]


async def test_rename_legacy_dashboard(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app = hub.state.apps[DASH_MAIN]
    old = app.label or app.name
    devices = await call_tool("hub_get_dashboard", {"dashboard_id": DASH_MAIN})
    assert not devices.error, devices.data
    result = await call_tool("hub_update_dashboard", {"dashboard_id": DASH_MAIN, "name": " Den "})
    assert not result.error, result.data
    assert result.data["name"] == "Den" and result.data["previous_name"] == old
    assert app.label == "Den"
    # read back through the tools: the list and the dashboard itself, devices untouched
    listed = await call_tool("hub_list_dashboards")
    mine = [d for d in listed.data["dashboards"] if d["dashboard_id"] == str(DASH_MAIN)]
    assert mine and mine[0]["name"] == "Den"
    got = await call_tool("hub_get_dashboard", {"dashboard_id": DASH_MAIN})
    assert got.data["name"] == "Den"
    assert sorted(got.data["device_ids"]) == sorted(devices.data["device_ids"])
    # a rename and a tile edit in one call
    both = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": DASH_MAIN, "name": "Den 2", "update_tiles": [{"id": 1, "col": 4}]},
    )
    assert not both.error, both.data
    assert app.label == "Den 2" and "layout and name" in both.data["summary"]


async def test_rename_legacy_refusals_change_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app = hub.state.apps[DASH_MAIN]
    old = app.label
    start = len(hub.requests)
    for args, word in (
        ({"name": "X", "device_ids": ["1"]}, "device_ids"),
        ({"name": "X", "options": {"showClockTile": True}}, "options"),
        ({"name": "X", "update_tiles": [{"id": 999, "col": 1}]}, "999"),
        ({}, "Nothing to change"),
    ):
        result = await call_tool("hub_update_dashboard", {"dashboard_id": DASH_MAIN, **args})
        assert result.error and word in result.data["message"], result.data
    blank = await call_tool("hub_update_dashboard", {"dashboard_id": DASH_MAIN, "name": " "})
    assert blank.error and "blank" in blank.data["message"]
    easy_tiles = await call_tool(
        "hub_update_dashboard",
        {"dashboard_id": 400, "add_tiles": [{"template": "clock", "col": 1, "row": 1}]},
    )
    assert easy_tiles.error and "Easy Dashboard" in easy_tiles.data["message"]
    assert _update_posts(hub, start) == [] and app.label == old
    # a hub that drops the name: a failure, decided by the list read back
    hub.state.dev.label_ignored = True
    ignored = await call_tool("hub_update_dashboard", {"dashboard_id": DASH_MAIN, "name": "Nope"})
    assert ignored.error and ignored.data["error"] == "hub_bad_response", ignored.data
    assert "name reads" in ignored.data["message"] and app.label == old
