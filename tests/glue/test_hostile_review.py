"""The findings of a hostile review of safety by effect, each closed: the path first shown to
exist (a confirmed or harmless call acts), then the hostile call refused with nothing done."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.scenes import (
    CAPTURED_KEY,
    ROOM_LIGHTS_ACTIVATOR,
    SCENE_LOCKUP,
    SCENE_MOVIE,
)
from hubitat_emulator.seed_specs import RL_OFFICE

from ..conftest import ToolCaller, ok, refused
from ..home_util import dev_id


def allow(hass: HomeAssistant, entry: MockConfigEntry, *ids: str) -> None:
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: list(ids)})


def lock_state(hub: HubEmulator, label: str = "Back Door Lock") -> str:
    return str(hub.find_device(label)["attributes"]["lock"])


def motion_trigger(hub: HubEmulator) -> dict[str, Any]:
    m = int(dev_id(hub, "Office Motion"))
    return {"triggerType": "motion", "motionSensors": [m], "motionSensorEvent": "Motion starts"}


def trigger(hub: HubEmulator) -> dict[str, Any]:
    return {"device_id": dev_id(hub, "Office Motion"), "attribute": "motion", "is": "active"}


async def test_a_cycle_of_scenes_does_not_poison_the_cache(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    act_lock, act_movie = dev_id(hub, "Lock Up Activator"), dev_id(hub, "Movie Time")
    # the scenes chain through their activators (Movie Time -> Lock Up -> Movie Time)
    for scene, member, state in ((SCENE_MOVIE, act_lock, "on"), (SCENE_LOCKUP, act_movie, "off")):
        it = hub.state.dev.internals[scene]
        ids = [*it.inputs[0]["deviceIdsForDeviceList"], int(member)]
        it.inputs[0].update(deviceIdsForDeviceList=ids, value=",".join(map(str, ids)))
        it.state[CAPTURED_KEY][member] = {"switch": state}
    hub.set_device_attribute(int(dev_id(hub, "Back Door Lock")), "lock", "unlocked")
    allow(hass, entry, act_lock, act_movie)  # the Back Door Lock is outside
    cmd = {"device_id": act_movie, "command": "on", "confirm": True}
    await refused(call_tool, "hub_call_device_command", cmd, "device_not_allowed")
    board = {"name": "x", "device_ids": [act_lock], "confirm": True}
    await refused(call_tool, "hub_create_dashboard", board, "device_not_allowed")
    await refused(call_tool, "hub_call_device_command", cmd, "device_not_allowed")
    assert lock_state(hub) == "unlocked"


async def test_a_visual_rule_on_a_lock_scenes_activator_is_judged_by_the_model(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    act, motion = dev_id(hub, "Lock Up Activator"), dev_id(hub, "Office Motion")
    args = {
        "name": "VR",
        "when_nodes": [motion_trigger(hub)],
        "then_nodes": [{"actionType": "turnOn", "switches": [int(act)]}],
    }
    data = await refused(call_tool, "hub_create_visual_rule", args, "confirmation_required")
    assert "Back Door Lock" in data["message"], data
    allow(hass, entry, act, motion)
    await refused(
        call_tool, "hub_create_visual_rule", {**args, "confirm": True}, "device_not_allowed"
    )
    allow(hass, entry)
    await ok(call_tool, "hub_create_visual_rule", {**args, "confirm": True})


async def test_a_rules_capture_and_restore_of_an_activator_is_judged(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    act, motion = dev_id(hub, "Lock Up Activator"), dev_id(hub, "Office Motion")
    spec = {
        "name": "CR",
        "triggers": [trigger(hub)],
        "actions": [{"capture": [act]}, {"restore": True}],
    }
    apps = set(hub.state.apps)
    await refused(call_tool, "hub_create_rule", {"rule": spec}, "confirmation_required")
    allow(hass, entry, act, motion)
    await refused(
        call_tool, "hub_create_rule", {"rule": spec, "confirm": True}, "device_not_allowed"
    )
    assert set(hub.state.apps) == apps


async def test_resuming_a_visual_rule_through_its_update_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = int(dev_id(hub, "Front Door Lock"))
    made = await ok(
        call_tool,
        "hub_create_visual_rule",
        {
            "name": "VR",
            "paused": True,
            "confirm": True,
            "when_nodes": [motion_trigger(hub)],
            "then_nodes": [{"actionType": "unlock", "locks": [lock]}],
        },
    )
    app = str(made["app_id"])
    await refused(
        call_tool,
        "hub_update_visual_rule",
        {"app_id": app, "paused": False},
        "confirmation_required",
    )
    got = await ok(call_tool, "hub_get_visual_rule", {"app_id": app})
    assert got["definition"]["rulePaused"] is True
    await ok(call_tool, "hub_update_visual_rule", {"app_id": app, "paused": False, "confirm": True})


async def test_capturing_a_lock_scene_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.set_device_attribute(int(dev_id(hub, "Back Door Lock")), "lock", "unlocked")
    captured = dict(hub.state.dev.internals[SCENE_LOCKUP].state[CAPTURED_KEY])
    args = {"scene": "Lock Up", "action": "capture"}
    await refused(call_tool, "hub_call_scene", args, "confirmation_required")
    assert hub.state.dev.internals[SCENE_LOCKUP].state[CAPTURED_KEY] == captured
    await ok(call_tool, "hub_call_scene", {**args, "confirm": True})
    # a scene with nothing sensitive is captured without confirm
    await ok(call_tool, "hub_call_scene", {"scene": "Movie Time", "action": "capture"})


async def test_a_room_lighting_instance_reaching_a_lock_needs_confirm_on_every_path(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A Room Lighting instance whose devices include a lock: activating it by name, or by
    turning its activator on directly, needs confirm; an activator outside the allowlist is
    refused even with confirm."""
    lock = dev_id(hub, "Back Door Lock")
    hub.set_device_attribute(int(lock), "lock", "unlocked")
    page = hub.state.dev.internals[RL_OFFICE]
    lights = page.inputs[0]
    ids = [*lights["deviceIdsForDeviceList"], int(lock)]
    lights["deviceIdsForDeviceList"] = ids
    lights["value"] = ",".join(str(i) for i in ids)
    page.state[CAPTURED_KEY][lock] = {"lock": "locked"}
    activator = dev_id(hub, ROOM_LIGHTS_ACTIVATOR)
    await refused(call_tool, "hub_call_scene", {"scene": "Office Lights"}, "confirmation_required")
    await refused(
        call_tool,
        "hub_call_device_command",
        {"device_id": activator, "command": "on"},
        "confirmation_required",
    )
    assert lock_state(hub) == "unlocked"  # nothing acted
    allow(hass, entry, lock, *(str(i) for i in ids))  # every member, not the activator
    await refused(
        call_tool,
        "hub_call_scene",
        {"scene": "Office Lights", "confirm": True},
        "device_not_allowed",
    )
    assert lock_state(hub) == "unlocked"


