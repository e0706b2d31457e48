"""Rules: Rule Machine (list, health, local variables, run/stop/start, pause), running a Button
Rule's actions; the Visual Rules Builder part (read, create, update, delete, node checks) is
``visual_rules``.

A Button Rule has no Run Actions button (its pages: ``selectActions``, the on-hub server's
Button Rule spec); the hub runs its actions when its controller's button device reports the
rule's event for the rule's button (its settings ``tDev1``, ``ButtontDev1``, ``tstate1``: the
on-hub server's ``_createButtonRuleViaController``, live). So running one is the device
command that makes that event (``push``/``hold``/``doubleTap``/``release`` with the button
number), checked as any device command is, and gated as the rule and every other rule using
that device (they all act on it). A Visual Rule cannot be run over the LAN: the hub UI's Visual
Rule endpoints (``/app/ruleBuilderJson``, ``ruleBuilder20Json``, ``ruleBuilderPause``,
``ruleBuilderGenerateRule``, ``ruleBuilderSuggestions``, ``createVisualRuleBuilderRule`` in
``resources/hub2-source/vue-hub2.min.js``) read, save, pause and draft rules; none runs one."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from ...errors import ToolError
from ...hub.app_page import AppPage
from ...hub.apps import InstalledApp
from ...hub.client import HubClient
from ...hub.controllers import (
    AppsController,
    DevicesController,
    RulesController,
    VisualRulesController,
)
from ...hub.errors import HubBadResponseError, HubError
from ...hub.models import parse_hub_time
from ...redact import redact_text
from ..devices.commands import PreparedCommand
from ..devices.query import DeviceManager
from ..item_backups import ItemBackups
from .button_rules import is_button_rule
from .installed import AppManager
from .page_model import status_settings, text_of
from .visual_rules import VisualRuleManager

if TYPE_CHECKING:
    from ..sensitivity import SensitivityModel

Allowed = Callable[[str], bool]


def private_boolean(app_state: dict[str, Any]) -> bool | None:
    """A rule's private boolean from its statusJson ``appState``, None when not shown.

    The key is not in our evidence (the on-hub server sets it only through RMUtils); both spellings
    seen are read, and only a real boolean counts.
    """
    for key in ("privateBoolean", "private"):
        if isinstance(value := app_state.get(key), bool):
            return value
    return None


class RuleLocals(TypedDict):
    """A Rule Machine rule's local variables."""

    app_id: str
    name: str
    variables: list[dict[str, Any]]
    count: int


class RuleAction(TypedDict):
    """What :meth:`RuleManager.call_rule` did (``unchanged``: the rule already was so;
    ``via``: a Button Rule's button event that ran it)."""

    app_id: str
    name: str
    action: str
    unchanged: NotRequired[bool]
    via: NotRequired[str]


class RuleOutcome(RuleAction):
    """One rule of a batch: ``ok``, or the ``error`` it met (the others still ran)."""

    ok: bool
    error: NotRequired[str]


class RuleBatch(TypedDict):
    """What :meth:`RuleManager.call_rules` did to several rules, rule by rule."""

    action: str
    results: list[RuleOutcome]
    count: int
    failed: int


# the device command that makes each Button Rule event (the button capabilities' commands)
BUTTON_COMMANDS = {
    "pushed": "push",
    "held": "hold",
    "doubleTapped": "doubleTap",
    "released": "release",
}
BUTTON_SETTLE_S = 3.0


@dataclass(slots=True)
class _Prepared:
    """A rule checked for a call: its page and Run Actions button when it runs actions; for
    a Button Rule, the button device command that runs them."""

    app: InstalledApp
    page: AppPage | None = None
    button: str | None = None
    push: PreparedCommand | None = None
    event: str | None = None
    number: int | None = None


class RulePaused(TypedDict):
    """A rule's pause state (``unchanged``: it already was so)."""

    app_id: str
    name: str
    paused: bool
    unchanged: NotRequired[bool]


