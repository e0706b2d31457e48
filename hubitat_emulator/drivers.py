"""The driver list: every driver the emulated hub knows, with its preferences."""

from __future__ import annotations

from dataclasses import dataclass

from .capabilities import _NUM, AttrDef, CmdDef, Param, _c


@dataclass(frozen=True)
class Pref:
    name: str
    type: str  # bool, number, decimal, enum, text
    title: str
    default: object
    options: tuple[str, ...] | None = None


LOG_PREFS: tuple[Pref, ...] = (
    Pref("logEnable", "bool", "Enable debug logging", False),
    Pref("txtEnable", "bool", "Enable descriptionText logging", True),
)
TEMP_OFFSET = Pref("tempOffset", "decimal", "Temperature offset", 0.0)
DIMMER_PREFS = (
    Pref(
        "transitionTime", "enum", "Level transition time (ms)", "1000", ("0", "500", "1000", "2000")
    ),
    Pref("levelStaging", "bool", "Enable level staging", False),
    *LOG_PREFS,
)
SENSOR_PREFS = (TEMP_OFFSET, *LOG_PREFS)
MOTION_PREFS = (
    Pref("motionReset", "number", "Motion inactivity reset (seconds)", 60),
    TEMP_OFFSET,
    *LOG_PREFS,
)
METER_PREFS = (
    Pref("powerReportThreshold", "number", "Power report threshold (W)", 5),
    Pref("energyReportInterval", "enum", "Energy report interval", "15", ("5", "15", "30", "60")),
    *LOG_PREFS,
)


@dataclass(frozen=True)
class DriverSpec:
    id: int
    name: str
    capabilities: tuple[str, ...] = ()
    protocol: str = "virtual"  # zwave | zigbee | virtual | cloud | lan | component
    namespace: str = "hubitat"
    type: str = "sys"  # sys | usr | dep
    category: str = ""
    author: str = "Hubitat"
    prefs: tuple[Pref, ...] = LOG_PREFS
    custom_commands: tuple[CmdDef, ...] = ()
    custom_attributes: tuple[AttrDef, ...] = ()
    manufacturer: str | None = None
    model: str | None = None
    # an installed (user) driver's Groovy source: its commands run by evaluating their
    # methods (commands.py); None for the built-in drivers of this table
    source: str | None = None

    @property
    def virtual(self) -> bool:
        return self.protocol == "virtual"


_B = ("Actuator", "Refresh")
_S = ("Sensor",)
_DIM = ("Actuator", "Switch", "SwitchLevel", "ChangeLevel", "Refresh", "Configuration")
_RGBW = (
    "Actuator",
    "ChangeLevel",
    "ColorControl",
    "ColorMode",
    "ColorTemperature",
    "Configuration",
    "Light",
    "Refresh",
    "Switch",
    "SwitchLevel",
)
_CT = (
    "Actuator",
    "ChangeLevel",
    "ColorTemperature",
    "Configuration",
    "Light",
    "Refresh",
    "Switch",
    "SwitchLevel",
)
_OUTLET = (
    "Switch",
    "Configuration",
    "PowerMeter",
    "EnergyMeter",
    "Sensor",
    "Actuator",
    "Outlet",
    "Refresh",
)
_MOTION = (
    "Sensor",
    "MotionSensor",
    "TemperatureMeasurement",
    "IlluminanceMeasurement",
    "Battery",
    "Configuration",
    "Refresh",
)

