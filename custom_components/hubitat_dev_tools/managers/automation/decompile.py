"""A Rule Machine 5.1 rule's stored settings read back as a spec, where the settings allow.

The settings are the ones ``docs/rule-machine-pages.md`` lists (``tCapab1``, ``actType.2``,
``rCapab_3`` ...). What they cannot say is marked in ``undecompiled`` with the reason, and the
spec keeps a placeholder there (``{"unknown": "..."}``), so "what does this rule do" always
has an answer and "change it" never silently drops a part. Which condition belongs to which
expression is not stored as a setting: it is read from the rule's state (``eval``, see
``stored_expr.py``), else inferred when only one expression can own them, else marked.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from . import decompile_acts
from .compile import CHANGED, NUMERIC_CAPABILITIES, STATE_CAPABILITIES
from .decompile_periodic import read_periodic
from .spec import DEFAULT_CONTENT_TYPE, OPS
from .stored_expr import Group, Unreadable, action_expression_ids, read_expression

_STATE_ATTR = {v: k for k, v in STATE_CAPABILITIES.items()} | {
    "Door": "door",
    "Garage door": "door",
}
_NUMERIC_ATTR = {v: k for k, v in NUMERIC_CAPABILITIES.items()}
_OP_NAME = {v: k for k, v in OPS.items()} | {"!=": "ne", "==": "eq"}
_NUM_RE = re.compile(r"(\d+)$")


def _ids(value: Any, ids_for: list[Any] | None = None) -> list[str]:
    if ids_for:
        return [str(i) for i in ids_for]
    if isinstance(value, list):
        return [str(v.get("id") if isinstance(v, dict) else v) for v in value]
    if isinstance(value, dict):
        return [str(k) for k in value]
    parts = (p.strip().strip("\"'") for p in str(value or "").strip("[]").split(","))
    return [p for p in parts if p]


def _num(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value) if float(value).is_integer() else value
    try:
        number = float(str(value))
    except ValueError:
        return value
    return int(number) if number.is_integer() else number


def _hhmm(value: Any) -> str:
    text = str(value or "")
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).strftime("%H:%M")
    except ValueError:
        m = re.search(r"T(\d{2}:\d{2})", text)
        return m.group(1) if m else text


def _bool(value: Any) -> bool:
    return value is True or str(value).lower() == "true"


class Decompiler:
    """One rule's settings (name -> value, device inputs' ids in ``device_ids``)."""

    def __init__(
        self,
        settings: dict[str, Any],
        device_ids: dict[str, list[Any]],
        mode_names: dict[str, str],
        state: dict[str, Any] | None = None,
    ) -> None:
        self.s = settings
        self.dev = device_ids
        self.modes = mode_names
        self.state = state or {}
        self.undecompiled: list[dict[str, str]] = []
        # what was marked while reading each trigger, each action row (in the rule's order,
        # IF / ELSE / END-IF rows included) and the Required Expression: the entries the
        # rule text's lines are matched to (:mod:`.shown`)
        self.trigger_marks: list[list[dict[str, str]]] = []
        self.action_marks: list[list[dict[str, str]]] = []
        self.condition_marks: list[dict[str, str]] = []

    def _mark(self, part: str, why: str) -> dict[str, Any]:
        self.undecompiled.append({"part": part, "why": why})
        return {"unknown": why}

    def _since(self, start: int) -> list[dict[str, str]]:
        return self.undecompiled[start:]

    def _indexes(self, pattern: str) -> list[int]:
        rx = re.compile(pattern)
        found = {
            int(m.group(1))
            for k, v in self.s.items()
            if (m := rx.fullmatch(k)) and v not in (None, "")
        }
        return sorted(found)

    def duration(self, hours: str, minutes: str, seconds: str) -> dict[str, Any]:
        """A duration from three settings (hours, minutes, seconds), zero parts left out."""
        parts = (("hours", hours), ("minutes", minutes), ("seconds", seconds))
        return {k: v for k, key in parts if (v := _num(self.s.get(key) or 0))}

    def devices(self, key: str) -> list[str]:
        """The device ids of a device input."""
        return _ids(self.s.get(key), self.dev.get(key))

    def _device_test(
        self, cap: str, dev_key: str, attr_key: str, rel_key: str, state_key: str
    ) -> dict[str, Any] | None:
        ids = self.devices(dev_key)
        if not ids:
            return None
        out: dict[str, Any] = {"device_id": ids[0]} if len(ids) == 1 else {"device_ids": ids}
        state = self.s.get(state_key)
        if cap in _STATE_ATTR:
            out["attribute"] = _STATE_ATTR[cap]
            if state == CHANGED:
                out["changes"] = True
            else:
                out["is"] = state
            return out
        if cap in _NUMERIC_ATTR:
            out["attribute"] = _NUMERIC_ATTR[cap]
        elif cap == "Custom Attribute":
            out["attribute"] = self.s.get(attr_key)
        else:
            return None
        rel = self.s.get(rel_key)
        if rel == CHANGED:
            out["changes"] = True
        elif rel in _OP_NAME:
            op = _OP_NAME[rel]
            value = _num(state)
            if op == "eq" and isinstance(value, str):
                out["is"] = value
            else:
                out["op"], out["value"] = op, value
        else:
            out["is"] = state
        return out

    # ------------------------------------------------------------------ triggers

    def triggers(self) -> list[dict[str, Any]]:
        """Every committed trigger."""
        out: list[dict[str, Any]] = []
        self.trigger_marks = []
        for n in self._indexes(r"tCapab(\d+)"):
            start = len(self.undecompiled)
            out.append(self._trigger(n, f"triggers[{len(out)}]"))
            self.trigger_marks.append(self._since(start))
        return out

    def trigger_conditions(self) -> dict[int, int]:
        """Each conditional trigger's condition number: ``isCondTrig.<N>`` true and
        ``condTrig.<N>`` the condition's id (the on-hub server's conditional-trigger path)."""
        out: dict[int, int] = {}
        for n in self._indexes(r"tCapab(\d+)"):
            bound = str(self.s.get(f"condTrig.{n}") or "")
            if _bool(self.s.get(f"isCondTrig.{n}")) and bound.isdigit():
                out[n] = int(bound)
        return out

    def _trigger(self, n: int, part: str) -> dict[str, Any]:
        out = self._trigger_event(n, part)
        gate = self.trigger_conditions().get(n)
        if gate is not None and "unknown" not in out:
            out["only_if"] = self.condition(gate, f"{part}.only_if")
        return out

    def _trigger_event(self, n: int, part: str) -> dict[str, Any]:
        s = self.s
        cap = str(s.get(f"tCapab{n}"))
        if cap == "Certain Time (and optional date)":
            kind = s.get(f"time{n}")
            if kind == "A specific time":
                stored = str(s.get(f"atTime{n}") or "")
                day = stored[:10]
                if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) and not day.startswith("2000-"):
                    # a real date: once on that day (2000-01-01 is the daily time's placeholder)
                    return {"time": _hhmm(stored), "date": day}
                return {"time": _hhmm(stored)}
            if kind in ("Sunrise", "Sunset"):
                offset = _num(s.get(f"at{kind}Offset{n}") or 0)
                return {"sun": str(kind).lower(), "offset_minutes": offset}
            return self._mark(part, f"time trigger '{kind}'")
        if cap == "Periodic Schedule":
            period = s.get(f"whichPeriod{n}") or s.get("whichPeriod1")
            suffix = n if f"whichPeriod{n}" in s else 1
            if period == "Minutes" and s.get(f"everyNC{suffix}") not in (None, ""):
                return {"every": {"minutes": _num(s.get(f"everyNC{suffix}"))}}
            every_hours = _bool(s.get(f"everyNHoursC{suffix}")) or (
                s.get(f"everyNHC{suffix}") not in (None, "") and not s.get(f"selectHoursC{suffix}")
            )
            if period == "Hourly" and every_hours:
                at = _hhmm(s.get(f"startingHC{suffix}")) if s.get(f"startingHC{suffix}") else None
                if at in (None, "00:00"):
                    return {"every": {"hours": _num(s.get(f"everyNHC{suffix}"))}}
                return {
                    "periodic": {
                        "frequency": "hourly",
                        "every": _num(s.get(f"everyNHC{suffix}")),
                        "at": at,
                    }
                }
            per = read_periodic(s, suffix)
            if per is None:
                return self._mark(part, f"periodic schedule '{period}'")
            return {"periodic": per}
        if cap == "Mode":
            ids = _ids(s.get(f"modesX{n}"))
            return {"mode": [self.modes.get(i, i) for i in ids]}
        if cap == "Variable":
            rel = s.get(f"ReltDev{n}")
            out: dict[str, Any] = {"variable": s.get(f"xVar{n}")}
            if rel == CHANGED:
                out["changes"] = True
            else:
                out["op"], out["value"] = _OP_NAME.get(str(rel), "eq"), _num(s.get(f"tstate{n}"))
            return out
        if cap == "Button":
            ids = self.devices(f"tDev{n}")
            return {
                "button_device_id": ids[0] if ids else None,
                "button": _num(s.get(f"ButtontDev{n}")),
                "event": s.get(f"tstate{n}"),
            }
        test = self._device_test(cap, f"tDev{n}", f"tCustomAttr{n}", f"ReltDev{n}", f"tstate{n}")
        if test is None:
            return self._mark(part, f"trigger capability '{cap}'")
        if _bool(s.get(f"AlltDev{n}")):
            test["all"] = True
        if _bool(s.get(f"stays{n}")):
            test["stays_for"] = self.duration(f"SHours{n}", f"SMins{n}", f"SSecs{n}")
        return test

    # ------------------------------------------------------------------ conditions

    def _date_point(self, side: str, c: int) -> str | None:
        s = self.s
        kind = s.get(f"startDateType{c}" if side == "Start" else f"endDateType{c}")
        try:
            month, day = int(str(s.get(f"month{side}{c}"))), int(str(s.get(f"day{side}{c}")))
        except ValueError:
            return None
        if kind != "mm-dd":
            return None
        at = str(s.get(f"time{side}{c}") or "").strip()
        return f"{month:02d}-{day:02d}" + (f" {at}" if at else "")

    def condition(self, c: int, part: str) -> dict[str, Any]:
        """One condition ``rCapab_<c>``."""
        s = self.s
        cap = str(s.get(f"rCapab_{c}"))
        out: dict[str, Any] | None
        if cap == "Mode":
            out = {"mode": [self.modes.get(i, i) for i in _ids(s.get(f"modes{c}"))]}
        elif cap == "Between two times":
            ends: list[Any] = []
            for side, short in (("starting", "start"), ("ending", "end")):
                kind = s.get(f"{side}{c}")
                if kind == "A specific time":
                    ends.append(_hhmm(s.get(f"{side}A{c}")))
                else:
                    sun = str(kind or "").lower()
                    offset = _num(s.get(f"{short}{kind}Offset{c}") or 0)
                    ends.append({"sun": sun, "offset_minutes": offset} if offset else sun)
            out = {"between": {"from": ends[0], "to": ends[1]}}
        elif cap == "Between two dates":  # a live hub's settings (hubitat-automation-map)
            ends = [self._date_point(side, c) for side in ("Start", "End")]
            if None in ends:
                return self._mark(part, "a between-dates condition of another date type")
            out = {"dates": {"from": ends[0], "to": ends[1]}}
        elif cap == "Variable":
            out = {
                "variable": s.get(f"xVar_{c}"),  # the on-hub server, live; rule-storage notes 13.2
                "op": _OP_NAME.get(str(s.get(f"RelrDev_{c}")), "eq"),
                "value": _num(s.get(f"state_{c}")),
            }
            if _bool(s.get(f"isVar_{c}")):  # variable to variable (rule-storage notes 5.5)
                del out["value"]
                out["compare_to"] = {"variable": s.get(f"xVarR_{c}")}
        elif cap == "Private Boolean":  # state true / false (the on-hub server's wire format)
            out = {"private_boolean": str(s.get(f"state_{c}")).lower() == "true"}
        else:
            out = self._device_test(
                cap, f"rDev_{c}", f"rCustomAttr_{c}", f"RelrDev_{c}", f"state_{c}"
            )
            if out is not None and _bool(s.get(f"isDev_{c}")):
                out = self._relative(out, c)
        if out is None:
            return self._mark(part, f"condition capability '{cap}'")
        return {"not": out} if _bool(s.get(f"not{c}")) else out

    def _relative(self, test: dict[str, Any], c: int) -> dict[str, Any]:
        """A device condition relative to another device: ``relDevice_<C>`` the reference,
        ``state_<C>`` the offset (the on-hub server, compareToDevice)."""
        out = {k: v for k, v in test.items() if k not in ("is", "value", "op", "changes")}
        out["op"] = _OP_NAME.get(str(self.s.get(f"RelrDev_{c}")), "eq")
        refs = self.devices(f"relDevice_{c}")
        ref: dict[str, Any] = {"device_id": refs[0] if refs else None}
        offset = _num(self.s.get(f"state_{c}"))
        if isinstance(offset, int | float) and offset:
            ref["offset"] = offset
        out["compare_to"] = ref
        return out

    def expression(self, tree: Group, part: str) -> dict[str, Any]:
        """A tree of conditions: one operator per level (a spec group), brackets nested."""
        leaves = [
            self.expression(item, f"{part}[{i}]")
            if isinstance(item, Group)
            else self.condition(item, f"{part}[{i}]" if len(tree.items) > 1 else part)
            for i, item in enumerate(tree.items)
        ]
        if len(leaves) == 1:
            return leaves[0]
        ops = set(tree.operators)
        if ops == {"AND"}:
            return {"all": leaves}
        if ops == {"OR"}:
            return {"any": leaves}
        why = "XOR is not in the spec" if "XOR" in ops else "AND and OR mixed without brackets"
        self._mark(part, f"the conditions are joined by {' '.join(tree.operators)} ({why})")
        return {"all": leaves}

    # ------------------------------------------------------------------ actions

    def action_indexes(self) -> list[int]:
        """Action numbers in the rule's order: the state's ``actionList`` (numbers as strings;
        rule-storage notes, live), else by number from the non-empty ``actSubType.<n>`` (an
        ELSE or END-IF row can lack ``actType.<n>``, the same notes)."""
        order = self.state.get("actionList")
        if isinstance(order, list) and order:
            return [int(str(a)) for a in order if str(a).strip().isdigit()]
        return sorted(
            set(self._indexes(r"actSubType\.(\d+)")) | set(self._indexes(r"actType\.(\d+)"))
        )

    def leaf_action(self, a: int, part: str) -> dict[str, Any]:
        """One action that is not a block opener or closer."""
        s = self.s
        sub = str(s.get(f"actSubType.{a}"))
        out: dict[str, Any]
        if sub == "getOnOffSwitch":
            out = {
                "command": "on" if _bool(s.get(f"onOff.{a}")) else "off",
                "device_ids": self.devices(f"onOffSwitch.{a}"),
            }
        elif sub == "getToggleSwitch":
            out = {"command": "toggle", "device_ids": self.devices(f"toggleSwitch.{a}")}
        elif sub == "getSetDimmer":
            out = {
                "command": "setLevel",
                "device_ids": self.devices(f"dimA.{a}"),
                "arguments": [_num(s.get(f"dimLA.{a}"))],
            }
        elif sub == "getLULock":
            out = {
                "command": "unlock" if _bool(s.get(f"lockRL.{a}")) else "lock",
                "device_ids": self.devices(f"lockLockUnlock.{a}"),
            }
        elif sub == "getDefinedAction":
            params = sorted(
                int(m.group(1)) for k in s if (m := re.fullmatch(rf"cpVal(\d+)\.{a}", k))
            )
            out = {"command": s.get(f"cCmd.{a}"), "device_ids": self.devices(f"devices.{a}")}
            if params:
                out["arguments"] = [
                    _num(s.get(f"cpVal{p}.{a}"))
                    if s.get(f"cpType{p}.{a}") != "string"
                    else s.get(f"cpVal{p}.{a}")
                    for p in params
                ]
        elif sub == "getDelay":
            if _bool(s.get(f"uVar.{a}")):  # a variable's value (the on-hub server: uVar, xVar)
                out = {"delay_from_variable": s.get(f"xVar.{a}")}
            else:
                out = {
                    "delay": self.duration(f"delayHour.{a}", f"delayMinute.{a}", f"delaySecond.{a}")
                }
            if _bool(s.get(f"cancelAct.{a}")):
                out["cancelable"] = True
            decompile_acts.delay_options(self, a, out)
            return out
        elif sub == "getWaitEvents":
            events: list[dict[str, Any]] = []
            for e in self._indexes(r"tCapab-(\d+)"):
                here = f"{part}.wait[{len(events)}]"
                test = self._device_test(
                    str(s.get(f"tCapab-{e}")), f"tDev-{e}", "", "", f"tstate-{e}"
                )
                if test is None:
                    events.append(self._mark(here, "a wait event"))
                    continue
                if _bool(s.get(f"stays-{e}")):  # per-event "and stays" (the on-hub server, live)
                    test["stays_for"] = self.duration(f"SHours-{e}", f"SMins-{e}", f"SSecs-{e}")
                events.append(test)
            out = {"wait": events}
            timeout = self._modifier(a)
            if timeout is not None:
                out["timeout"] = timeout
            return out
        elif sub == "getSetMode":
            mode = str(s.get(f"mode.{a}"))
            out = {"set_mode": self.modes.get(mode, mode)}
        elif sub == "getSetVariable":
            out = {"set_variable": s.get(f"xVarV.{a}")}
            if s.get(f"numOp.{a}") == "variable":
                out["from_variable"] = s.get(f"xVar3.{a}")
            elif (source := decompile_acts.variable_source(self, a)) is not None:
                out.update(source)
            else:
                out["value"] = _num(s.get(f"valNumber.{a}"))
        elif sub == "getMsg":
            out = {"notify": s.get(f"msg.{a}"), "device_ids": self.devices(f"note.{a}")}
        elif sub == "getLogMsg":
            out = {"log": s.get(f"logmsg.{a}")}
        elif sub == "getCancelDelay":
            out = {"cancel_delays": True}
        elif sub == "getRuleActions":
            out = {"run_rule": _ids(s.get(f"ruleAct.{a}"))}
        elif sub == "getPauseResumeRules":  # pR true: Resume (rule-storage notes 10.2)
            key = "resume_rules" if _bool(s.get(f"pR.{a}")) else "pause_rules"
            out = {key: _ids(s.get(f"pauseRule.{a}"))}
        elif sub == "getSetPrivateBoolean":  # pvTF is the negation; "*" this rule (9.3, 8)
            targets = _ids(s.get(f"privateT.{a}"))
            others = [t for t in targets if t != "*"]
            if not targets:
                return self._mark(part, "a private boolean action with no rule to set")
            out = {"set_private_boolean": not _bool(s.get(f"pvTF.{a}"))}
            if others and "*" in targets:
                return self._mark(part, "a private boolean set on this rule and on others")
            if others:
                out["rule_ids"] = others
        elif sub == "getSetHSM":
            out = {"set_hsm": s.get(f"alarm.{a}")}
        elif sub == "getExitRule":
            out = {"exit_rule": True}
        elif sub in ("getWriteLocalFile", "getAppendLocalFile"):
            key = "write_file" if sub == "getWriteLocalFile" else "append_file"
            out = {key: s.get(f"localFile.{a}"), "text": s.get(f"fileContents.{a}")}
        elif sub == "getDeleteLocalFile":
            out = {"delete_file": s.get(f"deleteFile.{a}")}
        # delayModes ids; each mode's delay by its name (on-hub server)
        elif sub == "getDelayPerMode":
            per: dict[str, Any] = {}
            for mode_id in _ids(s.get(f"delayModes.{a}")):
                name = self.modes.get(mode_id, mode_id)
                per[name] = self.duration(
                    f"delayHour{name}.{a}", f"delayMinute{name}.{a}", f"delaySecond{name}.{a}"
                )
            out = {"delay_per_mode": per}
            if _bool(s.get(f"cancelAct.{a}")):
                out["cancelable"] = True
        elif sub == "getHTTPGet":
            out = {"http_get": s.get(f"httper.{a}")}
        elif sub == "getHTTPPost":
            out = {
                "http_post": s.get(f"httper.{a}"),
                "body": s.get(f"httpPostBody.{a}"),
                "content_type": s.get(f"httpPostType.{a}") or DEFAULT_CONTENT_TYPE,
            }
        elif sub == "getPingIP":
            out = {"ping": s.get(f"pingIP.{a}")}
        elif sub == "getCapture":
            out = {"capture": self.devices(f"capture.{a}")}
        elif sub == "getRestore":
            out = {"restore": True}
        elif sub == "getDisable":  # disEn true: Enable (the on-hub server, live)
            key = "enable_devices" if _bool(s.get(f"disEn.{a}")) else "disable_devices"
            out = {key: self.devices(f"devDisable.{a}")}
        elif sub == "getComment":
            out = {"comment": s.get(f"comment.{a}")}
        elif sub in decompile_acts.SUBTYPES:
            got = decompile_acts.leaf(self, sub, a)
            if got is None:
                return self._mark(part, f"an incomplete '{sub}' action")
            out = got
        else:
            return self._mark(part, f"Rule Machine action '{s.get(f'actType.{a}')}/{sub}'")
        delay = self._modifier(a)
        if delay is not None and "command" in out:
            out["delay"] = delay
            if _bool(s.get(f"cancelAct.{a}")):
                out["cancelable"] = True
        elif delay is not None:
            self._mark(part, "a delay on an action that is not a device command")
        return out

    def _modifier(self, a: int) -> dict[str, Any] | None:
        s = self.s
        if s.get(f"delayAct.{a}") != "hrs:min:sec":
            return None
        return self.duration(f"delayHor.{a}", f"delayMin.{a}", f"delaySec.{a}")

    # ------------------------------------------------------------------ the whole rule

    def _owners(self, order: list[int]) -> dict[str, Group | str | None]:
        """Each expression's tree, by owner (``required``, ``action:<a>``): from the state's
        ``eval`` map (the Required Expression ``eval["0"]``, an action's by the ``rule`` of
        its ``actions`` entry); a string says why it could not be read. Without that state,
        the conditions when only one expression can own them (joined by the ``oper``
        setting, which keeps the last operator written)."""
        s = self.s
        owners = [
            f"action:{a}"
            for a in order
            if s.get(f"actSubType.{a}") in ("getIfThen", "getElseIf", "getWhile", "getWaitRule")
        ]
        if _bool(s.get("useST")) and self.state.get("hasPredicate") is not False:
            owners.insert(0, "required")  # eval["0"] counts only while hasPredicate is true
        evals, parens = self.state.get("eval"), self.state.get("parens")
        by_action = action_expression_ids(self.state.get("actions"))
        ids: dict[str, Any] = {"required": "0"} | {f"action:{a}": r for a, r in by_action.items()}
        found: dict[str, Group | str | None] = {}
        for owner in owners:
            try:
                found[owner] = read_expression(evals, ids.get(owner), parens)
            except Unreadable as err:
                found[owner] = str(err)
        if isinstance(evals, dict) and evals:
            return found
        bound = set(self.trigger_conditions().values())
        conds = [c for c in self._indexes(r"rCapab_(\d+)") if c not in bound]
        if len(owners) == 1 and conds:
            operator = str(s.get("oper") or "AND").upper() if len(conds) > 1 else "AND"
            return {owners[0]: Group(list(conds), [operator] * (len(conds) - 1))}
        return {o: None for o in owners}

    def _expr_for(self, owner: str, owned: dict[str, Any], part: str) -> dict[str, Any]:
        got = owned.get(owner)
        if isinstance(got, str):
            return self._mark(part, f"the hub's expression: {got}")
        if not isinstance(got, Group):
            return self._mark(part, "which conditions this expression holds is not in the settings")
        return self.expression(got, part)

    def actions(self, owned: dict[str, Any]) -> list[dict[str, Any]]:
        """The action list, IF/ELSE/END-IF and Repeat blocks nested again."""
        top: list[dict[str, Any]] = []
        stack: list[tuple[list[dict[str, Any]], dict[str, Any] | None]] = [(top, None)]
        self.action_marks = []
        for a in self.action_indexes():
            start = len(self.undecompiled)
            self._action_row(a, stack, owned)
            self.action_marks.append(self._since(start))
        if len(stack) > 1:
            self._mark("actions", "a block (IF or Repeat) is not closed")
        return top

    def _action_row(
        self,
        a: int,
        stack: list[tuple[list[dict[str, Any]], dict[str, Any] | None]],
        owned: dict[str, Any],
    ) -> None:
        """One action row into the list it belongs to (a block opener pushes its list)."""
        current, block = stack[-1]
        part = f"actions[{len(current)}]"
        sub = str(self.s.get(f"actSubType.{a}"))
        if sub == "getIfThen":
            node: dict[str, Any] = {
                "if": self._expr_for(f"action:{a}", owned, f"{part}.if"),
                "then": [],
            }
            current.append(node)
            stack.append((node["then"], node))
        elif sub == "getElseIf" and block is not None and "if" in block and "else" not in block:
            branch: dict[str, Any] = {
                "if": self._expr_for(f"action:{a}", owned, f"{part}.else_if"),
                "then": [],
            }
            block.setdefault("else_if", []).append(branch)
            stack[-1] = (branch["then"], block)
        elif sub == "getElse" and block is not None and "if" in block:
            block["else"] = []
            stack[-1] = (block["else"], block)
        elif sub in ("getEndIf", "getStopRepeat") and len(stack) > 1:
            stack.pop()
        elif sub == "getWaitRule":  # Wait for Expression: its delay is the timeout
            node = {"wait_until": self._expr_for(f"action:{a}", owned, f"{part}.wait_until")}
            if (timeout := self._modifier(a)) is not None:
                node["timeout"] = timeout
            if _bool(self.s.get(f"durChoice.{a}")):
                self._mark(part, "the wait uses a duration (durChoice), not a timeout")
            elif self.s.get(f"delayAct.{a}") not in (None, "", "none", "hrs:min:sec"):
                self._mark(part, f"the wait's timeout is a {self.s.get(f'delayAct.{a}')}")
            current.append(node)
        elif sub == "getRepeat":
            node = {
                "repeat": _num(self.s.get(f"repeatN.{a}")),
                "every": self.duration(f"repeatHour.{a}", f"repeatMinute.{a}", f"repeatSecond.{a}"),
                **self._stoppable(a),
                "do": [],
            }
            current.append(node)
            stack.append((node["do"], node))
        elif sub == "getWhile":
            node = {
                "repeat_while": self._expr_for(f"action:{a}", owned, f"{part}.repeat_while"),
                "every": self.duration(f"repeatHour.{a}", f"repeatMinute.{a}", f"repeatSecond.{a}"),
                **self._stoppable(a),
                "do": [],
            }
            current.append(node)
            stack.append((node["do"], node))
        else:
            current.append(self.leaf_action(a, part))

    def _stoppable(self, a: int) -> dict[str, Any]:
        """A repeat's Stoppable? (``stopRepeat.<N>``): only true is shown."""
        return {"stoppable": True} if _bool(self.s.get(f"stopRepeat.{a}")) else {}

    def spec(self, name: str) -> dict[str, Any]:
        """The rule as a spec (``undecompiled`` says what could not be read)."""
        order = self.action_indexes()
        owned = self._owners(order)
        out: dict[str, Any] = {
            "name": self.s.get("origLabel") or name,
            "triggers": self.triggers(),
            "actions": self.actions(owned),
        }
        if "required" in owned:
            start = len(self.undecompiled)
            out["conditions"] = self._expr_for("required", owned, "conditions")
            self.condition_marks = self._since(start)
        logging = self.s.get("logging")
        if isinstance(logging, str) and logging.startswith("["):
            import json

            try:
                logging = json.loads(logging)
            except ValueError:
                logging = None
        if isinstance(logging, list) and logging:
            out["logging"] = [str(x).lower() for x in logging]
        if local_vars := self.local_variables():
            out["local_variables"] = local_vars
        return out

    def local_variables(self) -> list[dict[str, Any]]:
        """The rule's local variables from its state's ``allLocalVars`` ({name: {type,
        value}}: the on-hub server, live), by name."""
        found = self.state.get("allLocalVars")
        out: list[dict[str, Any]] = []
        for name, var in sorted((found if isinstance(found, dict) else {}).items()):
            if not isinstance(var, dict):
                continue
            vtype = str(var.get("type") or "").lower()
            value = var.get("value")
            if vtype == "boolean" and isinstance(value, str):
                value = value.strip().lower() == "true"
            elif vtype in ("integer", "bigdecimal"):
                value = _num(value)
            out.append({"name": str(name), "type": vtype, "value": value})
        return sorted(out, key=lambda v: str(v["name"]).lower())
