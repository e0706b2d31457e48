"""The seeded home and device-count padding."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hubitat_emulator import HubEmulator, seed_home
from hubitat_emulator.catalog import DRIVERS

from .conftest import get_json, make_session, maker


def test_seeded_home_contents() -> None:
    st = seed_home(1)
    devs = list(st.devices.values())
    assert len(devs) >= 45
    assert len(st.rooms) == 9
    assert {r.name for r in st.rooms.values()} >= {"Kitchen", "Office", "Garage", "Front Porch"}
    assert sum(1 for d in devs if d.room_id is None) >= 3
    assert sum(1 for d in devs if d.disabled) == 1
    low = [
        d for d in devs if isinstance(d.value("battery"), int) and int(str(d.value("battery"))) < 20
    ]
    assert len(low) >= 3
    now = datetime.now(UTC)
    stale = [d for d in devs if d.last_activity and now - d.last_activity > timedelta(days=3)]
    assert len(stale) >= 3
    parents = [d for d in devs if st.children_of(d.id)]
    assert any(len(st.children_of(p.id)) == 2 for p in parents)
    caps = {c for d in devs for c in d.driver.capabilities}
    for cap in (
        "ColorControl",
        "ColorTemperature",
        "PowerMeter",
        "EnergyMeter",
        "Lock",
        "LockCodes",
        "GarageDoorControl",
        "Valve",
        "Alarm",
        "SecurityKeypad",
        "Thermostat",
        "WaterSensor",
        "SmokeDetector",
        "CarbonMonoxideDetector",
        "PushableButton",
        "HoldableButton",
        "PresenceSensor",
        "FanControl",
        "WindowShade",
        "RelativeHumidityMeasurement",
        "IlluminanceMeasurement",
    ):
        assert cap in caps, cap
    assert all(d.driver.id in DRIVERS for d in devs)
    zwave = [d for d in devs if d.driver.protocol == "zwave"]
    assert all(int(d.dni, 16) > 0 for d in zwave)
    assert [m.name for m in st.modes] == ["Day", "Evening", "Night", "Away"]
    assert st.current_mode.name in {"Day", "Evening", "Night"} and st.hsm_status == "disarmed"
    assert len(st.variables) >= 8
    assert any(d.apps_using for d in devs)
    lock = next(d for d in devs if d.label == "Front Door Lock")
    assert "Alice" in str(lock.value("lockCodes"))


def test_seed_is_deterministic() -> None:
    a, b = seed_home(3), seed_home(3)
    assert [(d.id, d.label, d.dni) for d in a.devices.values()] == [
        (d.id, d.label, d.dni) for d in b.devices.values()
    ]
    assert a.hub_uid == b.hub_uid != seed_home(4).hub_uid


def test_device_count_pads_and_trims() -> None:
    big = seed_home(1, 500)
    assert len(big.devices) == 500
    labels = [d.label for d in big.devices.values()]
    assert len(set(labels)) == 500
    small = seed_home(1, 10)
    assert len(small.devices) <= 10
    assert all(d.parent_id is None or d.parent_id in small.devices for d in small.devices.values())


async def test_500_device_hub_serves_fast(socket_enabled: None) -> None:
    emu = HubEmulator(device_count=500)
    await emu.start()
    try:
        async with make_session() as s:
            t0 = datetime.now(UTC)
            tree = await get_json(s, f"{emu.url}/hub2/devicesList")
            everything = await get_json(s, maker(emu, "/devices/all"))
            assert datetime.now(UTC) - t0 < timedelta(seconds=2)
        assert len(everything) == 500
        count = 0
        stack = list(tree["devices"])
        while stack:
            node = stack.pop()
            count += 1
            stack += node["children"]
        assert count == 500
    finally:
        await emu.stop()
