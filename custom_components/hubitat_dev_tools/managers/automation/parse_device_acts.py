"""The spec's newer device and value actions, read and checked for shape: per-mode device
settings, fades and level changes (Rule Machine's ``switchActs`` / ``dimmerActs`` subtypes),
Set Variable from a device attribute or from variable math, and a delay from a variable or a
random one (the on-hub server's fields, ``docs/rule-machine-pages.md``). No hub request here.
"""

from __future__ import annotations

import math
from typing import Any

from .parse_base import _bool, _device_id, _fail, _int, _list, _obj, _text, _unknown
from .spec import DEVICE_ACTION_KINDS, DEVICES_IN_VALUE, Action

DIRECTIONS = ("raise", "lower")
# Set Variable's variable math operators (the on-hub server's valMathOp.<N> options, live)
MATH_BINARY = ("+", "-", "*", "/", "%")
MATH_UNARY = (
    *("negate", "absolute", "round", "random", "sqrt", "sin", "cos", "tan"),
    *("asin", "acos", "atan", "log", "toRadians", "toDegrees"),
)
KELVIN_LOW, KELVIN_HIGH = 1000, 10000
# the keys of these actions whose values are device id lists (a read screens them under the
# device allowlist): stop_level_change's, and choose_per_mode's per mode on / off
DEVICE_LIST_KEYS = ("stop_level_change", "on", "off")
MAX_MODES = 20


def _ids(raw: Any, path: str) -> tuple[str, ...]:
    items = _list(raw, path, minimum=1)
    return tuple(dict.fromkeys(_device_id(v, f"{path}[{i}]") for i, v in enumerate(items)))


def _targets(obj: dict[str, Any], path: str) -> tuple[str, ...]:
    if "device_id" in obj and "device_ids" in obj:
        raise _fail(path, "give device_id or device_ids, not both", "Keep one.")
    if "device_id" in obj:
        return (_device_id(obj["device_id"], f"{path}.device_id"),)
    if "device_ids" in obj:
        return _ids(obj["device_ids"], f"{path}.device_ids")
    raise _fail(path, "names no device", "Add device_ids (the devices it sets).")


def _direction(value: Any, path: str) -> str:
    if value not in DIRECTIONS:
        raise _fail(path, "must be raise or lower", "Give direction: raise or lower.")
    return str(value)


def _per_mode(obj: dict[str, Any], kind: str, path: str) -> dict[str, Any]:
    per = _obj(obj[kind], f"{path}.{kind}")
    if not per or len(per) > MAX_MODES:
        raise _fail(f"{path}.{kind}", f"needs 1 to {MAX_MODES} modes", "Name each mode.")
    out: dict[str, Any] = {}
    for mode, raw in per.items():
        name = _text(mode, f"{path}.{kind}", limit=60)
        here = f"{path}.{kind}.{name}"
        if kind == "set_level_per_mode":
            out[name] = _int(raw, here, low=0, high=100)
        elif kind == "switch_per_mode":
            if raw not in ("on", "off"):
                raise _fail(here, "must be on or off", "Give on or off for each mode.")
            out[name] = raw
        elif kind == "choose_per_mode":
            lists = _obj(raw, here)
            _unknown(lists, {"on", "off"}, here)
            chosen = {k: list(_ids(lists[k], f"{here}.{k}")) for k in ("on", "off") if k in lists}
            if not chosen:
                raise _fail(here, "names no devices", "Give on and/or off device lists.")
            out[name] = chosen
        elif kind == "color_per_mode":
            pair = _obj(raw, here)
            _unknown(pair, {"color", "level"}, here)
            out[name] = {
                "color": _text(pair.get("color"), f"{here}.color", limit=40),
                "level": _int(pair.get("level"), f"{here}.level", low=0, high=100),
            }
        else:
            pair = _obj(raw, here)
            _unknown(pair, {"kelvin", "level"}, here)
            out[name] = {
                "kelvin": _int(
                    pair.get("kelvin"), f"{here}.kelvin", low=KELVIN_LOW, high=KELVIN_HIGH
                ),
                "level": _int(pair.get("level"), f"{here}.level", low=0, high=100),
            }
    return out


