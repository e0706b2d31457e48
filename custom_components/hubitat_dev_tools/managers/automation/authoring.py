"""Native Rule Machine rules from a spec: create, update (in place), read back, dry run.

A rule is built **paused** through Rule Machine's own pages (:mod:`.compile`,
:mod:`..apps.wizard`), then read back: its settings are decompiled and compared with the
spec, its page text checked for ``**BROKEN**`` markers and errors. Only when they agree is it
resumed (unless the spec says paused). On any failure, a cancelled call included, the partial
rule is force-deleted and the answer says what happened: no broken rule is left behind.

An update is made **in place** (the rule keeps its app id): the rule is backed up and
paused, emptied through its pages (:mod:`.inplace`), built again from the new spec and
verified. If that fails, the old spec is built back the same way (the answer says whether it
was); a rule whose current spec cannot be built again, or whose pages refuse the deletes
before anything changed, is rebuilt instead: the new rule is built and verified as a new app,
then the old one removed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from ...errors import ToolError
from ...hub.errors import HubError
from ...redact import redact, redact_text
from ..apps.page_model import text_of
from ..apps.wizard import Click, Step, Wizard, Write, describe
from .check import CheckSources, Resolved, canonical_modes, resolve
from .compile import compile_spec
from .decompile import Decompiler
from .inplace import NotEditable, RuleEraser
from .parse import parse_spec
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

    async def _parent_id(self) -> str:
        for app in await self._apps.tree():
            if app.parent_id is None and app.type == "Rule Machine":
                return app.id
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
        parent = await self._parent_id()
        app_id = await self._hub_rules.create(parent)  # a RM_NAMESPACE / RM_APP child
        wizard = Wizard(self._client, app_id)
        try:
            await wizard.run(steps)
            await self._rules.set_paused(
                app_id, True, confirm=True
            )  # no-op when the build paused it
            readback = await self._verify(app_id, spec)
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

    async def _remove_partial(self, app_id: str) -> bool:
        try:
            await asyncio.shield(self._hub_apps.delete(app_id, force=True))
        except (HubError, asyncio.CancelledError):
            return False
        return True

    async def _verify(self, app_id: str, spec: RuleSpec) -> dict[str, Any]:
        read = await self.read(app_id, by_text=False)
        want = spec.as_dict()
        want.pop("paused", None)
        want.pop("enabled", None)
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
        answers = await asyncio.gather(
            self._hub_rules.state(app_id), self._hub_apps.config_page(app_id, None)
        )
        status, config = cast(tuple[dict[str, Any], dict[str, Any]], answers)
        values, ids = _settings(status)
        state = _state(status)
        modes: dict[str, str] = {}
        if any(k.startswith(("modesX", "modes", "mode.", "delayModes.")) for k in values):
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
        return {
            "app_id": app_id,
            "spec": spec,
            "undecompiled": dec.undecompiled,
            "rule_text": [redact_text(t) for t in text],
            "broken_markers": markers,
            "page_error": (config.get("configPage") or {}).get("error"),
            "paused": bool(state.get("paused")),
            "stopped": bool(state.get("stopped")),
        }

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
        """Change a rule to a whole spec or a JSON Patch of its current spec: in place (same
        app id) when its pages allow it, else rebuilt as a new rule (see the module text)."""
        current = await self.get(app_id)
        if (value is None) == (patch is None):
            raise ToolError(
                "Give rule (a whole spec) or patch (changes to the current spec), "
                "one of them. Nothing was sent."
            )
        if patch is not None:
            value = apply_patch(current["spec"], patch)
        value = restore_redacted(value, current["spec"])
        if isinstance(value, dict) and "name" not in value:
            value = {**value, "name": current["spec"].get("name") or current["name"]}
        if isinstance(value, dict) and "paused" not in value and current["paused"]:
            value = {**value, "paused": True}
        app = await self._apps.find(app_id)
        if isinstance(value, dict) and "enabled" not in value and app.disabled:
            value = {**value, "enabled": False}  # a disabled rule stays disabled
        spec, res, steps = await self._prepare(
            value, confirm=confirm, device_allowed=device_allowed
        )
        if validate_only:
            return {**self._dry_run(spec, res, steps), "edits_app_id": app_id}
        backup = await self._item_backups.save(
            "installedapp", app_id, await self._apps.snapshot(app), reason="before update"
        )
        try:
            edited = await self._edit_in_place(
                app_id, spec, steps, current, app.disabled, backup["backup"]
            )
        except NotEditable as why:
            return await self._rebuild(app_id, spec, steps, backup, str(why))
        return {**edited, "item_backup": backup}

    async def _old_steps(self, current: dict[str, Any]) -> list[Step] | None:
        """The steps that build the rule as it is now (to put it back if an edit fails), or
        None when its spec cannot be built again (a part unread, a device gone)."""
        if current["undecompiled"]:
            return None
        old = dict(current["spec"])
        try:
            _spec, _res, steps = await self._prepare(
                old, confirm=True, device_allowed=lambda _id: True
            )
        except ToolError:
            return None
        return steps

    async def _edit_in_place(
        self,
        app_id: str,
        spec: RuleSpec,
        steps: list[Step],
        current: dict[str, Any],
        disabled: bool,
        backup: str,
    ) -> dict[str, Any]:
        """Pause, empty (:mod:`.inplace`) and build the rule again on the same app, verify,
        then resume as the spec says. A failure puts the old rule back the same way."""
        old_steps = await self._old_steps(current)
        if old_steps is None:
            raise NotEditable(
                "Its current spec cannot be built again to put it back if the edit failed "
                "(a part its read could not decode, or a device that is gone)."
            )
        eraser, wizard = (
            RuleEraser(self._client, self._hub_rules, app_id),
            Wizard(self._client, app_id),
        )
        try:
            await self._rules.set_paused(app_id, True, confirm=True)
            # Rule Machine ignores deletes on a disabled rule (the on-hub server, live)
            if disabled:
                await self._apps.set_disabled(app_id, False)
            removed = await eraser.run()
            await wizard.run(_on_paused(steps))
            readback = await self._verify(app_id, spec)
        except BaseException as err:
            if not eraser.changed:  # nothing of the rule was removed: as it was, re-raised
                await asyncio.shield(self._restore_flags(app_id, current, disabled))
                raise
            back = asyncio.shield(self._put_back(app_id, current, old_steps, disabled, backup))
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
        await self._settle(app_id, paused=spec.paused, enabled=spec.enabled)
        return {
            **_answer(app_id, spec, eraser.requests + wizard.sent, readback),
            "edited_in_place": True,
            "removed": removed,
            "note": f"Edited in place: the rule keeps its app id {app_id}, so rules, "
            "dashboards and apps that use it by id keep working.",
        }

    async def _settle(self, app_id: str, *, paused: bool, enabled: bool) -> None:
        await self._rules.set_paused(app_id, paused, confirm=True)
        await self._apps.set_disabled(app_id, not enabled)

    async def _restore_flags(self, app_id: str, current: dict[str, Any], disabled: bool) -> str:
        """Pause and disable the rule as it was; "" or what could not be set back."""
        try:
            await self._settle(app_id, paused=current["paused"], enabled=not disabled)
        except (ToolError, HubError) as err:
            _LOGGER.warning("Rule %s: pause/disable not set back: %s", app_id, err)
            return (
                f" Its pause and disable state could not be set back (it should be "
                f"{'paused' if current['paused'] else 'running'}"
                f"{' and disabled' if disabled else ''}): set them again (the rule's pause, "
                "the app's disabled state)."
            )
        return ""

    async def _put_back(
        self, app_id: str, current: dict[str, Any], steps: list[Step], disabled: bool, backup: str
    ) -> tuple[str, dict[str, str]]:
        """Build the rule as it was: emptied and built again in place, or else made again
        from its spec as a new rule (the emptied app removed); what happened, in words, and
        what is left to do as facts (``restore_flags_app_id``: its pause and disable state
        were not set back; ``import_backup``: the item backup that can make it again;
        ``delete_app_id``: the emptied app to delete)."""
        old = parse_spec(current["spec"])
        try:
            await RuleEraser(self._client, self._hub_rules, app_id, close_editor=True).run()
            await Wizard(self._client, app_id).run(_on_paused(steps))
            await self._verify(app_id, old)
        except (ToolError, HubError) as err:
            _LOGGER.warning("Rule %s not put back in place: %s", app_id, redact_text(str(err)))
        else:
            flags = await self._restore_flags(app_id, current, disabled)
            facts = {"restore_flags_app_id": app_id} if flags else {}
            return f"The rule (app {app_id}) was put back as it was.{flags}", facts
        try:
            made = await self._build(old, steps)
            if current["paused"] or disabled:
                await self._settle(made["app_id"], paused=current["paused"], enabled=not disabled)
        except (ToolError, HubError) as err:
            _LOGGER.warning("Rule %s not made again: %s", app_id, redact_text(str(err)))
            return (
                f"The rule (app {app_id}) could not be put back as it was: it is left paused. "
                f"Its item backup {backup} holds its settings (secrets such as an HTTP "
                f"action's URL token redacted: enter those again), and where the hub's App "
                f"Cloner exported it, an app import from that backup makes it again; "
                "or run the update again.",
                {"import_backup": backup},
            )
        gone = await self._remove_partial(app_id)
        return (
            f"The rule could not be put back in place, so it was made again from its spec "
            f"as app {made['app_id']} (a new app id)"
            + (f"; the emptied app {app_id} was removed." if gone else f"; delete app {app_id}."),
            {} if gone else {"delete_app_id": app_id},
        )

    async def _rebuild(
        self, app_id: str, spec: RuleSpec, steps: list[Step], backup: Any, why: str
    ) -> dict[str, Any]:
        """The fallback: build the new rule as a new app, verify it, remove the old one."""
        try:
            built = await self._build(spec, steps)
        except ToolError as err:
            raise ToolError(
                f"{err} The rule itself (app {app_id}) is unchanged.",
                code=err.code,
                hint=err.hint,
                subject=err.subject,
                extra=err.extra,
            ) from err
        removed = await self._remove_partial(app_id)
        if removed:
            removed = app_id not in {a.id for a in await self._apps.tree()}
        note = (
            f"It could not be edited in place ({why}), so it was rebuilt: the new rule was "
            f"built and verified, then the old one (app {app_id}) removed: same name, new app "
            f"id {built['app_id']}. Rules that ran the old one by its id need it changed."
        )
        if not removed:
            note = (
                f"The new rule (app {built['app_id']}) is built and verified, but the old one "
                f"(app {app_id}) could not be removed: both now run. Delete app {app_id}."
            )
        return {
            **built,
            "replaced_app_id": app_id,
            "old_rule_removed": removed,
            "item_backup": backup,
            "note": note,
        }


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


def _on_paused(steps: list[Step]) -> list[Step]:
    """A build's steps for a rule that is paused already: without the Pause click (a toggle)."""
    return [s for s in steps if not (isinstance(s, Click) and s.button == "pausRule")]
