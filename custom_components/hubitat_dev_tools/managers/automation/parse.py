"""Reading an automation spec: its shape, with errors that name the wrong part.

No hub request here: every error says which part of the spec is wrong
(``rule.actions[2].delay.minutes``) and how to fix it. What the hub must confirm is
:mod:`.check`'s.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ...errors import ToolError
from .parse_base import _bool, _device_id, _fail, _int, _list, _obj, _text, _unknown
from .parse_device_acts import (
    parse_delay_from_variable,
    parse_device_action,
    parse_variable_source,
)
from .parse_locals import parse_local_variables
from .parse_periodic import parse_date, parse_periodic
from .parse_rule_acts import RULE_ACTION_KEYS, parse_rule_action
from .spec import (
    ACTION_KINDS,
    BUTTON_EVENTS,
    CONDITION_KINDS,
    DEVICE_ACTION_KINDS,
    LOGGING,
    MINUTE_STEPS,
    NOT_EXPRESSIBLE,
    OPS,
    PRIVATE_BOOLEAN,
    SUN,
    TRIGGER_KINDS,
    Action,
    Condition,
    DeviceTest,
    Duration,
    Expression,
    RuleSpec,
    TimePoint,
    Trigger,
)

_HHMM_RE = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
MAX_DEPTH = 4


def _device_ids(obj: dict[str, Any], path: str) -> tuple[str, ...]:
    if "device_id" in obj and "device_ids" in obj:
        raise _fail(path, "give device_id or device_ids, not both", "Keep one.")
    if "device_id" in obj:
        return (_device_id(obj["device_id"], f"{path}.device_id"),)
    if "device_ids" in obj:
        items = _list(obj["device_ids"], f"{path}.device_ids", minimum=1)
        ids = [_device_id(v, f"{path}.device_ids[{i}]") for i, v in enumerate(items)]
        return tuple(dict.fromkeys(ids))
    raise _fail(path, "names no device", "Add device_id (or device_ids).")


def duration(value: Any, path: str, *, minimum: int = 0) -> Duration:
    """``{"hours", "minutes", "seconds"}`` (a bare number: minutes)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = {"minutes": value}
    obj = _obj(value, path)
    _unknown(obj, {"hours", "minutes", "seconds"}, path)
    d = Duration(
        hours=_int(obj.get("hours", 0), f"{path}.hours", low=0, high=720),
        minutes=_int(obj.get("minutes", 0), f"{path}.minutes", low=0, high=59 * 24 * 60),
        seconds=_int(obj.get("seconds", 0), f"{path}.seconds", low=0, high=86400),
    )
    if d.total < minimum:
        raise _fail(path, f"must be at least {minimum} second(s)", "Give a longer time.")
    return d


def _op_value(obj: dict[str, Any], path: str) -> tuple[str, Any]:
    if "is" in obj:
        if "op" in obj or "value" in obj or obj.get("changes"):
            raise _fail(path, "give is, or op with value, or changes, only one", "Keep one.")
        value = obj["is"]
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise _fail(f"{path}.is", "must be a state such as 'on' or 'active'", "Fix it.")
        return "eq", value
    if obj.get("changes") is True:
        return "changes", None
    if "op" in obj:
        op = obj["op"]
        if op not in OPS:
            raise _fail(f"{path}.op", f"unknown comparator {op!r}", f"Use one of {', '.join(OPS)}.")
        if "value" not in obj:
            raise _fail(path, "op needs a value", "Add value.")
        value = obj["value"]
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise _fail(f"{path}.value", "must be a number or text", "Fix it.")
        if op not in ("eq", "ne") and not isinstance(value, int | float):
            raise _fail(f"{path}.value", f"{op} compares numbers", "Give a number.")
        return op, value
    raise _fail(path, "says nothing to test", "Add is (a state), op with value, or changes: true.")


