"""Device command semantics: argument coercion and the state changes each command causes.

A command is applied per capability: every capability of the device's driver that defines the
command contributes its effect (e.g. ``off`` on a fan switches ``switch`` off AND sets ``speed``
to ``off``). Driver-specific (non-capability) commands are handled by name. A device on an
installed (user) driver runs the command's method from the driver's source instead (see
"user drivers" below); a capability command its source does not define keeps the built-in
effect.
"""

from __future__ import annotations

import colorsys
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .catalog import FAN_SPEEDS, AttrDef, CmdDef, Param, capability_commands
from .colors import clamp, color_name_from_ct, color_name_from_hue, hsv_hex
from .devstate import Method, Tok, closing, driver_methods, groovy_tokens
from .model import Device


class CommandError(Exception):
    """Bad arguments or a command the device cannot run (Maker answers HTTP 500)."""

    status = 500


class UnknownCommand(CommandError):
    """The device has no such command (Maker answers HTTP 404)."""

    status = 404


@dataclass
class Change:
    attr: str
    value: object
    force: bool = False  # always an event (buttons), even when the value is unchanged


@dataclass
class Outcome:
    changes: list[Change] = field(default_factory=list)
    later: list[tuple[float, list[Change]]] = field(default_factory=list)
    # what a user driver's method did that the emulator could not evaluate (also logged)
    notes: list[str] = field(default_factory=list)

    def set(self, attr: str, value: object, *, force: bool = False) -> None:
        self.changes = [c for c in self.changes if c.attr != attr]
        self.changes.append(Change(attr, value, force))


# --------------------------------------------------------------------------- values


def number(value: object) -> int | float:
    """Parse a NUMBER: ints stay ints, ``"50.5"`` becomes 50.5."""
    if isinstance(value, bool):
        raise ValueError("boolean is not a number")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    text = str(value).strip()
    try:
        return int(text)
    except ValueError:
        f = float(text)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError(text) from None
        return int(f) if f.is_integer() else f


def to_attr_value(adef: AttrDef | None, value: object) -> object:
    """Coerce a value to an attribute's data type (NUMBER -> number, JSON -> JSON string)."""
    if value is None:
        return None
    if adef is not None and adef.data_type == "NUMBER":
        return number(value)
    if adef is not None and adef.data_type == "JSON_OBJECT" and not isinstance(value, str):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return value
    return str(value)


