"""The dashboards manager's legacy Hubitat Dashboards (``managers/dashboards.py``) on its
own, no hass: a legacy dashboard created as a child of the Hubitat® Dashboard app (its name
and devices read back from the dashboard list and its settings), refused when that parent
is not installed, its layout edited with a fresh request token for every layout request,
and renamed through its app page (read back from the list, its devices untouched), with
the refusals that send nothing and a rename the hub drops, over the emulated hub; and the
emulated hub refusing a spent or stale request token, which those tests rely on.

Moved from tests/tools/test_dashboards_legacy.py (the legacy dashboard logic is the
manager's; the tool's refusals of Easy-only arguments, options and tile arguments where
they do not apply, the hint naming hub_create_app and the summaries stay there)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubNotFoundError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed import DASH_MAIN
from hubitat_emulator.seed_specs import APP_DASHBOARD


def _update_posts(emu: HubEmulator, before: int) -> list[tuple[str, str]]:
    return [(m, p) for m, p in emu.requests[before:] if p.startswith("/installedapp/update")]


def _layout_posts(emu: HubEmulator, before: int) -> list[tuple[str, str]]:
    return [(m, p) for m, p in emu.requests[before:] if m == "POST" and "/layout" in p]


async def test_create_legacy_dashboard(emu: HubEmulator, manager_hub: Hub) -> None:
    dashboards = manager_hub.dashboards
    ids = [str(d) for d in sorted(emu.state.devices)[:2]]
    result = await dashboards.create_legacy(" Hall tablet ", ids)
    new_id = result["dashboard_id"]
    assert result["type"] == "legacy" and result["name"] == "Hall tablet"
    assert sorted(result["device_ids"]) == sorted(ids)
    assert result["parent_id"] == str(APP_DASHBOARD)
    app = emu.state.apps[int(new_id)]
    assert app.parent_id == APP_DASHBOARD and app.label == "Hall tablet"
    mine = [d for d in await dashboards.list_all() if d["dashboard_id"] == new_id]
    assert mine and mine[0]["type"] == "legacy" and mine[0]["name"] == "Hall tablet"
    got = await dashboards.get(new_id)
    assert got["layout"]["tiles"] == [] and sorted(got["device_ids"]) == sorted(ids)
    # tiles then go through the layout update
    tiles = await dashboards.update_legacy_layout(
        new_id,
        layout=None,
        add_tiles=[{"template": "clock", "col": 1, "row": 1}],
        update_tiles=[],
        remove_tile_ids=[],
    )
    assert tiles["tiles"] == 1
    assert [t["template"] for t in emu.state.dev.layouts[int(new_id)]["tiles"]] == ["clock"]


async def test_create_legacy_without_its_parent_is_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    # no legacy parent: said clearly, nothing created
    for app_id in [a.id for a in emu.state.apps.values() if a.parent_id == APP_DASHBOARD]:
        emu.state.apps.pop(app_id)
    emu.state.apps.pop(APP_DASHBOARD)
    before = set(emu.state.apps)
    start = len(emu.requests)
    with pytest.raises(ToolError) as none:
        await manager_hub.dashboards.create_legacy("Y", [])
    assert none.value.code == "not_found" and none.value.subject == "parent_not_installed"
    assert none.value.extra == {
        "parent_type": "Hubitat® Dashboard",
        "child_kind": "legacy dashboard",
    }
    assert set(emu.state.apps) == before
    assert [p for m, p in emu.requests[start:] if m == "POST"] == []
    # the parent can be added back, then a dashboard under it
    parent = await manager_hub.app_create.create(
        "Hubitat® Dashboard",
        parent_app_id=None,
        settings={},
        name=None,
        device_allowed=lambda _device_id: True,
        confirm=False,
    )
    assert parent["created"] is True, parent
    made = await manager_hub.dashboards.create_legacy("Y", [])
    assert made["parent_id"] == parent["app_id"] and made["device_ids"] == []
    assert emu.state.apps[int(made["dashboard_id"])].label == "Y"


async def test_every_layout_request_takes_a_fresh_request_token(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """The on-hub server (mcp-dashboards-lib.groovy): every page load mints a token, "tokens are
    timestamped server-side and stale ones are rejected"; so the read, the POST and the read-back of
    a layout edit each take their own (the emulated hub spends a token on first use)."""
    start = len(emu.requests)
    await manager_hub.dashboards.update_legacy_layout(
        str(DASH_MAIN),
        layout=None,
        add_tiles=[],
        update_tiles=[{"id": 1, "col": 5}],
        remove_tile_ids=[],
    )
    assert [t["col"] for t in emu.state.dev.layouts[DASH_MAIN]["tiles"] if t["id"] == 1] == [5]
    page = f"/apps/api/{DASH_MAIN}/dashboard/{DASH_MAIN}"
    sent = [(m, urlsplit(p)) for m, p in emu.requests[start:] if p.startswith(page)]
    layout = [(m, parse_qs(u.query)["requestToken"]) for m, u in sent if u.path.endswith("/layout")]
    assert [m for m, _t in layout] == ["GET", "POST", "GET"]  # read, save, read-back
    tokens = [t for _m, (t,) in layout]
    assert len(set(tokens)) == 3
    # each one right after the page load that minted it
    assert [u.path for _m, u in sent] == [page, f"{page}/layout"] * 3


async def test_emulated_hub_refuses_a_spent_or_stale_request_token(emu: HubEmulator) -> None:
    access = emu.state.dev.internals[DASH_MAIN].state["accessToken"]
    page = f"{emu.url}/apps/api/{DASH_MAIN}/dashboard/{DASH_MAIN}"

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
        await emu.clock.advance(seconds=emu.state.dev.legacy_token_ttl_s + 1)
        assert await layout_status(session, stale) == 401  # too old
        assert await layout_status(session, await mint(session)) == 200


async def test_rename_legacy_dashboard(emu: HubEmulator, manager_hub: Hub) -> None:
    dashboards = manager_hub.dashboards
    app = emu.state.apps[DASH_MAIN]
    old = app.label or app.name
    devices = (await dashboards.get(str(DASH_MAIN)))["device_ids"]
    assert devices
    result = await dashboards.rename_legacy(str(DASH_MAIN), " Den ")
    assert result["name"] == "Den" and result["previous_name"] == old
    assert app.label == "Den"
    # read back: the list and the dashboard itself, devices untouched
    mine = [d for d in await dashboards.list_all() if d["dashboard_id"] == str(DASH_MAIN)]
    assert mine and mine[0]["name"] == "Den"
    got = await dashboards.get(str(DASH_MAIN))
    assert got["name"] == "Den"
    assert sorted(got["device_ids"]) == sorted(devices)
    # the same name again: nothing sent
    start = len(emu.requests)
    same = await dashboards.rename_legacy(str(DASH_MAIN), "Den")
    assert same["unchanged"] is True and _update_posts(emu, start) == []


async def test_rename_and_tile_refusals_change_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    dashboards = manager_hub.dashboards
    app = emu.state.apps[DASH_MAIN]
    old = app.label
    tiles = [dict(t) for t in emu.state.dev.layouts[DASH_MAIN]["tiles"]]
    start = len(emu.requests)
    with pytest.raises(ToolError, match="999"):
        await dashboards.update_legacy_layout(
            str(DASH_MAIN),
            layout=None,
            add_tiles=[],
            update_tiles=[{"id": 999, "col": 1}],
            remove_tile_ids=[],
        )
    with pytest.raises(ToolError, match="blank"):
        await dashboards.rename_legacy(str(DASH_MAIN), " ")
    with pytest.raises(HubNotFoundError, match="No legacy dashboard"):  # Easy: no tiles
        await dashboards.update_legacy_layout(
            "400",
            layout=None,
            add_tiles=[{"template": "clock", "col": 1, "row": 1}],
            update_tiles=[],
            remove_tile_ids=[],
        )
    assert _update_posts(emu, start) == [] and _layout_posts(emu, start) == []
    assert app.label == old and emu.state.dev.layouts[DASH_MAIN]["tiles"] == tiles
    # a hub that drops the name: a failure, decided by the list read back
    emu.state.dev.label_ignored = True
    with pytest.raises(HubBadResponseError, match="name reads"):
        await dashboards.rename_legacy(str(DASH_MAIN), "Nope")
    assert app.label == old
