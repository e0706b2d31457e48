"""The app creator (``managers/apps/create.py``, with the settings encoding of
``managers/apps/settings.py``) on its own, no hass: the app types the hub can add and their
filters, a user app and a built-in app created as the hub's Add User App and Add Built-In
App do (the first page filled, Done pressed, the new app read back from the app tree), the
confirmation user code and safety systems need, a singleton built-in app opened rather than
made, built-in child apps under their installed parent (a Room Lighting instance through
createchild), and a new instance the hub does not finish, or whose settings are refused,
removed again, over the emulated hub.

Moved from tests/tools/test_app_create.py (the creation logic is the manager's; the tool's
argument checks for scope=types, the hints naming sibling tools, the device allowlist and
the parsing of the hub's recorded answers stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import CODE_APP_ANNOUNCER
from hubitat_emulator.seed_specs import APP_BASIC_RULES, APP_ROOM_LIGHTING, APP_RULE_MACHINE


async def create(
    manager_hub: Hub,
    app_type: str,
    *,
    parent_app_id: str | None = None,
    settings: dict[str, Any] | None = None,
    name: str | None = None,
    confirm: bool = False,
    device_allowed: Any = None,
) -> dict[str, Any]:
    """The manager's create as the tool calls it (no device allowlist unless given)."""
    return await manager_hub.app_create.create(
        app_type,
        parent_app_id=parent_app_id,
        settings=settings or {},
        name=name,
        device_allowed=device_allowed or (lambda _device_id: True),
        confirm=confirm,
    )


async def test_list_types_and_their_filters(manager_hub: Hub) -> None:
    creator = manager_hub.app_create
    every = await creator.types(text=None, kind="all")
    names = {t["name"]: t for t in every}
    assert names["Basic Rules"]["user"] is False and names["Basic Rules"]["menu"]
    assert names["Motion Announcer"]["user"] is True
    user = await creator.types(text=None, kind="user")
    assert all(t["user"] for t in user) and user
    builtin = await creator.types(text=None, kind="builtin")
    assert builtin and not any(t["user"] for t in builtin)
    assert len(user) + len(builtin) == len(every)
    found = await creator.types(text="maker", kind="all")
    assert [t["name"] for t in found] == ["Maker API"]
    by_id = await creator.types(text=str(CODE_APP_ANNOUNCER), kind="all")
    assert [t["name"] for t in by_id] == ["Motion Announcer"]


