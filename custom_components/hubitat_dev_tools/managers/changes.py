"""What changed over a window, from the hub's own history: one answer for "what changed".

Device attribute changes (from each device's event history, for the devices whose last
activity falls in the window: at most ``MAX_DEVICES`` of them, newest first, read with
bounded concurrency), and mode, HSM, hub variable and hub events (the hub's location and hub
event lists). The hub keeps these whether or not Home Assistant was connected. Who made a
change through our tools is the caller's to add (the audit trail lives in Home Assistant),
and so are the device edits made through them (label, room, preferences...: the hub keeps
no event of those), given as ``DeviceEdit``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any

from ..hub.errors import HubNotFoundError
from ..hub.models import parse_hub_time
from .devices import DeviceManager
from .devices.filters import DeviceFilter
from .logs import LogsManager

MAX_DEVICES = 25
CONCURRENCY = 4
_KINDS = {"mode": "mode", "hsmStatus": "hsm", "hsmAlert": "hsm", "hsmArmState": "hsm"}


@dataclass(frozen=True, slots=True)
class DeviceEdit:
    """One device edit made through our tools: when, which device, the fields as asked
    (name -> new value, from the redacted audit arguments) and who."""

    when: datetime
    device_id: str
    fields: dict[str, Any]
    by: dict[str, Any] = field(default_factory=dict)


def _kind(source: str, name: str) -> str:
    if source == "hub":
        return "hub"
    if name.startswith("variable:") or name.startswith("variable"):
        return "variable"
    return _KINDS.get(name, "location")


class ChangeLog:
    """``hub.changes``: the merged change history of a window."""

    def __init__(self, devices: DeviceManager, logs: LogsManager) -> None:
        self._devices = devices
        self._logs = logs

    async def changes(
        self,
        since: datetime,
        *,
        device_allowed: Callable[[str], bool],
        limit: int,
        device_ids: list[str] | None = None,
        edits: Sequence[DeviceEdit] = (),
        zone: tzinfo | None = None,
    ) -> dict[str, Any]:
        """Every change after ``since``, newest first (at most ``limit``); nothing of a
        device outside ``device_allowed`` (its attribute changes, its ``edits``, or a hub or
        location event that names it). An edit's date is written in ``zone``."""
        every = await self._devices.list_devices(DeviceFilter(), allowed=device_allowed)
        recent = DeviceFilter(changed_since=since)
        active = [d for d in every if recent.matches(d)]
        if device_ids is not None:
            active = [d for d in active if d.id in set(device_ids)]
        active.sort(key=lambda d: str(d.last_activity or ""), reverse=True)
        checked, skipped = active[:MAX_DEVICES], active[MAX_DEVICES:]
        sem = asyncio.Semaphore(CONCURRENCY)

        async def one(dev_id: str) -> list[dict[str, Any]]:
            async with sem:
                try:
                    return await self._devices.events(device_id=dev_id, since=since, limit=100)
                except HubNotFoundError:
                    return []  # deleted meanwhile

        per_device, located = await asyncio.gather(
            asyncio.gather(*(one(d.id) for d in checked)),
            self._logs.events(
                "all",
                500,
                since,
                None,
                device_allowed=device_allowed,
                screen=await self._devices.screen(device_allowed),
            )
            if device_ids is None
            else _none(),
        )
        rows: list[dict[str, Any]] = []
        for dev, events in zip(checked, per_device, strict=True):
            for ev in events:
                if ev.get("is_state_change") is False and ev.get("type") != "command":
                    continue
                row = {
                    "date": ev.get("date"),
                    "kind": "device",
                    "device_id": dev.id,
                    "device": dev.display_name,
                    "name": ev.get("name"),
                    "value": ev.get("value"),
                }
                for key in ("unit", "description", "type"):
                    if ev.get(key) is not None:
                        row[key] = ev[key]
                rows.append(row)
        labels = {d.id: d.display_name for d in every}
        for edit in edits:
            if (
                edit.when < since
                or not device_allowed(edit.device_id)
                or (device_ids is not None and edit.device_id not in device_ids)
            ):
                continue
            for name, value in edit.fields.items():
                rows.append(
                    {
                        "date": edit.when.astimezone(zone or UTC).isoformat(
                            timespec="milliseconds"
                        ),
                        "kind": "device",
                        "device_id": edit.device_id,
                        "device": labels.get(edit.device_id, edit.device_id),
                        "name": name,
                        "value": value,
                        "type": "edit",
                        "by": edit.by,
                    }
                )
        for ev in located.get("events", []):
            name = str(ev.get("name") or "")
            row = {
                "date": ev.get("date"),
                "kind": _kind(str(ev.get("source")), name),
                "name": name,
                "value": ev.get("value"),
            }
            if ev.get("description"):
                row["description"] = ev["description"]
            rows.append(row)
        rows.sort(key=lambda r: _when(r.get("date")), reverse=True)
        out: dict[str, Any] = {
            "since": since.isoformat(timespec="seconds"),
            "changes": rows[:limit],
            "count": min(len(rows), limit),
            "total": len(rows),
            "devices_checked": len(checked),
        }
        if skipped:
            out["devices_not_checked"] = [d.id for d in skipped]
            out["note"] = (
                f"{len(skipped)} more devices were active in the window; narrow with device_ids "
                "or a shorter window to see theirs."
            )
        return out


def _when(value: Any) -> datetime:
    parsed = parse_hub_time(value) if value else None
    return parsed or datetime.min.replace(tzinfo=UTC)


async def _none() -> dict[str, Any]:
    return {}