def _device_test(obj: dict[str, Any], path: str, *, allow_all: bool) -> DeviceTest:
    op, value = _op_value(obj, path)
    ids = _device_ids(obj, path)
    all_of = _bool(obj.get("all", False), f"{path}.all") if allow_all else False
    if all_of and op == "changes":
        raise _fail(f"{path}.all", "cannot be combined with changes", "Drop all.")
    return DeviceTest(
        ids, _text(obj.get("attribute"), f"{path}.attribute", limit=60), op, value, all_of
    )


def _wait_event(value: Any, path: str) -> DeviceTest:
    """A Wait for Events event: a device test, with its "and stays" (``stays_for``)."""
    obj = _obj(value, path)
    _unknown(
        obj,
        {"device_id", "device_ids", "attribute", "is", "op", "value", "changes", "stays_for"},
        path,
    )
    test = _device_test(obj, path, allow_all=False)
    if "stays_for" not in obj:
        return test
    if test.op == "changes":
        raise _fail(f"{path}.stays_for", "cannot follow a change", "Test a state.")
    stays = duration(obj["stays_for"], f"{path}.stays_for", minimum=1)
    return replace(test, stays_for=stays)


def _time_point(value: Any, path: str) -> TimePoint:
    if isinstance(value, str):
        if value in SUN:
            return TimePoint(sun=value)
        if _HHMM_RE.match(value):
            return TimePoint(at=value)
        raise _fail(path, f"must be HH:MM (24 h), sunrise or sunset, got {value!r}", "Fix it.")
    obj = _obj(value, path)
    _unknown(obj, {"sun", "offset_minutes"}, path)
    if obj.get("sun") not in SUN:
        raise _fail(f"{path}.sun", "must be sunrise or sunset", "Fix it.")
    offset = _int(obj.get("offset_minutes", 0), f"{path}.offset_minutes", low=-720, high=720)
    return TimePoint(sun=str(obj["sun"]), offset_minutes=offset)


_DATE_RE = re.compile(r"^(\d{1,2})-(\d{1,2})(?: (\d{1,2}):(\d{2}))?$")
_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _date_point(value: Any, path: str) -> str:
    """A day of the year (``MM-DD``) with an optional time; canonical ``MM-DD[ HH:MM]``."""
    m = _DATE_RE.match(value.strip()) if isinstance(value, str) else None
    month, day = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    if m is None or not 1 <= month <= 12 or not 1 <= day <= _MONTH_DAYS[month - 1]:
        raise _fail(
            path,
            f"must be a day of the year as MM-DD (optionally MM-DD HH:MM), got {value!r}",
            "e.g. 12-20, or 10-31 15:00 (Rule Machine's dates repeat every year).",
        )
    if m.group(3) is None:
        return f"{month:02d}-{day:02d}"
    hour, minute = int(m.group(3)), int(m.group(4))
    if hour > 23 or minute > 59:
        raise _fail(path, f"{value!r} has no such time", "Use HH:MM, 00:00 to 23:59.")
    return f"{month:02d}-{day:02d} {hour:02d}:{minute:02d}"


def _modes(value: Any, path: str) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else _list(value, path, minimum=1)
    return tuple(_text(m, f"{path}[{i}]", limit=60) for i, m in enumerate(items))


def _refuse_inexpressible(obj: dict[str, Any], path: str, kinds: tuple[str, ...]) -> None:
    for key, why in NOT_EXPRESSIBLE.items():
        if key in obj:
            raise ToolError(
                f"{path}: Rule Machine authoring here cannot express {why}. Nothing was sent.",
                code="not_supported",
                hint="What this spec can express here: " + "; ".join(kinds) + ".",
            )


