"""Operations endpoints: memory history, radios, Z-Wave repair, firmware, restore, shutdown."""

from __future__ import annotations

import asyncio

import aiohttp

from hubitat_emulator import HubEmulator

from .conftest import eventually, get_json


async def test_memory_history_csv(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    async with session.get(f"{hub.url}/hub/advanced/freeOSMemoryHistory") as resp:
        assert resp.headers["Content-Type"].startswith("text/plain")
        lines = (await resp.text()).strip().splitlines()
    assert lines[0] == "Date/time,Free OS,5m CPU avg,Total Java,Free Java,Direct Java"
    assert len(lines) > 10 and len(lines[1].split(",")) == 6
    async with session.get(f"{hub.url}/hub/advanced/freeOSMemoryLast") as resp:
        assert (await resp.text()).strip() == lines[-1]


async def test_alert_overrides_in_hub_data(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    hub.ops.alerts["hubLowMemory"] = True
    data = await get_json(session, f"{hub.url}/hub2/hubData")
    assert data["alerts"]["hubLowMemory"] is True and data["alerts"]["zwaveOffline"] is False


async def test_radio_details(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    zw = await get_json(session, f"{hub.url}/hub/zwaveDetails/json")
    states = {n["nodeId"]: n["nodeState"] for n in zw["nodes"]}
    assert states[1] == "OK" and next(iter(hub.ops.failed_zwave_nodes)) in states
    assert "FAILED" in states.values() and zw["healthy"] is False
    zb = await get_json(session, f"{hub.url}/hub/zigbeeDetails/json")
    assert zb["channel"] == 20 and zb["devices"] and zb["networkState"] == "ONLINE"
    assert (await get_json(session, f"{hub.url}/hub/matterDetails/json"))["devices"]
    hub.ops.matter = False
    async with session.get(f"{hub.url}/hub/matterDetails/json") as resp:
        assert resp.status == 404


async def test_zwave_repair_trigger(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    hub.ops.repair_step = 0.05
    assert (await get_json(session, f"{hub.url}/hub/zwaveRepair2"))["success"] is True
    again = await get_json(session, f"{hub.url}/hub/zwaveRepair2")
    assert again == {"success": False, "message": "Inclusion or rebuild is already running"}
    running = await get_json(session, f"{hub.url}/hub/checkZwaveRepairRunning")
    assert running == {"isZWaveNetworkHealRunning": "true"}
    await eventually(lambda: not hub.ops.repair_running, timeout=5)
    status = await get_json(session, f"{hub.url}/hub/zwaveRepair2Status")
    assert status["stage"] == "IDLE" and "Finished" in status["html"]


async def test_firmware_update_and_reboot(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    none = await get_json(session, f"{hub.url}/hub/cloud/checkForUpdate")
    assert none["status"] == "NO_UPDATE_AVAILABLE" and none["accountEmails"]
    hub.ops.update_version = "2.5.1.1"
    hub.reboot_downtime = 0.1
    avail = await get_json(session, f"{hub.url}/hub/cloud/checkForUpdate")
    assert avail["status"] == "UPDATE_AVAILABLE" and avail["version"] == "2.5.1.1"
    assert (await get_json(session, f"{hub.url}/hub/cloud/updatePlatform")) == {"success": "true"}
    await eventually(lambda: hub.status == "down")
    await eventually(lambda: hub.status == "running", timeout=5)
    assert hub.state.version == "2.5.1.1"


async def test_restore_and_shutdown(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    bad = await get_json(session, f"{hub.url}/hub2/restoreLocalBackup?fileName=nope.lzf")
    assert bad["success"] is False
    hub.reboot_downtime = 0.1
    name = hub.backups[0].name
    ok = await get_json(session, f"{hub.url}/hub2/restoreLocalBackup?fileName={name}")
    assert ok == {"success": True}
    await eventually(lambda: hub.status == "down")
    await eventually(lambda: hub.status == "running", timeout=5)
    async with session.post(f"{hub.url}/hub/shutdown") as resp:
        assert resp.status == 200
    await eventually(lambda: hub.status == "down")
    await asyncio.sleep(0.3)
    assert hub.status == "down" and hub.ops.shutdown is True


async def test_zwave_settings_update_is_a_full_replacement(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    full = "enabled=true&region=USLR&secureJoin=1&longRangeChannel=1"
    assert (await get_json(session, f"{hub.url}/hub/zwaveDetails/update?{full}"))["success"]
    zw = await get_json(session, f"{hub.url}/hub/zwaveDetails/json")
    assert (zw["enabled"], zw["secureJoin"], zw["longRangeChannel"]) == (True, 1, 1)
    # a partial call (what the client used to send) turns Z-Wave and Secure Join off
    partial = "region=USLR&longRangeChannel=0"
    await get_json(session, f"{hub.url}/hub/zwaveDetails/update?{partial}")
    zw = await get_json(session, f"{hub.url}/hub/zwaveDetails/json")
    assert (zw["enabled"], zw["secureJoin"], zw["longRangeChannel"]) == (False, 0, 0)
    bad = await get_json(session, f"{hub.url}/hub/zwaveDetails/update?region=XX")
    assert bad["success"] is False


async def test_zwave_repair_by_model(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    assert (await get_json(session, f"{hub.url}/hub/zwaveDetails/json"))["zwaveIP"] is True
    async with session.get(f"{hub.url}/hub/zwaveRepair") as resp:
        assert resp.status == 404  # C-7 and later: zwaveRepair2
    hub.state.model = "C-5"
    hub.ops.repair_step = 0.05
    assert (await get_json(session, f"{hub.url}/hub/zwaveDetails/json"))["zwaveIP"] is False
    for path in ("/hub/zwaveRepair2", "/hub/zwaveRepair2Status", "/hub/zwaveTopology"):
        async with session.get(f"{hub.url}{path}") as resp:
            assert resp.status == 404, path
    assert (await get_json(session, f"{hub.url}/hub/zwaveRepair"))["success"] is True
    running = await get_json(session, f"{hub.url}/hub/checkZwaveRepairRunning")
    assert running == {"isZWaveNetworkHealRunning": "true"}
    await eventually(lambda: not hub.ops.repair_running, timeout=5)


async def test_zigbee_channel_scan_page_and_slow_json(
    hub: HubEmulator, session: aiohttp.ClientSession
) -> None:
    async with session.get(f"{hub.url}/hub/zigbeeChannelScan") as resp:
        assert resp.headers["Content-Type"].startswith("text/html")
        assert "/hub/zigbeeChannelScanJson" in await resp.text()
    hub.ops.channel_scan_s = 0.3
    loop = asyncio.get_running_loop()
    began = loop.time()
    rows = await get_json(session, f"{hub.url}/hub/zigbeeChannelScanJson")
    assert loop.time() - began >= 0.3
    assert isinstance(rows, list) and {r["channel"] for r in rows} == {15, 20, 25}
    assert set(rows[0]) == {"channel", "lastHopRssi", "lastHopLqi", "panId", "extendedPanId"}
