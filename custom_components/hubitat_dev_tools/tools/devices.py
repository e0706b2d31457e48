"""Device tools: find, read, command."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..managers.devices import DeviceFilter
from ..safety import ToolKind
from .base import HubTool, ToolCall

DEVICE_ID = vol.All(vol.Coerce(str), vol.Match(r"^\d+$", msg="device_id must be a numeric id"))


class ListDevicesTool(HubTool):
    """hub_list_devices."""

    name = "hub_list_devices"
    title = "List devices"
    description = (
        "Find devices and read their current state in one call: id, label, room, type and "
        "current attribute values (e.g. switch, level, lock, temperature). Filter by text "
        "(matches label, name or id), room and capability. Use this to answer 'is X on' or "
        "'what is in the kitchen'. For commands and argument types of one device use "
        "hub_get_device. Does not show history (events)."
    )
    domain = "devices"
    kind = ToolKind.READ
    fields = {
        vol.Optional("text", description="Part of a label or name, or an exact device id"): str,
        vol.Optional("room", description="Room name or room id; 'unassigned' for none"): str,
        vol.Optional(
            "capability", description="Capability, e.g. Switch, SwitchLevel, Lock, MotionSensor"
        ): str,
        vol.Optional("limit", default=200, description="Max devices returned"): vol.All(
            int, vol.Range(min=1, max=1000)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return matching devices with states."""
        flt = DeviceFilter(
            text=args.get("text"), room=args.get("room"), capability=args.get("capability")
        )
        devices = await call.runtime.devices.list_devices(flt)
        limit: int = args["limit"]
        out: dict[str, Any] = {
            "devices": [d.as_dict() for d in devices[:limit]],
            "count": len(devices),
        }
        if len(devices) > limit:
            out["truncated"] = (
                f"Showing {limit} of {len(devices)}; narrow with text/room/capability."
            )
        return out


class GetDeviceTool(HubTool):
    """hub_get_device."""

    name = "hub_get_device"
    title = "Get device"
    description = (
        "Full detail of one device: room, driver, every attribute with its value and data "
        "type, every command with argument names and types (use before an unfamiliar "
        "hub_call_device_command), preferences, parent/children and the apps that use it. "
        "Find the device_id with hub_list_devices."
    )
    domain = "devices"
    kind = ToolKind.READ
    fields = {vol.Required("device_id", description="Device id (from hub_list_devices)"): DEVICE_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the device detail."""
        detail = await call.runtime.devices.get_device(args["device_id"])
        return {"device": detail.as_dict()}


class CallDeviceCommandTool(HubTool):
    """hub_call_device_command."""

    name = "hub_call_device_command"
    title = "Call device command"
    description = (
        "Run one command on a device (on, off, setLevel, lock, ...). The command and each "
        "argument are checked against the device's declared commands first; quoted numbers "
        "or booleans are repaired to the declared type and reported, anything else is refused "
        "with the commands the device has. Locks, garage doors, valves, keypads and sirens "
        "need confirm=true. The result reports what was sent; read the new state with "
        "hub_list_devices."
    )
    domain = "devices"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("device_id", description="Device id (from hub_list_devices)"): DEVICE_ID,
        vol.Required("command", description="Command name, case-sensitive, e.g. setLevel"): vol.All(
            str, vol.Length(min=1, max=100)
        ),
        vol.Optional(
            "arguments", description="Positional arguments, e.g. [50] for setLevel"
        ): vol.All(list, vol.Length(max=10)),
        vol.Optional(
            "confirm", default=False, description="true to allow security-sensitive devices"
        ): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Validate, then send the command."""
        manager = call.runtime.devices
        prepared = await manager.prepare(
            args["device_id"], args["command"], args.get("arguments"), confirm=args["confirm"]
        )
        await manager.execute(prepared)
        out: dict[str, Any] = {
            "summary": f"Sent {prepared.command} to {prepared.device_label} "
            f"(device {prepared.device_id})",
            "device_id": prepared.device_id,
            "command": prepared.command,
            "arguments": [a["value"] for a in prepared.args],
        }
        if prepared.repairs:
            out["repairs"] = prepared.repairs
        return out


ORDER = 20

TOOLS: tuple[type[HubTool], ...] = (
    ListDevicesTool,
    GetDeviceTool,
    CallDeviceCommandTool,
)
