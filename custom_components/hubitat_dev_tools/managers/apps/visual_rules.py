"""Visual Rules Builder rules (classic format): read, create, update, delete, node health.

Every node list is checked before the first request (``visual_nodes.check_nodes``: known
node types, required keys), then every device a node names: it exists, is inside the
assistant's allowlist, declares the attribute the node reads or the command it sends; an
action on a lock, valve, garage door or other sensitive device needs confirm=true.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from ...device_refs import DeviceScreen
from ...errors import ToolError
from ...hub.apps import InstalledApp
from ...hub.controllers import AppsController, DevicesController, VisualRulesController
from ...hub.errors import HubBadResponseError, HubError, HubNotFoundError
from ...hub.models import DeviceDetail
from ...hub.results import VisualGraph, VisualRuleDefinition
from ...hub.visual_rules import graph_text, parse_graph_text
from ..confirm import require_confirm
from ..devices.admin import is_sensitive_device
from ..devices.query import DeviceManager
from ..item_backups import ItemBackups, SavedBackup
from .visual_graph import check_graph, graph_counts, is_graph
from .visual_nodes import (
    DEVICE_KEYS,
    LISTS,
    DeviceUse,
    check_nodes,
    has_trigger,
    node_problems,
    stored_uses,
)

if TYPE_CHECKING:
    from ..sensitivity import SensitivityModel

NODE_KEYS = tuple(wire for _arg, wire in LISTS)
FindRule = Callable[..., Awaitable[InstalledApp]]
DeviceAllowed = Callable[[str], bool]


_FORMAT = {True: "graph", False: "classic"}
# The 2.0 editor's new rule (hub UI): what it saves for a rule whose ruleJson is blank.
EMPTY_GRAPH: dict[str, Any] = {
    "version": 1,
    "nodes": [
        {"id": "trigger-1", "type": "trigger", "triggerCondition": "trigger",
         "triggerType": "sampleTrigger", "deviceIds": []},
        {"id": "action-1", "type": "action", "actionType": "sample", "deviceIds": []},
    ],
    "edges": [{"from": "trigger-1", "to": "action-1", "port": "next"}],
}  # fmt: skip


def allow_all(_device_id: str) -> bool:
    return True


class VisualRule(TypedDict):
    """A Visual Rule's definition: ``format`` classic or graph."""

    app_id: str
    name: str
    format: str
    definition: dict[str, Any]
    graph: NotRequired[dict[str, Any] | None]  # graph format: ruleJson parsed


class SavedVisualRule(TypedDict):
    """A created or updated Visual Rule (an update backs up the previous definition)."""

    app_id: str
    name: Any  # the name the definition carries
    item_backup: NotRequired[SavedBackup]
    validation_errors: NotRequired[list[str]]  # graph format: the hub's own verdict


class GraphSaved(TypedDict):
    validation_errors: list[str]


class GraphDraft(TypedDict):
    """A graph draft checked without sending: ``valid`` when nothing is wrong."""

    valid: bool
    problems: list[str]
    needs_confirm: list[str]
    graph: dict[str, Any]


class DeletedVisualRule(VisualRule):
    """A deleted Visual Rule: its definition before the delete, also in the item backup."""

    item_backup: SavedBackup


def _wire_lists(body: dict[str, Any]) -> dict[str, list[Any]]:
    """The node lists of a definition body, keyed by argument name (when_nodes...)."""
    return {arg: body[wire] for arg, wire in LISTS if isinstance(body.get(wire), list)}


