"""Why did a device do something: an event, what produced it, and what that reacted to.

Where the hub records the producer it is used as recorded: a command event (``command-on``,
type ``command``) just before the state event carries ``producedBy``, a link to the app that
called the command (the hub's device events; see ``hub/events.parse_produced_by``); a state
event of type ``physical`` was made at the device itself. Where the hub records nothing, the
candidates in a short window before the event are ranked with their evidence: this
integration's own audited commands, the apps and rules that use the device (their app
events, and their log lines naming the device), each with a confidence. A rule found as the
producer is followed one link back: its triggers (from its spec) are looked up among their
devices' events just before, and explained the same way, a few links deep.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from ..errors import ToolError
from ..hub.controllers import DevicesController, EventsController, LogsController
from ..hub.errors import HubError, HubNotFoundError
from ..hub.events import Producer, parse_produced_by
from ..hub.models import parse_hub_time
from ..redact import LOCK_CODE_ATTRIBUTES, redact_lock_codes, redact_text

COMMAND_WINDOW = timedelta(seconds=15)  # a command event this long before its state event
CANDIDATE_WINDOW = timedelta(minutes=2)  # unrecorded: what acted in this window before
TRIGGER_WINDOW = timedelta(minutes=30)  # a rule's trigger this long before its action
MAX_DEPTH = 3  # links followed back
MAX_APPS = 8  # apps using the device whose events are read

AuditCommands = Callable[[str, datetime, datetime], list[Mapping[str, Any]]]
ReadRule = Callable[[str], Awaitable[Mapping[str, Any]]]
AppsUsing = Callable[[str], Awaitable[list[Mapping[str, Any]]]]
Labels = Callable[[], Awaitable[dict[str, str]]]


@dataclass(slots=True)
class _Event:
    device_id: str
    name: str
    value: Any
    when: datetime
    type: str | None
    description: str | None
    producer: Producer | None = None

    def as_dict(self, label: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "device_id": self.device_id,
            "device": label,
            "attribute": self.name,
            "value": self.value,
            "time": self.when.isoformat(timespec="seconds"),
        }
        if self.type:
            out["type"] = self.type
        if self.description:
            out["description"] = self.description
        return out


@dataclass(slots=True)
class _Cause:
    kind: str  # app | device | physical | this_integration | other | unknown
    name: str
    confidence: str  # recorded | likely | possible | unknown
    evidence: list[str] = field(default_factory=list)
    app_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "confidence": self.confidence,
            "evidence": self.evidence,
        }
        if self.app_id is not None:
            out["app_id"] = self.app_id
        return out


def _events(raw: list[dict[str, Any]], device_id: str) -> list[_Event]:
    out = []
    for ev in raw:
        when = parse_hub_time(ev.get("date"))
        if when is None:
            continue
        name = str(ev.get("name") or "")
        value = ev.get("value")
        if name.lower() in LOCK_CODE_ATTRIBUTES:
            value = redact_lock_codes(value)  # slots and names kept, codes never shown
        out.append(
            _Event(
                device_id,
                name,
                value,
                when,
                str(ev["type"]) if ev.get("type") not in (None, "", "null") else None,
                redact_text(str(ev["descriptionText"])) if ev.get("descriptionText") else None,
                parse_produced_by(ev.get("producedBy")),
            )
        )
    return sorted(out, key=lambda e: e.when, reverse=True)


class EventCauses:
    """Explains device events (reads only; collaborators passed in)."""

    def __init__(
        self,
        devices: DevicesController,
        events: EventsController,
        logs: LogsController,
        *,
        labels: Labels,
        apps_using: AppsUsing,
        read_rule: ReadRule,
    ) -> None:
        self._devices = devices
        self._events = events
        self._logs = logs
        self._labels = labels
        self._apps_using = apps_using
        self._read_rule = read_rule

    async def explain(
        self,
        device_id: str,
        *,
        attribute: str | None,
        value: str | None,
        at: datetime | None,
        audit: AuditCommands,
    ) -> dict[str, Any]:
        """The event (the newest matching one, or the one nearest ``at``), its producer and
        what that producer reacted to."""
        labels = await self._labels()
        if device_id not in labels:
            raise ToolError(
                f"No device {device_id} on the hub.",
                code="not_found",
                subject="device",
            )
        events = await self._device_events(device_id)
        target = _pick(events, attribute, value, at)
        if target is None:
            what = " ".join(x for x in (attribute, value) if x) or "state"
            raise ToolError(
                f"{labels[device_id]} ({device_id}) has no {what} event in its history"
                + (f" near {at.isoformat(timespec='minutes')}" if at else "")
                + ".",
                code="not_found",
                subject="device_event",
            )
        chain: list[dict[str, Any]] = []
        cause = await self._cause(target, events, labels, audit)
        first = {"event": target.as_dict(labels[device_id]), "producer": cause.as_dict()}
        seen = {(device_id, target.name, target.when)}
        current, current_cause = target, cause
        for _ in range(MAX_DEPTH - 1):
            if current_cause.kind != "app" or current_cause.app_id is None:
                break
            trigger = await self._trigger_before(current_cause.app_id, current.when, labels)
            if trigger is None or (trigger.device_id, trigger.name, trigger.when) in seen:
                break
            seen.add((trigger.device_id, trigger.name, trigger.when))
            trig_events = await self._device_events(trigger.device_id)
            trig_cause = await self._cause(trigger, trig_events, labels, audit)
            chain.append(
                {
                    "event": trigger.as_dict(labels.get(trigger.device_id, trigger.device_id)),
                    "producer": trig_cause.as_dict(),
                    "why_linked": f"a trigger of {current_cause.name}",
                }
            )
            current, current_cause = trigger, trig_cause
        out: dict[str, Any] = {**first, "chain": chain}
        out["summary"] = _summary(target, cause, chain, labels)
        return out

    # ---- reads

    async def _device_events(self, device_id: str) -> list[_Event]:
        try:
            raw = cast(list[dict[str, Any]], await self._devices.events(device_id))
        except HubNotFoundError as err:
            raise ToolError(f"No device {device_id} on the hub.", code="not_found") from err
        return _events(raw, device_id)

    async def _cause(
        self,
        event: _Event,
        events: list[_Event],
        labels: Mapping[str, str],
        audit: AuditCommands,
    ) -> _Cause:
        # 1. recorded: the command event just before it (or on it) names its producer
        recorded = event.producer
        command: _Event | None = None
        if recorded is None:
            command = next(
                (
                    e
                    for e in events
                    if e.name.startswith("command-")
                    and event.when - COMMAND_WINDOW <= e.when <= event.when
                ),
                None,
            )
            recorded = command.producer if command else None
        if recorded is not None:
            evidence = [
                f"The hub recorded {recorded.name} as the producer of "
                + (
                    f"the {command.name} event at {command.when.isoformat(timespec='seconds')}"
                    if command
                    else "this event"
                )
                + "."
            ]
            kind = "app" if recorded.kind == "app" else recorded.kind
            return _Cause(kind, recorded.name, "recorded", evidence, recorded.id)
        if event.type == "physical":
            return _Cause(
                "physical",
                "someone or something at the device",
                "recorded",
                ["The hub recorded the event as physical (made at the device itself)."],
            )
        # 2. correlate: what acted on the device in the window before
        # only what acted before it: an app that logs after the event reacted to it
        start, end = event.when - CANDIDATE_WINDOW, event.when
        candidates: list[tuple[int, _Cause]] = []
        for rec in audit(event.device_id, start, end):
            candidates.append(
                (
                    0,
                    _Cause(
                        "this_integration",
                        f"{rec.get('tool')} by {rec.get('user') or 'an assistant'}",
                        "likely",
                        [
                            f"This integration's audit trail: {rec.get('tool')} naming this "
                            f"device at {rec.get('time')}."
                        ],
                    ),
                )
            )
        label = labels.get(event.device_id, event.device_id)
        for app in (await self._safe_apps_using(event.device_id))[:MAX_APPS]:
            app_id = str(app.get("app_id") or "")
            if not app_id:
                continue
            name = str(app.get("label") or app.get("name") or app_id)
            evidence = await self._app_evidence(app_id, label, start, end)
            if evidence:
                candidates.append((1, _Cause("app", name, "likely", evidence, app_id)))
        if command is not None:
            candidates.append(
                (
                    2,
                    _Cause(
                        "other",
                        "a command without a recorded caller",
                        "possible",
                        [f"{command.name} at {command.when.isoformat(timespec='seconds')}."],
                    ),
                )
            )
        if not candidates and command is None and event.type in (None, "", "null"):
            return _Cause(
                "device",
                f"{label} itself",
                "likely",
                [
                    "No command reached the device before it and no app acted on it in the "
                    "two minutes before: the device reported this reading itself."
                ],
            )
        if not candidates:
            return _Cause(
                "unknown",
                "not recorded",
                "unknown",
                [
                    "The hub recorded no producer and nothing in the two minutes before "
                    "names this device (no rule event or log line, no command through this "
                    "integration); a cloud integration, a dashboard or the device itself "
                    "may have done it."
                ],
            )
        candidates.sort(key=lambda c: c[0])
        best = candidates[0][1]
        if len(candidates) > 1:
            best.confidence = "possible"
            best.evidence.append(
                "Other candidates in the same window: "
                + "; ".join(c.name for _r, c in candidates[1:4])
            )
        return best

    async def _safe_apps_using(self, device_id: str) -> list[Mapping[str, Any]]:
        try:
            return await self._apps_using(device_id)
        except (HubError, ToolError):
            return []

    async def _app_evidence(
        self, app_id: str, label: str, start: datetime, end: datetime
    ) -> list[str]:
        out: list[str] = []
        try:
            app_events = await self._events.app(app_id)
        except (HubError, ToolError):
            app_events = []
        for ev in app_events:
            when = parse_hub_time(ev.get("date"))
            if when is not None and start <= when <= end:
                text = str(ev.get("descriptionText") or ev.get("name") or "")
                out.append(f"Its app event at {when.isoformat(timespec='seconds')}: {text}")
        try:
            lines = await self._logs.past("app", app_id)
        except (HubError, ToolError):
            lines = []
        for line in lines:
            when = parse_hub_time(line.time)
            if when is None or not start <= when <= end:
                continue
            if label.lower() in line.message.lower():
                out.append(f"Its log at {when.isoformat(timespec='seconds')}: {line.message}")
        return [redact_text(line) for line in out[:4]]

    async def _trigger_before(
        self, app_id: str, when: datetime, labels: Mapping[str, str]
    ) -> _Event | None:
        """The newest event before ``when`` that matches one of the rule's triggers."""
        try:
            rule = await self._read_rule(app_id)
        except (HubError, ToolError):
            return None
        spec = rule.get("spec")
        triggers = spec.get("triggers") if isinstance(spec, Mapping) else None
        best: _Event | None = None
        for trig in triggers or []:
            if not isinstance(trig, Mapping) or trig.get("device_id") is None:
                continue
            device_id = str(trig["device_id"])
            if device_id not in labels:
                continue
            wanted = trig.get("is")
            for ev in await self._device_events(device_id):
                if ev.name != trig.get("attribute") or ev.when > when:
                    continue
                if when - ev.when > TRIGGER_WINDOW:
                    break
                if wanted is not None and str(ev.value) != str(wanted):
                    continue
                if best is None or ev.when > best.when:
                    best = ev
                break
        return best


def _pick(
    events: list[_Event], attribute: str | None, value: str | None, at: datetime | None
) -> _Event | None:
    state = [
        e
        for e in events
        if not e.name.startswith("command-")
        and (attribute is None or e.name == attribute)
        and (value is None or str(e.value).lower() == str(value).lower())
    ]
    if not state:
        return None
    if at is None:
        return state[0]
    return min(state, key=lambda e: abs((e.when - at).total_seconds()))


def _summary(
    event: _Event, cause: _Cause, chain: list[dict[str, Any]], labels: Mapping[str, str]
) -> str:
    label = labels.get(event.device_id, event.device_id)
    text = (
        f"{label} {event.name} became {event.value} at {event.when.isoformat(timespec='minutes')}: "
    )
    if cause.kind == "unknown":
        text += "the hub recorded no producer and nothing nearby names it."
    else:
        text += f"{cause.name} ({cause.confidence})"
        for link in chain:
            ev, prod = link["event"], link["producer"]
            text += (
                f", which reacted to {ev['device']} {ev['attribute']} {ev['value']} at "
                f"{ev['time'][11:16]} ({prod['name']}, {prod['confidence']})"
            )
        text += "."
    return text
