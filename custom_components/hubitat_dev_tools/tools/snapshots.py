"""Hub configuration snapshots: take one, list them, diff two or one against the live hub.

A snapshot is a YAML file in Home Assistant's config directory (``snapshots.py``, the
store); taking one only reads the hub. A diff says, per change, whether an audit record
of this integration (same hub, in the diff's time window, a tool of the category's domain
whose arguments name the item) explains it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..device_refs import DeviceScreen
from ..domain_data import get_domain_data
from ..managers.apps.visual_nodes import DEVICE_KEYS
from ..managers.snapshots import HEADER, AuditMatcher, diff_snapshots
from ..safety import ToolKind
from ..snapshots import async_take_snapshot, snapshot_name, store_for
from .args import ToolArgs, arg
from .base import HubTool, ToolCall

TOOL_DOMAIN = "snapshots"


@dataclass(frozen=True, slots=True, kw_only=True)
class DiffSnapshotsArgs(ToolArgs):
    from_snapshot: str = arg(str, "Snapshot", required=True)
    to_snapshot: str | None = arg(str, "Omit: live hub")


class CreateSnapshotTool(HubTool[ToolArgs]):
    name = "hub_create_snapshot"
    title = "Snapshot config"
    description = (
        "Save hub config as YAML in HA (secrets redacted; hub unchanged). Not a "
        "backup: hub_create_backup."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await async_take_snapshot(call.hass, call.runtime)


class ListSnapshotsTool(HubTool[ToolArgs]):
    name = "hub_list_snapshots"
    title = "List snapshots"
    description = (
        "The hub's configuration snapshots, newest first (name, time, size). Compare two, or "
        "one with the live hub: hub_diff_snapshots."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        files = await store_for(call.hass, call.runtime).async_list()
        return {"snapshots": [f.as_dict() for f in files], "count": len(files)}


# Where a category keeps device ids under keys of its own: Visual Rule nodes.
_DEVICE_KEYS: dict[str, tuple[str, ...]] = {"rules": DEVICE_KEYS}


def _allowed_only(doc: Mapping[str, Any], screen: DeviceScreen) -> dict[str, Any]:
    """The document with devices outside the allowlist left out: the devices themselves,
    and every other category's references to them (rooms' device lists, app settings, rule
    text and Visual Rule nodes), before the diff, so a change only they made is not shown."""
    out = dict(doc)
    if isinstance(devices := doc.get("devices"), Mapping):
        out["devices"] = {k: v for k, v in devices.items() if screen.allowed(str(k))}
    for category, items in doc.items():
        if category not in (HEADER, "devices"):
            out[category] = screen(items, id_keys=_DEVICE_KEYS.get(category, ()))
    return out


def _labels(doc: Mapping[str, Any]) -> dict[str, str]:
    """The devices a snapshot holds (id -> label), also those no longer on the hub."""
    devices = doc.get("devices")
    return {
        str(k): str(v.get("label") or v.get("name") or "")
        for k, v in (devices.items() if isinstance(devices, Mapping) else ())
        if isinstance(v, Mapping)
    }


class DiffSnapshotsTool(HubTool[DiffSnapshotsArgs]):
    name = "hub_diff_snapshots"
    title = "What changed"
    description = (
        "Config changes since a snapshot (or between two): added, removed, changed old -> "
        "new, marked if made via this integration."
    )

    async def run(self, call: ToolCall, args: DiffSnapshotsArgs) -> dict[str, Any]:
        store = store_for(call.hass, call.runtime)
        old = await store.async_read(args.from_snapshot)
        if args.to_snapshot is not None:
            new = await store.async_read(args.to_snapshot)
        else:
            new = await call.hub.snapshots.collect(
                hub_uid=call.runtime.identity.hub_uid, hub_name=call.runtime.title
            )
        start = _time(old)
        end = _time(new) if args.to_snapshot is not None else datetime.now(UTC)
        shared = get_domain_data(call.hass)
        matcher = AuditMatcher(
            shared.audit.recent(None) if shared else [],
            hub_names={call.runtime.title, str(old[HEADER].get("hub_name") or "")},
            start=start,
            end=end,
            tool_domains={t.name: t.domain for t in _registry()},
        )
        screen = await call.hub.devices.screen(call.device_allowed)
        if screen.active:
            screen.learn({**_labels(new), **_labels(old)})
        diff = diff_snapshots(_allowed_only(old, screen), _allowed_only(new, screen), matcher)
        return screen.count(
            {
                "from_snapshot": snapshot_name(args.from_snapshot),
                "to_snapshot": snapshot_name(args.to_snapshot) if args.to_snapshot else "live",
                "from_time": start.isoformat() if start else None,
                "to_time": end.isoformat() if end else None,
                **diff,
            }
        )


def _time(doc: Mapping[str, Any]) -> datetime | None:
    header = doc.get(HEADER)
    taken = header.get("taken") if isinstance(header, Mapping) else None
    try:
        return datetime.fromisoformat(str(taken)) if taken else None
    except ValueError:
        return None


def _registry() -> list[HubTool[Any]]:
    from .surface import registry  # the registry imports every tool module, this one too

    return list(registry().values())


ORDER = 76

TOOLS: tuple[type[HubTool[Any]], ...] = (CreateSnapshotTool, ListSnapshotsTool, DiffSnapshotsTool)
