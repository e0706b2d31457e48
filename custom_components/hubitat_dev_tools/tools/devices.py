"""Device tools: find, read, wait, command (single or batch), history."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NotRequired, TypedDict

import probatio as vol

from ..errors import ToolError
from ..hub.models import add_page, parse_hub_time
from ..managers.devices import (
    COMPARATORS,
    MAX_WAIT_MS,
    AttributeCondition,
    CommandEntry,
    DeviceFilter,
)
from ..safety import ToolKind
from .args import ToolArgs, arg, numeric_id
from .base import HubTool, ToolCall, connector, on_hub
from .paging import cursor_arg, limit_arg, paginate

TOOL_DOMAIN = "devices"

DEVICE_ID = numeric_id("device_id")
LIST_FIELDS = (
    "label",
    "name",
    "room",
    "room_id",
    "type",
    "capabilities",
    "states",
    "disabled",
    "last_activity",
    "parent_id",
    "child_ids",
    "tags",
)
MAX_BATCH = 20


def _fields_ok(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise vol.Invalid("fields must be a list of field names")
    for item in value:
        name = str(item)
        if name in LIST_FIELDS or (name.startswith("states.") and len(name) > 7):
            continue
        raise vol.Invalid(f"unknown field '{name}'; use {', '.join(LIST_FIELDS)} or states.<attr>")
    return [str(v) for v in value]


def _timestamp(value: Any) -> str:
    if parse_hub_time(value) is None:
        raise vol.Invalid("must be a timestamp such as 2026-06-27T10:30:00.000-0600 or ISO 8601")
    return str(value)


def project(device: Mapping[str, Any], fields: list[str] | None) -> Mapping[str, Any]:
    """Keep device_id plus the requested fields (``states.<attr>`` picks single states)."""
    if not fields:
        return device
    out: dict[str, Any] = {"device_id": device["device_id"]}
    states: dict[str, Any] = {}
    for name in fields:
        if name.startswith("states."):
            attr = name[7:]
            if attr in device.get("states", {}):
                states[attr] = device["states"][attr]
        elif name in device:
            out[name] = device[name]
        elif name == "disabled":
            out["disabled"] = False
    if states:
        out["states"] = {**out.get("states", {}), **states}
    return out


EXPECTED_VALUE = vol.Any(str, int, float, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class ListDevicesArgs(ToolArgs):
    text: str | None = arg(str, "Label/name/type (driver) part, or exact id")
    room: str | None = arg(str, "Room name or id, or 'unassigned'")
    capability: str | None = arg(str, "e.g. Switch, Lock, Light")
    attribute: str | None = arg(str, "Has this attribute, e.g. battery")
    value: str | int | float | bool | None = arg(EXPECTED_VALUE, "With attribute: compare to")
    comparator: str | None = arg(vol.In(COMPARATORS), "Default eq")
    values: list[Any] | None = arg(
        vol.All(list, vol.Length(min=1, max=20)), "between: [low, high]; eq: any of"
    )
    changed_within_minutes: int | None = arg(
        vol.All(int, vol.Range(min=1, max=10080)), "Active in the last N minutes"
    )
    changed_since: str | None = arg(vol.All(str, _timestamp), "Active after this time")
    silent_for_hours: float | None = arg(
        vol.All(vol.Coerce(float), vol.Range(min=0.1, max=8760)), "Quiet for N+ hours (or never)"
    )
    include_disabled: bool = arg(bool, None, default=True)
    fields: list[str] | None = arg(
        vol.All([str], _fields_ok),
        "Fields besides device_id: " + ", ".join(LIST_FIELDS) + ", states.<attr>",
    )
    limit: int = limit_arg(default=200, maximum=1000)
    cursor: str | None = cursor_arg()


class ListDevicesTool(HubTool[ListDevicesArgs]):
    name = "hub_list_devices"
    covers = (
        on_hub("hub_list_devices"),
        connector("hubitat_get_live_context"),
        connector("hubitat_search_devices"),
        connector("list_devices"),
        connector("list_devices_by_capability", "capability"),
    )
    title = "List devices"
    description = (
        "Find devices with their current states in one call ('which devices are in the living "
        "room', 'lights in the kitchen', 'battery below 20%'). Filters: text (part of the "
        "label, name or type, i.e. driver; or the exact id), room, capability (Light: bulbs, "
        "dimmers, light switches; no plugs, fans), "
        "attribute+comparator+value(s) (battery lt 20), changed_within_minutes/changed_since, "
        "silent_for_hours. fields, e.g. ['label','states.switch'], keeps answers small; page "
        "with cursor. Commands: hub_get_device; history: hub_list_device_events."
    )
    core = True
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: ListDevicesArgs) -> dict[str, Any]:
        if args.attribute is None and (args.value, args.values, args.comparator) != (None,) * 3:
            raise ToolError(
                "value, values and comparator need attribute (e.g. attribute='battery', "
                "comparator='lt', value=20)."
            )
        condition = make_condition(
            args.value, args.values, args.comparator or "eq", values_arg="values"
        )
        if condition is None and args.comparator is not None:
            raise ToolError(f"comparator {args.comparator} needs value (between: values).")
        since = parse_hub_time(args.changed_since) if args.changed_since is not None else None
        if args.changed_within_minutes is not None:
            window = datetime.now(UTC) - timedelta(minutes=args.changed_within_minutes)
            since = max(since, window) if since else window
        flt = DeviceFilter(
            text=args.text,
            room=args.room,
            capability=args.capability,
            attribute=args.attribute,
            condition=condition,
            changed_since=since,
            silent_since=datetime.now(UTC) - timedelta(hours=args.silent_for_hours)
            if args.silent_for_hours is not None
            else None,
            include_disabled=args.include_disabled,
        )
        devices = await call.hub.devices.list_devices(flt, allowed=call.device_allowed)
        out = paginate([project(d.as_dict(), args.fields) for d in devices], args, key="devices")
        out["count"] = out["total"]
        if (cache := call.hub.cache) is not None and cache.live and not cache.is_dirty():
            out["freshness"] = cache.freshness()  # answered from the live cache
        if "next_cursor" in out:
            shown = len(out["devices"])
            out["truncated"] = (
                f"Showing {out['offset'] + 1}-{out['offset'] + shown} of {out['total']}; pass "
                "next_cursor for more, or narrow with filters/fields."
            )
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceIdArgs(ToolArgs):
    device_id: str = arg(DEVICE_ID, "Device id (from hub_list_devices)", required=True)


class GetDeviceTool(HubTool[DeviceIdArgs]):
    name = "hub_get_device"
    covers = (
        on_hub("hub_get_device"),
        on_hub("hub_update_device"),
        on_hub("hub_list_device_dependents", "apps using"),
        connector("get_device"),
        connector("get_device_state"),
    )
    title = "Get device"
    description = (
        "Full detail of one device: room, driver, every attribute with its value, data type "
        "and allowed values, every command with argument names, types and constraints (use "
        "before an unfamiliar hub_call_device_command), preferences with types, Show on Home, "
        "Hub Mesh/HomeKit sharing, data values, parent/children and the apps and rules that "
        "use it. Ids: hub_list_devices (cheaper for many devices' states)."
    )
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: DeviceIdArgs) -> dict[str, Any]:
        detail = await call.hub.devices.get_device_full(args.device_id)
        out = detail.as_dict()
        out["room_id"] = detail.summary.room_id
        out["dni"] = detail.summary.dni
        add_page(out, detail.page)
        # its parent, children and any other device its page names: only allowed ones
        screen = await call.hub.devices.screen(call.device_allowed)
        return screen.answer({"device": out}, id_keys=("parent_id", "child_ids"))


WAIT_MS = vol.All(int, vol.Range(min=0, max=MAX_WAIT_MS))


def make_condition(
    expected_value: Any,
    expected_values: list[Any] | None,
    comparator: str,
    *,
    values_arg: str = "expected_values",
) -> AttributeCondition | None:
    """An AttributeCondition from expected_value(s)/comparator, or None when not comparing."""
    expected = list(expected_values) if expected_values is not None else []
    if expected_value is not None:
        expected.insert(0, expected_value)
    if not expected:
        return None
    condition = AttributeCondition(comparator, expected)
    condition.validate(values_arg=values_arg)
    return condition


@dataclass(frozen=True, slots=True, kw_only=True)
class GetDeviceAttributeArgs(ToolArgs):
    device_id: str | None = arg(DEVICE_ID, "One device id")
    device_ids: list[str] | None = arg(
        vol.All([DEVICE_ID], vol.Length(min=1, max=MAX_BATCH)), "Several device ids (max 20)"
    )
    attribute: str = arg(
        vol.All(str, vol.Length(min=1, max=100)), "Attribute name, case-sensitive", required=True
    )
    expected_value: str | int | float | bool | None = arg(
        EXPECTED_VALUE, "Value to wait for (with comparator, default eq)"
    )
    expected_values: list[Any] | None = arg(
        vol.All(list, vol.Length(min=1, max=20)),
        "Several values (eq: any of; between: [low, high])",
    )
    comparator: str = arg(vol.In(COMPARATORS), "eq ne gt gte lt lte between", default="eq")
    stable_for_ms: int = arg(WAIT_MS, "The condition must hold this long", default=0)
    timeout_ms: int = arg(WAIT_MS, "Give up after this long (max 45000)", default=10_000)
    mode: str = arg(vol.In(("any", "all")), "Several devices: any or all", default="all")


class GetDeviceAttributeTool(HubTool[GetDeviceAttributeArgs]):
    name = "hub_get_device_attribute"
    covers = (
        on_hub("hub_get_device_attribute"),
        connector("get_device_state"),
    )
    title = "Get or wait for a device attribute"
    description = (
        "The current state of one attribute of one or several devices (a motion sensor's "
        "motion, a lock's lock, a temperature), or wait until it matches: expected_value(s) "
        "with a comparator, stable_for_ms, timeout_ms and mode any/all. matched=false on "
        "timeout (not an error). Many attributes at once: hub_list_devices; to change a "
        "device: hub_call_device_command (its own wait_for)."
    )
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: GetDeviceAttributeArgs) -> dict[str, Any]:
        # The safety chokepoint has already refused ids outside the device allowlist.
        ids = list(dict.fromkeys(args.device_ids or []))
        if args.device_id is not None and args.device_id not in ids:
            ids.insert(0, args.device_id)
        if not ids:
            raise ToolError("Give device_id or device_ids.")
        manager = call.hub.devices
        condition = make_condition(args.expected_value, args.expected_values, args.comparator)
        if condition is None:
            values = await manager.read_attribute(ids, args.attribute)
            return {"attribute": args.attribute, "values": values}
        result = await bounded_wait(
            call,
            ids,
            args.attribute,
            condition,
            mode=args.mode,
            stable_for_ms=args.stable_for_ms,
            timeout_ms=args.timeout_ms,
        )
        return {"attribute": args.attribute, **result}


async def bounded_wait(
    call: ToolCall,
    device_ids: list[str],
    attribute: str,
    condition: AttributeCondition,
    *,
    mode: str = "all",
    stable_for_ms: int,
    timeout_ms: int,
) -> dict[str, Any]:
    """Wait for the condition, cut so that the call answers in time; say what is pending."""
    budget_s, cut = call.wait_budget(timeout_ms / 1000)
    allowed_ms = int(budget_s * 1000)
    result: dict[str, Any] = dict(
        await call.hub.devices.waits.wait_attribute(
            device_ids,
            attribute,
            condition,
            mode=mode,
            stable_for_ms=stable_for_ms,
            timeout_ms=allowed_ms,
        )
    )
    if cut and not result["matched"]:
        result["pending"] = (
            f"The condition is not met yet; the wait was cut to {allowed_ms} ms so this call "
            "answers in time. Call hub_get_device_attribute with the same condition to keep "
            "waiting."
        )
    return result


BATCH_ENTRY = vol.Schema(
    {
        vol.Required("device_id"): DEVICE_ID,
        vol.Required("command"): str,
        vol.Optional("arguments"): list,
    }
)


class WaitFor(TypedDict):
    """hub_call_device_command's wait_for, as its schema validated it (defaults filled)."""

    attribute: str
    expected_value: NotRequired[str | int | float | bool]
    expected_values: NotRequired[list[Any]]
    comparator: str
    stable_for_ms: int
    timeout_ms: int


