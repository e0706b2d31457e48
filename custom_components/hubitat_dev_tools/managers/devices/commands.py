"""Device commands: validated against what each device declares, sent singly or in batches."""

from __future__ import annotations

import asyncio
import difflib
import json
import math
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict

from ...errors import TIER_SENSITIVE, ToolError, confirmed
from ...hub.controllers import DevicesController
from ...hub.errors import HubError
from ...hub.models import Command, CommandParam, DeviceDetail
from ...redact import redact

if TYPE_CHECKING:
    from ...hub.state_cache import StateCache
    from ..reach import Reach

Allowed = Callable[[str], bool]

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
TOGGLE = "toggle"

_NUMBER_TEXT_RE = re.compile(
    r"[-+]?(?:[0-9]{1,300}(?:\.[0-9]{0,300})?|\.[0-9]{1,300})(?:[eE][-+]?[0-9]{1,3})?"
)
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


class CommandEntry(TypedDict):
    """One entry of a command batch (as the tool's schema validated it)."""

    device_id: str
    command: str
    arguments: NotRequired[list[Any]]


class TypedArgument(TypedDict):
    """A command argument as the hub's runmethod takes it."""

    type: str
    value: Any


class BatchResult(TypedDict):
    """What happened to one entry of a batch."""

    device_id: str
    label: str
    command: str
    arguments: list[Any]
    repairs: NotRequired[list[str]]
    status: NotRequired[str]  # sent | failed (always set once the entry ran)
    error: NotRequired[str]
    message: NotRequired[str]


@dataclass(slots=True)
class PreparedCommand:
    """A command checked against the device's declaration, ready to send."""

    device_id: str
    device_label: str
    command: str
    args: list[TypedArgument]  # as shown in results: secret arguments (a PIN) redacted
    repairs: list[str] = field(default_factory=list)
    sensitive: bool = False
    wire_args: list[TypedArgument] | None = None  # what is sent, when it differs from args

    @property
    def sent_args(self) -> list[TypedArgument]:
        """The arguments as sent to the hub."""
        return self.args if self.wire_args is None else self.wire_args


def _coerce_arg(param: CommandParam, value: Any, repairs: list[str]) -> Any:
    """Return ``value`` as the declared type, repairing only safe mismatches."""
    ptype = param.type.upper()
    where = f"argument '{param.name}' ({ptype})"
    if isinstance(value, float) and not math.isfinite(value):
        raise ToolError(f"{where} must be a finite number, got {value!r}. Nothing was sent.")
    if ptype in _NUMBER_TYPES:
        if isinstance(value, bool):
            raise ToolError(f"{where} must be a number, got a boolean")
        if isinstance(value, int | float):
            return value
        if isinstance(value, str):
            text = value.strip()
            # Plain decimal text only: float() would also take "NaN", "inf", "1_0", "1e999".
            if not _NUMBER_TEXT_RE.fullmatch(text):
                raise ToolError(f"{where} must be a number, got {value!r}")
            number = float(text)
            if not math.isfinite(number):
                raise ToolError(
                    f"{where} must be a finite number, got {value!r}. Nothing was sent."
                )
            repaired: int | float = (
                int(number) if number.is_integer() and "." not in text else number
            )
            repairs.append(f"{param.name}: quoted number {value!r} sent as {repaired}")
            return repaired
        raise ToolError(f"{where} must be a number, got {type(value).__name__}")
    if ptype in _BOOL_TYPES:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            repaired_bool = value.strip().lower() == "true"
            repairs.append(f"{param.name}: quoted boolean {value!r} sent as {repaired_bool}")
            return repaired_bool
        raise ToolError(f"{where} must be true or false, got {value!r}")
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
        raise ToolError(
            f'{where} must be an object, e.g. {{"hue": 50, "saturation": 100, "level": 80}}'
        )
    if ptype == "ENUM":
        enum_text: str | None = value if isinstance(value, str) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            enum_text = str(value)
        if enum_text is None:
            raise ToolError(f"{where} must be one of {param.constraints}")
        if param.constraints and enum_text not in param.constraints:
            raise ToolError(f"{where} must be one of {param.constraints}, got {value!r}")
        if enum_text is not value:
            repairs.append(f"{param.name}: {value!r} sent as text {enum_text!r}")
        return enum_text
    # STRING and anything unknown: text. Numbers become text losslessly; objects do not.
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        repairs.append(f"{param.name}: number {value!r} sent as text")
        return str(value)
    raise ToolError(f"{where} must be text, got {type(value).__name__}")


