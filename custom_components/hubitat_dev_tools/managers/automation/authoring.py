"""Native Rule Machine rules from a spec: create, update (in place), read back, dry run.

A rule is built **paused** through Rule Machine's own pages (:mod:`.compile`,
:mod:`..apps.wizard`), then read back: its settings are decompiled and compared with the
spec, its page text checked for ``**BROKEN**`` markers and errors. Only when they agree is it
resumed (unless the spec says paused). On any failure, a cancelled call included, the partial
rule is force-deleted and the answer says what happened: no broken rule is left behind.

An update is made **in place**, part by part (the rule keeps its app id): the current rule
is read and held against the wanted spec (:mod:`.edits`), and only the parts that differ are
edited through the rule's pages (:mod:`.inplace` removes and moves, the wizard adds), with the
rule backed up and paused meanwhile, then the whole rule verified. A part the decoder does not
know is never removed or rebuilt: a change that needs that is refused, nothing sent. If an
edit fails, or the call is cancelled, the rule is put back the same way (the answer says
whether it was); no update ever makes the rule again as a new app.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from ...device_refs import DeviceScreen
from ...errors import ToolError
from ...hub.errors import HubError
from ...redact import redact, redact_text
from ..apps.page_model import text_of
from ..apps.wizard import Click, Goto, Reveal, Step, Submit, Wizard, Write, describe
from .check import CheckSources, Resolved, canonical_modes, resolve
from .compile import ACT, ACTIONS, compile_spec
from .decompile import Decompiler
from .decompile_acts import PER_MODE_KEYS
from .edits import STAND_IN, Plan, Shape, canonical, known_view, plan_edits, shape_of
from .inplace import RuleEraser, action_order
from .parse import parse_spec
from .parse_device_acts import DEVICE_LIST_KEYS
from .parse_rule_acts import DEVICE_LIST_KINDS
from .patch import apply_patch, refuse_redacted, refuse_unread, restore_redacted
from .shown import account, rule_text_sections
from .spec import RuleSpec
from .text import rule_text

if TYPE_CHECKING:
    from ...hub.client import HubClient
    from ...hub.controllers import AppsController, RulesController
    from ..apps.installed import AppManager
    from ..apps.rules import RuleManager
    from ..backups import BackupManager
    from ..devices.query import DeviceManager
    from ..files import FilesManager
    from ..item_backups import ItemBackups
    from ..modes import ModeManager
    from ..sensitivity import SensitivityModel
    from ..variables import VariableManager

_LOGGER = logging.getLogger(__name__)
RM_NAMESPACE, RM_APP = "hubitat", "Rule-5.1"
PLAN_LINES = 400
# How long after a cancelled create the new rule is looked for again (the hub may still be
# making it when the call is cancelled).
STRAY_RECHECK_S = 1.0
_EXPR_OWNERSHIP = "which conditions this expression holds"


def _shown(step: Step) -> str:
    """A plan line with the secrets of what it writes replaced (a URL's token, a body's
    password), by the same rules as the page's inputs."""
    if isinstance(step, Write) and isinstance(step.value, str):
        step = replace(step, value=redact({step.field: step.value})[step.field])
    return redact_text(describe(step))


def page_text(config: dict[str, Any]) -> list[str]:
    """The paragraphs of a page, markup removed, in order."""
    lines: list[str] = []
    page = config.get("configPage")
    for sec in page.get("sections", []) if isinstance(page, dict) else []:
        if not isinstance(sec, dict):
            continue
        if sec.get("title"):
            lines.append(text_of(str(sec["title"])))
        for item in sec.get("body") or []:
            if isinstance(item, dict) and item.get("element") == "paragraph":
                text = text_of(str(item.get("description") or item.get("title") or ""))
                lines.extend(x for x in text.splitlines() if x.strip())
    return lines


