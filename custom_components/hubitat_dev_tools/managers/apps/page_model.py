"""What a classic app page shows and takes: the page summary the tools answer with, and the
validation and encoding of setting values (the one place for both the settings editor and
Swap Device; the page itself is read and posted by ``hub.app_page``)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from ...errors import ToolError
from ...hub.app_page import DEVICE_TYPES, PageInput, Setting
from ...hub.apps import maybe_json
from ...redact import redact_text

MAX_VALUE_CHARS = 2000
_TAG_RE = re.compile(r"<[^>]+>")


def text_of(value: Any) -> str:
    """A page title or paragraph as plain text."""
    return _TAG_RE.sub("", str(value or "")).strip()


def status_settings(raw: Any) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """statusJson ``appSettings``: each setting's value, and the device ids of device inputs."""
    values: dict[str, Any] = {}
    ids: dict[str, list[str]] = {}
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict) or not isinstance(name := item.get("name"), str):
            continue
        values[name] = item.get("value")
        listed = item.get("deviceIdsForDeviceList")
        if isinstance(listed, list):
            ids[name] = [str(i) for i in listed]
        elif str(item.get("type") or "").startswith(("capability.", "device.")):
            ids[name] = [p.strip() for p in str(item.get("value") or "").split(",") if p.strip()]
    return values, ids


def actions_text(config: dict[str, Any]) -> str:
    """The text of a rule page's paragraphs from its 'Actions' heading on (all if none)."""
    lines: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("element") == "paragraph":
                lines.append(text_of(str(node.get("description") or node.get("title") or "")))
            for sub in node.values():
                walk(sub)
        elif isinstance(node, list):
            for sub in node:
                walk(sub)

    walk(config)
    for idx, line in enumerate(lines):
        if line.strip().lower().startswith("actions"):
            return "\n".join(lines[idx:])
    return "\n".join(lines)


def bounded(value: Any) -> Any:
    """Cut very large values so one app cannot blow the answer size."""
    text = json.dumps(value, default=str)
    if len(text) <= MAX_VALUE_CHARS:
        return value
    return {"truncated": True, "chars": len(text), "start": text[:MAX_VALUE_CHARS]}


def summarize_page(page: Any) -> dict[str, Any]:
    """Sections with typed inputs and current values, paragraphs as text, buttons, links."""
    if not isinstance(page, dict):
        page = {}
    sections = []
    for sec in page.get("sections") or []:
        if not isinstance(sec, dict):
            continue
        inputs, buttons, links = [], [], []
        for inp in sec.get("input") or []:
            if not isinstance(inp, dict):
                continue
            if inp.get("type") == "button":
                buttons.append({"name": inp.get("name"), "title": text_of(inp.get("title"))})
                continue
            if inp.get("type") == "href":
                links.append(
                    {"page": inp.get("page") or inp.get("name"), "title": text_of(inp.get("title"))}
                )
                continue
            entry = {
                "name": inp.get("name"),
                "type": inp.get("type"),
                "title": text_of(inp.get("title")),
                "value": bounded(inp.get("value")),
            }
            if inp.get("multiple"):
                entry["multiple"] = True
            if inp.get("options"):
                entry["options"] = bounded(inp.get("options"))
            inputs.append(entry)
        paragraphs = [  # display text: a rule's page shows its HTTP actions' URLs
            redact_text(text_of(b.get("description") or b.get("title")))
            for b in sec.get("body") or []
            if isinstance(b, dict)
        ]
        out: dict[str, Any] = {"title": text_of(sec.get("title"))}
        for key, val in (
            ("inputs", inputs),
            ("text", paragraphs),
            ("buttons", buttons),
            ("pages", links),
        ):
            if val:
                out[key] = val
        sections.append(out)
    return {
        "page": page.get("name"),
        "title": text_of(page.get("title")),
        "error": page.get("error"),
        "sections": sections,
    }


