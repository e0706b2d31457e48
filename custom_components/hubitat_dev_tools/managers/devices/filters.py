"""Which devices a listing keeps: the filter, attribute comparisons and what counts as a light.

Attribute comparisons are ``waits.AttributeCondition`` (the vocabulary and the code of
``wait_for``): eq/ne compare loosely (numbers numerically, text case-insensitively), gt/gte/
lt/lte/between compare numbers (numeric text included) and are refused on an attribute whose
values are not numbers.

What counts as a light (``capability="light"``), in this order:

1. the ``Light`` capability: a light;
2. a plug or a fan is not a light: the ``Outlet``/``FanControl`` capability, or a driver
   (type) that says outlet/plug/receptacle/fan (a lamp on a plug is the plug's business);
3. ``ColorControl`` or ``ColorTemperature``: a light (bulbs and strips);
4. ``Switch`` or ``SwitchLevel`` whose driver, name or label says light/lamp/bulb/dimmer
   (chandelier, sconce, pendant, nightlight...): a dimmer or a light switch.

Anything else (shades, valves, virtual mode switches, metering switches) is not a light.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ...errors import ToolError
from ...hub.models import DeviceSummary, parse_hub_time
from .values import to_number
from .waits import AttributeCondition

NUMERIC_COMPARATORS = ("gt", "gte", "lt", "lte", "between")
LIGHT_ALIASES = ("light", "lights")
_LIGHT_WORDS = re.compile(
    r"(?:light(?:strip)?|lamp|bulb|dimmer|chandelier|sconce|pendant)s?\b", re.IGNORECASE
)
_NOT_LIGHT_WORDS = re.compile(r"\b(?:outlet|plug|receptacle|fan)s?\b", re.IGNORECASE)


def _caps(dev: DeviceSummary) -> set[str]:
    return {c.lower() for c in dev.capabilities}


def is_light(dev: DeviceSummary) -> bool:
    """True for bulbs, dimmers and light switches whatever their capability list (see above)."""
    caps = _caps(dev)
    if "light" in caps:
        return True
    if caps & {"outlet", "fancontrol"} or _NOT_LIGHT_WORDS.search(dev.type or ""):
        return False
    if caps & {"colorcontrol", "colortemperature"}:
        return True
    if not caps & {"switch", "switchlevel"}:
        return False
    return any(_LIGHT_WORDS.search(text or "") for text in (dev.type, dev.name, dev.label))


def _kind_of(values: list[Any]) -> str:
    if all(isinstance(v, bool) for v in values):
        return "boolean"
    if all(isinstance(v, dict | list) for v in values):
        return "JSON"
    return "text"


@dataclass(slots=True)
class DeviceFilter:
    """Filters for listing devices (``condition`` compares ``attribute``'s current value)."""

    text: str | None = None
    room: str | None = None
    capability: str | None = None
    attribute: str | None = None
    condition: AttributeCondition | None = None
    changed_since: datetime | None = None
    silent_since: datetime | None = None  # no activity after this (or none known)
    include_disabled: bool = True

    def check(self, devices: list[DeviceSummary]) -> None:
        """Refuse a numeric comparison on an attribute whose values are not numbers."""
        if self.condition is None or self.condition.comparator not in NUMERIC_COMPARATORS:
            return
        attr = self.attribute or ""
        values = [d.states[attr] for d in devices if d.states.get(attr) is not None]
        if values and all(to_number(v) is None for v in values):
            seen = ", ".join(sorted({str(v) for v in values if not isinstance(v, dict | list)})[:6])
            raise ToolError(
                f"Attribute '{attr}' is {_kind_of(values)}, not a number"
                + (f" (values: {seen})" if seen else "")
                + f"; comparator {self.condition.comparator} compares numbers. Use eq or ne."
            )

    def matches(self, dev: DeviceSummary) -> bool:
        """Return True when the device passes every filter."""
        if self.text:
            needle = self.text.strip().lower()
            # label, name and the device type (the driver's name), each as a part; the id whole
            hay = (dev.label.lower(), dev.name.lower(), (dev.type or "").lower())
            if dev.id != needle.lstrip("#") and not any(needle in h for h in hay):
                return False
        if self.room:
            wanted = self.room.strip().lower()
            if wanted in ("unassigned", "none", ""):
                if dev.room:
                    return False
            elif (dev.room or "").lower() != wanted and dev.room_id != self.room.strip():
                return False
        if self.capability:
            wanted_cap = self.capability.strip().lower().replace(" ", "")
            if wanted_cap in LIGHT_ALIASES:
                if not is_light(dev):
                    return False
            elif wanted_cap not in _caps(dev):
                return False
        if self.attribute:
            if self.attribute not in dev.states:
                return False
            if self.condition is not None and not self.condition.matches(
                dev.states[self.attribute]
            ):
                return False
        if self.changed_since is not None:
            last = parse_hub_time(dev.last_activity)
            if last is None or last < self.changed_since:
                return False
        if self.silent_since is not None:
            last = parse_hub_time(dev.last_activity)
            if last is not None and last >= self.silent_since:
                return False
        return self.include_disabled or not dev.disabled
