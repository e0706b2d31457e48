"""Rule Machine 5.1's per-mode device actions, fades, level changes, Cancel Rule Timers and the
newer Set Variable sources and delay options: the fields the action page reveals, and what
each does when it runs.

Field names and order: the on-hub server's action builder (``mcp-native-rules-lib.groovy``,
"verified live"; ``docs/rm_action_subtype_schemas.md``, ``docs/rm_wire_format.md``); Cancel
Rule Timers also a live hub's stored rules (hubitat-automation-map: ``getStopActions``,
``stopAct``, ``stopRuleType``). Input types, titles and the rule-text words: no evidence.
The colour names and their hue/saturation are this emulator's palette (the on-hub server names
Red, Green and Blue as options; the rest: no evidence). A fade is modelled as even steps on the
hub's clock (``…Interval`` seconds apart, else a twentieth of the time), skipped when the
device is already past the target in the other direction.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

from .emuclock import EmuClock
from .home import Home
from .rule_conditions import as_bool, as_float, as_int, id_list
from .rule_definition import RuleDefinition

Inp = dict[str, Any]


class Env(Protocol):
    """What these fields need of the hub (``rule_fields.Env``)."""

    def modes(self) -> list[tuple[str, str]]: ...

    def variables(self) -> list[str]: ...

    def attributes(self, ids: Sequence[int]) -> list[str]: ...

    def rules(self, exclude: int) -> list[tuple[str, str]]: ...


class _Steps(Protocol):
    """``rule_fields._Steps``: a field shown; whether it is set."""

    def add(self, field_: Inp) -> bool: ...

    def all(self, fields: Sequence[Inp]) -> bool: ...


class _Host(Protocol):
    home: Home
    clock: EmuClock

    def cancel_timers(self, app_ids: list[int], keep: Any) -> None: ...

    def spawn_background(self, run: Any, work: Coroutine[Any, Any, None]) -> None: ...


class Run(Protocol):
    """What a run (``rule_actions.Run``) offers these actions."""

    rule: RuleDefinition

    @property
    def host(self) -> _Host: ...

    @property
    def s(self) -> dict[str, Any]: ...

    def command(self, devices: object, cmd: str, args: list[object]) -> None: ...


# colour name -> (hue, saturation), Hubitat's 0-100 scales
COLORS: dict[str, tuple[int, int]] = {
    "White": (0, 0),
    "Red": (0, 100),
    "Orange": (8, 100),
    "Yellow": (17, 100),
    "Green": (33, 100),
    "Blue": (67, 100),
    "Purple": (75, 100),
    "Pink": (83, 60),
}
CONSTANT = "(constant)"
MATH_BINARY = ("+", "-", "*", "/", "%")
MATH_UNARY = (
    *("negate", "absolute", "round", "random", "sqrt", "sin", "cos", "tan"),
    *("asin", "acos", "atan", "log", "toRadians", "toDegrees"),
)
SUB_TYPES: dict[str, dict[str, str]] = {
    "switchActs": {
        "getModeSwitch": "Set switches per mode",
        "getChooseSwitch": "Choose switches per mode",
    },
    "dimmerActs": {
        "getAdjustDimmer": "Adjust dimmers",
        "getDimmersPerMode": "Set dimmers per mode",
        "getFadeDimmer": "Fade dimmers over time",
        "getRLDimmer": "Start raising or lowering dimmers",
        "getStopDimmer": "Stop changing dimmers",
        "getColorPerMode": "Set color per mode",
        "getColorTempPerMode": "Set color temperature per mode",
        "getFadeCT": "Change color temperature over time",
    },
    "rulesActs": {"getStopActions": "Cancel Rule Timers"},
}
SUBTYPES = tuple(sub for subs in SUB_TYPES.values() for sub in subs)
# per-mode subtype -> (devices field, device capability, modes field)
PER_MODE = {
    "getDimmersPerMode": ("dimM", "switchLevel", "dimmerModes"),
    "getModeSwitch": ("switchM", "switch", "switchModes"),
    "getColorPerMode": ("bulbsM", "colorControl", "colorModes"),
    "getColorTempPerMode": ("ctM", "colorTemperature", "ctModes"),
}


def _modes(env: Env) -> list[Any]:
    return [{mid: name} for mid, name in env.modes()]


def device_action_fields(
    st: _Steps, s: dict[str, Any], n: int, sub: str, env: Env, inp: Callable[..., Inp]
) -> bool:
    """The fields of one of :data:`SUBTYPES` so far; whether the action is complete."""

    def f(name: str, kind: str, title: str, **kw: Any) -> Inp:
        return inp(f"{name}.{n}", kind, title, **kw)

    if sub == "getStopActions":
        ok = st.add(f("stopRuleType", "enum", "Rule type", options=["Rule Machine"]))
        rules = [{rid: label} for rid, label in env.rules(-1)]
        return ok and st.add(f("stopAct", "enum", "Rules", options=rules, multiple=True))
    if sub in PER_MODE:
        devices, capability, modes = PER_MODE[sub]
        ok = st.add(f(devices, f"capability.{capability}", "Devices", multiple=True))
        ok = ok and st.add(f(modes, "enum", "Modes", options=_modes(env), multiple=True))
        for mid in (s.get(f"{modes}.{n}") or []) if ok else []:
            if sub == "getDimmersPerMode":
                ok = st.add(f(f"level{mid}", "number", "Level")) and ok
            elif sub == "getModeSwitch":
                ok = st.add(f(f"switch{mid}", "enum", "On or off", options=["on", "off"])) and ok
            elif sub == "getColorPerMode":
                ok = st.add(f(f"color{mid}", "enum", "Color", options=list(COLORS))) and ok
                ok = st.add(f(f"colorLevel{mid}", "number", "Level")) and ok
            else:  # the level's name ends after the action number (the on-hub server, live)
                ok = st.add(f(f"ctMode{mid}", "number", "Color temperature")) and ok
                ok = st.add(inp(f"ctMode{mid}.{n}Level", "number", "Level")) and ok
        if ok and sub == "getDimmersPerMode":
            st.add(f("dimMR", "decimal", "Transition time (seconds)"))  # optional
        return ok
    if sub == "getChooseSwitch":
        ok = st.add(f("chooseModes", "enum", "Modes", options=_modes(env), multiple=True))
        for mid in (s.get(f"chooseModes.{n}") or []) if ok else []:
            on = st.add(f(f"chooseSwOn{mid}", "capability.switch", "Turn on", multiple=True))
            off = st.add(f(f"chooseSwOff{mid}", "capability.switch", "Turn off", multiple=True))
            ok = ok and (on or off)
        return ok
    if sub in ("getFadeDimmer", "getFadeCT"):
        pre, capability = (
            ("dimFade", "switchLevel") if sub == "getFadeDimmer" else ("ctFade", "colorTemperature")
        )
        ok = st.add(f(pre, f"capability.{capability}", "Devices", multiple=True))
        ok = ok and st.add(f(f"{pre}Up", "bool", "Raise?"))
        ok = ok and st.add(f(f"{pre}Target", "number", "Target"))
        ok = ok and st.add(f(f"{pre}Time", "number", "Minutes"))
        if ok:
            st.add(f(f"{pre}Interval", "number", "Interval (seconds)"))  # optional
        return ok
    if sub == "getRLDimmer":  # the on-hub server's order: dimRL (true: lower), the devices
        ok = st.add(f("dimRL", "bool", "Lower?"))
        return ok and st.add(f("dimRaiseLower", "capability.changeLevel", "Dimmers", multiple=True))
    if sub == "getStopDimmer":
        return st.add(f("dimStop", "capability.changeLevel", "Dimmers", multiple=True))
    # getAdjustDimmer
    ok = st.add(f("dimA", "capability.switchLevel", "Dimmers", multiple=True))
    ok = ok and st.add(f("dimAdj", "number", "Adjust by (-100..100)"))
    if ok:
        st.add(f("dimAdjR", "decimal", "Transition time (seconds)"))  # optional
    return ok


def variable_source_fields(
    st: _Steps, s: dict[str, Any], n: int, env: Env, inp: Callable[..., Inp]
) -> bool:
    """Set Variable's ``device attribute`` and ``variable math`` sources, after ``numOp``."""
    op = s[f"numOp.{n}"]
    if op == "device attribute":
        if not st.add(inp(f"customDev.{n}", "capability.*", "Device")):
            return False
        attrs = env.attributes(id_list(s.get(f"customDev.{n}")))
        return st.add(inp(f"tCustomAttr.{n}", "enum", "Attribute", options=attrs))
    operands = [CONSTANT, *env.variables()]
    ok = st.all(
        [
            inp(f"xVar3.{n}", "enum", "Operand", options=operands),
            inp(f"valMathOp.{n}", "enum", "Operator", options=[*MATH_BINARY, *MATH_UNARY]),
        ]
    )
    if s.get(f"xVar3.{n}") == CONSTANT:
        ok = st.add(inp(f"valConst.{n}", "decimal", "Constant")) and ok
    if ok and s.get(f"valMathOp.{n}") in MATH_BINARY:
        ok = st.add(inp(f"xVar4.{n}", "enum", "Operand", options=operands))
        if ok and s.get(f"xVar4.{n}") == CONSTANT:
            ok = st.add(inp(f"valConst2.{n}", "decimal", "Constant"))
    return ok


