"""Rule and automation health across the hub: what keeps a rule from doing its job.

One pass over every Rule Machine rule and Visual Rule (or one of them) answers findings, each
naming the rule, the evidence and the fix:
- ``broken``: BROKEN markers on the rule's page, Rule Machine's compiled broken flag, a page
  error, Visual Rule validation errors (the per-rule health read);
- ``device_missing`` / ``device_disabled``: a device the rule names is gone or disabled;
- ``never_runs``: its restriction to some modes excludes every mode its trigger fires on
  (triggered by Night, restricted to Day and Evening);
- ``errors``: error lines the rule wrote to the hub's log in the last day;
- ``conflict``: another rule on the same trigger commands one of its devices the opposite
  way (on/off, lock/unlock, open/close);
- ``runs_inactive_rule``: it runs, resumes or sets the private boolean of a rule that is
  disabled or paused;
- ``variable_undefined``: it uses a hub variable the hub does not have (and that is not one
  of its local variables).
What the rule's page shows is read as the hub writes it (the rule's text, its settings as a
spec); a rule that cannot be read is itself a finding (``unreadable``), never a silent pass.
Rules whose trigger fired but that have not run are not judged: the hub keeps no per-rule
run history the LAN can read apart from its logs, which ``errors`` already reads.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from ..errors import ToolError
from ..hub.apps import InstalledApp
from ..hub.errors import HubError

ERROR_WINDOW = timedelta(hours=24)
RUN_WINDOW = timedelta(days=3)  # how far back "its trigger fired but it did not run" looks
RUN_GRACE = timedelta(minutes=10)  # a firing this recent may still be running
PARALLEL_READS = 3
CACHE_S = 60.0  # a summary (home, device health) reuses a pass this recent
OPPOSITE = {
    "on": "off",
    "off": "on",
    "lock": "unlock",
    "unlock": "lock",
    "open": "close",
    "close": "open",
}
# Triggers whose rule should not be held back by modes (a leak, smoke, CO).
SAFETY_ATTRIBUTES = frozenset({"water", "smoke", "carbonmonoxide", "tamper"})
SAFETY_WORDS = (" wet", "leak", "smoke", "carbon monoxide", "siren")
_MODES_RESTRICT = re.compile(r"only (?:in|during) modes?[:\s]+(.+)$", re.I)
_MODE_TRIGGER = re.compile(r"mode (?:becomes|is)\s+(.+)$", re.I)

_DEVICE_KEYS = frozenset(
    {"device_id", "device_ids", "button_device_id", "capture", "disable_devices", "enable_devices"}
)
ReadRule = Callable[[str], Awaitable[Mapping[str, Any]]]
RuleHealth = Callable[[str], Awaitable[Mapping[str, Any]]]
Tree = Callable[[], Awaitable[list[InstalledApp]]]
DeviceStates = Callable[[], Awaitable[dict[str, bool]]]  # id -> disabled
VariableNames = Callable[[], Awaitable[set[str] | None]]  # None: cannot be read
ErrorLines = Callable[[datetime], Awaitable[list[Mapping[str, Any]]]]
Paused = Callable[[], Awaitable[dict[str, bool]]]  # rule id -> paused
# app id -> times of its log lines since (newest first)
AppLines = Callable[[datetime], Awaitable[dict[str, list[datetime]]]]
# when a trigger fired since: ("device", id, attribute, value) or ("mode", name)
Fired = Callable[[tuple[str, ...], datetime], Awaitable[list[datetime]]]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem of one rule."""

    app_id: str
    rule: str
    kind: str
    evidence: str
    fix: str
    devices: tuple[str, ...] = ()  # devices the evidence names by id

    def as_dict(self) -> dict[str, str]:
        """JSON-safe data."""
        return {
            "app_id": self.app_id,
            "rule": self.rule,
            "kind": self.kind,
            "evidence": self.evidence,
            "fix": self.fix,
        }


class Checked(NamedTuple):
    """A pass: its findings, how many rules it checked, and (one rule) its page health."""

    findings: list[Finding]
    checked: int
    page: Mapping[str, Any] | None


@dataclass(slots=True)
class _Rule:
    app: InstalledApp
    spec: Mapping[str, Any] = field(default_factory=dict)
    text: list[str] = field(default_factory=list)
    health: Mapping[str, Any] = field(default_factory=dict)
    devices: set[str] = field(default_factory=set)


def _split_names(text: str) -> list[str]:
    return [n.strip().strip(".") for n in re.split(r",|\bor\b|\band\b", text) if n.strip()]


