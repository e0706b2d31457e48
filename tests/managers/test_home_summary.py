"""The home summary (``managers/home_summary.py``) on its own, no hass: the house at a glance
from one device list (what is open or unlocked, which lights are on by room, active motion,
low batteries below the threshold), the active mode, the HSM status and the hub's alerts,
disabled devices and devices outside the allowed ones left out, and a part the hub cannot
give said to be unavailable while the rest still answers, over the emulated hub.

New: no test checked the manager on its own (the tool, hub_get_home_summary, is tested in
tests/tools/test_experience.py, which other work owns; it stays there)."""

from __future__ import annotations

from typing import Any

from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


def every_device(_device_id: str) -> bool:
    """No device allowlist."""
    return True


def with_attribute(emu: HubEmulator, name: str) -> dict[str, Any]:
    """The first enabled emulated device that has attribute ``name``."""
    for device_id in emu.device_ids():
        device = emu.device(device_id)
        if name in device["attributes"] and not device["disabled"]:
            return device
    raise AssertionError(f"no device with {name}")


async def test_summary_says_what_is_open_on_active_and_low(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    window = emu.find_device("Living Room Window")["id"]
    emu.set_device_attribute(window, "contact", "open")
    lamp = emu.find_device("Living Room Lamp")["id"]
    emu.set_device_attribute(lamp, "switch", "on")
    lock = emu.find_device("Back Door Lock")["id"]
    emu.set_device_attribute(lock, "lock", "unlocked")
    motion = with_attribute(emu, "motion")
    emu.set_device_attribute(motion["id"], "motion", "active")
    battery = with_attribute(emu, "battery")
    emu.set_device_attribute(battery["id"], "battery", 3)
    data = await manager_hub.home.summary(device_allowed=every_device, battery_threshold=20)
    assert "Living Room Window" in data["open"] and data["open"] == sorted(data["open"])
    assert "Back Door Lock" in data["unlocked"]
    assert "Living Room Lamp" in data["lights_on"]["Living Room"]
    assert data["lights_on_count"] == sum(len(v) for v in data["lights_on"].values())
    assert motion["label"] in data["motion_active"]
    assert data["low_batteries"][0] == {"label": battery["label"], "battery": 3}
    assert all(b["battery"] < 20 for b in data["low_batteries"])
    assert [b["battery"] for b in data["low_batteries"]] == sorted(
        b["battery"] for b in data["low_batteries"]
    )
    assert data["battery_threshold_pct"] == 20 and data["devices_seen"] > 10
    assert data["mode"] == emu.current_mode
    assert data["hsm"] == {"status": emu.hsm_status, "alert": None}
    assert isinstance(data["alerts"], list) and "rules_with_findings" in data
    assert data["freshness"]["source"] == "hub" and data["freshness"]["live"] is False
    # a lower threshold leaves out what is not below it
    low = await manager_hub.home.summary(device_allowed=every_device, battery_threshold=3)
    assert battery["label"] not in [b["label"] for b in low["low_batteries"]]


async def test_disabled_and_outside_devices_are_left_out(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    window = str(emu.find_device("Living Room Window")["id"])
    emu.set_device_attribute(int(window), "contact", "open")
    lamp = emu.find_device("Living Room Lamp")["id"]
    emu.set_device_attribute(lamp, "switch", "on")
    emu.home.device_obj(lamp).disabled = True
    data = await manager_hub.home.summary(
        device_allowed=lambda device_id: device_id != window, battery_threshold=20
    )
    assert "Living Room Window" not in str(data)
    assert "Living Room Lamp" not in str(data)


async def test_a_part_the_hub_cannot_give_is_unavailable(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    window = emu.find_device("Living Room Window")["id"]
    emu.set_device_attribute(window, "contact", "open")
    emu.faults.fail_paths["/hub2/hubData"] = 500
    data = await manager_hub.home.summary(device_allowed=every_device, battery_threshold=20)
    assert data["alerts"] == {"unavailable": "hub_bad_response"}
    assert "Living Room Window" in data["open"] and data["mode"] == emu.current_mode
