"""A checked spec becomes the Rule Machine 5.1 page steps that build it, and its rule text.

The pages, fields and values are the ones ``docs/rule-machine-pages.md`` lists (the on-hub server's
live-verified notes). Order matters: the name, the triggers, the actions, then the Required
Expression (sealing one leaves a condition context behind that would break actions added
after it), logging, and last the pause and ``updateRule``: a rule is inert until it is
initialised, and it is paused before that, so it never acts before it is verified.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from ...errors import ToolError
from ..apps.wizard import Click, Goto, Leave, Reveal, Seal, SlotValue, Step, Submit, Write
from .check import Resolved
from .compile_acts import (
    compile_delay_from_variable,
    compile_device_action,
    compile_variable_source,
    delay_options,
)
from .spec import (
    DEVICE_ACTION_KINDS,
    LOCAL_TYPES,
    OPS,
    PERIODS,
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

TRIGGERS, ACTIONS, ACT, EXPR_MAIN = "selectTriggers", "selectActions", "doActPage", "STPage"

# device attribute -> Rule Machine's capability option (triggers and conditions)
STATE_CAPABILITIES = {
    "switch": "Switch",
    "motion": "Motion",
    "contact": "Contact",
    "lock": "Lock",
    "presence": "Presence",
    "water": "Water",
    "smoke": "Smoke",
    "acceleration": "Acceleration",
    "valve": "Valve",
    "windowShade": "Window Shade",
}
NUMERIC_CAPABILITIES = {
    "temperature": "Temperature",
    "humidity": "Humidity",
    "illuminance": "Illuminance",
    "battery": "Battery",
    "power": "Power",
    "energy": "Energy",
    "level": "Dimmer level",
}
CHANGED = "*changed*"
# the `oper` option closing a sub-expression (the on-hub server, live)
CLOSE_GROUP = "end-sub-expression )"
SUN_OPTION = {"sunrise": "Sunrise", "sunset": "Sunset"}
PARAM_TYPES = {"NUMBER": "number", "DECIMAL": "decimal"}


def capability_of(test: DeviceTest, res: Resolved) -> tuple[str, str]:
    """Rule Machine's capability option for a test, and its family (state, numeric, custom)."""
    attr = test.attribute
    if attr == "door":
        caps = set(res.devices[test.device_ids[0]].summary.capabilities)
        return ("Garage door" if "GarageDoorControl" in caps else "Door"), "state"
    if attr in STATE_CAPABILITIES:
        return STATE_CAPABILITIES[attr], "state"
    if attr in NUMERIC_CAPABILITIES:
        return NUMERIC_CAPABILITIES[attr], "numeric"
    return "Custom Attribute", "custom"


def hub_time(hhmm: str, zone: tzinfo | None) -> str:
    """HH:MM as the pages' time inputs take it (``2000-01-01T22:30:00.000-0700``)."""
    anchor = datetime(2000, 1, 1, int(hhmm[:2]), int(hhmm[3:]), tzinfo=zone)
    offset = anchor.strftime("%z") or "+0000"
    return f"2000-01-01T{hhmm}:00.000{offset}"


def hub_datetime(day: str, hhmm: str, zone: tzinfo | None) -> str:
    """A date (``YYYY-MM-DD``) and HH:MM as a time input carrying that day: a Certain Time
    trigger whose time has a real date fires once, on that day (the on-hub server's
    ``_rmNormalizeAtTime``: an ISO datetime form is a one-shot dated trigger)."""
    year, month, dom = (int(x) for x in day.split("-"))
    anchor = datetime(year, month, dom, int(hhmm[:2]), int(hhmm[3:]), tzinfo=zone)
    offset = anchor.strftime("%z") or "+0000"
    return f"{day}T{hhmm}:00.000{offset}"


def _cap(name: str) -> str:
    return name.capitalize()


