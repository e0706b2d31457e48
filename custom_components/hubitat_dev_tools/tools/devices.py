"""Device tools: find, read, wait, command (single or batch), history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..hub.models import parse_hub_time
from ..managers.devices import COMPARATORS, MAX_WAIT_MS, AttributeCondition, DeviceFilter
from ..safety import ToolKind
from .args import ascii_re
from .base import HubTool, ToolCall
from .paging import paginate, paging_fields

DEVICE_ID = vol.All(
    vol.Coerce(str), vol.Match(ascii_re(r"^\d+$"), msg="device_id must be a numeric id")
)
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


def project(device: dict[str, Any], fields: list[str] | None) -> dict[str, Any]:
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


class ListDevicesTool(HubTool):
    """hub_list_devices."""

    name = "hub_list_devices"
    title = "List devices"
    description = (
        "Find devices with their current states in one call ('which devices are in the living "
        "room', 'is the kitchen light on'): id, label, room, type, capabilities, states, "
        "disabled. Filters: text (label, name or exact id), room, "
        "capability, attribute(+value), changed_within_minutes/changed_since. fields, e.g. "
        "['label','states.switch'], keeps answers small; page with cursor. Commands and "
        "argument types: hub_get_device; history: hub_list_device_events. Read-only; devices "
        "outside the integration's allowlist are not shown."
    )
    domain = "devices"
    core = True
    kind = ToolKind.READ
    fields = {
        vol.Optional("text", description="Label/name part, or exact id"): str,
        vol.Optional("room", description="Room name or id, or 'unassigned'"): str,
        vol.Optional("capability", description="e.g. Switch, SwitchLevel, Lock"): str,
        vol.Optional("attribute", description="Has this attribute, e.g. lock"): str,
        vol.Optional("value", description="With attribute: current value equals"): vol.Any(
            str, int, float, bool
        ),
        vol.Optional("changed_within_minutes", description="Active in the last N minutes"): vol.All(
            int, vol.Range(min=1, max=10080)
        ),
        vol.Optional("changed_since", description="Active after this time"): vol.All(
            str, _timestamp
        ),
        vol.Optional("include_disabled", default=True): (bool),
        vol.Optional(
            "fields",
            description="Fields besides device_id: " + ", ".join(LIST_FIELDS) + ", states.<attr>",
        ): vol.All([str], _fields_ok),
        **paging_fields(default_limit=200, max_limit=1000),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return matching devices with states."""
        if "value" in args and "attribute" not in args:
            raise ToolError("value needs attribute (e.g. attribute='switch', value='on').")
        since = parse_hub_time(args.get("changed_since")) if "changed_since" in args else None
        if "changed_within_minutes" in args:
            window = datetime.now(UTC) - timedelta(minutes=args["changed_within_minutes"])
            since = max(since, window) if since else window
        flt = DeviceFilter(
            text=args.get("text"),
            room=args.get("room"),
            capability=args.get("capability"),
            attribute=args.get("attribute"),
            value=args.get("value"),
            changed_since=since,
            include_disabled=args["include_disabled"],
        )
        devices = await call.hub.devices.list_devices(flt, allowed=call.device_allowed)
        fields = args.get("fields")
        out = paginate([project(d.as_dict(), fields) for d in devices], args, key="devices")
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


