"""The installed apps manager (``managers/apps/installed.py``) on its own, no hass: the app
tree and its filters, app names shown as the user typed them (the hub's entity escaping
decoded), one app's page and state, disabling and enabling read back, and the delete that
backs the app up first and decides by the effect, over the emulated hub.

Moved from tests/tools/test_apps.py (the app logic is the manager's; the tools' confirmation
and backup gates, argument refusals, error codes and summaries stay there)."""

from __future__ import annotations

import json

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.answers import check_success
from custom_components.hubitat_dev_tools.hub.errors import HubNotFoundError, HubRefusedError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import APP_ANNOUNCER, VRB_PORCH
from hubitat_emulator.seed import APP_RULE_MACHINE, RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..contract import load_fixture


async def test_list_apps_tree_and_filters(emu: HubEmulator, manager_hub: Hub) -> None:
    apps_manager = manager_hub.apps
    listed = await apps_manager.list_apps(
        text=None, kind="all", device_id=None, include_hidden=False
    )
    apps = {a["app_id"]: a for a in listed}
    rule = apps[str(RULE_MOTION)]
    assert rule["parent_id"] == str(APP_RULE_MACHINE) and rule["depth"] == 1
    assert rule["name"] == "Motion Lights - Kitchen"
    assert str(VRB_PORCH) not in apps  # hidden
    user = await apps_manager.list_apps(
        text=None, kind="user", device_id=None, include_hidden=False
    )
    assert {a["name"] for a in user} == {"Hall motion announcer", "Hubitat Package Manager"}
    dev = next(d for d in emu.state.devices.values() if RULE_LEAK in d.apps_using)
    using = await apps_manager.list_apps(
        text=None, kind="all", device_id=str(dev.id), include_hidden=False
    )
    assert str(RULE_LEAK) in {a["app_id"] for a in using}


async def test_get_app_page_and_state(manager_hub: Hub) -> None:
    apps_manager = manager_hub.apps
    data = await apps_manager.get_app(str(RULE_MOTION), None, include_state=True)
    assert data["label"] == "Motion Lights - Kitchen" and data["type"] == "Rule-5.1"
    sections = data["config_page"]["sections"]
    assert sections[0]["inputs"][0]["value"] == "Motion Lights - Kitchen"
    assert {"name": "runRuleAct", "title": "Run Actions"} in sections[1]["buttons"]
    assert data["state"]["allLocalVars"]["timeout"]["value"] == 300
    hpm = await apps_manager.get_app("210", None, include_state=True)
    assert isinstance(hpm["state"]["manifests"], dict)  # JSON string parsed
    with pytest.raises(HubNotFoundError) as missing:
        await apps_manager.get_app("9999", None, include_state=True)
    assert missing.value.code == "not_found"


async def test_set_app_disabled(emu: HubEmulator, manager_hub: Hub) -> None:
    apps_manager, app_id = manager_hub.apps, str(APP_ANNOUNCER)
    done = await apps_manager.set_disabled(app_id, True)
    assert done["disabled"] is True and "unchanged" not in done
    assert emu.state.apps[APP_ANNOUNCER].disabled is True
    again = await apps_manager.set_disabled(app_id, True)
    assert again["unchanged"] is True
    await apps_manager.set_disabled(app_id, False)
    assert emu.state.apps[APP_ANNOUNCER].disabled is False


async def test_delete_app_backs_it_up_first(emu: HubEmulator, manager_hub: Hub) -> None:
    apps_manager = manager_hub.apps
    with pytest.raises(ToolError) as parent:
        await apps_manager.delete(str(APP_RULE_MACHINE), force=True)
    assert parent.value.code == "invalid_request" and "built-in parent" in str(parent.value)
    assert APP_RULE_MACHINE in emu.state.apps
    deleted = await apps_manager.delete(str(RULE_GOODNIGHT), force=True)
    assert deleted["still_listed"] is False
    assert RULE_GOODNIGHT not in emu.state.apps
    snap = json.loads(emu.files.read(deleted["item_backup"]["backup"]) or b"{}")
    assert snap["config"]["app"]["id"] == RULE_GOODNIGHT and "rule_builder" in snap
    paths = [p for _m, p in emu.requests]
    assert paths.index("/hub/fileManager/upload") < paths.index(
        f"/installedapp/forcedelete/{RULE_GOODNIGHT}/quiet"
    )


async def test_soft_delete_reads_the_answer_and_decides_by_the_effect(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    fixture = load_fixture("apps/delete").answer
    check_success(fixture, "delete app 1")  # the hub UI's success: no refusal
    with pytest.raises(HubRefusedError, match="in use"):
        check_success({"success": False, "message": "App is in use"}, "delete app 1")
    apps_manager = manager_hub.apps
    soft = await apps_manager.delete(str(RULE_GOODNIGHT), force=False)
    assert soft["still_listed"] is False, soft
    assert f"/installedapp/delete/{RULE_GOODNIGHT}" in [p for _m, p in emu.requests]
    routes = emu.hubvar_routes.fallback  # the generic app routes
    routes.delete_refusal = "App is in use"
    with pytest.raises(HubRefusedError, match="App is in use"):
        await apps_manager.delete(str(RULE_LEAK), force=False)
    assert RULE_LEAK in emu.state.apps
    routes.delete_refusal, routes.delete_lies = None, True  # deletes, says it failed
    done = await apps_manager.delete(str(RULE_LEAK), force=False)
    assert done["still_listed"] is False, done
    assert RULE_LEAK not in emu.state.apps


async def test_entity_escaped_app_names_are_shown_decoded(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """Moved from tests/tools/test_apps.py: the list and one app's read show the name as the
    user typed it."""
    emu.state.apps[RULE_MOTION].label = "Heat On <67 & rising"
    listed = await manager_hub.apps.list_apps(
        text=None, kind="all", device_id=None, include_hidden=False
    )
    names = {a["app_id"]: a["name"] for a in listed}
    assert names[str(RULE_MOTION)] == "Heat On <67 & rising"
    got = await manager_hub.apps.get_app(str(RULE_MOTION), None, include_state=True)
    assert got["label"] == "Heat On <67 & rising", got
