"""Colour arithmetic of bulbs: level clamping, colour names, hue/saturation to hex."""

from __future__ import annotations

import colorsys


def clamp(v: int | float, lo: int, hi: int) -> int:
    return int(max(lo, min(hi, round(v))))


def color_name_from_ct(ct: int) -> str:
    if ct < 2600:
        return "Incandescent"
    if ct < 3500:
        return "Soft White"
    if ct < 4500:
        return "Moonlight"
    if ct < 5500:
        return "Daylight"
    return "Cool White"


def color_name_from_hue(hue: int, sat: int) -> str:
    if sat < 10:
        return "White"
    deg = hue * 3.6
    names: tuple[tuple[int, str], ...] = (
        (15, "Red"),
        (45, "Orange"),
        (75, "Yellow"),
        (150, "Green"),
        (195, "Cyan"),
        (255, "Blue"),
        (285, "Violet"),
        (330, "Magenta"),
        (361, "Red"),
    )
    for limit, nm in names:
        if deg < limit:
            return nm
    return "Red"


def hsv_hex(hue: int, sat: int, level: int) -> str:
    r, g, b = colorsys.hsv_to_rgb(hue / 100.0, sat / 100.0, max(level, 1) / 100.0)
    return f"#{int(r * 255):02X}{int(g * 255):02X}{int(b * 255):02X}"