def _settings(status: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    values: dict[str, Any] = {}
    ids: dict[str, list[Any]] = {}
    for item in status.get("appSettings") or []:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        values[item["name"]] = item.get("value")
        if isinstance(item.get("deviceIdsForDeviceList"), list):
            ids[item["name"]] = item["deviceIdsForDeviceList"]
    return values, ids


def _state(status: dict[str, Any]) -> dict[str, Any]:
    """``appState`` as :func:`~...hub.apps.parse_status` leaves it (a dict, JSON parsed)."""
    state = status.get("appState")
    return dict(state) if isinstance(state, dict) else {}


def differences(want: Any, got: Any, path: str = "rule") -> list[str]:
    """Where a read-back differs from the spec (an unreadable expression owner is accepted)."""
    if isinstance(got, dict) and set(got) == {"unknown"} and _EXPR_OWNERSHIP in str(got["unknown"]):
        return []
    if isinstance(want, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in sorted(set(want) | set(got)):
            if key not in got:
                out.append(f"{path}.{key}: missing on the hub")
            elif key not in want:
                out.append(f"{path}.{key}: on the hub but not in the spec")
            else:
                out.extend(differences(want[key], got[key], f"{path}.{key}"))
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return [f"{path}: {len(want)} item(s) in the spec, {len(got)} on the hub"]
        return [
            d
            for i, (w, g) in enumerate(zip(want, got, strict=True))
            for d in differences(w, g, f"{path}[{i}]")
        ]
    if str(want) != str(got) and not _same_number(want, got):
        return [f"{path}: {json.dumps(want)} in the spec, {json.dumps(got)} on the hub"]
    return []


def _same_number(a: Any, b: Any) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return False


class RuleAuthoring:
    """Rule Machine authoring for one hub (``hub.rule_authoring``).

    It builds and edits rules through ``apps``, ``rules`` and ``item_backups``, reads modes
    through ``modes``, and checks a spec against the managers ``resolve`` asks
    (:class:`.check.CheckSources`).

    ``client``: the hub's time zone (a spec's times) and the rule pages the build and the
    in-place edit step through (:class:`~..apps.wizard.Wizard`, :class:`.inplace.RuleEraser`)."""

    def __init__(
        self,
        client: HubClient,
        *,
        hub_rules: RulesController,
        hub_apps: AppsController,
        apps: AppManager,
        rules: RuleManager,
        item_backups: ItemBackups,
        devices: DeviceManager,
        modes: ModeManager,
        variables: VariableManager,
        files: FilesManager,
        sensitivity: SensitivityModel,
        backups: BackupManager,
    ) -> None:
        self._client = client
        self._hub_rules = hub_rules
        self._hub_apps = hub_apps
        self._apps = apps
        self._rules = rules
        self._item_backups = item_backups
        self._modes = modes
        self._checks = CheckSources(
            devices=devices,
            modes=modes,
            variables=variables,
            rules=rules,
            files=files,
            sensitivity=sensitivity,
            backups=backups,
        )

    async def _prepare(
        self, value: Any, *, confirm: bool, device_allowed: Callable[[str], bool]
    ) -> tuple[RuleSpec, Resolved, list[Step]]:
        refuse_redacted(value)
        refuse_unread(value)
        if isinstance(value, dict) and value.get("restrictions") == []:
            # the read rule's restrictions, all removed from the spec: dropped on purpose
            value = {k: v for k, v in value.items() if k != "restrictions"}
        spec = parse_spec(value)
        res = await resolve(self._checks, spec, confirm=confirm, device_allowed=device_allowed)
        spec = canonical_modes(spec, res)
        return spec, res, compile_spec(spec, res, self._client.time_zone)

    @staticmethod
    def _dry_run(spec: RuleSpec, res: Resolved, steps: list[Step]) -> dict[str, Any]:
        shown = [_shown(s) for s in steps]
        plan: dict[str, Any] = {"page_requests": len(steps), "steps": shown[:PLAN_LINES]}
        if len(shown) > PLAN_LINES:
            plan["steps_left_out"] = len(shown) - PLAN_LINES
        return {
            "valid": True,
            "sent": False,
            "spec": spec.as_dict(),
            "rule_text": [redact_text(t) for t in rule_text(spec, res).splitlines()],
            "plan": plan,
        }

    async def _parent_and_rules(self) -> tuple[str, set[str]]:
        """The Rule Machine app's id and the ids of the apps under it now."""
        tree = await self._apps.tree()
        for app in tree:
            if app.parent_id is None and app.type == "Rule Machine":
                return app.id, {a.id for a in tree if a.parent_id == app.id}
        raise ToolError(
            "Rule Machine is not installed on this hub, so no rule can be created. Nothing "
            "was sent.",
            code="not_found",
            hint="Install Rule Machine in the hub UI (Apps > Add Built-In App).",
        )

    async def create(
        self,
        value: Any,
        *,
        confirm: bool,
        validate_only: bool,
        device_allowed: Callable[[str], bool] = lambda _id: True,
    ) -> dict[str, Any]:
        """Build a rule from a spec (``validate_only``: the plan and text, nothing sent)."""
        spec, res, steps = await self._prepare(
            value, confirm=confirm, device_allowed=device_allowed
        )
        if validate_only:
            return self._dry_run(spec, res, steps)
        return await self._build(spec, steps)

    async def _build(self, spec: RuleSpec, steps: list[Step]) -> dict[str, Any]:
        parent, before = await self._parent_and_rules()
        try:
            app_id = await self._hub_rules.create(parent)  # a RM_NAMESPACE / RM_APP child
        except asyncio.CancelledError:
            # cancelled while the hub made the rule: its id never came back, so the new
            # unnamed rule is found by the parent's new children
            await asyncio.shield(self._remove_unnamed_new(parent, before))
            raise
        wizard = Wizard(self._client, app_id)
        try:
            await wizard.run(steps)
            await self._rules.set_paused(
                app_id, True, confirm=True
            )  # no-op when the build paused it
            readback = await self._verify(app_id, spec.as_dict())
        except BaseException as err:
            removed = await self._remove_partial(app_id)
            if isinstance(err, ToolError | HubError):
                note = (
                    f" The partial rule (app {app_id}) was removed."
                    if removed
                    else f" The partial rule (app {app_id}) could not be removed."
                )
                raise ToolError(
                    f"{err}{note}",
                    code=err.code,
                    hint=getattr(err, "hint", None),
                    subject=err.subject,
                    extra={**(getattr(err, "extra", None) or {}), "delete_app_id": app_id}
                    if not removed
                    else getattr(err, "extra", None),
                ) from err
            raise
        if not spec.paused:
            await self._rules.set_paused(app_id, False, confirm=True)
        if not spec.enabled:
            await self._apps.set_disabled(app_id, True)
        return _answer(app_id, spec, wizard.sent, readback)

    async def _remove_unnamed_new(self, parent: str, before: set[str]) -> None:
        """Force-delete the rules under ``parent`` that were not there ``before`` and still
        bear no name of their own (an empty rule a cancelled create left), now and again
        after ``STRAY_RECHECK_S``: the create the call sent may still be running on the hub."""
        for wait in (0.0, STRAY_RECHECK_S):
            await asyncio.sleep(wait)
            with contextlib.suppress(HubError):
                for app in await self._apps.tree():
                    if app.parent_id == parent and app.id not in before and app.name == app.type:
                        await self._hub_apps.delete(app.id, force=True)

    async def _remove_partial(self, app_id: str) -> bool:
        try:
            await asyncio.shield(self._hub_apps.delete(app_id, force=True))
        except (HubError, asyncio.CancelledError):
            return False
        return True

    async def _verify(
        self, app_id: str, want: dict[str, Any], *, by_text: bool = False
    ) -> dict[str, Any]:
        """Read the rule back and hold it against the spec (``want``, canonical); ``by_text``:
        the read that accounts for the rule text too (an update's, so the parts the decoder
        does not know read as they did before)."""
        read = await self.read(app_id, by_text=by_text)
        want = {k: v for k, v in want.items() if k not in ("paused", "enabled")}
        got = dict(read["spec"])
        problems = differences(want, got)
        if read["broken_markers"]:
            problems.append("the rule text shows " + "; ".join(read["broken_markers"]))
        if read["page_error"]:
            problems.append(f"the rule page reports: {read['page_error']}")
        if problems:
            raise ToolError(
                "The rule the hub built does not match the spec: "
                + redact_text(" | ".join(problems[:8]))
                + ".",
                code="hub_bad_response",
                hint="Rule Machine on this firmware may take that part differently; change "
                "it or build it in the hub UI.",
            )
        return read

    async def read(self, app_id: str, *, by_text: bool = True) -> dict[str, Any]:
        """A rule's settings as a spec, its rule text, and what could not be read.

        ``by_text``: also hold the rule text's lines against the spec (:mod:`.shown`), so a
        part the page shows and the settings do not say is listed with its text (a build's
        own read-back compares the settings with the spec it wrote, without this)."""
        return (await self._inspect(app_id, by_text=by_text))[0]

    async def _inspect(self, app_id: str, *, by_text: bool = True) -> tuple[dict[str, Any], Shape]:
        """:meth:`read`, and the rule's :class:`.edits.Shape` (its parts on the hub)."""
        answers = await asyncio.gather(
            self._hub_rules.state(app_id), self._hub_apps.config_page(app_id, None)
        )
        status, config = cast(tuple[dict[str, Any], dict[str, Any]], answers)
        values, ids = _settings(status)
        state = _state(status)
        modes: dict[str, str] = {}
        if any(
            k.startswith(("modesX", "modes", "mode.", "delayModes.", *PER_MODE_KEYS))
            for k in values
        ):
            modes = {
                str(m["mode_id"]): str(m["name"]) for m in (await self._modes.list_modes())["modes"]
            }
        name = str(((config.get("app") or {}).get("label")) or "")
        dec = Decompiler(values, ids, modes, state)
        spec = dec.spec(text_of(name))
        if by_text:
            account(spec, dec, rule_text_sections(config))
        for entry in dec.undecompiled:
            if "text" in entry:
                entry["text"] = redact_text(entry["text"])
        text = page_text(config)
        markers = [redact_text(t) for t in text if re.search(r"\*\*?BROKEN", t, re.I)]
        shape = shape_of(spec, dec, status)
        return {
            "app_id": app_id,
            "spec": spec,
            "undecompiled": dec.undecompiled,
            "rule_text": [redact_text(t) for t in text],
            "broken_markers": markers,
            "page_error": (config.get("configPage") or {}).get("error"),
            "paused": bool(state.get("paused")),
            "stopped": bool(state.get("stopped")),
        }, shape

    async def get(self, app_id: str) -> dict[str, Any]:
        """An existing Rule Machine rule as a spec, with its rule text."""
        app = await self._apps.find(app_id)
        if not app.is_rm_rule:
            raise ToolError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Rule Machine rule.",
                subject="rule_read_not_rm",
            )
        read = await self.read(app_id)
        read["name"] = app.name
        if not read.get("page_error"):
            read.pop("page_error", None)
        return read

    async def update(
        self,
        app_id: str,
        value: Any | None,
        patch: list[Any] | None,
        *,
        confirm: bool,
        validate_only: bool,
        device_allowed: Callable[[str], bool] = lambda _id: True,
    ) -> dict[str, Any]:
        """Change a rule to a whole spec or a JSON Patch of its current spec, in place (same
        app id), only the parts that differ (see the module text)."""
        app = await self._apps.find(app_id)
        if not app.is_rm_rule:
            raise ToolError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Rule Machine rule.",
                subject="rule_read_not_rm",
            )
        current, shape = await self._inspect(app_id)
        # a read leaves devices outside the allowlist out of the spec; given back, the
        # update would drop them from the rule: such a rule is not changed here
        screen = DeviceScreen(device_allowed)
        screen(current["spec"], id_keys=(*DEVICE_LIST_KINDS, *DEVICE_LIST_KEYS))
        if screen.hidden:
            raise ToolError(
                f"Rule {app_id} ({app.name}) names device(s) outside the assistant's device "
                "allowlist, so it is not changed here. Nothing was sent to the hub.",
                code="device_not_allowed",
                hint="Ask an admin to change it in the hub UI, or to change the allowlist.",
            )
        if (value is None) == (patch is None):
            raise ToolError(
                "Give rule (a whole spec) or patch (changes to the current spec), "
                "one of them. Nothing was sent."
            )
        if patch is not None:
            value = apply_patch(current["spec"], patch)
        value = restore_redacted(value, current["spec"])
        if isinstance(value, dict) and "name" not in value:
            value = {**value, "name": current["spec"].get("name") or app.name}
        if isinstance(value, dict) and "paused" not in value and current["paused"]:
            value = {**value, "paused": True}
        if isinstance(value, dict) and "enabled" not in value and app.disabled:
            value = {**value, "enabled": False}  # a disabled rule stays disabled
        work = await self._work(
            current["spec"], shape, value, confirm=confirm, device_allowed=device_allowed
        )
        unknown = shape.unknown_triggers or shape.unknown_actions or shape.unknown_conditions
        resumes = (current["paused"] and not work.view.paused) or (
            app.disabled and work.view.enabled
        )
        if unknown or resumes:
            # the parts the decoder does not know stay, unchecked by the spec's checks; and
            # resuming or enabling a rule is gated on the rule as the hub's sensitivity model
            # reads it (a rule a lock triggers, those parts included), as on the other paths
            what = "Resuming or enabling" if resumes else "Changing"
            self._checks.sensitivity.require(
                await self._checks.sensitivity.apps([app_id]),
                confirm=confirm,
                allowed=device_allowed,
                what=f"{what} rule {app_id} ({app.name})"
                + (", which keeps parts the spec cannot read," if unknown else ""),
            )
        if validate_only:
            return {
                **self._dry_run(work.view, work.res, work.steps.all()),
                "spec": {k: v for k, v in work.want.items() if k not in ("paused", "enabled")},
                "edits_app_id": app_id,
                "edits": work.plan.changes(),
            }
        backup = await self._item_backups.save(
            "installedapp", app_id, await self._apps.snapshot(app), reason="before update"
        )
        original = {**current["spec"], "paused": current["paused"], "enabled": not app.disabled}
        edited = await self._edit(app_id, work, shape, original, app.disabled, backup["backup"])
        return {**edited, "item_backup": backup}

    async def _work(
        self,
        current: dict[str, Any],
        shape: Shape,
        value: Any,
        *,
        confirm: bool,
        device_allowed: Callable[[str], bool],
        put_back: bool = False,
    ) -> _Work:
        """Check the wanted spec (its known parts, as a new rule's are) and plan the edits
        that make the rule read as ``current`` into it, with the steps of what is added."""
        refuse_redacted(value)
        if not isinstance(value, dict):
            parse_spec(value)  # the spec's own error
        view_value, where = known_view(value)
        view, res, _steps = await self._prepare(
            view_value, confirm=confirm, device_allowed=device_allowed
        )
        want = canonical(value, view.as_dict(), where)
        plan = plan_edits(current, shape, want, remove_unknown=put_back)
        sub_value: dict[str, Any] = {
            "name": view.name,
            "triggers": plan.add_triggers,
            "actions": [a for _j, a in plan.add_actions] or [STAND_IN],
            "local_variables": want.get("local_variables") or [],
            "logging": want.get("logging") or [],
        }
        if plan.conditions == "build":
            sub_value["conditions"] = want["conditions"]
        sub, _res, sub_steps = await self._prepare(
            sub_value, confirm=confirm, device_allowed=device_allowed
        )
        return _Work(view, res, want, plan, _select(sub, sub_steps, plan))

    async def _edit(
        self,
        app_id: str,
        work: _Work,
        shape: Shape,
        original: dict[str, Any],
        disabled: bool,
        backup: str,
    ) -> dict[str, Any]:
        """Pause, edit the parts that differ, verify, then resume as the spec says. A
        failure, a cancel included, puts the rule back as it was the same way."""
        eraser = RuleEraser(self._client, self._hub_rules, app_id)
        await eraser.ensure_idle()  # perhaps the owner's editor: refused, nothing changed
        progress = _Progress()
        try:
            await self._rules.set_paused(app_id, True, confirm=True)
            # Rule Machine ignores deletes on a disabled rule (the on-hub server, live)
            if disabled:
                await self._apps.set_disabled(app_id, False)
            await self._carry_out(app_id, work, shape, eraser, progress)
            readback = await self._verify(app_id, work.want, by_text=True)
        except BaseException as err:
            if not (eraser.changed or progress.sent):  # nothing changed: as it was
                await asyncio.shield(self._restore_flags(app_id, original, disabled))
                raise
            back = asyncio.shield(self._put_back(app_id, original, disabled, backup))
            note, facts = await back
            if isinstance(err, ToolError | HubError):
                raise ToolError(
                    f"{err} {note}",
                    code=err.code,
                    hint=getattr(err, "hint", None),
                    subject=err.subject,
                    extra={**(getattr(err, "extra", None) or {}), **facts} or None,
                ) from err
            raise
        spec = work.view
        await self._settle(app_id, paused=spec.paused, enabled=spec.enabled)
        return {
            **_answer(app_id, spec, eraser.requests + progress.sent, readback),
            "edited_in_place": True,
            "edits": work.plan.changes(),
            "note": f"Edited in place, only the parts that changed: the rule keeps its app id "
            f"{app_id}, so rules, dashboards and apps that use it by id keep working.",
        }

    async def _carry_out(
        self, app_id: str, work: _Work, shape: Shape, eraser: RuleEraser, progress: _Progress
    ) -> None:
        """The plan's edits on the rule's pages: the removals first (the actions, the
        Required Expression, the triggers, then the local variables: Rule Machine breaks a
        rule whose used variable is removed), then what is added (name and logging, local
        variables, triggers, each action moved up to its place, the Required Expression
        last: sealing it leaves a condition context that breaks actions added after it, the
        on-hub server), then ``updateRule``."""
        plan, steps = work.plan, work.steps
        if shape.blocks is None and (plan.remove_actions or plan.add_actions):
            raise ToolError(
                f"Rule {app_id}'s action rows do not line up with its actions.",
                code="hub_bad_response",
            )
        blocks = shape.blocks or []
        await eraser.delete_actions([n for k in plan.remove_actions for n in blocks[k]])
        if plan.conditions != "keep" and shape.required:
            await eraser.delete_required()
        for k in plan.remove_triggers:
            await eraser.delete_trigger(shape.triggers[k])
        for name in plan.remove_locals:
            await eraser.delete_local(name)
        await self._run(app_id, [*steps.head, *steps.locals, *steps.triggers], progress)
        if plan.add_actions and shape.required and plan.conditions == "keep":
            await self._run(app_id, _ghost_if(), progress)
        sizes = {j: len(blocks[i]) for j, i in plan.keep_actions.items()} if blocks else {}
        for (j, _item), action_steps in zip(plan.add_actions, steps.actions, strict=True):
            before = action_order(cast(dict[str, Any], await self._hub_rules.state(app_id)))
            await self._run(app_id, action_steps, progress)
            after = action_order(cast(dict[str, Any], await self._hub_rules.state(app_id)))
            rows = after[len(before) :]
            if after[: len(before)] != before or not rows:
                raise ToolError(
                    f"Rule {app_id}'s new action {j} did not come last in its action list.",
                    code="hub_bad_response",
                )
            sizes[j] = len(rows)
            place = sum(sizes[w] for w in range(j))
            for n in rows:
                await eraser.move_up(n, len(before) - place)
        await self._run(app_id, [*steps.conditions, *steps.finish], progress)

    async def _run(self, app_id: str, steps: list[Step], progress: _Progress) -> None:
        if not steps:
            return
        wizard = Wizard(self._client, app_id)
        try:
            await wizard.run(steps)
        finally:
            progress.sent += wizard.sent

    async def _settle(self, app_id: str, *, paused: bool, enabled: bool) -> None:
        await self._rules.set_paused(app_id, paused, confirm=True)
        await self._apps.set_disabled(app_id, not enabled)

    async def _restore_flags(self, app_id: str, original: dict[str, Any], disabled: bool) -> str:
        """Pause and disable the rule as it was; "" or what could not be set back."""
        try:
            await self._settle(app_id, paused=original["paused"], enabled=not disabled)
        except (ToolError, HubError) as err:
            _LOGGER.warning("Rule %s: pause/disable not set back: %s", app_id, err)
            return (
                f" Its pause and disable state could not be set back (it should be "
                f"{'paused' if original['paused'] else 'running'}"
                f"{' and disabled' if disabled else ''}): set them again (the rule's pause, "
                "the app's disabled state)."
            )
        return ""

    async def _put_back(
        self, app_id: str, original: dict[str, Any], disabled: bool, backup: str
    ) -> tuple[str, dict[str, str]]:
        """Edit the rule back to what it was, part by part as the update did (the parts the
        decoder does not know were never touched); what happened, in words, and what is left
        to do as facts (``restore_flags_app_id``: its pause and disable state were not set
        back; ``import_backup``: the item backup that holds its settings)."""
        try:
            eraser = RuleEraser(self._client, self._hub_rules, app_id)
            await eraser.ensure_idle(close_ours=True)  # our own half-made action
            now, shape = await self._inspect(app_id)
            work = await self._work(
                now["spec"],
                shape,
                original,
                confirm=True,
                device_allowed=lambda _id: True,
                put_back=True,
            )
            await self._carry_out(app_id, work, shape, eraser, _Progress())
            await self._verify(app_id, work.want, by_text=True)
        except (ToolError, HubError) as err:
            _LOGGER.warning("Rule %s not put back: %s", app_id, redact_text(str(err)))
            return (
                f"The rule (app {app_id}) could not be put back as it was: it is left paused. "
                f"Its item backup {backup} holds its settings (secrets such as an HTTP "
                f"action's URL token redacted: enter those again); or run the update again.",
                {"import_backup": backup},
            )
        flags = await self._restore_flags(app_id, original, disabled)
        facts = {"restore_flags_app_id": app_id} if flags else {}
        return f"The rule (app {app_id}) was put back as it was.{flags}", facts


