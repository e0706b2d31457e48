"""Hubitat capabilities: attribute and command definitions (the static vocabulary).

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
    Capability("Notification", (), (_c("deviceNotification", Param("text", "STRING")),)),
)

CAPABILITIES: dict[str, Capability] = {c.name: c for c in _CAPS}