def parse_trigger(value: Any, path: str) -> Trigger:
    """One trigger of the spec; ``only_if`` makes it a conditional trigger (Rule Machine binds
    one condition to it, tested when the trigger fires)."""
    obj = _obj(value, path)
    if "only_if" not in obj:
        return _parse_trigger(obj, path)
    trig = _parse_trigger({k: v for k, v in obj.items() if k != "only_if"}, path)
    gate = obj["only_if"]
    if isinstance(gate, dict) and ("all" in gate or "any" in gate):
        raise _fail(
            f"{path}.only_if",
            "a conditional trigger takes one condition (Rule Machine binds one to a trigger)",
            "Give one condition (not allowed), or put the rest in the rule's conditions.",
        )
    cond = parse_condition(gate, f"{path}.only_if")
    if cond.kind == "private_boolean":
        raise _fail(
            f"{path}.only_if",
            "Rule Machine offers the private boolean in the Required Expression only",
            "Put it in the rule's conditions.",
        )
    if cond.ref_device is not None:  # the on-hub server's conditional-trigger builder has none
        raise ToolError(
            f"{path}.only_if.compare_to: a conditional trigger's comparison with another device "
            "is not built (no evidence of Rule Machine's fields for it there). Nothing was sent.",
            code="not_supported",
            hint="Put the comparison in the rule's conditions.",
        )
    return replace(trig, only_if=cond)


def _parse_trigger(obj: dict[str, Any], path: str) -> Trigger:
    _refuse_inexpressible(obj, path, TRIGGER_KINDS)
    if "time" in obj:
        _unknown(obj, {"time", "date"}, path)
        point = _time_point(obj["time"], f"{path}.time")
        if point.at is None:
            raise _fail(f"{path}.time", "must be HH:MM", 'For the sun use {"sun": "sunset"}.')
        day = parse_date(obj["date"], f"{path}.date") if "date" in obj else None
        return Trigger("time", time=point, date=day)
    if "periodic" in obj:
        _unknown(obj, {"periodic"}, path)
        per = parse_periodic(obj["periodic"], f"{path}.periodic")
        # every N minutes, and every N hours from midnight, are the every trigger's own form
        if per.frequency == "minutes" and per.every is not None:
            return Trigger("every", every=Duration(minutes=per.every))
        if per.frequency == "hourly" and per.every is not None and per.at in (None, "00:00"):
            return Trigger("every", every=Duration(hours=per.every))
        return Trigger("periodic", periodic=per)
    if "sun" in obj:
        _unknown(obj, {"sun", "offset_minutes"}, path)
        return Trigger("time", time=_time_point(obj, path))
    if "every" in obj:
        _unknown(obj, {"every"}, path)
        every = duration(obj["every"], f"{path}.every", minimum=60)
        if every.seconds or (every.hours and every.minutes):
            raise _fail(f"{path}.every", "must be whole minutes or whole hours", "Fix it.")
        if every.minutes and every.minutes not in MINUTE_STEPS:
            raise _fail(
                f"{path}.every.minutes",
                f"Rule Machine repeats every {', '.join(map(str, MINUTE_STEPS))} minutes only",
                "Pick one of those, or whole hours.",
            )
        return Trigger("every", every=every)
    if "mode" in obj:
        _unknown(obj, {"mode"}, path)
        return Trigger("mode", modes=_modes(obj["mode"], f"{path}.mode"))
    if "variable" in obj:
        _unknown(obj, {"variable", "op", "value", "is", "changes"}, path)
        op, val = _op_value(obj, path)
        return Trigger(
            "variable",
            variable=_text(obj["variable"], f"{path}.variable", limit=60),
            op=op,
            value=val,
        )
    if "button_device_id" in obj:
        _unknown(obj, {"button_device_id", "button", "event"}, path)
        event = obj.get("event", "pushed")
        if event not in BUTTON_EVENTS:
            raise _fail(f"{path}.event", f"must be one of {', '.join(BUTTON_EVENTS)}", "Fix it.")
        dev = _device_id(obj["button_device_id"], f"{path}.button_device_id")
        return Trigger(
            "button",
            test=DeviceTest((dev,), str(event), "eq", None),
            button=_int(obj.get("button", 1), f"{path}.button", low=1, high=100),
            event=str(event),
        )
    if "device_id" in obj or "device_ids" in obj:
        _unknown(
            obj,
            {
                "device_id",
                "device_ids",
                "attribute",
                "is",
                "op",
                "value",
                "changes",
                "all",
                "stays_for",
            },
            path,
        )
        test = _device_test(obj, path, allow_all=True)
        stays = None
        if "stays_for" in obj:
            if test.op == "changes":
                raise _fail(f"{path}.stays_for", "cannot follow a change", "Test a state.")
            stays = duration(obj["stays_for"], f"{path}.stays_for", minimum=1)
        return Trigger("device", test=test, stays_for=stays)
    raise ToolError(
        f"{path}: not a trigger this spec knows. Nothing was sent.",
        hint="Triggers: " + "; ".join(TRIGGER_KINDS) + ".",
    )


