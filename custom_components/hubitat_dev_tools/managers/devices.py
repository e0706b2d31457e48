"""Devices: find, read, and run commands validated against what each device declares."""

from __future__ import annotations

import asyncio
import difflib
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import ToolError
from ..hub.client import HubClient
from ..hub.devices import (
    create_from_driver,
    create_virtual,
    fetch_compatible_devices,
    fetch_device,
    fetch_device_events,
    fetch_device_raw,
    fetch_devices,
    fetch_drivers,
    fetch_maker_device,
    fetch_replacement_options,
    force_delete,
    post_device_update,
    replace_device,
    run_command,
    save_preferences,
    set_disabled,
)
from ..hub.errors import HubBadResponseError, HubError, HubNotFoundError
from ..hub.models import (
    Command,
    CommandParam,
    DeviceDetail,
    DeviceSummary,
    coerce_numeric_text,
    norm_id,
    parse_csv,
    parse_device_full,
    parse_device_tree,
    parse_hub_time,
)
from ..hub.rooms import fetch_rooms
from ..hub.state_cache import StateCache

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
            raise ToolError(f"{where} must be a number, got a boolean")
        if isinstance(value, int | float):
            return value
        if isinstance(value, str):
            text = value.strip()
            try:
                number = float(text)
            except ValueError:
                raise ToolError(f"{where} must be a number, got {value!r}") from None
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


def _norm_text(value: Any) -> str:
    return str(value).strip().lower()


def values_equal(actual: Any, expected: Any) -> bool:
    """Compare an attribute value loosely: numbers numerically, text case-insensitively."""
    if actual is None or expected is None:
        return actual is expected
    a_num, e_num = to_number(actual), to_number(expected)
    if a_num is not None and e_num is not None:
        return a_num == e_num
    return _norm_text(actual) == _norm_text(expected)