def delay_fields(st: _Steps, s: dict[str, Any], n: int, inp: Callable[..., Inp], env: Env) -> bool:
    """A Delay: ``uVar`` (the length from a variable, then ``xVar``) or its three fields, then
    cancelable and random."""
    st.add(inp(f"uVar.{n}", "bool", "Use variable for delay?"))
    if s.get(f"uVar.{n}") is True:
        ok = st.add(inp(f"xVar.{n}", "enum", "Variable (seconds)", options=env.variables()))
    else:
        keys = ("delayHour", "delayMinute", "delaySecond")
        ok = st.add(inp(f"{keys[0]}.{n}", "number", "Hours"))
        ok = ok and st.add(inp(f"{keys[1]}.{n}", "number", "Minutes"))
        ok = ok and st.add(inp(f"{keys[2]}.{n}", "number", "Seconds"))
    if ok:
        st.add(inp(f"cancelAct.{n}", "bool", "Cancelable?"))
        st.add(inp(f"randomAct.{n}", "bool", "Random delay?"))
    return ok


# ---------------------------------------------------------------------- running


def _mode_id(run: Run) -> str:
    return str(run.host.home.state.current_mode_id)


def _level(run: Run, dev_id: int, attr: str) -> float | None:
    dev = run.host.home.state.devices.get(dev_id)
    if dev is None or attr not in dev.attrs:
        return None
    return as_float(dev.attrs[attr].value)