def parse_condition(value: Any, path: str, *, negated: bool = False) -> Condition:
    """One leaf condition (``not`` allowed once)."""
    obj = _obj(value, path)
    _refuse_inexpressible(obj, path, CONDITION_KINDS)
    if "not" in obj:
        _unknown(obj, {"not"}, path)
        if negated:
            raise _fail(f"{path}.not", "not inside not", "Drop both.")
        return parse_condition(obj["not"], f"{path}.not", negated=True)
    if "all" in obj or "any" in obj:
        if negated:
            raise _fail(
                f"{path}.not",
                "not of a group is not built",
                "Negate each condition instead (not all = any of the nots).",
            )
        raise _fail(path, "a group is not a condition here", "Put it in an all or any list.")
    if PRIVATE_BOOLEAN in obj:
        _unknown(obj, {PRIVATE_BOOLEAN}, path)
        value = _bool(obj[PRIVATE_BOOLEAN], f"{path}.{PRIVATE_BOOLEAN}")
        return Condition(PRIVATE_BOOLEAN, value=value, negated=negated)
    if "compare_to" in obj:
        return _compared(obj, path, negated)
    if "mode" in obj:
        _unknown(obj, {"mode"}, path)
        return Condition("mode", modes=_modes(obj["mode"], f"{path}.mode"), negated=negated)
    if "between" in obj:
        _unknown(obj, {"between"}, path)
        span = _obj(obj["between"], f"{path}.between")
        _unknown(span, {"from", "to"}, f"{path}.between")
        return Condition(
            "between",
            start=_time_point(span.get("from"), f"{path}.between.from"),
            end=_time_point(span.get("to"), f"{path}.between.to"),
            negated=negated,
        )
    if "dates" in obj:
        _unknown(obj, {"dates"}, path)
        span = _obj(obj["dates"], f"{path}.dates")
        _unknown(span, {"from", "to"}, f"{path}.dates")
        ends = (
            _date_point(span.get("from"), f"{path}.dates.from"),
            _date_point(span.get("to"), f"{path}.dates.to"),
        )
        return Condition("dates", value=ends, negated=negated)
    if "variable" in obj:
        _unknown(obj, {"variable", "op", "value", "is"}, path)
        op, val = _op_value(obj, path)
        if op == "changes":
            raise _fail(path, "a condition tests a value, not a change", "Use op and value.")
        return Condition(
            "variable",
            variable=_text(obj["variable"], f"{path}.variable", limit=60),
            op=op,
            value=val,
            negated=negated,
        )
    if "device_id" in obj or "device_ids" in obj:
        _unknown(obj, {"device_id", "device_ids", "attribute", "is", "op", "value"}, path)
        test = _device_test(obj, path, allow_all=False)
        if test.op == "changes":
            raise _fail(path, "a condition tests a state, not a change", "Use is or op/value.")
        return Condition("device", test=test, negated=negated)
    raise ToolError(
        f"{path}: not a condition this spec knows. Nothing was sent.",
        hint="Conditions: " + "; ".join(CONDITION_KINDS) + ".",
    )


