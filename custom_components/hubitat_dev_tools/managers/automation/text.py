"""A spec in words, the way Rule Machine shows a rule (for ``validate_only`` previews).

The hub writes its own rule text once the rule exists; this is our rendering of the spec
before anything is sent, with device, mode and rule names from the checked spec.
"""

from __future__ import annotations

import calendar

from .check import Resolved
from .spec import (
    OPS,
    Action,
    Condition,
    DeviceTest,
    Duration,
    Expression,
    Periodic,
    RuleSpec,
    TimePoint,
    Trigger,
)
from .text_acts import action_words


def _dur(d: Duration) -> str:
    return f"{d.hours}:{d.minutes:02d}:{d.seconds:02d}"


def _names(ids: tuple[str, ...], res: Resolved) -> str:
    return ", ".join(res.label(i) for i in ids)


def _test(t: DeviceTest, res: Resolved) -> str:
    who = _names(t.device_ids, res)
    if t.op == "changes":
        return f"{who} {t.attribute} *changed*"
    if t.op == "eq" and isinstance(t.value, str):
        return f"{who} {t.attribute} {t.value}"
    return f"{who} {t.attribute} {OPS[t.op]} {t.value}"


def _point(p: TimePoint) -> str:
    if p.at is not None:
        return p.at
    name = str(p.sun).capitalize()
    if p.offset_minutes:
        sign = "+" if p.offset_minutes > 0 else "-"
        return f"{name}{sign}{abs(p.offset_minutes)} minutes"
    return name


def _day(point: str) -> str:
    day, _, at = point.partition(" ")
    month, dom = (int(x) for x in day.split("-"))
    return f"{calendar.month_name[month]} {dom}" + (f" at {at}" if at else "")


def _condition(c: Condition, res: Resolved) -> str:
    if c.kind == "device" and c.test is not None and c.ref_device is not None:
        offset = f"{c.offset:+}" if c.offset else ""
        text = f"{_names(c.test.device_ids, res)} {c.test.attribute} {OPS[c.test.op]} "
        text += f"{res.label(c.ref_device)}{offset}"
    elif c.kind == "device" and c.test is not None:
        text = _test(c.test, res)
    elif c.kind == "private_boolean":
        text = f"Private Boolean is {str(bool(c.value)).lower()}"
    elif c.ref_variable is not None:
        text = f"Variable {c.variable} {OPS[str(c.op)]} {c.ref_variable}"
    elif c.kind == "mode":
        text = "Mode is " + ", ".join(c.modes)
    elif c.kind == "between" and c.start is not None and c.end is not None:
        text = f"Time between {_point(c.start)} and {_point(c.end)}"
    elif c.kind == "dates":
        text = f"Between {_day(c.value[0])} and {_day(c.value[1])}"
    else:
        text = f"Variable {c.variable} {OPS[str(c.op)]} {c.value}"
    return f"NOT {text}" if c.negated else text


def expression_text(e: Expression, res: Resolved) -> str:
    """An expression in words, a group in brackets."""
    return f" {e.operator} ".join(
        f"( {expression_text(c, res)} )" if isinstance(c, Expression) else _condition(c, res)
        for c in e.conditions
    )


def _action_lines(a: Action, res: Resolved, depth: int) -> list[str]:
    pad = "  " * depth
    k = a.kind
    if (words := action_words(a, res)) is not None:
        return [pad + words]
    if k == "command":
        args = f"({', '.join(map(str, a.arguments))})" if a.arguments else ""
        line = f"{a.command}{args}: {_names(a.device_ids, res)}"
        if a.delay is not None:
            line += f" --> delayed: {_dur(a.delay)}" + (" (cancelable)" if a.cancelable else "")
        return [pad + line]
    if k == "delay" and a.delay is not None:
        random = " (random)" if dict(a.params).get("random") else ""
        return [pad + f"Delay {_dur(a.delay)}{random}" + (" (cancelable)" if a.cancelable else "")]
    if k == "wait":
        line = "Wait for event: " + " or ".join(
            _test(e, res) + (f" and stays {_dur(e.stays_for)}" if e.stays_for else "")
            for e in a.events
        )
        if a.timeout is not None:
            line += f" --> timeout: {_dur(a.timeout)}"
        return [pad + line]
    if k == "wait_until" and a.condition is not None:
        line = f"Wait for expression: {expression_text(a.condition, res)}"
        if a.timeout is not None:
            line += f" --> timeout: {_dur(a.timeout)}"
        return [pad + line]
    if k == "if" and a.condition is not None:
        lines = [pad + f"IF ({expression_text(a.condition, res)}) THEN"]
        lines += [ln for sub in a.then for ln in _action_lines(sub, res, depth + 1)]
        for e in a.elifs:
            if e.condition is not None:
                lines.append(pad + f"ELSE-IF ({expression_text(e.condition, res)}) THEN")
                lines += [ln for sub in e.then for ln in _action_lines(sub, res, depth + 1)]
        if a.otherwise:
            lines.append(pad + "ELSE")
            lines += [ln for sub in a.otherwise for ln in _action_lines(sub, res, depth + 1)]
        return [*lines, pad + "END-IF"]
    if k == "repeat" and a.every is not None:
        lines = [pad + f"Repeat every {_dur(a.every)}, {a.value} times"]
        lines += [ln for sub in a.then for ln in _action_lines(sub, res, depth + 1)]
        return [*lines, pad + "END-REP"]
    if k == "repeat_while" and a.condition is not None and a.every is not None:
        lines = [pad + f"Repeat While ({expression_text(a.condition, res)}) every {_dur(a.every)}"]
        lines += [ln for sub in a.then for ln in _action_lines(sub, res, depth + 1)]
        return [*lines, pad + "END-REP"]
    simple = {
        "set_mode": f"Set Mode: {a.text}",
        "set_variable": f"Set {a.text} to "
        + (f"{a.from_variable}" if a.from_variable is not None else f"{a.value}"),
        "notify": f"Notify {_names(a.device_ids, res)}: '{a.text}'",
        "log": f"Log: '{a.text}'",
        "cancel_delays": "Cancel Delayed Actions",
        "run_rule": "Run Actions: " + ", ".join(res.rules.get(r, r) for r in a.rule_ids),
        "pause_rules": "Pause Rules: " + ", ".join(res.rules.get(r, r) for r in a.rule_ids),
        "resume_rules": "Resume Rules: " + ", ".join(res.rules.get(r, r) for r in a.rule_ids),
        "set_private_boolean": f"Private Boolean {a.value}: "
        + (", ".join(res.rules.get(r, r) for r in a.rule_ids) or "This Rule"),
        "set_hsm": f"Set HSM: {a.text}",
        "exit_rule": "Exit Rule",
        "delay_per_mode": "Delay per mode: "
        + ", ".join(f"{m} {_dur(d)}" for m, d in a.per_mode)
        + (" (cancelable)" if a.cancelable else ""),
        "capture": f"Capture: {_names(a.device_ids, res)}",
        "restore": "Restore",
        "write_file": f"Write File: {a.text}",
        "append_file": f"Append File: {a.text}",
        "delete_file": f"Delete File: {a.text}",
        "disable_devices": f"Disable: {_names(a.device_ids, res)}",
        "enable_devices": f"Enable: {_names(a.device_ids, res)}",
        "comment": f"Comment: {a.text}",
        "http_get": f"Send HTTP Get: {a.text}",
        "http_post": f"Send HTTP Post: {a.text} ({a.content_type})",
        "ping": f"Ping IP: {a.text}",
    }
    return [pad + simple.get(k, k)]


