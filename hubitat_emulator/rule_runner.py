"""The emulated hub's Rule Machine 5.1 rule runner (a :class:`RuleEngine`).

``RuleRunner.install(rule)`` subscribes a rule's triggers (``tCapab<N>``: device, custom
attribute, button, mode, variable events from the home's eventsocket frames; Certain Time and
Periodic Schedule on the emulated clock), ``remove`` forgets it and everything it set up,
``run_actions`` runs its actions now. A trigger event runs the actions only while the Required
Expression is true; it also cancels a Wait for Events pending in an earlier run (and the rest
of that run). "And stays" triggers fire once the state has held for the time, and are
cancelled when it leaves. Paused and stopped rules are kept but inert.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from typing import Any

from .clock import HUB_TZ
from .emuclock import ClockTimer, EmuClock
from .home import Frame, Home
from .rule_actions import ExitRule, Node, Run, build_tree, rule_log
from .rule_conditions import Conditions, EventSpec, as_float, parse_event
from .rule_definition import RuleDefinition
from .rule_periodic import Cron, CronError
from .sun import sun_times


@dataclass(eq=False)
class _Installed:
    rule: RuleDefinition
    tree: list[Node] = field(default_factory=list)
    triggers: dict[int, EventSpec] = field(default_factory=dict)
    waits: list[EventSpec] = field(default_factory=list)
    runs: set[Run] = field(default_factory=set)
    delayed: dict[asyncio.Task[Any], bool] = field(default_factory=dict)  # task -> cancelable
    timers: dict[int, ClockTimer] = field(default_factory=dict)  # time / periodic triggers
    stays: dict[tuple[object, ...], ClockTimer] = field(default_factory=dict)
    wait_futures: dict[Run, asyncio.Future[None]] = field(default_factory=dict)
    # Wait for Expression: the run, its action, the future an event resolves
    expr_waits: dict[Run, tuple[int, asyncio.Future[None]]] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return not (self.rule.paused or self.rule.stopped)


class RuleRunner:
    """Runs the Rule Machine rules the pages install (see the module docstring)."""

    def __init__(self, home: Home, clock: EmuClock) -> None:
        self.home = home
        self.clock = clock
        self.rules: dict[int, _Installed] = {}
        self.private: dict[int, bool] = {}  # each rule's private boolean (true until set)
        self.captured: dict[int, dict[int, dict[str, object]]] = {}  # Capture, by rule
        # pause (True) or resume (False) a rule as its page's Pause button does (the pages
        # set it: hub.py)
        self.pause_hook: Callable[[int, bool], None] | None = None
        self.private_hook: Callable[[int, bool], None] | None = None  # shown in appState
        self.conditions = Conditions(home.state, clock.now, self.sun_times)
        home.event_listeners.append(self._on_frame)
        clock.jump_listeners.append(self._replan)

    def sun_times(self, day: date) -> tuple[datetime, datetime]:
        """(sunrise, sunset) on the local date ``day`` at the hub's location."""
        st = self.home.state
        return sun_times(day, st.latitude, st.longitude, HUB_TZ)

    # ------------------------------------------------------------------ RuleEngine

    def install(self, rule: RuleDefinition) -> None:
        self.remove(rule.app_id)
        rec = _Installed(rule)
        self.rules[rule.app_id] = rec
        if not rec.active:
            return
        s = rule.settings
        rec.tree = build_tree(rule)
        for n in rule.triggers:
            spec = parse_event(s, _suffix(str(n)))
            if spec is not None:
                rec.triggers[n] = spec
        for e in rule.wait_events:
            spec = parse_event(s, _suffix(f"-{e}"))
            if spec is not None:
                rec.waits.append(spec)
        self._schedule(rec)

    def remove(self, app_id: int) -> None:
        rec = self.rules.pop(app_id, None)
        if rec is None:
            return
        for timer in [*rec.timers.values(), *rec.stays.values()]:
            timer.cancel()
        rec.timers.clear()
        rec.stays.clear()
        for run in list(rec.runs):
            if run.task is not None:
                run.task.cancel()
        for task in list(rec.delayed):
            task.cancel()
        for fut in rec.wait_futures.values():
            fut.cancel()

    def run_actions(self, app_id: int) -> None:
        rec = self.rules.get(app_id)
        if rec is not None and rec.active:
            self._start(rec)

    def shutdown(self) -> None:
        """Forget every rule (the emulator stops)."""
        for app_id in list(self.rules):
            self.remove(app_id)

    # ------------------------------------------------------------------ runs (RunHost)

    def expression_true(self, rule: RuleDefinition, n: int) -> bool:
        tokens = rule.action_expressions.get(n)
        if not tokens:
            return False  # RM shows "IF (**Broken Condition**)"
        return self.conditions.expression(
            rule.settings, tokens, rule.local_vars, private=self.private.get(rule.app_id, True)
        )

    def set_private_boolean(self, app_ids: list[int], value: bool) -> None:
        for app_id in app_ids:
            self.private[app_id] = value
            if self.private_hook is not None:
                self.private_hook(app_id, value)

    def pause_rules(self, app_ids: list[int], paused: bool) -> None:
        for app_id in app_ids:
            if self.pause_hook is not None:
                self.pause_hook(app_id, paused)

    def cancel_timers(self, app_ids: list[int], keep: Run) -> None:
        """Cancel Rule Timers: the rules' delays, waits, repeats and fades (not the run that
        asks)."""
        for app_id in app_ids:
            rec = self.rules.get(app_id)
            if rec is None:
                continue
            for run in list(rec.runs):
                if run is not keep and run.task is not None:
                    run.task.cancel()
            for task in list(rec.delayed):
                task.cancel()

    def spawn_background(self, run: Run, work: Coroutine[Any, Any, None]) -> None:
        """Work that goes on after the action (a fade), ended with the rule's timers."""
        rec = self.rules.get(run.rule.app_id)
        if rec is None:
            work.close()
            return

        async def go() -> None:
            try:
                await work
            finally:
                rec.delayed.pop(task, None)

        task = self.home.tasks.spawn(go())
        rec.delayed[task] = False

    def cancel_delays(self, app_id: int, keep: Run) -> None:
        rec = self.rules.get(app_id)
        if rec is None:
            return
        for run in list(rec.runs):
            if run is not keep and run.cancelable_delay and run.task is not None:
                run.task.cancel()
        for task, cancelable in list(rec.delayed.items()):
            if cancelable:
                task.cancel()

    def spawn_delayed(self, run: Run, seconds: float, cancelable: bool, n: int) -> None:
        rec = self.rules.get(run.rule.app_id)
        if rec is None:
            return

        async def later() -> None:
            try:
                await self.clock.sleep(seconds)
                run.act(n)
            finally:
                rec.delayed.pop(task, None)

        task = self.home.tasks.spawn(later())
        rec.delayed[task] = cancelable

    async def wait_for_events(self, run: Run) -> None:
        rec = self.rules.get(run.rule.app_id)
        if rec is None or not rec.waits:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        rec.wait_futures[run] = fut
        try:
            await fut
        finally:
            rec.wait_futures.pop(run, None)
            for key in [k for k in rec.stays if k[0] is run]:
                rec.stays.pop(key).cancel()

    async def wait_for_expression(self, run: Run, n: int, timeout: float | None) -> None:
        """Until action ``n``'s expression is true (checked now and on every event), or the
        timeout on the hub's clock."""
        rec = self.rules.get(run.rule.app_id)
        if rec is None or self.expression_true(run.rule, n):
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        rec.expr_waits[run] = (n, fut)
        timer = None if timeout is None else self.clock.call_later(timeout, partial(_resolve, fut))
        try:
            await fut
        finally:
            rec.expr_waits.pop(run, None)
            if timer is not None:
                timer.cancel()

    def _start(self, rec: _Installed) -> Run:
        run = Run(rec.rule, self)

        async def go() -> None:
            try:
                await run.execute(rec.tree)
            except ExitRule:
                pass  # Exit Rule: the rest of the actions do not run
            except asyncio.CancelledError:
                raise
            except Exception as err:  # a broken rule logs, like RM, and the hub goes on
                run.log("error", f"{rec.rule.name}: {err!r}")
            finally:
                rec.runs.discard(run)

        rec.runs.add(run)
        run.task = self.home.tasks.spawn(go())
        return run

    def _fire(self, rec: _Installed, n: int) -> None:
        """Trigger ``n`` fired: run the actions if the Required Expression allows."""
        if self.rules.get(rec.rule.app_id) is not rec or not rec.active:
            return
        if not self._gate_open(rec, n):
            return
        if not self.conditions.expression(
            rec.rule.settings,
            rec.rule.required,
            rec.rule.local_vars,
            private=self.private.get(rec.rule.app_id, True),
        ):
            return
        if "Triggers" in str(rec.rule.settings.get("logging") or ""):
            rule_log(self.home, rec.rule, "info", f"{rec.rule.name}: trigger {n}")
        waiting = [*rec.wait_futures.items(), *((r, f) for r, (_a, f) in rec.expr_waits.items())]
        for run, fut in waiting:
            if not fut.done() and run.task is not None:
                run.task.cancel()  # a new trigger event ends a pending wait and its run
        self._start(rec)

    def _gate_open(self, rec: _Installed, n: int) -> bool:
        """A conditional trigger's condition (``isCondTrig.<N>`` true, ``condTrig.<N>`` its
        number), tested when the trigger fires: false, the event is let go (the on-hub server's
        matrix: "evaluated AFTER the trigger event")."""
        s = rec.rule.settings
        gate = str(s.get(f"condTrig.{n}") or "")
        if s.get(f"isCondTrig.{n}") is not True or not gate.isdigit():
            return True
        return self.conditions.expression(
            s, [int(gate)], rec.rule.local_vars, private=self.private.get(rec.rule.app_id, True)
        )

    # ------------------------------------------------------------------ events

    def _on_frame(self, frame: Frame) -> None:
        for rec in list(self.rules.values()):
            if not rec.active:
                continue
            try:
                self._on_rule_frame(rec, frame)
            except Exception as err:  # a broken rule never breaks the event that reached it
                rule_log(self.home, rec.rule, "error", f"{rec.rule.name}: {err!r}")

    def _on_rule_frame(self, rec: _Installed, frame: Frame) -> None:
        for n, spec in list(rec.triggers.items()):
            self._check(rec, spec, frame, ("trigger", n), partial(self._fire, rec, n))
        for a, waiting in list(rec.expr_waits.values()):
            if not waiting.done() and self.expression_true(rec.rule, a):
                waiting.set_result(None)  # Wait for Expression: the expression is true now
        for run, fut in list(rec.wait_futures.items()):
            for i, spec in enumerate(rec.waits):
                if fut.done():
                    break
                self._check(rec, spec, frame, (run, i), partial(_resolve, fut))

    def _check(
        self,
        rec: _Installed,
        spec: EventSpec,
        frame: Frame,
        key: tuple[object, ...],
        hit: Callable[[], None],
    ) -> None:
        verdict = self._match(spec, frame)
        if verdict is None:
            return
        dev_key = (*key, frame.get("deviceId"))
        if not verdict:
            timer = rec.stays.pop(dev_key, None)
            if timer is not None:
                timer.cancel()  # the state left before the time was up
            return
        if spec.stays <= 0:
            hit()
            return
        if dev_key in rec.stays:
            return

        def stayed() -> None:
            rec.stays.pop(dev_key, None)
            hit()

        rec.stays[dev_key] = self.clock.call_later(spec.stays, stayed)

    def _match(self, spec: EventSpec, frame: Frame) -> bool | None:
        """True: the event is one the spec waits for; False: an event of the same attribute
        that is not (it ends an "and stays"); None: unrelated."""
        source, name, value = frame.get("source"), frame.get("name"), frame.get("value")
        if spec.kind in ("device", "button"):
            if source != "DEVICE" or name != spec.attr:
                return None
            if frame.get("deviceId") not in spec.devices:
                return None
            if spec.kind == "button":
                return as_float(value) == as_float(spec.state)
            if not spec.matches_value(value):
                return False
            if spec.all_devices:
                return all(
                    spec.matches_value(self.conditions.device_value(d, spec.attr))
                    for d in spec.devices
                )
            return True
        if source != "LOCATION":
            return None
        if spec.kind == "mode" and name == "mode":
            mode = self.home.state.mode_by_name(str(value))
            return mode is not None and mode.id in spec.modes
        if spec.kind == "variable" and name == f"variable:{spec.variable}":
            return spec.matches_value(value)
        return None

    # ------------------------------------------------------------------ time

    def _schedule(self, rec: _Installed) -> None:
        for n, spec in rec.triggers.items():
            if spec.kind in ("time", "periodic"):
                self._plan(rec, n, spec)

    def _plan(self, rec: _Installed, n: int, spec: EventSpec) -> None:
        old = rec.timers.pop(n, None)
        if old is not None:
            old.cancel()
        now = self.clock.now()
        if spec.at is not None:  # a dated Certain Time: once, never when it has passed
            if spec.at <= now:
                return
            when = spec.at
        elif spec.when is not None:
            when = spec.when.next_after(now, self.sun_times)
        elif spec.cron is not None:  # a Periodic Schedule (rule_periodic)
            try:
                found = Cron.parse(spec.cron).next_after(now)
            except CronError:
                return  # a cron string the hub would refuse schedules nothing
            if found is None:
                return
            when = found
        else:
            return

        def due() -> None:
            rec.timers.pop(n, None)
            if self.rules.get(rec.rule.app_id) is rec:
                self._plan(rec, n, spec)  # the next occurrence first (daily / periodic)
                self._fire(rec, n)

        rec.timers[n] = self.clock.call_at(when, due)

    def _replan(self) -> None:
        """The clock jumped: plan every time and periodic trigger again from the new now."""
        for rec in self.rules.values():
            if rec.active:
                self._schedule(rec)


def _suffix(tail: str) -> Callable[[str], str]:
    def key(name: str) -> str:
        return f"{name}{tail}"

    return key


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
