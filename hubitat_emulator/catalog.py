"""Static catalog: Hubitat capabilities (attributes + commands) and the driver list.

Capability and command names follow the Hubitat capability list; argument types use the hub's
``NUMBER``/``STRING``/``ENUM``/``COLOR_MAP``/``JSON_OBJECT`` vocabulary. The tables live in
:mod:`.capabilities` and :mod:`.drivers`; this module answers questions about them.
"""

from __future__ import annotations

from collections.abc import Callable

from .capabilities import (
    CAPABILITIES,
    FAN_MODES,
    FAN_SPEEDS,
    TEMP_UNIT,
    THERMOSTAT_MODES,
    AttrDef,
    Capability,
    CmdDef,
    Param,
)
from .drivers import DRIVERS, DRIVERS_BY_NAME, LOG_PREFS, DriverSpec, Pref

__all__ = [
    "CAPABILITIES",
    "DRIVERS",
    "DRIVERS_BY_NAME",
    "FAN_MODES",
    "FAN_SPEEDS",
    "LOG_PREFS",
    "TEMP_UNIT",
    "THERMOSTAT_MODES",
    "AttrDef",
    "Capability",
    "CmdDef",
    "DriverSpec",
    "Param",
    "Pref",
    "capability_attributes",
    "capability_commands",
    "find_command",
    "time_zones",
    "unique_attributes",
    "unique_commands",
]


def _per_capability[T](
    driver: DriverSpec, members: Callable[[Capability], tuple[T, ...]], custom: tuple[T, ...]
) -> list[tuple[str | None, T]]:
    """``members`` of each known capability of a driver in order, then the driver's own
    (``custom``, capability None), WITH duplicates."""
    out: list[tuple[str | None, T]] = []
    for cap_name in driver.capabilities:
        cap = CAPABILITIES.get(cap_name)
        if cap is not None:
            out.extend((cap_name, m) for m in members(cap))
    out.extend((None, m) for m in custom)
    return out


def capability_commands(driver: DriverSpec) -> list[tuple[str | None, CmdDef]]:
    """Every command of a driver with its capability, in capability order, WITH duplicates."""
    return _per_capability(driver, lambda cap: cap.commands, driver.custom_commands)


def unique_commands(driver: DriverSpec) -> list[tuple[str | None, CmdDef]]:
    seen: set[str] = set()
    out: list[tuple[str | None, CmdDef]] = []
    for cap, cmd in capability_commands(driver):
        if cmd.name not in seen:
            seen.add(cmd.name)
            out.append((cap, cmd))
    return out


def capability_attributes(driver: DriverSpec) -> list[tuple[str | None, AttrDef]]:
    """Every attribute of a driver, per capability in order, WITH duplicates."""
    return _per_capability(driver, lambda cap: cap.attributes, driver.custom_attributes)


_UNIQUE_ATTRS: dict[int, tuple[DriverSpec, dict[str, AttrDef]]] = {}


def unique_attributes(driver: DriverSpec) -> dict[str, AttrDef]:
    """A driver's attributes by name, first declaration kept (a new dict each call; computed
    once per driver object, which is frozen)."""
    got = _UNIQUE_ATTRS.get(id(driver))
    if got is None or got[0] is not driver:
        out: dict[str, AttrDef] = {}
        for _cap, a in capability_attributes(driver):
            out.setdefault(a.name, a)
        got = _UNIQUE_ATTRS[id(driver)] = (driver, out)
    return dict(got[1])


def find_command(driver: DriverSpec, name: str) -> CmdDef | None:
    for _cap, cmd in capability_commands(driver):
        if cmd.name == name:
            return cmd
    return None


