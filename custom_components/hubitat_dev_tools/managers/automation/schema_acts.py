"""The JSON Schema of the newer device and value actions (``parse_device_acts``), for
:mod:`.schema`."""

from __future__ import annotations

from typing import Any

from .parse_device_acts import DIRECTIONS, KELVIN_HIGH, KELVIN_LOW, MATH_BINARY, MATH_UNARY

_ID: dict[str, Any] = {"type": ["string", "integer"], "pattern": r"^\d{1,12}$"}
_IDS: dict[str, Any] = {"type": "array", "items": _ID, "minItems": 1, "maxItems": 50}
_LEVEL: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 100}
_KELVIN: dict[str, Any] = {"type": "integer", "minimum": KELVIN_LOW, "maximum": KELVIN_HIGH}
_DIRECTION: dict[str, Any] = {"enum": list(DIRECTIONS)}
_OPERAND: dict[str, Any] = {
    "type": ["number", "string"],
    "description": "a number (a constant) or a variable's name",
}


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def _per_mode(value: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "description": "mode name -> its setting",
        "additionalProperties": value,
        "minProperties": 1,
        "maxProperties": 20,
    }


def _on_devices(key: str, value: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return _obj({key: value, "device_id": _ID, "device_ids": _IDS, **extra}, [key])


DEVICE_ACTIONS: list[dict[str, Any]] = [
    _on_devices("set_level_per_mode", _per_mode(_LEVEL)),
    _on_devices("switch_per_mode", _per_mode({"enum": ["on", "off"]})),
    _obj(
        {
            "choose_per_mode": _per_mode(
                {
                    "type": "object",
                    "properties": {"on": _IDS, "off": _IDS},
                    "minProperties": 1,
                    "additionalProperties": False,
                }
            )
        },
        ["choose_per_mode"],
    ),
    _on_devices(
        "color_per_mode",
        _per_mode(
            _obj({"color": {"type": "string", "minLength": 1}, "level": _LEVEL}, ["color", "level"])
        ),
    ),
    _on_devices(
        "color_temperature_per_mode",
        _per_mode(_obj({"kelvin": _KELVIN, "level": _LEVEL}, ["kelvin", "level"])),
    ),
    *(
        _obj(
            {
                key: target,
                "minutes": {"type": "integer", "minimum": 1, "maximum": 1440},
                "direction": _DIRECTION,
                "interval_seconds": {"type": "integer", "minimum": 1, "maximum": 3600},
                "device_id": _ID,
                "device_ids": _IDS,
            },
            [key, "minutes", "direction"],
        )
        for key, target in (("fade_level", _LEVEL), ("fade_color_temperature", _KELVIN))
    ),
    _on_devices("start_level_change", _DIRECTION),
    _obj({"stop_level_change": _IDS}, ["stop_level_change"]),
    _on_devices(
        "adjust_level", {"type": "integer", "minimum": -100, "maximum": 100, "not": {"const": 0}}
    ),
    _obj({"cancel_timers": {"oneOf": [_ID, _IDS]}}, ["cancel_timers"]),
    _obj(
        {
            "delay_from_variable": {"type": "string", "description": "a number variable: seconds"},
            "cancelable": {"type": "boolean"},
            "random": {"type": "boolean"},
        },
        ["delay_from_variable"],
    ),
]
# Set Variable's extra sources
FROM_DEVICE: dict[str, Any] = _obj(
    {"device_id": _ID, "attribute": {"type": "string"}}, ["device_id", "attribute"]
)
MATH: dict[str, Any] = {
    "oneOf": [
        _obj(
            {"left": _OPERAND, "op": {"enum": list(MATH_BINARY)}, "right": _OPERAND},
            ["left", "op", "right"],
        ),
        _obj({"left": _OPERAND, "op": {"enum": list(MATH_UNARY)}}, ["left", "op"]),
    ]
}