_DRIVERS: tuple[DriverSpec, ...] = (
    DriverSpec(101, "Generic Z-Wave Dimmer", _DIM, "zwave", category="Lights", prefs=DIMMER_PREFS),
    DriverSpec(
        102, "Generic Z-Wave Smart Dimmer", _DIM, "zwave", category="Lights", prefs=DIMMER_PREFS
    ),
    DriverSpec(
        103,
        "Generic Z-Wave Switch",
        ("Actuator", "Switch", "Refresh", "Configuration"),
        "zwave",
        category="Switches",
    ),
    DriverSpec(
        104, "Generic Zigbee RGBW Light", _RGBW, "zigbee", category="Lights", prefs=DIMMER_PREFS
    ),
    DriverSpec(105, "Generic Zigbee CT Bulb", _CT, "zigbee", category="Lights", prefs=DIMMER_PREFS),
    DriverSpec(
        106, "Generic Zigbee Outlet", _OUTLET, "zigbee", category="Outlets", prefs=METER_PREFS
    ),
    DriverSpec(
        107,
        "Generic Z-Wave Outlet",
        ("Actuator", "Switch", "Outlet", "Refresh", "Configuration"),
        "zwave",
        category="Outlets",
    ),
    DriverSpec(
        108,
        "Generic Zigbee Contact Sensor",
        (
            "Sensor",
            "ContactSensor",
            "TemperatureMeasurement",
            "Battery",
            "Configuration",
            "Refresh",
        ),
        "zigbee",
        category="Sensors",
        prefs=SENSOR_PREFS,
    ),
    DriverSpec(
        109,
        "Generic Z-Wave Contact Sensor",
        ("Sensor", "ContactSensor", "Battery", "TamperAlert", "Configuration"),
        "zwave",
        category="Sensors",
    ),
    DriverSpec(
        110,
        "Generic Zigbee Motion Sensor",
        _MOTION,
        "zigbee",
        category="Sensors",
        prefs=MOTION_PREFS,
    ),
    DriverSpec(
        111,
        "Generic Zigbee Temperature/Humidity Sensor",
        (
            "Sensor",
            "TemperatureMeasurement",
            "RelativeHumidityMeasurement",
            "Battery",
            "Configuration",
        ),
        "zigbee",
        category="Sensors",
        prefs=SENSOR_PREFS,
    ),
    DriverSpec(
        112,
        "Generic Zigbee Moisture Sensor",
        ("Sensor", "WaterSensor", "TemperatureMeasurement", "Battery", "Configuration", "Refresh"),
        "zigbee",
        category="Sensors",
        prefs=SENSOR_PREFS,
    ),
    DriverSpec(
        113,
        "Generic Z-Wave Lock",
        ("Actuator", "Lock", "LockCodes", "Battery", "Refresh", "Configuration"),
        "zwave",
        category="Locks",
        manufacturer="Schlage",
        model="BE469",
    ),
    DriverSpec(
        114,
        "Generic Zigbee Lock",
        ("Actuator", "Lock", "LockCodes", "Battery", "Refresh", "Configuration"),
        "zigbee",
        category="Locks",
        manufacturer="Yale",
        model="YRD226",
    ),
    DriverSpec(
        115,
        "Linear GoControl Garage Door Opener",
        ("Actuator", "GarageDoorControl", "ContactSensor", "Refresh", "Sensor"),
        "zwave",
        category="Garage Doors",
        manufacturer="GoControl",
        model="GD00Z-4",
    ),
    DriverSpec(
        116,
        "Generic Z-Wave Valve",
        ("Actuator", "Valve", "Refresh", "Sensor"),
        "zwave",
        category="Valves",
        manufacturer="Zooz",
        model="ZAC36",
    ),
    DriverSpec(
        117,
        "Generic Zigbee Siren",
        ("Actuator", "Alarm", "Battery", "Refresh", "Configuration"),
        "zigbee",
        category="Sirens",
    ),
    DriverSpec(
        118,
        "Centralite Keypad",
        (
            "Actuator",
            "Sensor",
            "SecurityKeypad",
            "MotionSensor",
            "TemperatureMeasurement",
            "Battery",
            "TamperAlert",
            "Configuration",
            "Refresh",
        ),
        "zigbee",
        category="Security",
        manufacturer="Centralite",
        model="3400",
    ),
    DriverSpec(
        119,
        "Ecobee Thermostat",
        (
            "Actuator",
            "Sensor",
            "Thermostat",
            "TemperatureMeasurement",
            "RelativeHumidityMeasurement",
            "Refresh",
        ),
        "cloud",
        category="Thermostats",
        custom_commands=(_c("resume"),),
        manufacturer="ecobee",
        model="ecobee3 lite",
    ),
    DriverSpec(
        120,
        "First Alert Smoke/CO Alarm",
        ("Sensor", "SmokeDetector", "CarbonMonoxideDetector", "Battery", "Configuration"),
        "zwave",
        category="Safety",
        manufacturer="First Alert",
        model="ZCOMBO",
    ),
    DriverSpec(
        121,
        "Lutron Fast Pico",
        ("PushableButton", "HoldableButton", "ReleasableButton", "Sensor"),
        "lan",
        category="Buttons",
        manufacturer="Lutron",
        model="PJ2-3BRL",
    ),
    DriverSpec(
        122,
        "Generic Zigbee Button",
        (
            "PushableButton",
            "HoldableButton",
            "DoubleTapableButton",
            "Battery",
            "Configuration",
            "Sensor",
        ),
        "zigbee",
        category="Buttons",
        manufacturer="Aqara",
        model="WXKG11LM",
    ),
    DriverSpec(
        123,
        "Generic Zigbee Presence Sensor",
        ("PresenceSensor", "Battery", "Sensor", "Refresh"),
        "zigbee",
        category="Presence",
    ),
    DriverSpec(
        124,
        "GE Enbrighten Z-Wave Smart Fan Control",
        ("Actuator", "Switch", "FanControl", "Refresh", "Configuration"),
        "zwave",
        category="Fans",
        manufacturer="GE/Jasco",
        model="14287",
    ),
    DriverSpec(
        125,
        "Generic Zigbee Window Shade",
        ("Actuator", "WindowShade", "SwitchLevel", "Battery", "Refresh", "Configuration"),
        "zigbee",
        category="Shades",
        manufacturer="IKEA",
        model="FYRTUR",
    ),
    DriverSpec(
        126,
        "Generic Component Metering Switch",
        ("Switch", "PowerMeter", "EnergyMeter", "Actuator", "Refresh"),
        "component",
        category="Component",
    ),
    DriverSpec(
        127,
        "Generic Component Switch",
        ("Switch", "Actuator", "Refresh"),
        "component",
        category="Component",
    ),
    # the phone app's device: it shows the notifications rules and apps send it
    DriverSpec(
        140, "Hubitat Mobile App", ("Notification", "PresenceSensor"), "cloud", category="Cloud"
    ),
    # Virtual drivers (Devices > Add Virtual Device)
    DriverSpec(201, "Virtual Switch", ("Switch", "Actuator", "Sensor"), category="Virtual"),
    DriverSpec(
        202,
        "Virtual Dimmer",
        ("Switch", "SwitchLevel", "ChangeLevel", "Actuator"),
        category="Virtual",
    ),
    DriverSpec(
        203,
        "Virtual Contact Sensor",
        ("ContactSensor", "Sensor"),
        category="Virtual",
        custom_commands=(_c("open", related="contact"), _c("close", related="contact")),
    ),
    DriverSpec(
        204,
        "Virtual Motion Sensor",
        ("MotionSensor", "Sensor"),
        category="Virtual",
        custom_commands=(_c("active", related="motion"), _c("inactive", related="motion")),
    ),
    DriverSpec(
        205,
        "Virtual Presence",
        ("PresenceSensor", "Sensor"),
        category="Virtual",
        custom_commands=(_c("arrived", related="presence"), _c("departed", related="presence")),
    ),
    DriverSpec(206, "Virtual Lock", ("Lock", "LockCodes", "Actuator"), category="Virtual"),
    DriverSpec(
        207,
        "Virtual Button",
        ("PushableButton", "HoldableButton", "DoubleTapableButton", "ReleasableButton", "Sensor"),
        category="Virtual",
    ),
    DriverSpec(
        208,
        "Virtual Temperature Sensor",
        ("TemperatureMeasurement", "Sensor"),
        category="Virtual",
        custom_commands=(_c("setTemperature", Param("temperature", _NUM), related="temperature"),),
    ),
    DriverSpec(209, "Virtual RGBW Light", _RGBW, category="Virtual"),
    DriverSpec(
        210, "Virtual Fan Controller", ("Switch", "FanControl", "Actuator"), category="Virtual"
    ),
    DriverSpec(
        211,
        "Virtual Thermostat",
        ("Thermostat", "TemperatureMeasurement", "Actuator", "Sensor"),
        category="Virtual",
    ),
    DriverSpec(
        212,
        "Virtual Omni Sensor",
        (
            "ContactSensor",
            "MotionSensor",
            "PresenceSensor",
            "TemperatureMeasurement",
            "RelativeHumidityMeasurement",
            "IlluminanceMeasurement",
            "WaterSensor",
            "Battery",
            "Sensor",
        ),
        category="Virtual",
    ),
    DriverSpec(
        213,
        "Virtual Garage Door Controller",
        ("GarageDoorControl", "ContactSensor", "Actuator"),
        category="Virtual",
    ),
    # User (community) drivers
    DriverSpec(
        301,
        "Zooz ZEN25 Double Plug Advanced",
        (
            "Actuator",
            "Switch",
            "PowerMeter",
            "EnergyMeter",
            "VoltageMeasurement",
            "Refresh",
            "Configuration",
            "Sensor",
        ),
        "zwave",
        namespace="jtp10181",
        type="usr",
        category="User",
        author="Jeff Page (@jtp10181)",
        prefs=METER_PREFS,
        manufacturer="Zooz",
        model="ZEN25",
    ),
    DriverSpec(
        302,
        "Inovelli Dimmer 2-in-1 Blue Series VZM31-SN",
        (*_DIM, "PushableButton", "HoldableButton", "PowerMeter", "EnergyMeter"),
        "zigbee",
        namespace="InovelliUSA",
        type="usr",
        category="User",
        author="Inovelli",
        prefs=DIMMER_PREFS,
    ),
    # Dependency / hidden entries (clients skip these)
    DriverSpec(401, "Zigbee Legacy Helper", (), "zigbee", type="dep", category="Lib"),
    DriverSpec(402, "Hub Variable Connector", ("Sensor",), type="sys", category="Hidden"),
)

DRIVERS: dict[int, DriverSpec] = {d.id: d for d in _DRIVERS}
DRIVERS_BY_NAME: dict[str, DriverSpec] = {d.name: d for d in _DRIVERS}
