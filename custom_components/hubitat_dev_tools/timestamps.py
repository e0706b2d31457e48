"""One timestamp format in every answer: ISO 8601 with a colon offset.

The hub writes times several ways: ``2026-11-30T00:25:21.826-0700`` (its Java format, no
colon in the offset), ``...Z``, and hub-local ``2026-10-21 05:45:12`` without any zone. The
tools answer every such string as ISO 8601 with ``+HH:MM`` (local times get the hub's
offset when its zone is known). Only whole strings that are timestamps change; text that
merely contains a date is left alone. Dates given to tools may use either form.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from typing import Any

_NO_COLON = re.compile(
    r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)(Z|[+-]\d{2})(\d{2})?$"
)
_LOCAL = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?$")


def iso_time(text: str, tz: tzinfo | None) -> str:
    """``text`` as ISO 8601 with a colon offset if it is a hub timestamp; else unchanged."""
    if len(text) < 16 or text[4] != "-" or text[7] != "-":  # not a date: no regex to run
        return text
    match = _NO_COLON.match(text)
    if match:
        stamp, hours, minutes = match.groups()
        if hours == "Z":
            return f"{stamp}+00:00"
        if minutes is not None:
            return f"{stamp}{hours}:{minutes}"
        return f"{stamp}{hours}:00"
    if _LOCAL.match(text):
        try:
            local = datetime.fromisoformat(text.replace(" ", "T", 1))
        except ValueError:  # shaped like a time but none (month 13): text, kept as it is
            return text
        if tz is not None:
            local = local.replace(tzinfo=tz)
        return local.isoformat()
    return text


def iso_times(value: Any, tz: tzinfo | None) -> Any:
    """Every timestamp string in a JSON value, in the one format (see :func:`iso_time`)."""
    if isinstance(value, str):
        return iso_time(value, tz) if len(value) <= 40 else value
    if isinstance(value, dict):
        return {key: iso_times(item, tz) for key, item in value.items()}
    if isinstance(value, list):
        return [iso_times(item, tz) for item in value]
    return value
