"""The newer device and value actions read back from a rule's settings (the fields
``compile_acts`` writes; the same evidence)."""

from __future__ import annotations

from typing import Any, Protocol

from .parse_device_acts import MATH_BINARY


class Decompiler(Protocol):
    """What :class:`~.decompile.Decompiler` offers these readers."""

    s: dict[str, Any]
    modes: dict[str, str]

    def devices(self, key: str) -> list[str]: ...


def _ids(value: Any) -> list[str]:
    """Rule ids of a stored enum (a list, or its text)."""
    items = value if isinstance(value, list) else str(value or "").strip("[]").split(",")
    return [t for i in items if (t := str(i).strip().strip("\"'"))]


CONSTANT = "(constant)"
# the settings that hold mode ids (a read-back needs the hub's mode names for them)
PER_MODE_KEYS = ("dimmerModes.", "switchModes.", "chooseModes.", "colorModes.", "ctModes.")
# actSubType -> the spec's action kind
SUBTYPES = {
    "getDimmersPerMode": "set_level_per_mode",
    "getModeSwitch": "switch_per_mode",
    "getChooseSwitch": "choose_per_mode",
    "getColorPerMode": "color_per_mode",
    "getColorTempPerMode": "color_temperature_per_mode",
    "getFadeDimmer": "fade_level",
    "getFadeCT": "fade_color_temperature",
    "getRLDimmer": "start_level_change",
    "getStopDimmer": "stop_level_change",
    "getAdjustDimmer": "adjust_level",
    "getStopActions": "cancel_timers",
}


def _bool(value: Any) -> bool:
    return value is True or str(value).lower() == "true"


def _num(value: Any) -> Any:
    try:
        number = float(str(value))
    except ValueError:
        return value
    return int(number) if number.is_integer() else number


def _mode_ids(d: Decompiler, key: str) -> list[str]:
    value = d.s.get(key)
    items = value if isinstance(value, list) else str(value or "").strip("[]").split(",")
    return [str(i).strip().strip("\"'") for i in items if str(i).strip()]


def leaf(d: Decompiler, sub: str, a: int) -> dict[str, Any] | None:
    """The spec form of action ``a`` of subtype ``sub`` (None: the settings are incomplete)."""
    s, kind = d.s, SUBTYPES[sub]
    if kind == "cancel_timers":
        return {kind: _ids(s.get(f"stopAct.{a}"))}
    if kind in ("set_level_per_mode", "switch_per_mode", "color_per_mode"):
        devices, modes = {
            "set_level_per_mode": ("dimM", "dimmerModes"),
            "switch_per_mode": ("switchM", "switchModes"),
            "color_per_mode": ("bulbsM", "colorModes"),
        }[kind]
        per: dict[str, Any] = {}
        for mid in _mode_ids(d, f"{modes}.{a}"):
            name = d.modes.get(mid, mid)
            if kind == "set_level_per_mode":
                per[name] = _num(s.get(f"level{mid}.{a}"))
            elif kind == "switch_per_mode":
                per[name] = s.get(f"switch{mid}.{a}")
            else:
                per[name] = {
                    "color": s.get(f"color{mid}.{a}"),
                    "level": _num(s.get(f"colorLevel{mid}.{a}")),
                }
        return {kind: per, "device_ids": d.devices(f"{devices}.{a}")}
    if kind == "color_temperature_per_mode":
        per = {
            d.modes.get(mid, mid): {
                "kelvin": _num(s.get(f"ctMode{mid}.{a}")),
                "level": _num(s.get(f"ctMode{mid}.{a}Level")),
            }
            for mid in _mode_ids(d, f"ctModes.{a}")
        }
        return {kind: per, "device_ids": d.devices(f"ctM.{a}")}
    if kind == "choose_per_mode":
        chosen: dict[str, Any] = {}
        for mid in _mode_ids(d, f"chooseModes.{a}"):
            lists = {
                side: d.devices(f"chooseSw{key}{mid}.{a}")
                for side, key in (("on", "On"), ("off", "Off"))
                if s.get(f"chooseSw{key}{mid}.{a}") not in (None, "", [])
            }
            chosen[d.modes.get(mid, mid)] = lists
        return {kind: chosen}
    if kind in ("fade_level", "fade_color_temperature"):
        pre = "dimFade" if kind == "fade_level" else "ctFade"
        out: dict[str, Any] = {
            kind: _num(s.get(f"{pre}Target.{a}")),
            "device_ids": d.devices(f"{pre}.{a}"),
            "minutes": _num(s.get(f"{pre}Time.{a}")),
            "direction": "raise" if _bool(s.get(f"{pre}Up.{a}")) else "lower",
        }
        if s.get(f"{pre}Interval.{a}") not in (None, ""):
            out["interval_seconds"] = _num(s.get(f"{pre}Interval.{a}"))
        return out
    if kind == "start_level_change":  # dimRL true: lower
        return {
            kind: "lower" if _bool(s.get(f"dimRL.{a}")) else "raise",
            "device_ids": d.devices(f"dimRaiseLower.{a}"),
        }
    if kind == "stop_level_change":
        return {kind: d.devices(f"dimStop.{a}")}
    return {kind: _num(s.get(f"dimAdj.{a}")), "device_ids": d.devices(f"dimA.{a}")}


def variable_source(d: Decompiler, a: int) -> dict[str, Any] | None:
    """Set Variable's device-attribute or variable-math source (None: another source)."""
    s = d.s
    op = s.get(f"numOp.{a}")
    if op == "device attribute":
        ids = d.devices(f"customDev.{a}")
        return {
            "from_device": {
                "device_id": ids[0] if ids else None,
                "attribute": s.get(f"tCustomAttr.{a}"),
            }
        }
    if op != "variable math":
        return None

    def operand(pick: str, const: str) -> Any:
        chosen = s.get(f"{pick}.{a}")
        return _num(s.get(f"{const}.{a}")) if chosen == CONSTANT else chosen

    math: dict[str, Any] = {"left": operand("xVar3", "valConst"), "op": s.get(f"valMathOp.{a}")}
    if math["op"] in MATH_BINARY:
        math["right"] = operand("xVar4", "valConst2")
    return {"math": math}


def delay_options(d: Decompiler, a: int, out: dict[str, Any]) -> None:
    """A Delay's variable source and random option, into its spec form."""
    if _bool(d.s.get(f"randomAct.{a}")):
        out["random"] = True