_TEXT_TYPES = ("text", "textarea", "string", "password", "email", "phone", "paragraph_text")
_ISO_TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_RANGE_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?|\*)\s*\.\.\s*(-?\d+(?:\.\d+)?|\*)\s*$")
MAX_SETTING_CHARS = 10_000


def enum_keys(options: Any) -> list[str]:
    """The keys of an enum input's options (a list of values, of {key: label}, or a map)."""
    if isinstance(options, dict):
        return [str(k) for k in options]
    keys: list[str] = []
    for opt in options if isinstance(options, list) else []:
        if isinstance(opt, dict):
            keys.extend(str(k) for k in opt)
        else:
            keys.append(str(opt))
    return keys


def _as_list(value: Any, name: str, repairs: list[str]) -> list[Any]:
    if isinstance(value, list):
        return value
    repairs.append(f"{name}: one value given for a multiple input, sent as a list")
    return [value]


_INT_TEXT_RE = re.compile(r"^-?[0-9]{1,15}$")
_DECIMAL_TEXT_RE = re.compile(r"^-?[0-9]{1,15}(\.[0-9]{1,15})?$")
MAX_NUMBER = 1e15


def _scalar(value: Any, want: type, name: str, repairs: list[str]) -> Any:
    """Quoted numbers and booleans become the declared type; nothing else is converted."""
    if want is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            repairs.append(f"{name}: '{value}' sent as a boolean")
            return value.strip().lower() == "true"
        raise ToolError(f"{name} is a true/false input; got {value!r}. Nothing was sent.")
    kind = "a whole number" if want is int else "a number"
    number: int | float | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int) or (isinstance(value, float) and want is float):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        pattern = _INT_TEXT_RE if want is int else _DECIMAL_TEXT_RE
        if pattern.fullmatch(text):
            number = int(text) if want is int else float(text)
            repairs.append(f"{name}: '{value}' sent as a number")
    if number is None or not math.isfinite(number) or abs(number) > MAX_NUMBER:
        raise ToolError(
            f"{name} takes {kind} (at most 15 digits); got {value!r}. Nothing was sent."
        )
    return want(number)


def _check_range(inp: PageInput, number: float, name: str) -> None:
    m = _RANGE_RE.match(str(inp.range or ""))
    if m is None:
        return
    try:
        low, high = (None if x == "*" else float(x) for x in m.groups())
    except ValueError:  # a range this tool does not understand is not enforced
        return
    if (low is not None and number < low) or (high is not None and number > high):
        raise ToolError(f"{name} must be within {inp.range}; got {number:g}. Nothing was sent.")


