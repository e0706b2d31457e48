"""hub_create_app and hub_list_apps scope=types against the emulated hub (Add Built-In App,
Add User App, built-in child apps).

The tools' part is here: the paged list of types and its argument check, the summaries, the
confirmation refusal as the tool answers it, the hints naming sibling tools, the device
allowlist. The parsing of the hub's recorded answers is tested without hass in
tests/hub/test_apps.py (the app types) and tests/hub/test_app_page.py (the Done form). The
types and their filters, creating user and built-in apps, singletons, child apps under their
parent (a Room Lighting instance too), the confirmation user code and safety systems need
and a new instance removed when the hub does not finish it or its settings are refused are
tested without hass in tests/managers/test_app_create.py."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import APP_BASIC_RULES, APP_ROOM_LIGHTING, APP_RULE_MACHINE

from ..conftest import ToolCaller, add_entry


async def test_list_types_tool_pages_and_refuses_other_filters(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the paged answer and the filters scope=types does not take (the
    types and their filters: tests/managers/test_app_create.py)."""
    result = await call_tool("hub_list_apps", {"scope": "types"})
    assert not result.error, result.data
    names = {t["name"]: t for t in result.data["types"]}
    assert names["Basic Rules"]["user"] is False and names["Motion Announcer"]["user"] is True
    first = await call_tool("hub_list_apps", {"scope": "types", "limit": 1})
    assert len(first.data["types"]) == 1 and first.data["total"] == len(names)
    found = await call_tool("hub_list_apps", {"scope": "types", "text": "maker"})
    assert [t["name"] for t in found.data["types"]] == ["Maker API"]
    before = len(hub.requests)
    odd = await call_tool("hub_list_apps", {"scope": "types", "kind": "parents"})
    assert odd.error and "scope=types" in odd.data["message"]
    device = await call_tool("hub_list_apps", {"scope": "types", "device_id": 1})
    assert device.error and "Omit device_id" in device.data["hint"]
    assert len(hub.requests) == before


async def test_create_app_confirmation_and_summary(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the confirmation refusal and the summaries (the new app filled, done
    and read back: tests/managers/test_app_create.py)."""
    motion = next(d for d in hub.state.devices.values() if "MotionSensor" in d.driver.capabilities)
    args = {
        "app_type": "Motion Announcer",
        "name": "Porch announcer",
        "settings": {"motion": motion.id},
    }
    before = set(hub.state.apps)
    refused = await call_tool("hub_create_app", args)
    assert refused.error and refused.data["error"] == "confirmation_required"
    assert set(hub.state.apps) == before
    result = await call_tool("hub_create_app", {**args, "confirm": True})
    assert not result.error, result.data
    new_id = int(result.data["app_id"])
    assert set(hub.state.apps) - before == {new_id}
    assert result.data["summary"] == f"Created Motion Announcer as app {new_id} (Porch announcer)"
    assert result.data["applied"] == ["motion"] and result.data["created"] is True
    assert new_id in {int(a["app_id"]) for a in (await call_tool("hub_list_apps")).data["apps"]}
    rm = await call_tool("hub_create_app", {"app_type": "Rule Machine"})
    assert not rm.error and rm.data["created"] is False
    assert rm.data["summary"] == (
        f"Rule Machine is already installed as app {APP_RULE_MACHINE}; nothing was created"
    )


async def test_create_app_hints_name_the_tools(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: what to call next, after each refusal and a singleton (the refusals
    themselves: tests/managers/test_app_create.py)."""
    before = set(hub.state.apps)
    rule = await call_tool("hub_create_app", {"app_type": "Rule"})
    assert rule.error and "hub_create_rule" in rule.data["hint"]
    missing = await call_tool("hub_create_app", {"app_type": "No Such App"})
    assert missing.error and missing.data["error"] == "not_found"
    assert "hub_list_apps scope=types" in missing.data["hint"]
    orphan = await call_tool("hub_create_app", {"app_type": "Button Controller"})
    assert orphan.error and orphan.data["error"] == "not_found"
    assert "Button Controllers" in orphan.data["message"]
    assert "hub_create_app app_type='Button Controllers'" in orphan.data["hint"]
    wrong = await call_tool(
        "hub_create_app", {"app_type": "Notifier", "parent_app_id": str(APP_BASIC_RULES)}
    )
    assert wrong.error and "Basic Rule" in wrong.data["message"]
    assert set(hub.state.apps) == before
    # the parent itself is a singleton: the answer points at the child kind
    parent = await call_tool("hub_create_app", {"app_type": "Room Lighting"})
    assert not parent.error and parent.data["created"] is False
    assert "Room Lights" in parent.data["hint"]
    hub.state.dev.done_ignored = True
    unfinished = await call_tool("hub_create_app", {"app_type": "Maker API", "confirm": True})
    assert unfinished.error and unfinished.data["error"] == "hub_bad_response", unfinished.data
    assert "removed" in unfinished.data["message"] and "hub_get_app" in unfinished.data["hint"]
    assert set(hub.state.apps) == before


async def test_create_child_and_room_lighting_instance(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: a child kind and its settings reach the manager (the parent found,
    createchild and the first page: tests/managers/test_app_create.py)."""
    made = await call_tool("hub_create_app", {"app_type": "Basic Rule", "name": "Porch at dusk"})
    assert not made.error, made.data
    assert made.data["parent_id"] == str(APP_BASIC_RULES)
    assert hub.state.apps[int(made.data["app_id"])].label == "Porch at dusk"
    light = next(d for d in hub.state.devices.values() if "switch" in d.attrs and not d.disabled)
    room = await call_tool(
        "hub_create_app",
        {
            "app_type": "Room Lighting instance",
            "name": "Den Lights",
            "settings": {"roomDevsL": [str(light.id)]},
        },
    )
    assert not room.error, room.data
    app = hub.state.apps[int(room.data["app_id"])]
    assert app.parent_id == APP_ROOM_LIGHTING and app.label == "Den Lights"
    assert sorted(room.data["applied"]) == ["origLabel", "roomDevsL"]


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