class GetDeviceTool(HubTool):
    """hub_get_device."""

    name = "hub_get_device"
    title = "Get device"
    description = (
        "Full detail of one device: room, driver, every attribute with its value, data type "
        "and allowed values, every command with argument names, types and constraints (use "
        "before an unfamiliar hub_call_device_command), preferences with types, parent/"
        "children and the apps and rules that use it. Find the device_id with "
        "hub_list_devices (which is cheaper for states of many devices)."
    )
    domain = "devices"
    kind = ToolKind.READ
    fields = {vol.Required("device_id", description="Device id (from hub_list_devices)"): DEVICE_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the device detail."""
        detail = await call.hub.devices.get_device_full(args["device_id"])
        out = detail.as_dict()
        out["room_id"] = detail.summary.room_id
        out["dni"] = detail.summary.dni
        return {"device": out}


def _condition_fields() -> dict[Any, Any]:
    return {
        vol.Optional(
            "expected_value", description="Value to wait for (with comparator, default eq)"
        ): vol.Any(str, int, float, bool),
        vol.Optional(
            "expected_values", description="Several values (eq: any of; between: [low, high])"
        ): vol.All(list, vol.Length(min=1, max=20)),
        vol.Optional("comparator", default="eq", description="eq ne gt gte lt lte between"): vol.In(
            COMPARATORS
        ),
        vol.Optional(
            "stable_for_ms", default=0, description="The condition must hold this long"
        ): vol.All(int, vol.Range(min=0, max=MAX_WAIT_MS)),
        vol.Optional(
            "timeout_ms", default=10_000, description="Give up after this long (max 60000)"
        ): vol.All(int, vol.Range(min=0, max=MAX_WAIT_MS)),
    }


def make_condition(spec: dict[str, Any]) -> AttributeCondition | None:
    """An AttributeCondition from expected_value(s)/comparator, or None when not waiting."""
    expected: list[Any] = []
    if "expected_values" in spec:
        expected = list(spec["expected_values"])
    if "expected_value" in spec:
        expected.insert(0, spec["expected_value"])
    if not expected:
        return None
    condition = AttributeCondition(spec.get("comparator", "eq"), expected)
    condition.validate()
    return condition


class GetDeviceAttributeTool(HubTool):
    """hub_get_device_attribute."""

    name = "hub_get_device_attribute"
    title = "Get or wait for a device attribute"
    description = (
        "Show the current state of one attribute of a device or several (a motion sensor's "
        "motion, a lock's lock, a temperature), or wait until it matches: give "
        "expected_value(s) with a comparator (eq, ne, gt, gte, lt, lte, between), optional "
        "stable_for_ms, timeout_ms (max 60000) and mode any/all for several devices. "
        "Returns matched=false on timeout (not an error). To read many attributes at once "
        "use hub_list_devices; to change a device use hub_call_device_command (it has its "
        "own wait_for)."
    )
    domain = "devices"
    kind = ToolKind.READ
    fields = {
        vol.Optional("device_id", description="One device id"): DEVICE_ID,
        vol.Optional("device_ids", description="Several device ids (max 20)"): vol.All(
            [DEVICE_ID], vol.Length(min=1, max=MAX_BATCH)
        ),
        vol.Required("attribute", description="Attribute name, case-sensitive"): vol.All(
            str, vol.Length(min=1, max=100)
        ),
        **_condition_fields(),
        vol.Optional("mode", default="all", description="Several devices: any or all"): vol.In(
            ("any", "all")
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Read now, or wait for the condition."""
        ids = list(dict.fromkeys(args.get("device_ids") or []))
        if "device_id" in args and args["device_id"] not in ids:
            ids.insert(0, args["device_id"])
        if not ids:
            raise ToolError("Give device_id or device_ids.")
        hidden = [i for i in ids if not call.device_allowed(i)]
        if hidden:
            raise ToolError(
                f"Device(s) {', '.join(hidden)} are not available to the assistant (device "
                "restriction in the integration's options). Nothing was read.",
                code="device_not_allowed",
            )
        manager = call.hub.devices
        condition = make_condition(args)
        if condition is None:
            values = await manager.read_attribute(ids, args["attribute"])
            return {"attribute": args["attribute"], "values": values}
        result = await manager.waits.wait_attribute(
            ids,
            args["attribute"],
            condition,
            mode=args["mode"],
            stable_for_ms=args["stable_for_ms"],
            timeout_ms=args["timeout_ms"],
        )
        return {"attribute": args["attribute"], **result}


BATCH_ENTRY = vol.Schema(
    {
        vol.Required("device_id"): DEVICE_ID,
        vol.Required("command"): str,
        vol.Optional("arguments"): list,
    }
)
WAIT_FOR = vol.Schema(
    {
        vol.Required("attribute"): str,
        vol.Optional("expected_value"): vol.Any(str, int, float, bool),
        vol.Optional("expected_values"): list,
        vol.Optional("comparator", default="eq"): vol.In(COMPARATORS),
        vol.Optional("stable_for_ms", default=0): vol.All(int, vol.Range(min=0, max=MAX_WAIT_MS)),
        vol.Optional("timeout_ms", default=10_000): vol.All(int, vol.Range(min=0, max=MAX_WAIT_MS)),
    }
)


class CallDeviceCommandTool(HubTool):
    """hub_call_device_command."""

    name = "hub_call_device_command"
    title = "Call device command"
    description = (
        "Turn devices on/off, dim lights, lock...: one command or a batch of up to 20 "
        "{device_id, command, arguments}, reported per device. Commands and arguments are "
        "checked against the device's declared ones first (quoted numbers/booleans repaired "
        "and reported; anything else refused, nothing sent). Locks, garage doors, valves, "
        "keypads and sirens need confirm=true. wait_for (single command) waits for a state, "
        "e.g. {attribute:'lock', expected_value:'locked'}. Ids: hub_list_devices; argument "
        "types: hub_get_device."
    )
    domain = "devices"
    core = True
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Optional("device_id", description="Device id"): DEVICE_ID,
        vol.Optional("command", description="Case-sensitive, e.g. setLevel"): vol.All(
            str, vol.Length(min=1, max=100)
        ),
        vol.Optional("arguments", description="Positional, e.g. [50]"): vol.All(
            list, vol.Length(max=10)
        ),
        vol.Optional(
            "commands",
            description="Batch instead of device_id/command",
        ): vol.All([BATCH_ENTRY], vol.Length(min=1, max=MAX_BATCH)),
        vol.Optional(
            "wait_for",
            description="Wait for {attribute, expected_value(s), comparator, timeout_ms, "
            "stable_for_ms}; see hub_get_device_attribute",
        ): WAIT_FOR,
        vol.Optional(
            "confirm", default=False, description="true for security-sensitive devices"
        ): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Validate, then send the command(s)."""
        if "commands" in args:
            if "device_id" in args or "command" in args or "wait_for" in args:
                raise ToolError(
                    "Use either commands (a batch) or device_id+command, not both; wait_for "
                    "works only with a single command."
                )
            return await self._batch(call, args)
        if "device_id" not in args or "command" not in args:
            raise ToolError("Give device_id and command (or a commands batch).")
        manager = call.hub.devices
        condition = make_condition(args["wait_for"]) if "wait_for" in args else None
        prepared = await manager.commands.prepare(
            args["device_id"], args["command"], args.get("arguments"), confirm=args["confirm"]
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
        if condition is not None:
            spec = args["wait_for"]
            out["wait"] = await manager.waits.wait_attribute(
                [prepared.device_id],
                spec["attribute"],
                condition,
                stable_for_ms=spec["stable_for_ms"],
                timeout_ms=spec["timeout_ms"],
            )
        return out

    async def _batch(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        entries: list[dict[str, Any]] = args["commands"]
        hidden = sorted(
            {e["device_id"] for e in entries if not call.device_allowed(e["device_id"])}
        )
        if hidden:
            raise ToolError(
                f"Device(s) {', '.join(hidden)} are not available to the assistant (device "
                "restriction in the integration's options). Nothing was sent.",
                code="device_not_allowed",
            )
        manager = call.hub.devices
        prepared = await manager.commands.prepare_many(entries, confirm=args["confirm"])
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


class ListDeviceEventsTool(HubTool):
    """hub_list_device_events."""

    name = "hub_list_device_events"
    title = "List device events"
    description = (
        "One device's event history (attribute changes and commands), newest first. Narrow "
        "with attribute, hours_back (max 168) or since (an exact event date, strictly "
        "after; pass back newest_date to get only newer events). Mode, HSM, hub variable "
        "and hub events are in hub_list_events. For 'what changed recently' across all "
        "devices, hub_list_devices(changed_within_minutes=...) is one call."
    )
    domain = "devices"
    kind = ToolKind.READ
    fields = {
        vol.Required("device_id", description="Device id"): DEVICE_ID,
        vol.Optional("attribute", description="Only events with this name, e.g. switch"): str,
        vol.Optional("limit", default=50, description="Max events"): vol.All(
            int, vol.Range(min=1, max=500)
        ),
        vol.Optional("hours_back", description="Only the last N hours (max 168)"): vol.All(
            vol.Any(int, float), vol.Range(min=0.01, max=168)
        ),
        vol.Optional("since", description="Only events strictly after this date"): vol.All(
            str, _timestamp
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return events."""
        since = parse_hub_time(args["since"]) if "since" in args else None
        if "hours_back" in args:
            window = datetime.now(UTC) - timedelta(hours=args["hours_back"])
            since = max(since, window) if since else window
        events = await call.hub.devices.events(
            device_id=args["device_id"],
            since=since,
            attribute=args.get("attribute"),
            limit=args["limit"],
        )
        out: dict[str, Any] = {"device_id": args["device_id"], "events": events}
        out["count"] = len(events)
        if events:
            out["newest_date"] = events[0]["date"]
        return out


ORDER = 20

TOOLS: tuple[type[HubTool], ...] = (
    ListDevicesTool,
    GetDeviceTool,
    GetDeviceAttributeTool,
    CallDeviceCommandTool,
    ListDeviceEventsTool,
)