def resolve_toggle(detail: DeviceDetail, command: str) -> tuple[str, str | None]:
    """``toggle`` on a device that declares on and off but no toggle of its own: the one of
    on/off that flips its current ``switch`` state (and the repair note saying so)."""
    if command != TOGGLE or detail.command(TOGGLE) is not None:
        return command, None
    if detail.command("on") is None or detail.command("off") is None:
        return command, None  # refused below as an undeclared command
    state = detail.summary.states.get("switch")
    if state not in ("on", "off"):
        raise ToolError(
            f"Device {detail.summary.id} ({detail.summary.display_name}) cannot be toggled: "
            f"its switch state is {state!r}, not on or off. Send on or off instead."
        )
    target = "off" if state == "on" else "on"
    return target, f"toggle: switch was {state}, sent {target}"


def prepare_command(
    detail: DeviceDetail, command: str, arguments: list[Any] | None
) -> PreparedCommand:
    """Validate a command and its arguments against the device's declared commands
    (``toggle`` is accepted for any on/off device, see :func:`resolve_toggle`)."""
    label = detail.summary.display_name
    command, toggled = resolve_toggle(detail, command)
    cmd = detail.command(command)
    if cmd is None:
        declared = [describe_command(c) for c in detail.commands]
        by_case = [c.name for c in detail.commands if c.name.lower() == command.lower()]
        close = by_case or difflib.get_close_matches(
            command, [c.name for c in detail.commands], n=3
        )
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise ToolError(
            f"Device {detail.summary.id} ({label}) has no command '{command}'.{hint} "
            f"Its commands: {'; '.join(declared) or 'none'}",
            hint="Use one of the declared commands exactly as spelled (case-sensitive).",
        )
    args = list(arguments or [])
    if len(args) > len(cmd.params):
        raise ToolError(
            f"{describe_command(cmd)} takes at most {len(cmd.params)} argument(s); got {len(args)}"
        )
    if cmd.params and not args and cmd.params[0].type.upper() not in _STRING_TYPES:
        raise ToolError(
            f"{describe_command(cmd)} needs at least its first argument '{cmd.params[0].name}'"
        )
    repairs: list[str] = [toggled] if toggled else []
    typed: list[TypedArgument] = [
        {"type": param.type, "value": _coerce_arg(param, value, repairs)}
        for param, value in zip(cmd.params, args, strict=False)
    ]
    sensitive = bool(SENSITIVE_CAPABILITIES.intersection(detail.summary.capabilities)) and (
        cmd.name not in HARMLESS_COMMANDS
    )
    shown = redact({"command": cmd.name, "arguments": [t["value"] for t in typed]})["arguments"]
    return PreparedCommand(
        device_id=detail.summary.id,
        device_label=label,
        command=cmd.name,
        args=[{"type": t["type"], "value": v} for t, v in zip(typed, shown, strict=True)],
        repairs=repairs,
        sensitive=sensitive,
        wire_args=typed if shown != [t["value"] for t in typed] else None,
    )


BATCH_CONCURRENCY = 4


class SensitivityGate(Protocol):
    """What the commands ask of the hub's sensitivity model (``SensitivityModel``)."""

    async def devices(
        self, device_ids: Iterable[str], *, details: dict[str, DeviceDetail] | None = None
    ) -> Reach:
        """What commanding these devices reaches."""
        ...

    def require(self, reach: Reach, *, confirm: bool, allowed: Allowed | None, what: str) -> None:
        """Refuse what ``reach`` says needs confirm=true or is outside the allowlist."""
        ...


