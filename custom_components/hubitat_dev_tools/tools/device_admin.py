"""Device administration: edit, create, delete, replace, swap, compatible-device search."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..errors import ToolError
from ..managers.devices import DeviceUpdate
from ..safety import ToolKind
from .base import HubTool, ToolCall
from .devices import DEVICE_ID


class UpdateDeviceTool(HubTool):
    """hub_update_device."""

    name = "hub_update_device"
    title = "Update device"
    description = (
        "Edit a device: label, name, room (an existing room's name or id, 'unassigned' to "
        "clear; rooms are never created here, use hub_create_room), enabled true/false, "
        "driver preferences {name: value} (typed against the driver's declared preferences), "
        "device network id (dni) and tags (replaces the list). Everything is validated before "
        "anything is sent; the edit form is re-posted complete from a fresh read so no field "
        "is blanked; enabling runs first and disabling last, and a partial failure says what "
        "landed. To move many devices into one room use hub_update_room. Cannot change the "
        "driver."
    )
    domain = "devices"
    kind = ToolKind.WRITE
    idempotent = True
    fields = {
        vol.Required("device_id", description="Device id (from hub_list_devices)"): DEVICE_ID,
        vol.Optional("label", description="New label (what users see)"): vol.All(
            str, vol.Length(max=200)
        ),
        vol.Optional("name", description="New device name"): vol.All(str, vol.Length(max=200)),
        vol.Optional("room", description="Room name or id; 'unassigned' to clear"): str,
        vol.Optional("enabled", description="false disables the device, true enables it"): bool,
        vol.Optional(
            "preferences", description="Driver preferences, e.g. {'logEnable': false}"
        ): vol.All(dict, vol.Length(min=1, max=50)),
        vol.Optional("dni", description="Device network id"): vol.All(
            str, vol.Length(min=1, max=100)
        ),
        vol.Optional("tags", description="Tags (replaces the current list)"): vol.All(
            [str], vol.Length(max=50)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Apply the edits."""
        upd = DeviceUpdate(
            label=args.get("label"),
            name=args.get("name"),
            room=args.get("room"),
            enabled=args.get("enabled"),
            preferences=args.get("preferences"),
            dni=args.get("dni"),
            tags=args.get("tags"),
        )
        if not any(
            v is not None
            for v in (upd.label, upd.name, upd.room, upd.enabled, upd.preferences, upd.dni)
        ) and (upd.tags is None):
            raise ToolError("Nothing to change: give at least one field to update.")
        result = await call.hub.devices.admin.update_device(args["device_id"], upd)
        label = result["device"].get("label")
        applied = ", ".join(result["applied"]) or "nothing (already as requested)"
        return {"summary": f"Updated {label} (device {args['device_id']}): {applied}", **result}