def act(run: Run, sub: str, n: int) -> None:
    """Run one of :data:`SUBTYPES`."""
    s = run.s
    if sub == "getStopActions":
        run.host.cancel_timers(id_list(s.get(f"stopAct.{n}")), run)
        return
    if sub in PER_MODE:
        devices, _capability, modes = PER_MODE[sub]
        mid = _mode_id(run)
        if mid not in [str(m) for m in s.get(f"{modes}.{n}") or []]:
            return  # a mode not listed: nothing
        targets = s.get(f"{devices}.{n}")
        if sub == "getDimmersPerMode":
            args: list[object] = [as_int(s.get(f"level{mid}.{n}"))]
            if s.get(f"dimMR.{n}") is not None:
                args.append(as_float(s.get(f"dimMR.{n}")) or 0)
            run.command(targets, "setLevel", args)
        elif sub == "getModeSwitch":
            run.command(targets, "on" if s.get(f"switch{mid}.{n}") == "on" else "off", [])
        elif sub == "getColorPerMode":
            hue, sat = COLORS.get(str(s.get(f"color{mid}.{n}")), (0, 0))
            level = as_int(s.get(f"colorLevel{mid}.{n}"))
            run.command(targets, "setColor", [{"hue": hue, "saturation": sat, "level": level}])
        else:
            kelvin, level = (
                as_int(s.get(f"ctMode{mid}.{n}")),
                as_int(s.get(f"ctMode{mid}.{n}Level")),
            )
            run.command(targets, "setColorTemperature", [kelvin, level])
        return
    if sub == "getChooseSwitch":
        mid = _mode_id(run)
        if mid in [str(m) for m in s.get(f"chooseModes.{n}") or []]:
            run.command(s.get(f"chooseSwOn{mid}.{n}"), "on", [])
            run.command(s.get(f"chooseSwOff{mid}.{n}"), "off", [])
        return
    if sub in ("getFadeDimmer", "getFadeCT"):
        pre = "dimFade" if sub == "getFadeDimmer" else "ctFade"
        for dev_id in id_list(s.get(f"{pre}.{n}")):
            run.host.spawn_background(run, fade(run, dev_id, pre, n))
        return
    if sub == "getRLDimmer":
        direction = "down" if as_bool(s.get(f"dimRL.{n}")) else "up"
        run.command(s.get(f"dimRaiseLower.{n}"), "startLevelChange", [direction])
        return
    if sub == "getStopDimmer":
        run.command(s.get(f"dimStop.{n}"), "stopLevelChange", [])
        return
    # getAdjustDimmer: the level now plus the amount, within 0..100
    by = as_int(s.get(f"dimAdj.{n}"))
    for dev_id in id_list(s.get(f"dimA.{n}")):
        now = _level(run, dev_id, "level")
        if now is not None:
            run.command(dev_id, "setLevel", [max(0, min(100, round(now) + by))])


