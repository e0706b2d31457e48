"""The device filters (``managers/devices/filters.py``) on their own, no hass: the lights
notion, the attribute comparators and the text match, through ``DeviceManager.list_devices``
over the seeded home.

Moved from tests/tools/test_device_filters.py (the filtering is the manager's; the tool's
argument refusals stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.models import DeviceSummary
from custom_components.hubitat_dev_tools.managers.devices import (
    AttributeCondition,
    DeviceFilter,
    is_light,
)
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..home_util import dev_id

# The seeded home, as the lights rule sorts it (managers/devices/filters.py).
LIGHTS = {
    "Kitchen Light",  # Generic Z-Wave Dimmer: Switch/SwitchLevel, no Light capability
    "Kitchen Island Pendants",  # RGBW: the Light capability
    "Living Room Lamp",
    "Living Room Dimmer",  # Generic Z-Wave Smart Dimmer
    "Dining Chandelier",
    "Master Bedroom Lamp",  # CT bulb
    "Master Bedroom Ceiling Light",  # Generic Z-Wave Switch labelled a light
    "Guest Lamp",
    "Office Light",
    "Office Desk Lamp",
    "Garage Light",
    "Basement Light",
    "Porch Light",
}
NOT_LIGHTS = {
    "Coffee Maker",  # Generic Zigbee Outlet
    "TV Outlet",
    "Office Monitor Outlet",
    "Holiday Lights",  # a Switch on an outlet driver: the plug is not a light
    "Living Room Fan",  # fan controller (Switch + FanControl)
    "Living Room Shades",  # SwitchLevel on a shade
    "Basement Double Plug",
    "Dehumidifier",  # Generic Component Metering Switch
    "Chest Freezer",
    "Vacation Mode",  # Virtual Switch
    "Guest Mode",
    "Water Main Valve",
    "Kitchen Motion",
}


def _condition(comparator: str, *values: Any) -> AttributeCondition:
    """A checked comparison, as the list tool builds it from value(s) and comparator."""
    condition = AttributeCondition(comparator, list(values))
    condition.validate(values_arg="values")
    return condition


async def _labels(hub: Hub, **filters: Any) -> set[str]:
    return {d.label for d in await hub.devices.list_devices(DeviceFilter(**filters))}


async def test_lights_are_bulbs_dimmers_and_light_switches(manager_hub: Hub) -> None:
    lights = await _labels(manager_hub, capability="Light")
    assert lights == LIGHTS
    assert not lights & NOT_LIGHTS
    assert await _labels(manager_hub, capability="lights") == LIGHTS
    kitchen = await _labels(manager_hub, capability="light", room="Kitchen")
    assert kitchen == {"Kitchen Light", "Kitchen Island Pendants"}
    # other capabilities are still matched exactly
    assert "Holiday Lights" in await _labels(manager_hub, capability="Outlet")


def test_lights_rule_by_capability_and_driver_words() -> None:
    def dev(label: str, type_: str, *caps: str) -> DeviceSummary:
        return DeviceSummary(id="1", label=label, name=label, type=type_, capabilities=list(caps))

    assert is_light(dev("Hall", "Some Driver", "Light"))
    assert is_light(dev("Hall", "Acme Color Strip", "Switch", "ColorControl"))
    assert is_light(dev("Hall", "Acme Zigbee Bulb", "SwitchLevel"))
    assert is_light(dev("Fan Light", "Generic Component Dimmer", "Switch", "SwitchLevel"))
    assert is_light(dev("Stair Nightlight", "Generic Z-Wave Switch", "Switch"))
    assert not is_light(dev("Ceiling Fan", "Hampton Bay Fan Controller", "Switch", "SwitchLevel"))
    assert not is_light(dev("Tree Lights", "Smart Plug", "Switch"))
    assert not is_light(dev("Lightning Detector", "Acme Sensor", "Switch"))
    assert not is_light(dev("Shade", "Acme Shade", "SwitchLevel", "WindowShade"))
    assert not is_light(dev("Lamp", "Acme Sensor", "TemperatureMeasurement"))


async def test_attribute_comparators(manager_hub: Hub) -> None:
    listed = await manager_hub.devices.list_devices(DeviceFilter(attribute="battery"))
    battery = {d.label: d.states["battery"] for d in listed}
    assert battery["Kitchen Motion"] == 87

    async def check(comparator: str, values: list[Any], wanted: set[str]) -> None:
        got = await _labels(
            manager_hub, attribute="battery", condition=_condition(comparator, *values)
        )
        assert got == wanted, (comparator, values)
        assert wanted, (comparator, values)  # the seeded home has a device on each side

    await check("lt", [90], {k for k, v in battery.items() if v < 90})
    await check("lt", ["20"], {k for k, v in battery.items() if v < 20})  # numeric text
    await check("lte", [90], {k for k, v in battery.items() if v <= 90})
    await check("gt", [90], {k for k, v in battery.items() if v > 90})
    await check("gte", [90], {k for k, v in battery.items() if v >= 90})
    await check("between", [20, 50], {k for k, v in battery.items() if 20 <= v <= 50})
    await check("between", [50, 20], {k for k, v in battery.items() if 20 <= v <= 50})
    await check("ne", [100], {k for k, v in battery.items() if v != 100})
    await check("eq", [87], {k for k, v in battery.items() if v == 87})
    # eq/ne on text, several values
    on_off = await _labels(manager_hub, attribute="switch", condition=_condition("eq", "ON", "off"))
    assert on_off == await _labels(manager_hub, attribute="switch")
    locked = await _labels(manager_hub, attribute="lock", condition=_condition("ne", "unlocked"))
    assert "Front Door Lock" in locked
    # combined with the lights notion
    dim = await _labels(
        manager_hub, capability="light", attribute="level", condition=_condition("lt", 70)
    )
    assert dim and dim <= LIGHTS


async def test_text_matches_label_name_type_or_id(emu: HubEmulator, manager_hub: Hub) -> None:
    # a device renamed on its page: its label and name no longer say its driver
    emu.device_obj(dev_id(emu, "Coffee Maker")).name = "Kitchen Coffee Plug"
    devices = await manager_hub.devices.list_devices(DeviceFilter())

    def having(part: str) -> set[str]:
        return {
            d.label
            for d in devices
            if any(part in str(v or "").lower() for v in (d.label, d.name, d.type))
        }

    # the driver's name finds devices whose label and name do not say it
    outlets = await _labels(manager_hub, text="ZIGBEE outlet")
    assert outlets == having("zigbee outlet")
    assert {"Coffee Maker", "TV Outlet", "Office Monitor Outlet"} <= outlets
    coffee = next(d for d in devices if d.label == "Coffee Maker")
    assert "zigbee outlet" not in f"{coffee.label} {coffee.name}".lower()
    # only the type of the Zooz plug says "advanced"
    assert await _labels(manager_hub, text="Plug Advanced") == {"Basement Double Plug"}
    dimmers = await _labels(manager_hub, text="z-wave dimmer")
    assert "Kitchen Light" in dimmers and dimmers == having("z-wave dimmer")
    # label parts and the exact id still match; a word in no field matches nothing
    assert "Kitchen Light" in await _labels(manager_hub, text="kitchen li")
    kitchen_id = dev_id(emu, "Kitchen Light")
    assert await _labels(manager_hub, text=kitchen_id) >= {"Kitchen Light"}
    assert await _labels(manager_hub, text="no such driver anywhere") == set()

    def dev(type_: str | None) -> DeviceSummary:
        return DeviceSummary(id="7", label="Hall", name="Hall", type=type_, capabilities=[])

    assert DeviceFilter(text="acme BULB").matches(dev("Acme Bulb Driver"))
    assert not DeviceFilter(text="acme bulb").matches(dev("Other Driver"))
    assert not DeviceFilter(text="acme").matches(dev(None))  # no type: label/name only
    assert DeviceFilter(text="#7").matches(dev(None))


def test_numeric_text_compares_as_numbers() -> None:
    low = DeviceSummary(id="1", label="Low", name="", states={"battery": "9"})
    high = DeviceSummary(id="2", label="High", name="", states={"battery": "10.5"})
    odd = DeviceSummary(id="3", label="Odd", name="", states={"battery": "unknown"})
    flt = DeviceFilter(attribute="battery", condition=AttributeCondition("lt", ["10"]))
    flt.check([low, high, odd])  # some values are numbers: no refusal
    assert [d.label for d in (low, high, odd) if flt.matches(d)] == ["Low"]
    with pytest.raises(ToolError, match="'battery' is text"):
        flt.check([odd])


async def test_numeric_comparator_on_text_attribute_is_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = len(emu.requests)
    flt = DeviceFilter(attribute="switch", condition=_condition("gt", 1))
    with pytest.raises(ToolError) as refused:
        await manager_hub.devices.list_devices(flt)
    message = str(refused.value)
    assert "'switch' is text" in message and "on" in message and "eq or ne" in message
    assert [m for m, _p in emu.requests[before:] if m != "GET"] == []  # a read, no write
