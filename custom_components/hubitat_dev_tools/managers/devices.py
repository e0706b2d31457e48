"""Devices: find, read, and run commands validated against what each device declares."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..hub.client import HubClient
from ..hub.devices import fetch_device, fetch_devices, run_command
from ..hub.models import Command, CommandParam, DeviceDetail, DeviceSummary
from .errors import ConfirmationRequired, ValidationError

# Capabilities whose commands can open the home, make noise or flood it: confirm first.
SENSITIVE_CAPABILITIES = frozenset(
    {
        "Lock",
        "GarageDoorControl",
        "DoorControl",
        "Valve",
        "SecurityKeypad",
        "Alarm",
        "Siren",
    }
)
# Commands that never change anything physical.
HARMLESS_COMMANDS = frozenset({"refresh", "poll", "configure", "ping"})

_NUMBER_TYPES = {"NUMBER", "DECIMAL", "INTEGER", "LONG", "FLOAT", "DOUBLE"}
_BOOL_TYPES = {"BOOL", "BOOLEAN"}
_MAP_TYPES = {"COLOR_MAP", "JSON_OBJECT", "MAP"}
_STRING_TYPES = {"STRING", "TEXT", "DATE", "PASSWORD"}


def describe_command(cmd: Command) -> str:
    """Render ``setLevel(level: NUMBER, duration: NUMBER)``."""
    params = ", ".join(
        f"{p.name}: {p.type}" + (f" {p.constraints}" if p.constraints else "") for p in cmd.params
    )
    return f"{cmd.name}({params})"


@dataclass(slots=True)
class PreparedCommand:
    """A command checked against the device's declaration, ready to send."""

    device_id: str
    device_label: str
    command: str
    args: list[dict[str, Any]]
    repairs: list[str] = field(default_factory=list)
    sensitive: bool = False


def _coerce_arg(param: CommandParam, value: Any, repairs: list[str]) -> Any:
    """Return ``value`` as the declared type, repairing only safe mismatches."""
    ptype = param.type.upper()
    where = f"argument '{param.name}' ({ptype})"
    if ptype in _NUMBER_TYPES:
        if isinstance(value, bool):
            raise ValidationError(f"{where} must be a number, got a boolean")
        if isinstance(value, int | float):
            return value
        if isinstance(value, str):
            text = value.strip()
            try:
                number = float(text)
            except ValueError:
                raise ValidationError(f"{where} must be a number, got {value!r}") from None
            repaired: int | float = (
                int(number) if number.is_integer() and "." not in text else number
            )
            repairs.append(f"{param.name}: quoted number {value!r} sent as {repaired}")
            return repaired
        raise ValidationError(f"{where} must be a number, got {type(value).__name__}")
    if ptype in _BOOL_TYPES:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            repaired_bool = value.strip().lower() == "true"
            repairs.append(f"{param.name}: quoted boolean {value!r} sent as {repaired_bool}")
            return repaired_bool
        raise ValidationError(f"{where} must be true or false, got {value!r}")
    if ptype in _MAP_TYPES:
        if isinstance(value, dict):
            return value
        if isinstance(value, str):
            try:
                parsed = json.loads(value)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                repairs.append(f"{param.name}: JSON text sent as an object")
                return parsed
        raise ValidationError(
            f'{where} must be an object, e.g. {{"hue": 50, "saturation": 100, "level": 80}}'
        )
    if ptype == "ENUM":
        enum_text: str | None = value if isinstance(value, str) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            enum_text = str(value)
        if enum_text is None:
            raise ValidationError(f"{where} must be one of {param.constraints}")
        if param.constraints and enum_text not in param.constraints:
            raise ValidationError(f"{where} must be one of {param.constraints}, got {value!r}")
        if enum_text is not value:
            repairs.append(f"{param.name}: {value!r} sent as text {enum_text!r}")
        return enum_text
    # STRING and anything unknown: text. Numbers become text losslessly; objects do not.
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        repairs.append(f"{param.name}: number {value!r} sent as text")
        return str(value)
    raise ValidationError(f"{where} must be text, got {type(value).__name__}")