class VisualRuleManager:
    """Classic Visual Rules: nodes validated against the schema and the hub's devices."""

    def __init__(
        self,
        visual: VisualRulesController,
        hub_apps: AppsController,
        hub_devices: DevicesController,
        find_rule: FindRule,
        backups: ItemBackups,
        devices: DeviceManager,
        sensitivity: SensitivityModel | None = None,
    ) -> None:
        self._visual = visual
        self._hub_apps = hub_apps  # a rule is an app: deleted as one
        self._hub_devices = hub_devices  # the devices a stored rule names must exist
        self._find = find_rule
        self._backups = backups
        self._devices = devices
        # what an action's device makes act (a scene's activator) is the hub's model's call
        self._sensitivity = sensitivity

    async def _details(self, uses: list[DeviceUse]) -> dict[str, DeviceDetail]:
        ids = sorted({u.device_id for u in uses})

        async def one(device_id: str) -> DeviceDetail | None:
            try:
                return await self._devices.get_device(device_id)
            except HubNotFoundError:
                return None

        found = await asyncio.gather(*(one(i) for i in ids))
        return {i: d for i, d in zip(ids, found, strict=True) if d is not None}

    async def _device_errors(
        self, uses: list[DeviceUse], device_allowed: DeviceAllowed
    ) -> tuple[list[ToolError], list[str]]:
        """What is wrong with the devices nodes name (outside the allowlist, missing, not
        declaring what the node needs) and the sensitive ones actions command."""
        errors: list[ToolError] = []
        for use in uses:
            if not device_allowed(use.device_id):
                errors.append(
                    ToolError(
                        f"{use.path}: device {use.device_id} is outside the assistant's device "
                        "allowlist. Nothing was sent.",
                        code="device_not_allowed",
                        hint="Use an allowed device; an admin can change the allowlist.",
                        subject="visual_rule_device",
                    )
                )
        if errors:
            return errors, []
        details = await self._details(uses)
        sensitive: list[str] = []
        for use in uses:
            detail = details.get(use.device_id)
            if detail is None:
                errors.append(
                    ToolError(
                        f"{use.path}: no device {use.device_id} on the hub. Nothing was sent.",
                        code="not_found",
                        subject="device_ids",
                    )
                )
                continue
            try:
                _check_declares(use, detail)
            except ToolError as err:
                errors.append(err)
            if use.list_key == "when_nodes":
                continue
            if use.node.sensitive or is_sensitive_device(detail.summary.capabilities):
                sensitive.append(f"{use.path} ({detail.summary.display_name})")
            elif self._sensitivity is not None:
                reach = await self._sensitivity.devices([use.device_id], details=details)
                try:  # the model's own allowlist check (confirm is asked for below, whole)
                    self._sensitivity.require(
                        reach,
                        confirm=True,
                        allowed=device_allowed,
                        what=f"{use.path} ({detail.summary.display_name})",
                    )
                except ToolError as err:
                    errors.append(err)
                    continue
                if reach.sensitive:
                    sensitive.append(f"{use.path}: {reach.reasons[0]}")
        return errors, sensitive

    async def validate(
        self, body: dict[str, Any], *, device_allowed: DeviceAllowed, confirm: bool
    ) -> dict[str, Any]:
        """The body with its node lists checked and normalised (nothing is sent)."""
        checked = check_nodes(_wire_lists(body))
        errors, sensitive = await self._device_errors(checked.uses, device_allowed)
        if errors:
            raise errors[0]
        _require_sensitive_confirm(sensitive, confirm)
        out = dict(body)
        for arg, wire in LISTS:
            if arg in checked.lists:
                out[wire] = checked.lists[arg]
        return out

    async def check_graph(
        self, graph: dict[str, Any], *, device_allowed: DeviceAllowed, confirm: bool
    ) -> GraphDraft:
        """A graph draft checked whole (nothing is sent): every problem, the sensitive
        devices still needing confirm=true, and the normalised graph."""
        checked = check_graph(graph)
        errors, sensitive = await self._device_errors(checked.uses, device_allowed)
        problems = checked.problems + [str(e).replace(" Nothing was sent.", "") for e in errors]
        needs = [] if confirm else sensitive
        return {
            "valid": not problems and not needs,
            "problems": problems,
            "needs_confirm": needs,
            "graph": checked.graph,
        }

    async def check_draft(
        self,
        body: dict[str, Any],
        *,
        app_id: str | None = None,
        device_allowed: DeviceAllowed = allow_all,
        confirm: bool = False,
    ) -> GraphDraft:
        """Check a create (or, with ``app_id``, an update of that rule) without sending it:
        a graph whole (every problem), a classic one up to its first problem."""
        if app_id is not None:
            current = await self.get(app_id)
            if current["format"] == "graph" and is_graph(body):
                body = _merged(current, body)
        if is_graph(body):
            return await self.check_graph(body, device_allowed=device_allowed, confirm=confirm)
        try:
            checked = await self.validate(body, device_allowed=device_allowed, confirm=confirm)
            if app_id is None:
                _require_runnable(checked)
        except ToolError as err:
            text = str(err).replace(" Nothing was sent.", "").replace(" Nothing was changed.", "")
            sensitive = err.code == "confirmation_required"
            return {
                "valid": False,
                "problems": [] if sensitive else [text],
                "needs_confirm": [text] if sensitive else [],
                "graph": {},
            }
        return {"valid": True, "problems": [], "needs_confirm": [], "graph": {}}

    async def _checked_graph(
        self, graph: dict[str, Any], *, device_allowed: DeviceAllowed, confirm: bool
    ) -> dict[str, Any]:
        draft = await self.check_graph(graph, device_allowed=device_allowed, confirm=confirm)
        if draft["problems"]:
            raise ToolError(
                f"The graph has {len(draft['problems'])} problem(s): "
                f"{'; '.join(draft['problems'][:5])}. Nothing was sent.",
                hint="Fix them (validate_only=true lists them all) or compare with a rule "
                "the hub has.",
                subject="visual_graph",
                extra={"problems": draft["problems"]},
            )
        _require_sensitive_confirm(draft["needs_confirm"], confirm)
        return draft["graph"]

    async def _graph(self, app_id: str) -> dict[str, Any] | None:
        """A graph rule as the hub answers it, or None when the app is not one."""
        return cast(dict[str, Any] | None, await self._visual.graph(app_id))

    async def _definition(self, app_id: str) -> dict[str, Any]:
        """A classic rule's definition as the hub answers it."""
        return cast(dict[str, Any], await self._visual.definition(app_id))

    async def get(self, app_id: str) -> VisualRule:
        """A Visual Rule's definition and its format."""
        app = await self._find(app_id, visual=True)
        graph = await self._graph(app_id)
        if graph is not None:
            out: VisualRule = {
                "app_id": app_id,
                "name": app.name,
                "format": "graph",
                "definition": graph,
            }
            out["graph"] = parse_graph_text(graph.get("ruleJson"))
            return out
        data = await self._definition(app_id)
        return {"app_id": app_id, "name": app.name, "format": "classic", "definition": data}

    async def create(
        self,
        body: dict[str, Any],
        *,
        confirm: bool = False,
        device_allowed: DeviceAllowed = allow_all,
    ) -> SavedVisualRule:
        """Create a Visual Rule and write its definition; a failed write is cleaned up.

        The rule needs a trigger and an action; nodes are validated before any request.
        """
        if is_graph(body):
            graph = await self._checked_graph(body, device_allowed=device_allowed, confirm=confirm)
        else:
            body = await self.validate(body, device_allowed=device_allowed, confirm=confirm)
            _require_runnable(body)
        app_id, graph_format = await self._visual.create()
        try:
            if graph_format != is_graph(body):
                raise ToolError(
                    f"This firmware creates Visual Rules in the {_FORMAT[graph_format]} "
                    f"format; the rule given is {_FORMAT[not graph_format]}. The empty rule was "
                    "removed.",
                    hint="Give nodes and edges (graph) or when/then/else nodes (classic) as "
                    "the hub's rules show.",
                    subject="visual_format",
                )
            if graph_format:
                saved = await self._save_graph_verified(app_id, str(body.get("name")), graph)
                if body.get("rulePaused"):
                    await self._set_paused(app_id)
                errors = saved["validation_errors"]
                return {"app_id": app_id, "name": body.get("name"), "validation_errors": errors}
            await self._save_verified(app_id, body)
        except (HubError, ToolError):
            await self._hub_apps.delete(app_id, force=True)
            raise
        return {"app_id": app_id, "name": body.get("name")}

    async def _set_paused(self, app_id: str) -> None:
        await self._visual.set_paused(app_id, True)
        now = await self._graph(app_id) or {}
        if not now.get("rulePaused"):
            raise HubBadResponseError(f"Visual Rule {app_id} did not pause")

    async def _save_graph_verified(
        self, app_id: str, name: str, graph: dict[str, Any]
    ) -> GraphSaved:
        """Save a graph rule, then read it back: the name and the number of nodes and edges
        must be what was sent. The hub's own ``validationErrors`` are returned (a rule saved
        with them is kept, as in the editor, but may not run)."""
        answer = await self._visual.save_graph(app_id, name, cast(VisualGraph, graph))
        now = await self._graph(app_id) or {}
        stored = parse_graph_text(now.get("ruleJson"))
        if now.get("name") != name or graph_counts(stored) != graph_counts(graph):
            raise HubBadResponseError(
                f"The hub answered the save of Visual Rule {app_id} but does not hold the "
                "graph sent."
            )
        errors = now.get("validationErrors") or answer.get("validationErrors") or []
        return {"validation_errors": [str(e) for e in errors] if isinstance(errors, list) else []}

    async def _save_verified(self, app_id: str, body: dict[str, Any]) -> None:
        """Write a classic Visual Rule, then read it back: the name and the number of nodes
        of each kind must be what was sent (the hub UI reads no answer to this save)."""
        await self._visual.save_definition(app_id, cast(VisualRuleDefinition, body))
        now = await self._definition(app_id)

        def counts(data: dict[str, Any]) -> list[int]:
            return [len(v) if isinstance(v := data.get(k), list) else 0 for k in NODE_KEYS]

        renamed = body.get("name") is not None and now.get("name") != body.get("name")
        if renamed or counts(now) != counts(body):
            raise HubBadResponseError(
                f"The hub answered the save of Visual Rule {app_id} but does not hold the "
                "definition sent."
            )

    async def update(
        self,
        app_id: str,
        changes: dict[str, Any],
        *,
        confirm: bool = False,
        device_allowed: DeviceAllowed = allow_all,
    ) -> SavedVisualRule:
        """Read-merge-write a classic Visual Rule; the previous definition is backed up.

        The node lists given are validated (and must leave a trigger and an action).
        """
        current = await self.get(app_id)
        if (
            self._sensitivity is not None
            and "rulePaused" in changes
            and not changes["rulePaused"]
            and current["definition"].get("rulePaused")
        ):  # resuming: the same gate as a rule's resume
            self._sensitivity.require(
                await self._sensitivity.apps([app_id]),
                confirm=confirm,
                allowed=device_allowed,
                what=f"Resuming Visual Rule {app_id} ({current['name']})",
            )
        if (current["format"] == "graph") != is_graph(changes) and any(
            k in changes for k in (*NODE_KEYS, "nodes", "edges")
        ):
            raise ToolError(
                f"Visual Rule {app_id} uses the {current['format']} format; give "
                + ("nodes and edges" if current["format"] == "graph" else "when/then/else nodes")
                + ". Nothing was sent.",
                subject="visual_rule_format",
            )
        if current["format"] == "graph":
            return await self._update_graph(
                current, changes, confirm=confirm, device_allowed=device_allowed
            )
        changes = await self.validate(changes, device_allowed=device_allowed, confirm=confirm)
        old = current["definition"]
        body = {k: old.get(k) for k in ("name", "rulePaused", *NODE_KEYS)}
        body.update(changes)
        if any(k in changes for k in NODE_KEYS):
            _require_runnable(body)
        backup = await self._backup_before_update(current)
        await self._save_verified(app_id, body)
        self._backups.edited("visualrule", app_id, {"definition": body})
        return {"app_id": app_id, "name": body.get("name"), "item_backup": backup}

    async def _backup_before_update(self, current: VisualRule) -> SavedBackup:
        return await self._backups.save(
            "visualrule",
            current["app_id"],
            {"name": current["name"], "definition": current["definition"]},
            reason="before update",
            series=True,
        )

    async def _update_graph(
        self,
        current: VisualRule,
        changes: dict[str, Any],
        *,
        confirm: bool,
        device_allowed: DeviceAllowed,
    ) -> SavedVisualRule:
        """A graph rule: nodes/edges replaced whole (an omitted one is kept), the name
        re-saved with the graph, the pause state by its own endpoint (the save has none)."""
        app_id, old = current["app_id"], current["definition"]
        stored = current.get("graph") or EMPTY_GRAPH
        graph = None
        if is_graph(changes):
            graph = await self._checked_graph(
                _merged(current, changes), device_allowed=device_allowed, confirm=confirm
            )
        name = str(changes.get("name") or old.get("name") or current["name"])
        backup = await self._backup_before_update(current)
        out: SavedVisualRule = {"app_id": app_id, "name": name, "item_backup": backup}
        if graph is not None or name != old.get("name"):
            saved = await self._save_graph_verified(app_id, name, graph or stored)
            out["validation_errors"] = saved["validation_errors"]
        paused = changes.get("rulePaused")
        if paused is not None and bool(paused) != bool(old.get("rulePaused")):
            await self._visual.set_paused(app_id, bool(paused))
            now = await self._graph(app_id) or {}
            if bool(now.get("rulePaused")) != bool(paused):
                raise HubBadResponseError(f"Visual Rule {app_id} did not change its pause state")
        self._backups.edited("visualrule", app_id, {"definition": graph or stored})
        return out

    async def delete(self, app_id: str) -> DeletedVisualRule:
        """Back up and return the definition, then force-delete the rule."""
        current = await self.get(app_id)
        backup = await self._backups.save(
            "visualrule",
            app_id,
            {"name": current["name"], "definition": current["definition"]},
            reason="before delete",
        )
        await self._hub_apps.delete(app_id, force=True)
        return {
            "app_id": app_id,
            "name": current["name"],
            "format": current["format"],
            "definition": current["definition"],
            "item_backup": backup,
        }

    async def health_problems(self, app_id: str) -> list[str]:
        """What keeps a classic rule from running: no trigger or action, unknown node
        types, nodes whose devices are gone. A graph rule: none here (the hub validates)."""
        if await self._graph(app_id) is not None:
            return []
        definition = await self._definition(app_id)
        problems = node_problems(definition)
        uses = stored_uses(definition)
        if uses:
            present = {d.id for d in await self._hub_devices.list()}
            problems += [
                f"{u.path}: device {u.device_id} no longer exists"
                for u in uses
                if u.device_id not in present
            ]
        return problems


