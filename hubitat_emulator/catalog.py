"""Static catalog: Hubitat capabilities (attributes + commands) and the driver list.

Capability and command names follow the Hubitat capability list; argument types use the hub's
``NUMBER``/``STRING``/``ENUM``/``COLOR_MAP``/``JSON_OBJECT`` vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AttrDef:
    name: str
    data_type: str  # ENUM, NUMBER, STRING, JSON_OBJECT, DATE, VECTOR3
    values: tuple[str, ...] | None = None
    unit: str | None = None


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # NUMBER, STRING, ENUM, COLOR_MAP, JSON_OBJECT
    constraints: tuple[str, ...] | None = None
    required: bool = True


@dataclass(frozen=True)
class CmdDef:
    name: str
    params: tuple[Param, ...] = ()
    related: str | None = None


@dataclass(frozen=True)
class Capability:
    name: str
    attributes: tuple[AttrDef, ...] = ()
    commands: tuple[CmdDef, ...] = ()


def _enum(name: str, *values: str) -> AttrDef:
    return AttrDef(name, "ENUM", tuple(values))


def _num(name: str, unit: str | None = None) -> AttrDef:
    return AttrDef(name, "NUMBER", None, unit)


def _str(name: str) -> AttrDef:
    return AttrDef(name, "STRING")


def _json(name: str) -> AttrDef:
    return AttrDef(name, "JSON_OBJECT")


def _c(name: str, *params: Param, related: str | None = None) -> CmdDef:
    return CmdDef(name, tuple(params), related)


_NUM = "NUMBER"
TEMP_UNIT = "°F"
THERMOSTAT_MODES = ("auto", "off", "heat", "emergency heat", "cool")
FAN_MODES = ("on", "circulate", "auto")
FAN_SPEEDS = ("low", "medium-low", "medium", "medium-high", "high", "on", "off", "auto")

_CAPS: tuple[Capability, ...] = (
    Capability("Actuator"),
    Capability("Sensor"),
    Capability("Refresh", (), (_c("refresh"),)),
    Capability("Configuration", (), (_c("configure"),)),
    Capability("HealthCheck", (_num("checkInterval"),), (_c("ping"),)),
    Capability(
        "Switch",
        (_enum("switch", "on", "off"),),
        (_c("on", related="switch"), _c("off", related="switch")),
    ),
    Capability(
        "Outlet",
        (_enum("switch", "on", "off"),),
        (_c("on", related="switch"), _c("off", related="switch")),
    ),
    Capability(
        "Light",
        (_enum("switch", "on", "off"),),
        (_c("on", related="switch"), _c("off", related="switch")),
    ),
    Capability(
        "SwitchLevel",
        (_num("level", "%"),),
        (
            _c(
                "setLevel",
                Param("level", _NUM),
                Param("duration", _NUM, required=False),
                related="level",
            ),
        ),
    ),
    Capability(
        "ChangeLevel",
        (),
        (
            _c("startLevelChange", Param("direction", "ENUM", ("up", "down"))),
            _c("stopLevelChange"),
        ),
    ),
    Capability(
        "ColorTemperature",
        (_num("colorTemperature", "°K"), _str("colorName")),
        (
            _c(
                "setColorTemperature",
                Param("colorTemperature", _NUM),
                Param("level", _NUM, required=False),
                Param("transitionTime", _NUM, required=False),
                related="colorTemperature",
            ),
        ),
    ),
    Capability(
        "ColorControl",
        (_str("RGB"), _str("color"), _str("colorName"), _num("hue"), _num("saturation")),
        (
            _c("setColor", Param("colorMap", "COLOR_MAP"), related="color"),
            _c("setHue", Param("hue", _NUM), related="hue"),
            _c("setSaturation", Param("saturation", _NUM), related="saturation"),
        ),
    ),
    Capability("ColorMode", (_enum("colorMode", "CT", "RGB", "EFFECTS"),)),
    Capability("PowerMeter", (_num("power", "W"),)),
    Capability("EnergyMeter", (_num("energy", "kWh"),)),
    Capability("VoltageMeasurement", (_num("voltage", "V"), _num("frequency", "Hz"))),
    Capability("ContactSensor", (_enum("contact", "closed", "open"),)),
    Capability("MotionSensor", (_enum("motion", "inactive", "active"),)),
    Capability("TamperAlert", (_enum("tamper", "clear", "detected"),)),
    Capability("TemperatureMeasurement", (_num("temperature", TEMP_UNIT),)),
    Capability("RelativeHumidityMeasurement", (_num("humidity", "%rh"),)),
    Capability("IlluminanceMeasurement", (_num("illuminance", "lux"),)),
    Capability("Battery", (_num("battery", "%"),)),
    Capability("WaterSensor", (_enum("water", "wet", "dry"),)),
    Capability("SmokeDetector", (_enum("smoke", "clear", "tested", "detected"),)),
    Capability("CarbonMonoxideDetector", (_enum("carbonMonoxide", "clear", "tested", "detected"),)),
    Capability("PresenceSensor", (_enum("presence", "present", "not present"),)),
    Capability(
        "Lock",
        (_enum("lock", "locked", "unlocked with timeout", "unlocked", "unknown"),),
        (_c("lock", related="lock"), _c("unlock", related="lock")),
    ),
    Capability(
        "LockCodes",
        (
            _enum("codeChanged", "added", "changed", "deleted", "failed"),
            _num("codeLength"),
            _json("lockCodes"),
            _num("maxCodes"),
        ),
        (
            _c("deleteCode", Param("codePosition", _NUM), related="lockCodes"),
            _c("getCodes", related="lockCodes"),
            _c(
                "setCode",
                Param("codePosition", _NUM),
                Param("pinCode", "STRING"),
                Param("name", "STRING", required=False),
                related="lockCodes",
            ),
            _c("setCodeLength", Param("pinCodeLength", _NUM), related="codeLength"),
        ),
    ),
    Capability(
        "GarageDoorControl",
        (_enum("door", "unknown", "open", "closing", "closed", "opening"),),
        (_c("open", related="door"), _c("close", related="door")),
    ),
    Capability(
        "Valve",
        (_enum("valve", "open", "closed"),),
        (_c("open", related="valve"), _c("close", related="valve")),
    ),
    Capability(
        "WindowShade",
        (
            _enum(
                "windowShade", "opening", "partially open", "closed", "open", "closing", "unknown"
            ),
            _num("position", "%"),
        ),
        (
            _c("open", related="windowShade"),
            _c("close", related="windowShade"),
            _c("setPosition", Param("position", _NUM), related="position"),
            _c("startPositionChange", Param("direction", "ENUM", ("open", "close"))),
            _c("stopPositionChange"),
        ),
    ),
    Capability(
        "Alarm",
        (_enum("alarm", "strobe", "off", "both", "siren"),),
        (
            _c("both", related="alarm"),
            _c("off", related="alarm"),
            _c("siren", related="alarm"),
            _c("strobe", related="alarm"),
        ),
    ),
    Capability(
        "Thermostat",
        (
            _num("coolingSetpoint", TEMP_UNIT),
            _num("heatingSetpoint", TEMP_UNIT),
            _json("schedule"),
            _json("supportedThermostatFanModes"),
            _json("supportedThermostatModes"),
            _num("temperature", TEMP_UNIT),
            _enum("thermostatFanMode", *FAN_MODES),
            _enum("thermostatMode", *THERMOSTAT_MODES),
            _enum(
                "thermostatOperatingState",
                "heating",
                "pending cool",
                "pending heat",
                "vent economizer",
                "idle",
                "cooling",
                "fan only",
            ),
            _num("thermostatSetpoint", TEMP_UNIT),
        ),
        (
            _c("auto", related="thermostatMode"),
            _c("cool", related="thermostatMode"),
            _c("emergencyHeat", related="thermostatMode"),
            _c("fanAuto", related="thermostatFanMode"),
            _c("fanCirculate", related="thermostatFanMode"),
            _c("fanOn", related="thermostatFanMode"),
            _c("heat", related="thermostatMode"),
            _c("off", related="thermostatMode"),
            _c("setCoolingSetpoint", Param("temperature", _NUM), related="coolingSetpoint"),
            _c("setHeatingSetpoint", Param("temperature", _NUM), related="heatingSetpoint"),
            _c("setSchedule", Param("JSON_OBJECT", "JSON_OBJECT"), related="schedule"),
            _c(
                "setThermostatFanMode",
                Param("fanmode", "ENUM", FAN_MODES),
                related="thermostatFanMode",
            ),
            _c(
                "setThermostatMode",
                Param("thermostatmode", "ENUM", THERMOSTAT_MODES),
                related="thermostatMode",
            ),
        ),
    ),
    Capability(
        "PushableButton",
        (_num("numberOfButtons"), _num("pushed")),
        (_c("push", Param("buttonNumber", _NUM), related="pushed"),),
    ),
    Capability(
        "HoldableButton",
        (_num("held"),),
        (_c("hold", Param("buttonNumber", _NUM), related="held"),),
    ),
    Capability(
        "ReleasableButton",
        (_num("released"),),
        (_c("release", Param("buttonNumber", _NUM), related="released"),),
    ),
    Capability(
        "DoubleTapableButton",
        (_num("doubleTapped"),),
        (_c("doubleTap", Param("buttonNumber", _NUM), related="doubleTapped"),),
    ),
    Capability(
        "SecurityKeypad",
        (
            _enum("codeChanged", "added", "changed", "deleted", "failed"),
            _num("codeLength"),
            _json("lockCodes"),
            _num("maxCodes"),
            _enum(
                "securityKeypad", "disarmed", "armed home", "armed away", "armed night", "unknown"
            ),
        ),
        (
            _c("armAway", related="securityKeypad"),
            _c("armHome", related="securityKeypad"),
            _c("armNight", related="securityKeypad"),
            _c("deleteCode", Param("codePosition", _NUM), related="lockCodes"),
            _c("disarm", related="securityKeypad"),
            _c("getCodes", related="lockCodes"),
            _c(
                "setCode",
                Param("codePosition", _NUM),
                Param("pinCode", "STRING"),
                Param("name", "STRING", required=False),
                related="lockCodes",
            ),
            _c("setCodeLength", Param("pinCodeLength", _NUM), related="codeLength"),
            _c("setEntryDelay", Param("entranceDelay", _NUM)),
            _c("setExitDelay", Param("exitDelay", _NUM)),
        ),
    ),
    Capability(
        "FanControl",
        (_enum("speed", *FAN_SPEEDS), _json("supportedFanSpeeds")),
        (
            _c("cycleSpeed", related="speed"),
            _c("setSpeed", Param("speed", "ENUM", FAN_SPEEDS), related="speed"),
        ),
    ),
    Capability("SignalStrength", (_num("rssi"), _num("lqi"))),
)

CAPABILITIES: dict[str, Capability] = {c.name: c for c in _CAPS}


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


def capability_commands(driver: DriverSpec) -> list[tuple[str | None, CmdDef]]:
    """Every command of a driver with its capability, in capability order, WITH duplicates."""
    out: list[tuple[str | None, CmdDef]] = []
    for cap_name in driver.capabilities:
        cap = CAPABILITIES.get(cap_name)
        if cap is None:
            continue
        out.extend((cap_name, cmd) for cmd in cap.commands)
    out.extend((None, cmd) for cmd in driver.custom_commands)
    return out


def unique_commands(driver: DriverSpec) -> list[tuple[str | None, CmdDef]]:
    seen: set[str] = set()
    out: list[tuple[str | None, CmdDef]] = []
    for cap, cmd in capability_commands(driver):
        if cmd.name not in seen:
            seen.add(cmd.name)
            out.append((cap, cmd))
    return out


def capability_attributes(driver: DriverSpec) -> list[tuple[str | None, AttrDef]]:
    """Every attribute of a driver, per capability in order, WITH duplicates."""
    out: list[tuple[str | None, AttrDef]] = []
    for cap_name in driver.capabilities:
        cap = CAPABILITIES.get(cap_name)
        if cap is None:
            continue
        out.extend((cap_name, a) for a in cap.attributes)
    out.extend((None, a) for a in driver.custom_attributes)
    return out


def unique_attributes(driver: DriverSpec) -> dict[str, AttrDef]:
    out: dict[str, AttrDef] = {}
    for _cap, a in capability_attributes(driver):
        out.setdefault(a.name, a)
    return out


def find_command(driver: DriverSpec, name: str) -> CmdDef | None:
    for _cap, cmd in capability_commands(driver):
        if cmd.name == name:
            return cmd
    return None


# A long-ish time-zone list for /hub/details/json (the real payload is ~49 KB because of it).
_TZ_TABLE = """
Pacific/Midway -11|Pacific/Honolulu -10|America/Anchorage -9|America/Los_Angeles -8|
America/Tijuana -8|America/Phoenix -7|America/Denver -7|America/Boise -7|America/Chicago -6|
America/Mexico_City -6|America/Regina -6|America/Winnipeg -6|America/New_York -5|
America/Detroit -5|America/Toronto -5|America/Bogota -5|America/Lima -5|America/Halifax -4|
America/Caracas -4|America/Santiago -4|America/St_Johns -3.5|America/Sao_Paulo -3|
America/Argentina/Buenos_Aires -3|America/Godthab -3|Atlantic/South_Georgia -2|
Atlantic/Azores -1|Atlantic/Cape_Verde -1|Europe/London 0|Europe/Dublin 0|Europe/Lisbon 0|
Africa/Casablanca 0|UTC 0|Europe/Amsterdam 1|Europe/Berlin 1|Europe/Brussels 1|
Europe/Madrid 1|Europe/Paris 1|Europe/Rome 1|Europe/Stockholm 1|Europe/Vienna 1|
Europe/Warsaw 1|Europe/Zurich 1|Africa/Lagos 1|Europe/Athens 2|Europe/Bucharest 2|
Europe/Helsinki 2|Europe/Kiev 2|Africa/Cairo 2|Africa/Johannesburg 2|Asia/Jerusalem 2|
Europe/Istanbul 3|Europe/Moscow 3|Asia/Baghdad 3|Asia/Riyadh 3|Africa/Nairobi 3|
Asia/Tehran 3.5|Asia/Dubai 4|Asia/Baku 4|Asia/Kabul 4.5|Asia/Karachi 5|Asia/Tashkent 5|
Asia/Kolkata 5.5|Asia/Kathmandu 5.75|Asia/Dhaka 6|Asia/Almaty 6|Asia/Yangon 6.5|
Asia/Bangkok 7|Asia/Jakarta 7|Asia/Ho_Chi_Minh 7|Asia/Shanghai 8|Asia/Hong_Kong 8|
Asia/Singapore 8|Asia/Taipei 8|Australia/Perth 8|Asia/Tokyo 9|Asia/Seoul 9|
Australia/Adelaide 9.5|Australia/Darwin 9.5|Australia/Brisbane 10|Australia/Sydney 10|
Australia/Melbourne 10|Pacific/Guam 10|Asia/Vladivostok 10|Pacific/Noumea 11|
Asia/Magadan 11|Pacific/Auckland 12|Pacific/Fiji 12|Pacific/Tongatapu 13|
Pacific/Kiritimati 14|US/Alaska -9|US/Arizona -7|US/Central -6|US/Eastern -5|US/Hawaii -10|
US/Mountain -7|US/Pacific -8|Canada/Atlantic -4|Canada/Central -6|Canada/Eastern -5|
Canada/Mountain -7|Canada/Pacific -8|Europe/Oslo 1|Europe/Copenhagen 1|Europe/Prague 1|
Europe/Budapest 1|Europe/Belgrade 1|Europe/Sofia 2|Europe/Riga 2|Europe/Tallinn 2|
Europe/Vilnius 2|Asia/Manila 8|Asia/Kuala_Lumpur 8|Pacific/Port_Moresby 10|
America/Puerto_Rico -4|America/Panama -5|America/Guatemala -6|America/Havana -5|
America/Jamaica -5|America/Montevideo -3|America/Asuncion -4|America/La_Paz -4|
Africa/Algiers 1|Africa/Tunis 1|Africa/Accra 0|Africa/Addis_Ababa 3|Indian/Mauritius 4|
Indian/Maldives 5|Asia/Colombo 5.5|Asia/Yekaterinburg 5|Asia/Novosibirsk 7|Asia/Irkutsk 8|
Asia/Yakutsk 9|Pacific/Chatham 12.75|Pacific/Apia 13|Atlantic/Reykjavik 0|Atlantic/Bermuda -4
"""


def time_zones() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for item in _TZ_TABLE.replace("\n", "").split("|"):
        item = item.strip()
        if not item:
            continue
        zone, off = item.rsplit(" ", 1)
        hours = float(off)
        sign = "-" if hours < 0 else "+"
        h = int(abs(hours))
        m = round((abs(hours) - h) * 60)
        label = f"(GMT{sign}{h:02d}:{m:02d}) {zone.replace('_', ' ')}"
        out.append({"id": zone, "label": label, "offset": f"{sign}{h:02d}:{m:02d}"})
    return sorted(out, key=lambda z: z["id"])