class CreateDeviceTool(HubTool):
    """hub_create_device."""

    name = "hub_create_device"
    title = "Create device"
    description = (
        "Create a device from a driver type by exact driver name or id: the hub's built-in "
        "virtual types ('Virtual Switch', 'Virtual Dimmer', 'Virtual Contact Sensor', "
        "'Virtual Presence', 'Virtual Lock', 'Virtual Button', ...) or a user driver. A "
        "Z-Wave/Zigbee driver only makes an unpaired shell: real hardware is paired by "
        "inclusion (hub_call_radio_action). Set its room etc. afterwards with "
        "hub_update_device; delete with hub_delete_device."
    )
    domain = "devices"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("driver", description="Driver name (e.g. 'Virtual Switch') or id"): vol.All(
            vol.Coerce(str), vol.Length(min=1, max=200)
        ),
        vol.Optional("label", description="Label of the new device"): vol.All(
            str, vol.Length(min=1, max=200)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Create it."""
        result = await call.hub.devices.admin.create_device(args["driver"], args.get("label"))
        dev = result["device"]
        if result["note"] is None:
            result.pop("note")
        return {
            "summary": f"Created {dev['label']} (device {dev['device_id']}, {result['driver']})",
            **result,
        }


class DeleteDeviceTool(HubTool):
    """hub_delete_device."""

    name = "hub_delete_device"
    title = "Delete device"
    description = (
        "Permanently delete a device (virtual or real; a real device's radio pairing is lost "
        "and child devices go with it). Apps and rules that used it lose it: check "
        "apps_using with hub_get_device first and tell the user. Needs confirm=true and a hub "
        "backup from the last 24 hours (hub_create_backup). To disable instead, use "
        "hub_update_device(enabled=false)."
    )
    domain = "devices"
    kind = ToolKind.DESTRUCTIVE
    idempotent = True
    fields = {vol.Required("device_id", description="Device id to delete"): DEVICE_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Delete it."""
        result = await call.hub.devices.admin.delete_device(args["device_id"])
        apps = result["apps_that_used_it"]
        summary = f"Deleted {result['label']} (device {result['device_id']})"
        if apps:
            summary += f"; {len(apps)} app(s) used it: " + ", ".join(
                str(a.get("label") or a.get("name")) for a in apps
            )
        return {"summary": summary, **result}


class ReplaceDeviceTool(HubTool):
    """hub_replace_device."""

    name = "hub_replace_device"
    title = "Replace device hardware"
    description = (
        "The hub's device Replace: the OLD device keeps its id, label, room and every app and "
        "rule reference, and takes over the NEW device's hardware (network id, driver, "
        "states); the new device's record disappears. Use it when a physical device was "
        "swapped for a new one that was paired as a separate device. The new device must be "
        "one the hub offers as a replacement (same main capabilities); otherwise the refusal "
        "lists them. Needs confirm=true and a hub backup from the last 24 hours. To point apps at "
        "a different device id instead, use hub_swap_device."
    )
    domain = "devices"
    kind = ToolKind.DESTRUCTIVE
    idempotent = False
    fields = {
        vol.Required("old_device_id", description="Device to keep (id, apps, room)"): DEVICE_ID,
        vol.Required("new_device_id", description="Device whose hardware it takes"): DEVICE_ID,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Replace it."""
        result = await call.hub.devices.admin.replace_device(
            args["old_device_id"], args["new_device_id"]
        )
        kept, new = result["kept"], result["new_hardware_from"]
        return {
            "summary": f"{kept['label']} (device {kept['device_id']}) now uses the hardware of "
            f"{new['label']} (device {new['device_id']}, removed)",
            **result,
        }


class SwapDeviceTool(HubTool):
    """hub_swap_device."""

    name = "hub_swap_device"
    title = "Swap a device in every app"
    description = (
        "The hub's Swap Device: every app and rule that uses the OLD device is changed to use "
        "the NEW device instead (the new device keeps its own id; the old device stays, "
        "unused). Use it to move automations to a different device; when a physical device "
        "was replaced and should keep its id, label and room, use hub_replace_device. Both "
        "devices must be free-standing (not child/component devices) and the old one must be "
        "used by at least one app. Answers which apps moved. Needs confirm=true and a hub "
        "backup from the last 24 hours."
    )
    domain = "devices"
    kind = ToolKind.DESTRUCTIVE
    idempotent = False
    fields = {
        vol.Required("old_device_id", description="Device the apps use now"): DEVICE_ID,
        vol.Required("new_device_id", description="Device the apps should use"): DEVICE_ID,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Swap it."""
        result = await call.hub.swap.swap_device(args["old_device_id"], args["new_device_id"])
        old, new = result["old_device"], result["new_device"]
        return {
            "summary": f"{len(result['apps_moved'])} app(s) moved from {old['label']} to "
            f"{new['label']}",
            **result,
        }


class SearchCompatibleDevicesTool(HubTool):
    """hub_search_compatible_devices."""

    name = "hub_search_compatible_devices"
    title = "Search compatible devices"
    description = (
        "Search Hubitat's own list of compatible devices (what the hub's 'compatible "
        "devices' page shows) by words of the brand, name, product number, type or driver, "
        "and by protocol: which built-in driver a product uses and how to pair, exclude or "
        "factory-reset it. For devices already on this hub use hub_list_devices; to start "
        "pairing use hub_call_radio_action."
    )
    domain = "devices"
    kind = ToolKind.READ
    fields = {
        vol.Optional("text", description="Words to match, e.g. 'zooz dimmer'"): vol.All(
            str, vol.Length(max=200)
        ),
        vol.Optional("protocol", description="Z-Wave, Zigbee, Matter, LAN, Cloud"): vol.All(
            str, vol.Length(max=20)
        ),
        vol.Optional("limit", default=20, description="Max devices"): vol.All(
            int, vol.Range(min=1, max=100)
        ),
        vol.Optional(
            "include_instructions", default=True, description="Pairing/exclusion/reset steps"
        ): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Search the catalog."""
        if not args.get("text") and not args.get("protocol"):
            raise ToolError(
                "Give text or protocol: the full catalog has about a thousand entries.",
                hint="For example text='zooz dimmer' or protocol='Matter'.",
            )
        return await call.hub.devices.compatible.search(
            args.get("text"), args.get("protocol"), args["limit"], args["include_instructions"]
        )


ORDER = 25

TOOLS: tuple[type[HubTool], ...] = (
    UpdateDeviceTool,
    CreateDeviceTool,
    DeleteDeviceTool,
    ReplaceDeviceTool,
    SwapDeviceTool,
    SearchCompatibleDevicesTool,
)