def screened_rule(rule: VisualRule, screen: DeviceScreen) -> dict[str, Any]:
    """A Visual Rule as a read under the device allowlist shows it: the devices outside it
    left out of every node (``deviceIds`` and the node type's own device key, in both
    formats; a graph's stored ``ruleJson`` text is written again from the screened graph)."""
    out: dict[str, Any] = screen(dict(rule), id_keys=DEVICE_KEYS)
    graph, definition = out.get("graph"), out["definition"]
    stored = isinstance(definition.get("ruleJson"), str)
    if isinstance(graph, dict) and stored and graph != rule.get("graph"):
        out["definition"] = {**definition, "ruleJson": graph_text(graph)}
    return screen.count(out)


def _require_runnable(body: dict[str, Any]) -> None:
    """A rule needs a trigger (the builder refuses to save without one) and an action."""
    if not has_trigger(body.get("whenNodes") or []):
        raise ToolError(
            "when_nodes: a Visual Rule needs at least one trigger node. Nothing was sent.",
            hint='Add a trigger, e.g. {"triggerType": "motion", "motionSensors": [ID], '
            '"motionSensorEvent": "Motion starts"} (docs/visual-rules.md).',
        )
    if not body.get("thenNodes"):
        raise ToolError(
            "then_nodes: a Visual Rule needs at least one action node. Nothing was sent.",
            hint='Add an action, e.g. {"actionType": "turnOn", "switches": [ID]}.',
        )