class RuleManager:
    """Rule Machine rules and Visual Rules (both are installed apps of ``apps``); the
    Visual Rule definitions are ``visual`` (read, create, update, delete).

    ``client``: only for a rule page's bare button clicks (``stopRule``, ``pausRule``), sent
    without reading the page first (no controller builds an unread page)."""

    def __init__(
        self,
        client: HubClient,
        rules: RulesController,
        visual_rules: VisualRulesController,
        hub_apps: AppsController,
        hub_devices: DevicesController,
        apps: AppManager,
        backups: ItemBackups,
        devices: DeviceManager,
        sensitivity: SensitivityModel,
    ) -> None:
        self._client = client
        self._rules = rules
        self._visual_rules = visual_rules
        self._hub_apps = hub_apps  # a rule's page as the hub renders it (its health)
        self._apps = apps
        self._sensitivity = sensitivity
        self._backups = backups
        self._devices = devices  # a Button Rule's button device command
        self.visual = VisualRuleManager(
            visual_rules, hub_apps, hub_devices, self._rule, backups, devices, sensitivity
        )

    async def list_rules(
        self, engine: str, *, with_status: bool, with_button_rules: bool = False
    ) -> list[dict[str, Any]]:
        """Rule Machine rules, Visual Rules and (``with_button_rules``, or engine
        ``button``) Button Rules, with live status.

        ``engine``: ``all``, ``rule_machine``, ``visual`` or ``button``. Every entry has the
        app list's ``disabled`` (``/hub2/appsList`` ``data.disabled``). With status: an RM
        rule's ``paused``/``stopped`` (and private boolean) from its statusJson
        ``appState``; a Visual Rule's ``paused`` from its definition (``rulePaused``: the
        only state the hub UI's Visual Rule pages, ``ruleBuilderJson``/``ruleBuilder20Json``
        in ``vue-hub2.min.js``, read or show; they have no stopped state); a Button Rule's
        trigger as running it reads it (``button_device_ids``, ``button``, ``event``; its
        ``parent_id`` is its Button Controller).
        """
        apps = await self._apps.tree()
        buttons = with_button_rules or engine == "button"
        rules = [
            a
            for a in apps
            if (engine in ("all", "rule_machine") and a.is_rm_rule)
            or (engine in ("all", "visual") and a.is_visual_rule)
            or (buttons and engine in ("all", "button") and is_button_rule(a.type))
        ]

        async def status_of(rule: InstalledApp) -> dict[str, Any]:
            entry = rule.as_dict()
            entry.pop("depth", None)
            entry["engine"] = _engine(rule)
            if not with_status:
                return entry
            if rule.is_rm_rule:
                st = (await self._rules.state(rule.id))["appState"]
                entry["paused"] = bool(st.get("paused"))
                entry["stopped"] = bool(st.get("stopped"))
                private = private_boolean(st)
                if private is not None:
                    entry["private_boolean"] = private
            elif rule.is_visual_rule:
                rb = await self._visual_rules.definition(rule.id)
                entry["paused"] = bool(rb.get("rulePaused"))
            else:
                devices, number, event = await self._button_trigger(rule.id)
                entry["button_device_ids"] = devices
                entry["button"] = int(number) if number.isdigit() else None
                entry["event"] = event or None
            return entry

        return list(await asyncio.gather(*(status_of(r) for r in rules)))

    async def _button_trigger(self, app_id: str) -> tuple[list[str], str, str]:
        """A Button Rule's trigger as its statusJson settings hold it: the button device ids
        (``tDev1``), the button number (``ButtontDev1``, as text) and the event
        (``tstate1``); empty where not set."""
        values, device_ids = status_settings(
            (await self._hub_apps.status(app_id)).get("appSettings")
        )
        number = str(values.get("ButtontDev1") or "").strip()
        return device_ids.get("tDev1") or [], number, str(values.get("tstate1") or "")

    async def _rule(self, app_id: str, *, visual: bool | None = None) -> InstalledApp:
        app = await self._apps.find(app_id)
        if visual is True and not app.is_visual_rule:
            raise ToolError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Visual Rule.",
                subject="not_visual_rule",
            )
        if visual is False and not app.is_rm_rule:
            raise ToolError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Rule Machine rule.",
                subject="not_rm_rule",
            )
        if visual is None and not (app.is_rm_rule or app.is_visual_rule):
            raise ToolError(
                f"App {app_id} ({app.name}, type {app.type}) is not a rule.",
                subject="not_rule",
            )
        return app

    async def rule_health(self, app_id: str) -> dict[str, Any]:
        """Broken markers, compiled broken flag, config errors, graph validation errors."""
        app = await self._rule(app_id)
        # Render the page first: the hub re-validates the rule while rendering it, so the
        # compiled ``broken`` flag read afterwards is current.
        config = cast(dict[str, Any], await self._hub_apps.config_page(app_id, None))
        compiled = await self._rules.compiled(app_id)
        text = redact_text(json.dumps(config.get("configPage") or {}))  # before any cut
        markers = sorted(
            {
                text_of(m)
                for m in re.findall(r"[^\"]{0,60}\*{1,2}BROKEN\*{1,2}[^\"]{0,60}", text, re.I)
            }
        )
        page_error = (config.get("configPage") or {}).get("error")
        out: dict[str, Any] = {
            "app_id": app_id,
            "name": app.name,
            "engine": "rule_machine" if app.is_rm_rule else "visual",
            "broken_markers": markers,
            "page_error": page_error,
        }
        if app.is_rm_rule:
            out["compiled_broken"] = bool(compiled.get("broken"))
        else:
            graph = await self._visual_rules.graph(app_id)
            out["validation_errors"] = (graph or {}).get("validationErrors") or []
            out["node_problems"] = await self.visual.health_problems(app_id)
        out["healthy"] = not (
            markers
            or page_error
            or out.get("compiled_broken")
            or out.get("validation_errors")
            or out.get("node_problems")
        )
        if markers and not out.get("compiled_broken") and app.is_rm_rule:
            out["note"] = "The page shows BROKEN markers; the compiled flag may lag until the "
            out["note"] += "rule is re-saved. Treat the markers as authoritative."
        return out

    async def local_variables(self, app_id: str) -> RuleLocals:
        """A Rule Machine rule's local variables (state.allLocalVars)."""
        app = await self._rule(app_id, visual=False)
        st = (await self._rules.state(app_id))["appState"]
        local = st.get("allLocalVars") or {}
        rows = [
            {"name": k, "type": v.get("type"), "value": v.get("value")}
            for k, v in (local.items() if isinstance(local, dict) else [])
            if isinstance(v, dict)
        ]
        return {"app_id": app_id, "name": app.name, "variables": rows, "count": len(rows)}

    async def call_rule(
        self, app_id: str, action: str, *, confirm: bool = False, allowed: Allowed | None = None
    ) -> RuleAction:
        """Run a rule's actions (its own Run Actions button; a Button Rule: its button's
        event, see the module docstring), stop or start it.

        Running or starting a rule the sensitivity model finds sensitive needs confirm=true,
        and every device it reaches must be in the allowlist.
        """
        return await self._act(await self._prepare(app_id, action, confirm, allowed), action)

    async def call_rules(
        self,
        app_ids: list[str],
        action: str,
        *,
        confirm: bool = False,
        allowed: Allowed | None = None,
    ) -> RuleBatch:
        """``call_rule`` on several rules: every rule is checked (an RM rule, a Run Actions
        button, confirm for sensitive actions) before the first is acted on; then each is
        acted on in order and answers for itself (one failing does not stop the others)."""
        ids = list(dict.fromkeys(app_ids))
        checks = await asyncio.gather(
            *(self._prepare(i, action, confirm, allowed) for i in ids), return_exceptions=True
        )
        bad = [(i, c) for i, c in zip(ids, checks, strict=True) if isinstance(c, BaseException)]
        for _i, err in bad:
            if not isinstance(err, ToolError | HubError):
                raise err
        if bad:
            confirm_only = {getattr(e, "code", "") for _i, e in bad} == {"confirmation_required"}
            raise ToolError(
                f"{len(bad)} of {len(ids)} rules cannot be called, so none was: "
                + "; ".join(f"rule {i}: {e}" for i, e in bad[:5]),
                code="confirmation_required" if confirm_only else "invalid_request",
                hint="Tell the user what these rules command, get their agreement, then call "
                "again with confirm=true."
                if confirm_only
                else "Drop or fix those rules, then call again.",
                subject="rule_batch",
                tier=getattr(bad[0][1], "tier", None) if confirm_only else None,
            )
        results: list[RuleOutcome] = []
        for prep in checks:
            assert isinstance(prep, _Prepared)
            try:
                acted = await self._act(prep, action)
                done: RuleOutcome = {"app_id": acted["app_id"], "name": acted["name"],
                                     "action": action, "ok": True}  # fmt: skip
                if acted.get("unchanged"):
                    done["unchanged"] = True
            except (ToolError, HubError) as err:
                done = {"app_id": prep.app.id, "name": prep.app.name, "action": action,
                        "ok": False, "error": str(err)}  # fmt: skip
            results.append(done)
        failed = sum(not r["ok"] for r in results)
        return {"action": action, "results": results, "count": len(results), "failed": failed}

    async def _prepare(
        self, app_id: str, action: str, confirm: bool, allowed: Allowed | None
    ) -> _Prepared:
        """What acting on a rule needs, checked: an RM rule (or a Button Rule, to run its
        actions); for run_actions its page's Run Actions button; for running or starting
        it, the sensitivity gate."""
        found = await self._apps.find(app_id)
        if found.is_visual_rule:
            raise ToolError(
                f"App {app_id} ({found.name}) is a Visual Rule; the hub offers no way to run, "
                "stop or start one over the LAN (its UI's Visual Rule requests read, save "
                "and pause rules; none runs one). Nothing was sent.",
                hint="Trigger it through one of its triggers, or pause/resume it.",
                subject="visual_rule_run",
            )
        if is_button_rule(found.type):
            return await self._prepare_button(found, action, confirm, allowed)
        app = await self._rule(app_id, visual=False)
        if action in ("run_actions", "start"):
            verb = "Running the actions of" if action == "run_actions" else "Starting"
            self._sensitivity.require(
                await self._sensitivity.apps([app_id]),
                confirm=confirm,
                allowed=allowed,
                what=f"{verb} rule {app_id} ({app.name})",
            )
        if action != "run_actions":
            return _Prepared(app)
        page = await self._rules.page(app_id)
        titles = {text_of(b.title).lower(): b.name for b in page.buttons.values()}
        name = titles.get("run actions")
        if name is None:
            raise ToolError(
                f"Rule {app_id} ({app.name}) shows no 'Run Actions' button on its page; "
                "it cannot be run over the LAN. Nothing was sent.",
                hint="Trigger it through one of its triggers (e.g. a virtual switch).",
            )
        return _Prepared(app, page, name)

    async def _prepare_button(
        self, app: InstalledApp, action: str, confirm: bool, allowed: Allowed | None
    ) -> _Prepared:
        """A Button Rule's actions run as the hub runs them: its button device's event."""
        if action != "run_actions":
            raise ToolError(
                f"App {app.id} ({app.name}) is a Button Rule: only its actions can be run "
                "(action=run_actions); it has no stop or start. Nothing was sent.",
                hint="To keep it from acting, disable the app.",
                subject="button_rule_action",
            )
        devices, raw_number, event = await self._button_trigger(app.id)
        command = BUTTON_COMMANDS.get(event)
        if command is None or not raw_number.isdigit() or not devices:
            raise ToolError(
                f"Button Rule {app.id} ({app.name}) shows no complete button trigger (device "
                f"{', '.join(devices) or 'none'}, button {raw_number or 'none'}, event "
                f"{event or 'none'}). Nothing was sent.",
                hint="Open the rule in the hub UI; its Button Controller sets its button.",
                subject="button_rule_trigger",
            )
        number = int(raw_number)
        device = next((d for d in devices if allowed is None or allowed(d)), devices[0])
        what = f"Running the actions of Button Rule {app.id} ({app.name})"
        # the rule's own actions, and every other rule acting on this device's events
        users = (await self._devices.get_device(device)).apps_using
        tree = {a.id: a for a in await self._apps.tree()}
        acting = [app.id] + [
            i
            for u in users
            if (i := u["app_id"]) is not None
            and i != app.id
            and (a := tree.get(i)) is not None
            and (a.is_rm_rule or a.is_visual_rule or is_button_rule(a.type))
        ]
        self._sensitivity.require(
            await self._sensitivity.apps(acting), confirm=confirm, allowed=allowed, what=what
        )
        push = await self._devices.commands.prepare(
            device, command, [number], confirm=confirm, allowed=allowed
        )
        return _Prepared(app, push=push, event=event, number=number)

    async def _act_button(self, prep: _Prepared, action: str) -> RuleAction:
        """Send the button event; the effect read is a new event of it in the device's
        history (its date after the newest one before the command: the device may already
        show the same button from an earlier press)."""
        assert prep.push is not None and prep.event is not None
        device_id = prep.push.device_id
        last = await self._devices.events(device_id=device_id, attribute=prep.event, limit=1)
        since = parse_hub_time(last[0].get("date")) if last else None
        await self._devices.commands.execute(prep.push)
        deadline = time.monotonic() + BUTTON_SETTLE_S
        while True:
            fresh = await self._devices.events(
                device_id=device_id, since=since, attribute=prep.event, limit=20
            )
            seen = any(str(e.get("value")) == str(prep.number) for e in fresh)
            if seen or time.monotonic() >= deadline:
                break
            await asyncio.sleep(0.25)
        if not seen:
            raise HubBadResponseError(
                f"{prep.push.device_label} ({device_id}) took '{prep.push.command} "
                f"{prep.number}' but its history shows no new button {prep.number} {prep.event}"
            )
        return {
            "app_id": prep.app.id,
            "name": prep.app.name,
            "action": action,
            "via": f"{prep.push.command} {prep.number} on {prep.push.device_label} "
            f"(device {prep.push.device_id})",
        }

    async def _act(self, prep: _Prepared, action: str) -> RuleAction:
        if prep.push is not None:
            return await self._act_button(prep, action)
        app_id, app = prep.app.id, prep.app
        if prep.page is not None and prep.button is not None:
            await prep.page.click(prep.button)
            return {"app_id": app_id, "name": app.name, "action": action}
        st = (await self._rules.state(app_id))["appState"]
        stopped = bool(st.get("stopped"))
        want_stopped = action == "stop"
        if stopped == want_stopped:
            return {"app_id": app_id, "name": app.name, "action": action, "unchanged": True}
        await AppPage(self._client, app_id).click("stopRule")
        after = (await self._rules.state(app_id))["appState"]  # the effect decides
        if bool(after.get("stopped")) != want_stopped:
            raise HubBadResponseError(f"Rule {app_id} did not change its stopped state")
        return {"app_id": app_id, "name": app.name, "action": action}

    async def set_paused(
        self, app_id: str, paused: bool, *, confirm: bool, allowed: Allowed | None = None
    ) -> RulePaused:
        """Pause or resume an RM rule (toggle button, state read first) or a Visual Rule.

        Resuming a sensitive rule needs confirm=true (it acts again on its triggers)."""
        app = await self._rule(app_id)
        if not paused:
            self._sensitivity.require(
                await self._sensitivity.apps([app_id]),
                confirm=confirm,
                allowed=allowed,
                what=f"Resuming rule {app_id} ({app.name})",
            )
        if app.is_visual_rule:
            await self._visual_rules.set_paused(app_id, paused)
            now = cast(
                dict[str, Any],
                await self._visual_rules.graph(app_id)
                or await self._visual_rules.definition(app_id),
            )
            if "rulePaused" in now and bool(now["rulePaused"]) != paused:
                raise HubBadResponseError(f"Visual Rule {app_id} did not change its pause state")
            return {"app_id": app_id, "name": app.name, "paused": paused}
        st = (await self._rules.state(app_id))["appState"]
        if bool(st.get("paused")) == paused:
            return {"app_id": app_id, "name": app.name, "paused": paused, "unchanged": True}
        await AppPage(self._client, app_id).click("pausRule")
        after = (await self._rules.state(app_id))["appState"]
        if bool(after.get("paused")) != paused:
            raise HubBadResponseError(f"Rule {app_id} did not change its pause state")
        return {"app_id": app_id, "name": app.name, "paused": paused}


def _engine(app: InstalledApp) -> str:
    """A rule's engine as the rule tools name it."""
    if app.is_rm_rule:
        return "rule_machine"
    return "visual" if app.is_visual_rule else "button"