# A long-ish time-zone list for /hub/details/json (the real payload is ~49 KB because of it).
_TZ_TABLE = """
Pacific/Midway -11|Pacific/Honolulu -10|America/Anchorage -9|America/Los_Angeles -8|
America/Tijuana -8|America/Phoenix -7|America/Denver -7|America/Boise -7|America/Chicago -6|
America/Mexico_City -6|America/Regina -6|America/Winnipeg -6|America/New_York -5|
America/Detroit -5|America/Toronto -5|America/Bogota -5|America/Lima -5|America/Halifax -4|
America/Caracas -4|America/Santiago -4|America/St_Johns -3.5|America/Sao_Paulo -3|
America/Argentina/Buenos_Aires -3|America/Godthab -3|Atlantic/South_Georgia -2|
Atlantic/Azores -1|Atlantic/Cape_Verde -1|Europe/London 0|Europe/Dublin 0|Europe/Lisbon 0|
Africa/Casablanca 0|UTC 0|Europe/Amsterdam 1|Europe/Berlin 1|Europe/Brussels 1|
Europe/Madrid 1|Europe/Paris 1|Europe/Rome 1|Europe/Stockholm 1|Europe/Vienna 1|
Europe/Warsaw 1|Europe/Zurich 1|Africa/Lagos 1|Europe/Athens 2|Europe/Bucharest 2|
Europe/Helsinki 2|Europe/Kiev 2|Africa/Cairo 2|Africa/Johannesburg 2|Asia/Jerusalem 2|
Europe/Istanbul 3|Europe/Moscow 3|Asia/Baghdad 3|Asia/Riyadh 3|Africa/Nairobi 3|
Asia/Tehran 3.5|Asia/Dubai 4|Asia/Baku 4|Asia/Kabul 4.5|Asia/Karachi 5|Asia/Tashkent 5|
Asia/Kolkata 5.5|Asia/Kathmandu 5.75|Asia/Dhaka 6|Asia/Almaty 6|Asia/Yangon 6.5|
Asia/Bangkok 7|Asia/Jakarta 7|Asia/Ho_Chi_Minh 7|Asia/Shanghai 8|Asia/Hong_Kong 8|
Asia/Singapore 8|Asia/Taipei 8|Australia/Perth 8|Asia/Tokyo 9|Asia/Seoul 9|
Australia/Adelaide 9.5|Australia/Darwin 9.5|Australia/Brisbane 10|Australia/Sydney 10|
Australia/Melbourne 10|Pacific/Guam 10|Asia/Vladivostok 10|Pacific/Noumea 11|
Asia/Magadan 11|Pacific/Auckland 12|Pacific/Fiji 12|Pacific/Tongatapu 13|
Pacific/Kiritimati 14|US/Alaska -9|US/Arizona -7|US/Central -6|US/Eastern -5|US/Hawaii -10|
US/Mountain -7|US/Pacific -8|Canada/Atlantic -4|Canada/Central -6|Canada/Eastern -5|
Canada/Mountain -7|Canada/Pacific -8|Europe/Oslo 1|Europe/Copenhagen 1|Europe/Prague 1|
Europe/Budapest 1|Europe/Belgrade 1|Europe/Sofia 2|Europe/Riga 2|Europe/Tallinn 2|
Europe/Vilnius 2|Asia/Manila 8|Asia/Kuala_Lumpur 8|Pacific/Port_Moresby 10|
America/Puerto_Rico -4|America/Panama -5|America/Guatemala -6|America/Havana -5|
America/Jamaica -5|America/Montevideo -3|America/Asuncion -4|America/La_Paz -4|
Africa/Algiers 1|Africa/Tunis 1|Africa/Accra 0|Africa/Addis_Ababa 3|Indian/Mauritius 4|
Indian/Maldives 5|Asia/Colombo 5.5|Asia/Yekaterinburg 5|Asia/Novosibirsk 7|Asia/Irkutsk 8|
Asia/Yakutsk 9|Pacific/Chatham 12.75|Pacific/Apia 13|Atlantic/Reykjavik 0|Atlantic/Bermuda -4
"""


def time_zones() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for item in _TZ_TABLE.replace("\n", "").split("|"):
        item = item.strip()
        if not item:
            continue
        zone, off = item.rsplit(" ", 1)
        hours = float(off)
        sign = "-" if hours < 0 else "+"
        h = int(abs(hours))
        m = round((abs(hours) - h) * 60)
        label = f"(GMT{sign}{h:02d}:{m:02d}) {zone.replace('_', ' ')}"
        out.append({"id": zone, "label": label, "offset": f"{sign}{h:02d}:{m:02d}"})
    return sorted(out, key=lambda z: z["id"])