def _compared(obj: dict[str, Any], path: str, negated: bool) -> Condition:
    """A device's numeric attribute against another device's (the same attribute, plus an
    offset), or a variable against another variable: Rule Machine's "relative to a device"
    (``isDev_<C>``) and variable-to-variable (``isVar_<C>``) comparisons (the on-hub server's
    compareToDevice / compareToVariable; rule-storage notes 5.5)."""
    here = f"{path}.compare_to"
    ref = _obj(obj["compare_to"], here)
    op = obj.get("op")
    if op not in OPS:
        raise _fail(f"{path}.op", "compare_to needs op", f"Use one of {', '.join(OPS)}.")
    if "value" in obj or "is" in obj:
        raise _fail(path, "give value or compare_to, not both", "Keep one.")
    lhs_device = "device_id" in obj or "device_ids" in obj
    if lhs_device == ("variable" in obj):
        raise _fail(path, "compares a device or a variable (one)", "Keep one.")
    if ("device_id" in ref) == ("variable" in ref):
        raise _fail(here, "names a device_id or a variable (one)", "Keep one.")
    if lhs_device != ("device_id" in ref):
        left, right = ("a device", "a variable") if lhs_device else ("a variable", "a device")
        raise ToolError(
            f"{here}: Rule Machine authoring here cannot compare {left} with {right} (no "
            "evidence of Rule Machine's fields for it). Nothing was sent.",
            code="not_supported",
            hint="compare_to takes another device's reading for a device (a numeric attribute),"
            " and another variable for a variable.",
        )
    if not lhs_device:
        _unknown(obj, {"variable", "op", "compare_to"}, path)
        _unknown(ref, {"variable"}, here)
        return Condition(
            "variable",
            variable=_text(obj["variable"], f"{path}.variable", limit=60),
            op=str(op),
            negated=negated,
            ref_variable=_text(ref["variable"], f"{here}.variable", limit=60),
        )
    _unknown(obj, {"device_id", "device_ids", "attribute", "op", "compare_to"}, path)
    _unknown(ref, {"device_id", "offset"}, here)
    offset = ref.get("offset", 0)
    if isinstance(offset, bool) or not isinstance(offset, int | float) or abs(offset) > 10000:
        raise _fail(f"{here}.offset", "must be a number (-10000 to 10000)", "Fix it.")
    test = DeviceTest(
        _device_ids(obj, path), _text(obj.get("attribute"), f"{path}.attribute", limit=60), str(op)
    )
    return Condition(
        "device",
        test=test,
        negated=negated,
        ref_device=_device_id(ref["device_id"], f"{here}.device_id"),
        offset=int(offset) if float(offset).is_integer() else offset,
    )


MAX_GROUP_DEPTH = 3  # brackets inside brackets


def parse_expression(value: Any, path: str, *, groups: bool = False, depth: int = 0) -> Expression:
    """A condition, or ``{"all": [...]}`` / ``{"any": [...]}`` of conditions; with ``groups``
    an item may be a group again, up to :data:`MAX_GROUP_DEPTH`."""
    obj = _obj(value, path)
    for key, operator in (("all", "AND"), ("any", "OR")):
        if key in obj:
            _unknown(obj, {key}, path)
            items = _list(obj[key], f"{path}.{key}", minimum=1)
            conds = tuple(
                _group_item(c, f"{path}.{key}[{i}]", groups, depth) for i, c in enumerate(items)
            )
            if len(conds) == 1:
                return conds[0] if isinstance(conds[0], Expression) else Expression(conds)
            return Expression(conds, operator)
    return Expression((parse_condition(obj, path),))


def _group_item(value: Any, path: str, groups: bool, depth: int) -> Condition | Expression:
    if groups and isinstance(value, dict) and ("all" in value or "any" in value):
        if depth + 1 >= MAX_GROUP_DEPTH:
            raise _fail(
                path,
                f"groups nest at most {MAX_GROUP_DEPTH} deep",
                "Flatten the innermost group.",
            )
        inner = parse_expression(value, path, groups=True, depth=depth + 1)
        return inner.conditions[0] if len(inner.conditions) == 1 else inner
    return parse_condition(value, path)