WAIT_FOR = vol.Schema(
    {
        vol.Required("attribute"): str,
        vol.Optional("expected_value"): EXPECTED_VALUE,
        vol.Optional("expected_values"): list,
        vol.Optional("comparator", default="eq"): vol.In(COMPARATORS),
        vol.Optional("stable_for_ms", default=0): WAIT_MS,
        vol.Optional("timeout_ms", default=10_000): WAIT_MS,
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallDeviceCommandArgs(ToolArgs):
    device_id: str | None = arg(DEVICE_ID, "Device id")
    command: str | None = arg(
        vol.All(str, vol.Length(min=1, max=100)), "Case-sensitive, e.g. setLevel"
    )
    arguments: list[Any] | None = arg(vol.All(list, vol.Length(max=10)), "Positional, e.g. [50]")
    commands: list[CommandEntry] | None = arg(
        vol.All([BATCH_ENTRY], vol.Length(min=1, max=MAX_BATCH)),
        "Batch instead of device_id/command",
    )
    wait_for: WaitFor | None = arg(
        WAIT_FOR,
        "Wait for {attribute, expected_value(s), comparator, timeout_ms, "
        "stable_for_ms}; see hub_get_device_attribute",
    )
    confirm: bool = arg(bool, "true for security-sensitive devices", default=False)


class CallDeviceCommandTool(HubTool[CallDeviceCommandArgs]):
    name = "hub_call_device_command"
    acting = True
    covers = (
        on_hub("hub_call_device_command"),
        connector("hubitat_turn_on"),
        connector("hubitat_turn_off"),
        connector("hubitat_toggle", "command `toggle`"),
        connector("hubitat_light_set"),
        connector("hubitat_cover_set_position"),
        connector("hubitat_cover_open"),
        connector("hubitat_cover_close"),
        connector("hubitat_cover_stop"),
        connector("hubitat_lock", "confirm"),
        connector("hubitat_unlock", "confirm"),
        connector("hubitat_thermostat_set_temperature"),
        connector("hubitat_thermostat_set_mode"),
        connector("hubitat_thermostat_set_fan_mode"),
        connector("hubitat_fan_set_speed"),
        connector("hubitat_press_button", "push"),
        connector("run_device_command"),
    )
    title = "Call device command"
    description = (
        "Turn devices on/off/toggle, dim lights, lock...: one command or a batch of up to 20 "
        "{device_id, command, arguments}, reported per device. Commands and arguments are "
        "checked against the device's declared ones first (quoted numbers/booleans repaired "
        "and reported; anything else refused, nothing sent). Locks, garage doors, valves, "
        "keypads and sirens need confirm=true. wait_for (single command) waits for a state, "
        "e.g. {attribute:'lock', expected_value:'locked'}. Ids: hub_list_devices; argument "
        "types: hub_get_device."
    )
    core = True
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CallDeviceCommandArgs) -> dict[str, Any]:
        if args.commands is not None:
            if args.device_id is not None or args.command is not None or args.wait_for is not None:
                raise ToolError(
                    "Use either commands (a batch) or device_id+command, not both; wait_for "
                    "works only with a single command."
                )
            return await self._batch(call, args.commands, confirm=args.confirm)
        if args.device_id is None or args.command is None:
            raise ToolError("Give device_id and command (or a commands batch).")
        manager = call.hub.devices
        spec = args.wait_for
        condition = (
            make_condition(
                spec.get("expected_value"), spec.get("expected_values"), spec["comparator"]
            )
            if spec is not None
            else None
        )
        prepared = await manager.commands.prepare(
            args.device_id,
            args.command,
            args.arguments,
            confirm=args.confirm,
            allowed=call.device_allowed,
        )
        await manager.commands.execute(prepared)
        out: dict[str, Any] = {
            "summary": f"Sent {prepared.command} to {prepared.device_label} "
            f"(device {prepared.device_id})",
            "device_id": prepared.device_id,
            "command": prepared.command,
            "arguments": [a["value"] for a in prepared.args],
        }
        if prepared.repairs:
            out["repairs"] = prepared.repairs
        if spec is not None and condition is not None:
            call.acts_sent()  # only waiting from here: other calls need not wait for it
            out["wait"] = await bounded_wait(
                call,
                [prepared.device_id],
                spec["attribute"],
                condition,
                stable_for_ms=spec["stable_for_ms"],
                timeout_ms=spec["timeout_ms"],
            )
        return out

    @staticmethod
    async def _batch(
        call: ToolCall, entries: list[CommandEntry], *, confirm: bool
    ) -> dict[str, Any]:
        # The safety chokepoint has already refused entries outside the device allowlist.
        manager = call.hub.devices
        prepared = await manager.commands.prepare_many(
            entries, confirm=confirm, allowed=call.device_allowed
        )
        results = await manager.commands.execute_many(prepared)
        failed = [r for r in results if r["status"] != "sent"]
        summary = f"Sent {len(results) - len(failed)} of {len(results)} commands"
        if failed:
            summary += "; NOT sent/failed: " + ", ".join(
                f"{r['command']} to {r['label']} ({r['device_id']})" for r in failed
            )
        return {
            "summary": summary,
            "sent": len(results) - len(failed),
            "failed": len(failed),
            "results": results,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ListDeviceEventsArgs(ToolArgs):
    device_id: str = arg(DEVICE_ID, "Device id", required=True)
    attribute: str | None = arg(str, "Only events with this name, e.g. switch")
    limit: int = arg(vol.All(int, vol.Range(min=1, max=500)), "Max events", default=50)
    hours_back: int | float | None = arg(
        vol.All(vol.Any(int, float), vol.Range(min=0.01, max=168)),
        "Only the last N hours (max 168)",
    )
    since: str | None = arg(vol.All(str, _timestamp), "Only events strictly after this date")


class ListDeviceEventsTool(HubTool[ListDeviceEventsArgs]):
    name = "hub_list_device_events"
    covers = (
        on_hub("hub_list_device_events"),
        connector("list_device_events"),
    )
    title = "List device events"
    description = (
        "One device's event history: when it opened, turned on, changed (attribute changes "
        "and commands), newest first. Why it changed: hub_get_event_cause. Narrow "
        "with attribute, hours_back (max 168) or since (an exact event date, strictly "
        "after; pass back newest_date to get only newer events). Mode, HSM, hub variable "
        "and hub events are in hub_list_events. For 'what changed recently' across all "
        "devices, hub_list_devices(changed_within_minutes=...) is one call."
    )
    kind = ToolKind.READ
    search_words = ("what happened", "history of a device", "last night")

    async def run(self, call: ToolCall, args: ListDeviceEventsArgs) -> dict[str, Any]:
        since = parse_hub_time(args.since) if args.since is not None else None
        if args.hours_back is not None:
            window = datetime.now(UTC) - timedelta(hours=args.hours_back)
            since = max(since, window) if since else window
        events = await call.hub.devices.events(
            device_id=args.device_id,
            since=since,
            attribute=args.attribute,
            limit=args.limit,
        )
        out: dict[str, Any] = {"device_id": args.device_id, "events": events}
        out["count"] = len(events)
        if events:
            out["newest_date"] = events[0]["date"]
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class HomeSummaryArgs(ToolArgs):
    battery_threshold: int = arg(
        vol.All(int, vol.Range(min=1, max=100)), "Low battery below this %", default=20
    )


class GetHomeSummaryTool(HubTool[HomeSummaryArgs]):
    name = "hub_get_home_summary"
    covers = (
        on_hub("hub_list_devices"),
        connector("hubitat_get_context_summary"),
        connector("hubitat_get_live_context"),
    )
    title = "Get home summary"
    description = (
        "What's going on at home, in one small answer: mode, HSM status and alert, what is "
        "open (contacts, doors, valves, shades), unlocked locks, lights on by room, active "
        "motion, low batteries and the hub's active alerts (labels, not device records). "
        "Details of one device: hub_get_device; filtered lists: hub_list_devices."
    )

    async def run(self, call: ToolCall, args: HomeSummaryArgs) -> dict[str, Any]:
        return await call.hub.home.summary(
            device_allowed=call.device_allowed, battery_threshold=args.battery_threshold
        )


ORDER = 20

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListDevicesTool,
    GetDeviceTool,
    GetDeviceAttributeTool,
    CallDeviceCommandTool,
    ListDeviceEventsTool,
    GetHomeSummaryTool,
)
