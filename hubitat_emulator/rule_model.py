"""One emulated Rule Machine 5.1 rule: its settings, the wizard's state and its pages.

No HTTP here (``routes_apps.py`` serves the pages). The wizard state is what Rule Machine keeps in
``state``: the trigger being edited and the committed ones, the action being edited and the
action list, the expressions being built, the Wait for Events events (per rule), and the
high-water marks the indexes come from (a new trigger, action, condition or event always gets
the next number; numbers are never reused; condition numbers run on across the Rule
Machine parent's rules, the on-hub server). The Wait for Events events belong to the rule, not to an
action: a second Wait for Events action edits the same ``tCapab-1`` ... rows, and after an
event's ``hasAll`` the next row opens only on ``anotherWait`` (``stateAttribute=anotherWait``)
(the on-hub server, live).
Fields not on the page, and values that are not
one of an enum's options, are ignored. After a Required Expression is sealed its condition
context leaks into the next plain action, which Rule Machine shows wrapped in
``IF (**Broken Condition**)`` (the on-hub server, live); an IF / Repeat While action clears it,
and so does an IF only opened and cancelled (its ``actSubType`` written: the on-hub server's
ghost IF).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from . import rule_edits
from .rule_definition import ExprToken, RuleDefinition
from .rule_edits import Edits
from .rule_fields import (
    ACT_TYPES,
    COND_KINDS,
    CUSTOM,
    DEVICE_CAPS,
    EVENT_CAPS,
    EXPRESSION_SUBTYPES,
    NO_DELAY_SUBTYPES,
    NUMERIC_CAPS,
    OPERATORS,
    SUB_TYPES,
    TRIGGER_CAPS,
    Env,
    Inp,
    Reveal,
    action_fields,
    condition_fields,
    delay_fields,
    device_ids,
    event_fields,
    event_key,
    inp,
    option_values,
    param_fields,
    periodic_fields,
    repeat_fields,
    trigger_key,
)
from .rule_locals import FORM_FIELDS, LocalVariables, WithLocals
from .rule_text import (
    action_line,
    condition_line,
    event_line,
    expression_text,
    indent_levels,
    indented,
)

MAIN_BUTTONS = ("updateRule", "pausRule", "runRuleAct", "stopRule")
PAGES = ("mainPage", "selectTriggers", "selectActions", "doActPage", "STPage", "periodic")
PARENT_PAGE = {"periodic": "selectTriggers", "doActPage": "selectActions"}
SIZE_ERROR = "Command 'size' is not supported by device"
NULL_ERROR = "Cannot invoke method startsWith() on null object"
PERIODIC_ERROR = "Cannot get property 'n' on null object"
_TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4}$")


def button(name: str, title: str) -> Inp:
    return {"name": name, "type": "button", "title": title, "submitOnChange": True}


OPEN, CLOSE = "(", ")"  # the tokens a sub-expression leaves in the rule's ``eval`` list
# the ``oper`` option that closes one (the on-hub server, live)
CLOSE_OPTION = "end-sub-expression )"


@dataclass
class Expr:
    """An expression being built: committed conditions, operators and brackets, the open
    condition, and its id in the rule's ``eval`` map ("0" is the Required Expression)."""

    tokens: list[ExprToken] = field(default_factory=list)
    open: int | None = None
    sealed: bool = False
    eid: str = "0"

    def depth(self) -> int:
        """Sub-expressions opened and not yet closed."""
        return sum((t == OPEN) - (t == CLOSE) for t in self.tokens if isinstance(t, str))

    def wants_condition(self) -> bool:
        """At the start, after an operator or after an opening bracket."""
        last = self.tokens[-1] if self.tokens else None
        return last is None or (isinstance(last, str) and last != CLOSE)