def _action_expression(value: Any, path: str) -> Expression:
    """An IF's, ELSE-IF's, Repeat While's or wait's expression: groups in brackets too (the
    same condition wizard as the Required Expression's, on the action page: ``cond=b`` opens
    one, the operator ``end-sub-expression )`` closes it; the hub keeps a ``parens`` entry for
    each action expression as for the Required Expression, rule-storage notes 5.2); no Private
    Boolean (Rule Machine's capability list for an action's condition lacks it: rule-storage
    notes 5.2, live on 2.5.1.140; the on-hub server's guide)."""
    expr = parse_expression(value, path, groups=True)
    for here, cond in expr.leaves(path):
        if cond.kind == PRIVATE_BOOLEAN:
            raise ToolError(
                f"{here}: Rule Machine offers the Private Boolean condition only in the rule's "
                "Required Expression (conditions), not in an action's expression. Nothing "
                "was sent.",
                code="not_supported",
                hint="Move the private_boolean test into the rule's conditions.",
            )
    return expr


_ACTION_KEYS = (
    "command",
    "delay",
    "delay_per_mode",
    "wait",
    "wait_until",
    "set_mode",
    "set_variable",
    "notify",
    "log",
    "if",
    "repeat_while",
    "repeat",
    "cancel_delays",
    *RULE_ACTION_KEYS,
    "delay_from_variable",
    *DEVICE_ACTION_KINDS,
)


def parse_actions(value: Any, path: str, depth: int = 0) -> tuple[Action, ...]:
    """A list of actions."""
    items = _list(value, path, minimum=1)
    return tuple(parse_action(a, f"{path}[{i}]", depth) for i, a in enumerate(items))