def _answer(app_id: str, spec: RuleSpec, requests: int, readback: dict[str, Any]) -> dict[str, Any]:
    """What a verified build answers (create, and an update either way)."""
    return {
        "app_id": app_id,
        "name": spec.name,
        "paused": spec.paused,
        "enabled": spec.enabled,
        "verified": True,
        "page_requests": requests,
        "rule_text": readback["rule_text"],
    }


class _Progress:
    """The wizard requests an edit sent (anything sent: the rule may have changed)."""

    def __init__(self) -> None:
        self.sent = 0


@dataclass
class _Steps:
    """The steps of what an update adds, by part (the build's steps, selected)."""

    head: list[Step] = field(default_factory=list)  # the name, logging
    locals: list[Step] = field(default_factory=list)
    triggers: list[Step] = field(default_factory=list)
    actions: list[list[Step]] = field(default_factory=list)  # per added action, in order
    conditions: list[Step] = field(default_factory=list)
    finish: list[Step] = field(default_factory=list)  # updateRule

    def all(self) -> list[Step]:
        """Every step, in the order they are sent (without the moves and removals)."""
        acts = [s for steps in self.actions for s in steps]
        return [*self.head, *self.locals, *self.triggers, *acts, *self.conditions, *self.finish]


@dataclass
class _Work:
    """A checked update: the wanted spec's known parts (``view``, checked against the hub
    as ``res``), the whole wanted spec canonical (``want``), the plan and its steps."""

    view: RuleSpec
    res: Resolved
    want: dict[str, Any]
    plan: Plan
    steps: _Steps