async def test_an_hsm_tile_or_a_pin_change_on_a_dashboard_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = dict(hub.state.dev.easy_dashboards[401])
    options = {"showHSMTile": True, "hsmPin": "", "dashboardPin": ""}
    args = {"dashboard_id": "401", "options": options}
    data = await refused(call_tool, "hub_update_dashboard", args, "confirmation_required")
    assert "HSM" in data["message"]
    assert hub.state.dev.easy_dashboards[401] == before
    await ok(call_tool, "hub_update_dashboard", {**args, "confirm": True})
    assert hub.state.dev.easy_dashboards[401]["showHSMTile"] is True
    await ok(
        call_tool,
        "hub_update_dashboard",
        {"dashboard_id": "401", "options": {"showHSMTile": False}},
    )


async def test_cloning_a_dashboard_with_a_lock_is_gated(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = dev_id(hub, "Front Door Lock")
    made = await ok(
        call_tool, "hub_create_dashboard", {"name": "Doors", "device_ids": [lock], "confirm": True}
    )
    board = str(made["dashboard_id"])
    count = len(hub.state.dev.easy_dashboards)
    await refused(
        call_tool, "hub_clone_dashboard", {"dashboard_id": board}, "confirmation_required"
    )
    allow(hass, entry, dev_id(hub, "Office Light"))
    await refused(
        call_tool,
        "hub_clone_dashboard",
        {"dashboard_id": board, "confirm": True},
        "device_not_allowed",
    )
    assert len(hub.state.dev.easy_dashboards) == count
    allow(hass, entry)
    await ok(call_tool, "hub_clone_dashboard", {"dashboard_id": board, "confirm": True})


async def test_a_rule_appending_to_an_existing_file_is_held_to_write_file_rules(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.backups.clear()
    hub.files.write("notes.txt", b"keep me")
    spec = {
        "name": "Appender",
        "triggers": [trigger(hub)],
        "actions": [{"append_file": "notes.txt", "text": "<script>x</script>"}],
    }
    data = await refused(call_tool, "hub_create_rule", {"rule": spec}, "confirmation_required")
    assert "notes.txt" in data["message"]
    await refused(call_tool, "hub_create_rule", {"rule": spec, "confirm": True}, "backup_required")
    hub.mark_backup_now()
    await ok(call_tool, "hub_create_rule", {"rule": spec, "confirm": True})


async def test_cheap_writes_do_not_push_out_a_confirmed_unlock(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = dev_id(hub, "Front Door Lock")
    await ok(
        call_tool,
        "hub_call_device_command",
        {"device_id": lock, "command": "unlock", "confirm": True},
    )
    for _ in range(520):
        await ok(call_tool, "hub_call_hub_action", {"action": "blink_led"})
    left = await ok(call_tool, "hub_list_audit_entries", {"tool": "hub_call_device_command"})
    assert len(left["entries"]) == 1 and left["entries"][0]["args"]["confirm"] is True


async def test_disabling_a_lock_scenes_activator_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    act = dev_id(hub, "Lock Up Activator")
    data = await refused(
        call_tool,
        "hub_update_device",
        {"device_id": act, "enabled": False},
        "confirmation_required",
    )
    assert "Lock Up" in data["message"]
    assert hub.find_device("Lock Up Activator")["disabled"] is False
    await ok(call_tool, "hub_update_device", {"device_id": act, "enabled": False, "confirm": True})


async def test_renaming_a_lock_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A second review's finding: the model renamed the Front Door Lock "Garden Shed Lock",
    then the owner was asked to approve unlocking a garden shed."""
    lock = dev_id(hub, "Front Door Lock")
    args = {"device_id": lock, "label": "Garden Shed Lock"}
    data = await refused(call_tool, "hub_update_device", args, "confirmation_required")
    assert "Front Door Lock" in data["message"]
    assert hub.find_device("Front Door Lock")["label"] == "Front Door Lock"
    await ok(call_tool, "hub_update_device", {**args, "confirm": True})
    # an ordinary device is renamed without confirm
    light = dev_id(hub, "Office Light")
    await ok(call_tool, "hub_update_device", {"device_id": light, "label": "Desk Light"})


async def test_event_text_leaves_out_the_labels_of_outside_devices(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A second review's finding: app and location events quote device labels in their
    text, and those events carry no device id for the allowlist to filter."""
    from datetime import UTC, datetime

    from hubitat_emulator.app_events import add_app_event
    from hubitat_emulator.seed_specs import RULE_GOODNIGHT

    add_app_event(
        hub.home.state,
        RULE_GOODNIGHT,
        "ruleState",
        "completed",
        "Goodnight: Lock: Front Door Lock",
        datetime.now(UTC),
    )
    hub.home._location_event("hsmAlert", "intrusion", "Intrusion Alert: Back Door Lock", "")
    app_args = {"app_id": str(RULE_GOODNIGHT)}
    assert "Front Door Lock" in str(await ok(call_tool, "hub_list_events", app_args))
    assert "Back Door Lock" in str(await ok(call_tool, "hub_list_events", {"source": "location"}))
    allow(hass, entry, dev_id(hub, "Office Light"))
    app = await ok(call_tool, "hub_list_events", app_args)
    location = await ok(call_tool, "hub_list_events", {"source": "location"})
    assert "Front Door Lock" not in str(app) and "Goodnight" in str(app)
    assert "Back Door Lock" not in str(location) and "Intrusion Alert" in str(location)
    # a name filter matches what is shown, never the hidden label
    none = await ok(call_tool, "hub_list_events", {**app_args, "name": "Front Door"})
    assert none["count"] == 0