def value_str(value: object) -> str | None:
    """An attribute value as the hub's event string."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def describe(dev: Device, attr: str, value: object, unit: str | None) -> str:
    name = dev.display_name
    v = value_str(value)
    u = unit or ""
    if attr == "switch":
        return f"{name} was turned {v}"
    if attr == "level":
        return f"{name} was set to {v}%"
    if attr in ("contact", "motion", "door", "valve", "windowShade", "water", "lock", "alarm"):
        return f"{name} is {v}"
    if attr == "presence":
        return f"{name} has arrived" if v == "present" else f"{name} has departed"
    if attr in ("pushed", "held", "released", "doubleTapped"):
        verb = {"pushed": "pushed", "held": "held", "released": "released"}.get(
            attr, "double-tapped"
        )
        return f"{name} button {v} was {verb}"
    if attr == "colorTemperature":
        return f"{name} colorTemperature was set to {v}°K"
    if u:
        return f"{name} {attr} is {v}{u}"
    return f"{name} {attr} is {v}"


# --------------------------------------------------------------------------- arguments


def coerce_args(cmd: CmdDef, raw: list[object]) -> list[object]:
    """Convert raw arguments (strings from the Maker URL or typed values) to the declared types."""
    if len(raw) > len(cmd.params):
        raise CommandError(
            f"Too many arguments for {cmd.name}: expected {len(cmd.params)}, got {len(raw)}"
        )
    out: list[object] = []
    for i, param in enumerate(cmd.params):
        # a parameter declared by its type alone (a user driver's ["NUMBER"]) has no name
        if not param.name:
            param = Param(f"argument {i + 1}", param.type, param.constraints, param.required)
        if i >= len(raw) or raw[i] is None or raw[i] == "":
            if param.required:
                raise CommandError(f"Missing argument '{param.name}' for {cmd.name}")
            out.append(None)
            continue
        value = raw[i]
        try:
            if param.type == "NUMBER":
                out.append(number(value))
            elif param.type == "ENUM":
                text = str(value)
                if param.constraints and text not in param.constraints:
                    raise CommandError(f"Invalid value '{text}' for {param.name}")
                out.append(text)
            elif param.type in ("COLOR_MAP", "JSON_OBJECT"):
                parsed = json.loads(value) if isinstance(value, str) else value
                if param.type == "COLOR_MAP" and not isinstance(parsed, dict):
                    raise CommandError(f"{param.name} must be a JSON object")
                out.append(parsed)
            else:
                out.append(str(value))
        except (ValueError, TypeError) as err:
            raise CommandError(f"Invalid value '{value}' for {param.name}: {err}") from err
    return out


# --------------------------------------------------------------------------- helpers


def _caps(dev: Device) -> tuple[str, ...]:
    return dev.driver.capabilities


def _switch_on(dev: Device, out: Outcome) -> None:
    if "Switch" in _caps(dev) or "Light" in _caps(dev) or "Outlet" in _caps(dev):
        out.set("switch", "on")


def _lock_codes(dev: Device) -> dict[str, dict[str, str]]:
    raw = dev.value("lockCodes")
    try:
        parsed = json.loads(str(raw)) if raw else {}
    except ValueError:
        parsed = {}
    return parsed if isinstance(parsed, dict) else {}


def _dump(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def _thermo_recalc(dev: Device, out: Outcome, **pending: object) -> None:
    def cur(attr: str) -> object:
        return pending.get(attr, dev.value(attr))

    mode = str(cur("thermostatMode"))
    temp = float(str(cur("temperature") or 70))
    heat = float(str(cur("heatingSetpoint") or 68))
    cool = float(str(cur("coolingSetpoint") or 76))
    state = "idle"
    if mode in ("heat", "emergency heat") and temp < heat:
        state = "heating"
    elif mode == "cool" and temp > cool:
        state = "cooling"
    elif mode == "auto":
        state = "heating" if temp < heat else "cooling" if temp > cool else "idle"
    out.set("thermostatOperatingState", state)
    if mode in ("heat", "emergency heat"):
        out.set("thermostatSetpoint", number(heat))
    elif mode == "cool":
        out.set("thermostatSetpoint", number(cool))


# --------------------------------------------------------------------------- handlers

Handler = Callable[[Device, list[object], Outcome, float], None]


def _on(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("switch", "on")
    if "FanControl" in _caps(dev):
        last = str(dev.state.get("lastSpeed", "medium"))
        out.set("speed", last)


def _off(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("switch", "off")
    if "FanControl" in _caps(dev):
        out.set("speed", "off")


def _set_level(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    level = clamp(number(args[0]), 0, 100)
    if "WindowShade" in _caps(dev):
        _set_position(dev, [level], out, travel)
        return
    if level == 0:
        out.set("switch", "off")
        return
    out.set("level", level)
    _switch_on(dev, out)


def _set_ct(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    ct = clamp(number(args[0]), 1000, 10000)
    out.set("colorTemperature", ct)
    out.set("colorName", color_name_from_ct(ct))
    if "ColorMode" in _caps(dev):
        out.set("colorMode", "CT")
    if len(args) > 1 and args[1] is not None:
        out.set("level", clamp(number(args[1]), 1, 100))
    _switch_on(dev, out)


def _apply_hsl(dev: Device, out: Outcome, hue: int, sat: int, level: int | None) -> None:
    out.set("hue", hue)
    out.set("saturation", sat)
    if level is not None:
        out.set("level", level)
    lv = level if level is not None else int(number(dev.value("level") or 100))
    hexv = hsv_hex(hue, sat, lv)
    out.set("RGB", hexv)
    out.set("color", hexv)
    out.set("colorName", color_name_from_hue(hue, sat))
    if "ColorMode" in _caps(dev):
        out.set("colorMode", "RGB")
    _switch_on(dev, out)


def _set_color(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    cmap = args[0]
    if not isinstance(cmap, dict):
        raise CommandError("setColor expects a color map")
    try:
        if "hex" in cmap:
            hx = str(cmap["hex"]).lstrip("#")
            r, g, b = (int(hx[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
            h, s, v = colorsys.rgb_to_hsv(r, g, b)
            _apply_hsl(dev, out, round(h * 100), round(s * 100), max(1, round(v * 100)))
            return
        hue = clamp(number(cmap.get("hue", dev.value("hue") or 0)), 0, 100)
        sat = clamp(number(cmap.get("saturation", dev.value("saturation") or 0)), 0, 100)
        lvl = cmap.get("level")
        level = clamp(number(lvl), 0, 100) if lvl is not None else None
    except (ValueError, TypeError, IndexError) as err:
        raise CommandError(f"Invalid color map: {err}") from err
    _apply_hsl(dev, out, hue, sat, level)


def _set_hue(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    sat = int(number(dev.value("saturation") or 100))
    _apply_hsl(dev, out, clamp(number(args[0]), 0, 100), sat, None)


def _set_sat(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    hue = int(number(dev.value("hue") or 0))
    _apply_hsl(dev, out, hue, clamp(number(args[0]), 0, 100), None)


def _lock(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("lock", "locked")


def _unlock(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("lock", "unlocked")


def _set_code(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    pos = str(int(number(args[0])))
    pin = str(args[1])
    name = str(args[2]) if len(args) > 2 and args[2] is not None else f"code #{pos}"
    if not pin.isdigit():
        raise CommandError("pinCode must be digits")
    codes = _lock_codes(dev)
    existed = pos in codes
    codes[pos] = {"name": name, "code": pin}
    out.set("lockCodes", _dump(codes))
    out.set("codeChanged", "changed" if existed else "added", force=True)


def _delete_code(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    pos = str(int(number(args[0])))
    codes = _lock_codes(dev)
    if pos in codes:
        del codes[pos]
        out.set("lockCodes", _dump(codes))
        out.set("codeChanged", "deleted", force=True)
    else:
        out.set("codeChanged", "failed", force=True)


def _set_code_length(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("codeLength", clamp(number(args[0]), 4, 8))


def _noop(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    return None


def _travel(
    out: Outcome, attr: str, moving: str, final: str, travel: float, extra: list[Change]
) -> None:
    out.set(attr, moving)
    out.later.append((travel, [Change(attr, final), *extra]))


def _door_open(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    if dev.value("door") in ("open", "opening"):
        return
    extra = [Change("contact", "open")] if "ContactSensor" in _caps(dev) else []
    _travel(out, "door", "opening", "open", travel, extra)


def _door_close(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    if dev.value("door") in ("closed", "closing"):
        return
    extra = [Change("contact", "closed")] if "ContactSensor" in _caps(dev) else []
    _travel(out, "door", "closing", "closed", travel, extra)


def _valve_open(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("valve", "open")


def _valve_close(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("valve", "closed")


def _shade_open(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    if dev.value("windowShade") == "open":
        return
    _travel(out, "windowShade", "opening", "open", travel, _shade_pos(dev, 100))


def _shade_close(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    if dev.value("windowShade") == "closed":
        return
    _travel(out, "windowShade", "closing", "closed", travel, _shade_pos(dev, 0))


def _shade_pos(dev: Device, pos: int) -> list[Change]:
    extra = [Change("position", pos)]
    if "SwitchLevel" in _caps(dev):
        extra.append(Change("level", pos))
    return extra


def _set_position(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    pos = clamp(number(args[0]), 0, 100)
    final = "closed" if pos == 0 else "open" if pos == 100 else "partially open"
    cur = int(number(dev.value("position") or 0))
    if pos == cur:
        out.set("windowShade", final)
        return
    moving = "opening" if pos > cur else "closing"
    _travel(out, "windowShade", moving, final, travel, _shade_pos(dev, pos))


def _shade_start(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    (_shade_open if args[0] == "open" else _shade_close)(dev, [], out, travel)


def _alarm(value: str) -> Handler:
    def h(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
        out.set("alarm", value)

    return h


def _tmode(mode: str) -> Handler:
    def h(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
        out.set("thermostatMode", mode)
        _thermo_recalc(dev, out, thermostatMode=mode)

    return h


def _fmode(mode: str) -> Handler:
    def h(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
        out.set("thermostatFanMode", mode)

    return h


def _set_tmode(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    supported = dev.value("supportedThermostatModes")
    mode = str(args[0])
    if supported:
        try:
            allowed = json.loads(str(supported))
        except ValueError:
            allowed = None
        if isinstance(allowed, list) and mode not in allowed:
            raise CommandError(f"Unsupported thermostat mode '{mode}'")
    _tmode(mode)(dev, args, out, travel)


def _set_fmode(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("thermostatFanMode", str(args[0]))


def _heat_sp(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    sp = number(args[0])
    out.set("heatingSetpoint", sp)
    _thermo_recalc(dev, out, heatingSetpoint=sp)


def _cool_sp(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    sp = number(args[0])
    out.set("coolingSetpoint", sp)
    _thermo_recalc(dev, out, coolingSetpoint=sp)


def _set_schedule(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    out.set("schedule", _dump(args[0]))


def _button(attr: str) -> Handler:
    def h(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
        btn = int(number(args[0]))
        count = dev.value("numberOfButtons")
        if btn < 1 or (count is not None and btn > int(number(count))):
            raise CommandError(f"Button {btn} is out of range")
        out.set(attr, btn, force=True)

    return h


def _keypad(value: str) -> Handler:
    def h(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
        out.set("securityKeypad", value)

    return h


def _supported_speeds(dev: Device) -> list[str]:
    raw = dev.value("supportedFanSpeeds")
    try:
        speeds = json.loads(str(raw)) if raw else list(FAN_SPEEDS)
    except ValueError:
        speeds = list(FAN_SPEEDS)
    return [str(s) for s in speeds] if isinstance(speeds, list) else list(FAN_SPEEDS)


def _set_speed(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    speed = str(args[0])
    if speed not in _supported_speeds(dev) and speed != "on":
        raise CommandError(f"Unsupported fan speed '{speed}'")
    if speed == "on":
        speed = str(dev.state.get("lastSpeed", "medium"))
    out.set("speed", speed)
    if "Switch" in _caps(dev):
        out.set("switch", "off" if speed == "off" else "on")


def _cycle_speed(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
    order = [s for s in _supported_speeds(dev) if s not in ("off", "on", "auto")]
    cur = str(dev.value("speed"))
    nxt = order[(order.index(cur) + 1) % len(order)] if cur in order else order[0]
    _set_speed(dev, [nxt], out, travel)


def _setter(attr: str, value: object = None) -> Handler:
    def h(dev: Device, args: list[object], out: Outcome, travel: float) -> None:
        out.set(attr, args[0] if value is None else value)

    return h


_CAP_HANDLERS: dict[str, dict[str, Handler]] = {
    "Switch": {"on": _on, "off": _off},
    "Light": {"on": _on, "off": _off},
    "Outlet": {"on": _on, "off": _off},
    "SwitchLevel": {"setLevel": _set_level},
    "ChangeLevel": {"startLevelChange": _noop, "stopLevelChange": _noop},
    "ColorTemperature": {"setColorTemperature": _set_ct},
    "ColorControl": {"setColor": _set_color, "setHue": _set_hue, "setSaturation": _set_sat},
    "Lock": {"lock": _lock, "unlock": _unlock},
    "LockCodes": {
        "setCode": _set_code,
        "deleteCode": _delete_code,
        "getCodes": _noop,
        "setCodeLength": _set_code_length,
    },
    "GarageDoorControl": {"open": _door_open, "close": _door_close},
    "Valve": {"open": _valve_open, "close": _valve_close},
    "WindowShade": {
        "open": _shade_open,
        "close": _shade_close,
        "setPosition": _set_position,
        "startPositionChange": _shade_start,
        "stopPositionChange": _noop,
    },
    "Alarm": {
        "both": _alarm("both"),
        "off": _alarm("off"),
        "siren": _alarm("siren"),
        "strobe": _alarm("strobe"),
    },
    "Thermostat": {
        "auto": _tmode("auto"),
        "cool": _tmode("cool"),
        "emergencyHeat": _tmode("emergency heat"),
        "heat": _tmode("heat"),
        "off": _tmode("off"),
        "fanAuto": _fmode("auto"),
        "fanCirculate": _fmode("circulate"),
        "fanOn": _fmode("on"),
        "setCoolingSetpoint": _cool_sp,
        "setHeatingSetpoint": _heat_sp,
        "setSchedule": _set_schedule,
        "setThermostatFanMode": _set_fmode,
        "setThermostatMode": _set_tmode,
    },
    "PushableButton": {"push": _button("pushed")},
    "HoldableButton": {"hold": _button("held")},
    "ReleasableButton": {"release": _button("released")},
    "DoubleTapableButton": {"doubleTap": _button("doubleTapped")},
    "SecurityKeypad": {
        "armAway": _keypad("armed away"),
        "armHome": _keypad("armed home"),
        "armNight": _keypad("armed night"),
        "disarm": _keypad("disarmed"),
        "setCode": _set_code,
        "deleteCode": _delete_code,
        "getCodes": _noop,
        "setCodeLength": _set_code_length,
        "setEntryDelay": _noop,
        "setExitDelay": _noop,
    },
    "FanControl": {"setSpeed": _set_speed, "cycleSpeed": _cycle_speed},
}

_CUSTOM_HANDLERS: dict[str, Handler] = {
    "arrived": _setter("presence", "present"),
    "departed": _setter("presence", "not present"),
    "active": _setter("motion", "active"),
    "inactive": _setter("motion", "inactive"),
    "open": _setter("contact", "open"),
    "close": _setter("contact", "closed"),
    "setTemperature": _setter("temperature"),
    "resume": _noop,
}

_GENERIC_NOOP = {"refresh", "configure", "ping", "initialize"}


def execute(dev: Device, cmd_name: str, raw_args: list[object], *, travel: float) -> Outcome:
    """Work out the effect of running ``cmd_name`` on ``dev`` (does not mutate ``dev``)."""
    pairs = [(cap, c) for cap, c in capability_commands(dev.driver) if c.name == cmd_name]
    if not pairs:
        raise UnknownCommand(f"Command '{cmd_name}' not found for device {dev.id}")
    args = coerce_args(pairs[0][1], raw_args)
    from_source = run_driver_method(dev, cmd_name, args)
    if from_source is not None:
        return from_source
    out = Outcome()
    if dev.driver.source is not None and all(cap is None for cap, _c in pairs):
        # a declared command the driver has no method for: the hub throws
        # MissingMethodException, nothing changes
        msg = f"{dev.display_name}: the driver has no method {cmd_name}() (nothing happens)"
        out.notes.append(msg)
        _LOG.info("user driver: %s", msg)
        return out
    for cap, _cmd in pairs:
        if cap is None:
            handler = _CUSTOM_HANDLERS.get(cmd_name, _noop)
        elif cmd_name in _GENERIC_NOOP:
            handler = _noop
        else:
            handler = _CAP_HANDLERS.get(cap, {}).get(cmd_name, _noop)
        try:
            handler(dev, args, out, travel)
        except CommandError:
            raise
        except (ValueError, TypeError, IndexError, KeyError) as err:
            raise CommandError(f"{cmd_name} failed: {err}") from err
    return out


# --------------------------------------------------------------------------- user drivers
#
# A device on an installed (user) driver runs the command's METHOD from the driver's source.
# The evaluator reads the common driver patterns and nothing more:
#
# * ``sendEvent(name: "x", value: <expr>[, isStateChange: true, ...])`` (also without
#   parentheses, or with one map argument): an event, as for any other device;
# * expressions: literals, lists/maps, GStrings, the method's parameters and ``def``/typed
#   locals, ``device.currentValue("x")`` (``latestValue``, ``currentState("x")?.value``,
#   ``displayName``/``label``/``name``), ``settings.x`` and bare preference names,
#   ``state.x`` (read-only), ``+ - * / %``, comparisons, ``&& || !``, ``?:`` and ``? :``,
#   ``as Integer``/``as BigDecimal``/``as String``..., ``.toInteger()`` and similar,
#   ``Math.max``/``min``/``abs``/``round``;
# * statements: locals and assignments (``=``, ``+=``, ``++``...), ``if``/``else``,
#   ``return``, calls of the driver's other methods, ``try`` (its body), ``log.*`` (ignored).
#
# Groovy's own failures are kept: ``null + 1`` throws on the hub, so the method stops there
# (events already sent stay sent). A statement the evaluator cannot read (``runIn``,
# ``state.x = ...``, loops, closures, radio commands...) is a no-op: it is skipped and logged
# (Python logger ``hubitat_emulator.commands`` and ``Outcome.notes``), never a crash.

_LOG = logging.getLogger(__name__)

_MAX_DEPTH = 16
_MAX_STEPS = 2000
_TYPES_INT = {"Integer", "int", "Long", "long", "Short", "short", "BigInteger"}
_TYPES_DEC = {"BigDecimal", "Double", "double", "Float", "float", "Number"}
_TYPES_DECL = (
    _TYPES_INT
    | _TYPES_DEC
    | {"def", "var", "String", "Boolean", "boolean", "Map", "List", "Object", "final"}
)
_CONTINUE_AFTER = {
    "+", "-", "*", "/", "%", "=", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "?:", "?",
    ":", ",", ".", "?.", "!", "+=", "-=", "*=", "/=", "(", "[",
}  # fmt: skip
_CONTINUE_BEFORE = {".", "?.", "?:", "&&", "||", "?", ":"}


class _Unevaluable(Exception):
    """The evaluator cannot read this (a no-op, logged)."""


class _GroovyError(Exception):
    """What the hub's Groovy would throw here (the method stops)."""


