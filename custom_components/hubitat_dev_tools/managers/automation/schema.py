"""The automation spec as a JSON Schema (draft 2020-12).

:mod:`.parse` is what decides (its errors name the wrong part); this schema describes the same
shape for clients and people, and a test keeps the two in agreement. The guide serves it
(its ``rule_spec`` section).
"""

from __future__ import annotations

from typing import Any

from .parse_rule_acts import BODY_LIMIT, URL_LIMIT
from .schema_acts import DEVICE_ACTIONS, FROM_DEVICE, MATH
from .spec import (
    BUTTON_EVENTS,
    DEFAULT_CONTENT_TYPE,
    HSM_COMMANDS,
    LOCAL_TYPES,
    LOGGING,
    MAX_LOCALS,
    MINUTE_STEPS,
    MONTHS,
    OPS,
    WEEKDAYS,
    WEEKS,
)

_ID: dict[str, Any] = {"type": ["string", "integer"], "pattern": r"^\d{1,12}$"}
_IDS: dict[str, Any] = {"type": "array", "items": _ID, "minItems": 1, "maxItems": 50}
_DATE: dict[str, Any] = {
    "type": "string",
    "pattern": r"^\d{1,2}-\d{1,2}( \d{1,2}:\d{2})?$",
    "description": "MM-DD, or MM-DD HH:MM",
}
_URL: dict[str, Any] = {
    "type": "string",
    "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://\\S+$",
    "maxLength": URL_LIMIT,
}
_OP: dict[str, Any] = {"enum": list(OPS)}
_VALUE: dict[str, Any] = {"type": ["string", "number"]}
_DURATION: dict[str, Any] = {
    "type": "object",
    "properties": {
        "hours": {"type": "integer", "minimum": 0},
        "minutes": {"type": "integer", "minimum": 0},
        "seconds": {"type": "integer", "minimum": 0},
    },
    "additionalProperties": False,
}
_HHMM: dict[str, Any] = {"type": "string", "pattern": r"^([01]\d|2[0-3]):[0-5]\d$"}
_SUN: dict[str, Any] = {"enum": ["sunrise", "sunset"]}
_POINT: dict[str, Any] = {
    "oneOf": [
        _HHMM,
        _SUN,
        {
            "type": "object",
            "properties": {"sun": _SUN, "offset_minutes": {"type": "integer"}},
            "required": ["sun"],
            "additionalProperties": False,
        },
    ]
}


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def _device_test(extra: dict[str, Any]) -> dict[str, Any]:
    props = {
        "device_id": _ID,
        "device_ids": _IDS,
        "attribute": {"type": "string", "minLength": 1},
        "is": _VALUE,
        "op": _OP,
        "value": _VALUE,
        **extra,
    }
    schema = _obj(props, ["attribute"])
    schema["oneOf"] = [{"required": ["device_id"]}, {"required": ["device_ids"]}]
    return schema


# compare_to: another device's reading of the same numeric attribute (plus an offset), or
# another variable, in place of value
_REF_DEVICE: dict[str, Any] = _obj({"device_id": _ID, "offset": {"type": "number"}}, ["device_id"])
_REF_VARIABLE: dict[str, Any] = _obj({"variable": {"type": "string"}}, ["variable"])
_DEVICE_COMPARED: dict[str, Any] = _obj(
    {
        "device_id": _ID,
        "device_ids": _IDS,
        "attribute": {"type": "string", "minLength": 1},
        "op": _OP,
        "compare_to": _REF_DEVICE,
    },
    ["attribute", "op", "compare_to"],
)
_DEVICE_COMPARED["oneOf"] = [{"required": ["device_id"]}, {"required": ["device_ids"]}]
_CONDITION_LEAF: dict[str, Any] = {
    "oneOf": [
        _device_test({}),
        _DEVICE_COMPARED,
        _obj({"mode": {"type": "array", "items": {"type": "string"}, "minItems": 1}}, ["mode"]),
        _obj({"between": _obj({"from": _POINT, "to": _POINT}, ["from", "to"])}, ["between"]),
        _obj({"dates": _obj({"from": _DATE, "to": _DATE}, ["from", "to"])}, ["dates"]),
        _obj(
            {"variable": {"type": "string"}, "op": _OP, "value": _VALUE, "is": _VALUE}, ["variable"]
        ),
        _obj(
            {"variable": {"type": "string"}, "op": _OP, "compare_to": _REF_VARIABLE},
            ["variable", "op", "compare_to"],
        ),
        # the rule's own private boolean: in the Required Expression (conditions) only
        _obj({"private_boolean": {"type": "boolean"}}, ["private_boolean"]),
    ]
}
_CONDITION: dict[str, Any] = {"oneOf": [_CONDITION_LEAF, _obj({"not": _CONDITION_LEAF}, ["not"])]}
# groups may hold groups (sub-expressions in brackets), in every expression
_GROUP_ITEM: dict[str, Any] = {"oneOf": [_CONDITION, {"$ref": "#/$defs/group"}]}
_GROUP: dict[str, Any] = {
    "oneOf": [
        _obj({"all": {"type": "array", "items": _GROUP_ITEM, "minItems": 1}}, ["all"]),
        _obj({"any": {"type": "array", "items": _GROUP_ITEM, "minItems": 1}}, ["any"]),
    ]
}
_REQUIRED: dict[str, Any] = {"oneOf": [_CONDITION, {"$ref": "#/$defs/group"}]}
_EXPRESSION = _REQUIRED


