"""The radio manager (``managers/radios.py``) on its own, no hass: the three radios' details
(failed Z-Wave nodes first, a radio's counter older than its device's last report said so,
one node, the route table, a hub without Matter), each operation checked before anything is
sent (the radio's own actions, the node, the setup code, a C-7-only action on a C-5), the
Zigbee and Matter operations, the Z-Wave repair (the C-7 kind and the C-5 kind, an already
running one reported, never restarted), inclusion, exclusion and the node operations, the
removal of a failed node only, and a node outside the device allowlist refused, over the
emulated hub and the recorded hub answers. The hub library's own reading of those answers
(the operations' answers, which repair a hub takes, the query values) and the emulated
hub's write answers in the recorded shapes are tested in tests/hub/test_radios.py.

Moved from tests/tools/test_radios.py, tests/tools/test_radios_zwave.py and
tests/tools/test_radios_more.py (the radio logic is the manager's; the tools' argument checks,
the confirm and backup gate, the write switch, the device allowlist as the tools apply it,
and the notes and hints that name the next tool stay there)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import (
    HubBadResponseError,
    HubFirmwareError,
    HubNotFoundError,
    HubRefusedError,
)
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..ops_util import FixtureClient, fixture_manager, radio_manager


async def act(
    manager_hub: Hub,
    radio: str,
    action: str,
    node_id: int | None = None,
    setup_code: str | None = None,
) -> dict[str, Any]:
    return await manager_hub.radios.radio_action(radio, action, node_id, setup_code)


async def zwave_details(manager_hub: Hub) -> dict[str, Any]:
    zwave: dict[str, Any] = (await manager_hub.radios.details("zwave", None, False, 100))["zwave"]
    return zwave


def zwave_mode(emu: HubEmulator) -> str | None:
    """The emulated Z-Wave mode read afresh: mypy keeps an attribute narrowed across awaits."""
    return emu.ops.zwave_mode


# ------------------------------------------------------------------ details


async def test_details_of_all_three_radios(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await manager_hub.radios.details("all", None, False, 100)
    zw, zb, mt = data["zwave"], data["zigbee"], data["matter"]
    failed_node = next(iter(emu.ops.failed_zwave_nodes))
    assert zw["healthy"] is False and zw["firmware"] == "7.18"
    assert [n["node_id"] for n in zw["failed_nodes"]] == [failed_node]
    assert zw["nodes"][0]["nodeId"] == failed_node  # problem nodes first
    # the failed node's radio counter is days old while its device reported since: said so
    stale = zw["nodes"][0]
    assert stale["device_last_activity"] > stale["lastReceived"]
    assert "newer truth" in stale["last_heard_note"]
    assert all("last_heard_note" not in n for n in zw["nodes"][1:])
    assert zb["channel"] == 20 and zb["pan_id"] == "37D5" and zb["network_state"] == "ONLINE"
    assert zb["device_count"] > 0
    assert mt["available"] is True and mt["device_count"] == 1


async def test_details_of_one_radio_and_node(emu: HubEmulator, manager_hub: Hub) -> None:
    node = next(iter(emu.ops.failed_zwave_nodes))
    data = await manager_hub.radios.details("zwave", node, True, 100)
    assert set(data) == {"zwave"} and [n["nodeId"] for n in data["zwave"]["nodes"]] == [node]
    assert "01" in data["zwave"]["topology"]
    emu.ops.matter = False
    matter = await manager_hub.radios.details("matter", None, False, 100)
    assert matter["matter"]["available"] is False


async def test_radio_details_from_the_fixtures() -> None:
    manager, _fake = fixture_manager(
        {
            "/hub/zwaveDetails/json": "radios/zwave_details",
            "/hub/zwaveTopology": "radios/zwave_topology",
            "/hub/zigbeeDetails/json": "radios/zigbee_details",
            "/hub/matterDetails/json": "radios/matter_details",
        }
    )
    data = await manager.details("all", None, True, 100)
    zw, zb, mt = data["zwave"], data["zigbee"], data["matter"]
    assert [n["node_id"] for n in zw["failed_nodes"]] == [13] and zw["secure_join"] == 1
    assert zw["nodes"][0]["nodeId"] == 13 and zw["topology"].startswith("0C: 01")
    assert zw["region"] == "USLR" and zw["long_range_channel"] == 255
    assert zb["channel"] == 20 and zb["devices"][0]["shortZigbeeId"] == "8A1C"
    assert mt["offline_devices"] == ["Desk Bulb"] and mt["device_count"] == 2


# ------------------------------------------------------------------ operations


async def test_radio_action_validation_sends_nothing(emu: HubEmulator, manager_hub: Hub) -> None:
    start = len(emu.requests)
    for radio, action, node_id, setup_code in (
        ("zigbee", "inclusion_start", None, None),  # not a Zigbee action
        ("zwave", "node_refresh", None, None),  # needs a node
        ("zwave", "inclusion_start", 5, None),  # takes none
        ("zwave", "node_refresh", 999, None),  # no such node
        ("zwave", "node_refresh", 1, None),  # the hub's own controller
        ("matter", "pair", None, None),  # needs its setup code
        ("matter", "pair", None, "12345678901x"),
        ("matter", "open_pairing_window", 7, None),  # no such Matter node
    ):
        with pytest.raises(ToolError) as err:
            await act(manager_hub, radio, action, node_id, setup_code)
        assert err.value.code == "invalid_request", (action, err.value)
    # only reads of the radio lists went out: no operation endpoint was called
    sent = {p.split("?")[0] for _m, p in emu.requests[start:]}
    assert sent <= {"/hub/zwaveDetails/json", "/hub/matterDetails/json"}, sent


async def test_zigbee_and_matter_actions(emu: HubEmulator, manager_hub: Hub) -> None:
    rebuilt = await act(manager_hub, "zigbee", "rebuild_network")
    assert rebuilt["summary"] == "zigbee rebuild_network: done"
    assert emu.ops.radio_calls[-1] == "/hub/rebuildZigbeeNetwork"
    paired = await act(manager_hub, "matter", "pair", setup_code="3497-011-2332")
    assert paired["action"] == "pair"
    assert emu.requests[-1][1].endswith("setupCode=34970112332")
    window = await act(manager_hub, "matter", "open_pairing_window", 3001)
    assert window["setup_code"] == "34970112332"
    emu.ops.matter = False
    with pytest.raises(ToolError) as err:
        await act(manager_hub, "matter", "open_pairing_window", 3001)
    assert "no Matter" in str(err.value)


async def test_matter_pair_on_a_hub_without_matter(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.ops.matter = False
    with pytest.raises(HubNotFoundError) as err:
        await act(manager_hub, "matter", "pair", setup_code="34970112332")
    assert err.value.code == "not_found" and "C-8" in str(err.value.hint)


async def test_radio_trigger_is_not_retried(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.faults.fail_paths = {"/hub/startZwaveJoin": 503}
    with pytest.raises(HubBadResponseError) as err:
        await act(manager_hub, "zwave", "inclusion_start")
    assert err.value.code == "hub_bad_response"
    assert len([p for _m, p in emu.requests if p.startswith("/hub/startZwaveJoin")]) == 1


async def test_matter_setup_code_from_the_fixture() -> None:
    manager, fake = fixture_manager(
        {
            "/hub/matterDetails/json": "radios/matter_details",
            "/hub/matter/openPairingWindow": "radios/matter_setup_code",
        }
    )
    window = await manager.radio_action("matter", "open_pairing_window", 3001, None)
    assert window["setup_code"] == "34970112332"
    assert fake.sent[-1] == ("/hub/matter/openPairingWindow", {"node": "3001"})


# ------------------------------------------------------------------ the Z-Wave repair


async def test_zwave_repair_start_progress_and_already_running(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    radios = manager_hub.radios
    emu.ops.repair_step = 0.2
    idle = await radios.repair_status()
    assert idle["running"] is False
    started = await radios.start_repair()
    assert started["started"] is True and started["running"] is True
    assert started["summary"] == "Z-Wave repair started"
    again = await radios.start_repair()
    assert again["started"] is False and "already running" in again["summary"]
    status = await radios.repair_status()
    assert status["running"] is True and "Repairing node" in status["progress"]
    emu.ops.repair_step = 0.0
    for _ in range(200):
        if not emu.ops.repair_running:
            break
        await asyncio.sleep(0.05)
    done = await radios.repair_status()
    assert done["running"] is False and "Finished" in done["progress"]


async def test_repair_from_the_fixtures_modern_and_c5() -> None:
    paths = {
        "/hub/zwaveDetails/json": "radios/zwave_details",
        "/hub/zwaveRepair2": "radios/zwave_repair_start",
        "/hub/zwaveRepair2Status": "radios/zwave_repair_status",
    }
    manager, fake = fixture_manager(paths)
    started = await manager.start_repair()
    assert started["started"] is True and started["running"] is False  # the fixture: IDLE
    assert ("/hub/zwaveRepair2", {"resetStats": "false", "maxHealth": "10"}) in fake.sent
    # a C-5 (flags off): checkZwaveRepairRunning first, then zwaveRepair; status by the flag
    legacy = {**load_fixture("radios/zwave_details").answer, "zwaveIP": False}
    c5 = FixtureClient(
        {
            "/hub/zwaveDetails/json": legacy,
            "/hub/checkZwaveRepairRunning": load_fixture("radios/zwave_repair_running").answer,
            "/hub/zwaveRepair": load_fixture("radios/zwave_repair_start").answer,
        }
    )
    started = await radio_manager(c5).start_repair()
    assert started["started"] is True and started["running"] is False
    assert [p for p, _ in c5.sent] == [
        "/hub/zwaveDetails/json",
        "/hub/checkZwaveRepairRunning",
        "/hub/zwaveRepair",
        "/hub/checkZwaveRepairRunning",
    ]


async def test_zwave_repair_on_a_c5(emu: HubEmulator, manager_hub: Hub) -> None:
    radios = manager_hub.radios
    emu.state.model = "C-5"
    emu.ops.repair_step = 0.2
    start = len(emu.requests)
    started = await radios.start_repair()
    assert started["started"] is True and started["running"] is True
    sent = [p.split("?")[0] for _m, p in emu.requests[start:]]
    assert "/hub/zwaveRepair" in sent and "/hub/zwaveRepair2" not in sent
    again = await radios.start_repair()
    assert again["started"] is False
    status = await radios.repair_status()
    assert status["running"] is True and status["stage"] is None
    with pytest.raises(HubFirmwareError) as cancel:
        await act(manager_hub, "zwave", "repair_cancel")
    assert cancel.value.code == "firmware_unsupported"
    details = await radios.details("zwave", None, True, 100)
    assert details["zwave"]["topology_unavailable"] == "firmware_unsupported"
    assert not any(p.startswith("/hub/zwaveRepair2") for _m, p in emu.requests[start:])


async def test_zwave_repair_modern_sends_what_the_hub_ui_sends(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    start = len(emu.requests)
    await manager_hub.radios.start_repair()
    sent = [p for _m, p in emu.requests[start:]]
    assert "/hub/zwaveRepair2?resetStats=false&maxHealth=10" in sent
    assert "/hub/zwaveRepair" not in [p.split("?")[0] for p in sent]
    await act(manager_hub, "zwave", "repair_cancel")
    assert emu.ops.repair_running is False


# ------------------------------------------------------------------ inclusion and nodes


async def test_zwave_inclusion_exclusion_and_node_actions(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    started = await act(manager_hub, "zwave", "inclusion_start")
    assert emu.ops.zwave_mode == "including"
    assert started["summary"] == "zwave inclusion_start: done"
    with pytest.raises(HubRefusedError) as busy:
        await act(manager_hub, "zwave", "exclusion_start")
    assert "including is running" in str(busy.value) and busy.value.subject == "radio_busy"
    await act(manager_hub, "zwave", "inclusion_stop")
    await act(manager_hub, "zwave", "exclusion_start")
    assert emu.ops.zwave_mode == "excluding"
    await act(manager_hub, "zwave", "exclusion_stop")
    assert zwave_mode(emu) is None
    details = await zwave_details(manager_hub)
    node = next(n for n in details["nodes"] if n["nodeState"] == "OK" and n["nodeId"] > 1)
    refreshed = await act(manager_hub, "zwave", "node_refresh", node["nodeId"])
    assert refreshed["device_id"] == node["deviceId"]
    assert emu.ops.radio_calls[-1] == "/hub/zwave/refreshNodeStatus"


async def test_node_repair_replace_and_stats(emu: HubEmulator, manager_hub: Hub) -> None:
    details = await zwave_details(manager_hub)
    failed = details["failed_nodes"][0]["node_id"]
    working = next(
        n["nodeId"] for n in details["nodes"] if n["nodeId"] != failed and n.get("listening")
    )
    # one node's repair: only a working, listening node
    before = len(emu.ops.radio_calls)
    with pytest.raises(ToolError):
        await act(manager_hub, "zwave", "node_repair", failed)
    assert emu.ops.radio_calls[before:] == []
    await act(manager_hub, "zwave", "node_repair", working)
    assert f"/hub/zwaveNodeRepair2?zwaveNodeId={working}" in emu.ops.radio_calls
    # replace: only a failed node
    before = len(emu.ops.radio_calls)
    with pytest.raises(ToolError):
        await act(manager_hub, "zwave", "node_replace", working)
    assert emu.ops.radio_calls[before:] == []
    replace = await act(manager_hub, "zwave", "node_replace", failed)
    assert replace["replace"]["running"] is True
    status = await manager_hub.radios.details("zwave", None, False, 100, ("node_replace",))
    assert status["node_replace"]["status"] == "Waiting for the device"
    await act(manager_hub, "zwave", "node_replace_stop")
    assert emu.ops.radio_state.replace["running"] is False
    before = emu.ops.radio_state.stats_refreshes
    await act(manager_hub, "zwave", "stats_refresh")
    assert emu.ops.radio_state.stats_refreshes == before + 1


async def test_antenna_test(emu: HubEmulator, manager_hub: Hub) -> None:
    details = await zwave_details(manager_hub)
    node = next(n["nodeId"] for n in details["nodes"][1:] if n.get("listening"))
    await act(manager_hub, "zwave", "antenna_test_start", node)

    async def read() -> dict[str, Any]:
        seen = await manager_hub.radios.details("zwave", None, False, 100, ("antenna_test",))
        block: dict[str, Any] = seen["antenna_test"]
        return block

    waiting = await read()
    assert waiting["stage"] == "WAITING_FOR_USER" and "Disconnect" in waiting["message"]
    assert "antenna_test_continue" in waiting["next"]
    await act(manager_hub, "zwave", "antenna_test_continue")
    done = await read()
    assert done["stage"] == "FINISHED" and done["rssi_without_antenna"] == "-71"


async def test_node_actions_refused_on_a_c5(emu: HubEmulator, manager_hub: Hub) -> None:
    emu.state.model = "C-5"
    before = len(emu.ops.radio_calls)
    with pytest.raises(HubFirmwareError) as err:
        await act(manager_hub, "zwave", "stats_refresh")
    assert err.value.code == "firmware_unsupported"
    assert emu.ops.radio_calls[before:] == []


async def test_delete_failed_zwave_node(emu: HubEmulator, manager_hub: Hub) -> None:
    failed = next(iter(emu.ops.failed_zwave_nodes))
    details = await zwave_details(manager_hub)
    working = next(n for n in details["nodes"] if n["nodeState"] == "OK" and n["nodeId"] > 1)
    before = len(emu.ops.radio_calls)
    with pytest.raises(ToolError) as alive:
        await manager_hub.radios.remove_failed_node(working["nodeId"])
    assert alive.value.subject == "zwave_node_not_failed"
    assert emu.ops.radio_calls[before:] == []
    device_id = next(n["device_id"] for n in details["failed_nodes"] if n["node_id"] == failed)
    removed = await manager_hub.radios.remove_failed_node(failed)
    assert removed["removed"] is True and removed["device_id"] == device_id
    assert device_id not in emu.state.devices and failed not in emu.ops.failed_zwave_nodes


async def test_node_operations_refuse_a_device_outside_the_allowlist(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """New: the manager's own refusal of a node whose device is not allowed (how the tools
    pass their allowlist: tests/tools/test_radios_zwave.py)."""
    failed = next(iter(emu.ops.failed_zwave_nodes))
    node_device = next(
        d
        for d in emu.state.devices.values()
        if d.driver.protocol == "zwave" and d.parent_id is None and int(d.dni, 16) == failed
    )

    def allowed(device_id: str) -> bool:
        return device_id != str(node_device.id)

    radios = manager_hub.radios
    start = len(emu.ops.radio_calls)
    with pytest.raises(ToolError) as refresh:
        await radios.radio_action("zwave", "node_refresh", failed, None, device_allowed=allowed)
    assert refresh.value.code == "device_not_allowed"
    with pytest.raises(ToolError) as exclusion:
        await radios.radio_action("zwave", "exclusion_start", None, None, allowlist_active=True)
    assert exclusion.value.code == "device_not_allowed"
    with pytest.raises(ToolError) as removal:
        await radios.remove_failed_node(failed, allowed)
    assert removal.value.code == "device_not_allowed"
    assert emu.ops.radio_calls[start:] == [] and node_device.id in emu.state.devices
    # inclusion only adds devices: still allowed
    await radios.radio_action(
        "zwave", "inclusion_start", None, None, device_allowed=allowed, allowlist_active=True
    )
    assert emu.ops.zwave_mode == "including"
