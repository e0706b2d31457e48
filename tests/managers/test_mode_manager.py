"""The Mode Manager's configuration (``managers/mode_manager.py``) on its own, no hass: the
selection and the Integrated Mode Manager's triggers, read in one answer with the modes and
written with every change read back, over the emulated hub.

Moved from tests/tools/test_mode_manager.py (the reading and writing is the manager's; the
tool's confirmation, the device allowlist and the argument refusals stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.mode_manager import ModeManagerConfig
from hubitat_emulator import HubEmulator


def _mode(data: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(m for m in data["mode_manager"]["triggers"] if m["mode"] == name)
    return found


def _phones(emu: HubEmulator) -> list[int]:
    return [d.id for d in emu.state.devices.values() if d.label in ("Alice's Phone", "Bob's Phone")]


def _config(manager_hub: Hub) -> ModeManagerConfig:
    return manager_hub.modes.manager_config


async def _update(manager_hub: Hub, **kw: Any) -> dict[str, Any]:
    """One update, the tool's defaults for what is not given."""
    args: dict[str, Any] = {"mode": None, "trigger_specs": None, **kw}
    return await _config(manager_hub).update(**args)


async def _presence(
    manager_hub: Hub, where: dict[str, Any], event: str, phone: int
) -> dict[str, Any]:
    trigger = {"type": "presence", "event": event, "device_ids": [phone]}
    return await _update(manager_hub, trigger_specs=[trigger], **where)


def _stored(emu: HubEmulator, key: str) -> list[dict[str, Any]]:
    return emu.state.mode_manager.conditions[key]


