"""The rule text of an emulated Rule Machine 5.1 rule, written like Rule Machine shows it.

Trigger lines (``Front Porch Motion motion active``, ``Time of day: Sunset-10 minutes``),
conditions (``Time between Sunset and Sunrise``, ``Hall Switch is on``), actions (``On: Porch
Light``, ``Delay 0:05:00 (cancelable)``, ``IF (Hall Switch is on) THEN`` with the actions
inside indented by four ``&nbsp;``). A device that no longer exists shows as ``**BROKEN**``
and the line is marked ``**BROKEN**`` at its start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from . import rule_device_acts
from .rule_conditions import as_float
from .rule_dates import DATES, date_text
from .rule_definition import ExprToken
from .rule_fields import (
    BETWEEN,
    CHANGED,
    CUSTOM,
    DEVICE_CAPS,
    NUMERIC_CAPS,
    PERIODIC,
    TIME_TRIGGER,
    Env,
    device_ids,
    event_key,
)
from .rule_periodic import periodic_line

BROKEN = "**BROKEN**"
INDENT = "&nbsp;" * 4


class _Writer:
    def __init__(self, s: dict[str, Any], env: Env) -> None:
        self.s = s
        self.env = env
        self.broken = False

    def devices(self, name: str) -> str:
        names = []
        for dev_id in device_ids(self.s.get(name)):
            label = self.env.device_name(dev_id)
            if label is None:
                self.broken = True
                label = BROKEN
            names.append(label)
        return ", ".join(names)

    def modes(self, name: str) -> str:
        known = dict(self.env.modes())
        value = self.s.get(name) or []
        return ", ".join(known.get(str(m), BROKEN) for m in value)

    def line(self, text: str) -> str:
        broken, self.broken = self.broken, False
        return f"{BROKEN} {text}" if broken else text


def hms(hours: Any, minutes: Any, seconds: Any) -> str:
    total = int(hours or 0) * 3600 + int(minutes or 0) * 60 + int(seconds or 0)
    return f"{total // 3600}:{total % 3600 // 60:02d}:{total % 60:02d}"


def _offset(base: str, minutes: Any) -> str:
    m = int(minutes or 0)
    if m == 0:
        return base
    return f"{base}{'+' if m > 0 else '-'}{abs(m)} minutes"


def _clock(value: Any) -> str:
    try:
        at = datetime.strptime(str(value), "%Y-%m-%dT%H:%M:%S.%f%z")
    except ValueError:
        return str(value)
    return at.strftime("%I:%M %p").lstrip("0")


def _time_of(s: dict[str, Any], kind: Any, at: str, sunrise: str, sunset: str) -> str:
    if kind == "Sunrise":
        return _offset("Sunrise", s.get(sunrise))
    if kind == "Sunset":
        return _offset("Sunset", s.get(sunset))
    return _clock(s.get(at))


def event_line(s: dict[str, Any], key: Callable[[str], str], env: Env) -> str:
    """One trigger (``key("tCapab")`` = ``tCapab1``) or Wait for Events event."""
    w = _Writer(s, env)
    cap = s.get(key("tCapab"))
    dev = key("tDev")
    if cap in DEVICE_CAPS:
        names = w.devices(dev)
        if s.get(key("AlltDev")):
            names = f"All of {names}"
        text = f"{names} {DEVICE_CAPS[cap][1]} {s.get(key('tstate'))}"
        if s.get(key("stays")):
            stays = hms(s.get(key("SHours")), s.get(key("SMins")), s.get(key("SSecs")))
            text += f" and stays {stays}"
        return w.line(text)
    if cap in NUMERIC_CAPS or cap in (CUSTOM, "Variable"):
        if cap == "Variable":
            subject = f"Variable {s.get(key('xVar'))}"
        else:
            attr = NUMERIC_CAPS[cap][1] if cap in NUMERIC_CAPS else s.get(key("tCustomAttr"))
            subject = f"{w.devices(dev)} {attr}"
        rel = s.get(key("ReltDev"))
        tail = CHANGED if rel == CHANGED else f"{rel} {s.get(key('tstate'))}"
        return w.line(f"{subject} {tail}")
    if cap == "Button":
        names = w.devices(dev)
        return w.line(f"{names} button {s.get(key('ButtontDev'))} {s.get(key('tstate'))}")
    if cap == TIME_TRIGGER:
        when = _time_of(
            s, s.get(key("time")), key("atTime"), key("atSunriseOffset"), key("atSunsetOffset")
        )
        stored = str(s.get(key("atTime")) or "")
        if (
            s.get(key("time")) == "A specific time"
            and stored[:4].isdigit()
            and stored[:4] != "2000"
        ):
            return f"Time of day: {when} on {stored[:10]}"  # dated: once (no evidence of wording)
        return f"Time of day: {when}"
    if cap == "Mode":
        return f"Mode becomes {w.modes(key('modesX'))}"
    if cap == PERIODIC:
        n = key("")
        return f"Periodic Schedule: {periodic_line(s, int(n)) if n.isdigit() else BROKEN}"
    return f"{BROKEN} trigger"


def condition_line(s: dict[str, Any], c: int, env: Env) -> str:
    w = _Writer(s, env)
    cap = s.get(f"rCapab_{c}")
    if cap in DEVICE_CAPS:
        text = f"{w.devices(f'rDev_{c}')} is {s.get(f'state_{c}')}"
    elif cap in NUMERIC_CAPS or cap == CUSTOM:
        attr = NUMERIC_CAPS[cap][1] if cap in NUMERIC_CAPS else s.get(f"rCustomAttr_{c}")
        rel, value = s.get(f"RelrDev_{c}"), s.get(f"state_{c}")
        if s.get(f"isDev_{c}") is True:  # "Temperature of A is > B-2" (the on-hub server, live)
            offset = as_float(value) or 0.0
            value = w.devices(f"relDevice_{c}") + (f"{offset:+g}" if offset else "")
        text = f"{w.devices(f'rDev_{c}')} {attr} {rel} {value}"
    elif cap == "Variable":
        value = s.get(f"xVarR_{c}") if s.get(f"isVar_{c}") is True else s.get(f"state_{c}")
        text = f"Variable {s.get(f'xVar_{c}')} {s.get(f'RelrDev_{c}')} {value}"
    elif cap == "Private Boolean":  # the rule-storage notes: "Private Boolean(true) is true"
        text = f"Private Boolean is {s.get(f'state_{c}')}"
    elif cap == "Mode":
        text = f"Mode is {w.modes(f'modes{c}')}"
    elif cap == BETWEEN:
        start = _time_of(
            s,
            s.get(f"starting{c}"),
            f"startingA{c}",
            f"startSunriseOffset{c}",
            f"startSunsetOffset{c}",
        )
        end = _time_of(
            s, s.get(f"ending{c}"), f"endingA{c}", f"endSunriseOffset{c}", f"endSunsetOffset{c}"
        )
        text = f"Time between {start} and {end}"
    elif cap == DATES:
        text = date_text(s, c)
    else:
        text = "**Broken Condition**"
    if s.get(f"not{c}"):
        text = f"NOT {text}"
    return w.line(text)


def expression_text(s: dict[str, Any], tokens: Sequence[ExprToken], env: Env) -> str:
    return " ".join(t if isinstance(t, str) else condition_line(s, t, env) for t in tokens)


def action_line(
    s: dict[str, Any],
    n: int,
    env: Env,
    *,
    expression: Sequence[ExprToken] | None,
    events: Sequence[int],
) -> str:
    """One action (without indentation)."""
    w = _Writer(s, env)
    sub = s.get(f"actSubType.{n}")

    def g(name: str) -> Any:
        return s.get(f"{name}.{n}")

    text: str
    if sub == "getOnOffSwitch":
        text = f"{'On' if g('onOff') else 'Off'}: {w.devices(f'onOffSwitch.{n}')}"
    elif sub == "getToggleSwitch":
        text = f"Toggle: {w.devices(f'toggleSwitch.{n}')}"
    elif sub == "getSetDimmer":
        text = f"Dim: {w.devices(f'dimA.{n}')}: {g('dimLA')}"
        text += f" --> {g('dimRA')} seconds" if g("dimRA") is not None else ""
    elif sub == "getLULock":
        text = f"{'Unlock' if g('lockRL') else 'Lock'}: {w.devices(f'lockLockUnlock.{n}')}"
    elif sub == "getSetMode":
        text = f"Set Mode: {dict(env.modes()).get(str(g('mode')), BROKEN)}"
    elif sub == "getSetVariable" and g("numOp") in ("device attribute", "variable math"):
        if g("numOp") == "device attribute":
            source = f"{w.devices(f'customDev.{n}')} {g('tCustomAttr')}"
        else:
            const = rule_device_acts.CONSTANT
            left = g("valConst") if g("xVar3") == const else g("xVar3")
            source = f"{g('valMathOp')} {left}"
            if g("valMathOp") in rule_device_acts.MATH_BINARY:
                right = g("valConst2") if g("xVar4") == const else g("xVar4")
                source = f"{left} {g('valMathOp')} {right}"
        text = f"Set {g('xVarV')} to {source}"
    elif sub == "getSetVariable":
        source = g("valNumber") if g("numOp") == "number" else g("xVar3")
        text = f"Set {g('xVarV')} to {source}"
    elif sub == "getMsg":
        text = f"Notify {w.devices(f'note.{n}')}: '{g('msg')}'"
    elif sub == "getLogMsg":
        text = f"Log: '{g('logmsg')}'"
    elif sub == "getHTTPGet":  # the words: no evidence
        text = f"Send HTTP Get: {g('httper')}"
    elif sub == "getHTTPPost":
        text = f"Send HTTP Post: {g('httper')} ({g('httpPostType')})"
    elif sub == "getPingIP":
        text = f"Ping IP: {g('pingIP')}"
    elif sub == "getDelay":
        if g("uVar"):
            text = f"Delay by variable {g('xVar')}"
        else:
            text = f"Delay {hms(g('delayHour'), g('delayMinute'), g('delaySecond'))}"
        text += " (random)" if g("randomAct") else ""
        text += " (cancelable)" if g("cancelAct") else ""
    elif sub == "getCancelDelay":
        text = "Cancel Delayed Actions"
    elif sub == "getWaitEvents":
        parts = [event_line(s, event_key(e), env) for e in events]
        text = f"Wait for event: {' or '.join(parts)}"
    elif sub == "getRuleActions":
        text = f"Run Actions: {_rule_names(env, g('ruleAct'))}"
    elif sub == "getPauseResumeRules":
        text = f"{'Resume' if g('pR') else 'Pause'} Rules: {_rule_names(env, g('pauseRule'))}"
    elif sub == "getSetPrivateBoolean":  # pvTF reads inverted (rule-storage notes 9.3)
        names = _rule_names(env, g("privateT"), {"*": "This Rule"})
        text = f"Rule Boolean {'False' if g('pvTF') else 'True'}: {names}"
    elif sub == "getSetHSM":
        text = f"Set Safety Monitor: {g('alarm')}"
    elif sub == "getExitRule":
        text = "Exit Rule"
    elif sub == "getDelayPerMode":
        mode_names = dict(env.modes())
        parts = []
        for mode_id in g("delayModes") or []:
            name = mode_names.get(str(mode_id), str(mode_id))
            d = hms(g(f"delayHour{name}"), g(f"delayMinute{name}"), g(f"delaySecond{name}"))
            parts.append(f"{name}: {d}")
        text = f"Delay per mode: {', '.join(parts)}" + (" (cancelable)" if g("cancelAct") else "")
    elif sub == "getWriteLocalFile":
        text = f"Write File: {g('localFile')}"
    elif sub == "getAppendLocalFile":
        text = f"Append File: {g('localFile')}"
    elif sub == "getDeleteLocalFile":
        text = f"Delete File: {g('deleteFile')}"
    elif sub == "getCapture":
        text = f"Capture: {w.devices(f'capture.{n}')}"
    elif sub == "getRestore":
        text = "Restore"
    elif sub == "getDisable":
        text = f"{'Enable' if g('disEn') else 'Disable'}: {w.devices(f'devDisable.{n}')}"
    elif sub == "getComment":
        text = f"Comment: {g('comment')}"
    elif sub in rule_device_acts.SUBTYPES:
        text = rule_device_acts.line(
            s, n, str(sub), w.devices, dict(env.modes()), lambda ids: _rule_names(env, ids)
        )
    elif sub == "getDefinedAction":
        params = [
            str(v) for k, v in sorted(s.items()) if k.startswith("cpVal") and k.endswith(f".{n}")
        ]
        text = f"{g('cCmd')}({', '.join(params)}) on {w.devices(f'devices.{n}')}"
    elif sub == "getRepeat":
        every = hms(g("repeatHour"), g("repeatMinute"), g("repeatSecond"))
        text = f"Repeat every {every}, {g('repeatN')} times"
    elif sub == "getWaitRule":
        text = f"Wait for expression: {expression_text(s, expression or [], env)}"
        if g("delayAct") == "hrs:min:sec":
            text += f" --> timeout: {hms(g('delayHor'), g('delayMin'), g('delaySec'))}"
    elif sub in ("getIfThen", "getWhile"):
        expr = expression_text(s, expression or [], env)
        if sub == "getIfThen":
            text = f"IF ({expr}) THEN"
        else:
            every = hms(g("repeatHour"), g("repeatMinute"), g("repeatSecond"))
            text = f"Repeat While ({expr}) every {every}"
    elif sub == "getElseIf":
        text = f"ELSE-IF ({expression_text(s, expression or [], env)}) THEN"
    elif sub == "getElse":
        text = "ELSE"
    elif sub == "getEndIf":
        text = "END-IF"
    elif sub == "getStopRepeat":
        text = "END-REP"
    else:
        text = BROKEN
    if g("delayAct") == "hrs:min:sec":
        text += f" --> delayed: {hms(g('delayHor'), g('delayMin'), g('delaySec'))}"
        text += " (cancelable)" if g("cancelAct") else ""
    return w.line(text)


def _rule_names(env: Env, ids: Any, extra: dict[str, str] | None = None) -> str:
    """The rules an action names, by label (BROKEN for one that is gone)."""
    labels = {**(extra or {}), **dict(env.rules(-1))}
    return ", ".join(labels.get(str(r), BROKEN) for r in ids or [])


def indent_levels(subtypes: Sequence[Any]) -> list[int]:
    """The indentation depth of each action: IF / Repeat open a level, ELSE sits one out."""
    depth, out = 0, []
    for sub in subtypes:
        if sub in ("getEndIf", "getStopRepeat"):
            depth = max(depth - 1, 0)
        out.append(max(depth - 1, 0) if sub in ("getElse", "getElseIf") else depth)
        if sub in ("getIfThen", "getWhile", "getRepeat"):
            depth += 1
    return out


def indented(text: str, depth: int) -> str:
    return INDENT * depth + text