async def fade(run: Run, dev_id: int, pre: str, n: int) -> None:
    """Step one device from its level (or colour temperature) to the target over the time."""
    s = run.s
    attr, cmd = (
        ("level", "setLevel") if pre == "dimFade" else ("colorTemperature", "setColorTemperature")
    )
    start, target = _level(run, dev_id, attr), as_int(s.get(f"{pre}Target.{n}"))
    if start is None:
        return
    raise_ = as_bool(s.get(f"{pre}Up.{n}"))
    if (raise_ and target <= start) or (not raise_ and target >= start):
        return  # already there, or past it the other way
    total = max(1.0, as_int(s.get(f"{pre}Time.{n}")) * 60.0)
    interval = as_float(s.get(f"{pre}Interval.{n}")) or total / 20
    steps = max(1, math.ceil(total / max(interval, 1.0)))
    for i in range(1, steps + 1):
        await run.host.clock.sleep(total / steps)
        value = round(start + (target - start) * i / steps)
        run.command(dev_id, cmd, [value])


def delay_seconds(run: Run, n: int, fixed: float) -> float:
    """A Delay's length: a variable's value (seconds) when ``uVar``, else ``fixed``; a random
    part of it when ``randomAct``."""
    s = run.s
    length = fixed
    if as_bool(s.get(f"uVar.{n}")):
        length = max(0.0, as_float(variable_value(run, str(s.get(f"xVar.{n}") or ""))) or 0.0)
    if as_bool(s.get(f"randomAct.{n}")):
        length = random.uniform(0, length)
    return length


def variable_value(run: Run, name: str) -> object:
    """A variable's value: the rule's own first, then the hub's."""
    local = run.rule.local_vars
    if name in local:
        return local[name]["value"]
    var = run.host.home.state.variables.get(name)
    return None if var is None else var.value


