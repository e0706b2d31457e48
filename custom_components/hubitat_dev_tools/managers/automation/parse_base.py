"""The spec reader's building blocks: each checks one value and names its place in the spec
(``rule.actions[2].delay.minutes``) when it is wrong."""

from __future__ import annotations

import re
from typing import Any

from ...errors import ToolError

MAX_ITEMS = 50


def _fail(path: str, problem: str, fix: str, subject: str | None = None) -> ToolError:
    return ToolError(f"{path}: {problem}. Nothing was sent.", hint=fix, subject=subject)


def _obj(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(path, f"must be an object, got {type(value).__name__}", "See the spec format.")
    return value


def _list(value: Any, path: str, *, minimum: int = 0) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, "must be a list", "Wrap the item(s) in [ ].")
    if len(value) < minimum:
        raise _fail(path, f"needs at least {minimum} item(s)", "Add one.")
    if len(value) > MAX_ITEMS:
        raise _fail(path, f"has {len(value)} items; the limit is {MAX_ITEMS}", "Split the rule.")
    return value


def _text(value: Any, path: str, *, limit: int = 200) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, "must be non-empty text", "Give a name or text.")
    if len(value) > limit:
        raise _fail(path, f"is longer than {limit} characters", "Shorten it.")
    return value.strip()


def _int(value: Any, path: str, *, low: int, high: int) -> int:
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,6}", value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(path, f"must be a whole number from {low} to {high}, got {value!r}", "Fix it.")
    return int(value)


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, f"must be true or false, got {value!r}", "Use true or false.")
    return value


_ID_RE = re.compile(r"^\d{1,12}$")


def _device_id(value: Any, path: str) -> str:
    text = (
        str(value).strip() if isinstance(value, int | str) and not isinstance(value, bool) else ""
    )
    if not _ID_RE.match(text):
        raise _fail(
            path, f"must be a numeric device id, got {value!r}", "Give device ids.", "device_ids"
        )
    return text


def _unknown(obj: dict[str, Any], allowed: set[str], path: str) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        raise _fail(
            path,
            f"unknown key(s) {', '.join(extra)}",
            f"Allowed here: {', '.join(sorted(allowed))}.",
        )
