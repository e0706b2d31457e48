"""A rule's local variables in the spec: ``[{name, type, value}]``, checked before anything is
sent (names unique and valid, the start value of the declared type)."""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Any

from .parse_base import _fail, _list, _obj, _text, _unknown
from .spec import LOCAL_TYPES, MAX_LOCALS, LocalVariable

_VAR_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


def _number(value: Any, path: str) -> int | float:
    """A finite number, from a number or its text (whole numbers stay exact)."""
    if isinstance(value, bool):
        raise _fail(path, "must be a number, not true/false", "Fix it.")
    if isinstance(value, int):
        return value
    text = value.strip() if isinstance(value, str) else None
    if text is not None and re.fullmatch(r"-?\d{1,30}", text):
        return int(text)
    try:
        number = float(text if text is not None else value)
    except (TypeError, ValueError):
        raise _fail(path, "must be a number", "Fix it.") from None
    if not math.isfinite(number):
        raise _fail(path, "must be a finite number", "Fix it.")
    return int(number) if number.is_integer() else number


def local_datetime(value: Any, path: str) -> str:
    """A DateTime local's value in the form the rule keeps it (the hub's stored form,
    ``yyyy-MM-ddTHH:mm:ss.SSS+hhmm``), from an ISO 8601 date and time with its offset."""
    text = value.strip() if isinstance(value, str) else ""
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        at = None
    if at is None or at.tzinfo is None:
        raise _fail(
            path,
            "must be an ISO 8601 date and time with its UTC offset",
            "e.g. 2026-05-06T12:00:00-05:00 (the offset says which zone the time is in).",
        )
    offset = at.strftime("%z")
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}" + offset


def _local_value(vtype: str, value: Any, path: str) -> Any:
    """A local variable's start value, checked against its type (quoted numbers and
    booleans repaired to the type, nothing else guessed)."""
    if vtype == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise _fail(path, "must be true or false", "Fix it.")
    if vtype == "datetime":
        return local_datetime(value, path)
    if vtype in ("integer", "bigdecimal"):
        number = _number(value, path)
        if vtype == "integer" and not isinstance(number, int):
            raise _fail(path, "must be a whole number", "Use type bigdecimal for decimals.")
        return number
    return _text(value, path, limit=200)


def parse_local_variables(value: Any, path: str) -> tuple[LocalVariable, ...]:
    """The rule's local variables: {name, type, value}, names unique (case-insensitive)."""
    out: list[LocalVariable] = []
    seen: set[str] = set()
    items = _list(value, path)
    if len(items) > MAX_LOCALS:
        raise _fail(path, f"has more than {MAX_LOCALS} local variables", "Use fewer.")
    for i, item in enumerate(items):
        where = f"{path}[{i}]"
        obj = _obj(item, where)
        _unknown(obj, {"name", "type", "value"}, where)
        name = _text(obj.get("name"), f"{where}.name", limit=64)
        if not _VAR_NAME_RE.match(name):
            raise _fail(
                f"{where}.name", "must start with a letter; letters, digits or _", "Fix it."
            )
        if name.lower() in seen:
            raise _fail(f"{where}.name", f"'{name}' is given twice", "Name each one once.")
        seen.add(name.lower())
        vtype = obj.get("type")
        if vtype not in LOCAL_TYPES:
            raise _fail(f"{where}.type", f"must be one of {', '.join(LOCAL_TYPES)}", "Fix it.")
        if "value" not in obj:
            raise _fail(f"{where}.value", "is missing (its start value)", "Give one.")
        out.append(
            LocalVariable(
                name, str(vtype), _local_value(str(vtype), obj["value"], f"{where}.value")
            )
        )
    return tuple(out)