def source_value(run: Run, n: int) -> object:
    """Set Variable's value from a device attribute or variable math (None: none)."""
    s = run.s
    if s.get(f"numOp.{n}") == "device attribute":
        ids = id_list(s.get(f"customDev.{n}"))
        dev = run.host.home.state.devices.get(ids[0]) if ids else None
        attr = str(s.get(f"tCustomAttr.{n}") or "")
        if dev is None or attr not in dev.attrs:
            return None
        return dev.attrs[attr].value

    def operand(pick: str, const: str) -> float | None:
        chosen = s.get(f"{pick}.{n}")
        raw = s.get(f"{const}.{n}") if chosen == CONSTANT else variable_value(run, str(chosen))
        return as_float(raw)

    left, op = operand("xVar3", "valConst"), str(s.get(f"valMathOp.{n}") or "")
    if left is None:
        return None
    if op in MATH_BINARY:
        right = operand("xVar4", "valConst2")
        if right is None or (op in ("/", "%") and right == 0):
            return None
        return {
            "+": left + right,
            "-": left - right,
            "*": left * right,
            "/": left / right,
            "%": math.fmod(left, right),
        }[op]
    unary: dict[str, Callable[[float], float]] = {
        "negate": lambda x: -x,
        "absolute": abs,
        "round": lambda x: float(round(x)),
        "random": lambda x: random.uniform(0, x),
        "sqrt": math.sqrt,
        "sin": math.sin,
        "cos": math.cos,
        "tan": math.tan,
        "asin": math.asin,
        "acos": math.acos,
        "atan": math.atan,
        "log": math.log,
        "toRadians": math.radians,
        "toDegrees": math.degrees,
    }
    try:
        return unary[op](left)
    except (KeyError, ValueError):
        return None


def line(
    s: dict[str, Any],
    n: int,
    sub: str,
    devices: Callable[[str], str],
    modes: dict[str, str],
    rules: Callable[[Any], str],
) -> str:
    """The rule text of one of :data:`SUBTYPES`."""

    def g(name: str) -> Any:
        return s.get(f"{name}.{n}")

    if sub == "getStopActions":
        return f"Cancel Rule Timers: {rules(g('stopAct'))}"
    if sub in PER_MODE:
        dev_key, _cap, mode_key = PER_MODE[sub]
        parts = []
        for mid in g(mode_key) or []:
            if sub == "getDimmersPerMode":
                what = str(g(f"level{mid}"))
            elif sub == "getModeSwitch":
                what = str(g(f"switch{mid}"))
            elif sub == "getColorPerMode":
                what = f"{g(f'color{mid}')} level {g(f'colorLevel{mid}')}"
            else:
                what = f"{g(f'ctMode{mid}')}K level {s.get(f'ctMode{mid}.{n}Level')}"
            parts.append(f"{modes.get(str(mid), str(mid))}: {what}")
        label = {
            "getDimmersPerMode": "Dim per mode",
            "getModeSwitch": "Switch per mode",
            "getColorPerMode": "Color per mode",
            "getColorTempPerMode": "Color temperature per mode",
        }[sub]
        return f"{label}: {devices(f'{dev_key}.{n}')}: {', '.join(parts)}"
    if sub == "getChooseSwitch":
        parts = [
            f"{modes.get(str(mid), str(mid))}: on {devices(f'chooseSwOn{mid}.{n}') or '-'}, "
            f"off {devices(f'chooseSwOff{mid}.{n}') or '-'}"
            for mid in g("chooseModes") or []
        ]
        return f"Choose switches per mode: {'; '.join(parts)}"
    if sub in ("getFadeDimmer", "getFadeCT"):
        pre = "dimFade" if sub == "getFadeDimmer" else "ctFade"
        what = "Fade" if sub == "getFadeDimmer" else "Fade color temperature"
        way = "raise" if g(f"{pre}Up") else "lower"
        target, minutes = g(f"{pre}Target"), g(f"{pre}Time")
        return f"{what}: {devices(f'{pre}.{n}')}: {way} to {target} over {minutes} minutes"
    if sub == "getRLDimmer":
        return f"Start {'Lowering' if g('dimRL') else 'Raising'}: {devices(f'dimRaiseLower.{n}')}"
    if sub == "getStopDimmer":
        return f"Stop Changing: {devices(f'dimStop.{n}')}"
    return f"Adjust: {devices(f'dimA.{n}')}: by {g('dimAdj')}"