async def test_create_user_app_fills_first_page_and_installs(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    motion = next(d for d in emu.state.devices.values() if "MotionSensor" in d.driver.capabilities)
    settings = {"motion": motion.id}
    before = set(emu.state.apps)
    with pytest.raises(ToolError) as refused:
        await create(manager_hub, "Motion Announcer", name="Porch announcer", settings=settings)
    assert refused.value.code == "confirmation_required"
    assert set(emu.state.apps) == before  # refused before anything was created
    data = await create(
        manager_hub, "Motion Announcer", name="Porch announcer", settings=settings, confirm=True
    )
    new_id = int(data["app_id"])
    assert set(emu.state.apps) - before == {new_id}
    app = emu.state.apps[new_id]
    assert app.user and app.label == "Porch announcer" and app.app_type_id == CODE_APP_ANNOUNCER
    assert new_id not in emu.state.dev.pending  # Done was submitted
    assert data["applied"] == ["motion"] and data["created"] is True
    assert data["name"] == "Porch announcer" and data["user"] is True
    listed = await manager_hub.apps.list_apps(
        text=None, kind="all", device_id=None, include_hidden=False
    )
    assert new_id in {int(a["app_id"]) for a in listed}
    # by code id too, no settings: still finished with Done
    again = await create(manager_hub, str(CODE_APP_ANNOUNCER), confirm=True)
    assert int(again["app_id"]) not in emu.state.dev.pending


async def test_create_builtin_and_singletons(emu: HubEmulator, manager_hub: Hub) -> None:
    before = set(emu.state.apps)
    with pytest.raises(ToolError) as maker:
        await create(manager_hub, "Maker API")
    assert maker.value.code == "confirmation_required" and set(emu.state.apps) == before
    made = await create(manager_hub, "Maker API", name="Second Maker", confirm=True)
    assert emu.state.apps[int(made["app_id"])].label == "Second Maker"
    before = set(emu.state.apps)
    rm = await create(manager_hub, "Rule Machine")
    assert rm["created"] is False
    assert rm["app_id"] == str(APP_RULE_MACHINE) and set(emu.state.apps) == before
    with pytest.raises(HubError) as missing:
        await create(manager_hub, "No Such App")
    assert missing.value.code == "not_found" and missing.value.subject == "app_type"
    with pytest.raises(ToolError) as rule:
        await create(manager_hub, "Rule")
    assert rule.value.code == "invalid_request" and rule.value.subject == "rule_machine_app"
    assert set(emu.state.apps) == before


async def test_create_child_needs_its_parent(emu: HubEmulator, manager_hub: Hub) -> None:
    made = await create(manager_hub, "Basic Rule", name="Porch at dusk")
    app = emu.state.apps[int(made["app_id"])]
    assert app.parent_id == APP_BASIC_RULES and app.label == "Porch at dusk"
    assert made["parent_id"] == str(APP_BASIC_RULES)
    # no Button Controllers parent on this hub: said clearly, nothing created
    before = set(emu.state.apps)
    with pytest.raises(ToolError) as orphan:
        await create(manager_hub, "Button Controller")
    assert orphan.value.code == "not_found" and orphan.value.subject == "parent_not_installed"
    assert "Button Controllers" in str(orphan.value) and set(emu.state.apps) == before
    assert orphan.value.extra == {
        "parent_type": "Button Controllers",
        "child_kind": "Button Controller",
    }
    # the parent is addable, then the child
    parent = await create(manager_hub, "Button Controllers")
    assert parent["created"] is True, parent
    child = await create(manager_hub, "Button Controller")
    assert child["parent_id"] == parent["app_id"]
    # explicit parent that does not take that kind
    before = set(emu.state.apps)
    with pytest.raises(ToolError) as wrong:
        await create(manager_hub, "Notifier", parent_app_id=str(APP_BASIC_RULES))
    assert "Basic Rule" in str(wrong.value) and set(emu.state.apps) == before


async def test_unfinished_instance_is_removed(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.state.dev.done_ignored = True
    before = set(emu.state.apps)
    with pytest.raises(HubError) as err:
        await create(manager_hub, "Maker API", confirm=True)
    assert err.value.code == "hub_bad_response" and err.value.subject == "app_unfinished"
    assert "removed" in str(err.value) and set(emu.state.apps) == before


async def test_bad_settings_leave_nothing_behind(emu: HubEmulator, manager_hub: Hub) -> None:
    before = set(emu.state.apps)
    with pytest.raises(ToolError) as err:
        await create(manager_hub, "Motion Announcer", settings={"nope": 1}, confirm=True)
    assert "no input 'nope'" in str(err.value)
    assert set(emu.state.apps) == before
    with pytest.raises(ToolError):
        await create(manager_hub, "Motion Announcer", settings={"motion": "999999"}, confirm=True)
    assert set(emu.state.apps) == before


async def test_a_device_outside_the_allowlist_removes_the_new_instance(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    motions = sorted(
        d.id for d in emu.state.devices.values() if "MotionSensor" in d.driver.capabilities
    )
    before = set(emu.state.apps)
    with pytest.raises(ToolError) as outside:
        await create(
            manager_hub,
            "Motion Announcer",
            settings={"motion": str(motions[1])},
            confirm=True,
            device_allowed=lambda device_id: device_id == str(motions[0]),
        )
    assert outside.value.code == "device_not_allowed"
    assert set(emu.state.apps) == before  # the new shell was removed again
    paths = [p for _m, p in emu.requests]
    assert any(p.startswith("/installedapp/forcedelete/") for p in paths)


async def test_create_a_room_lighting_instance(emu: HubEmulator, manager_hub: Hub) -> None:
    light = next(d for d in emu.state.devices.values() if "switch" in d.attrs and not d.disabled)
    made = await create(
        manager_hub,
        "Room Lighting instance",
        name="Den Lights",
        settings={"roomDevsL": [str(light.id)]},
    )
    app = emu.state.apps[int(made["app_id"])]
    assert app.parent_id == APP_ROOM_LIGHTING and app.label == "Den Lights"
    assert made["type"] == "Room Lights" and made["name"] == "Den Lights"
    assert sorted(made["applied"]) == ["origLabel", "roomDevsL"] and "warning" not in made
    sent = [p for _m, p in emu.requests if "/createchild/" in p]
    assert sent[-1] == f"/installedapp/createchild/hubitat/Room%20Lights/parent/{APP_ROOM_LIGHTING}"
    # the parent itself is a singleton: the answer names the child kind
    parent = await create(manager_hub, "Room Lighting")
    assert parent["created"] is False and parent["child_kinds"] == ["Room Lights"]
