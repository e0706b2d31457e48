"""Room control: one command to a room's lights, fans, switches or every device declaring it.

Which devices a call takes (``device_type``):

- ``lights``: what the device list's ``capability="light"`` calls a light (``filters.is_light``);
- ``fans``: the ``FanControl`` capability, or a switch whose driver says fan (a fan's light
  module labelled "Fan Light" is a light, not a fan: the label is not read here);
- ``switches``: anything with the ``Switch`` capability (plugs included);
- ``all``: every device of the room that declares the command.

Everything goes through the device commands' own preparation (``DeviceCommands.prepare_many``:
declared commands and argument types, disabled devices, confirm for sensitive ones): one
refusal refuses the call and nothing is sent. Devices of the type that do not declare the
command, or are disabled, are skipped and say why. After sending, each device's state is
read back (bounded wait) where the command has a known effect.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from ..errors import ToolError
from ..hub.errors import HubError
from ..hub.models import DeviceDetail, DeviceSummary
from .devices import (
    AttributeCondition,
    BatchResult,
    CommandEntry,
    DeviceFilter,
    DeviceManager,
    PreparedCommand,
    is_light,
)
from .devices.commands import TOGGLE
from .rooms import RoomManager

DEVICE_TYPES = ("lights", "fans", "switches", "all")
_FAN_DRIVER = re.compile(r"\bfans?\b", re.IGNORECASE)

# command -> (attribute it sets, index of the argument holding the value, or the value)
EFFECTS: dict[str, tuple[str, int | str]] = {
    "on": ("switch", "on"),
    "off": ("switch", "off"),
    "setLevel": ("level", 0),
    "setColorTemperature": ("colorTemperature", 0),
    "setSpeed": ("speed", 0),
    "setPosition": ("position", 0),
    "lock": ("lock", "locked"),
    "unlock": ("lock", "unlocked"),
}


def is_fan(dev: DeviceSummary) -> bool:
    """A fan: the FanControl capability, or a switch whose driver (type) says fan."""
    caps = {c.lower() for c in dev.capabilities}
    if "fancontrol" in caps:
        return True
    return "switch" in caps and bool(_FAN_DRIVER.search(dev.type or ""))


def of_type(dev: DeviceSummary, device_type: str) -> bool:
    """Whether the device belongs to ``device_type`` (see the module docstring)."""
    if device_type == "lights":
        return is_light(dev)
    if device_type == "fans":
        return is_fan(dev)
    if device_type == "switches":
        return "switch" in {c.lower() for c in dev.capabilities}
    return True


def declares(detail: DeviceDetail, command: str) -> bool:
    """The device declares ``command`` (``toggle``: natively or through on and off)."""
    if detail.command(command) is not None:
        return True
    return command == TOGGLE and bool(detail.command("on") and detail.command("off"))


def expected_effect(prepared: PreparedCommand) -> tuple[str, Any] | None:
    """The attribute a sent command sets and the value to read back, when known."""
    effect = EFFECTS.get(prepared.command)
    if effect is None:
        return None
    attr, source = effect
    if isinstance(source, str):
        return attr, source
    if source < len(prepared.args):
        return attr, prepared.args[source]["value"]
    return None


class DeviceOutcome(TypedDict):
    """What happened to one device of the room."""

    device_id: str
    label: str
    status: str  # ok | unconfirmed | sent | skipped | failed
    reason: NotRequired[str]
    command: NotRequired[str]
    arguments: NotRequired[list[Any]]
    repairs: NotRequired[list[str]]
    state: NotRequired[dict[str, Any]]
    error: NotRequired[str]


class RoomControl:
    """Room-level commands (through the device commands' validation and batch sending)."""

    def __init__(self, devices: DeviceManager, rooms: RoomManager) -> None:
        self._devices = devices
        self._rooms = rooms

    async def call(
        self,
        room: str,
        command: str,
        arguments: list[Any] | None,
        *,
        device_type: str,
        confirm: bool,
        allowed: Callable[[str], bool] | None,
        wait_ms: int,
    ) -> dict[str, Any]:
        """Run ``command`` on the room's devices of ``device_type``; one outcome per device."""
        found = await self._rooms.resolve(room)
        members = await self._devices.list_devices(DeviceFilter(room=found.id), allowed=allowed)
        picked = [d for d in members if of_type(d, device_type)]
        if not picked:
            names = ", ".join(d.display_name for d in members)
            raise ToolError(
                f"Room {found.name} has no {device_type}"
                + (f" (its devices: {names})" if members else "")
                + ". Nothing was sent.",
                hint="Use device_type='all' for every device declaring the command.",
            )
        details, skipped = await self._read(picked, command)
        entries: list[CommandEntry] = [
            {"device_id": i, "command": command, "arguments": list(arguments or [])}
            for i in details
        ]
        prepared = (
            await self._devices.commands.prepare_many(
                entries, confirm=confirm, known=details, allowed=allowed
            )
            if entries
            else []
        )
        sent = await self._devices.commands.execute_many(prepared)
        outcomes = await self._read_back(prepared, sent, wait_ms)
        outcomes += skipped
        counts: dict[str, int] = {}
        for o in outcomes:
            counts[o["status"]] = counts.get(o["status"], 0) + 1
        return {
            "summary": self._summary(found.name, command, device_type, outcomes, counts),
            "room_id": found.id,
            "room": found.name,
            "device_type": device_type,
            "command": command,
            "counts": counts,
            "results": outcomes,
        }

    async def _read(
        self, picked: list[DeviceSummary], command: str
    ) -> tuple[dict[str, DeviceDetail], list[DeviceOutcome]]:
        """The details of the devices that will take the command, and the ones skipped."""
        read = await asyncio.gather(
            *(self._devices.get_device(d.id) for d in picked), return_exceptions=True
        )
        details: dict[str, DeviceDetail] = {}
        skipped: list[DeviceOutcome] = []
        for dev, detail in zip(picked, read, strict=True):
            base: DeviceOutcome = {
                "device_id": dev.id,
                "label": dev.display_name,
                "status": "skipped",
            }
            if isinstance(detail, HubError):
                skipped.append({**base, "reason": f"could not be read: {detail}"})
            elif isinstance(detail, BaseException):
                raise detail
            elif detail.summary.disabled:
                skipped.append({**base, "reason": "disabled on the hub"})
            elif not declares(detail, command):
                skipped.append({**base, "reason": f"does not declare {command}"})
            else:
                details[dev.id] = detail
        return details, skipped

    async def _read_back(
        self, prepared: list[PreparedCommand], sent: list[BatchResult], wait_ms: int
    ) -> list[DeviceOutcome]:
        """Per device: ok (the effect was read back), unconfirmed, sent (no known effect)
        or failed."""
        outcomes: list[DeviceOutcome] = []
        groups: dict[tuple[str, str], list[int]] = defaultdict(list)
        expected: dict[tuple[str, str], tuple[str, Any]] = {}
        for idx, (item, result) in enumerate(zip(prepared, sent, strict=True)):
            out: DeviceOutcome = {
                "device_id": item.device_id,
                "label": item.device_label,
                "status": "sent",
                "command": item.command,
                "arguments": result["arguments"],
            }
            if item.repairs:
                out["repairs"] = item.repairs
            if result.get("status") != "sent":
                out["status"] = "failed"
                out["error"] = result.get("message") or result.get("error") or "failed"
            elif (effect := expected_effect(item)) is not None:
                key = (effect[0], repr(effect[1]))
                groups[key].append(idx)
                expected[key] = effect
            outcomes.append(out)
        waits = self._devices.waits
        keys = list(groups)
        results = await asyncio.gather(
            *(
                waits.wait_attribute(
                    [outcomes[i]["device_id"] for i in groups[k]],
                    expected[k][0],
                    AttributeCondition("eq", [expected[k][1]]),
                    timeout_ms=wait_ms,
                )
                for k in keys
            )
        )
        for key, waited in zip(keys, results, strict=True):
            attr, value = expected[key]
            condition = AttributeCondition("eq", [value])
            for i in groups[key]:
                dev_id = outcomes[i]["device_id"]
                if dev_id in waited["values"]:
                    outcomes[i]["state"] = {attr: waited["values"][dev_id]}
                seen = dev_id in waited["values"] and condition.matches(waited["values"][dev_id])
                outcomes[i]["status"] = "ok" if seen else "unconfirmed"
        return outcomes

    @staticmethod
    def _summary(
        room: str,
        command: str,
        device_type: str,
        outcomes: list[DeviceOutcome],
        counts: dict[str, int],
    ) -> str:
        done = sum(counts.get(s, 0) for s in ("ok", "unconfirmed", "sent"))
        if not done:
            return f"Nothing sent to {room}'s {device_type}: " + "; ".join(
                f"{o['label']} {o.get('reason') or o.get('error')}" for o in outcomes
            )
        text = f"{command} sent to {done} of {len(outcomes)} {device_type} in {room}"
        if counts.get("ok"):
            text += f"; {counts['ok']} confirmed"
        for status in ("unconfirmed", "skipped", "failed"):
            if counts.get(status):
                names = ", ".join(o["label"] for o in outcomes if o["status"] == status)
                text += f"; {status}: {names}"
        return text