def to_number(value: Any) -> float | None:
    """A float for numbers and numeric text; None otherwise (booleans are not numbers)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        return None


@dataclass(slots=True)
class DeviceFilter:
    """Filters for listing devices."""

    text: str | None = None
    room: str | None = None
    capability: str | None = None
    attribute: str | None = None
    value: Any = None
    changed_since: datetime | None = None
    include_disabled: bool = True

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
        if self.attribute:
            if self.attribute not in dev.states:
                return False
            if self.value is not None and not values_equal(dev.states[self.attribute], self.value):
                return False
        if self.changed_since is not None:
            last = parse_hub_time(dev.last_activity)
            if last is None or last < self.changed_since:
                return False
        return self.include_disabled or not dev.disabled


COMPARATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "between")
MAX_WAIT_MS = 60_000
POLL_INTERVAL = 0.25
BATCH_CONCURRENCY = 4
_TAG_RE = re.compile(r"<[^>]+>")


@dataclass(slots=True)
class AttributeCondition:
    """``value <comparator> expected``: eq/ne take one or more values, between two numbers."""

    comparator: str
    expected: list[Any]

    def validate(self) -> None:
        """Refuse conditions that cannot be evaluated (before anything is sent)."""
        if self.comparator not in COMPARATORS:
            raise ToolError(f"comparator must be one of {', '.join(COMPARATORS)}")
        if not self.expected:
            raise ToolError("Give expected_value (or expected_values) to wait for.")
        if self.comparator in ("gt", "gte", "lt", "lte") and (
            len(self.expected) != 1 or to_number(self.expected[0]) is None
        ):
            raise ToolError(f"comparator {self.comparator} needs one numeric value")
        if self.comparator == "between" and (
            len(self.expected) != 2 or any(to_number(v) is None for v in self.expected)
        ):
            raise ToolError("comparator between needs expected_values [low, high] (numbers)")

    def matches(self, value: Any) -> bool:
        """Return True when ``value`` satisfies the condition."""
        if self.comparator == "eq":
            return any(values_equal(value, e) for e in self.expected)
        if self.comparator == "ne":
            return not any(values_equal(value, e) for e in self.expected)
        number = to_number(value)
        if number is None:
            return False
        bounds = [to_number(e) or 0.0 for e in self.expected]
        if self.comparator == "between":
            return min(bounds) <= number <= max(bounds)
        limit = bounds[0]
        return {
            "gt": number > limit,
            "gte": number >= limit,
            "lt": number < limit,
            "lte": number <= limit,
        }[self.comparator]

    def describe(self) -> str:
        """Human text, e.g. ``switch eq on``."""
        shown = self.expected[0] if len(self.expected) == 1 else self.expected
        return f"{self.comparator} {shown}"


def _clean_text(value: Any) -> Any:
    return _TAG_RE.sub("", value).strip() if isinstance(value, str) else value


def _s(value: Any) -> str:
    return "" if value is None else str(value)


def _flag(value: Any) -> str:
    return "on" if value is True or str(value).lower() in ("true", "on") else "false"


def edit_form(raw: dict[str, Any]) -> dict[str, str]:
    """The COMPLETE /device/update form from a fresh fullJson read (omitted = blanked)."""
    dev: dict[str, Any] = raw["device"]
    dashboards = raw.get("dashboards") or []
    return {
        "id": _s(dev.get("id")),
        "version": _s(dev.get("version")),
        "name": _s(dev.get("name")),
        "label": _s(dev.get("label")),
        "zigbeeId": _s(dev.get("zigbeeId")),
        "maxEvents": _s(dev.get("maxEvents")),
        "maxStates": _s(dev.get("maxStates")),
        "spammyThreshold": _s(dev.get("spammyThreshold")),
        "deviceNetworkId": _s(dev.get("deviceNetworkId")),
        "deviceTypeId": _s(dev.get("deviceTypeId")),
        "deviceTypeReadableType": _s(dev.get("deviceTypeReadableType")),
        "roomId": _s(dev.get("roomId") or 0),
        "meshEnabled": _flag(dev.get("meshEnabled")),
        "retryEnabled": _flag(dev.get("retryEnabled")),
        "meshFullSync": _flag(dev.get("meshFullSync")),
        "homeKitEnabled": _flag(raw.get("homeKitEnabled")),
        "locationId": _s(dev.get("locationId")),
        "hubId": _s(dev.get("hubId")),
        "groupId": _s(dev.get("groupId")),
        "dashboardIds": ",".join(
            str(d.get("id")) for d in dashboards if isinstance(d, dict) and d.get("selected")
        ),
        "tags": ",".join(parse_csv(dev.get("tags"))),
        "defaultIcon": _s(dev.get("defaultIcon")),
        "notes": _s(dev.get("notes")),
        "controllerType": _s(dev.get("controllerType")),
    }


def coerce_preference(pref: dict[str, Any], value: Any) -> Any:
    """Type a driver preference value by its declared type; refuse unsafe mismatches."""
    name, ptype = pref.get("name"), str(pref.get("type") or "text").lower()
    if ptype == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise ToolError(f"Preference '{name}' is a bool; give true or false.")
    if ptype in ("number", "decimal"):
        number = to_number(value)
        if number is None:
            raise ToolError(f"Preference '{name}' is a {ptype}; got {value!r}.")
        if ptype == "number":
            if not number.is_integer():
                raise ToolError(f"Preference '{name}' is a whole number; got {value!r}.")
            return int(number)
        return number
    if ptype == "enum":
        options = pref.get("options")
        keys: list[str] = []
        if isinstance(options, dict):
            keys = [str(k) for k in options]
        elif isinstance(options, list):
            for opt in options:
                keys.extend(str(k) for k in opt) if isinstance(opt, dict) else keys.append(str(opt))
        text = str(value)
        if keys and text not in keys:
            raise ToolError(f"Preference '{name}' must be one of {keys}; got {value!r}.")
        return text
    if isinstance(value, dict | list):
        raise ToolError(f"Preference '{name}' is {ptype}; give text, not an object.")
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(slots=True)
class DeviceUpdate:
    """Requested edits of one device (None = leave as is)."""

    label: str | None = None
    name: str | None = None
    room: str | None = None
    enabled: bool | None = None
    preferences: dict[str, Any] | None = None
    dni: str | None = None
    tags: list[str] | None = None

    @property
    def form_fields(self) -> bool:
        """True when the wholesale edit form is needed."""
        return any(v is not None for v in (self.label, self.name, self.room, self.dni, self.tags))


COMPATIBLE_TTL_S = 24 * 3600
INSTRUCTION_CHARS = 600


def _protocol_key(value: str) -> str:
    return re.sub(r"[^a-z0-9]", "", value.lower())


def _plain_text(value: Any) -> str:
    text = re.sub(r"<[^>]+>", " ", str(value or ""))
    return re.sub(r"\s+", " ", text).strip()


class DeviceManager:
    """Device reads, commands and administration."""

    def __init__(self, client: HubClient) -> None:
        self._client = client
        # The live state cache (set by event_stream.py while the hub's event stream runs):
        # reads answer from it with no hub request, waits resolve on the events.
        self.cache: StateCache | None = None
        self._compatible: tuple[float, list[dict[str, Any]]] | None = None

    async def compatible_devices(
        self, text: str | None, protocol: str | None, limit: int, instructions: bool
    ) -> dict[str, Any]:
        """Search Hubitat's compatible-device catalog (cached for a day: it is static)."""
        now = time.monotonic()
        want = _protocol_key(protocol) if protocol else None
        if protocol and not want:
            raise ToolError(f"'{protocol}' is not a protocol (e.g. Z-Wave, Zigbee).")
        if self._compatible is None or now - self._compatible[0] > COMPATIBLE_TTL_S:
            fresh = await fetch_compatible_devices(self._client)
            if not fresh:
                raise HubBadResponseError(
                    "The hub's compatible-device list came back empty.",
                    hint="Retry later; the hub may still be starting.",
                )
            self._compatible = (now, fresh)
        catalog = self._compatible[1]
        words = [w for w in re.split(r"\s+", (text or "").lower()) if w]
        hits = []
        for item in catalog:
            haystack = " ".join(
                str(item.get(k) or "")
                for k in ("brand", "name", "productNumber", "deviceType", "driverName")
            ).lower()
            if any(w not in haystack for w in words):
                continue
            if want and _protocol_key(str(item.get("protocol") or "")) != want:
                continue
            hits.append(item)
        rows = []
        for item in hits[:limit]:
            row = {
                "brand": item.get("brand"),
                "name": item.get("name"),
                "product_number": item.get("productNumber"),
                "device_type": item.get("deviceType"),
                "protocol": item.get("protocol"),
                "driver": item.get("driverName"),
                "integration_app": item.get("integrationAppName"),
            }
            if instructions:
                for src, dst in (
                    ("joinInstructions", "pairing"),
                    ("excludeInstructions", "exclusion"),
                    ("factoryResetInstructions", "factory_reset"),
                    ("notes", "notes"),
                ):
                    plain = _plain_text(item.get(src))
                    if plain:
                        row[dst] = plain[:INSTRUCTION_CHARS]
            rows.append({k: v for k, v in row.items() if v not in (None, "")})
        return {"devices": rows, "count": len(rows), "matches": len(hits)}

    async def list_devices(
        self, flt: DeviceFilter, *, allowed: Callable[[str], bool] | None = None
    ) -> list[DeviceSummary]:
        """Devices passing the filter (and the allowlist), sorted by label."""
        if self.cache is not None and self.cache.live and not self.cache.is_dirty():
            devices, _fresh = await self.cache.read_devices()
        else:
            devices = await fetch_devices(self._client)
        out = [d for d in devices if (allowed is None or allowed(d.id)) and flt.matches(d)]
        return sorted(out, key=lambda d: (d.display_name.lower(), d.id))

    async def get_device(self, device_id: str) -> DeviceDetail:
        """Full detail of one device."""
        return await fetch_device(self._client, device_id)

    async def get_device_full(self, device_id: str) -> DeviceDetail:
        """Full detail plus allowed attribute values (from the Maker API when configured)."""
        detail: DeviceDetail
        maker: dict[str, Any] | None
        detail, maker = await asyncio.gather(
            fetch_device(self._client, device_id), fetch_maker_device(self._client, device_id)
        )
        if maker and isinstance(maker.get("attributes"), list):
            allowed_values: dict[str, list[str]] = {}
            for attr in maker["attributes"]:
                if isinstance(attr, dict) and isinstance(attr.get("values"), list):
                    allowed_values[str(attr.get("name"))] = [str(v) for v in attr["values"]]
            for state in detail.attributes:
                if state.name in allowed_values:
                    state.values = allowed_values[state.name]
        return detail

    # ------------------------------------------------------------------ commands

    @staticmethod
    def _gate(detail: DeviceDetail, prepared: PreparedCommand, confirm: bool) -> None:
        if detail.summary.disabled:
            raise ToolError(
                f"Device {prepared.device_id} ({prepared.device_label}) is disabled on the "
                "hub; it ignores commands.",
                hint="Enable it first with hub_update_device(enabled=true).",
            )
        if prepared.sensitive and not confirm:
            raise ToolError(
                f"{prepared.device_label} is a security-sensitive device (lock, garage door, "
                f"valve, keypad or siren). Running '{prepared.command}' needs confirm=true.",
                code="confirmation_required",
                hint="Ask the user to confirm, then call again with confirm=true.",
            )

    async def prepare(
        self, device_id: str, command: str, arguments: list[Any] | None, *, confirm: bool
    ) -> PreparedCommand:
        """Validate a command before anything is sent; raise if it would be refused."""
        detail = await self.get_device(device_id)
        prepared = prepare_command(detail, command, arguments)
        self._gate(detail, prepared, confirm)
        return prepared

    async def prepare_many(
        self, entries: list[dict[str, Any]], *, confirm: bool
    ) -> list[PreparedCommand]:
        """Validate every entry of a batch; refuse the whole batch if any entry is invalid."""
        ids = sorted({str(e["device_id"]) for e in entries})
        results = await asyncio.gather(*(self.get_device(i) for i in ids), return_exceptions=True)
        details: dict[str, DeviceDetail | BaseException] = dict(zip(ids, results, strict=True))
        prepared: list[PreparedCommand] = []
        problems: list[str] = []
        needs_confirm = False
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
            except ToolError as err:
                needs_confirm = needs_confirm or err.code == "confirmation_required"
                problems.append(f"{where}: {err}")
                continue
            prepared.append(item)
        if problems:
            raise ToolError(
                f"Nothing was sent: {len(problems)} of {len(entries)} batch entries would be "
                "refused. " + " | ".join(problems),
                code="confirmation_required" if needs_confirm else "invalid_request",
                hint="Fix or drop those entries (use hub_get_device for declared commands) "
                "and send the batch again.",
            )
        return prepared

    async def execute(self, prepared: PreparedCommand) -> None:
        """Send a prepared command to the hub."""
        if self.cache is not None:
            self.cache.mark_dirty(prepared.device_id)
        await run_command(self._client, prepared.device_id, prepared.command, prepared.args)

    async def execute_many(
        self, prepared: list[PreparedCommand], *, concurrency: int = BATCH_CONCURRENCY
    ) -> list[dict[str, Any]]:
        """Send prepared commands with bounded concurrency; one result per entry, in order."""
        sem = asyncio.Semaphore(concurrency)

        async def one(item: PreparedCommand) -> dict[str, Any]:
            out: dict[str, Any] = {
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
                    out.update(status="failed", error=err.code, message=str(err))
                    return out
            out["status"] = "sent"
            return out

        return list(await asyncio.gather(*(one(p) for p in prepared)))

    # ------------------------------------------------------------------ attributes

    async def read_attribute(self, device_ids: list[str], attribute: str) -> dict[str, Any]:
        """Current value of ``attribute`` on each device (one request for one or many; none
        when the live cache knows every device)."""
        cache = self.cache
        found: dict[str, DeviceSummary]
        if (
            cache is not None
            and cache.live
            and all(d in cache.devices and not cache.is_dirty(d) for d in device_ids)
        ):
            found = {d: cache.devices[d] for d in device_ids}
        elif len(device_ids) == 1:
            detail = await self.get_device(device_ids[0])
            found = {detail.summary.id: detail.summary}
        else:
            tree = await self._client.get_json("/hub2/devicesList")
            found = {d.id: d for d in parse_device_tree(tree)}
        out: dict[str, Any] = {}
        for dev_id in device_ids:
            dev = found.get(dev_id)
            if dev is None:
                raise HubNotFoundError(
                    f"No device with id {dev_id} on the hub",
                    hint="Use hub_list_devices to find the device id.",
                )
            if attribute not in dev.states:
                raise ToolError(
                    f"Device {dev_id} ({dev.display_name}) has no attribute '{attribute}'. "
                    f"Its attributes: {', '.join(sorted(dev.states)) or 'none'}."
                )
            out[dev_id] = dev.states[attribute]
        return out

    async def wait_attribute(
        self,
        device_ids: list[str],
        attribute: str,
        condition: AttributeCondition,
        *,
        mode: str = "all",
        stable_for_ms: int = 0,
        timeout_ms: int = 10_000,
    ) -> dict[str, Any]:
        """Wait until the condition holds (on any/all devices) for ``stable_for_ms``.

        Event-driven while the live cache runs (reads from the cache, wakes on the next
        event for these devices and attribute, at the end of a stable_for_ms window, on a
        re-sync or on timeout: no hub request); polls the hub otherwise. Same contract.
        """
        timeout = min(timeout_ms, MAX_WAIT_MS) / 1000
        stable = stable_for_ms / 1000
        start = time.monotonic()
        since: dict[str, float] = {}
        while True:
            values = await self.read_attribute(device_ids, attribute)
            now = time.monotonic()
            for dev_id, value in values.items():
                if condition.matches(value):
                    since.setdefault(dev_id, now)
                else:
                    since.pop(dev_id, None)
            settled = [d for d in device_ids if d in since and now - since[d] >= stable]
            done = bool(settled) if mode == "any" else len(settled) == len(device_ids)
            elapsed = now - start
            if done or elapsed >= timeout:
                return {
                    "matched": done,
                    "condition": f"{attribute} {condition.describe()}",
                    "mode": mode,
                    "waited_ms": int(elapsed * 1000),
                    "values": values,
                    "matched_devices": settled,
                }
            cache = self.cache
            if cache is not None and cache.live:
                ends = [since[d] + stable - now for d in since if d not in settled]
                await cache.wait_for(
                    lambda e: (
                        e.kind == "device" and e.device_id in device_ids and e.name == attribute
                    ),
                    max(0.0, min([timeout - elapsed, *ends])),
                    wake_on_resync=True,
                )
            else:
                await asyncio.sleep(max(0.02, min(POLL_INTERVAL, timeout - elapsed)))

    # ------------------------------------------------------------------ events

    async def events(
        self,
        *,
        device_id: str,
        since: datetime | None = None,
        attribute: str | None = None,
        limit: int = 50,
    ) -> list[dict[str, Any]]:
        """One device's events, newest first, strictly after ``since``."""
        try:
            raw = await fetch_device_events(self._client, device_id)
        except HubNotFoundError as err:
            raise HubNotFoundError(
                f"No device with id {device_id} on the hub",
                hint="Use hub_list_devices to find the device id.",
            ) from err
        out: list[dict[str, Any]] = []
        for ev in raw:
            when = parse_hub_time(ev.get("date"))
            if since is not None and (when is None or when <= since):
                continue
            if attribute and ev.get("name") != attribute:
                continue
            item: dict[str, Any] = {
                "date": ev.get("date"),
                "name": ev.get("name"),
                "value": coerce_numeric_text(ev.get("value")),
            }
            for src, dst in (
                ("unit", "unit"),
                ("descriptionText", "description"),
                ("type", "type"),
                ("source", "source"),
            ):
                if ev.get(src) not in (None, "", "null"):
                    item[dst] = _clean_text(ev.get(src))
            item["is_state_change"] = bool(ev.get("isStateChange"))
            out.append(item)
            if len(out) >= limit:
                break
        return out

    # ------------------------------------------------------------------ administration

    async def update_device(self, device_id: str, upd: DeviceUpdate) -> dict[str, Any]:
        """Edit a device in a safe order; validate everything before sending anything.

        Order: the wholesale edit form (label, name, DNI, tags, room; re-posted complete
        from a fresh read), then driver preferences, then enable/disable last. Each step is
        reported; a failure says which steps landed.
        """
        raw = await fetch_device_raw(self._client, device_id)
        detail = parse_device_full(raw)
        label = detail.summary.display_name
        room_id: str | None = None
        room_name: str | None = None
        if upd.room is not None:
            room_id, room_name = await self._resolve_room(upd.room)
        prefs: list[dict[str, Any]] = []
        if upd.preferences:
            declared = {str(p.get("name")): p for p in detail.preferences if p.get("name")}
            for pname, pvalue in upd.preferences.items():
                pref = declared.get(pname)
                if pref is None:
                    known = ", ".join(f"{k} ({v.get('type')})" for k, v in declared.items())
                    raise ToolError(
                        f"Device {device_id} ({label}) has no preference '{pname}'. Its "
                        f"preferences: {known or 'none'}."
                    )
                prefs.append(
                    {
                        "name": pname,
                        "type": str(pref.get("type") or "text"),
                        "value": coerce_preference(pref, pvalue),
                    }
                )
        if upd.label is not None and not upd.label.strip():
            raise ToolError("label cannot be empty.")
        if upd.name is not None and not upd.name.strip():
            raise ToolError("name cannot be empty.")
        steps: list[tuple[str, Callable[[], Awaitable[None]]]] = []
        if upd.enabled is True and detail.summary.disabled:
            steps.append(("enabled", lambda: set_disabled(self._client, device_id, False)))
        if upd.form_fields:
            changed: list[str] = []

            async def form_step() -> None:
                fresh = await fetch_device_raw(self._client, device_id)
                form = edit_form(fresh)
                if upd.label is not None:
                    form["label"] = upd.label.strip()
                if upd.name is not None:
                    form["name"] = upd.name.strip()
                if upd.dni is not None:
                    form["deviceNetworkId"] = upd.dni.strip()
                if upd.tags is not None:
                    form["tags"] = ",".join(t.strip() for t in upd.tags if t.strip())
                if room_id is not None:
                    form["roomId"] = room_id
                await post_device_update(self._client, form)

            for key in ("label", "name", "room", "dni", "tags"):
                if getattr(upd, key) is not None:
                    changed.append(key)
            steps.append(("+".join(changed), form_step))
        if prefs:
            steps.append(("preferences", lambda: save_preferences(self._client, device_id, prefs)))
        if upd.enabled is False and not detail.summary.disabled:
            steps.append(("disabled", lambda: set_disabled(self._client, device_id, True)))
        done: list[str] = []
        for name, step in steps:
            try:
                await step()
            except HubError as err:
                pending = [n for n, _ in steps if n not in done]
                raise type(err)(
                    f"{err} Applied: {', '.join(done) or 'nothing'}; NOT applied: "
                    f"{', '.join(pending)}.",
                    hint=err.hint,
                ) from err
            done.append(name)
        after = await self.get_device(device_id)
        return {
            "applied": done,
            "room_name": room_name,
            "device": after.summary.as_dict()
            | {"preferences": after.preferences, "dni": after.summary.dni},
        }

    async def _resolve_room(self, room: str) -> tuple[str, str | None]:
        """Room name or id -> (room id, canonical name); '' / 'unassigned' -> ('0', None)."""
        wanted = room.strip()
        if wanted.lower() in ("", "unassigned", "none"):
            return "0", None
        rooms = await fetch_rooms(self._client)
        for r in rooms:
            if r.id == wanted or r.name.lower() == wanted.lower():
                return r.id, r.name
        raise ToolError(
            f"No room '{room}' on the hub (rooms are never created implicitly). Rooms: "
            f"{', '.join(r.name for r in rooms) or 'none'}.",
            hint="Use an existing room, or create it first with hub_create_room.",
        )

    async def drivers(self) -> list[dict[str, Any]]:
        """Driver types a device can be created from (no dependency or hidden ones)."""
        return [
            d
            for d in await fetch_drivers(self._client)
            if d.get("type") != "dep" and d.get("category") != "Hidden"
        ]

    async def create_device(self, driver: str, label: str | None) -> dict[str, Any]:
        """Create a device from a driver type (built-in virtual types via createVirtual)."""
        drivers = await self.drivers()
        wanted = driver.strip().lower()
        match = next(
            (
                d
                for d in drivers
                if str(d.get("id")) == wanted or str(d.get("name", "")).lower() == wanted
            ),
            None,
        )
        if match is None:
            names = [str(d.get("name")) for d in drivers]
            close = difflib.get_close_matches(driver, names, n=5, cutoff=0.4)
            virtual = [n for n in names if n.startswith("Virtual ")]
            raise ToolError(
                f"No driver '{driver}' on the hub."
                + (f" Did you mean: {', '.join(close)}?" if close else "")
                + f" Built-in virtual types: {', '.join(virtual) or 'none'}.",
                hint="Pass the driver's exact name or id.",
            )
        type_id = str(match.get("id"))
        name = str(match.get("name"))
        is_virtual = name.startswith("Virtual ") or match.get("category") == "Virtual"
        if is_virtual:
            new_id = await create_virtual(self._client, type_id, label)
        else:
            new_id = await create_from_driver(self._client, type_id)
            if label:
                fresh = await fetch_device_raw(self._client, new_id)
                form = edit_form(fresh)
                form["label"] = label
                await post_device_update(self._client, form)
        detail = await self.get_device(new_id)
        return {
            "device": detail.summary.as_dict(),
            "driver": name,
            "virtual": is_virtual,
            "note": None
            if is_virtual or match.get("type") == "usr"
            else "A radio driver creates an unpaired shell; pair real hardware by inclusion "
            "instead (hub_call_radio_action action=inclusion_start, or the hub's Add Device "
            "page).",
        }

    async def delete_device(self, device_id: str) -> dict[str, Any]:
        """Delete a device; report the apps that referenced it."""
        detail = await self.get_device(device_id)
        await force_delete(self._client, device_id)
        return {
            "device_id": device_id,
            "label": detail.summary.display_name,
            "child_ids_removed": detail.summary.child_ids,
            "apps_that_used_it": detail.apps_using,
        }

    async def replace_device(self, old_id: str, new_id: str) -> dict[str, Any]:
        """Move ``new_id``'s hardware onto ``old_id`` (old id, label, room, apps are kept)."""
        if old_id == new_id:
            raise ToolError("old_device_id and new_device_id must differ.")
        old, new = await asyncio.gather(self.get_device(old_id), self.get_device(new_id))
        options = await fetch_replacement_options(self._client, old_id)
        valid = {norm_id(o.get("id")): o for o in options}
        if new_id not in valid:
            shown = ", ".join(f"{o.get('name')} ({norm_id(o.get('id'))})" for o in options[:15])
            raise ToolError(
                f"Device {new_id} ({new.summary.display_name}) is not a valid replacement for "
                f"{old.summary.display_name}. The hub offers: {shown or 'none'}.",
                hint="Replacements must share the device's main capabilities.",
            )
        await replace_device(self._client, old_id, new_id)
        after = await self.get_device(old_id)
        return {
            "device": after.summary.as_dict(),
            "kept": {
                "device_id": old_id,
                "label": old.summary.display_name,
                "apps_using": old.apps_using,
            },
            "new_hardware_from": {
                "device_id": new_id,
                "label": new.summary.display_name,
                "driver": new.driver,
            },
        }
