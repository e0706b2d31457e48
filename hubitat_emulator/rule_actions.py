"""Running a Rule Machine 5.1 rule's actions (``actType.<N>`` / ``actSubType.<N>``).

The actions run in ``RuleDefinition.actions`` order as one asyncio task per run. IF-THEN /
ELSE / END-IF and Repeat While / End-Repeat nest (parsed once into :class:`Block` trees);
a Delay or a Wait for Events suspends the run on the hub's clock. Device commands go through
``Home.run_command`` like any other command, so devices change and events flow.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import rule_device_acts
from .commands import CommandError, UnknownCommand
from .emuclock import EmuClock
from .home import Home
from .rule_conditions import as_bool, as_float, as_int, duration, id_list
from .rule_definition import RuleDefinition

MIN_REPEAT = 1.0  # seconds: a Repeat with no interval repeats every second, never spins


@dataclass
class Node:
    n: int  # the action index
    sub: str  # actSubType
    body: list[Node] = field(default_factory=list)  # IF-THEN / Repeat body
    orelse: list[Node] = field(default_factory=list)  # ELSE part


def build_tree(rule: RuleDefinition) -> list[Node]:
    """Nest the flat action list: IF ... ELSE ... END-IF, Repeat While ... End-Repeat. An
    unclosed block ends with the list (RM shows it broken but runs it so)."""
    root: list[Node] = []
    stack: list[tuple[Node, list[Node]]] = []  # (block, the list being filled)
    current = root
    for n in rule.actions:
        sub = str(rule.settings.get(f"actSubType.{n}") or "")
        node = Node(n, sub)
        if sub == "getElseIf" and stack and stack[-1][0].sub in ("getIfThen", "getElseIf"):
            # an ELSE-IF is the ELSE branch holding one more IF, closed by the same END-IF
            stack[-1][0].orelse.append(node)
            stack[-1] = (node, node.body)
            current = node.body
            continue
        if sub == "getElse" and stack and stack[-1][0].sub in ("getIfThen", "getElseIf"):
            current = stack[-1][0].orelse
            stack[-1] = (stack[-1][0], current)
            continue
        if sub == "getEndIf" and stack and stack[-1][0].sub in ("getIfThen", "getElseIf"):
            stack.pop()
            current = stack[-1][1] if stack else root
            continue
        if sub == "getStopRepeat" and stack and stack[-1][0].sub in ("getWhile", "getRepeat"):
            stack.pop()
            current = stack[-1][1] if stack else root
            continue
        current.append(node)
        if sub in ("getIfThen", "getWhile", "getRepeat"):
            stack.append((node, node.body))
            current = node.body
    return root


class ExitRule(Exception):
    """Exit Rule: the run ends here."""


class RunHost(Protocol):
    """What a run needs of the rule runner."""

    home: Home
    clock: EmuClock
    captured: dict[int, dict[int, dict[str, object]]]  # a rule's Capture, by rule and device

    def expression_true(self, rule: RuleDefinition, n: int) -> bool: ...

    def cancel_delays(self, app_id: int, keep: Run) -> None: ...

    def spawn_delayed(self, run: Run, seconds: float, cancelable: bool, n: int) -> None: ...

    async def wait_for_events(self, run: Run) -> None: ...

    async def wait_for_expression(self, run: Run, n: int, timeout: float | None) -> None: ...

    def run_actions(self, app_id: int) -> None: ...

    def set_private_boolean(self, app_ids: list[int], value: bool) -> None: ...

    def pause_rules(self, app_ids: list[int], paused: bool) -> None: ...

    def cancel_timers(self, app_ids: list[int], keep: Run) -> None: ...

    def spawn_background(self, run: Run, work: Coroutine[Any, Any, None]) -> None: ...


@dataclass(eq=False)
class Run:
    """One run of a rule's actions."""

    rule: RuleDefinition
    host: RunHost
    task: asyncio.Task[Any] | None = None
    waiting: bool = False  # suspended in Wait for Events
    cancelable_delay: bool = False  # suspended in a cancelable Delay

    @property
    def s(self) -> dict[str, Any]:
        return self.rule.settings

    async def execute(self, nodes: list[Node]) -> None:
        for node in nodes:
            await self.step(node)

    async def step(self, node: Node) -> None:
        n, s = node.n, self.s
        if node.sub in ("getIfThen", "getElseIf"):
            branch = node.body if self.host.expression_true(self.rule, n) else node.orelse
            await self.execute(branch)
            return
        if node.sub == "getWhile":
            every = max(
                MIN_REPEAT, duration(s, f"repeatHour.{n}", f"repeatMinute.{n}", f"repeatSecond.{n}")
            )
            while self.host.expression_true(self.rule, n):
                await self.execute(node.body)
                await self.host.clock.sleep(every)
            return
        if node.sub == "getRepeat":  # the body n times, the interval between
            every = max(
                MIN_REPEAT, duration(s, f"repeatHour.{n}", f"repeatMinute.{n}", f"repeatSecond.{n}")
            )
            times = as_int(s.get(f"repeatN.{n}"))
            for i in range(max(times, 0)):
                if i:
                    await self.host.clock.sleep(every)
                await self.execute(node.body)
            return
        if node.sub == "getDelayPerMode":  # the delay of the mode the hub is in, if listed
            mode = next(
                (
                    m
                    for m in self.host.home.state.modes
                    if m.id == self.host.home.state.current_mode_id
                ),
                None,
            )
            ids = [str(i) for i in s.get(f"delayModes.{n}") or []]
            if mode is None or str(mode.id) not in ids:
                return
            name = mode.name
            await self.delay(n, f"delayHour{name}", f"delayMinute{name}", f"delaySecond{name}")
            return
        if node.sub == "getDelay":
            await self.delay(n, "delayHour", "delayMinute", "delaySecond")
            return
        if node.sub == "getWaitEvents":
            self.waiting = True
            try:
                await self.host.wait_for_events(self)
            finally:
                self.waiting = False
            return
        if node.sub == "getWaitRule":  # its delay fields are the timeout
            timeout = None
            if s.get(f"delayAct.{n}") == "hrs:min:sec":
                timeout = duration(s, f"delayHor.{n}", f"delayMin.{n}", f"delaySec.{n}")
            self.waiting = True
            try:
                await self.host.wait_for_expression(self, n, timeout)
            finally:
                self.waiting = False
            return
        if node.sub == "getCancelDelay":
            self.host.cancel_delays(self.rule.app_id, self)
            return
        if node.sub == "getExitRule":
            raise ExitRule
        if node.sub == "getComment":
            return
        if s.get(f"delayAct.{n}") == "hrs:min:sec":
            seconds = duration(s, f"delayHor.{n}", f"delayMin.{n}", f"delaySec.{n}")
            self.host.spawn_delayed(self, seconds, as_bool(s.get(f"cancelAct.{n}")), n)
            return
        self.act(n)

    async def delay(self, n: int, hours: str, minutes: str, seconds: str) -> None:
        """Action ``n``'s delay from its three fields (``<field>.<n>``), cancelable as its
        ``cancelAct.<n>`` says."""
        s = self.s
        length = duration(s, f"{hours}.{n}", f"{minutes}.{n}", f"{seconds}.{n}")
        if s.get(f"actSubType.{n}") == "getDelay":  # from a variable, random
            length = rule_device_acts.delay_seconds(self, n, length)
        self.cancelable_delay = as_bool(s.get(f"cancelAct.{n}"))
        try:
            await self.host.clock.sleep(length)
        finally:
            self.cancelable_delay = False

    # ------------------------------------------------------------------ simple actions

    def act(self, n: int) -> None:
        """Run one action that does not suspend the run."""
        s, home = self.s, self.host.home
        sub = str(s.get(f"actSubType.{n}") or "")
        if sub == "getOnOffSwitch":
            cmd = "on" if as_bool(s.get(f"onOff.{n}")) else "off"
            self.command(s.get(f"onOffSwitch.{n}"), cmd, [])
        elif sub == "getToggleSwitch":
            for dev_id in id_list(s.get(f"toggleSwitch.{n}")):
                dev = home.state.devices.get(dev_id)
                on = dev is not None and "switch" in dev.attrs and dev.attrs["switch"].value == "on"
                self.command(dev_id, "off" if on else "on", [])
        elif sub == "getSetDimmer":
            self.command(s.get(f"dimA.{n}"), "setLevel", [as_int(s.get(f"dimLA.{n}"))])
        elif sub == "getLULock":
            cmd = "unlock" if as_bool(s.get(f"lockRL.{n}")) else "lock"
            self.command(s.get(f"lockLockUnlock.{n}"), cmd, [])
        elif sub == "getDefinedAction":
            self.command(s.get(f"devices.{n}"), str(s.get(f"cCmd.{n}") or ""), self.params(n))
        elif sub == "getSetMode":
            ids = id_list(s.get(f"mode.{n}"))
            mode = next((m for m in home.state.modes if ids and m.id == ids[0]), None)
            if mode is None:
                self.log("warn", f"set mode: no mode {s.get(f'mode.{n}')}")
            else:
                home.activate_mode(mode)
        elif sub == "getSetVariable":
            self.set_variable(n)
        elif sub == "getMsg":
            self.command(s.get(f"note.{n}"), "deviceNotification", [str(s.get(f"msg.{n}") or "")])
        elif sub == "getLogMsg":
            self.log("info", str(s.get(f"logmsg.{n}") or ""))
        elif sub in ("getHTTPGet", "getHTTPPost", "getPingIP"):  # recorded, never sent
            method = {"getHTTPGet": "GET", "getHTTPPost": "POST"}.get(sub, "PING")
            call = {"rule": str(self.rule.app_id), "method": method}
            call["to"] = str(s.get(f"pingIP.{n}" if sub == "getPingIP" else f"httper.{n}"))
            if sub == "getHTTPPost":
                call["body"] = str(s.get(f"httpPostBody.{n}") or "")
                call["content_type"] = str(s.get(f"httpPostType.{n}") or "")
            home.outbound.append(call)
        elif sub == "getRuleActions":
            for app_id in id_list(s.get(f"ruleAct.{n}")):
                self.host.run_actions(app_id)
        elif sub == "getPauseResumeRules":
            self.host.pause_rules(id_list(s.get(f"pauseRule.{n}")), not as_bool(s.get(f"pR.{n}")))
        elif sub == "getSetPrivateBoolean":  # pvTF is the negation; "*" this rule
            raw = s.get(f"privateT.{n}") or []
            targets = [str(t) for t in (raw if isinstance(raw, list) else [raw])]
            ids = [
                self.rule.app_id if t == "*" else int(t) for t in targets if t.isdigit() or t == "*"
            ]
            self.host.set_private_boolean(ids, not as_bool(s.get(f"pvTF.{n}")))
        elif sub in ("getWriteLocalFile", "getAppendLocalFile"):
            name, text = str(s.get(f"localFile.{n}") or ""), str(s.get(f"fileContents.{n}") or "")
            old = home.files.read(name) if sub == "getAppendLocalFile" else None
            if sub == "getAppendLocalFile" and old is None:
                self.log("warn", f"append to {name}: no such file")
            else:
                home.files.write(name, (old or b"") + text.encode())
        elif sub == "getDeleteLocalFile":
            home.files.delete(str(s.get(f"deleteFile.{n}") or ""))
        elif sub == "getCapture":  # switch and level, as a rule's Restore sets them back
            saved = self.host.captured.setdefault(self.rule.app_id, {})
            for dev_id in id_list(s.get(f"capture.{n}")):
                dev = home.state.devices.get(dev_id)
                if dev is not None:
                    saved[dev_id] = {
                        a: dev.attrs[a].value for a in ("switch", "level") if a in dev.attrs
                    }
        elif sub == "getRestore":
            for dev_id, attrs in self.host.captured.get(self.rule.app_id, {}).items():
                if "level" in attrs and attrs.get("switch") == "on":
                    self.command(dev_id, "setLevel", [as_int(attrs["level"])])
                if "switch" in attrs:
                    self.command(dev_id, "on" if attrs["switch"] == "on" else "off", [])
        elif sub == "getDisable":  # disEn true: Enable (the on-hub server, live)
            for dev_id in id_list(s.get(f"devDisable.{n}")):
                dev = home.state.devices.get(dev_id)
                if dev is not None:
                    dev.disabled = not as_bool(s.get(f"disEn.{n}"))
        elif sub in rule_device_acts.SUBTYPES:
            rule_device_acts.act(self, sub, n)
        elif sub == "getSetHSM":
            alarm = str(s.get(f"alarm.{n}") or "")
            try:
                self.host.home.hsm_command(alarm)
            except ValueError as err:
                self.log("warn", f"set HSM {alarm}: {err}")
        else:
            self.log("warn", f"action {n} ({sub or 'no actSubType'}) is not modelled")

    def params(self, n: int) -> list[object]:
        out: list[object] = []
        p = 2
        while f"cpType{p}.{n}" in self.s:
            kind, raw = self.s.get(f"cpType{p}.{n}"), self.s.get(f"cpVal{p}.{n}")
            if kind == "number":
                out.append(as_int(raw))
            elif kind == "decimal":
                out.append(as_float(raw) or 0.0)
            else:
                out.append("" if raw is None else str(raw))
            p += 1
        return out

    def set_variable(self, n: int) -> None:
        s, home, local = self.s, self.host.home, self.rule.local_vars
        name = str(s.get(f"xVarV.{n}") or "")
        if s.get(f"numOp.{n}") == "variable":
            source = str(s.get(f"xVar3.{n}") or "")
            src = home.state.variables.get(source)
            value: object = None if src is None else src.value
            if source in local:  # the rule's own variables come first
                value = local[source]["value"]
        elif s.get(f"numOp.{n}") in ("device attribute", "variable math"):
            value = rule_device_acts.source_value(self, n)
            hub_var = home.state.variables.get(name)
            if value is not None and hub_var is not None and hub_var.type == "integer":
                value = int(float(str(value)))  # a Number variable keeps a whole number
        else:
            value = s.get(f"valNumber.{n}")
        if name in local and value is not None:
            kind = local[name]["type"]
            try:
                if kind == "integer":
                    value = int(float(str(value)))
                elif kind == "bigdecimal":
                    value = float(str(value))
            except ValueError:
                self.log("warn", f"set variable {name}: {value!r} is not a {kind}")
                return
            local[name]["value"] = value
            return
        if name not in home.state.variables or value is None:
            self.log("warn", f"set variable: no variable {name!r} or value")
            return
        try:
            home.set_variable(name, value)
        except ValueError as err:
            self.log("warn", f"set variable {name}: {err}")

    def command(self, devices: object, cmd: str, args: list[object]) -> None:
        for dev_id in id_list(devices):
            try:
                self.host.home.run_command(
                    dev_id, cmd, args, producer=(self.rule.app_id, self.rule.name)
                )
            except (KeyError, CommandError, UnknownCommand) as err:
                self.log("warn", f"{cmd} on device {dev_id}: {err}")

    def log(self, level: str, msg: str) -> None:
        rule_log(self.host.home, self.rule, level, msg)


def rule_log(home: Home, rule: RuleDefinition, level: str, msg: str) -> None:
    """A hub log line from the rule (an ``app`` line with its id and name)."""
    home.add_log(level, msg, source_type="app", source_id=rule.app_id, name=rule.name)