@dataclass
class Page:
    title: str
    inputs: list[Inp] = field(default_factory=list)
    paragraphs: list[str] = field(default_factory=list)
    hrefs: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def add(self, reveal: Reveal) -> bool:
        self.inputs += reveal.inputs
        self.hrefs += reveal.hrefs
        return reveal.complete

    def shown(self) -> dict[str, Inp]:
        return {i["name"]: i for i in self.inputs}


@dataclass
class RuleModel:
    app_id: int
    settings: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, dict[str, Any]] = field(default_factory=dict)  # type, multiple, ids
    triggers: list[int] = field(default_factory=list)
    trig_n: int | None = None
    hw_trig: int = 0
    actions: list[int] = field(default_factory=list)
    act_n: int | None = None
    act_ready: bool = False
    act_broken: bool = False  # the N click lacked stateAttribute=doActN
    act_init: bool = False  # state.actNdx (selectActions' first submit sets it)
    hw_act: int = 0
    params: dict[int, list[int]] = field(default_factory=dict)
    exprs: dict[str, Expr] = field(default_factory=dict)  # "ST" or "a<N>"
    hw_expr: int = 0  # the last action expression's id in ``eval``
    hw_cond: int = 0
    wait_events: list[int] = field(default_factory=list)
    event_e: int | None = None
    hw_event: int = 0
    periodic_n: int | None = None
    pred_leak: bool = False
    leaked: set[int] = field(default_factory=set)
    residual: set[int] = field(default_factory=set)  # triggers with a lingering isCondTrig
    # a conditional trigger's condition being built on selectTriggers, and the saved ones
    tcond_open: int | None = None
    trig_conds: list[int] = field(default_factory=list)
    size_error: bool = False
    paused: bool = False
    stopped: bool = False
    private: bool = True  # the rule's private boolean (state ``private``, rule-storage notes)
    last_page: str = "mainPage"
    subscriptions: list[str] = field(default_factory=list)  # set when (re)initialised
    local: LocalVariables = field(default_factory=LocalVariables)  # selectActions' variables
    edits: Edits = field(default_factory=Edits)  # the in-place deletes (rule_edits.py)

    # ------------------------------------------------------------------ reading

    def sub(self, n: int | None) -> Any:
        return self.settings.get(f"actSubType.{n}")

    def expr_ctx(self, page: str) -> str | None:
        if page == "STPage":
            return "ST"
        if page == "doActPage" and self.sub(self.act_n) in EXPRESSION_SUBTYPES:
            return f"a{self.act_n}"
        return None

    def required(self) -> list[ExprToken] | None:
        e = self.exprs.get("ST")
        if not self.settings.get("useST") or e is None or not e.sealed or not e.tokens:
            return None
        return list(e.tokens)

    def definition(self, name: str) -> RuleDefinition:
        return RuleDefinition(
            app_id=self.app_id,
            name=name,
            settings=dict(self.settings),
            triggers=list(self.triggers),
            actions=list(self.actions),
            required=self.required(),
            action_expressions={
                n: list(e.tokens)
                for n in self.actions
                if (e := self.exprs.get(f"a{n}")) is not None and e.sealed
            },
            wait_events=list(self.wait_events),
            local_vars=self.local.variables,
            paused=self.paused,
            stopped=self.stopped,
        )

    def eval_map(self) -> dict[str, list[ExprToken]]:
        """``eval``: each sealed expression's tokens by id ("0" the Required Expression)."""
        out: dict[str, list[ExprToken]] = {}
        required = self.required()
        if required is not None:
            out["0"] = required
        for n in self.actions:
            e = self.exprs.get(f"a{n}")
            if e is not None and e.sealed:
                out[e.eid] = list(e.tokens)
        return out

    def state(self, env: Env | None = None) -> dict[str, Any]:
        """What statusJson shows in appState, in the hub's shapes: ``actions`` a map of
        action number to ``{method, indent, rule}`` (``rule`` the ``eval`` id of an IF's or
        Repeat's expression), ``actionList`` the order (numbers as strings), ``eval`` the
        expressions, ``parens`` beside it (0 for every committed one), ``hasPredicate`` and
        ``predCapabs`` for the Required Expression, ``capabsfalse`` the condition texts
        (rule-storage notes, live; the on-hub server's expression-editor fake)."""
        evals = self.eval_map()
        actions: dict[str, dict[str, Any]] = {}
        for n in self.actions:
            e = self.exprs.get(f"a{n}")
            rule = int(e.eid) if e is not None and e.sealed else None
            actions[str(n)] = {"method": self.sub(n), "indent": "", "quick": False, "rule": rule}
        required = evals.get("0")
        texts: dict[str, str] = {}
        if env is not None:
            for tokens in evals.values():
                for t in tokens:
                    if isinstance(t, int):
                        texts[str(t)] = condition_line(
                            self.settings, t, WithLocals(env, self.local)
                        )
        return {
            "actions": actions,
            "actionList": [str(n) for n in self.actions],
            "eval": evals,
            "parens": {k: 0 for k in evals},
            "hasPredicate": required is not None,
            "predCapabs": [t for t in required or [] if isinstance(t, int)],
            "capabsfalse": texts,
            "actNdx": self.hw_act + 1 if self.act_init else None,
            "paused": self.paused,
            "stopped": self.stopped,
            "private": self.private,
            "allLocalVars": self.local.state(),
            **({"editAct": self.act_n} if self.act_n is not None else {}),
        }

    def initialise(self) -> None:
        """``updateRule`` (and resume / start): the triggers' event subscriptions."""
        subs: list[str] = []
        if not (self.paused or self.stopped):
            for n in self.triggers:
                cap = self.settings.get(f"tCapab{n}")
                if cap in DEVICE_CAPS or cap in NUMERIC_CAPS:
                    attr = DEVICE_CAPS[cap][1] if cap in DEVICE_CAPS else NUMERIC_CAPS[cap][1]
                    subs += [attr] * len(device_ids(self.settings.get(f"tDev{n}")))
                elif cap in (CUSTOM, "Button"):
                    attr = str(self.settings.get(f"tCustomAttr{n}", "pushed"))
                    subs += [attr] * len(device_ids(self.settings.get(f"tDev{n}")))
                elif cap == "Mode":
                    subs.append("mode")
                elif cap == "Variable":
                    subs.append(f"variable:{self.settings.get(f'xVar{n}')}")
        self.subscriptions = subs

    # ------------------------------------------------------------------ rule text

    def trigger_lines(self, env: Env) -> list[str]:
        out = []
        for n in self.triggers:
            line = event_line(self.settings, trigger_key(n), env)
            gate = str(self.settings.get(f"condTrig.{n}") or "")
            if self.settings.get(f"isCondTrig.{n}") is True and gate.isdigit():
                # *no evidence* of Rule Machine's wording for a conditional trigger's line
                line += f" [only if {condition_line(self.settings, int(gate), env)}]"
            out.append(line)
        return out

    def action_lines(self, env: Env) -> list[str]:
        levels = indent_levels([self.sub(n) for n in self.actions])
        out = []
        for n, depth in zip(self.actions, levels, strict=True):
            e = self.exprs.get(f"a{n}")
            text = action_line(
                self.settings,
                n,
                env,
                expression=e.tokens if e else None,
                events=self.wait_events,
            )
            if n in self.leaked:
                text = f"IF (**Broken Condition**) {text}"
            out.append(indented(text, depth))
        return out

    def rule_text(self, env: Env) -> list[str]:
        out = ["<b>Trigger Events</b>", *self.trigger_lines(env)]
        required = self.required()
        if required:
            out += ["<b>Required Expression</b>", expression_text(self.settings, required, env)]
        return [*out, "<b>Actions</b>", *self.action_lines(env)]

    # ------------------------------------------------------------------ pages

    def page(self, name: str, env: Env, *, params: dict[str, Any] | None = None) -> Page:
        s = self.settings
        env = WithLocals(env, self.local)
        if name == "mainPage":
            p = Page("Edit Rule", paragraphs=self.rule_text(env))
            p.inputs = [
                inp("origLabel", "text", "Name this Rule"),
                inp("logging", "enum", "Logging", options=["Events", "Triggers", "Actions"]),
                inp("useST", "bool", "Required Expression"),
                *(button(b, t) for b, t in zip(MAIN_BUTTONS, _MAIN_TITLES, strict=True)),
            ]
            p.inputs[1]["multiple"] = True
            p.hrefs = [_href("selectTriggers", "Select Trigger Events")]
            p.hrefs.append(_href("selectActions", "Select Actions to Run"))
            if s.get("useST"):
                p.hrefs.append(_href("STPage", "Define Required Expression"))
        elif name == "selectTriggers":
            p = Page("Select Trigger Events", paragraphs=self.trigger_lines(env))
            # "Conditional trigger?" is shown while a trigger is open; after a hasAll click
            # without page context it lingers until answered (the on-hub server, live)
            for n in sorted(self.residual):
                if f"isCondTrig.{n}" not in s:
                    p.inputs.append(inp(f"isCondTrig.{n}", "bool", "Conditional trigger?"))
            if self.trig_n is None:
                p.inputs.append(button("true", "Create New Trigger Event"))
            else:
                key = trigger_key(self.trig_n)
                p.inputs.append(inp(f"isCondTrig.{self.trig_n}", "bool", "Conditional trigger?"))
                if self._trigger_condition(p, env):
                    pass  # its condition is being built: the trigger's own fields wait
                elif p.add(event_fields(s, key, env, caps=TRIGGER_CAPS)):
                    p.inputs.append(button("hasAll", "Done with this Trigger Event"))
            p.inputs += rule_edits.triggers_inputs(self)
        elif name == "periodic":
            which: Any = (params or {}).get("n", self.periodic_n)
            p = Page("Periodic Schedule")
            if isinstance(which, int):
                p.add(periodic_fields(s, which))
            else:
                p.error = PERIODIC_ERROR
        elif name == "selectActions":
            p = Page("Select Actions", paragraphs=self.action_lines(env) + self.local.lines())
            p.inputs.append(button("N", "Create New Action"))
            p.inputs += self.local.inputs()
            p.inputs += rule_edits.actions_inputs(self)
        elif name == "doActPage":
            p = self._act_page(env)
            p.inputs += rule_edits.editor_inputs(self)
        elif name == "STPage":
            p = Page("Define Required Expression")
            if self._expr_page("ST", p, env):
                p.inputs += rule_edits.expression_inputs()
        else:
            p = Page(name, error=f"No page {name}")
        if self.size_error:
            p.error = SIZE_ERROR
        return p

    def _trigger_condition(self, p: Page, env: Env) -> bool:
        """A conditional trigger's picker (the on-hub server's conditional-trigger path, live):
        ``isCondTrig.<N>`` true shows ``condTrig.<N>``, a new condition (``a``) or a saved one
        by its number; a new one is built here (``rCapab_<C>`` ..., ``hasAll``). True while
        that condition is open."""
        n, s = self.trig_n, self.settings
        if s.get(f"isCondTrig.{n}") is not True:
            return False
        saved = [{str(c): condition_line(s, c, env)} for c in self.trig_conds if f"rCapab_{c}" in s]
        options: list[Any] = [{"a": "New condition"}, *saved]
        p.inputs.append(inp(f"condTrig.{n}", "enum", "Condition", options=options))
        if self.tcond_open is None:
            return False
        if p.add(condition_fields(s, self.tcond_open, env)):
            p.inputs.append(button("hasAll", "Done with this Condition"))
        return True

    def _act_page(self, env: Env) -> Page:
        p = Page("Define Action")
        n, s = self.act_n, self.settings
        if self.act_broken:
            p.error = NULL_ERROR
            return p
        if n is None:
            p.inputs.append(inp("actType.null", "enum", "Select Action Type", options=[]))
            return p
        types = [{k: v} for k, v in ACT_TYPES.items()]
        p.inputs.append(inp(f"actType.{n}", "enum", "Select Action Type", options=types))
        if f"actType.{n}" not in s:
            return p
        subs = [{k: v} for k, v in SUB_TYPES[s[f"actType.{n}"]].items()]
        p.inputs.append(inp(f"actSubType.{n}", "enum", "Select Which Action", options=subs))
        sub = s.get(f"actSubType.{n}")
        if sub is None:
            return p
        if sub == "getWaitEvents":
            p.paragraphs += [event_line(s, event_key(e), env) for e in self.wait_events]
            complete = bool(self.wait_events) and self.event_e is None
            if self.event_e is not None:
                if p.add(event_fields(s, event_key(self.event_e), env, caps=EVENT_CAPS)):
                    p.inputs.append(button("hasAll", "Done with this Wait Event"))
            elif self.wait_events:
                p.inputs.append(button("anotherWait", "Add another Wait Event"))
                p.inputs.append(button("doneWaits", "Done with Wait Events"))
        elif sub in EXPRESSION_SUBTYPES:
            e = self.exprs.get(f"a{n}")
            if sub == "getWaitRule" and not (e is not None and e.sealed):
                p.add(delay_fields(s, n))  # the timeout; the expression's Done moves past it
            complete = self._expr_page(f"a{n}", p, env)
            if complete and sub == "getWhile":
                complete = p.add(repeat_fields(s, n))
        else:
            complete = p.add(action_fields(s, n, env, self.app_id))
            if sub == "getDefinedAction" and complete:
                p.inputs.append(button("moreParams", "Add parameter"))
                complete = p.add(param_fields(s, n, self.params.get(n, [])))
        if complete and sub not in NO_DELAY_SUBTYPES:
            complete = p.add(delay_fields(s, n))  # a Wait's delay is its timeout
        if complete:
            p.inputs.append(button("actionDone", "Done with Action"))
        return p

    def _expr_page(self, ctx: str, p: Page, env: Env) -> bool:
        """Add an expression's inputs; answer whether it is sealed."""
        e = self.exprs.setdefault(ctx, Expr())
        if e.tokens:
            p.paragraphs.append(expression_text(self.settings, e.tokens, env))
        if e.sealed:
            return True
        if e.open is not None:
            if p.add(condition_fields(self.settings, e.open, env, required=ctx == "ST")):
                p.inputs.append(button("hasAll", "Done with this condition"))
        elif e.wants_condition():
            p.inputs.append(inp("cond", "enum", "Select Condition", options=COND_KINDS))
        elif e.depth():  # inside a sub-expression: its closing operator, no Done yet
            p.inputs.append(inp("oper", "enum", "Operator", options=(*OPERATORS, CLOSE_OPTION)))
        else:
            p.inputs.append(inp("oper", "enum", "Operator", options=OPERATORS))
            p.inputs.append(button("hasRule", "Done with Expression"))
        return False

    # ------------------------------------------------------------------ writes

    def write(self, shown: Inp, raw: str, posted_multiple: str | None, env: Env) -> bool:
        """Store one posted field the page shows; False when the value is ignored."""
        name, kind = shown["name"], str(shown["type"])
        if kind == "button":
            return self._button_write(name)
        value: Any
        meta: dict[str, Any] = {"type": kind, "multiple": bool(shown.get("multiple"))}
        if kind == "enum":
            allowed = option_values(shown.get("options") or [])
            if shown.get("multiple"):
                value = _list(raw)
                if not value or any(v not in allowed for v in value):
                    return False
            elif raw not in allowed:
                return False
            else:
                value = raw
        elif kind.startswith("capability."):
            capability = kind.split(".", 1)[1]
            ids = [i for i in device_ids(raw) if env.has_capability(i, capability)]
            if not ids:
                return False
            if shown.get("multiple") and posted_multiple != "true":
                ids, meta["multiple"] = ids[:1], False  # RM stores a single device
                self.size_error = True
            meta["deviceIdsForDeviceList"] = ids
            value = ",".join(str(i) for i in ids)
        elif kind == "bool":
            if raw not in ("true", "false"):
                return False
            value = raw == "true"
        elif kind in ("number", "decimal"):
            try:
                value = int(raw) if kind == "number" else float(raw)
                if kind == "decimal" and value == int(value) and "." not in raw:
                    value = int(value)  # the hub keeps a whole BigDecimal as written
            except ValueError:
                return False
        elif kind == "time":
            if not _TIME_RE.match(raw):
                return False
            value = raw
        else:
            value = raw
        return self._store(name, value, meta)

    def _store(self, name: str, value: Any, meta: dict[str, Any]) -> bool:
        if name in FORM_FIELDS and self.last_page == "selectActions":
            return self.local.write(name, value)  # the form's, not the rule's settings
        if name == "cond":
            ctx = self.expr_ctx(self.last_page)
            if value == "a" and ctx is not None:
                self.hw_cond += 1
                self.exprs.setdefault(ctx, Expr()).open = self.hw_cond
            elif value == "b" and ctx is not None:  # "( sub-expression" (the on-hub server, live)
                self.exprs.setdefault(ctx, Expr()).tokens.append(OPEN)
                # kept, as the on-hub server's expression-editor fake keeps it
                self.settings[name] = value
                self.meta[name] = meta
            return True
        if name == "oper":
            ctx = self.expr_ctx(self.last_page)
            if ctx is not None:
                self.exprs.setdefault(ctx, Expr()).tokens.append(
                    CLOSE if value == CLOSE_OPTION else value
                )
        self.settings[name] = value
        self.meta[name] = meta
        owner = rule_edits.owner(self)
        if owner is not None:
            self.edits.owners[name] = owner
        if name == f"condTrig.{self.trig_n}" and value == "a" and self.tcond_open is None:
            # the condition takes the trigger's row number (the on-hub server: "Condition ID
            # equals the trigger index that owned its setup"), or the next free one
            c = self.trig_n or 0
            if c <= self.hw_cond or f"rCapab_{c}" in self.settings:
                c = self.hw_cond + 1
            self.hw_cond = max(self.hw_cond, c)
            self.tcond_open = c
        n = self.act_n
        if name == f"actSubType.{n}" and value == "getWaitEvents":
            # the events are the rule's, not the action's (the on-hub server, live): a second Wait
            # for Events edits the same rows again, from event 1
            self.hw_event = 0
            self.event_e = self._next_event()
        elif name == f"actSubType.{n}" and value in EXPRESSION_SUBTYPES:
            if value == "getIfThen":
                # the IF's initialiser clears the condition context a sealed Required
                # Expression leaves, also when the IF is then cancelled (the on-hub server's
                # ghost IF, live)
                self.pred_leak = False
            self.hw_expr += 1
            self.exprs[f"a{n}"] = Expr(eid=str(self.hw_expr))
        return True

    def _button_write(self, name: str) -> bool:
        """A submitOnChange button written as a setting: ``hasRule`` seals the expression."""
        ctx = self.expr_ctx(self.last_page)
        if name != "hasRule" or ctx is None:
            return False
        e = self.exprs.setdefault(ctx, Expr())
        if e.tokens and e.wants_condition() and e.tokens[-1] != OPEN:
            e.tokens.pop()  # a trailing operator
        e.sealed = True
        if ctx == "ST":
            self.pred_leak = True
        return True

    def _next_event(self) -> int:
        self.hw_event += 1
        return self.hw_event

    # ------------------------------------------------------------------ clicks, navigation

    def click(self, page: str, name: str, attribute: str, env: Env, *, bare: bool = False) -> bool:
        """A wizard button (``bare``: without page context); False when the page lacks it."""
        shown = self.page(page, env).shown()
        if name not in shown or shown[name]["type"] != "button":
            return False
        edited = rule_edits.click(self, page, name, attribute, bare=bare)
        if edited is not None:
            return edited
        if name == "true" and attribute == "moreCond":
            self.hw_trig += 1
            self.trig_n = self.hw_trig
        elif name == "N":
            self.act_broken = attribute != "doActN"
            self.act_n, self.act_ready = None, False
            if self.act_init and not self.act_broken:
                self.hw_act += 1
                self.act_n = self.hw_act
        elif name == "hasAll":
            if bare and page == "selectTriggers" and self.trig_n is not None:
                self.residual.add(self.trig_n)
            self._has_all(page)
        elif name == "actionDone":
            self.act_ready = True
        elif name == "anotherWait" and attribute == "anotherWait":
            self.event_e = self._next_event()  # without the attribute: no new row (on-hub server)
        elif name == "moreVar" and attribute == "moreVar":
            self.local.open()
        elif name == "moreParams" and self.act_n is not None:
            params = self.params.setdefault(self.act_n, [])
            params.append(max(params, default=1) + 1)
        return True

    def _has_all(self, page: str) -> None:
        ctx = self.expr_ctx(page)
        if page == "selectTriggers" and self.trig_n is not None and self.tcond_open is not None:
            # the condition is saved and the trigger moves on to the next row (the on-hub
            # server, live: "clicking Done with this Condition advances state.moreCond");
            # what was written on the old row goes with the trigger made there
            self.trig_conds.append(self.tcond_open)
            self.tcond_open = None
            old = ("t", self.trig_n)
            self.hw_trig += 1
            self.trig_n = self.hw_trig
            for name, who in list(self.edits.owners.items()):
                if who == old:
                    self.edits.owners[name] = ("t", self.trig_n)
        elif page == "selectTriggers" and self.trig_n is not None:
            self.triggers.append(self.trig_n)
            self.trig_n = None
        elif ctx is not None:
            e = self.exprs.setdefault(ctx, Expr())
            if e.open is not None:
                e.tokens.append(e.open)
                e.open = None
        elif page == "doActPage" and self.event_e is not None:
            if self.event_e not in self.wait_events:
                self.wait_events.append(self.event_e)
            self.hw_event = max(self.hw_event, *self.wait_events)
            self.event_e = None  # anotherWait opens the next row (the on-hub server, live)

    def navigate(self, origin: str, target: str, params: dict[str, Any] | None) -> None:
        if target == "periodic" and isinstance((params or {}).get("n"), int):
            self.periodic_n = (params or {})["n"]
        if origin == "doActPage" and target != "doActPage":
            n = self.act_n
            if n is not None and self.act_ready and target == "selectActions":
                self.actions.append(n)
                if self.sub(n) in ("getIfThen", "getWhile"):
                    self.pred_leak = False  # the IF initialiser clears the leaked context
                elif self.pred_leak:
                    self.leaked.add(n)
            self.act_n, self.act_ready = None, False
        if origin == "selectTriggers" and target == "mainPage":
            self.trig_n, self.tcond_open = None, None
        self.last_page = target


_MAIN_TITLES = ("Update Rule", "Pause Rule", "Run Actions", "Stop Rule")


def _href(page: str, title: str) -> dict[str, Any]:
    return {"element": "href", "name": "name", "page": page, "title": title, "params": None}


def _list(raw: str) -> list[str]:
    text = raw.strip()
    if text.startswith("["):
        try:
            parsed = json.loads(text)
        except ValueError:
            return []
        return [str(v) for v in parsed] if isinstance(parsed, list) else []
    return [p.strip() for p in text.split(",") if p.strip()]