def parse_device_action(kind: str, obj: dict[str, Any], path: str) -> Action:
    """One of :data:`~.spec.DEVICE_ACTION_KINDS`."""
    assert kind in DEVICE_ACTION_KINDS
    if kind == "stop_level_change":
        _unknown(obj, {kind}, path)
        ids = _ids(obj[kind], f"{path}.{kind}")
        return Action(kind, device_ids=ids, value=list(ids))
    if kind == "choose_per_mode":
        _unknown(obj, {kind}, path)
        per = _per_mode(obj, kind, path)
        union = [d for lists in per.values() for ids in lists.values() for d in ids]
        return Action(kind, device_ids=tuple(dict.fromkeys(union)), value=per)
    if kind.endswith("_per_mode") or kind in ("start_level_change", "adjust_level"):
        _unknown(obj, {kind, "device_id", "device_ids"}, path)
        value: Any
        if kind == "start_level_change":
            value = _direction(obj[kind], f"{path}.{kind}")
        elif kind == "adjust_level":
            value = _int(obj[kind], f"{path}.{kind}", low=-100, high=100)
            if value == 0:
                raise _fail(f"{path}.{kind}", "must not be 0", "Give the change, e.g. -10.")
        else:
            value = _per_mode(obj, kind, path)
        return Action(kind, device_ids=_targets(obj, path), value=value)
    # fade_level / fade_color_temperature: a target, over minutes, in a direction
    _unknown(
        obj, {kind, "minutes", "direction", "interval_seconds", "device_id", "device_ids"}, path
    )
    if kind == "fade_level":
        target = _int(obj[kind], f"{path}.{kind}", low=0, high=100)
    else:
        target = _int(obj[kind], f"{path}.{kind}", low=KELVIN_LOW, high=KELVIN_HIGH)
    params: list[tuple[str, Any]] = [
        ("minutes", _int(obj.get("minutes"), f"{path}.minutes", low=1, high=1440)),
        ("direction", _direction(obj.get("direction"), f"{path}.direction")),
    ]
    if "interval_seconds" in obj:
        params.append(
            (
                "interval_seconds",
                _int(obj["interval_seconds"], f"{path}.interval_seconds", low=1, high=3600),
            )
        )
    return Action(kind, device_ids=_targets(obj, path), value=target, params=tuple(params))


def _operand(value: Any, path: str) -> int | float | str:
    """A math operand: a number (a constant) or a variable's name."""
    if isinstance(value, bool):
        raise _fail(path, "must be a number or a variable name", "Fix it.")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise _fail(path, "must be a finite number", "Fix it.")
        return int(value) if float(value).is_integer() else value
    return _text(value, path, limit=60)


def parse_variable_source(obj: dict[str, Any], path: str) -> tuple[tuple[str, Any], ...]:
    """Set Variable's from_device {device_id, attribute} or math {left, op, right}, as
    ``params`` (exactly one of them is in ``obj``)."""
    if "from_device" in obj:
        src = _obj(obj["from_device"], f"{path}.from_device")
        _unknown(src, {"device_id", "attribute"}, f"{path}.from_device")
        return (
            (
                "from_device",
                {
                    "device_id": _device_id(src.get("device_id"), f"{path}.from_device.device_id"),
                    "attribute": _text(
                        src.get("attribute"), f"{path}.from_device.attribute", limit=60
                    ),
                },
            ),
        )
    spec = _obj(obj["math"], f"{path}.math")
    _unknown(spec, {"left", "op", "right"}, f"{path}.math")
    op = spec.get("op")
    if op not in (*MATH_BINARY, *MATH_UNARY):
        raise _fail(
            f"{path}.math.op",
            f"{op!r} is not an operator Rule Machine offers",
            "One of: " + " ".join((*MATH_BINARY, *MATH_UNARY)) + ".",
        )
    out: dict[str, Any] = {"left": _operand(spec.get("left"), f"{path}.math.left"), "op": op}
    if op in MATH_BINARY:
        if "right" not in spec:
            raise _fail(f"{path}.math.right", f"'{op}' needs a right operand", "Give right.")
        out["right"] = _operand(spec["right"], f"{path}.math.right")
    elif "right" in spec:
        raise _fail(f"{path}.math.right", f"'{op}' takes one operand", "Drop right.")
    return (("math", out),)


def math_variables(action: Action) -> list[str]:
    """The variables a Set Variable's math reads (operands that are names)."""
    for key, value in action.params:
        if key == "math":
            return [v for k, v in value.items() if k in ("left", "right") and isinstance(v, str)]
    return []


def param(action: Action, key: str) -> Any:
    """One of an action's ``params`` (None when absent)."""
    return dict(action.params).get(key)


def parse_delay_from_variable(obj: dict[str, Any], path: str) -> Action:
    """``{delay_from_variable: name, cancelable?, random?}``: the delay is the variable's value
    in seconds when the action runs."""
    _unknown(obj, {"delay_from_variable", "cancelable", "random"}, path)
    params = (("random", True),) if _bool(obj.get("random", False), f"{path}.random") else ()
    return Action(
        "delay_from_variable",
        text=_text(obj["delay_from_variable"], f"{path}.delay_from_variable", limit=60),
        cancelable=_bool(obj.get("cancelable", False), f"{path}.cancelable"),
        params=params,
    )


def device_kind_of(obj: dict[str, Any]) -> str | None:
    """The device action an object names, if it names one."""
    found = [k for k in DEVICE_ACTION_KINDS if k in obj]
    return found[0] if len(found) == 1 else None


__all__ = [
    "DEVICES_IN_VALUE",
    "DIRECTIONS",
    "MATH_BINARY",
    "MATH_UNARY",
    "device_kind_of",
    "math_variables",
    "param",
    "parse_delay_from_variable",
    "parse_device_action",
    "parse_variable_source",
]
