"""Sunrise and sunset for the hub's location: NOAA's solar calculator approximation.

The formulas are the ones of NOAA's Global Monitoring Laboratory solar calculator
(gml.noaa.gov/grad/solcalc, "General Solar Position Calculations" and the calculator's
spreadsheet): Julian century, the sun's geometric mean longitude and anomaly, the equation of
centre, apparent longitude, obliquity, declination and the equation of time; sunrise and sunset
are where the sun's centre is 0.833 degrees below the horizon (refraction plus the solar
radius), at sea level. Each event is computed twice, the second time with the solar position
taken at the first estimate. NOAA gives the accuracy as about one minute for latitudes within
+/-72 degrees (worse near the poles); elevation and local horizon are not modelled.

The emulator's location (``HomeState.latitude``/``longitude``, default Denver, Colorado:
39.7392 N, 104.9903 W, the city's coordinates) and zone (America/Denver) are the inputs.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta, tzinfo

ZENITH = 90.833  # degrees: refraction (0.567) plus the sun's semi-diameter (0.266)


def _julian_day(moment: datetime) -> float:
    return moment.timestamp() / 86400.0 + 2440587.5


def _solar(jd: float) -> tuple[float, float]:
    """(declination in degrees, equation of time in minutes) at Julian day ``jd``."""
    jc = (jd - 2451545.0) / 36525.0
    mean_long = (280.46646 + jc * (36000.76983 + jc * 0.0003032)) % 360.0
    anom = 357.52911 + jc * (35999.05029 - 0.0001537 * jc)
    ecc = 0.016708634 - jc * (0.000042037 + 0.0000001267 * jc)
    m = math.radians(anom)
    centre = (
        math.sin(m) * (1.914602 - jc * (0.004817 + 0.000014 * jc))
        + math.sin(2 * m) * (0.019993 - 0.000101 * jc)
        + math.sin(3 * m) * 0.000289
    )
    omega = math.radians(125.04 - 1934.136 * jc)
    app_long = mean_long + centre - 0.00569 - 0.00478 * math.sin(omega)
    seconds = 21.448 - jc * (46.815 + jc * (0.00059 - jc * 0.001813))
    obliq = 23.0 + (26.0 + seconds / 60.0) / 60.0 + 0.00256 * math.cos(omega)
    e = math.radians(obliq)
    decl = math.degrees(math.asin(math.sin(e) * math.sin(math.radians(app_long))))
    y = math.tan(e / 2) ** 2
    l0 = math.radians(mean_long)
    eqtime = 4.0 * math.degrees(
        y * math.sin(2 * l0)
        - 2 * ecc * math.sin(m)
        + 4 * ecc * y * math.sin(m) * math.cos(2 * l0)
        - 0.5 * y * y * math.sin(4 * l0)
        - 1.25 * ecc * ecc * math.sin(2 * m)
    )
    return decl, eqtime


def _event(day: date, lat: float, lon: float, rising: bool) -> datetime:
    base = datetime(day.year, day.month, day.day, tzinfo=UTC)
    # first guess: local solar noon; then refine at the estimate itself
    minutes = 720.0 - 4.0 * lon
    for _ in range(3):
        decl, eqtime = _solar(_julian_day(base + timedelta(minutes=minutes)))
        phi, delta = math.radians(lat), math.radians(decl)
        cos_ha = math.cos(math.radians(ZENITH)) / (math.cos(phi) * math.cos(delta)) - math.tan(
            phi
        ) * math.tan(delta)
        if not -1.0 <= cos_ha <= 1.0:
            raise ValueError(f"no sunrise/sunset on {day} at latitude {lat}")
        ha = math.degrees(math.acos(cos_ha))
        noon = 720.0 - 4.0 * lon - eqtime
        minutes = noon - 4.0 * ha if rising else noon + 4.0 * ha
    return base + timedelta(minutes=minutes)


def sun_times(day: date, lat: float, lon: float, zone: tzinfo) -> tuple[datetime, datetime]:
    """(sunrise, sunset) of the local date ``day`` at ``lat``/``lon`` (degrees, east and north
    positive), as aware datetimes in ``zone``, to the second. Raises ValueError where the sun
    does not rise or set that day (polar day or night)."""
    out: list[datetime] = []
    for rising in (True, False):
        moment = _event(day, lat, lon, rising)
        # the UTC date the formula used may differ from the local one far from Greenwich
        shift = (moment.astimezone(zone).date() - day).days
        if shift:
            moment = _event(day - timedelta(days=shift), lat, lon, rising)
        out.append(moment.astimezone(zone).replace(microsecond=0))
    return out[0], out[1]
