"""The emulated Rule Machine pages' in-place deletes (``rule_edits.py``), as the on-hub server
drives them on live hubs: trash mode and its whole-page submit, the two-request trigger delete, the
Required Expression's cancelST, a local variable's deleteGV/delConfirm, and a disabled rule
ignoring all of them."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from hubitat_emulator import HubEmulator
from hubitat_emulator.rule_machine import RecordingRuleEngine

from ..rm_util import Wizard
from .emu_rule_machine_util import porch_rule


@pytest.fixture(autouse=True)
def recording_engine(hub: HubEmulator) -> RecordingRuleEngine:
    engine = RecordingRuleEngine()
    hub.rule_engine = engine
    return engine


@pytest.fixture
async def session(hub: HubEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url=hub.url) as s:
        yield s


async def _status(w: Wizard) -> dict[str, Any]:
    """statusJson with appState as a dict (the hub sends a list of {name, value})."""
    async with w.s.get(f"/installedapp/statusJson/{w.id}") as resp:
        data: dict[str, Any] = json.loads(await resp.text())
    raw = data.get("appState")
    if isinstance(raw, list):
        data["appState"] = {
            e["name"]: json.loads(e["value"])
            if isinstance(e["value"], str) and e["value"][:1] in "[{"
            else e["value"]
            for e in raw
        }
    return data


def _settings(status: dict[str, Any]) -> dict[str, Any]:
    return {i["name"]: i["value"] for i in status["appSettings"]}


def _whole_form(w: Wizard, page: dict[str, Any], overrides: dict[str, str]) -> dict[str, str]:
    """Every input the page shows (buttons empty), as the on-hub server's full-page submit sends
    it."""
    form: dict[str, str] = {}
    for name, spec in w.inputs(page).items():
        value = spec.get("value")
        form[f"settings[{name}]"] = "" if value is None or spec["type"] == "button" else str(value)
    form.update(overrides)
    return form


async def test_trash_mode_deletes_the_actions_only_on_the_whole_page_form(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await porch_rule(hub, session)
    before = await _status(w)
    acts = list(before["appState"]["actions"])
    assert acts and "trashActs" not in w.inputs(await w.page("selectActions"))
    await w.click("selectActions", "trashAll", "trash")
    page = await w.page("selectActions")
    assert {"trashActs", "cancelTrash"} <= set(w.inputs(page))
    picked = json.dumps(acts)
    # the picker's value alone is stored and deletes nothing (the on-hub server, live on 2.5.0.143)
    await w.raw_write(
        "selectActions",
        {"settings[trashActs]": picked, "trashActs.type": "enum", "trashActs.multiple": "true"},
    )
    assert list((await _status(w))["appState"]["actions"]) == acts
    whole = _whole_form(w, await w.page("selectActions"), {"settings[trashActs]": picked})
    await w.raw_write("selectActions", {**whole, "trashActs.multiple": "true"})
    after = await _status(w)
    assert after["appState"]["actions"] == {}
    assert not [k for k in _settings(after) if k.startswith(("actType.", "actSubType."))]
    assert "trashActs" not in w.inputs(await w.page("selectActions"))  # out of trash mode
    assert await w.new_action() == max(int(a) for a in acts) + 1  # numbers are not reused


async def test_a_trigger_is_deleted_by_a_bare_click_and_the_pages_submit(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await porch_rule(hub, session)
    assert "tCapab1" in _settings(await _status(w))
    await w.click("selectTriggers", "1", "deleteCon")  # with page context: a save, dropped
    await w.raw_write("selectTriggers", {})
    assert "tCapab1" in _settings(await _status(w))
    await w.click(None, "1", "deleteCon")
    assert "tCapab1" in _settings(await _status(w))  # registered, not yet carried out
    await w.raw_write("selectTriggers", {})
    left = _settings(await _status(w))
    assert not [k for k in left if k in ("tCapab1", "tDev1", "tstate1")], left


async def test_the_required_expression_and_a_local_variable_are_deleted(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await porch_rule(hub, session)  # its Required Expression: condition 1
    assert {"editST", "cancelST"} <= set(w.inputs(await w.page("STPage")))
    await w.click("STPage", "cancelST", "cancelST")
    status = await _status(w)
    assert not _settings(status).get("useST") and "0" not in status["appState"]["eval"]
    # left behind, unused (on-hub server)
    assert _settings(status)["rCapab_1"] == "Between two times"

    await w.raw_write("selectActions", {})
    await w.click("selectActions", "moreVar", "moreVar")
    await w.write("selectActions", "hbVar", "visits")
    await w.write("selectActions", "varType", "Number")
    await w.write("selectActions", "varValue", 3)
    assert "visits" in (await _status(w))["appState"]["allLocalVars"]
    await w.click("selectActions", "visits", "deleteGV")
    assert "visits" in (await _status(w))["appState"]["allLocalVars"]  # until confirmed
    await w.click("selectActions", "delConfirm", "deleteConfirm")
    assert (await _status(w))["appState"]["allLocalVars"] == {}


async def test_a_disabled_rule_ignores_the_deletes(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await porch_rule(hub, session)
    hub.state.apps[w.id].disabled = True
    await w.click(None, "1", "deleteCon")
    await w.raw_write("selectTriggers", {})
    await w.click("selectActions", "trashAll", "trash")
    status = await _status(w)
    assert "tCapab1" in _settings(status) and status["appState"]["actions"]
    assert "trashActs" not in w.inputs(await w.page("selectActions"))


async def test_an_open_action_editor_shows_in_state_and_its_cancel_discards_it(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await porch_rule(hub, session)
    n = await w.new_action()
    await w.write("doActPage", f"actType.{n}", "messageActs")
    assert (await _status(w))["appState"]["editAct"] == n
    await w.click("doActPage", "actionCancel")
    status = await _status(w)
    assert "editAct" not in status["appState"] and f"actType.{n}" not in _settings(status)


async def test_an_action_row_moves_up_and_down_and_is_deleted_alone(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await porch_rule(hub, session)
    order = list((await _status(w))["appState"]["actionList"])
    assert order == ["1", "2", "3", "4", "5"]
    before = _settings(await _status(w))
    await w.click("selectActions", "5", "arrowUp")  # with the page's context (on-hub server)
    assert (await _status(w))["appState"]["actionList"] == ["1", "2", "3", "5", "4"]
    await w.click("selectActions", "1", "arrowUp")  # the first row: nothing
    await w.click("selectActions", "4", "arrowDn")  # the last row: nothing
    await w.click("selectActions", "2", "arrowDn")
    status = await _status(w)
    assert status["appState"]["actionList"] == ["1", "3", "2", "5", "4"]
    assert list(status["appState"]["actions"]) == ["1", "3", "2", "5", "4"]
    assert _settings(status) == before  # moved, not renumbered or changed
    await w.click("selectActions", "2", "delAct")
    status = await _status(w)
    assert status["appState"]["actionList"] == ["1", "3", "5", "4"]
    assert not [k for k in _settings(status) if k.endswith(".2")]
    hub.state.apps[w.id].disabled = True  # ignored on a disabled rule, as the other deletes
    await w.click("selectActions", "3", "delAct")
    assert (await _status(w))["appState"]["actionList"] == ["1", "3", "5", "4"]


async def test_an_if_opened_and_cancelled_clears_the_required_expressions_context(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    w = await porch_rule(hub, session)  # its Required Expression sealed after the actions
    model = hub.rule_machine.rules[w.id]
    assert model.pred_leak
    n = await w.new_action()
    await w.write("doActPage", f"actType.{n}", "condActs")
    await w.write("doActPage", f"actSubType.{n}", "getIfThen")
    await w.click("doActPage", "actionCancel")
    await w.go("doActPage", "selectActions")
    assert str(n) not in (await _status(w))["appState"]["actionList"]
    m = await w.add_action("messageActs", "getLogMsg", ("logmsg.<N>", "after"))
    text = " ".join(w.text(await w.page("selectActions")))
    assert m not in model.leaked and "Broken Condition" not in text
