"""Visual Rules Builder rules (classic format): read, create, update, delete, node health.

Every node list is checked before the first request (``visual_nodes.check_nodes``: known
node types, required keys), then every device a node names: it exists, is inside the
assistant's allowlist, declares the attribute the node reads or the command it sends; an
action on a lock, valve, garage door or other sensitive device needs confirm=true.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, NotRequired, TypedDict

from ...errors import ToolError
from ...hub.apps import (
    InstalledApp,
    create_visual_rule,
    delete_app,
    fetch_rule_builder,
    fetch_rule_builder20,
    save_visual_rule,
)
from ...hub.client import HubClient
from ...hub.devices import fetch_devices
from ...hub.errors import HubBadResponseError, HubError, HubNotFoundError
from ...hub.models import DeviceDetail
from ..confirm import require_confirm
from ..devices.admin import is_sensitive_device
from ..devices.query import DeviceManager
from ..item_backups import ItemBackups, SavedBackup
from .visual_nodes import LISTS, DeviceUse, check_nodes, has_trigger, node_problems, stored_uses

NODE_KEYS = tuple(wire for _arg, wire in LISTS)
FindRule = Callable[..., Awaitable[InstalledApp]]
DeviceAllowed = Callable[[str], bool]


def allow_all(_device_id: str) -> bool:
    return True


class VisualRule(TypedDict):
    """A Visual Rule's definition: ``format`` classic or graph."""

    app_id: str
    name: str
    format: str
    definition: dict[str, Any]


class SavedVisualRule(TypedDict):
    """A created or updated Visual Rule (an update backs up the previous definition)."""

    app_id: str
    name: Any  # the name the definition carries
    item_backup: NotRequired[SavedBackup]


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
        client: HubClient,
        find_rule: FindRule,
        backups: ItemBackups,
        devices: DeviceManager,
    ) -> None:
        self._client = client
        self._find = find_rule
        self._backups = backups
        self._devices = devices

    async def _details(self, uses: list[DeviceUse]) -> dict[str, DeviceDetail]:
        ids = sorted({u.device_id for u in uses})

        async def one(device_id: str) -> DeviceDetail | None:
            try:
                return await self._devices.get_device(device_id)
            except HubNotFoundError:
                return None

        found = await asyncio.gather(*(one(i) for i in ids))
        return {i: d for i, d in zip(ids, found, strict=True) if d is not None}

    async def validate(
        self, body: dict[str, Any], *, device_allowed: DeviceAllowed, confirm: bool
    ) -> dict[str, Any]:
        """The body with its node lists checked and normalised (nothing is sent)."""
        checked = check_nodes(_wire_lists(body))
        for use in checked.uses:
            if not device_allowed(use.device_id):
                raise ToolError(
                    f"{use.path}: device {use.device_id} is outside the assistant's device "
                    "allowlist. Nothing was sent.",
                    code="device_not_allowed",
                    hint="Use a device hub_list_devices shows; an admin can change the allowlist.",
                )
        details = await self._details(checked.uses)
        sensitive: list[str] = []
        for use in checked.uses:
            detail = details.get(use.device_id)
            if detail is None:
                raise ToolError(
                    f"{use.path}: no device {use.device_id} on the hub. Nothing was sent.",
                    code="not_found",
                    hint="Use device ids from hub_list_devices.",
                )
            _check_declares(use, detail)
            if use.list_key != "when_nodes" and (
                use.node.sensitive or is_sensitive_device(detail.summary.capabilities)
            ):
                sensitive.append(f"{use.path} ({detail.summary.display_name})")
        if sensitive:
            require_confirm(
                confirm,
                "This Visual Rule commands security-sensitive devices: "
                f"{', '.join(sensitive[:5])}.",
            )
        out = dict(body)
        for arg, wire in LISTS:
            if arg in checked.lists:
                out[wire] = checked.lists[arg]
        return out

    async def get(self, app_id: str) -> VisualRule:
        """A Visual Rule's definition and its format."""
        app = await self._find(app_id, visual=True)
        graph = await fetch_rule_builder20(self._client, app_id)
        if graph is not None:
            return {"app_id": app_id, "name": app.name, "format": "graph", "definition": graph}
        data = await fetch_rule_builder(self._client, app_id)
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
        body = await self.validate(body, device_allowed=device_allowed, confirm=confirm)
        _require_runnable(body)
        app_id, graph = await create_visual_rule(self._client)
        try:
            if graph:
                raise ToolError(
                    "This firmware creates Visual Rules in the graph format, which this tool "
                    "does not write. The empty rule was removed.",
                    hint="Create the rule in the hub UI.",
                )
            await self._save_verified(app_id, body)
        except (HubError, ToolError):
            await delete_app(self._client, app_id, force=True)
            raise
        return {"app_id": app_id, "name": body.get("name")}

    async def _save_verified(self, app_id: str, body: dict[str, Any]) -> None:
        """Write a classic Visual Rule, then read it back: the name and the number of nodes
        of each kind must be what was sent (the hub UI reads no answer to this save)."""
        await save_visual_rule(self._client, app_id, body)
        now = await fetch_rule_builder(self._client, app_id)

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
        changes = await self.validate(changes, device_allowed=device_allowed, confirm=confirm)
        current = await self.get(app_id)
        if current["format"] != "classic":
            raise ToolError(
                f"Visual Rule {app_id} uses the graph format, which this tool does not write."
            )
        old = current["definition"]
        body = {k: old.get(k) for k in ("name", "rulePaused", *NODE_KEYS)}
        body.update(changes)
        if any(k in changes for k in NODE_KEYS):
            _require_runnable(body)
        backup = await self._backups.save(
            "visualrule",
            app_id,
            {"name": current["name"], "definition": old},
            reason="before update",
            series=True,
        )
        await self._save_verified(app_id, body)
        self._backups.edited("visualrule", app_id, {"definition": body})
        return {"app_id": app_id, "name": body.get("name"), "item_backup": backup}

    async def delete(self, app_id: str) -> DeletedVisualRule:
        """Back up and return the definition, then force-delete the rule."""
        current = await self.get(app_id)
        backup = await self._backups.save(
            "visualrule",
            app_id,
            {"name": current["name"], "definition": current["definition"]},
            reason="before delete",
        )
        await delete_app(self._client, app_id, force=True)
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
        if await fetch_rule_builder20(self._client, app_id) is not None:
            return []
        definition = await fetch_rule_builder(self._client, app_id)
        problems = node_problems(definition)
        uses = stored_uses(definition)
        if uses:
            present = {d.id for d in await fetch_devices(self._client)}
            problems += [
                f"{u.path}: device {u.device_id} no longer exists"
                for u in uses
                if u.device_id not in present
            ]
        return problems


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
                hint=f"Pick a device with '{node.attribute}' (hub_get_device lists its "
                f"attributes): its attributes are {', '.join(sorted(names)) or 'none'}.",
            )
    if node.commands:
        declared = {c.name for c in detail.commands}
        if declared.isdisjoint(node.commands):
            raise ToolError(
                f"{use.path}: {label} has no '{node.commands[0]}' command, which a "
                f"{node.name} action sends. Nothing was sent.",
                hint=f"Pick a device that declares {' or '.join(node.commands)} "
                "(hub_get_device lists its commands).",
            )