def _walk_actions(actions: Iterable[Any]) -> Iterable[Mapping[str, Any]]:
    for action in actions:
        if not isinstance(action, Mapping):
            continue
        yield action
        for key in ("then", "else", "do"):
            yield from _walk_actions(action.get(key) or [])
        for branch in action.get("else_if") or []:
            if isinstance(branch, Mapping):
                yield from _walk_actions(branch.get("then") or [])


def _walk_conditions(cond: Any) -> Iterable[Mapping[str, Any]]:
    if isinstance(cond, Mapping):
        yield cond
        for key in ("not", "all", "any", "if", "wait_until", "repeat_while"):
            sub = cond.get(key)
            if isinstance(sub, list):
                for item in sub:
                    yield from _walk_conditions(item)
            elif isinstance(sub, Mapping):
                yield from _walk_conditions(sub)
    elif isinstance(cond, list):
        for item in cond:
            yield from _walk_conditions(item)


def _spec_devices(spec: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()

    def add(value: Any) -> None:
        if isinstance(value, list):
            for v in value:
                add(v)
        elif value is not None and str(value).strip().isdigit():
            out.add(str(value).strip())

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key in _DEVICE_KEYS:
                    add(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(spec)
    return out


def _trigger_keys(spec: Mapping[str, Any]) -> set[tuple[str, ...]]:
    keys: set[tuple[str, ...]] = set()
    for trig in spec.get("triggers") or []:
        if not isinstance(trig, Mapping):
            continue
        if trig.get("device_id") is not None:
            keys.add(("device", str(trig["device_id"]), str(trig.get("attribute"))))
        elif trig.get("mode"):
            keys.update(("mode", str(m).lower()) for m in trig["mode"])
        elif trig.get("time"):
            keys.add(("time", str(trig["time"])))
        elif trig.get("sun"):
            keys.add(("sun", str(trig["sun"]), str(trig.get("offset_minutes") or 0)))
        elif trig.get("variable"):
            keys.add(("variable", str(trig["variable"])))
    return keys


def _firing_keys(spec: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """The triggers whose firings the hub records: a device attribute becoming a value, or
    a mode becoming active."""
    keys: list[tuple[str, ...]] = []
    for trig in spec.get("triggers") or []:
        if not isinstance(trig, Mapping):
            continue
        value = trig.get("is")
        if trig.get("device_id") is not None and trig.get("attribute") and value is not None:
            key = ("device", str(trig["device_id"]), str(trig["attribute"]), str(value))
            keys.append(key)
        elif trig.get("mode"):
            keys.extend(("mode", str(m)) for m in trig["mode"])
    return keys


def _commands(spec: Mapping[str, Any]) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for action in _walk_actions(spec.get("actions") or []):
        command = action.get("command")
        if isinstance(command, str) and command in OPPOSITE:
            for device in action.get("device_ids") or []:
                out.add((str(device), command))
    return out


class RuleChecks:
    """Findings over the hub's rules (reads only; collaborators passed in, narrow)."""

    def __init__(
        self,
        *,
        tree: Tree,
        read_rule: ReadRule,
        rule_health: RuleHealth,
        devices: DeviceStates,
        variables: VariableNames,
        errors: ErrorLines,
        paused: Paused,
        modes: Callable[[], Awaitable[list[str]]],
        app_lines: AppLines | None = None,
        fired: Fired | None = None,
    ) -> None:
        self._tree = tree
        self._read_rule = read_rule
        self._rule_health = rule_health
        self._devices = devices
        self._variables = variables
        self._errors = errors
        self._paused = paused
        self._modes = modes
        self._app_lines = app_lines
        self._fired = fired
        self._last: tuple[float, list[Finding], int] | None = None

    async def check(self, app_id: str | None = None) -> Checked:
        """Findings for every rule (or one), how many rules were checked, and (one rule)
        the page health read for it."""
        apps = await self._tree()
        rules = [a for a in apps if a.is_rm_rule or a.is_visual_rule]
        if app_id is not None:
            chosen = [a for a in rules if a.id == app_id]
            if not chosen:
                known = any(a.id == app_id for a in apps)
                raise ToolError(
                    f"App {app_id} is not a Rule Machine rule or Visual Rule."
                    if known
                    else f"The hub has no app {app_id}.",
                    code="invalid_request" if known else "not_found",
                    subject="not_rule",
                )
        else:
            chosen = rules
        gate = asyncio.Semaphore(PARALLEL_READS)
        findings: list[Finding] = []

        async def read(app: InstalledApp, *, health: bool = True) -> _Rule:
            rule = _Rule(app)
            async with gate:
                try:
                    if health:
                        rule.health = await self._rule_health(app.id)
                    if app.is_rm_rule:
                        got = await self._read_rule(app.id)
                        spec = got.get("spec")
                        rule.spec = spec if isinstance(spec, Mapping) else {}
                        rule.text = [str(t) for t in got.get("rule_text") or []]
                except (HubError, ToolError) as err:
                    findings.append(
                        Finding(
                            app.id,
                            app.name,
                            "unreadable",
                            f"Its page could not be read: {err}",
                            "Open the rule in the hub's UI; if it does not open, re-create it.",
                        )
                    )
            rule.devices = _spec_devices(rule.spec) | {
                str(d) for d in rule.health.get("device_ids") or []
            }
            return rule

        read_rules = list(await asyncio.gather(*(read(a) for a in chosen)))
        everything = read_rules
        if app_id is not None:
            mine = read_rules[0].spec
            if _trigger_keys(mine) and _commands(mine):
                # a conflict needs the other rules' specs (not their pages' health)
                others = [a for a in rules if a.id != app_id and a.is_rm_rule]
                everything = read_rules + list(
                    await asyncio.gather(*(read(a, health=False) for a in others))
                )
            findings = [f for f in findings if f.app_id == app_id]
        states, names, since, modes = await asyncio.gather(
            self._devices(), self._variables(), self._since(), self._safe_modes()
        )
        errors = await self._safe_errors(since)
        paused = await self._safe_paused()
        # running another rule needs only its app entry (disabled) and the paused flags
        by_id = {a.id: _Rule(a) for a in rules} | {r.app.id: r for r in everything}
        lines = await self._safe_app_lines()
        fired: dict[tuple[str, ...], list[datetime] | None] = {}  # one read per trigger
        for rule in read_rules:
            findings.extend(self._broken(rule))
            findings.extend(self._devices_of(rule, states))
            never = self._never_runs(rule, modes)
            findings.extend(never)
            if not never and not rule.app.disabled and not paused.get(rule.app.id):
                findings.extend(await self._not_running(rule, lines, fired))
            findings.extend(self._errors_of(rule, errors))
            findings.extend(self._conflicts(rule, everything))
            findings.extend(self._runs_inactive(rule, by_id, paused))
            findings.extend(self._variables_of(rule, names))
        findings.sort(key=lambda f: (f.rule.lower(), f.app_id, f.kind))
        if app_id is None:
            self._last = (time.monotonic(), findings, len(chosen))
            return Checked(findings, len(chosen), None)
        return Checked(findings, len(chosen), read_rules[0].health)

    async def summary(self) -> list[dict[str, Any]]:
        """Rules with findings (kinds only), from a pass at most CACHE_S old."""
        if self._last is None or time.monotonic() - self._last[0] > CACHE_S:
            await self.check()
        assert self._last is not None
        by_rule: dict[str, dict[str, Any]] = {}
        for f in self._last[1]:
            entry = by_rule.setdefault(f.app_id, {"app_id": f.app_id, "rule": f.rule, "kinds": []})
            if f.kind not in entry["kinds"]:
                entry["kinds"].append(f.kind)
        return list(by_rule.values())

    def forget(self) -> None:
        """Drop the cached pass (after a write)."""
        self._last = None

    # ---- collaborators that may fail without failing the check

    async def _since(self) -> datetime:
        return datetime.now(UTC) - ERROR_WINDOW

    async def _safe_app_lines(self) -> dict[str, list[datetime]] | None:
        if self._app_lines is None:
            return None
        try:
            return await self._app_lines(datetime.now(UTC) - RUN_WINDOW)
        except (HubError, ToolError):
            return None

    async def _not_running(
        self,
        rule: _Rule,
        lines: dict[str, list[datetime]] | None,
        fired: dict[tuple[str, ...], list[datetime] | None],
    ) -> list[Finding]:
        """Its trigger fired, more than once, after the rule's last log line, while the rule
        is known to log (it logged in the window): it did not run. A rule that logs nothing
        at all (its logging off) is not judged: no evidence either way."""
        if lines is None or self._fired is None:
            return []
        own = lines.get(rule.app.id) or []
        if not own:
            return []
        last_line = max(own)
        now = datetime.now(UTC)
        for key in _firing_keys(rule.spec):
            if key not in fired:
                try:
                    fired[key] = await self._fired(key, now - RUN_WINDOW)
                except (HubError, ToolError):
                    fired[key] = None
            times = fired[key]
            if times is None:
                continue
            missed = sorted(t for t in times if last_line < t < now - RUN_GRACE)
            if len(missed) < 2:
                continue
            what = f"mode {key[1]}" if key[0] == "mode" else f"device {key[1]} {key[2]} {key[3]}"
            return [
                Finding(
                    rule.app.id,
                    rule.app.name,
                    "not_running",
                    f"Its trigger ({what}) fired {len(missed)} times since its last log line "
                    f"({last_line.isoformat(timespec='minutes')}), the last at "
                    f"{missed[-1].isoformat(timespec='minutes')}, and it logged nothing "
                    "since, though it logs when it runs.",
                    "Read the rule (its restrictions, required expression and conditions) "
                    "and the hub's log around that time; a paused or stopped rule, or a "
                    "condition that never holds, keeps it from running.",
                    (key[1],) if key[0] == "device" else (),
                )
            ]
        return []

    async def _safe_errors(self, since: datetime) -> list[Mapping[str, Any]]:
        try:
            return await self._errors(since)
        except (HubError, ToolError):
            return []

    async def _safe_modes(self) -> list[str]:
        try:
            return await self._modes()
        except (HubError, ToolError):
            return []

    async def _safe_paused(self) -> dict[str, bool]:
        try:
            return await self._paused()
        except (HubError, ToolError):
            return {}

    # ---- the checks

    @staticmethod
    def _broken(rule: _Rule) -> list[Finding]:
        h = rule.health
        parts: list[str] = []
        if h.get("broken_markers"):
            parts.append("its page shows " + "; ".join(str(m) for m in h["broken_markers"][:3]))
        if h.get("compiled_broken"):
            parts.append("Rule Machine flags it broken")
        if h.get("page_error"):
            parts.append(f"its page shows the error {h['page_error']!r}")
        if h.get("validation_errors"):
            parts.append("validation errors: " + "; ".join(map(str, h["validation_errors"][:3])))
        if h.get("node_problems"):
            parts.append("node problems: " + "; ".join(map(str, h["node_problems"][:3])))
        if not parts:
            return []
        return [
            Finding(
                rule.app.id,
                rule.app.name,
                "broken",
                "; ".join(parts),
                "Open the rule, pick the missing or replaced devices again and save it "
                "(a rule edit with the devices, or the hub's UI).",
            )
        ]

    @staticmethod
    def _devices_of(rule: _Rule, states: Mapping[str, bool]) -> list[Finding]:
        out = []
        for device in sorted(rule.devices, key=int):
            if device not in states:
                out.append(
                    Finding(
                        rule.app.id,
                        rule.app.name,
                        "device_missing",
                        f"It names device {device}, which the hub no longer has.",
                        "Point the rule at the device that replaced it, or remove that part.",
                        (device,),
                    )
                )
            elif states[device]:
                out.append(
                    Finding(
                        rule.app.id,
                        rule.app.name,
                        "device_disabled",
                        f"It uses device {device}, which is disabled: the rule neither hears "
                        "nor commands it.",
                        "Enable the device, or change the rule.",
                        (device,),
                    )
                )
        return out

    @staticmethod
    def _never_runs(rule: _Rule, modes: list[str]) -> list[Finding]:
        allowed: dict[str, str] = {}
        for line in rule.text:
            m = _MODES_RESTRICT.search(line)
            if m:
                allowed.update((n.lower(), n) for n in _split_names(m.group(1)))
        if not allowed:
            return []
        triggers: dict[str, str] = {}
        for trig in rule.spec.get("triggers") or []:
            if isinstance(trig, Mapping) and trig.get("mode"):
                triggers.update((str(m).lower(), str(m)) for m in trig["mode"])
        for line in rule.text:
            if line.lower().startswith("trigger") or "mode becomes" in line.lower():
                m = _MODE_TRIGGER.search(line.split(":", 1)[-1])
                if m:
                    triggers.update((n.lower(), n) for n in _split_names(m.group(1)))
        shown = ", ".join(sorted(allowed.values()))
        if triggers and not set(triggers) & set(allowed):
            return [
                Finding(
                    rule.app.id,
                    rule.app.name,
                    "never_runs",
                    f"It is triggered by mode {', '.join(sorted(triggers.values()))} but "
                    f"restricted to modes {shown}: whenever its trigger fires, the "
                    "restriction holds it back, so it never runs.",
                    "Add the trigger's mode to the restriction, or remove the restriction.",
                )
            ]
        text = " ".join(rule.text).lower()
        attributes = {
            str(t.get("attribute")).lower()
            for t in rule.spec.get("triggers") or []
            if isinstance(t, Mapping)
        }
        safety = attributes & SAFETY_ATTRIBUTES or any(w in text for w in SAFETY_WORDS)
        left_out = [m for m in modes if m.lower() not in allowed]
        if safety and left_out:
            return [
                Finding(
                    rule.app.id,
                    rule.app.name,
                    "restricted",
                    f"It reacts to a safety event but only in modes {shown}: in "
                    f"{', '.join(left_out)} it does nothing.",
                    "Remove the mode restriction from a safety rule (an alarm should sound "
                    "at night and when away).",
                )
            ]
        return []

    @staticmethod
    def _errors_of(rule: _Rule, errors: list[Mapping[str, Any]]) -> list[Finding]:
        own = [e for e in errors if str(e.get("source_id")) == rule.app.id]
        if not own:
            return []
        first = (str(own[0].get("message") or "").strip().splitlines() or [""])[0][:200]
        return [
            Finding(
                rule.app.id,
                rule.app.name,
                "errors",
                f"{len(own)} error line(s) in the hub's log in the last day; the newest: {first}",
                "Read the rule's own log lines; an error on a null value usually means a "
                "device or variable it reads is gone.",
            )
        ]

    @staticmethod
    def _conflicts(rule: _Rule, everything: list[_Rule]) -> list[Finding]:
        mine_t, mine_c = _trigger_keys(rule.spec), _commands(rule.spec)
        if not mine_t or not mine_c:
            return []
        out = []
        for other in everything:
            if other.app.id == rule.app.id:
                continue
            if not (mine_t & _trigger_keys(other.spec)):
                continue
            theirs = _commands(other.spec)
            clash = sorted((d, c) for d, c in mine_c if (d, OPPOSITE[c]) in theirs)
            if clash:
                device, command = clash[0]
                out.append(
                    Finding(
                        rule.app.id,
                        rule.app.name,
                        "conflict",
                        f"On the same trigger, it sends {command} to device {device} and "
                        f"rule {other.app.id} ({other.app.name}) sends "
                        f"{OPPOSITE[command]}: which one wins depends on timing.",
                        "Merge the two rules, or give them triggers or conditions that "
                        "cannot hold at once.",
                        (device,),
                    )
                )
        return out

    @staticmethod
    def _runs_inactive(
        rule: _Rule, by_id: Mapping[str, _Rule], paused: Mapping[str, bool]
    ) -> list[Finding]:
        out = []
        for action in _walk_actions(rule.spec.get("actions") or []):
            for key in ("run_rule", "resume_rules", "rule_ids"):
                for target in action.get(key) or []:
                    target_id = str(target)
                    other = by_id.get(target_id)
                    if other is None:
                        why = "which the hub no longer has"
                    elif other.app.disabled:
                        why = "which is disabled"
                    elif paused.get(target_id) and key == "run_rule":
                        why = "which is paused"
                    else:
                        continue
                    name = f" ({other.app.name})" if other else ""
                    out.append(
                        Finding(
                            rule.app.id,
                            rule.app.name,
                            "runs_inactive_rule",
                            f"It runs rule {target_id}{name}, {why}: that part does nothing.",
                            "Enable or resume that rule, or remove the action.",
                        )
                    )
        return out

    @staticmethod
    def _variables_of(rule: _Rule, names: set[str] | None) -> list[Finding]:
        if names is None:
            return []
        local = {
            str(v.get("name"))
            for v in rule.spec.get("local_variables") or []
            if isinstance(v, Mapping)
        }
        used: set[str] = set()
        for cond in _walk_conditions(
            [*(rule.spec.get("triggers") or []), rule.spec.get("conditions") or {}]
        ):
            if cond.get("variable"):
                used.add(str(cond["variable"]))
        for action in _walk_actions(rule.spec.get("actions") or []):
            for key in ("set_variable", "from_variable"):
                if isinstance(action.get(key), str):
                    used.add(action[key])
            for cond in _walk_conditions(action):
                if cond.get("variable"):
                    used.add(str(cond["variable"]))
        missing = sorted(v for v in used if v not in names and v not in local)
        return [
            Finding(
                rule.app.id,
                rule.app.name,
                "variable_undefined",
                f"It uses the variable {v!r}, which is neither a hub variable nor one of its "
                "local variables.",
                "Create the hub variable, or fix the name in the rule.",
            )
            for v in missing
        ]