async def test_list_modes_answers_the_mode_manager_in_one_call(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = len(emu.requests)
    data = await manager_hub.modes.list_with_manager()
    mm = data["mode_manager"]
    assert mm["selected"] == "builtIn" and mm["runs"] == "Integrated Mode Manager"
    assert mm["app_id"] == "4" and mm["integrated_app_id"] == "65" and "legacy_app_id" not in mm
    assert _mode(data, "Day")["triggers"][0] | {"description": ""} == {
        "type": "sunrise",
        "offset_minutes": 15,
        "description": "",
    }
    assert _mode(data, "Night")["triggers"][0]["at"] == "22:30"
    away = _mode(data, "Away")["triggers"][0]
    assert away["event"] == "leaves" and away["device_ids"] == [str(i) for i in _phones(emu)]
    paths = [p.split("?")[0] for _m, p in emu.requests[before:]]
    assert paths.count("/modes/easyModeManager/json") == 1 and paths.count("/modes/json") == 1


async def test_set_night_at_a_time_and_away_when_everyone_leaves(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    data = await _update(
        manager_hub, mode="night", trigger_specs=[{"type": "time", "at": "10:45 pm"}]
    )
    assert data["changed"] == ["mode triggers of Night"]
    night = _stored(emu, "3")
    assert [t["timeOfDay"] for t in night] == ["22:45"]
    assert _mode(data, "Night")["triggers"][0]["at"] == "22:45"
    phone = _phones(emu)[0]
    data = await _presence(manager_hub, {"mode": "Away"}, "leaves", phone)
    wire = _stored(emu, "4")[0]
    assert wire["presenceSensorEvent"] == "Everyone leaves" and wire["presenceSensors"] == [phone]
    # the other modes' triggers were kept (the object is a full replacement)
    assert _stored(emu, "1")[0]["minutesAfterSunrise"] == 15
    # add a sunset offset to Evening, keep its sunset trigger
    data = await _update(
        manager_hub,
        mode="Evening",
        add=True,
        trigger_specs=[{"type": "sunset", "offset_minutes": -20}],
    )
    evening = _mode(data, "Evening")["triggers"]
    assert [(t["type"], t["offset_minutes"]) for t in evening] == [("sunset", 0), ("sunset", -20)]
    assert _stored(emu, "2")[1]["minutesBeforeSunset"] == 20


async def test_days_other_days_exit_away_and_buttons(emu: HubEmulator, manager_hub: Hub) -> None:
    remote = next(d.id for d in emu.state.devices.values() if d.label == "Living Room Pico")
    button = {"type": "button", "device_ids": [remote], "button": 2, "event": "held"}
    await _update(manager_hub, mode="Day", trigger_set="other_days", trigger_specs=[button])
    data = await _update(manager_hub, mode="Day", days=["mon", "Fri"])
    day = _mode(data, "Day")
    assert day["days"] == ["Mon", "Fri"]
    assert day["other_days_triggers"][0] | {"description": ""} == {
        "type": "button",
        "event": "held",
        "button": 2,
        "device_ids": [str(remote)],
        "description": "",
    }
    assert _stored(emu, "1")[-1]["daysOfWeek"] == [1, 5]
    assert _stored(emu, "alt-1")[-1]["daysOfWeek"] == [0, 2, 3, 4, 6]
    assert _stored(emu, "alt-1")[0]["buttonIndex"] == 2
    # replacing Day's triggers keeps its days entry last
    await _update(manager_hub, mode="Day", trigger_specs=[])
    assert [t["triggerType"] for t in _stored(emu, "1")] == ["daysOfWeek"]
    data = await _presence(manager_hub, {"trigger_set": "exit_away"}, "arrives", _phones(emu)[0])
    assert data["mode_manager"]["exit_away"][0]["event"] == "arrives"


async def test_selecting_the_manager_is_read_back(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await _update(manager_hub, manager="app")
    assert emu.state.mode_manager.selected == "app"
    assert data["changed"] == ["manager app"]
    assert data["mode_manager"]["selected"] == "app" and "note" in data["mode_manager"]
    with pytest.raises(ToolError, match="no legacy"):
        await _update(manager_hub, manager="legacy")
    assert emu.state.mode_manager.selected == "app"  # the refusal changed nothing
    await _update(manager_hub, manager="builtIn")
    assert emu.state.mode_manager.selected == "builtIn"


async def test_a_save_the_hub_drops_is_a_failure(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.state.mode_manager.drop_saves = 100
    with pytest.raises(HubBadResponseError, match="read back unchanged"):
        await _update(manager_hub, mode="Night", trigger_specs=[{"type": "time", "at": "23:00"}])
    assert [t["timeOfDay"] for t in _stored(emu, "3")] == ["22:30"]  # still the seeded time


async def test_list_modes_without_the_integrated_endpoint_still_answers(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.faults.reshape_paths = {"/modes/easyModeManager/json": "404"}
    data = await manager_hub.modes.list_with_manager()
    assert data["mode_manager"]["triggers_unreadable"] is True
    assert data["mode_manager"]["selected"] == "builtIn"
    assert data["active_mode"] == emu.current_mode  # the seeded story's mode for this hour


async def test_bad_specs_are_refused_before_any_write(emu: HubEmulator, manager_hub: Hub) -> None:
    before = len(emu.requests)
    conditions = {k: [dict(t) for t in v] for k, v in emu.state.mode_manager.conditions.items()}
    for bad, word in (
        ({"mode": "Night", "trigger_specs": [{"type": "time", "at": "25:00"}]}, "25:00"),
        ({"mode": "Night", "trigger_specs": [{"type": "presence", "event": "leaves"}]}, "device"),
        ({"mode": "Night", "trigger_specs": [{"type": "teleport"}]}, "teleport"),
        ({"mode": "Night", "days": ["Funday"]}, "Funday"),
        ({"mode": "Nowhere", "trigger_specs": []}, "Nowhere"),
        ({"trigger_set": "exit_away", "days": ["Mon"]}, "days"),
        ({}, "Nothing to change"),
    ):
        with pytest.raises(ToolError) as refused:
            await _update(manager_hub, **bad)
        assert word in str(refused.value), (bad, str(refused.value))
    posts = [p for m, p in emu.requests[before:] if m == "POST"]
    assert posts == []
    assert emu.state.mode_manager.conditions == conditions