def encode_setting(
    inp: PageInput,
    value: Any,
    known_devices: set[str] | None,
    device_allowed: Callable[[str], bool],
    repairs: list[str],
) -> Setting:
    """Validate one value against its input and encode it as the hub's form does."""
    name = inp.name
    input_type = inp.type
    multiple = inp.multiple
    if input_type == "bool":
        return Setting(
            ("true" if _scalar(value, bool, name, repairs) else "false"), input_type, False
        )
    if input_type in ("number", "decimal"):
        number = _scalar(value, int if input_type == "number" else float, name, repairs)
        _check_range(inp, float(number), name)
        return Setting(str(number), input_type, False)
    if input_type in ("enum", "mode") and (inp.options or input_type == "enum"):
        keys = enum_keys(inp.options)
        if not keys:
            raise ToolError(
                f"{name} lists no options on this page, so it cannot be set here. Nothing "
                "was sent.",
                hint="Set it in the hub UI.",
            )
        values = _as_list(value, name, repairs) if multiple else [value]
        picked = [str(v) for v in values]
        bad = [v for v in picked if v not in keys]
        if bad or not picked:
            raise ToolError(
                f"{name} takes {'some' if multiple else 'one'} of: {', '.join(keys[:50])}; "
                f"got {', '.join(bad) or 'nothing'}. Nothing was sent.",
                hint="Use the option keys exactly as listed.",
            )
        return Setting((json.dumps(picked) if multiple else picked[0]), input_type, multiple)
    if input_type.startswith(DEVICE_TYPES):
        values = _as_list(value, name, repairs) if multiple else [value]
        ids = [str(v).strip() for v in values]
        if not ids or not all(re.fullmatch(r"[0-9]{1,12}", i) for i in ids):
            raise ToolError(
                f"{name} takes device ids (numbers); got {value!r}. Nothing was sent.",
                subject="device_ids",
            )
        missing = [i for i in ids if known_devices is not None and i not in known_devices]
        if missing:
            raise ToolError(
                f"No device with id {', '.join(missing)} on the hub. Nothing was sent.",
                subject="device_ids",
            )
        hidden = [i for i in ids if not device_allowed(i)]
        if hidden:
            raise ToolError(
                f"Device(s) {', '.join(hidden)} are outside the assistant's device allowlist. "
                "Nothing was sent to the hub.",
                code="device_not_allowed",
                hint="Do not retry with the same device; an admin can change the allowlist.",
            )
        return Setting(",".join(ids), input_type, multiple)
    if input_type == "mode" and multiple:
        listed = _as_list(value, name, repairs)
        if not listed or not all(isinstance(v, str) for v in listed):
            raise ToolError(f"{name} takes a list of mode names; got {value!r}. Nothing was sent.")
        return Setting(json.dumps(listed), input_type, True)
    if input_type in _TEXT_TYPES or input_type == "mode":
        if (
            not isinstance(value, str | int | float)
            or isinstance(value, bool)
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            raise ToolError(f"{name} takes text; got {value!r}. Nothing was sent.")
        text = str(value)
        if len(text) > MAX_SETTING_CHARS:
            raise ToolError(
                f"{name} is {len(text)} characters; the limit is {MAX_SETTING_CHARS}. "
                "Nothing was sent."
            )
        return Setting(text, input_type, False)
    if input_type == "time":
        if not isinstance(value, str) or not _ISO_TIME_RE.match(value):
            raise ToolError(
                f"{name} is a time input: give an ISO date-time such as "
                f"2026-11-30T07:30:00.000-0500 (the form the page shows); got {value!r}. "
                "Nothing was sent."
            )
        return Setting(value, input_type, False)
    if input_type == "date":
        if not isinstance(value, str) or not _DATE_RE.match(value):
            raise ToolError(
                f"{name} is a date input (YYYY-MM-DD); got {value!r}. Nothing was sent."
            )
        return Setting(value, input_type, False)
    raise ToolError(
        f"{name} is a '{input_type}' input, which this tool does not set. Nothing was sent.",
        hint="Set it in the hub UI.",
    )


def same_setting(inp: PageInput, encoded: str) -> bool:
    """Whether the page now shows the value that was sent (tolerant of the hub's shapes)."""
    input_type = inp.type
    current = inp.value
    try:
        if input_type.startswith(DEVICE_TYPES):
            if inp.device_ids is not None:
                now = {str(i) for i in inp.device_ids}
            elif isinstance(current, list):
                now = {str(c.get("id") if isinstance(c, dict) else c) for c in current}
            else:
                now = {p.strip() for p in str(current or "").split(",") if p.strip()}
            return now == {p for p in encoded.split(",") if p}
        if inp.multiple and input_type in ("enum", "mode"):
            now_list = maybe_json(current) if isinstance(current, str) else current
            if not isinstance(now_list, list):
                now_list = [] if now_list is None else [now_list]
            return sorted(map(str, now_list)) == sorted(json.loads(encoded))
        if isinstance(current, list) and len(current) == 1:  # a single value shown as a list
            current = current[0]
        if input_type in ("number", "decimal"):
            return float(current) == float(encoded)
        if input_type == "bool":
            return str(current).lower() == encoded
        if input_type == "time" and isinstance(current, str):
            return current[:16] == encoded[:16]
        return str(current) == encoded
    except (TypeError, ValueError, OverflowError):
        return False