def _merged(current: VisualRule, changes: dict[str, Any]) -> dict[str, Any]:
    """A graph rule's stored graph with the nodes and/or edges a change gives."""
    stored = current.get("graph") or EMPTY_GRAPH
    return {**stored, **{k: changes[k] for k in ("nodes", "edges") if k in changes}}


def _require_sensitive_confirm(sensitive: list[str], confirm: bool) -> None:
    if sensitive:
        require_confirm(
            confirm,
            f"This Visual Rule commands security-sensitive devices: {', '.join(sensitive[:5])}.",
        )


def _check_declares(use: DeviceUse, detail: DeviceDetail) -> None:
    """Refuse a device that lacks the attribute the node reads or every command it sends."""
    label = f"device {use.device_id} ({detail.summary.display_name})"
    node = use.node
    if node.attribute is not None:
        names = {a.name for a in detail.attributes} | set(detail.summary.states)
        if node.attribute not in names:
            raise ToolError(
                f"{use.path}: {label} has no '{node.attribute}' attribute, which a "
                f"{node.name} node reads. Nothing was sent.",
                hint=f"Pick a device with '{node.attribute}': its attributes are "
                f"{', '.join(sorted(names)) or 'none'}.",
                subject="node_attribute",
                extra={"attribute": node.attribute, "attributes": sorted(names)},
            )
    if node.commands:
        declared = {c.name for c in detail.commands}
        if declared.isdisjoint(node.commands):
            raise ToolError(
                f"{use.path}: {label} has no '{node.commands[0]}' command, which a "
                f"{node.name} action sends. Nothing was sent.",
                hint=f"Pick a device that declares {' or '.join(node.commands)}.",
                subject="node_command",
                extra={"commands": list(node.commands)},
            )
