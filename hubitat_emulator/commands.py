"""Device command semantics: argument coercion and the state changes each command causes.

A command is applied per capability: every capability of the device's driver that defines the
command contributes its effect (e.g. ``off`` on a fan switches ``switch`` off AND sets ``speed``
to ``off``). Driver-specific (non-capability) commands are handled by name.
"""

from __future__ import annotations

import colorsys
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from .catalog import FAN_SPEEDS, AttrDef, CmdDef, capability_commands
from .colors import clamp, color_name_from_ct, color_name_from_hue, hsv_hex
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
    out = Outcome()
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
