"""hub_list_devices' attribute comparators and its lights notion, over the seeded home."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.models import DeviceSummary
from custom_components.hubitat_dev_tools.managers.devices import (
    AttributeCondition,
    DeviceFilter,
    is_light,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
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


async def _labels(call_tool: ToolCaller, args: dict[str, Any]) -> set[str]:
    data = await ok(call_tool, "hub_list_devices", {**args, "fields": ["label"]})
    return {d["label"] for d in data["devices"]}


async def test_lights_are_bulbs_dimmers_and_light_switches(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lights = await _labels(call_tool, {"capability": "Light"})
    assert lights == LIGHTS
    assert not lights & NOT_LIGHTS
    assert await _labels(call_tool, {"capability": "lights"}) == LIGHTS
    kitchen = await _labels(call_tool, {"capability": "light", "room": "Kitchen"})
    assert kitchen == {"Kitchen Light", "Kitchen Island Pendants"}
    # other capabilities are still matched exactly
    assert "Holiday Lights" in await _labels(call_tool, {"capability": "Outlet"})


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


async def test_attribute_comparators(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_list_devices", {"attribute": "battery"})
    battery = {d["label"]: d["states"]["battery"] for d in data["devices"]}
    assert battery["Kitchen Motion"] == 87

    async def check(comparator: str, value: Any, wanted: set[str]) -> None:
        key = "values" if isinstance(value, list) else "value"
        args = {"attribute": "battery", "comparator": comparator, key: value}
        assert await _labels(call_tool, args) == wanted, args
        assert wanted, args  # the seeded home has a device on each side

    await check("lt", 90, {k for k, v in battery.items() if v < 90})
    await check("lt", "20", {k for k, v in battery.items() if v < 20})  # numeric text
    await check("lte", 90, {k for k, v in battery.items() if v <= 90})
    await check("gt", 90, {k for k, v in battery.items() if v > 90})
    await check("gte", 90, {k for k, v in battery.items() if v >= 90})
    await check("between", [20, 50], {k for k, v in battery.items() if 20 <= v <= 50})
    await check("between", [50, 20], {k for k, v in battery.items() if 20 <= v <= 50})
    await check("ne", 100, {k for k, v in battery.items() if v != 100})
    await check("eq", 87, {k for k, v in battery.items() if v == 87})
    assert "Kitchen Motion" in await _labels(call_tool, {"attribute": "battery", "value": 87})
    # eq/ne on text, several values
    on_off = await _labels(call_tool, {"attribute": "switch", "values": ["ON", "off"]})
    assert on_off == await _labels(call_tool, {"attribute": "switch"})
    locked = await _labels(
        call_tool, {"attribute": "lock", "comparator": "ne", "value": "unlocked"}
    )
    assert "Front Door Lock" in locked
    # combined with the lights notion and a room
    dim = await _labels(
        call_tool, {"capability": "light", "attribute": "level", "comparator": "lt", "value": 70}
    )
    assert dim and dim <= LIGHTS


async def test_text_matches_label_name_type_or_id(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    # a device renamed on its page: its label and name no longer say its driver
    hub.device_obj(dev_id(hub, "Coffee Maker")).name = "Kitchen Coffee Plug"
    every = await ok(call_tool, "hub_list_devices", {"fields": ["label", "name", "type"]})
    devices = every["devices"]

    def having(part: str) -> set[str]:
        return {
            d["label"]
            for d in devices
            if any(part in str(d.get(k) or "").lower() for k in ("label", "name", "type"))
        }

    # the driver's name finds devices whose label and name do not say it
    outlets = await _labels(call_tool, {"text": "ZIGBEE outlet"})
    assert outlets == having("zigbee outlet")
    assert {"Coffee Maker", "TV Outlet", "Office Monitor Outlet"} <= outlets
    coffee = next(d for d in devices if d["label"] == "Coffee Maker")
    assert "zigbee outlet" not in f"{coffee['label']} {coffee['name']}".lower()
    # only the type of the Zooz plug says "advanced"
    assert await _labels(call_tool, {"text": "Plug Advanced"}) == {"Basement Double Plug"}
    dimmers = await _labels(call_tool, {"text": "z-wave dimmer"})
    assert "Kitchen Light" in dimmers and dimmers == having("z-wave dimmer")
    # label parts and the exact id still match; a word in no field matches nothing
    assert "Kitchen Light" in await _labels(call_tool, {"text": "kitchen li"})
    kitchen_id = dev_id(hub, "Kitchen Light")
    assert await _labels(call_tool, {"text": kitchen_id}) >= {"Kitchen Light"}
    assert await _labels(call_tool, {"text": "no such driver anywhere"}) == set()

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
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await refused(
        call_tool, "hub_list_devices", {"attribute": "switch", "comparator": "gt", "value": 1}
    )
    message = data["message"]
    assert "'switch' is text" in message and "on" in message and "eq or ne" in message


@pytest.mark.parametrize(
    ("args", "word"),
    [
        ({"attribute": "battery", "comparator": "below", "value": 9}, "comparator"),
        ({"attribute": "battery", "comparator": "between", "value": 9}, "values [low, high]"),
        ({"attribute": "battery", "comparator": "between", "values": [1, 2, 3]}, "values"),
        ({"attribute": "battery", "comparator": "between", "values": [1, "x"]}, "numbers"),
        ({"attribute": "battery", "comparator": "lt", "value": "low"}, "numeric"),
        ({"attribute": "battery", "comparator": "lt"}, "needs value"),
        ({"comparator": "lt", "value": 20}, "need attribute"),
        ({"values": [1, 2]}, "need attribute"),
    ],
)
async def test_comparator_refusals_send_nothing(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    args: dict[str, Any],
    word: str,
) -> None:
    dev_id(hub, "Kitchen Light")  # the hub is up
    before = len(hub.requests)
    data = await refused(call_tool, "hub_list_devices", args)
    assert word in data["message"], data
    assert hub.requests[before:] == []