def parse_action(value: Any, path: str, depth: int = 0) -> Action:
    """One action of the spec."""
    obj = _obj(value, path)
    kinds = [k for k in _ACTION_KEYS if k in obj]
    if "command" in kinds:
        kinds = ["command"]  # delay is its modifier there
    if len(kinds) != 1:
        raise ToolError(
            f"{path}: {'is not an action' if not kinds else 'names several actions'} "
            f"({', '.join(kinds) or 'none'}). Nothing was sent.",
            hint="Actions: " + "; ".join(ACTION_KINDS) + ".",
        )
    kind = kinds[0]
    if kind == "command":
        _unknown(
            obj, {"command", "device_id", "device_ids", "arguments", "delay", "cancelable"}, path
        )
        args = obj.get("arguments", [])
        args_list = _list(args, f"{path}.arguments")
        if len(args_list) > 5:
            raise _fail(f"{path}.arguments", "at most 5 arguments", "Drop some.")
        delay = duration(obj["delay"], f"{path}.delay", minimum=1) if "delay" in obj else None
        cancelable = _bool(obj.get("cancelable", False), f"{path}.cancelable")
        if cancelable and delay is None:
            raise _fail(
                f"{path}.cancelable",
                "only a delayed command can be cancelable",
                "Add delay, or drop cancelable.",
            )
        return Action(
            "command",
            device_ids=_device_ids(obj, path),
            command=_text(obj["command"], f"{path}.command", limit=60),
            arguments=tuple(args_list),
            delay=delay,
            cancelable=cancelable,
        )
    if kind == "delay":
        _unknown(obj, {"delay", "cancelable", "random"}, path)
        return Action(
            "delay",
            delay=duration(obj["delay"], f"{path}.delay", minimum=1),
            cancelable=_bool(obj.get("cancelable", False), f"{path}.cancelable"),
            # randomAct.<N>: a random delay up to the time (the on-hub server's delay fields)
            params=(("random", True),) if _bool(obj.get("random", False), f"{path}.random") else (),
        )
    if kind == "delay_from_variable":
        return parse_delay_from_variable(obj, path)
    if kind in DEVICE_ACTION_KINDS:
        return parse_device_action(kind, obj, path)
    if kind == "delay_per_mode":
        _unknown(obj, {"delay_per_mode", "cancelable"}, path)
        per = _obj(obj["delay_per_mode"], f"{path}.delay_per_mode")
        if not per or len(per) > 20:
            raise _fail(f"{path}.delay_per_mode", "needs 1 to 20 modes", "Name each mode.")
        return Action(
            "delay_per_mode",
            per_mode=tuple(
                (
                    _text(mode, f"{path}.delay_per_mode", limit=60),
                    duration(d, f"{path}.delay_per_mode.{mode}", minimum=1),
                )
                for mode, d in per.items()
            ),
            cancelable=_bool(obj.get("cancelable", False), f"{path}.cancelable"),
        )
    if kind == "wait":
        _unknown(obj, {"wait", "timeout"}, path)
        items = _list(obj["wait"], f"{path}.wait", minimum=1)
        events = tuple(_wait_event(e, f"{path}.wait[{i}]") for i, e in enumerate(items))
        timeout = (
            duration(obj["timeout"], f"{path}.timeout", minimum=1) if "timeout" in obj else None
        )
        return Action("wait", events=events, timeout=timeout)
    if kind == "wait_until":
        _unknown(obj, {"wait_until", "timeout"}, path)
        return Action(
            "wait_until",
            condition=_action_expression(obj["wait_until"], f"{path}.wait_until"),
            timeout=duration(obj["timeout"], f"{path}.timeout", minimum=1)
            if "timeout" in obj
            else None,
        )
    if kind == "set_mode":
        _unknown(obj, {"set_mode"}, path)
        return Action("set_mode", text=_text(obj["set_mode"], f"{path}.set_mode", limit=60))
    if kind == "set_variable":
        _unknown(obj, {"set_variable", "value", "from_variable", "from_device", "math"}, path)
        sources = [k for k in ("value", "from_variable", "from_device", "math") if k in obj]
        if len(sources) != 1:
            raise _fail(path, "give one of value, from_variable, from_device or math", "Keep one.")
        if sources[0] in ("from_device", "math"):
            params = parse_variable_source(obj, path)
            source = dict(params).get("from_device")
            return Action(
                "set_variable",
                text=_text(obj["set_variable"], f"{path}.set_variable", limit=60),
                params=params,
                device_ids=(source["device_id"],) if source else (),
            )
        if "value" in obj:
            val = obj["value"]
            if isinstance(val, bool) or not isinstance(val, int | float):
                raise _fail(
                    f"{path}.value",
                    "Rule Machine sets a variable to a number here",
                    "Give a number, or copy another variable with from_variable.",
                )
        return Action(
            "set_variable",
            text=_text(obj["set_variable"], f"{path}.set_variable", limit=60),
            value=obj.get("value"),
            from_variable=_text(obj["from_variable"], f"{path}.from_variable", limit=60)
            if "from_variable" in obj
            else None,
        )
    if kind == "notify":
        _unknown(obj, {"notify", "device_id", "device_ids"}, path)
        return Action(
            "notify",
            text=_text(obj["notify"], f"{path}.notify", limit=500),
            device_ids=_device_ids(obj, path),
        )
    if kind == "log":
        _unknown(obj, {"log"}, path)
        return Action("log", text=_text(obj["log"], f"{path}.log", limit=500))
    if kind == "cancel_delays":
        _unknown(obj, {"cancel_delays"}, path)
        return Action("cancel_delays")
    if kind in RULE_ACTION_KEYS:
        return parse_rule_action(kind, obj, path)
    if depth >= MAX_DEPTH:
        raise _fail(path, f"nests deeper than {MAX_DEPTH} levels", "Flatten it.")
    if kind == "if":
        _unknown(obj, {"if", "then", "else_if", "else"}, path)
        elifs = []
        for j, branch in enumerate(_list(obj.get("else_if", []), f"{path}.else_if")):
            here = f"{path}.else_if[{j}]"
            _unknown(_obj(branch, here), {"if", "then"}, here)
            elifs.append(
                Action(
                    "else_if",
                    condition=_action_expression(branch.get("if"), f"{here}.if"),
                    then=parse_actions(branch.get("then"), f"{here}.then", depth + 1),
                )
            )
        return Action(
            "if",
            condition=_action_expression(obj["if"], f"{path}.if"),
            then=parse_actions(obj.get("then"), f"{path}.then", depth + 1),
            elifs=tuple(elifs),
            otherwise=parse_actions(obj["else"], f"{path}.else", depth + 1)
            if "else" in obj
            else (),
        )
    # stoppable: Rule Machine's "Stoppable?" on the repeat (stopRepeat.<N>, the on-hub server);
    # false is the default and is never written, so it reads back as absent
    if kind == "repeat":
        _unknown(obj, {"repeat", "every", "stoppable", "do"}, path)
        return Action(
            "repeat",
            value=_int(obj["repeat"], f"{path}.repeat", low=1, high=1000),
            every=duration(obj.get("every"), f"{path}.every", minimum=1),
            params=_stoppable(obj, path),
            then=parse_actions(obj.get("do"), f"{path}.do", depth + 1),
        )
    _unknown(obj, {"repeat_while", "every", "stoppable", "do"}, path)
    return Action(
        "repeat_while",
        condition=_action_expression(obj["repeat_while"], f"{path}.repeat_while"),
        every=duration(obj.get("every"), f"{path}.every", minimum=1),
        params=_stoppable(obj, path),
        then=parse_actions(obj.get("do"), f"{path}.do", depth + 1),
    )