class _Return(Exception):
    """``return`` (control flow)."""

    def __init__(self, value: object) -> None:
        super().__init__("return")
        self.value = value


@dataclass(frozen=True)
class _Obj:
    """A Groovy object the evaluator knows: device, settings, state, log, Math, Integer, or a
    device's current state (``what`` = "state:<attr>")."""

    what: str


Node = tuple[Any, ...]


def groovy_str(value: object) -> str:
    """A value as Groovy's ``toString()`` writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(groovy_str(v) for v in value) + "]"
    if isinstance(value, dict):
        return "[" + ", ".join(f"{k}:{groovy_str(v)}" for k, v in value.items()) + "]"
    return str(value)


def _truth(value: object) -> bool:
    if value is None:
        return False
    if isinstance(value, (bool, int, float, str, list, dict)):
        return bool(value)
    return True


def _is_num(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _num(value: object) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Unevaluable(f"{groovy_str(value)} is not a number")
    return value


def _cast(value: object, type_name: str) -> object:
    """``value as <type>`` (and typed declarations)."""
    if value is None:
        return None
    if type_name in _TYPES_INT:
        if _is_num(value):
            return int(_num(value))
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                raise _GroovyError(f'NumberFormatException: For input string: "{value}"') from None
        raise _GroovyError(f"Cannot cast {groovy_str(value)} to {type_name}")
    if type_name in _TYPES_DEC:
        if _is_num(value):
            return value
        if isinstance(value, str):
            try:
                return number(value)
            except ValueError:
                raise _GroovyError(f"NumberFormatException: {value}") from None
        raise _GroovyError(f"Cannot cast {groovy_str(value)} to {type_name}")
    if type_name == "String":
        return groovy_str(value)
    if type_name in ("Boolean", "boolean"):
        return _truth(value)
    if type_name in ("def", "var", "Object", "final"):
        return value
    if type_name in ("Map", "List"):
        if isinstance(value, dict if type_name == "Map" else list):
            return value
        raise _GroovyError(f"Cannot cast {groovy_str(value)} to {type_name}")
    raise _Unevaluable(f"as {type_name}")


class _Parser:
    """A Pratt parser of one Groovy expression (tokens from ``devstate.groovy_tokens``)."""

    _BINARY = {
        "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4,
        "+": 5, "-": 5, "*": 6, "/": 6, "%": 6,
    }  # fmt: skip

    def __init__(self, toks: list[Tok] | tuple[Tok, ...]) -> None:
        self.toks = [t for t in toks if t.kind != "nl"]
        self.i = 0

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def is_op(self, text: str, k: int = 0) -> bool:
        t = self.peek(k)
        return t is not None and t.kind == "op" and t.text == text

    def take(self, text: str) -> None:
        if not self.is_op(text):
            raise _Unevaluable(f"expected '{text}'")
        self.i += 1

    def parse(self) -> Node:
        node = self.expr()
        if self.i != len(self.toks):
            raise _Unevaluable(" ".join(t.text for t in self.toks[self.i :]))
        return node

    def expr(self) -> Node:
        cond = self.binary(0)
        if self.is_op("?:"):
            self.i += 1
            return ("elvis", cond, self.expr())
        if self.is_op("?"):
            self.i += 1
            yes = self.expr()
            self.take(":")
            return ("tern", cond, yes, self.expr())
        return cond

    def binary(self, level: int) -> Node:
        left = self.unary()
        while True:
            t = self.peek()
            if t is not None and t.kind == "id" and t.text in ("as", "instanceof"):
                if level > 4:
                    return left
                nxt = self.peek(1)
                if t.text == "instanceof" or nxt is None or nxt.kind != "id":
                    raise _Unevaluable(t.text)
                self.i += 2
                left = ("as", left, nxt.text)
                continue
            prec = self._BINARY.get(t.text) if t is not None and t.kind == "op" else None
            if prec is None or prec <= level:
                return left
            self.i += 1
            left = ("bin", t.text if t else "", left, self.binary(prec))

    def unary(self) -> Node:
        if self.is_op("-") or self.is_op("!") or self.is_op("+"):
            op = self.toks[self.i].text
            self.i += 1
            return ("un", op, self.unary())
        return self.postfix(self.primary())

    def args(self, close: str | None) -> tuple[list[Node], dict[str, Node]]:
        """Call arguments up to ``close`` (None: to the end, Groovy's call without
        parentheses)."""
        pos: list[Node] = []
        named: dict[str, Node] = {}
        while self.peek() is not None if close is None else not self.is_op(close):
            t, nxt = self.peek(), self.peek(1)
            if t is None:
                raise _Unevaluable("unclosed call")
            if t.kind in ("id", "str") and nxt is not None and nxt.text == ":":
                self.i += 2
                named[t.text if t.kind == "id" else str(t.value)] = self.expr()
            else:
                pos.append(self.expr())
            if not self.is_op(","):
                break
            self.i += 1
        if close is None:
            if self.peek() is not None:
                raise _Unevaluable(_show(self.toks[self.i :]))
        else:
            self.take(close)
        return pos, named

    def postfix(self, node: Node) -> Node:
        while True:
            if self.is_op(".") or self.is_op("?."):
                safe = self.toks[self.i].text == "?."
                name = self.peek(1)
                if name is None or name.kind not in ("id", "str"):
                    raise _Unevaluable("member")
                self.i += 2
                member = name.text if name.kind == "id" else str(name.value)
                if self.is_op("("):
                    self.i += 1
                    pos, named = self.args(")")
                    node = ("mcall", node, member, pos, named, safe)
                else:
                    node = ("attr", node, member, safe)
            elif self.is_op("["):
                self.i += 1
                index = self.expr()
                self.take("]")
                node = ("index", node, index)
            else:
                return node

    def primary(self) -> Node:
        t = self.peek()
        if t is None:
            raise _Unevaluable("missing value")
        self.i += 1
        if t.kind in ("num", "str"):
            return ("lit", t.value)
        if t.kind == "gstr":
            return ("gstr", str(t.value))
        if t.kind == "id":
            if t.text in ("true", "false", "null"):
                return ("lit", {"true": True, "false": False, "null": None}[t.text])
            if self.is_op("("):
                self.i += 1
                pos, named = self.args(")")
                return ("call", t.text, pos, named)
            return ("var", t.text)
        if t.text == "(":
            inner = self.expr()
            self.take(")")
            return inner
        if t.text == "[":
            if self.is_op(":") and self.is_op("]", 1):
                self.i += 2
                return ("map", {})
            pos, named = self.args("]")
            if named and pos:
                raise _Unevaluable("mixed list/map")
            return ("map", named) if named else ("list", pos)
        raise _Unevaluable(t.text)


def _parse_expr(toks: list[Tok] | tuple[Tok, ...]) -> Node:
    return _Parser(toks).parse()


@dataclass
class _Run:
    """One command's evaluation: the device, the driver's methods, the changes so far."""

    dev: Device
    methods: dict[str, tuple[Method, ...]]
    out: Outcome
    steps: int = 0

    def note(self, text: str) -> None:
        msg = f"{self.dev.display_name} ({self.dev.driver.name}): {text}"
        self.out.notes.append(msg)
        _LOG.info("user driver: %s", msg)

    def current(self, attr: str) -> object:
        for ch in reversed(self.out.changes):
            if ch.attr == attr:
                return ch.value
        return self.dev.value(attr)

    def setting(self, name: str) -> tuple[bool, object]:
        s = self.dev.settings.get(name)
        if s is not None:
            return True, s.value
        pref = next((p for p in self.dev.driver.prefs if p.name == name), None)
        return (True, pref.default) if pref is not None else (False, None)

    # ---------------------------------------------------------------- methods

    def invoke(self, method: Method, args: list[object], depth: int) -> object:
        if depth > _MAX_DEPTH:
            raise _GroovyError("StackOverflowError")
        scope: dict[str, object] = {}
        for k, (pname, default) in enumerate(method.params):
            if k < len(args):
                scope[pname] = args[k]
            elif default:
                scope[pname] = self.eval(_parse_expr(default), scope, depth)
            else:
                raise _GroovyError(f"MissingMethodException: {method.name}() takes more arguments")
        try:
            self.block(list(method.body), 0, len(method.body), scope, depth)
        except _Return as ret:
            return ret.value
        return None

    def pick(self, name: str, nargs: int) -> Method | None:
        for m in self.methods.get(name, ()):
            required = sum(1 for _n, d in m.params if not d)
            if required <= nargs <= len(m.params):
                return m
        return None

    # ---------------------------------------------------------------- statements

    def block(
        self, toks: list[Tok], i: int, end: int, scope: dict[str, object], depth: int
    ) -> None:
        while i < end:
            t = toks[i]
            if t.kind == "nl" or t.text == ";":
                i += 1
                continue
            i = self.statement(toks, i, end, scope, depth)

    def statement(
        self, toks: list[Tok], i: int, end: int, scope: dict[str, object], depth: int
    ) -> int:
        self.steps += 1
        if self.steps > _MAX_STEPS:
            raise _GroovyError("too many statements (the emulator stops here)")
        t = toks[i]
        if t.kind == "id" and t.text == "if":
            return self.if_statement(toks, i, end, scope, depth)
        if t.kind == "id" and t.text == "try":
            start, stop, nxt = _branch(toks, i + 1, end)
            try:
                self.block(toks, start, stop, scope, depth)
            except _GroovyError as err:
                self.note(f"an exception in a try block ({err}); its catch is not run")
            while (j := _skip(toks, nxt, end)) < end and toks[j].text in ("catch", "finally"):
                k = _skip(toks, j + 1, end)
                if toks[j].text == "catch" and k < end and toks[k].text == "(":
                    k = closing(toks, k) + 1
                start, stop, nxt = _branch(toks, k, end)
                if toks[j].text == "finally":
                    self.block(toks, start, stop, scope, depth)
            return nxt
        if t.kind == "id" and t.text in ("for", "while", "switch", "do", "synchronized"):
            k = _skip(toks, i + 1, end)
            if k < end and toks[k].text == "(":
                k = closing(toks, k) + 1
            _start, _stop, nxt = _branch(toks, k, end)
            self.note(f"skipped a '{t.text}' statement (not evaluated by the emulator)")
            return nxt
        stop = _stmt_end(toks, i, end)
        part = toks[i:stop]
        try:
            self.simple(part, scope, depth)
        except _Unevaluable:
            if not _is_log(part):
                self.note(f"skipped `{_show(part)}` (not evaluated by the emulator)")
        return stop

    def if_statement(
        self, toks: list[Tok], i: int, end: int, scope: dict[str, object], depth: int
    ) -> int:
        branches, nxt = _if_parts(toks, i, end)
        for cond, start, stop in branches:
            try:
                chosen = _truth(self.eval(_parse_expr(cond), scope, depth))
            except _Unevaluable as err:
                if not all(_only_logging(toks, s, e) for _c, s, e in branches):
                    self.note(f"skipped an if statement: cannot evaluate `{err}`")
                return nxt
            if chosen:
                self.block(toks, start, stop, scope, depth)
                break
        return nxt

    def simple(self, part: list[Tok], scope: dict[str, object], depth: int) -> None:
        toks = [t for t in part if t.kind != "nl"]
        if not toks:
            return
        if _is_log(toks):
            return
        first = toks[0]
        if first.kind == "id" and first.text == "return":
            rest = toks[1:]
            raise _Return(self.eval(_parse_expr(rest), scope, depth) if rest else None)
        # declarations: def x = ..., Integer x = ..., final int x = ...
        k = 0
        while k < len(toks) and toks[k].kind == "id" and toks[k].text in _TYPES_DECL:
            k += 1
        if k and k < len(toks) and toks[k].kind == "id":
            declared = toks[k - 1].text
            name = toks[k].text
            if k + 1 == len(toks):
                scope[name] = None
                return
            if toks[k + 1].text == "=":
                scope[name] = _cast(self.eval(_parse_expr(toks[k + 2 :]), scope, depth), declared)
                return
            raise _Unevaluable(_show(toks))
        # assignments to locals
        if first.kind == "id" and len(toks) >= 2 and toks[1].kind == "op":
            op = toks[1].text
            if op in ("=", "+=", "-=", "*=", "/=") and first.text in scope:
                value = self.eval(_parse_expr(toks[2:]), scope, depth)
                if op != "=":
                    value = _binary(op[0], scope[first.text], value)
                scope[first.text] = value
                return
            if op in ("++", "--") and len(toks) == 2 and first.text in scope:
                scope[first.text] = _binary(op[0], scope[first.text], 1)
                return
        if any(t.kind == "op" and t.text in ("=", "+=", "-=", "++", "--") for t in toks):
            raise _Unevaluable(_show(toks))  # state.x = ..., device fields, unknown names
        # a call without parentheses: sendEvent name: "x", value: 1
        if (
            first.kind == "id"
            and len(toks) > 1
            and (toks[1].kind != "op" or toks[1].text == "[")
            and toks[1].text not in ("as", "instanceof")
        ):
            pos, named = _Parser(toks[1:]).args(None)
            self.eval(("call", first.text, pos, named), scope, depth)
            return
        self.eval(_parse_expr(toks), scope, depth)

    # ---------------------------------------------------------------- expressions

    def eval(self, node: Node, scope: dict[str, object], depth: int) -> object:
        kind = node[0]
        if kind == "lit":
            return node[1]
        if kind == "gstr":
            return self.gstring(str(node[1]), scope, depth)
        if kind == "var":
            return self.var(str(node[1]), scope)
        if kind == "list":
            return [self.eval(n, scope, depth) for n in node[1]]
        if kind == "map":
            return {k: self.eval(n, scope, depth) for k, n in node[1].items()}
        if kind == "un":
            value = self.eval(node[2], scope, depth)
            if node[1] == "!":
                return not _truth(value)
            if not _is_num(value):
                raise _GroovyError(f"Cannot negate {groovy_str(value)}")
            return -_num(value) if node[1] == "-" else value
        if kind == "bin":
            op = str(node[1])
            left = self.eval(node[2], scope, depth)
            if op == "&&":
                return _truth(left) and _truth(self.eval(node[3], scope, depth))
            if op == "||":
                return _truth(left) or _truth(self.eval(node[3], scope, depth))
            return _binary(op, left, self.eval(node[3], scope, depth))
        if kind == "elvis":
            left = self.eval(node[1], scope, depth)
            return left if _truth(left) else self.eval(node[2], scope, depth)
        if kind == "tern":
            chosen = node[2] if _truth(self.eval(node[1], scope, depth)) else node[3]
            return self.eval(chosen, scope, depth)
        if kind == "as":
            return _cast(self.eval(node[1], scope, depth), str(node[2]))
        if kind == "index":
            target = self.eval(node[1], scope, depth)
            index = self.eval(node[2], scope, depth)
            if isinstance(target, dict):
                return target.get(index if not _is_num(index) else groovy_str(index))
            if isinstance(target, _Obj) and target.what == "settings":
                return self.setting(groovy_str(index))[1]
            raise _Unevaluable("index")
        if kind == "attr":
            return self.attr(self.eval(node[1], scope, depth), str(node[2]), bool(node[3]))
        if kind == "mcall" and node[1] == ("var", "device") and node[2] == "sendEvent":
            return self.call("sendEvent", node[3], node[4], scope, depth)
        if kind == "mcall":
            target = self.eval(node[1], scope, depth)
            pos = [self.eval(n, scope, depth) for n in node[3]]
            return self.member_call(target, str(node[2]), pos, bool(node[5]))
        if kind == "call":
            return self.call(str(node[1]), node[2], node[3], scope, depth)
        raise _Unevaluable(str(kind))

    def gstring(self, body: str, scope: dict[str, object], depth: int) -> str:
        out: list[str] = []
        i = 0
        while i < len(body):
            ch = body[i]
            if ch == "\\" and i + 1 < len(body):
                out.append(body[i + 1] if body[i + 1] != "n" else "\n")
                i += 2
                continue
            if ch == "$" and body[i + 1 : i + 2] == "{":
                close = body.find("}", i)
                if close < 0:
                    raise _Unevaluable("GString")
                inner = groovy_tokens(body[i + 2 : close])
                out.append(groovy_str(self.eval(_parse_expr(inner), scope, depth)))
                i = close + 1
                continue
            if ch == "$" and (m := re.match(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", body[i + 1 :])):
                inner = groovy_tokens(m.group())
                out.append(groovy_str(self.eval(_parse_expr(inner), scope, depth)))
                i += 1 + len(m.group())
                continue
            out.append(ch)
            i += 1
        return "".join(out)

    def var(self, name: str, scope: dict[str, object]) -> object:
        if name in scope:
            return scope[name]
        if name in ("device", "settings", "state", "log", "Math", "Integer", "location"):
            return _Obj(name)
        found, value = self.setting(name)
        if found:
            return value
        raise _Unevaluable(name)

    def attr(self, target: object, name: str, safe: bool) -> object:
        if target is None:
            if safe:
                return None
            raise _GroovyError(f"NullPointerException: Cannot get property '{name}' on null")
        if isinstance(target, _Obj):
            if target.what == "device":
                fields = {
                    "displayName": self.dev.display_name,
                    "label": self.dev.label,
                    "name": self.dev.name,
                    "deviceNetworkId": self.dev.dni,
                    "id": self.dev.id,
                }
                if name in fields:
                    return fields[name]
            elif target.what == "settings":
                return self.setting(name)[1]
            elif target.what == "state":
                return self.dev.state.get(name)
            elif target.what.startswith("state:") and name == "value":
                return self.current(target.what[6:])
            raise _Unevaluable(f"{target.what}.{name}")
        if isinstance(target, dict):
            return target.get(name)
        raise _Unevaluable(f".{name}")

    def member_call(self, target: object, name: str, args: list[object], safe: bool) -> object:
        if target is None:
            if safe:
                return None
            raise _GroovyError(f"NullPointerException: Cannot invoke method {name}() on null")
        if isinstance(target, _Obj):
            what = target.what
            if what == "device" and name in ("currentValue", "latestValue") and args:
                return self.current(groovy_str(args[0]))
            if what == "device" and name in ("currentState", "latestState") and args:
                return _Obj("state:" + groovy_str(args[0]))
            if what == "device" and name in ("getDisplayName", "getLabel", "getName"):
                return self.attr(target, name[3].lower() + name[4:], safe)
            if what == "Math" and args:
                nums = [_num(a) for a in args]
                if name in ("max", "min") and len(nums) == 2:
                    return max(nums) if name == "max" else min(nums)
                if name in ("abs", "round") and len(nums) == 1:
                    return abs(nums[0]) if name == "abs" else round(nums[0])
            if what == "Integer" and name in ("parseInt", "valueOf") and len(args) == 1:
                return _cast(args[0], "Integer")
            raise _Unevaluable(f"{what}.{name}()")
        conversions = {
            "toInteger": "Integer", "toLong": "Long", "intValue": "Integer",
            "toBigDecimal": "BigDecimal", "toDouble": "Double", "toFloat": "Float",
            "toString": "String",
        }  # fmt: skip
        if name in conversions and not args:
            return _cast(target, conversions[name])
        if isinstance(target, str) and not args:
            if name == "trim":
                return target.strip()
            if name in ("toLowerCase", "toUpperCase"):
                return target.lower() if name == "toLowerCase" else target.upper()
            if name in ("isNumber", "isInteger", "isBigDecimal"):
                try:
                    value = number(target)
                except ValueError:
                    return False
                return name != "isInteger" or isinstance(value, int)
        if _is_num(target) and name in ("abs", "round") and not args:
            return abs(_num(target)) if name == "abs" else round(_num(target))
        raise _Unevaluable(f".{name}()")

    def call(
        self,
        name: str,
        pos_nodes: list[Node],
        named_nodes: dict[str, Node],
        scope: dict[str, object],
        depth: int,
    ) -> object:
        if name == "sendEvent" and named_nodes:
            # only what makes the event: a descriptionText the evaluator cannot build (or a
            # unit) does not keep the event from happening
            self.send_event(
                {
                    k: self.eval(n, scope, depth)
                    for k, n in named_nodes.items()
                    if k in ("name", "value", "isStateChange")
                }
            )
            return None
        pos = [self.eval(n, scope, depth) for n in pos_nodes]
        named = {k: self.eval(n, scope, depth) for k, n in named_nodes.items()}
        if name == "sendEvent":
            if len(pos) != 1 or not isinstance(pos[0], dict):
                raise _Unevaluable("sendEvent without a map")
            self.send_event(pos[0])
            return None
        if named:
            pos = [named, *pos]  # Groovy passes named arguments as a leading map
        method = self.pick(name, len(pos))
        if method is not None:
            return self.invoke(method, pos, depth + 1)
        if name in self.methods:
            raise _GroovyError(f"MissingMethodException: no {name}() for {len(pos)} arguments")
        raise _Unevaluable(f"{name}()")

    def send_event(self, event: dict[Any, Any]) -> None:
        attr = event.get("name")
        if not isinstance(attr, str) or not attr:
            raise _Unevaluable("sendEvent without a name")
        value = event.get("value")
        adef = self.dev.attr_defs().get(attr)
        try:
            to_attr_value(adef, value)
        except (ValueError, TypeError):
            kind = adef.data_type if adef else "valid"
            self.note(f"sendEvent({attr}: {groovy_str(value)}) skipped: not a {kind} value")
            return
        force = event.get("isStateChange") is True
        self.out.changes.append(Change(attr, value, force))


def _skip(toks: list[Tok], i: int, end: int) -> int:
    while i < end and (toks[i].kind == "nl" or toks[i].text == ";"):
        i += 1
    return i


def _stmt_end(toks: list[Tok], i: int, end: int) -> int:
    """The end of the simple statement at ``toks[i]`` (exclusive): a newline or ``;`` outside
    brackets, unless the line obviously continues (a trailing operator, a leading ``.``)."""
    j = i
    while j < end:
        t = toks[j]
        if t.kind == "op" and t.text in ("(", "[", "{"):
            j = closing(toks, j) + 1
            continue
        if t.kind == "op" and t.text in (")", "]", "}", ";"):
            return j
        if t.kind == "nl":
            prev = toks[j - 1] if j > i else None
            nxt = toks[j + 1] if j + 1 < end else None
            continues = (
                prev is not None and prev.kind == "op" and prev.text in _CONTINUE_AFTER
            ) or (nxt is not None and nxt.kind == "op" and nxt.text in _CONTINUE_BEFORE)
            if not continues:
                return j
        j += 1
    return min(j, end)


def _is_log(toks: list[Tok]) -> bool:
    toks = [t for t in toks if t.kind != "nl"]
    return len(toks) >= 3 and toks[0].text == "log" and toks[1].text in (".", "?.")


def _branch(toks: list[Tok], i: int, end: int) -> tuple[int, int, int]:
    """The statement or block at ``i``: (start, stop, index after it)."""
    i = _skip(toks, i, end)
    if i < end and toks[i].text == "{":
        close = min(closing(toks, i), end)
        return i + 1, close, close + 1
    if i < end and toks[i].text == "if":
        _parts, nxt = _if_parts(toks, i, end)
        return i, nxt, nxt
    stop = _stmt_end(toks, i, end)
    return i, stop, stop


_TRUE: tuple[Tok, ...] = (Tok("id", "true"),)


def _if_parts(
    toks: list[Tok], i: int, end: int
) -> tuple[list[tuple[tuple[Tok, ...], int, int]], int]:
    """An ``if``/``else if``/``else`` chain at ``toks[i]``: its (condition tokens, start,
    stop) branches (``else`` has the condition ``true``) and the index after it."""
    branches: list[tuple[tuple[Tok, ...], int, int]] = []
    nxt = i
    while True:
        k = _skip(toks, nxt + 1, end)
        if k >= end or toks[k].text != "(":
            return branches, _stmt_end(toks, i, end)
        close = min(closing(toks, k), end)
        start, stop, nxt = _branch(toks, close + 1, end)
        branches.append((tuple(toks[k + 1 : close]), start, stop))
        j = _skip(toks, nxt, end)
        if j < end and toks[j].text == "else":
            k = _skip(toks, j + 1, end)
            if k < end and toks[k].text == "if":
                nxt = k
                continue
            start, stop, nxt = _branch(toks, k, end)
            branches.append((_TRUE, start, stop))
        return branches, nxt


def _only_logging(toks: list[Tok], start: int, end: int) -> bool:
    """Whether a block holds nothing but ``log.*`` lines (and ifs of such lines)."""
    i = start
    while (i := _skip(toks, i, end)) < end:
        if toks[i].text == "if":
            parts, nxt = _if_parts(toks, i, end)
            if not parts or not all(_only_logging(toks, s, e) for _c, s, e in parts):
                return False
            i = max(nxt, i + 1)
            continue
        stop = _stmt_end(toks, i, end)
        if not _is_log(toks[i:stop]):
            return False
        i = max(stop, i + 1)
    return True


def _show(toks: list[Tok] | tuple[Tok, ...]) -> str:
    text = " ".join(t.text for t in toks if t.kind != "nl")
    text = re.sub(r" ?(\??\.) ?", r"\1", text)
    text = re.sub(r"([(\[]) ", r"\1", text)
    text = re.sub(r" ([)\],:])", r"\1", text)
    text = re.sub(r"(\w) \(", r"\1(", text)
    return text if len(text) <= 120 else text[:117] + "..."


def _compare(op: str, less: bool, same: bool) -> bool:
    return {"<": less, "<=": less or same, ">": not (less or same), ">=": not less}[op]


def _binary(op: str, left: object, right: object) -> object:
    if op in ("==", "!="):
        same = (
            left == right
            if (_is_num(left) and _is_num(right))
            else (type(left) is type(right) and left == right) or (left is None and right is None)
        )
        return same if op == "==" else not same
    if op in ("<", ">", "<=", ">="):
        if isinstance(left, str) and isinstance(right, str):
            return _compare(op, left < right, left == right)
        return _compare(op, _num(left) < _num(right), _num(left) == _num(right))
    if op == "+" and (isinstance(left, str) or isinstance(right, str)):
        if left is None:
            raise _GroovyError("NullPointerException: Cannot execute null+" + groovy_str(right))
        return groovy_str(left) + groovy_str(right)
    if left is None or right is None:
        raise _GroovyError(
            f"NullPointerException: Cannot execute {groovy_str(left)}{op}{groovy_str(right)}"
        )
    if not (_is_num(left) and _is_num(right)):
        raise _Unevaluable(f"{groovy_str(left)} {op} {groovy_str(right)}")
    a, b = _num(left), _num(right)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise _GroovyError("ArithmeticException: Division by zero")
    if op == "/":
        q = a / b
        return int(q) if q.is_integer() else q
    if op == "%":
        return a % b
    raise _Unevaluable(op)


def run_driver_method(dev: Device, name: str, args: list[object]) -> Outcome | None:
    """Run the method ``name`` of the device's user driver; None when the source has none."""
    source = dev.driver.source
    if source is None:
        return None
    methods = driver_methods(source)
    if name not in methods:
        return None
    run = _Run(dev, methods, Outcome())
    method = run.pick(name, len(args))
    try:
        if method is None:
            raise _GroovyError(f"MissingMethodException: no {name}() for {len(args)} arguments")
        run.invoke(method, list(args), 0)
    except _GroovyError as err:
        run.note(f"{name}() threw {err}; it stops there (as on the hub)")
    except _Unevaluable as err:
        run.note(f"{name}(): skipped `{err}` (not evaluated by the emulator)")
    except (RecursionError, ValueError, TypeError, IndexError, KeyError, ArithmeticError) as err:
        run.note(f"{name}(): the emulator could not evaluate it ({err!r}); nothing more runs")
    return run.out