def _ints(low: int, high: int) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {"type": "integer", "minimum": low, "maximum": high},
        "minItems": 1,
        "uniqueItems": True,
    }


def _freq(name: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return _obj({"frequency": {"const": name}, **props}, ["frequency", *required])


_WEEKDAY: dict[str, Any] = {"enum": list(WEEKDAYS)}
_WEEK: dict[str, Any] = {"enum": list(WEEKS)}
_MONTHS_N: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": 12}
_PERIODIC: dict[str, Any] = {
    "oneOf": [
        _freq("seconds", {"every": {"enum": list(MINUTE_STEPS)}}, ["every"]),
        _freq("minutes", {"every": {"enum": list(MINUTE_STEPS)}}, ["every"]),
        _freq("minutes", {"minutes": _ints(0, 59)}, ["minutes"]),
        _freq("hourly", {"every": {"type": "integer", "minimum": 1}, "at": _HHMM}, ["every"]),
        _freq(
            "hourly",
            {"hours": _ints(0, 23), "minute": {"type": "integer", "minimum": 0, "maximum": 59}},
            ["hours"],
        ),
        _freq("daily", {"every": {"type": "integer", "minimum": 1}, "at": _HHMM}, ["every", "at"]),
        _freq("daily", {"weekdays_only": {"const": True}, "at": _HHMM}, ["weekdays_only", "at"]),
        _freq("daily", {"days_of_month": _ints(1, 31), "at": _HHMM}, ["days_of_month", "at"]),
        _freq(
            "weekly",
            {"days": {"type": "array", "items": _WEEKDAY, "minItems": 1}, "at": _HHMM},
            ["days", "at"],
        ),
        _freq(
            "monthly",
            {"day": {"type": "integer", "minimum": 1, "maximum": 31}, "every_months": _MONTHS_N}
            | {"at": _HHMM},
            ["day", "every_months", "at"],
        ),
        _freq(
            "monthly",
            {"week": _WEEK, "weekday": _WEEKDAY, "every_months": _MONTHS_N, "at": _HHMM},
            ["week", "weekday", "every_months", "at"],
        ),
        _freq(
            "yearly",
            {"week": _WEEK, "weekday": _WEEKDAY, "month": {"enum": list(MONTHS)}, "at": _HHMM},
            ["week", "weekday", "month", "at"],
        ),
        _freq("cron", {"cron": {"type": "string", "minLength": 11}}, ["cron"]),
    ]
}

TRIGGER: dict[str, Any] = {
    "oneOf": [
        _obj({"periodic": _PERIODIC}, ["periodic"]),
        _obj(
            {"time": _HHMM, "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}},
            ["time", "date"],
        ),
        _device_test(
            {"changes": {"const": True}, "all": {"type": "boolean"}, "stays_for": _DURATION}
        ),
        _obj(
            {
                "button_device_id": _ID,
                "button": {"type": "integer", "minimum": 1},
                "event": {"enum": list(BUTTON_EVENTS)},
            },
            ["button_device_id"],
        ),
        _obj({"time": _HHMM}, ["time"]),
        _obj(
            {"sun": _SUN, "offset_minutes": {"type": "integer", "minimum": -720, "maximum": 720}},
            ["sun"],
        ),
        _obj(
            {
                "every": _obj(
                    {
                        "minutes": {"enum": list(MINUTE_STEPS)},
                        "hours": {"type": "integer", "minimum": 1},
                    },
                    [],
                )
            },
            ["every"],
        ),
        _obj({"mode": {"type": "array", "items": {"type": "string"}, "minItems": 1}}, ["mode"]),
        _obj(
            {
                "variable": {"type": "string"},
                "op": _OP,
                "value": _VALUE,
                "is": _VALUE,
                "changes": {"const": True},
            },
            ["variable"],
        ),
    ]
}

for _shape in TRIGGER["oneOf"]:  # any trigger may be a conditional one
    _shape["properties"]["only_if"] = _CONDITION

ACTION: dict[str, Any] = {
    "oneOf": [
        _obj(
            {
                "command": {"type": "string"},
                "device_id": _ID,
                "device_ids": _IDS,
                "arguments": {"type": "array", "maxItems": 5},
                "delay": _DURATION,
                "cancelable": {"type": "boolean"},
            },
            ["command"],
        ),
        _obj(
            {"delay": _DURATION, "cancelable": {"type": "boolean"}, "random": {"type": "boolean"}},
            ["delay"],
        ),
        _obj(
            {
                "delay_per_mode": {
                    "type": "object",
                    "additionalProperties": _DURATION,
                    "minProperties": 1,
                },
                "cancelable": {"type": "boolean"},
            },
            ["delay_per_mode"],
        ),
        _obj(
            {
                "wait": {
                    "type": "array",
                    "items": _device_test({"stays_for": _DURATION}),
                    "minItems": 1,
                },
                "timeout": _DURATION,
            },
            ["wait"],
        ),
        _obj({"wait_until": _EXPRESSION, "timeout": _DURATION}, ["wait_until"]),
        _obj({"set_mode": {"type": "string"}}, ["set_mode"]),
        {
            **_obj(
                {
                    "set_variable": {"type": "string"},
                    "value": {"type": "number"},
                    "from_variable": {"type": "string"},
                    "from_device": FROM_DEVICE,
                    "math": MATH,
                },
                ["set_variable"],
            ),
            "oneOf": [{"required": [k]} for k in ("value", "from_variable", "from_device", "math")],
        },
        _obj({"notify": {"type": "string"}, "device_id": _ID, "device_ids": _IDS}, ["notify"]),
        _obj({"log": {"type": "string"}}, ["log"]),
        _obj(
            {
                "if": _EXPRESSION,
                "then": {"type": "array", "items": {"$ref": "#/$defs/action"}},
                "else_if": {
                    "type": "array",
                    "items": _obj(
                        {
                            "if": _EXPRESSION,
                            "then": {"type": "array", "items": {"$ref": "#/$defs/action"}},
                        },
                        ["if", "then"],
                    ),
                },
                "else": {"type": "array", "items": {"$ref": "#/$defs/action"}},
            },
            ["if", "then"],
        ),
        _obj(
            {
                "repeat_while": _EXPRESSION,
                "every": _DURATION,
                "stoppable": {"type": "boolean"},
                "do": {"type": "array", "items": {"$ref": "#/$defs/action"}},
            },
            ["repeat_while", "every", "do"],
        ),
        _obj(
            {
                "repeat": {"type": "integer", "minimum": 1, "maximum": 1000},
                "every": _DURATION,
                "stoppable": {"type": "boolean"},
                "do": {"type": "array", "items": {"$ref": "#/$defs/action"}},
            },
            ["repeat", "every", "do"],
        ),
        _obj({"cancel_delays": {"const": True}}, ["cancel_delays"]),
        _obj({"run_rule": {"oneOf": [_ID, _IDS]}}, ["run_rule"]),
        _obj({"pause_rules": {"oneOf": [_ID, _IDS]}}, ["pause_rules"]),
        _obj({"resume_rules": {"oneOf": [_ID, _IDS]}}, ["resume_rules"]),
        _obj(
            {"set_private_boolean": {"type": "boolean"}, "rule_ids": {"oneOf": [_ID, _IDS]}},
            ["set_private_boolean"],
        ),
        _obj({"set_hsm": {"enum": list(HSM_COMMANDS)}}, ["set_hsm"]),
        _obj({"exit_rule": {"const": True}}, ["exit_rule"]),
        _obj({"capture": _IDS}, ["capture"]),
        _obj({"restore": {"const": True}}, ["restore"]),
        _obj(
            {"write_file": {"type": "string"}, "text": {"type": "string", "maxLength": 2000}},
            ["write_file", "text"],
        ),
        _obj(
            {"append_file": {"type": "string"}, "text": {"type": "string", "maxLength": 2000}},
            ["append_file", "text"],
        ),
        _obj({"delete_file": {"type": "string"}}, ["delete_file"]),
        _obj({"disable_devices": _IDS}, ["disable_devices"]),
        _obj({"enable_devices": _IDS}, ["enable_devices"]),
        _obj({"comment": {"type": "string", "minLength": 1, "maxLength": 200}}, ["comment"]),
        _obj({"http_get": _URL}, ["http_get"]),
        _obj(
            {
                "http_post": _URL,
                "body": {"type": "string", "minLength": 1, "maxLength": BODY_LIMIT},
                "content_type": {"type": "string", "default": DEFAULT_CONTENT_TYPE},
            },
            ["http_post", "body"],
        ),
        _obj({"ping": {"type": "string", "description": "an IP address"}}, ["ping"]),
        *DEVICE_ACTIONS,
    ],
}

SPEC_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "hubitat_dev_tools automation spec",
    **_obj(
        {
            "name": {"type": "string", "minLength": 1, "maxLength": 100},
            "triggers": {"type": "array", "items": TRIGGER, "maxItems": 50},
            "conditions": _REQUIRED,
            "actions": {"type": "array", "items": ACTION, "minItems": 1, "maxItems": 50},
            "paused": {"type": "boolean"},
            "enabled": {"type": "boolean"},
            "logging": {"type": "array", "items": {"enum": list(LOGGING)}},
            "local_variables": {
                "type": "array",
                "maxItems": MAX_LOCALS,
                "items": _obj(
                    {
                        "name": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]{0,63}$"},
                        "type": {"enum": list(LOCAL_TYPES)},
                        "value": {"type": ["string", "number", "boolean"]},
                    },
                    ["name", "type", "value"],
                ),
            },
        },
        ["name", "actions"],
    ),
    "$defs": {"action": ACTION, "group": _GROUP},
}
