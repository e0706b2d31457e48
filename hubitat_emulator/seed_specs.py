"""The seeded home's declarations: rooms, app ids, attribute defaults and the device list."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .catalog import FAN_MODES, THERMOSTAT_MODES

ROOMS: tuple[tuple[int, str], ...] = (
    (1, "Kitchen"),
    (2, "Living Room"),
    (3, "Dining Room"),
    (4, "Master Bedroom"),
    (5, "Guest Bedroom"),
    (6, "Office"),
    (7, "Garage"),
    (8, "Basement"),
    (9, "Front Porch"),
)

# App ids used by the seeded home (the Maker API instance gets ``maker_app_id``).
APP_HSM = 3
APP_MODE_MANAGER = 4
APP_RULE_MACHINE = 5
APP_ROOM_LIGHTING = 7
APP_BASIC_RULES = 9
APP_ECOBEE = 20
APP_DASHBOARD = 30
RULE_MOTION = 140
RULE_LEAK = 141
RULE_GOODNIGHT = 142
RL_OFFICE = 150
BR_PORCH = 160
DASH_MAIN = 31
DASH_TABLET = 32

ATTR_DEFAULTS: dict[str, object] = {
    "switch": "off",
    "level": 100,
    "colorTemperature": 2700,
    "colorName": "Soft White",
    "hue": 0,
    "saturation": 0,
    "RGB": "#FFFFFF",
    "color": "#FFFFFF",
    "colorMode": "CT",
    "power": 0,
    "energy": 0,
    "voltage": 120.4,
    "frequency": 60,
    "contact": "closed",
    "motion": "inactive",
    "tamper": "clear",
    "temperature": 70.2,
    "humidity": 44,
    "illuminance": 120,
    "battery": 100,
    "water": "dry",
    "smoke": "clear",
    "carbonMonoxide": "clear",
    "presence": "present",
    "lock": "locked",
    "codeChanged": None,
    "codeLength": 4,
    "lockCodes": "{}",
    "maxCodes": 30,
    "door": "closed",
    "valve": "open",
    "windowShade": "closed",
    "position": 0,
    "alarm": "off",
    "coolingSetpoint": 76,
    "heatingSetpoint": 68,
    "schedule": None,
    "supportedThermostatFanModes": json.dumps(list(FAN_MODES)),
    "supportedThermostatModes": json.dumps(list(THERMOSTAT_MODES)),
    "thermostatFanMode": "auto",
    "thermostatMode": "heat",
    "thermostatOperatingState": "idle",
    "thermostatSetpoint": 68,
    "numberOfButtons": 1,
    "pushed": None,
    "held": None,
    "released": None,
    "doubleTapped": None,
    "securityKeypad": "disarmed",
    "speed": "off",
    "supportedFanSpeeds": json.dumps(["low", "medium", "high", "off", "auto"]),
    "checkInterval": 7200,
    "rssi": -62,
    "lqi": 255,
}

# attribute -> (events per week, chatty): chatty attributes report within the last hour.
HISTORY: dict[str, tuple[int, bool]] = {
    "switch": (14, False),
    "level": (6, False),
    "contact": (12, False),
    "motion": (30, True),
    "temperature": (24, True),
    "humidity": (16, True),
    "illuminance": (12, True),
    "battery": (2, False),
    "power": (14, True),
    "energy": (6, False),
    "lock": (10, False),
    "door": (6, False),
    "presence": (6, False),
    "pushed": (5, False),
    "held": (2, False),
    "valve": (2, False),
    "water": (2, False),
    "speed": (6, False),
    "windowShade": (6, False),
    "thermostatOperatingState": (20, True),
    "securityKeypad": (4, False),
}

SENSOR_ATTRS = {
    "contact",
    "motion",
    "temperature",
    "humidity",
    "illuminance",
    "battery",
    "power",
    "energy",
    "water",
    "presence",
    "thermostatOperatingState",
}


@dataclass
class DeviceSpec:
    label: str
    driver: str
    room: int | None
    attrs: dict[str, object] = field(default_factory=dict)
    days_old: float | None = None  # last activity this many days ago (stale device)
    disabled: bool = False
    apps: tuple[int, ...] = ()
    dashboards: tuple[int, ...] = ()
    tags: tuple[str, ...] = ()
    name: str | None = None
    children: tuple[DeviceSpec, ...] = ()
    notes: str = ""


_LOCK_CODES = json.dumps(
    {
        "1": {"name": "Alice", "code": "4821"},
        "2": {"name": "Bob", "code": "7312"},
        "3": {"name": "Dog Walker", "code": "5550"},
    },
    separators=(",", ":"),
)

HOME: tuple[DeviceSpec, ...] = (
    # Kitchen
    DeviceSpec(
        "Kitchen Light",
        "Generic Z-Wave Dimmer",
        1,
        {"switch": "on", "level": 80},
        apps=(RULE_MOTION, RULE_GOODNIGHT),
        dashboards=(DASH_MAIN,),
        tags=("lights",),
    ),
    DeviceSpec(
        "Kitchen Island Pendants",
        "Generic Zigbee RGBW Light",
        1,
        {"switch": "off", "level": 60, "colorTemperature": 3000, "colorMode": "CT"},
        apps=(RULE_GOODNIGHT,),
        dashboards=(DASH_MAIN,),
        tags=("lights",),
    ),
    DeviceSpec(
        "Coffee Maker", "Generic Zigbee Outlet", 1, {"switch": "off", "power": 0.4, "energy": 12.7}
    ),
    DeviceSpec(
        "Kitchen Motion",
        "Generic Zigbee Motion Sensor",
        1,
        {"motion": "active", "temperature": 71.3, "illuminance": 240, "battery": 87},
        apps=(RULE_MOTION,),
    ),
    DeviceSpec(
        "Kitchen Sink Leak",
        "Generic Zigbee Moisture Sensor",
        1,
        {"water": "dry", "temperature": 68.9, "battery": 93},
        apps=(RULE_LEAK,),
        tags=("leak",),
    ),
    DeviceSpec(
        "Back Door Lock",
        "Generic Zigbee Lock",
        1,
        {"lock": "locked", "battery": 64},
        apps=(RULE_GOODNIGHT,),
        dashboards=(DASH_MAIN, DASH_TABLET),
        tags=("security",),
    ),
    DeviceSpec(
        "Back Door",
        "Generic Zigbee Contact Sensor",
        1,
        {"contact": "closed", "temperature": 66.1, "battery": 78},
        tags=("security",),
    ),
    # Living Room
    DeviceSpec(
        "Living Room Lamp",
        "Generic Zigbee RGBW Light",
        2,
        {
            "switch": "on",
            "level": 45,
            "hue": 8,
            "saturation": 72,
            "colorMode": "RGB",
            "colorName": "Orange",
            "RGB": "#733B20",
            "color": "#733B20",
        },
        dashboards=(DASH_MAIN,),
        tags=("lights",),
    ),
    DeviceSpec(
        "Living Room Dimmer",
        "Generic Z-Wave Smart Dimmer",
        2,
        {"switch": "off", "level": 70},
        apps=(RULE_GOODNIGHT,),
        tags=("lights",),
    ),
    DeviceSpec(
        "Living Room Fan",
        "GE Enbrighten Z-Wave Smart Fan Control",
        2,
        {"switch": "on", "speed": "medium"},
        dashboards=(DASH_MAIN,),
    ),
    DeviceSpec(
        "Living Room Shades",
        "Generic Zigbee Window Shade",
        2,
        {"windowShade": "open", "position": 100, "level": 100, "battery": 71},
    ),
    DeviceSpec(
        "Living Room Motion",
        "Generic Zigbee Motion Sensor",
        2,
        {"motion": "inactive", "temperature": 70.8, "illuminance": 310, "battery": 66},
    ),
    DeviceSpec("Living Room Pico", "Lutron Fast Pico", 2, {"numberOfButtons": 5, "pushed": 1}),
    DeviceSpec(
        "TV Outlet", "Generic Zigbee Outlet", 2, {"switch": "on", "power": 96.3, "energy": 41.2}
    ),
    DeviceSpec(
        "Living Room Window",
        "Generic Zigbee Contact Sensor",
        2,
        {"contact": "open", "temperature": 69.0, "battery": 82},
    ),
    DeviceSpec(
        "Downstairs Thermostat",
        "Ecobee Thermostat",
        2,
        {
            "temperature": 69.5,
            "humidity": 41,
            "thermostatMode": "heat",
            "heatingSetpoint": 70,
            "coolingSetpoint": 76,
            "thermostatSetpoint": 70,
            "thermostatOperatingState": "heating",
        },
        dashboards=(DASH_MAIN, DASH_TABLET),
        tags=("climate",),
    ),
    # Dining Room
    DeviceSpec(
        "Dining Chandelier",
        "Generic Z-Wave Dimmer",
        3,
        {"switch": "off", "level": 50},
        tags=("lights",),
    ),
    DeviceSpec(
        "Dining Room Window",
        "Generic Z-Wave Contact Sensor",
        3,
        {"contact": "closed", "battery": 90},
    ),
    DeviceSpec(
        "Dining Room Sensor",
        "Generic Zigbee Temperature/Humidity Sensor",
        3,
        {"temperature": 70.1, "humidity": 43, "battery": 12},
        tags=("climate",),
    ),
    # Master Bedroom
    DeviceSpec(
        "Master Bedroom Lamp",
        "Generic Zigbee CT Bulb",
        4,
        {"switch": "off", "level": 30, "colorTemperature": 2200, "colorName": "Incandescent"},
        tags=("lights",),
    ),
    DeviceSpec(
        "Master Bedroom Ceiling Light",
        "Generic Z-Wave Switch",
        4,
        {"switch": "off"},
        apps=(RULE_GOODNIGHT,),
        tags=("lights",),
    ),
    DeviceSpec(
        "Upstairs Thermostat",
        "Ecobee Thermostat",
        4,
        {
            "temperature": 71.2,
            "humidity": 39,
            "thermostatMode": "heat",
            "heatingSetpoint": 68,
            "thermostatSetpoint": 68,
            "thermostatOperatingState": "idle",
        },
        tags=("climate",),
    ),
    DeviceSpec(
        "Master Bedroom Motion",
        "Generic Zigbee Motion Sensor",
        4,
        {"motion": "inactive", "temperature": 70.4, "illuminance": 35, "battery": 58},
    ),
    DeviceSpec(
        "Master Bedroom Window",
        "Generic Zigbee Contact Sensor",
        4,
        {"contact": "closed", "temperature": 67.2, "battery": 8},
    ),
    DeviceSpec(
        "Bedside Button",
        "Generic Zigbee Button",
        4,
        {"numberOfButtons": 1, "pushed": 1, "battery": 95},
        apps=(RULE_GOODNIGHT,),
    ),
    # Guest Bedroom
    DeviceSpec(
        "Guest Lamp", "Generic Zigbee CT Bulb", 5, {"switch": "off", "level": 100}, tags=("lights",)
    ),
    DeviceSpec(
        "Guest Room Window",
        "Generic Zigbee Contact Sensor",
        5,
        {"contact": "closed", "temperature": 64.8, "battery": 51},
        days_old=5.5,
    ),
    DeviceSpec(
        "Guest Room Sensor",
        "Generic Zigbee Temperature/Humidity Sensor",
        5,
        {"temperature": 65.3, "humidity": 47, "battery": 34},
    ),
    # Office
    DeviceSpec(
        "Office Light",
        "Generic Z-Wave Dimmer",
        6,
        {"switch": "on", "level": 100},
        apps=(RL_OFFICE,),
        tags=("lights",),
    ),
    DeviceSpec(
        "Office Desk Lamp",
        "Generic Zigbee RGBW Light",
        6,
        {"switch": "on", "level": 90, "colorTemperature": 4000, "colorName": "Moonlight"},
        apps=(RL_OFFICE,),
        tags=("lights",),
    ),
    DeviceSpec(
        "Office Door",
        "Generic Zigbee Contact Sensor",
        6,
        {"contact": "open", "temperature": 72.4, "battery": 88},
    ),
    DeviceSpec(
        "Office Motion",
        "Generic Zigbee Motion Sensor",
        6,
        {"motion": "active", "temperature": 72.9, "illuminance": 410, "battery": 76},
        apps=(RL_OFFICE,),
    ),
    DeviceSpec(
        "Office Monitor Outlet",
        "Generic Zigbee Outlet",
        6,
        {"switch": "on", "power": 38.6, "energy": 22.9},
    ),
    # Garage
    DeviceSpec(
        "Garage Door",
        "Linear GoControl Garage Door Opener",
        7,
        {"door": "closed", "contact": "closed"},
        apps=(RULE_GOODNIGHT,),
        dashboards=(DASH_MAIN, DASH_TABLET),
        tags=("security",),
    ),
    DeviceSpec("Garage Light", "Generic Z-Wave Switch", 7, {"switch": "off"}, tags=("lights",)),
    DeviceSpec(
        "Garage Motion",
        "Generic Zigbee Motion Sensor",
        7,
        {"motion": "inactive", "temperature": 58.2, "illuminance": 12, "battery": 15},
        days_old=4.2,
    ),
    DeviceSpec(
        "Garage Freezer Sensor",
        "Generic Zigbee Temperature/Humidity Sensor",
        7,
        {"temperature": 3.2, "humidity": 61, "battery": 69},
    ),
    # Basement
    DeviceSpec(
        "Water Main Valve",
        "Generic Z-Wave Valve",
        8,
        {"valve": "open"},
        apps=(RULE_LEAK,),
        tags=("leak", "security"),
    ),
    DeviceSpec(
        "Water Heater Leak",
        "Generic Zigbee Moisture Sensor",
        8,
        {"water": "dry", "temperature": 62.7, "battery": 74},
        apps=(RULE_LEAK,),
        tags=("leak",),
    ),
    DeviceSpec(
        "Sump Pump Leak",
        "Generic Zigbee Moisture Sensor",
        8,
        {"water": "dry", "temperature": 59.9, "battery": 18},
        apps=(RULE_LEAK,),
        days_old=6.3,
        tags=("leak",),
    ),
    DeviceSpec(
        "Basement Siren",
        "Generic Zigbee Siren",
        8,
        {"alarm": "off", "battery": 100},
        apps=(RULE_LEAK,),
        tags=("security",),
    ),
    DeviceSpec(
        "Basement Smoke/CO", "First Alert Smoke/CO Alarm", 8, {"battery": 85}, tags=("security",)
    ),
    DeviceSpec("Basement Light", "Generic Z-Wave Switch", 8, {"switch": "off"}, tags=("lights",)),
    DeviceSpec(
        "Basement Sensor",
        "Generic Zigbee Temperature/Humidity Sensor",
        8,
        {"temperature": 63.4, "humidity": 58, "battery": 41},
    ),
    DeviceSpec(
        "Basement Double Plug",
        "Zooz ZEN25 Double Plug Advanced",
        8,
        {"switch": "on", "power": 212.5, "energy": 96.4, "voltage": 121.1},
        name="Zooz ZEN25 Double Plug",
        children=(
            DeviceSpec(
                "Dehumidifier",
                "Generic Component Metering Switch",
                8,
                {"switch": "on", "power": 208.3, "energy": 88.1},
            ),
            DeviceSpec(
                "Chest Freezer",
                "Generic Component Metering Switch",
                8,
                {"switch": "on", "power": 4.2, "energy": 8.3},
            ),
        ),
    ),
    # Front Porch
    DeviceSpec(
        "Front Door Lock",
        "Generic Z-Wave Lock",
        9,
        {"lock": "locked", "battery": 72, "lockCodes": _LOCK_CODES, "codeLength": 4},
        apps=(RULE_GOODNIGHT, BR_PORCH),
        dashboards=(DASH_MAIN, DASH_TABLET),
        tags=("security",),
    ),
    DeviceSpec(
        "Front Door",
        "Generic Zigbee Contact Sensor",
        9,
        {"contact": "closed", "temperature": 61.5, "battery": 91},
        tags=("security",),
    ),
    DeviceSpec(
        "Porch Light",
        "Generic Z-Wave Switch",
        9,
        {"switch": "off"},
        apps=(BR_PORCH,),
        tags=("lights", "outdoor"),
    ),
    DeviceSpec(
        "Front Porch Motion",
        "Generic Zigbee Motion Sensor",
        9,
        {"motion": "inactive", "temperature": 48.7, "illuminance": 1450, "battery": 63},
        apps=(BR_PORCH,),
        tags=("outdoor",),
    ),
    DeviceSpec(
        "Holiday Lights",
        "Generic Zigbee Outlet",
        9,
        {"switch": "off", "power": 0, "energy": 3.1},
        tags=("outdoor",),
    ),
    # Unassigned
    DeviceSpec(
        "Security Keypad",
        "Centralite Keypad",
        None,
        {
            "securityKeypad": "disarmed",
            "battery": 67,
            "temperature": 69.8,
            "lockCodes": _LOCK_CODES,
            "maxCodes": 10,
        },
        tags=("security",),
    ),
    DeviceSpec("Alice's Phone", "Virtual Presence", None, {"presence": "present"}),
    DeviceSpec("Bob's Phone", "Virtual Presence", None, {"presence": "not present"}),
    DeviceSpec(
        "Car Arrival Sensor",
        "Generic Zigbee Presence Sensor",
        None,
        {"presence": "present", "battery": 19},
    ),
    DeviceSpec("Vacation Mode", "Virtual Switch", None, {"switch": "off"}),
    DeviceSpec("Guest Mode", "Virtual Switch", None, {"switch": "on"}),
    DeviceSpec(
        "Old Hallway Sensor",
        "Generic Zigbee Motion Sensor",
        None,
        {"motion": "inactive", "temperature": 68.0, "illuminance": 40, "battery": 0},
        disabled=True,
        days_old=41.0,
        notes="Replaced by Living Room Motion",
    ),
    # the family's phone app: the notification device rules and apps send messages to
    DeviceSpec("Family Phone", "Hubitat Mobile App", None, {"presence": "present"}),
)

PAD_DRIVERS = (
    ("Switch", "Virtual Switch"),
    ("Dimmer", "Generic Z-Wave Dimmer"),
    ("Contact", "Generic Zigbee Contact Sensor"),
    ("Motion", "Generic Zigbee Motion Sensor"),
    ("Outlet", "Generic Zigbee Outlet"),
    ("Bulb", "Generic Zigbee CT Bulb"),
)