_LOCAL_AT = re.compile(r"^rule\.local_variables\[(\d+)\]")
_ACTION_AT = re.compile(r"^rule\.actions\[(\d+)\]")


def _select(sub: RuleSpec, steps: list[Step], plan: Plan) -> _Steps:
    """The build steps of ``sub`` (a spec of what is added, every local variable in it) that
    the plan needs: each step's ``where`` says which part it builds."""
    out = _Steps(actions=[[] for _ in plan.add_actions])
    adding = {v.name for v in sub.local_variables if v.name in plan.add_locals}
    for step in steps:
        where = step.where
        if isinstance(step, Click) and step.button == "pausRule":
            continue  # the rule is paused already, and the button toggles
        if isinstance(step, Click) and step.button == "updateRule":
            out.finish.append(step)
        elif where == "rule.name":
            if plan.name:
                out.head.append(step)
        elif where == "rule.logging":
            if plan.logging:
                out.head.append(step)
        elif where == "rule.actions":  # selectActions' first submit (its counters)
            if plan.add_locals or plan.add_actions:
                out.locals.append(step)
        elif m := _LOCAL_AT.match(where):
            if sub.local_variables[int(m.group(1))].name in adding:
                out.locals.append(step)
        elif where.startswith("rule.triggers"):
            out.triggers.append(step)
        elif m := _ACTION_AT.match(where):
            if int(m.group(1)) < len(out.actions):
                out.actions[int(m.group(1))].append(step)
        elif where.startswith("rule.conditions"):
            if plan.conditions == "build":
                out.conditions.append(step)
        else:
            out.head.append(step)
    return out


def _ghost_if() -> list[Step]:
    """Clear the condition context a sealed Required Expression leaves (an action added after
    it would read ``IF (**Broken Condition**)``): an IF opened (``actSubType=getIfThen``: its
    initialiser clears it) and cancelled before it is made (``actionCancel``), as the on-hub
    server's ``_rmClearPredCapabsViaGhostIfThen`` does on live hubs."""
    where = "clear the Required Expression's condition context (an IF opened and cancelled)"
    return [
        Submit(ACTIONS, where),
        Click(ACTIONS, "N", "doActN", where),
        Reveal(ACT, r"actType\.(\d+)", "A", where),
        Write(ACT, "actType.{A}", "condActs", where),
        Write(ACT, "actSubType.{A}", "getIfThen", where),
        Click(ACT, "actionCancel", where=where),
        Goto(ACT, ACTIONS, where),
    ]
