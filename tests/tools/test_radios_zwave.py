"""Radio tools on the Z-Wave radio: the repair, inclusion and exclusion, node actions and the
removal of failed nodes, the S2 keys and the checks of its settings, as the model calls them.

The tools' part is here: the write switch, the confirm and backup gate, the device
allowlist, the argument checks (an unknown S2 key name), the notes and hints that name the
next tool, and the hub's errors as the model sees them. The Z-Wave logic is tested without
hass: the repair (the C-7 kind and the C-5 kind), inclusion, exclusion, node actions and the
failed-node removal in tests/managers/test_radios.py, the S2 keys during an inclusion or a
node replace in tests/managers/test_radio_zwave.py, and the Z-Wave settings in
tests/managers/test_radio_settings.py."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, refused


async def test_zwave_repair_start_and_status(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The answers and the advice to poll (the repair itself: tests/managers/test_radios.py)."""
    hub.ops.repair_step = 0.2
    idle = await ok(call_tool, "hub_get_zwave_repair_status")
    assert idle["running"] is False
    started = await ok(call_tool, "hub_start_zwave_repair")
    assert started["started"] is True and started["running"] is True and "summary" in started
    assert "Poll hub_get_zwave_repair_status" in started["note"]
    again = await ok(call_tool, "hub_start_zwave_repair")
    assert again["started"] is False and "already running" in again["summary"]
    status = await ok(call_tool, "hub_get_zwave_repair_status")
    assert status["running"] is True and "Repairing node" in status["progress"]


async def test_repair_respects_write_master(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOW_WRITE

    await add_entry(hass, hub, options={OPT_ALLOW_WRITE: False})
    before = len(hub.requests)
    await refused(call_tool, "hub_start_zwave_repair", {}, "writes_disabled")
    assert hub.requests[before:] == []
    assert (await ok(call_tool, "hub_get_zwave_repair_status"))["running"] is False


async def test_zwave_inclusion_exclusion_and_node_actions(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The notes and the busy hint the model sees (the operations:
    tests/managers/test_radios.py)."""
    started = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"}
    )
    assert hub.ops.zwave_mode == "including" and "pairing mode" in started["note"]
    busy = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"}
    )
    assert "including is running" in busy["message"]
    assert "action=inclusion_stop/exclusion_stop" in busy["hint"]
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_stop"})
    excluding = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"}
    )
    assert "include=[exclusion]" in excluding["note"]
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_stop"})
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    node = next(n for n in details["zwave"]["nodes"] if n["nodeState"] == "OK" and n["nodeId"] > 1)
    refreshed = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_refresh", "node_id": node["nodeId"]},
    )
    assert refreshed["device_id"] == node["deviceId"]


async def test_delete_failed_zwave_node(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The confirm gate, the hint for a working node and the answer (the removal:
    tests/managers/test_radios.py)."""
    failed = next(iter(hub.ops.failed_zwave_nodes))
    gate = await refused(call_tool, "hub_delete_zwave_node", {"node_id": failed})
    assert gate["error"] == "confirmation_required"
    hub.mark_backup_now()
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    working = next(
        n for n in details["zwave"]["nodes"] if n["nodeState"] == "OK" and n["nodeId"] > 1
    )
    before = len(hub.ops.radio_calls)
    alive = await refused(
        call_tool, "hub_delete_zwave_node", {"node_id": working["nodeId"], "confirm": True}
    )
    assert "exclusion_start" in alive["hint"] and hub.ops.radio_calls[before:] == []
    device_id = next(
        n["device_id"] for n in details["zwave"]["failed_nodes"] if n["node_id"] == failed
    )
    removed = await ok(call_tool, "hub_delete_zwave_node", {"node_id": failed, "confirm": True})
    assert removed["removed"] is True and removed["device_id"] == device_id
    assert device_id not in hub.state.devices


async def test_radio_actions_respect_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    failed = next(iter(hub.ops.failed_zwave_nodes))
    node_device = next(
        d
        for d in hub.state.devices.values()
        if d.driver.protocol == "zwave" and d.parent_id is None and int(d.dni, 16) == failed
    )
    other = next(
        d for d in hub.state.devices.values() if d.id != node_device.id and d.parent_id is None
    )
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(other.id)]})
    hub.mark_backup_now()
    start = len(hub.ops.radio_calls)
    refresh = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_refresh", "node_id": failed},
    )
    assert refresh["error"] == "device_not_allowed"
    exclusion = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"}
    )
    assert exclusion["error"] == "device_not_allowed"
    removal = await refused(
        call_tool, "hub_delete_zwave_node", {"node_id": failed, "confirm": True}
    )
    assert removal["error"] == "device_not_allowed"
    assert hub.ops.radio_calls[start:] == [] and node_device.id in hub.state.devices
    # inclusion only adds devices: still allowed
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"})


async def test_zwave_settings_effect_check_reaches_the_answer(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A success the hub did not apply, as the model sees it (every check of the Z-Wave
    settings: tests/managers/test_radio_settings.py)."""
    hub.mark_backup_now()
    args = {"radio": "zwave", "long_range_channel": 1, "confirm": True}
    hub.ops.settings_ignored = True
    lied = await refused(call_tool, "hub_update_radio_settings", args, "hub_bad_response")
    assert "long_range_channel" in lied["message"]


async def test_s2_grant_a_subset_of_the_requested_keys(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's check of the key names, and a subset passed on to the manager (every
    check of the keys: tests/managers/test_radio_zwave.py)."""
    rs = hub.ops.radio_state
    rs.s2_device = True
    action = {"radio": "zwave", "action": "s2_grant_keys"}
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"})
    before = len(hub.ops.radio_calls)
    bad = await refused(call_tool, "hub_call_radio_action", {**action, "s2_keys": ["S3"]})
    assert bad["error"] == "invalid_arguments"
    wrong = await refused(call_tool, "hub_call_radio_action", {**action, "s2_keys": ["S0"]})
    assert "did not ask for S0" in wrong["message"] and "include=[inclusion]" in wrong["hint"]
    assert hub.ops.radio_calls[before:] == []
    granted = await ok(
        call_tool, "hub_call_radio_action", {**action, "s2_keys": ["S2 Authenticated"]}
    )
    assert granted["granted_keys"] == ["S2 Authenticated"]
    assert granted["refused_keys"] == ["S2 Access Control"]
    assert rs.s2_granted == ["S2Authenticated"]