class DeviceCommands:
    """Command validation (single and batch) and sending.

    ``get_device``: one device's detail (``DeviceManager.get_device``)."""

    def __init__(
        self, devices: DevicesController, get_device: Callable[[str], Awaitable[DeviceDetail]]
    ) -> None:
        self._devices = devices
        self._get_device = get_device
        # The live state cache (handed on by ``DeviceManager``): a command marks its device
        # dirty there, so the next read asks the hub.
        self.cache: StateCache | None = None
        # The hub's sensitivity model (set by ``Hub``): a command to a scene's activator or
        # another app's child device is judged by what that app does.
        self.sensitivity: SensitivityGate | None = None

    @staticmethod
    def _gate(detail: DeviceDetail, prepared: PreparedCommand, confirm: bool) -> None:
        if detail.summary.disabled:
            raise ToolError(
                f"Device {prepared.device_id} ({prepared.device_label}) is disabled on the "
                "hub; it ignores commands.",
                subject="device_disabled",
            )
        if prepared.sensitive and not confirmed(confirm, TIER_SENSITIVE):
            raise ToolError(
                f"{prepared.device_label} is a security-sensitive device (lock, garage door, "
                f"valve, keypad or siren). Running '{prepared.command}' needs confirm=true.",
                code="confirmation_required",
                hint="Ask the user to confirm, then call again with confirm=true.",
                tier=TIER_SENSITIVE,
            )

    async def _gate_reach(
        self,
        detail: DeviceDetail,
        prepared: PreparedCommand,
        confirm: bool,
        allowed: Allowed | None,
    ) -> None:
        """The sensitivity model's gate: what the command makes act beyond the device
        itself (the scene an activator turns on, the app a child device belongs to)."""
        if self.sensitivity is None or prepared.command in HARMLESS_COMMANDS:
            return
        reach = await self.sensitivity.devices(
            [prepared.device_id], details={prepared.device_id: detail}
        )
        self.sensitivity.require(
            reach,
            confirm=confirm,
            allowed=allowed,
            what=f"Running '{prepared.command}' on {prepared.device_label} ({prepared.device_id})",
        )

    async def prepare(
        self,
        device_id: str,
        command: str,
        arguments: list[Any] | None,
        *,
        confirm: bool,
        allowed: Allowed | None = None,
    ) -> PreparedCommand:
        """Validate a command before anything is sent; raise if it would be refused."""
        detail = await self._get_device(device_id)
        prepared = prepare_command(detail, command, arguments)
        self._gate(detail, prepared, confirm)
        await self._gate_reach(detail, prepared, confirm, allowed)
        return prepared

    async def prepare_many(
        self,
        entries: list[CommandEntry],
        *,
        confirm: bool,
        known: dict[str, DeviceDetail] | None = None,
        allowed: Allowed | None = None,
    ) -> list[PreparedCommand]:
        """Validate every entry of a batch; refuse the whole batch if any entry is invalid.

        ``known``: details the caller has just read (not read again)."""
        ids = sorted({str(e["device_id"]) for e in entries} - set(known or {}))
        results = await asyncio.gather(*(self._get_device(i) for i in ids), return_exceptions=True)
        details: dict[str, DeviceDetail | BaseException] = dict(zip(ids, results, strict=True))
        details.update(known or {})
        prepared: list[PreparedCommand] = []
        problems: list[str] = []
        needs_confirm = False
        tier: str | None = None
        for idx, entry in enumerate(entries):
            detail = details[str(entry["device_id"])]
            where = f"#{idx + 1} (device {entry['device_id']}, {entry['command']})"
            if isinstance(detail, HubError):
                problems.append(f"{where}: {detail}")
                continue
            if isinstance(detail, BaseException):
                raise detail
            try:
                item = prepare_command(detail, entry["command"], entry.get("arguments"))
                self._gate(detail, item, confirm)
                await self._gate_reach(detail, item, confirm, allowed)
            except ToolError as err:
                if err.code == "device_not_allowed":
                    raise
                needs_confirm = needs_confirm or err.code == "confirmation_required"
                tier = tier or (err.tier if err.code == "confirmation_required" else None)
                problems.append(f"{where}: {err}")
                continue
            prepared.append(item)
        if problems:
            raise ToolError(
                f"Nothing was sent: {len(problems)} of {len(entries)} batch entries would be "
                "refused. " + " | ".join(problems),
                code="confirmation_required" if needs_confirm else "invalid_request",
                hint="Fix or drop those entries and send the batch again.",
                subject="command_batch",
                tier=tier if needs_confirm else None,
            )
        return prepared

    async def execute(self, prepared: PreparedCommand) -> None:
        """Send a prepared command to the hub."""
        if self.cache is not None:
            self.cache.mark_dirty(prepared.device_id)
        await self._devices.command(prepared.device_id, prepared.command, prepared.sent_args)

    async def execute_many(
        self, prepared: list[PreparedCommand], *, concurrency: int = BATCH_CONCURRENCY
    ) -> list[BatchResult]:
        """Send prepared commands with bounded concurrency; one result per entry, in order."""
        sem = asyncio.Semaphore(concurrency)

        async def one(item: PreparedCommand) -> BatchResult:
            out: BatchResult = {
                "device_id": item.device_id,
                "label": item.device_label,
                "command": item.command,
                "arguments": [a["value"] for a in item.args],
            }
            if item.repairs:
                out["repairs"] = item.repairs
            async with sem:
                try:
                    await self.execute(item)
                except HubError as err:
                    out["status"] = "failed"
                    out["error"] = err.code
                    out["message"] = str(err)
                    return out
            out["status"] = "sent"
            return out

        return list(await asyncio.gather(*(one(p) for p in prepared)))
