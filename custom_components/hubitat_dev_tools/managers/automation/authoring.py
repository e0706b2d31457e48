"""Native Rule Machine rules from a spec: create, update (rebuild), read back, dry run.

A rule is built **paused** through Rule Machine's own pages (:mod:`.compile`,
:mod:`..apps.wizard`), then read back: its settings are decompiled and compared with the
spec, its page text checked for ``**BROKEN**`` markers and errors. Only when they agree is it
resumed (unless the spec says paused). On any failure, a cancelled call included, the partial
rule is force-deleted and the answer says what happened: no broken rule is left behind.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...errors import ToolError
from ...hub.apps import create_child_app, delete_app, fetch_config_page, fetch_status
from ...hub.errors import HubError
from ...redact import redact, redact_text
from ..apps.page_model import text_of
from ..apps.wizard import Step, Wizard, Write, describe
from .check import Resolved, canonical_modes, resolve
from .compile import compile_spec
from .decompile import Decompiler
from .parse import parse_spec
from .spec import RuleSpec
from .text import rule_text

if TYPE_CHECKING:
    from ..hub import Hub

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
    """Rule Machine authoring for one hub (``hub.rule_authoring``)."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub

    @property
    def _client(self) -> Any:
        return self._hub.client

    async def _prepare(
        self, value: Any, *, confirm: bool, device_allowed: Callable[[str], bool]
    ) -> tuple[RuleSpec, Resolved, list[Step]]:
        spec = parse_spec(value)
        res = await resolve(self._hub, spec, confirm=confirm, device_allowed=device_allowed)
        spec = canonical_modes(spec, res)
        return spec, res, compile_spec(spec, res, self._hub.time_zone)

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
        for app in await self._hub.apps.tree():
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
        app_id = await create_child_app(self._client, RM_NAMESPACE, RM_APP, parent)
        wizard = Wizard(self._client, app_id)
        try:
            await wizard.run(steps)
            await self._hub.rules.set_paused(app_id, True)  # no-op when the build paused it
            readback = await self._verify(app_id, spec)
        except BaseException as err:
            removed = await self._remove_partial(app_id)
            if isinstance(err, ToolError | HubError):
                note = (
                    f" The partial rule (app {app_id}) was removed."
                    if removed
                    else f" The partial rule (app {app_id}) could not be removed: delete it "
                    "with hub_delete_app."
                )
                raise ToolError(
                    f"{err}{note}",
                    code=err.code,
                    hint=getattr(err, "hint", None),
                ) from err
            raise
        if not spec.paused:
            await self._hub.rules.set_paused(app_id, False)
        if not spec.enabled:
            await self._hub.apps.set_disabled(app_id, True)
        return {
            "app_id": app_id,
            "name": spec.name,
            "paused": spec.paused,
            "enabled": spec.enabled,
            "verified": True,
            "page_requests": wizard.sent,
            "rule_text": readback["rule_text"],
        }

    async def _remove_partial(self, app_id: str) -> bool:
        try:
            await asyncio.shield(delete_app(self._client, app_id, force=True))
        except (HubError, asyncio.CancelledError):
            return False
        return True

    async def _verify(self, app_id: str, spec: RuleSpec) -> dict[str, Any]:
        read = await self.read(app_id)
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

    async def read(self, app_id: str) -> dict[str, Any]:
        """A rule's settings as a spec, its rule text, and what could not be read."""
        status, config = await asyncio.gather(
            fetch_status(self._client, app_id), fetch_config_page(self._client, app_id, None)
        )
        values, ids = _settings(status)
        state = _state(status)
        modes: dict[str, str] = {}
        if any(k.startswith(("modesX", "modes", "mode.", "delayModes.")) for k in values):
            modes = {
                str(m["mode_id"]): str(m["name"])
                for m in (await self._hub.modes.list_modes())["modes"]
            }
        name = str(((config.get("app") or {}).get("label")) or "")
        dec = Decompiler(values, ids, modes, state)
        spec = dec.spec(text_of(name))
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
        """``hub_get_rule``: an existing Rule Machine rule as a spec, with its rule text."""
        app = await self._hub.apps.find(app_id)
        if not app.is_rm_rule:
            raise ToolError(
                f"App {app_id} ({app.name}, type {app.type}) is not a Rule Machine rule.",
                hint="List Rule Machine rules with hub_list_rules engine=rule_machine; Visual "
                "Rules are read with hub_get_visual_rule.",
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
        """Rebuild a rule from a whole spec or a JSON Patch of its current spec."""
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
        spec, res, steps = await self._prepare(
            value, confirm=confirm, device_allowed=device_allowed
        )
        if validate_only:
            return {**self._dry_run(spec, res, steps), "replaces_app_id": app_id}
        app = await self._hub.apps.find(app_id)
        backup = await self._hub.item_backups.save(
            "installedapp", app_id, await self._hub.apps.snapshot(app), reason="before update"
        )
        try:
            built = await self._build(spec, steps)
        except ToolError as err:
            raise ToolError(
                f"{err} The rule itself (app {app_id}) is unchanged.", code=err.code, hint=err.hint
            ) from err
        removed = await self._remove_partial(app_id)
        if removed:
            removed = app_id not in {a.id for a in await self._hub.apps.tree()}
        note = (
            "Changes are made by rebuilding the rule (editing its pages in place is not built "
            f"here): the new rule was built and verified, then the old one (app {app_id}) "
            f"removed: same name, new app id {built['app_id']}. Rules that ran the old one "
            "by its id need it changed."
        )
        if not removed:
            note = (
                f"The new rule (app {built['app_id']}) is built and verified, but the old one "
                f"(app {app_id}) could not be removed: both now run. Delete app {app_id} with "
                "hub_delete_app."
            )
        return {
            **built,
            "replaced_app_id": app_id,
            "old_rule_removed": removed,
            "item_backup": backup,
            "note": note,
        }


def restore_redacted(value: Any, current: Any) -> Any:
    """``value`` with each string that is one of the current rule's as a read shows it
    redacted (a rule's URL, a POST body: hub_get_rule never shows their secrets) put back to
    the original, so a spec read, changed and given back loses nothing."""
    originals: dict[str, str] = {}

    def collect(raw: Any, shown: Any) -> None:
        if isinstance(raw, str) and isinstance(shown, str) and raw != shown:
            originals[shown] = raw
        elif isinstance(raw, dict) and isinstance(shown, dict):
            for k, v in raw.items():
                collect(v, shown.get(k))
        elif isinstance(raw, list) and isinstance(shown, list):
            for a, b in zip(raw, shown, strict=False):
                collect(a, b)

    def swap(node: Any) -> Any:
        if isinstance(node, str):
            return originals.get(node, node)
        if isinstance(node, dict):
            return {k: swap(v) for k, v in node.items()}
        if isinstance(node, list):
            return [swap(v) for v in node]
        return node

    collect(current, redact(current))
    return swap(value) if originals else value


def apply_patch(doc: Any, ops: list[Any]) -> Any:
    """RFC 6902 ``add`` / ``replace`` / ``remove`` on a copy of ``doc``."""
    out = copy.deepcopy(doc)
    for i, op in enumerate(ops):
        where = f"patch[{i}]"
        if not isinstance(op, dict) or op.get("op") not in ("add", "replace", "remove"):
            raise ToolError(
                f"{where}: each change is {{op: add|replace|remove, path, value}}. "
                "Nothing was sent."
            )
        path = op.get("path")
        if not isinstance(path, str) or not path.startswith("/"):
            raise ToolError(
                f"{where}.path must be a JSON Pointer such as /actions/3/delay. Nothing was sent."
            )
        parts = [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]
        parent: Any = out
        for part in parts[:-1]:
            parent = _child(parent, part, where)
        last = parts[-1]
        if isinstance(parent, list):
            idx = len(parent) if last == "-" else _index(last, parent, where, op["op"] == "add")
            if op["op"] == "remove":
                parent.pop(idx)
            elif op["op"] == "add":
                parent.insert(idx, op.get("value"))
            else:
                parent[idx] = op.get("value")
        elif isinstance(parent, dict):
            if op["op"] == "remove":
                if last not in parent:
                    raise ToolError(f"{where}: {path} is not in the rule. Nothing was sent.")
                parent.pop(last)
            elif op["op"] == "replace" and last not in parent:
                raise ToolError(f"{where}: {path} is not in the rule (use add). Nothing was sent.")
            else:
                parent[last] = op.get("value")
        else:
            raise ToolError(f"{where}: {path} does not lead into the rule. Nothing was sent.")
    return out


def _index(part: str, items: list[Any], where: str, adding: bool) -> int:
    if not part.isdigit() or int(part) > len(items) - (0 if adding else 1):
        raise ToolError(
            f"{where}: no item {part} there (there are {len(items)}). Nothing was sent."
        )
    return int(part)


def _child(node: Any, part: str, where: str) -> Any:
    if isinstance(node, list):
        return node[_index(part, node, where, False)]
    if isinstance(node, dict) and part in node:
        return node[part]
    raise ToolError(
        f"{where}: '{part}' is not in the rule. Nothing was sent.",
        hint="Read the rule with hub_get_rule; paths follow its spec.",
    )