def _stoppable(obj: dict[str, Any], path: str) -> tuple[tuple[str, Any], ...]:
    """A repeat's ``stoppable`` (a boolean; only true is kept)."""
    return (("stoppable", True),) if _bool(obj.get("stoppable", False), f"{path}.stoppable") else ()


SPEC_KEYS = {"name", "triggers", "conditions", "actions", "paused", "enabled", "logging"} | {
    "local_variables"
}


def parse_spec(value: Any, path: str = "rule") -> RuleSpec:
    """The whole spec; raises a :class:`ToolError` naming the first wrong part."""
    obj = _obj(value, path)
    _unknown(obj, SPEC_KEYS, path)
    triggers = tuple(
        parse_trigger(t, f"{path}.triggers[{i}]")
        for i, t in enumerate(_list(obj.get("triggers", []), f"{path}.triggers"))
    )
    actions = parse_actions(obj.get("actions"), f"{path}.actions")
    logging = obj.get("logging", [])
    for i, item in enumerate(_list(logging, f"{path}.logging")):
        if item not in LOGGING:
            raise _fail(f"{path}.logging[{i}]", f"must be one of {', '.join(LOGGING)}", "Fix it.")
    spec = RuleSpec(
        name=_text(obj.get("name"), f"{path}.name", limit=100),
        triggers=triggers,
        actions=actions,
        conditions=parse_expression(obj["conditions"], f"{path}.conditions", groups=True)
        if "conditions" in obj
        else None,
        paused=_bool(obj.get("paused", False), f"{path}.paused"),
        enabled=_bool(obj.get("enabled", True), f"{path}.enabled"),
        logging=tuple(dict.fromkeys(logging)),
        local_variables=parse_local_variables(
            obj.get("local_variables", []), f"{path}.local_variables"
        ),
    )
    locals_ = {v.name for v in spec.local_variables}
    for i, trig in enumerate(spec.triggers):
        if trig.variable in locals_:
            raise _fail(
                f"{path}.triggers[{i}].variable",
                f"'{trig.variable}' is one of the rule's local variables, and Rule Machine "
                "does not trigger on those",
                "Trigger on a hub variable instead.",
                subject="local_variable_trigger",
            )
    waits = [a for a in spec.all_actions() if a.kind == "wait"]
    if len(waits) > 1:
        raise _fail(
            f"{path}.actions",
            "has more than one wait; Rule Machine keeps one Wait for "
            "Events per rule (a second one would overwrite the first)",
            "Put all the events in one wait, or split the rule.",
        )
    return spec