def _trigger_line(t: Trigger, res: Resolved) -> str:
    line = _trigger_event(t, res)
    if t.only_if is not None:
        line += f" only if ( {_condition(t.only_if, res)} )"
    return line


def _periodic_line(p: Periodic) -> str:
    """A Periodic Schedule in words."""
    at = f" at {p.at}" if p.at else ""
    f = p.frequency
    if f == "seconds":
        return f"Every {p.every} seconds"
    if f == "minutes":
        return f"Every hour at minutes {', '.join(map(str, p.minutes))}"
    if f == "hourly" and p.every is not None:
        return f"Every {p.every} hours" + (f" starting at {p.at}" if p.at else "")
    if f == "hourly":
        return f"At {p.minute or 0} minutes past hours {', '.join(map(str, p.hours))}"
    if f == "daily":
        if p.every is not None:
            return f"Every {p.every} days{at}"
        if p.weekdays_only:
            return f"Every weekday{at}"
        return f"On days {', '.join(map(str, p.days_of_month))} of the month{at}"
    if f == "weekly":
        return "Every " + ", ".join(d.capitalize() for d in p.days) + at
    nth = f"the {str(p.week).capitalize()} {str(p.weekday).capitalize()}"
    if f == "monthly" and p.day is not None:
        return f"On day {p.day} of every {p.every_months} months{at}"
    if f == "monthly":
        return f"On {nth} of every {p.every_months} months{at}"
    if f == "yearly":
        return f"On {nth} of {str(p.month).capitalize()}{at}"
    return f"Cron: {p.cron}"


def _trigger_event(t: Trigger, res: Resolved) -> str:
    if t.kind == "periodic" and t.periodic is not None:
        return _periodic_line(t.periodic)
    if t.kind == "time" and t.time is not None and t.date is not None:
        return f"When time is {_point(t.time)} on {t.date} (once)"
    if t.kind == "device" and t.test is not None:
        line = _test(t.test, res)
        if t.test.all:
            line = "All of " + line
        if t.stays_for is not None:
            line += f" and stays that way for {_dur(t.stays_for)}"
        return line
    if t.kind == "button" and t.test is not None:
        return f"{_names(t.test.device_ids, res)} button {t.button} {t.event}"
    if t.kind == "time" and t.time is not None:
        return f"When time is {_point(t.time)}"
    if t.kind == "every" and t.every is not None:
        unit = f"{t.every.minutes} minutes" if t.every.minutes else f"{t.every.hours} hours"
        return f"Every {unit}"
    if t.kind == "mode":
        return "Mode becomes " + ", ".join(t.modes)
    value = "*changed*" if t.op == "changes" else f"{OPS[str(t.op)]} {t.value}"
    return f"Variable {t.variable} {value}"


def rule_text(spec: RuleSpec, res: Resolved) -> str:
    """The whole rule in words: triggers, Required Expression, actions."""
    lines = [f"Rule: {spec.name}", "Triggers:"]
    lines += ["  " + _trigger_line(t, res) for t in spec.triggers] or ["  (none)"]
    if spec.conditions is not None:
        lines.append(f"Required Expression: {expression_text(spec.conditions, res)}")
    lines.append("Actions:")
    lines += [ln for a in spec.actions for ln in _action_lines(a, res, 1)]
    return "\n".join(lines)