def prepare_command(
    detail: DeviceDetail, command: str, arguments: list[Any] | None
) -> PreparedCommand:
    """Validate a command and its arguments against the device's declared commands."""
    label = detail.summary.display_name
    cmd = detail.command(command)
    if cmd is None:
        declared = [describe_command(c) for c in detail.commands]
        by_case = [c.name for c in detail.commands if c.name.lower() == command.lower()]
        close = by_case or difflib.get_close_matches(
            command, [c.name for c in detail.commands], n=3
        )
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise ValidationError(
            f"Device {detail.summary.id} ({label}) has no command '{command}'.{hint} "
            f"Its commands: {'; '.join(declared) or 'none'}",
            hint="Use one of the declared commands exactly as spelled (case-sensitive).",
        )
    args = list(arguments or [])
    if len(args) > len(cmd.params):
        raise ValidationError(
            f"{describe_command(cmd)} takes at most {len(cmd.params)} argument(s); got {len(args)}",
        )
    if cmd.params and not args and cmd.params[0].type.upper() not in _STRING_TYPES:
        raise ValidationError(
            f"{describe_command(cmd)} needs at least its first argument '{cmd.params[0].name}'",
        )
    repairs: list[str] = []
    typed = [
        {"type": param.type, "value": _coerce_arg(param, value, repairs)}
        for param, value in zip(cmd.params, args, strict=False)
    ]
    sensitive = bool(SENSITIVE_CAPABILITIES.intersection(detail.summary.capabilities)) and (
        cmd.name not in HARMLESS_COMMANDS
    )
    return PreparedCommand(
        device_id=detail.summary.id,
        device_label=label,
        command=cmd.name,
        args=typed,
        repairs=repairs,
        sensitive=sensitive,
    )


@dataclass(slots=True)
class DeviceFilter:
    """Filters for listing devices."""

    text: str | None = None
    room: str | None = None
    capability: str | None = None

    def matches(self, dev: DeviceSummary) -> bool:
        """Return True when the device passes every filter."""
        if self.text:
            needle = self.text.strip().lower()
            hay = (dev.label.lower(), dev.name.lower())
            if dev.id != needle.lstrip("#") and not any(needle in h for h in hay):
                return False
        if self.room:
            wanted = self.room.strip().lower()
            if wanted in ("unassigned", "none", ""):
                if dev.room:
                    return False
            elif (dev.room or "").lower() != wanted and dev.room_id != self.room.strip():
                return False
        if self.capability:
            wanted_cap = self.capability.strip().lower().replace(" ", "")
            if not any(c.lower() == wanted_cap for c in dev.capabilities):
                return False
        return True


class DeviceManager:
    """Device reads and commands."""

    def __init__(self, client: HubClient) -> None:
        self._client = client

    async def list_devices(
        self, flt: DeviceFilter, *, allowed: Callable[[str], bool] | None = None
    ) -> list[DeviceSummary]:
        """Devices passing the filter (and the allowlist), sorted by label."""
        devices = await fetch_devices(self._client)
        out = [d for d in devices if (allowed is None or allowed(d.id)) and flt.matches(d)]
        return sorted(out, key=lambda d: (d.display_name.lower(), d.id))

    async def get_device(self, device_id: str) -> DeviceDetail:
        """Full detail of one device."""
        return await fetch_device(self._client, device_id)

    async def prepare(
        self, device_id: str, command: str, arguments: list[Any] | None, *, confirm: bool
    ) -> PreparedCommand:
        """Validate a command before anything is sent; raise if it would be refused."""
        detail = await self.get_device(device_id)
        prepared = prepare_command(detail, command, arguments)
        if detail.summary.disabled:
            raise ValidationError(
                f"Device {device_id} ({prepared.device_label}) is disabled on the hub; "
                "it ignores commands.",
                hint="Enable the device first (hub web UI, or hub_update_device when available).",
            )
        if prepared.sensitive and not confirm:
            raise ConfirmationRequired(
                f"{prepared.device_label} is a security-sensitive device (lock, garage door, "
                f"valve, keypad or siren). Running '{prepared.command}' needs confirm=true.",
                hint="Ask the user to confirm, then call again with confirm=true.",
            )
        return prepared

    async def execute(self, prepared: PreparedCommand) -> None:
        """Send a prepared command to the hub."""
        await run_command(self._client, prepared.device_id, prepared.command, prepared.args)
