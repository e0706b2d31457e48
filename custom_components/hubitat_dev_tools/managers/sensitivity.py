"""One model of what is sensitive on the hub, and the one gate every acting path asks.

What the hub reports decides, not which tool is called:

- **a device** is sensitive by capability (locks, garage doors, valves, keypads, sirens and
  alarms; smoke and CO detectors count where a call would silence them), or when it is the
  child device of a sensitive app (a scene's activator: turning it on activates the scene);
- **an app** (a rule, Button Rule, Visual Rule, Room Lighting instance, scene or any other
  app) is sensitive when it is a safety system (HSM, Mode Manager, a Maker API instance), when
  its settings or definition name a sensitive device, when its Rule Machine actions set HSM,
  write or delete File Manager files or call out over HTTP, when its action text commands a
  lock, door, valve, siren or HSM, or when it runs, resumes or sets the private boolean of
  a sensitive app. This is transitive (a rule that runs a rule that locks a door is
  sensitive), with cycles and depth bounded; an app the model cannot read completely counts
  as sensitive (it fails toward asking).

``Reach`` is the answer for a set of targets: the reasons acting on them is sensitive
("rule 142 (Goodnight) commands Front Door Lock (12), a lock") and every device they can
command (the device allowlist is checked against these). ``require`` is the gate: it
refuses with ``device_not_allowed`` or ``confirmation_required`` before anything is sent.

Answers are cached for a few seconds (``TTL_S``), forgotten after every write made through
the tools (``forget``) and whenever the live event stream reports an app's or the hub's own
event, so a rule just edited is judged afresh.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from ..device_refs import device_refs
from ..errors import TIER_SENSITIVE, ToolError, confirmed
from ..hub.apps import InstalledApp
from ..hub.controllers import AppsController, VisualRulesController
from ..hub.errors import HubError, HubNotFoundError
from ..hub.models import DeviceDetail, DeviceSummary
from ..hub.state_cache import StateCache
from .apps.installed import AppManager
from .apps.page_model import actions_text
from .devices import DeviceFilter, DeviceManager
from .devices.admin import PROTECTIVE_CAPABILITIES
from .reach import NOTHING
from .reach import Reach as Reach  # the model's answer, kept importable from here

Allowed = Callable[[str], bool]
TTL_S = 15.0
MAX_DEPTH = 4
MAX_APPS = 40
# How each sensitive capability is named in a refusal.
_CAPABILITY_WORDS = {
    "Lock": "a lock",
    "GarageDoorControl": "a garage door",
    "DoorControl": "a door opener",
    "Valve": "a valve",
    "SecurityKeypad": "a security keypad",
    "Alarm": "an alarm",
    "Siren": "a siren",
    "SmokeDetector": "a smoke detector",
    "CarbonMonoxideDetector": "a CO detector",
}
# Rule Machine action settings (their names up to the first dot) and what they do when the
# rule runs (compile.py writes the same fields; rule-storage notes and the on-hub server's
# captures).
_RUNS_APPS = ("ruleAct", "privateT")  # run rules' actions; set their private boolean
_RESUMES_APPS = "pauseRule"  # with pR.<n> true: resume those rules
_EFFECT_FIELDS = {
    "alarm": "sets HSM",
    "localFile": "writes a File Manager file",
    "deleteFile": "deletes a File Manager file",
    "httper": "calls out over HTTP",
}
# Action lines of a rule's page that command locks, doors, valves, sirens, keypads or HSM.
_SENSITIVE_TEXT = re.compile(
    r"\b(?:un)?lock\b|\bopen\b|\bclose\b|\bsiren|\bstrobe\b|\balarm|\b(?:dis)?arm\b|\bvalve|"
    r"\bgarage|\bkeypad|\bhsm\b",
    re.I,
)


def capability_word(capabilities: Iterable[str]) -> str | None:
    """How a sensitive device is named ('a lock'), or None for a device that is not one."""
    caps = set(capabilities)
    for cap, word in _CAPABILITY_WORDS.items():
        if cap in caps and cap in PROTECTIVE_CAPABILITIES:
            return word
    return None


@dataclass(slots=True)
class _Walk:
    """One evaluation: apps seen (cycles), depth bound, devices listed once."""

    devices: dict[str, DeviceSummary]
    apps: dict[str, InstalledApp]
    seen: set[str] = field(default_factory=set)


class SensitivityModel:
    """What on this hub is sensitive, derived from what the hub reports (see module doc)."""

    def __init__(
        self,
        hub_apps: AppsController,
        visual_rules: VisualRulesController,
        apps: AppManager,
        devices: DeviceManager,
    ) -> None:
        self._hub_apps = hub_apps  # the hub's app reads (status, page)
        self._visual_rules = visual_rules  # a rule's definition (classic or graph)
        self._apps = apps
        self._devices = devices
        self._app_cache: dict[str, tuple[float, Reach]] = {}
        # the live state cache (set by ``Hub`` while the event stream runs): an app or hub
        # event seen since an answer was kept makes it stale
        self.cache: StateCache | None = None
        self._generation = 0
        self._parent_cache: dict[str, tuple[float, str | None]] = {}

    def forget(self) -> None:
        """Drop every cached answer (after a write: a rule or scene may have changed)."""
        self._app_cache.clear()
        self._parent_cache.clear()

    def _refresh(self) -> None:
        """Forget what live events say may have changed (an app's or the hub's event)."""
        seen = self.cache.app_events_seen if self.cache is not None else 0
        if seen != self._generation:
            self._generation = seen
            self.forget()

    async def _walk(self) -> _Walk:
        self._refresh()
        devices = await self._devices.list_devices(DeviceFilter())
        tree = await self._apps.tree()
        return _Walk({d.id: d for d in devices}, {a.id: a for a in tree})

    # -------------------------------------------------------------- public questions

    async def devices(
        self, device_ids: Iterable[str], *, details: dict[str, DeviceDetail] | None = None
    ) -> Reach:
        """What commanding these devices reaches (their scenes' members, for activators)."""
        ids = list(dict.fromkeys(str(d) for d in device_ids))
        if not ids:
            return NOTHING
        given = details or {}
        if all(i in given and _parent_id(given[i]) is None for i in ids):
            # the common case (a command to a device no app owns): nothing more to read
            out = NOTHING
            for device_id in ids:
                summary = given[device_id].summary
                word = capability_word(summary.capabilities)
                why = (f"{summary.display_name} ({device_id}), {word}",) if word else ()
                out |= Reach(why, frozenset({device_id}))
            return out
        walk = await self._walk()
        out = NOTHING
        for device_id in ids:
            walk.seen = set()  # each target is its own walk (see ``_app``)
            out |= await self._device(walk, device_id, given.get(device_id), 0)
        return out

    async def apps(self, app_ids: Iterable[str]) -> Reach:
        """What running, enabling or changing these apps reaches."""
        ids = list(dict.fromkeys(str(a) for a in app_ids))
        if not ids:
            return NOTHING
        walk = await self._walk()
        out = NOTHING
        for app_id in ids:
            walk.seen = set()  # each target is its own walk (see ``_app``)
            out |= await self._app(walk, app_id, 0)
        return out

    async def document(self, document: Any, *, label: str) -> Reach:
        """What an app definition not yet on the hub reaches (an export, a rule's settings):
        the devices it names, the apps its actions run, its HSM, file and HTTP actions."""
        walk = await self._walk()
        return await self._settings_reach(walk, document, label, 0, own_id=None)

    # -------------------------------------------------------------- the gate

    @staticmethod
    def require(reach: Reach, *, confirm: bool, allowed: Allowed | None, what: str) -> None:
        """Refuse ``what`` when it reaches a device outside the allowlist, or something
        sensitive without confirm=true (nothing has been sent yet)."""
        outside = sorted((d for d in reach.devices if allowed and not allowed(d)), key=_id_key)
        # an allowlist is active when it refuses an id no device has
        if reach.unnamed and allowed is not None and not allowed(""):
            raise ToolError(
                f"{what} reaches a device the hub names only in text ("
                f"{'; '.join(reach.reasons[:3])}), so it cannot be checked against the "
                "assistant's device allowlist. Nothing was sent to the hub.",
                code="device_not_allowed",
                hint="Ask an admin to do this in the hub's UI, or to lift the allowlist.",
            )
        if outside:
            raise ToolError(
                f"{what} reaches device(s) {', '.join(outside[:10])}, outside the assistant's "
                "device allowlist. Nothing was sent to the hub.",
                code="device_not_allowed",
                hint="Do not retry with the same target; an admin can change the allowlist in "
                "the integration's options.",
            )
        if reach.sensitive and not confirmed(confirm, TIER_SENSITIVE):
            raise ToolError(
                f"{what} is security-sensitive: {'; '.join(reach.reasons[:5])}. It needs "
                "confirm=true. Nothing was sent to the hub.",
                code="confirmation_required",
                hint="Tell the user exactly what this makes happen, get their agreement, then "
                "call again with confirm=true.",
                tier=TIER_SENSITIVE,
            )

    # -------------------------------------------------------------- derivation

    async def _device(
        self, walk: _Walk, device_id: str, detail: DeviceDetail | None, depth: int
    ) -> Reach:
        summary = walk.devices.get(device_id)
        name = f"{summary.display_name} ({device_id})" if summary else f"device {device_id}"
        reach = Reach((), frozenset({device_id}))
        caps = summary.capabilities if summary else (detail.summary.capabilities if detail else [])
        if word := capability_word(caps):
            reach |= Reach((f"{name}, {word}",))
        parent = await self._parent_app(device_id, detail)
        if parent is not None and parent not in walk.seen:
            via = await self._app(walk, parent, depth + 1)
            if via.sensitive:
                app = walk.apps.get(parent)
                app_name = f"{app.name} ({parent})" if app else f"app {parent}"
                why = (f"{name} activates {app_name}, and {via.reasons[0]}",)
                reach |= Reach(why, via.devices, via.unnamed)
        return reach

    async def _parent_app(self, device_id: str, detail: DeviceDetail | None) -> str | None:
        """The app a device belongs to (``parentApp`` of its page), cached for a while."""
        now = time.monotonic()
        if detail is None:
            hit = self._parent_cache.get(device_id)
            if hit is not None and now - hit[0] < TTL_S * 20:
                return hit[1]
            try:
                detail = await self._devices.get_device(device_id)
            except HubNotFoundError:
                return None
        found = _parent_id(detail)
        self._parent_cache[device_id] = (now, found)
        return found

    async def _app(self, walk: _Walk, app_id: str, depth: int) -> Reach:
        hit = self._app_cache.get(app_id)
        if hit is not None and time.monotonic() - hit[0] < TTL_S:
            return hit[1]
        app = walk.apps.get(app_id)
        if app is None:
            return NOTHING  # not on the hub: the tool's own lookup answers not_found
        label = f"{'rule' if app.is_rm_rule or app.is_visual_rule else 'app'} {app_id} ({app.name})"
        if (what := self._apps.safety_system(app)) is not None:
            return self._keep(app_id, Reach((f"{label} is {what}, a safety system",)))
        if app_id in walk.seen:
            return NOTHING  # a cycle: what it reaches is counted where the walk began
        if depth > MAX_DEPTH or len(walk.seen) >= MAX_APPS:
            return Reach((f"{label} runs other rules deeper than can be checked",))
        walk.seen.add(app_id)
        try:
            document = await self._definition(app)
        except HubError as err:
            return Reach((f"{label} could not be read to check what it does ({err})",))
        reach = await self._settings_reach(walk, document, label, depth, own_id=app_id)
        # only a walk's root is complete: below it, an app already on the walk was counted
        # where the walk met it first, so a deeper answer may be cut short
        return self._keep(app_id, reach) if depth == 0 else reach

    def _keep(self, app_id: str, reach: Reach) -> Reach:
        self._app_cache[app_id] = (time.monotonic(), reach)
        return reach

    async def _definition(self, app: InstalledApp) -> dict[str, Any]:
        """What the hub says an app does: its settings, and for rules their definition and
        action text."""
        status = await self._hub_apps.status(app.id)
        document: dict[str, Any] = {"settings": status.get("appSettings")}
        if app.is_visual_rule:
            graph = await self._visual_rules.graph(app.id)
            document["rule"] = (
                graph if graph is not None else await self._visual_rules.definition(app.id)
            )
        elif app.is_rm_rule:
            config = await self._hub_apps.config_page(app.id, None)
            document["text"] = actions_text(cast(dict[str, Any], config))
        return document

    async def _settings_reach(
        self, walk: _Walk, document: Any, label: str, depth: int, *, own_id: str | None
    ) -> Reach:
        reach = NOTHING
        for device_id in sorted(device_refs(document), key=_id_key):
            sub = await self._device(walk, device_id, None, depth)
            if sub.sensitive:
                reach |= Reach((f"{label} commands {sub.reasons[0]}",), sub.devices, sub.unnamed)
            else:
                reach |= Reach((), sub.devices, sub.unnamed)
        fields = _fields(document)
        for prefix, what in _EFFECT_FIELDS.items():
            if any(_has_value(v) for k, v in fields.items() if k.split(".")[0] == prefix):
                reach |= Reach((f"{label} {what}",))
        for key, value in fields.items():
            head, _, index = key.partition(".")
            resumes = head == _RESUMES_APPS and fields.get(f"pR.{index}") in (True, "true")
            if head not in _RUNS_APPS and not resumes:
                continue
            for other in _ids(value):
                if other in ("*", own_id):
                    continue
                sub = await self._app(walk, other, depth + 1)
                verb = "resumes" if resumes else "runs"
                if sub.sensitive:
                    why = (f"{label} {verb} {sub.reasons[0]}",)
                    reach |= Reach(why, sub.devices, sub.unnamed)
                else:
                    reach |= Reach((), sub.devices, sub.unnamed)
        text = document.get("text") if isinstance(document, dict) else None
        if isinstance(text, str) and text:
            lowered = text.lower()
            named = [
                d
                for d in walk.devices.values()
                if capability_word(d.capabilities) and d.display_name.lower() in lowered
            ]
            for dev in named:
                word = capability_word(dev.capabilities)
                reason = f"{label} commands {dev.display_name} ({dev.id}), {word}"
                reach |= Reach((reason,), frozenset({dev.id}))
            if not named and (match := _SENSITIVE_TEXT.search(text)):
                line = next((ln for ln in text.splitlines() if match.group(0) in ln), "")
                reach |= Reach((f"{label} has the action '{line.strip()[:80]}'",), unnamed=True)
        return reach


def _parent_id(detail: DeviceDetail) -> str | None:
    """The id of the app a device belongs to (its page's ``parentApp``), None if none."""
    parent = (detail.parent_app or {}).get("id")
    return str(parent) if parent not in (None, "", 0) else None


def _id_key(value: str) -> tuple[int, str]:
    return (len(value), value)


def _fields(document: Any) -> dict[str, Any]:
    """Setting names and values at any depth: statusJson's ``{name, value}`` lists, settings
    maps, and App Cloner exports' settings."""
    out: dict[str, Any] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            name = node.get("name")
            if isinstance(name, str) and "value" in node and "." in name:
                out[name] = node.get("value")
            for key, value in node.items():
                if isinstance(key, str) and "." in key and key.split(".")[0] in _KNOWN_HEADS:
                    out[key] = value
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(document)
    return out


_KNOWN_HEADS = frozenset({*_RUNS_APPS, _RESUMES_APPS, "pR", *_EFFECT_FIELDS})


def _has_value(value: Any) -> bool:
    return value not in (None, "", [], {}, False)


def _ids(value: Any) -> list[str]:
    """App ids a rule-picker setting holds (a list, a JSON-ish text or one id)."""
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    if isinstance(value, int | str) and not isinstance(value, bool):
        text = str(value).strip().strip("[]")
        return [p.strip().strip("\"'") for p in text.split(",") if p.strip().strip("\"'")]
    return []