class Compiler:
    """Builds the steps of one spec (``zone``: the hub's time zone, for time inputs)."""

    def __init__(self, spec: RuleSpec, res: Resolved, zone: tzinfo | None) -> None:
        self.spec = spec
        self.res = res
        self.zone = zone
        self.steps: list[Step] = []
        self._gate: Condition | None = None  # the trigger being built's only_if

    def _w(self, page: str, name: str, value: Any, where: str, *, optional: bool = False) -> None:
        self.steps.append(Write(page, name, value, where, optional))

    def build(self) -> list[Step]:
        """Every step, in order."""
        spec = self.spec
        self._w("mainPage", "origLabel", spec.name, "rule.name")
        for i, trig in enumerate(spec.triggers):
            self._trigger(trig, f"rule.triggers[{i}]")
        self.steps.append(Submit(ACTIONS, "rule.actions"))
        for i, local in enumerate(spec.local_variables):
            # selectActions' Local Variables form: the value's write saves it (the on-hub server,
            # live)
            here = f"rule.local_variables[{i}]"
            self.steps.append(Click(ACTIONS, "moreVar", "moreVar", here))
            self._w(ACTIONS, "hbVar", local.name, here)
            self._w(ACTIONS, "varType", LOCAL_TYPES[local.type], f"{here}.type")
            self._w(ACTIONS, "varValue", local.value, f"{here}.value")
        self._emit_actions(spec.actions, "rule.actions")
        if spec.conditions is not None:
            self._w("mainPage", "useST", True, "rule.conditions")
            self.steps.append(Goto("mainPage", EXPR_MAIN, "rule.conditions"))
            self._expression(spec.conditions, EXPR_MAIN, "rule.conditions")
            self.steps.append(Leave(EXPR_MAIN, "mainPage", "rule.conditions"))
        if spec.logging:
            self._w("mainPage", "logging", [x.capitalize() for x in spec.logging], "rule.logging")
        # paused before it is initialised: it never acts before it is verified
        self.steps.append(
            Click("mainPage", "pausRule", where="rule (built paused)", context=False, optional=True)
        )
        self.steps.append(Click("mainPage", "updateRule", where="rule", context=False))
        return self.steps

    # ------------------------------------------------------------------ triggers

    def _open_trigger(self, cap: str, where: str) -> None:
        self.steps.append(Click(TRIGGERS, "true", "moreCond", where))
        self.steps.append(Reveal(TRIGGERS, r"tCapab(\d+)", "N", where))
        gate = self._gate
        if gate is not None:
            # a conditional trigger (the on-hub server's conditional-trigger path, live): on the
            # new trigger's row, isCondTrig.<N> true, condTrig.<N> "a" (a new condition), the
            # condition's fields (rCapab_<C> ...), its hasAll, which saves condition <C> and
            # opens the trigger on the next row, where the trigger itself is then built
            here = f"{where}.only_if"
            self._w(TRIGGERS, "isCondTrig.{N}", True, here)
            self._w(TRIGGERS, "condTrig.{N}", "a", here)
            self.steps.append(Reveal(TRIGGERS, r"rCapab_(\d+)", "C", here))
            self._condition(gate, TRIGGERS, here)
            if gate.negated:
                self._w(TRIGGERS, "not{C}", True, f"{here}.not")
            self.steps.append(Click(TRIGGERS, "hasAll", where=here))
            # {C} stays bound until the trigger's close binds it (no condition comes between)
            self.steps.append(Reveal(TRIGGERS, r"tCapab(\d+)", "N", where))
        self._w(TRIGGERS, "tCapab{N}", cap, where)

    def _close_trigger(self, where: str) -> None:
        if self._gate is not None:
            # bound before hasAll, while the trigger's form is open (the on-hub server, live)
            here = f"{where}.only_if"
            self._w(TRIGGERS, "isCondTrig.{N}", True, here)
            self._w(TRIGGERS, "condTrig.{N}", SlotValue("C"), here)
            self.steps.append(Click(TRIGGERS, "hasAll", where=where))
        else:
            self.steps.append(Click(TRIGGERS, "hasAll", where=where))
            self._w(TRIGGERS, "isCondTrig.{N}", False, where, optional=True)
        self.steps.append(Goto(TRIGGERS, "mainPage", where))

    def _periodic(self, per: Periodic, where: str) -> None:
        """The periodic sub-page's fields for one frequency: the on-hub server's periodic write
        block (live on 5.1.8): ``whichPeriod<n>``, then the frequency's fields in its order, the
        time of day (``starting..C<n>``) last."""
        n, here = "{n}", f"{where}.periodic"

        def w(name: str, value: Any, part: str = "") -> None:
            self._w("periodic", name + n, value, f"{here}.{part}" if part else here)

        w("whichPeriod", PERIODS[per.frequency], "frequency")
        f = per.frequency
        if f == "seconds":
            w("everyNSecs", str(per.every), "every")
        elif f == "minutes":
            w("selectMinutesC", [str(m) for m in per.minutes], "minutes")
        elif f == "hourly" and per.every is not None:
            w("everyNHoursC", True)
            w("everyNHC", per.every, "every")
            if per.at is not None:
                w("startingHC", hub_time(per.at, self.zone), "at")
        elif f == "hourly":
            w("selectHoursC", [str(h) for h in per.hours], "hours")
            w("startingHCX", per.minute or 0, "minute")
        elif f == "daily":
            if per.every is not None:
                w("everyNDoMC", True)
                w("everyNDC", per.every, "every")
            elif per.weekdays_only:
                w("everyWeekDay", True, "weekdays_only")
            else:
                w("selectDoMC", [str(d) for d in per.days_of_month], "days_of_month")
            w("startingDC", hub_time(str(per.at), self.zone), "at")
        elif f == "weekly":
            w("selectDoWC", [_cap(d) for d in per.days], "days")
            w("startingWC", hub_time(str(per.at), self.zone), "at")
        elif f == "monthly":
            if per.day is not None:
                w("dayMC", per.day, "day")
                w("everyNMC", per.every_months, "every_months")
            else:
                w("weeklyMC", _cap(str(per.week)), "week")
                w("dailyMC", _cap(str(per.weekday)), "weekday")
                w("everyNMCX", per.every_months, "every_months")
            w("startingMC", hub_time(str(per.at), self.zone), "at")
        elif f == "yearly":
            w("weeklyYC", _cap(str(per.week)), "week")
            w("dailyYC", _cap(str(per.weekday)), "weekday")
            w("yearlyMonthCX", _cap(str(per.month)), "month")
            w("startingYC", hub_time(str(per.at), self.zone), "at")
        else:
            w("cronStr", per.cron, "cron")

    def _trigger(self, trig: Trigger, where: str) -> None:
        self._gate = trig.only_if
        try:
            self._trigger_steps(trig, where)
        finally:
            self._gate = None

    def _trigger_steps(self, trig: Trigger, where: str) -> None:
        if trig.kind in ("device", "button") and trig.test is not None:
            test: DeviceTest = trig.test
            if trig.kind == "button":
                self._open_trigger("Button", where)
                self._w(TRIGGERS, "tDev{N}", list(test.device_ids), where)
                self._w(TRIGGERS, "ButtontDev{N}", trig.button, f"{where}.button")
                self._w(TRIGGERS, "tstate{N}", trig.event, f"{where}.event")
            else:
                cap, family = capability_of(test, self.res)
                self._open_trigger(cap, where)
                self._w(TRIGGERS, "tDev{N}", list(test.device_ids), where)
                self._test_value(
                    test,
                    family,
                    where,
                    attr="tCustomAttr{N}",
                    rel="ReltDev{N}",
                    state="tstate{N}",
                    page=TRIGGERS,
                )
                if test.all:
                    self._w(TRIGGERS, "AlltDev{N}", True, f"{where}.all")
                if trig.stays_for is not None:
                    d: Duration = trig.stays_for
                    self._w(TRIGGERS, "stays{N}", True, f"{where}.stays_for")
                    self._w(TRIGGERS, "SHours{N}", d.hours, f"{where}.stays_for")
                    self._w(TRIGGERS, "SMins{N}", d.minutes, f"{where}.stays_for")
                    self._w(TRIGGERS, "SSecs{N}", d.seconds, f"{where}.stays_for")
        elif trig.kind == "time" and trig.time is not None:
            point: TimePoint = trig.time
            self._open_trigger("Certain Time (and optional date)", where)
            if point.at is not None:
                self._w(TRIGGERS, "time{N}", "A specific time", where)
                at = (
                    hub_datetime(trig.date, point.at, self.zone)
                    if trig.date is not None
                    else hub_time(point.at, self.zone)
                )
                self._w(TRIGGERS, "atTime{N}", at, f"{where}.time")
            else:
                option = SUN_OPTION[str(point.sun)]
                self._w(TRIGGERS, "time{N}", option, where)
                if point.offset_minutes:
                    self._w(
                        TRIGGERS,
                        f"at{option}Offset{{N}}",
                        point.offset_minutes,
                        f"{where}.offset_minutes",
                    )
        elif trig.kind == "every" and trig.every is not None:
            self._open_trigger("Periodic Schedule", where)
            self.steps.append(Goto(TRIGGERS, "periodic", where, slot="n"))
            if trig.every.minutes:
                self._w("periodic", "whichPeriod{n}", "Minutes", where)
                self._w("periodic", "everyNMinutesC{n}", True, where)
                self._w("periodic", "everyNC{n}", str(trig.every.minutes), f"{where}.every")
            else:
                self._w("periodic", "whichPeriod{n}", "Hourly", where)
                self._w("periodic", "everyNHoursC{n}", True, where)
                self._w("periodic", "everyNHC{n}", trig.every.hours, f"{where}.every")
            self.steps.append(Leave("periodic", TRIGGERS, where, params_slot="n"))
        elif trig.kind == "periodic" and trig.periodic is not None:
            self._open_trigger("Periodic Schedule", where)
            self.steps.append(Goto(TRIGGERS, "periodic", where, slot="n"))
            self._periodic(trig.periodic, where)
            self.steps.append(Leave("periodic", TRIGGERS, where, params_slot="n"))
        elif trig.kind == "mode":
            self._open_trigger("Mode", where)
            self._w(
                TRIGGERS, "modesX{N}", [self.res.mode_id(m) for m in trig.modes], f"{where}.mode"
            )
        else:
            self._open_trigger("Variable", where)
            self._w(TRIGGERS, "xVar{N}", trig.variable, f"{where}.variable")
            self._w(
                TRIGGERS,
                "ReltDev{N}",
                CHANGED if trig.op == "changes" else OPS[str(trig.op)],
                f"{where}.op",
            )
            if trig.op != "changes":
                self._w(TRIGGERS, "tstate{N}", trig.value, f"{where}.value")
        self._close_trigger(where)

    def _test_value(
        self,
        test: DeviceTest,
        family: str,
        where: str,
        *,
        attr: str,
        rel: str,
        state: str,
        page: str,
    ) -> None:
        """The comparison fields after the device picker (triggers, conditions)."""
        if family == "custom":
            self._w(page, attr, test.attribute, f"{where}.attribute")
        if family == "state":
            if test.op not in ("eq", "changes"):
                raise ToolError(
                    f"{where}: Rule Machine tests '{test.attribute}' for a state; '{test.op}' "
                    "does not apply. Nothing was sent.",
                    hint="Use is with the state you want (e.g. is: off rather than ne on).",
                )
            self._w(page, state, CHANGED if test.op == "changes" else test.value, where)
            return
        self._w(page, rel, CHANGED if test.op == "changes" else OPS[test.op], f"{where}.op")
        if test.op != "changes":
            self._w(page, state, test.value, f"{where}.value")

    # ------------------------------------------------------------------ actions

    def _open_action(self, act_type: str, sub_type: str, where: str) -> None:
        self.steps.append(Click(ACTIONS, "N", "doActN", where))
        self.steps.append(Reveal(ACT, r"actType\.(\d+)", "A", where))
        self._w(ACT, "actType.{A}", act_type, where)
        self._w(ACT, "actSubType.{A}", sub_type, where)

    def _close_action(self, where: str) -> None:
        self.steps.append(Click(ACT, "actionDone", where=where))
        self.steps.append(Goto(ACT, ACTIONS, where))

    def _delay_modifier(self, d: Duration, cancelable: bool, where: str) -> None:
        self._w(ACT, "delayAct.{A}", "hrs:min:sec", where)
        self._w(ACT, "delayHor.{A}", d.hours, where)
        self._w(ACT, "delayMin.{A}", d.minutes, where)
        self._w(ACT, "delaySec.{A}", d.seconds, where)
        if cancelable:
            self._w(ACT, "cancelAct.{A}", True, f"{where}.cancelable")

    def _action(self, action: Action, where: str) -> None:
        k = action.kind
        ids = list(action.device_ids)
        if k == "command":
            self._command(action, where)
        elif k == "delay" and action.delay is not None:
            self._open_action("delayActs", "getDelay", where)
            self._w(ACT, "delayHour.{A}", action.delay.hours, f"{where}.delay")
            self._w(ACT, "delayMinute.{A}", action.delay.minutes, f"{where}.delay")
            self._w(ACT, "delaySecond.{A}", action.delay.seconds, f"{where}.delay")
            delay_options(self, action, where)
        elif k == "delay_from_variable":
            compile_delay_from_variable(self, action, where)
        elif k in DEVICE_ACTION_KINDS or k == "cancel_timers":
            compile_device_action(self, action, where)
        elif k == "delay_per_mode":
            # the modes (ids), then each mode's delay by its name (the on-hub server, live)
            self._open_action("delayActs", "getDelayPerMode", where)
            names = [self.res.mode_names[self.res.mode_id(m)] for m, _d in action.per_mode]
            self._w(ACT, "delayModes.{A}", [self.res.mode_id(m) for m in names], where)
            for name, (_m, d) in zip(names, action.per_mode, strict=True):
                here = f"{where}.delay_per_mode.{name}"
                self._w(ACT, f"delayHour{name}.{{A}}", d.hours, here)
                self._w(ACT, f"delayMinute{name}.{{A}}", d.minutes, here)
                self._w(ACT, f"delaySecond{name}.{{A}}", d.seconds, here)
            if action.cancelable:
                self._w(ACT, "cancelAct.{A}", True, f"{where}.cancelable")
        elif k == "wait":
            self._open_action("delayActs", "getWaitEvents", where)
            for j, event in enumerate(action.events):
                here = f"{where}.wait[{j}]"
                cap, family = capability_of(event, self.res)
                if family != "state" or event.op != "eq":
                    raise ToolError(
                        f"{here}: a wait here waits for a device state (is), such as motion "
                        "inactive. Nothing was sent.",
                        hint="Test a state attribute (switch, motion, contact, lock, presence, "
                        "water...) with is.",
                    )
                if j:
                    self.steps.append(Click(ACT, "anotherWait", "anotherWait", here))
                self.steps.append(Reveal(ACT, r"tCapab-(\d+)", "E", here))
                self._w(ACT, "tCapab-{E}", cap, here)
                self._w(ACT, "tDev-{E}", list(event.device_ids), here)
                self._w(ACT, "tstate-{E}", event.value, here)
                # the event's own "and stays" (the on-hub server, live)
                if event.stays_for is not None:
                    d = event.stays_for
                    self._w(ACT, "stays-{E}", True, f"{here}.stays_for")
                    self._w(ACT, "SHours-{E}", d.hours, f"{here}.stays_for")
                    self._w(ACT, "SMins-{E}", d.minutes, f"{here}.stays_for")
                    self._w(ACT, "SSecs-{E}", d.seconds, f"{here}.stays_for")
                self.steps.append(Click(ACT, "hasAll", where=here))
            if action.timeout is not None:
                self._delay_modifier(action.timeout, False, f"{where}.timeout")
        elif k == "wait_until" and action.condition is not None:
            # Wait for Expression: the timeout before the expression, whose Done moves the
            # page past it (the on-hub server, live)
            self._open_action("delayActs", "getWaitRule", where)
            if action.timeout is not None:
                self._delay_modifier(action.timeout, False, f"{where}.timeout")
            self._expression(action.condition, ACT, f"{where}.wait_until")
        elif k == "set_mode":
            self._open_action("modeActs", "getSetMode", where)
            self._w(ACT, "mode.{A}", self.res.mode_id(str(action.text)), f"{where}.set_mode")
        elif k == "set_variable":
            self._open_action("modeActs", "getSetVariable", where)
            self._w(ACT, "xVarV.{A}", action.text, f"{where}.set_variable")
            if action.from_variable is not None:
                self._w(ACT, "numOp.{A}", "variable", where)
                self._w(ACT, "xVar3.{A}", action.from_variable, f"{where}.from_variable")
            elif action.params:
                compile_variable_source(self, action, where)
            else:
                self._w(ACT, "numOp.{A}", "number", where)
                self._w(ACT, "valNumber.{A}", action.value, f"{where}.value")
        elif k == "notify":
            self._open_action("messageActs", "getMsg", where)
            self._w(ACT, "msg.{A}", action.text, f"{where}.notify")
            self._w(ACT, "note.{A}", ids, where)
        elif k == "log":
            self._open_action("messageActs", "getLogMsg", where)
            self._w(ACT, "logmsg.{A}", action.text, f"{where}.log")
        elif k == "cancel_delays":
            self._open_action("delayActs", "getCancelDelay", where)
        elif k == "run_rule":
            self._open_action("rulesActs", "getRuleActions", where)
            self._w(ACT, "runRuleType.{A}", "Rule Machine", where)
            self._w(ACT, "ruleAct.{A}", list(action.rule_ids), f"{where}.run_rule")
        elif k in ("pause_rules", "resume_rules"):
            # pR true is Resume, empty Pause (rule-storage notes 10.2; the on-hub server, live); the
            # on-hub server's order
            self._open_action("rulesActs", "getPauseResumeRules", where)
            self._w(ACT, "pR.{A}", k == "resume_rules", where)
            self._w(ACT, "pauseRuleType.{A}", "Rule Machine", where)
            self._w(ACT, "pauseRule.{A}", list(action.rule_ids), f"{where}.{k}")
        elif k == "set_private_boolean":
            # pvTF stores the negation of the value set (notes 9.3; the on-hub server, live); "*":
            # this rule
            self._open_action("rulesActs", "getSetPrivateBoolean", where)
            self._w(ACT, "pvRuleType.{A}", "Rule Machine", where)
            self._w(ACT, "pvTF.{A}", not action.value, f"{where}.{k}")
            self._w(ACT, "privateT.{A}", list(action.rule_ids) or ["*"], f"{where}.rule_ids")
        elif k == "set_hsm":
            self._open_action("lockActs", "getSetHSM", where)
            self._w(ACT, "alarm.{A}", action.text, f"{where}.set_hsm")
        elif k == "exit_rule":
            self._open_action("delayActs", "getExitRule", where)
        elif k in ("write_file", "append_file"):
            sub = "getWriteLocalFile" if k == "write_file" else "getAppendLocalFile"
            self._open_action("modeActs", sub, where)  # the on-hub server, live
            self._w(ACT, "localFile.{A}", action.text, f"{where}.{k}")
            self._w(ACT, "fileContents.{A}", action.value, f"{where}.text")
        elif k == "delete_file":
            self._open_action("modeActs", "getDeleteLocalFile", where)
            self._w(ACT, "deleteFile.{A}", action.text, f"{where}.delete_file")
        elif k == "http_get":  # the on-hub server's fields for messageActs' HTTP and ping subtypes
            self._open_action("messageActs", "getHTTPGet", where)
            self._w(ACT, "httper.{A}", action.text, f"{where}.http_get")
        elif k == "http_post":
            self._open_action("messageActs", "getHTTPPost", where)
            self._w(ACT, "httper.{A}", action.text, f"{where}.http_post")
            self._w(ACT, "httpPostBody.{A}", action.value, f"{where}.body")
            self._w(ACT, "httpPostType.{A}", action.content_type, f"{where}.content_type")
        elif k == "ping":
            self._open_action("messageActs", "getPingIP", where)
            self._w(ACT, "pingIP.{A}", action.text, f"{where}.ping")
        elif k == "capture":
            self._open_action("deviceActs", "getCapture", where)
            self._w(ACT, "capture.{A}", ids, f"{where}.capture")
        elif k == "restore":
            self._open_action("deviceActs", "getRestore", where)
        elif k in ("disable_devices", "enable_devices"):
            # disEn true is Enable (the on-hub server, live: inverted against its name); the on-hub
            # server's order
            self._open_action("deviceActs", "getDisable", where)
            self._w(ACT, "disEn.{A}", k == "enable_devices", where)
            self._w(ACT, "devDisable.{A}", ids, f"{where}.{k}")
        elif k == "comment":
            self._open_action("delayActs", "getComment", where)
            self._w(ACT, "comment.{A}", action.text, f"{where}.comment")
        elif k == "if" and action.condition is not None:
            self._open_action("condActs", "getIfThen", where)
            self._expression(action.condition, ACT, f"{where}.if")
        # the on-hub server's order: interval, then n
        elif k == "repeat" and action.every is not None:
            self._open_action("repeatActs", "getRepeat", where)
            self._w(ACT, "repeatHour.{A}", action.every.hours, f"{where}.every")
            self._w(ACT, "repeatMinute.{A}", action.every.minutes, f"{where}.every")
            self._w(ACT, "repeatSecond.{A}", action.every.seconds, f"{where}.every")
            self._w(ACT, "repeatN.{A}", action.value, f"{where}.repeat")
            self._stoppable(action, where)
        elif k == "repeat_while" and action.condition is not None and action.every is not None:
            self._open_action("repeatActs", "getWhile", where)
            self._expression(action.condition, ACT, f"{where}.repeat_while")
            self._w(ACT, "repeatHour.{A}", action.every.hours, f"{where}.every")
            self._w(ACT, "repeatMinute.{A}", action.every.minutes, f"{where}.every")
            self._w(ACT, "repeatSecond.{A}", action.every.seconds, f"{where}.every")
            self._stoppable(action, where)
        self._close_action(where)

    def _stoppable(self, action: Action, where: str) -> None:
        """A repeat's Stoppable? (``stopRepeat.<N>``, a bool after the interval and times: the
        on-hub server's getRepeat and getWhile fields, live); written only when true."""
        if dict(action.params).get("stoppable"):
            self._w(ACT, "stopRepeat.{A}", True, f"{where}.stoppable")

    def _emit_actions(self, actions: tuple[Action, ...], path: str) -> None:
        """Rule Machine's action list is flat: IF, its actions, ELSE, its actions, END-IF."""
        for i, action in enumerate(actions):
            here = f"{path}[{i}]"
            self._action(action, here)
            if action.kind == "if":
                self._emit_actions(action.then, f"{here}.then")
                for j, branch in enumerate(action.elifs):
                    w = f"{here}.else_if[{j}]"
                    if branch.condition is None:
                        continue
                    self._open_action("condActs", "getElseIf", w)  # the on-hub server, live
                    self._expression(branch.condition, ACT, f"{w}.if")
                    self._close_action(w)
                    self._emit_actions(branch.then, f"{w}.then")
                if action.otherwise:
                    self._open_action("condActs", "getElse", f"{here}.else")
                    self._close_action(f"{here}.else")
                    self._emit_actions(action.otherwise, f"{here}.else")
                self._open_action("condActs", "getEndIf", f"{here} (END-IF)")
                self._close_action(f"{here} (END-IF)")
            elif action.kind in ("repeat_while", "repeat"):
                self._emit_actions(action.then, f"{here}.do")
                self._open_action("repeatActs", "getStopRepeat", f"{here} (END-REP)")
                self._close_action(f"{here} (END-REP)")

    def _command(self, action: Action, where: str) -> None:
        cmd = str(action.command)
        ids = list(action.device_ids)
        prepared = self.res.commands.get(where, [])
        args = prepared[0].args if prepared else []
        if cmd in ("on", "off") and not args:
            self._open_action("switchActs", "getOnOffSwitch", where)
            self._w(ACT, "onOffSwitch.{A}", ids, where)
            self._w(ACT, "onOff.{A}", cmd == "on", where)
        elif cmd == "setLevel" and len(args) in (1, 2):
            self._open_action("dimmerActs", "getSetDimmer", where)
            self._w(ACT, "dimA.{A}", ids, where)
            self._w(ACT, "dimLA.{A}", args[0]["value"], f"{where}.arguments[0]")
            if len(args) == 2:
                self._w(ACT, "dimRA.{A}", args[1]["value"], f"{where}.arguments[1]")
        elif cmd in ("lock", "unlock") and not args:
            self._open_action("lockActs", "getLULock", where)
            self._w(ACT, "lockRL.{A}", cmd == "unlock", where)
            self._w(ACT, "lockLockUnlock.{A}", ids, where)
        else:
            detail = self.res.devices[ids[0]]
            declared = detail.command(cmd)
            capability = declared.capability if declared is not None else None
            if not capability:
                raise ToolError(
                    f"{where}: {detail.summary.display_name} does not say which capability "
                    f"'{cmd}' belongs to, which Rule Machine's custom action needs. Nothing "
                    "was sent.",
                    hint="Use on/off, setLevel or lock/unlock, or build this action in the hub UI.",
                )
            self._open_action("modeActs", "getDefinedAction", where)
            self._w(ACT, "useLastDev.{A}", False, where)
            self._w(ACT, "myCapab.{A}", capability, where)
            self._w(ACT, "devices.{A}", ids, where)
            self._w(ACT, "cCmd.{A}", cmd, f"{where}.command")
            for j, arg in enumerate(args):
                here = f"{where}.arguments[{j}]"
                self.steps.append(Click(ACT, "moreParams", where=here))
                self.steps.append(Reveal(ACT, r"cpType(\d+)\.{A}", "P", here))
                self._w(
                    ACT, "cpType{P}.{A}", PARAM_TYPES.get(str(arg["type"]).upper(), "string"), here
                )
                self._w(ACT, "cpVal{P}.{A}", arg["value"], here)
        if action.delay is not None:
            self._delay_modifier(action.delay, action.cancelable, f"{where}.delay")

    # ------------------------------------------------------------------ expressions

    def _expression(self, expr: Expression, page: str, where: str) -> None:
        self._chain(expr, page, where)
        if page == ACT:  # an IF's / Repeat's expression: the on-hub server clicks hasRule there
            self.steps.append(Click(page, "hasRule", where=where))
        # the Required Expression: only the submitOnChange write seals it (the on-hub server, live)
        else:
            self.steps.append(Seal(page, "hasRule", where))
            self.steps.append(Click(page, "doneST", where=where, optional=True))

    def _chain(self, expr: Expression, page: str, where: str) -> None:
        """Conditions and operators; a group opens with ``cond=b`` ("( sub-expression") and
        closes with the operator ``end-sub-expression )`` (the on-hub server, live 2026-04-26)."""
        for i, item in enumerate(expr.conditions):
            here = f"{where}[{i}]" if len(expr.conditions) > 1 else where
            if i:
                self._w(page, "oper", expr.operator, here)
            if isinstance(item, Expression):
                self._w(page, "cond", "b", here)
                self._chain(item, page, here)
                self._w(page, "oper", CLOSE_GROUP, here)
                continue
            self._w(page, "cond", "a", here)
            self.steps.append(Reveal(page, r"rCapab_(\d+)", "C", here))
            self._condition(item, page, here)
            if item.negated:
                self._w(page, "not{C}", True, f"{here}.not")
            self.steps.append(Click(page, "hasAll", where=here))

    def _condition(self, cond: Condition, page: str, where: str) -> None:
        if cond.kind == "device" and cond.test is not None and cond.ref_device is not None:
            self._relative_to_device(cond, cond.test, cond.ref_device, page, where)
        elif cond.kind == "private_boolean":
            # no device; the state picker offers true / false (the on-hub server's wire-format
            # notes: capability Private Boolean, state "true"/"false"; the rule-storage notes
            # show such a condition as "Private Boolean(true) is true")
            self._w(page, "rCapab_{C}", "Private Boolean", where)
            state = "true" if cond.value else "false"
            self._w(page, "state_{C}", state, f"{where}.private_boolean")
        elif cond.kind == "variable" and cond.ref_variable is not None:
            # the comparator, then isVar_<C> reveals the right-hand variable picker xVarR_<C>
            # (the on-hub server, live 2026-05-17: isVar alone exposes it; rule-storage notes 5.5)
            self._w(page, "rCapab_{C}", "Variable", where)
            self._w(page, "xVar_{C}", cond.variable, f"{where}.variable")
            self._w(page, "RelrDev_{C}", OPS[str(cond.op)], f"{where}.op")
            self._w(page, "isVar_{C}", True, f"{where}.compare_to")
            self._w(page, "xVarR_{C}", cond.ref_variable, f"{where}.compare_to.variable")
        elif cond.kind == "device" and cond.test is not None:
            cap, family = capability_of(cond.test, self.res)
            self._w(page, "rCapab_{C}", cap, where)
            self._w(page, "rDev_{C}", list(cond.test.device_ids), where)
            self._test_value(
                cond.test,
                family,
                where,
                attr="rCustomAttr_{C}",
                rel="RelrDev_{C}",
                state="state_{C}",
                page=page,
            )
        elif cond.kind == "mode":
            self._w(page, "rCapab_{C}", "Mode", where)
            self._w(page, "modes{C}", [self.res.mode_id(m) for m in cond.modes], f"{where}.mode")
        elif cond.kind == "between" and cond.start is not None and cond.end is not None:
            self._w(page, "rCapab_{C}", "Between two times", where)
            for point, side, short in (
                (cond.start, "starting", "start"),
                (cond.end, "ending", "end"),
            ):
                here = f"{where}.between.{'from' if side == 'starting' else 'to'}"
                if point.at is not None:
                    self._w(page, f"{side}{{C}}", "A specific time", here)
                    self._w(page, f"{side}A{{C}}", hub_time(point.at, self.zone), here)
                else:
                    option = SUN_OPTION[str(point.sun)]
                    self._w(page, f"{side}{{C}}", option, here)
                    self._w(page, f"{short}{option}Offset{{C}}", point.offset_minutes, here)
        elif cond.kind == "dates":
            # the settings a live hub's rules store (hubitat-automation-map's scan): the
            # type mm-dd, month and day as numbers in text, the time HH:MM or none
            self._w(page, "rCapab_{C}", "Between two dates", where)
            for point, side, key in zip(cond.value, ("Start", "End"), ("from", "to"), strict=True):
                here = f"{where}.dates.{key}"
                day, _, at = str(point).partition(" ")
                month, dom = (str(int(x)) for x in day.split("-"))
                kind = "startDateType{C}" if side == "Start" else "endDateType{C}"
                self._w(page, kind, "mm-dd", here)
                self._w(page, f"month{side}{{C}}", month, here)
                self._w(page, f"day{side}{{C}}", dom, here)
                if at:
                    self._w(page, f"time{side}{{C}}", at, here)
        else:
            self._w(page, "rCapab_{C}", "Variable", where)
            self._w(page, "xVar_{C}", cond.variable, f"{where}.variable")
            self._w(page, "RelrDev_{C}", OPS[str(cond.op)], f"{where}.op")
            self._w(page, "state_{C}", cond.value, f"{where}.value")

    def _relative_to_device(
        self, cond: Condition, test: DeviceTest, ref: str, page: str, where: str
    ) -> None:
        """The comparator, then ``isDev_<C>`` ("relative to a device?") reveals the reference
        device picker ``relDevice_<C>`` (one device of the same capability: the compared
        attribute is the capability's), and ``state_<C>`` becomes the offset (the on-hub
        server, live on 2.5.0.143: renders "Temperature of A is > B-2"; rule-storage notes
        5.5). Only a numeric capability offers it (the on-hub server refuses the others)."""
        cap, family = capability_of(test, self.res)
        if family != "numeric":
            raise ToolError(
                f"{where}: Rule Machine compares '{test.attribute}' with another device only "
                "for a numeric capability (temperature, humidity, illuminance, battery, power, "
                "energy, level). Nothing was sent.",
                hint="Compare with a value instead, or pick a numeric attribute.",
            )
        self._w(page, "rCapab_{C}", cap, where)
        self._w(page, "rDev_{C}", list(test.device_ids), where)
        self._w(page, "RelrDev_{C}", OPS[test.op], f"{where}.op")
        self._w(page, "isDev_{C}", True, f"{where}.compare_to")
        self._w(page, "relDevice_{C}", ref, f"{where}.compare_to.device_id")
        if cond.offset:
            self._w(page, "state_{C}", cond.offset, f"{where}.compare_to.offset")


def compile_spec(spec: RuleSpec, res: Resolved, zone: tzinfo | None) -> list[Step]:
    """The steps that build ``spec`` on a new Rule Machine rule."""
    return Compiler(spec, res, zone).build()
