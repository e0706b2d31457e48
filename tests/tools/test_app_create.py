"""hub_create_app and hub_list_apps scope=types against the emulated hub (Add Built-In App,
Add User App, built-in child apps)."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.app_page import AppPage
from custom_components.hubitat_dev_tools.hub.apps import parse_app_types
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import CODE_APP_ANNOUNCER
from hubitat_emulator.seed_specs import APP_BASIC_RULES, APP_ROOM_LIGHTING, APP_RULE_MACHINE

from ..conftest import ToolCaller, add_entry
from ..contract import load_fixture


def test_app_types_parse_from_the_fixture() -> None:
    types = parse_app_types(load_fixture("apps/apps_list").answer)
    assert [t.as_dict() for t in types] == [
        {
            "type_id": "21",
            "name": "Rule Machine",
            "user": False,
            "menu": "Automations",
            "description": "Rules",
        },
        {
            "type_id": "7",
            "name": "Motion Announcer",
            "user": True,
            "menu": "Apps",
            "description": "Announce motion",
        },
    ]
    assert parse_app_types({"systemAppTypes": [{"id": None}, "x", {"id": 3}]}) == []
    assert parse_app_types([]) == []


def test_done_form_is_the_pages_done() -> None:
    page = AppPage(None, "12", name="mainPage")  # type: ignore[arg-type]
    page.version = 3
    form = page.done_form({}, label="Porch")
    assert form["_action_update"] == "Done" and form["label"] == "Porch"
    assert form["appTypeId"] == "" and form["appTypeName"] == "" and form["_cancellable"] == "false"
    assert form["currentPage"] == "mainPage" and form["version"] == "3"
    assert page.installed is None


async def test_list_types(entry: MockConfigEntry, call_tool: ToolCaller) -> None:
    result = await call_tool("hub_list_apps", {"scope": "types"})
    assert not result.error, result.data
    names = {t["name"]: t for t in result.data["types"]}
    assert names["Basic Rules"]["user"] is False and names["Basic Rules"]["menu"]
    assert names["Motion Announcer"]["user"] is True
    user = await call_tool("hub_list_apps", {"scope": "types", "kind": "user"})
    assert all(t["user"] for t in user.data["types"]) and user.data["types"]
    found = await call_tool("hub_list_apps", {"scope": "types", "text": "maker"})
    assert [t["name"] for t in found.data["types"]] == ["Maker API"]
    odd = await call_tool("hub_list_apps", {"scope": "types", "kind": "parents"})
    assert odd.error and "scope=types" in odd.data["message"]


async def test_create_user_app_fills_first_page_and_installs(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion = next(d for d in hub.state.devices.values() if "MotionSensor" in d.driver.capabilities)
    args = {
        "app_type": "Motion Announcer",
        "name": "Porch announcer",
        "settings": {"motion": motion.id},
    }
    refused = await call_tool("hub_create_app", args)
    assert refused.error and refused.data["error"] == "confirmation_required"
    before = set(hub.state.apps)
    result = await call_tool("hub_create_app", {**args, "confirm": True})
    assert not result.error, result.data
    new_id = int(result.data["app_id"])
    assert set(hub.state.apps) - before == {new_id}
    app = hub.state.apps[new_id]
    assert app.user and app.label == "Porch announcer" and app.app_type_id == CODE_APP_ANNOUNCER
    assert new_id not in hub.state.dev.pending  # Done was submitted
    assert result.data["applied"] == ["motion"] and result.data["created"] is True
    assert result.data["name"] == "Porch announcer" and result.data["user"] is True
    assert new_id in {int(a["app_id"]) for a in (await call_tool("hub_list_apps")).data["apps"]}
    # by code id too, no settings: still finished with Done
    again = await call_tool(
        "hub_create_app", {"app_type": str(CODE_APP_ANNOUNCER), "confirm": True}
    )
    assert not again.error, again.data
    assert int(again.data["app_id"]) not in hub.state.dev.pending


async def test_create_builtin_and_singletons(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    maker = await call_tool("hub_create_app", {"app_type": "Maker API"})
    assert maker.error and maker.data["error"] == "confirmation_required"
    made = await call_tool(
        "hub_create_app", {"app_type": "Maker API", "name": "Second Maker", "confirm": True}
    )
    assert not made.error, made.data
    assert hub.state.apps[int(made.data["app_id"])].label == "Second Maker"
    before = set(hub.state.apps)
    rm = await call_tool("hub_create_app", {"app_type": "Rule Machine"})
    assert not rm.error and rm.data["created"] is False
    assert rm.data["app_id"] == str(APP_RULE_MACHINE) and set(hub.state.apps) == before
    missing = await call_tool("hub_create_app", {"app_type": "No Such App"})
    assert missing.error and missing.data["error"] == "not_found"
    rule = await call_tool("hub_create_app", {"app_type": "Rule"})
    assert rule.error and "hub_create_rule" in rule.data["hint"]


async def test_create_child_needs_its_parent(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    made = await call_tool("hub_create_app", {"app_type": "Basic Rule", "name": "Porch at dusk"})
    assert not made.error, made.data
    app = hub.state.apps[int(made.data["app_id"])]
    assert app.parent_id == APP_BASIC_RULES and app.label == "Porch at dusk"
    assert made.data["parent_id"] == str(APP_BASIC_RULES)
    # no Button Controllers parent on this hub: said clearly, nothing created
    before = set(hub.state.apps)
    orphan = await call_tool("hub_create_app", {"app_type": "Button Controller"})
    assert orphan.error and orphan.data["error"] == "not_found"
    assert "Button Controllers" in orphan.data["message"] and set(hub.state.apps) == before
    # the parent is addable, then the child
    parent = await call_tool("hub_create_app", {"app_type": "Button Controllers"})
    assert not parent.error and parent.data["created"] is True, parent.data
    child = await call_tool("hub_create_app", {"app_type": "Button Controller"})
    assert not child.error, child.data
    assert child.data["parent_id"] == parent.data["app_id"]
    # explicit parent that does not take that kind
    wrong = await call_tool(
        "hub_create_app", {"app_type": "Notifier", "parent_app_id": str(APP_BASIC_RULES)}
    )
    assert wrong.error and "Basic Rule" in wrong.data["message"]


async def test_unfinished_instance_is_removed(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.dev.done_ignored = True
    before = set(hub.state.apps)
    result = await call_tool("hub_create_app", {"app_type": "Maker API", "confirm": True})
    assert result.error and result.data["error"] == "hub_bad_response", result.data
    assert "removed" in result.data["message"] and set(hub.state.apps) == before


async def test_bad_settings_leave_nothing_behind(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = set(hub.state.apps)
    result = await call_tool(
        "hub_create_app",
        {"app_type": "Motion Announcer", "settings": {"nope": 1}, "confirm": True},
    )
    assert result.error and "no input 'nope'" in result.data["message"]
    assert set(hub.state.apps) == before
    hidden = await call_tool(
        "hub_create_app",
        {"app_type": "Motion Announcer", "settings": {"motion": "999999"}, "confirm": True},
    )
    assert hidden.error and set(hub.state.apps) == before


async def test_device_allowlist_applies_to_first_page(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motions = sorted(
        d.id for d in hub.state.devices.values() if "MotionSensor" in d.driver.capabilities
    )
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(motions[0])]})
    before = set(hub.state.apps)
    outside = await call_tool(
        "hub_create_app",
        {"app_type": "Motion Announcer", "settings": {"motion": str(motions[1])}, "confirm": True},
    )
    assert outside.error and outside.data["error"] == "device_not_allowed"
    assert set(hub.state.apps) == before  # the new shell was removed again
    inside = await call_tool(
        "hub_create_app",
        {"app_type": "Motion Announcer", "settings": {"motion": str(motions[0])}, "confirm": True},
    )
    assert not inside.error and inside.data["applied"] == ["motion"], inside.data


async def test_create_a_room_lighting_instance(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = next(d for d in hub.state.devices.values() if "switch" in d.attrs and not d.disabled)
    made = await call_tool(
        "hub_create_app",
        {
            "app_type": "Room Lighting instance",
            "name": "Den Lights",
            "settings": {"roomDevsL": [str(light.id)]},
        },
    )
    assert not made.error, made.data
    app = hub.state.apps[int(made.data["app_id"])]
    assert app.parent_id == APP_ROOM_LIGHTING and app.label == "Den Lights"
    assert made.data["type"] == "Room Lights" and made.data["name"] == "Den Lights"
    assert sorted(made.data["applied"]) == ["origLabel", "roomDevsL"] and "warning" not in made.data
    sent = [p for _m, p in hub.requests if "/createchild/" in p]
    assert sent[-1] == f"/installedapp/createchild/hubitat/Room%20Lights/parent/{APP_ROOM_LIGHTING}"
    # the parent itself is a singleton: the answer points at the child kind
    parent = await call_tool("hub_create_app", {"app_type": "Room Lighting"})
    assert not parent.error and parent.data["created"] is False
    assert "Room Lights" in parent.data["hint"]
