"""Mode Manager: the selection and the Integrated Mode Manager's triggers, read and written."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub import mode_manager as api
from custom_components.hubitat_dev_tools.hub.errors import HubRefusedError
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok
from ..contract import assert_same_shape
from ..fixture_client import fixture_client


@pytest.fixture
def call_tool(call_tool: ToolCaller) -> ToolCaller:
    """These tests are about what Mode Manager edits do, so they come confirmed (a safety
    system: tests/glue/test_hostile_effects.py shows the refusal without confirm)."""

    async def confirmed(name: str, args: dict[str, Any] | None = None, **kw: Any) -> Any:
        if name == "hub_update_mode_manager":
            args = {"confirm": True, **(args or {})}
        return await call_tool(name, args, **kw)

    return confirmed


def _mode(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(m for m in data["mode_manager"]["triggers"] if m["mode"] == name)


def _phones(hub: HubEmulator) -> list[int]:
    return [d.id for d in hub.state.devices.values() if d.label in ("Alice's Phone", "Bob's Phone")]


async def _presence(
    call_tool: ToolCaller, where: dict[str, Any], event: str, phone: int
) -> dict[str, Any]:
    trigger = {"type": "presence", "event": event, "device_ids": [phone]}
    data: dict[str, Any] = await ok(
        call_tool, "hub_update_mode_manager", {**where, "triggers": [trigger]}
    )
    return data


async def test_list_modes_answers_the_mode_manager_in_one_call(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    data = await ok(call_tool, "hub_list_modes")
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
    assert away["event"] == "leaves" and away["device_ids"] == [str(i) for i in _phones(hub)]
    paths = [p.split("?")[0] for _m, p in hub.requests[before:]]
    assert paths.count("/modes/easyModeManager/json") == 1 and paths.count("/modes/json") == 1


async def test_set_night_at_a_time_and_away_when_everyone_leaves(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(
        call_tool,
        "hub_update_mode_manager",
        {"mode": "night", "triggers": [{"type": "time", "at": "10:45 pm"}]},
    )
    assert data["changed"] == ["mode triggers of Night"]
    night = hub.state.mode_manager.conditions["3"]
    assert [t["timeOfDay"] for t in night] == ["22:45"]
    assert _mode(data, "Night")["triggers"][0]["at"] == "22:45"
    phone = _phones(hub)[0]
    data = await _presence(call_tool, {"mode": "Away"}, "leaves", phone)
    wire = hub.state.mode_manager.conditions["4"][0]
    assert wire["presenceSensorEvent"] == "Everyone leaves" and wire["presenceSensors"] == [phone]
    # the other modes' triggers were kept (the object is a full replacement)
    assert hub.state.mode_manager.conditions["1"][0]["minutesAfterSunrise"] == 15
    # add a sunset offset to Evening, keep its sunset trigger
    data = await ok(
        call_tool,
        "hub_update_mode_manager",
        {"mode": "Evening", "add": True, "triggers": [{"type": "sunset", "offset_minutes": -20}]},
    )
    evening = _mode(data, "Evening")["triggers"]
    assert [(t["type"], t["offset_minutes"]) for t in evening] == [("sunset", 0), ("sunset", -20)]
    assert hub.state.mode_manager.conditions["2"][1]["minutesBeforeSunset"] == 20


async def test_days_other_days_exit_away_and_buttons(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    remote = next(d.id for d in hub.state.devices.values() if d.label == "Living Room Pico")
    data = await ok(
        call_tool,
        "hub_update_mode_manager",
        {
            "mode": "Day",
            "trigger_set": "other_days",
            "triggers": [{"type": "button", "device_ids": [remote], "button": 2, "event": "held"}],
        },
    )
    data = await ok(call_tool, "hub_update_mode_manager", {"mode": "Day", "days": ["mon", "Fri"]})
    day = _mode(data, "Day")
    assert day["days"] == ["Mon", "Fri"]
    assert day["other_days_triggers"][0] | {"description": ""} == {
        "type": "button",
        "event": "held",
        "button": 2,
        "device_ids": [str(remote)],
        "description": "",
    }
    stored = hub.state.mode_manager.conditions
    assert stored["1"][-1]["daysOfWeek"] == [1, 5]
    assert stored["alt-1"][-1]["daysOfWeek"] == [0, 2, 3, 4, 6]
    assert stored["alt-1"][0]["buttonIndex"] == 2
    # replacing Day's triggers keeps its days entry last
    await ok(call_tool, "hub_update_mode_manager", {"mode": "Day", "triggers": []})
    assert [t["triggerType"] for t in stored_now(hub, "1")] == ["daysOfWeek"]
    data = await _presence(call_tool, {"trigger_set": "exit_away"}, "arrives", _phones(hub)[0])
    assert data["mode_manager"]["exit_away"][0]["event"] == "arrives"


def stored_now(hub: HubEmulator, key: str) -> list[dict[str, Any]]:
    return hub.state.mode_manager.conditions[key]


async def test_selecting_the_manager_is_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_update_mode_manager", {"manager": "app"})
    assert hub.state.mode_manager.selected == "app"
    assert data["mode_manager"]["selected"] == "app" and "note" in data["mode_manager"]
    refused = await call_tool("hub_update_mode_manager", {"manager": "legacy"})
    assert refused.error and "no legacy" in refused.data["message"]
    await ok(call_tool, "hub_update_mode_manager", {"manager": "builtIn"})
    assert hub.state.mode_manager.selected == "builtIn"


async def test_a_save_the_hub_drops_is_a_failure_and_bad_specs_are_refused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.mode_manager.drop_saves = 100
    dropped = await call_tool(
        "hub_update_mode_manager", {"mode": "Night", "triggers": [{"type": "time", "at": "23:00"}]}
    )
    assert dropped.error and "read back unchanged" in dropped.data["message"]
    hub.state.mode_manager.drop_saves = 0
    before = len(hub.requests)
    for bad in (
        {"mode": "Night", "triggers": [{"type": "time", "at": "25:00"}]},
        {"mode": "Night", "triggers": [{"type": "presence", "event": "leaves"}]},
        {"mode": "Night", "triggers": [{"type": "teleport"}]},
        {"mode": "Night", "days": ["Funday"]},
        {"mode": "Nowhere", "triggers": []},
        {"trigger_set": "exit_away", "days": ["Mon"]},
        {},
    ):
        result = await call_tool("hub_update_mode_manager", bad)
        assert result.error, bad
    posts = [p for m, p in hub.requests[before:] if m == "POST"]
    assert posts == []


# ---------------------------------------------------------------------- contract fixtures


async def test_save_and_select_fixtures_and_the_emulator_answers(hub: HubEmulator) -> None:
    await api.save_conditions(fixture_client("modes/mode_manager_save"), {})  # success
    refusal = await api.select_manager(fixture_client("modes/mode_manager_select"), "easy")
    assert refusal == {"success": False, "message": "Invalid mode manager"}
    with pytest.raises(HubRefusedError, match="refused to save"):
        await api.save_conditions(fixture_client("modes/mode_manager_select"), {})
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.post(f"{hub.url}/modes/easyModeManager/json", data="{}") as r:
            assert_same_shape("modes/mode_manager_save", await r.json(content_type=None))
        async with session.get(f"{hub.url}/modes/setModeManager/easy") as r:
            assert_same_shape("modes/mode_manager_select", await r.json(content_type=None))


async def test_list_modes_without_the_integrated_endpoint_still_answers(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.reshape_paths = {"/modes/easyModeManager/json": "404"}
    data = await ok(call_tool, "hub_list_modes")
    assert data["mode_manager"]["triggers_unreadable"] is True
    assert data["mode_manager"]["selected"] == "builtIn"
    assert data["active_mode"] == hub.current_mode  # the seeded story's mode for this hour


async def test_trigger_devices_pass_the_device_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    alice, bob = _phones(hub)
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(alice)]})
    before = len(hub.requests)
    spec = {"type": "presence", "event": "leaves", "device_ids": [alice, bob]}
    result = await call_tool("hub_update_mode_manager", {"mode": "Away", "triggers": [spec]})
    assert result.error and result.data["error"] == "device_not_allowed"
    assert len(hub.requests) == before
