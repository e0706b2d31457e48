"""Device administration: edit, create, delete, replace, swap, compatible-device search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..managers.devices import DeviceUpdate
from ..managers.devices.admin import NameWarning
from ..safety import ToolKind
from .args import ToolArgs, arg
from .base import HubTool, ToolCall, connector, on_hub
from .devices import DEVICE_ID

TOOL_DOMAIN = "devices"


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateDeviceArgs(ToolArgs):
    device_id: str = arg(DEVICE_ID, "Device id (from hub_list_devices)", required=True)
    label: str | None = arg(vol.All(str, vol.Length(max=200)), "New label (renames it)")
    name: str | None = arg(vol.All(str, vol.Length(max=200)), "New device name")
    room: str | None = arg(str, "Room name or id; 'unassigned' to clear")
    enabled: bool | None = arg(bool, "false disables the device, true enables it")
    preferences: dict[str, Any] | None = arg(
        vol.All(dict, vol.Length(min=1, max=50)), "Driver preferences, e.g. {'logEnable': false}"
    )
    dni: str | None = arg(vol.All(str, vol.Length(min=1, max=100)), "Device network id")
    tags: list[str] | None = arg(
        vol.All([str], vol.Length(max=50)), "Tags (replaces the current list)"
    )
    show_on_home: bool | None = arg(bool, "Show it on the hub's Home page")
    default_current_state: str | None = arg(
        vol.All(str, vol.Length(max=100)), "Attribute shown as its status; '' for none"
    )
    hub_mesh: bool | None = arg(bool, "Share it with other hubs over Hub Mesh (false: stop)")
    homekit: bool | None = arg(bool, "Share it with HomeKit (false: stop)")
    confirm: bool = arg(
        bool,
        "true to disable, or share over Hub Mesh/HomeKit, a lock, garage door, valve, keypad, "
        "siren or smoke/CO sensor",
        default=False,
    )


class UpdateDeviceTool(HubTool[UpdateDeviceArgs]):
    name = "hub_update_device"
    covers = (
        on_hub("hub_update_device"),
        on_hub("hub_update_hub_mesh", "hub_mesh"),
        connector("hubitat_set_device_disabled", "enabled"),
    )
    title = "Update device"
    description = (
        "Edit a device: label (rename it), name, room (an existing one), enabled, driver "
        "preferences (typed against the driver's), dni, tags, Show on Home, default current "
        "state, Hub Mesh/HomeKit sharing. All checked before anything is sent; other fields "
        "are kept; a partial failure says what landed; a name another device, room or rule "
        "has is used, with warnings. Many devices into one room: hub_update_room. Not the "
        "driver. Renaming, disabling or sharing a lock or other sensitive device needs "
        "confirm=true."
    )
    kind = ToolKind.WRITE
    idempotent = True

    async def run(self, call: ToolCall, args: UpdateDeviceArgs) -> dict[str, Any]:
        upd = DeviceUpdate(
            label=args.label,
            name=args.name,
            room=args.room,
            enabled=args.enabled,
            preferences=args.preferences,
            dni=args.dni,
            tags=args.tags,
            show_on_home=args.show_on_home,
            default_current_state=args.default_current_state,
            hub_mesh=args.hub_mesh,
            homekit=args.homekit,
        )
        if upd.is_empty:
            raise ToolError("Nothing to change: give at least one field to update.")
        # shared, another controller may make it act; disabled, it neither obeys nor reports
        # (a lock, or a scene's activator); renamed, the name the owner reads in every
        # confirmation and approval is no longer the one they know
        renamed = args.label is not None or args.name is not None
        if args.hub_mesh or args.homekit or args.enabled is False or renamed:
            model = call.hub.sensitivity
            what = "Disabling" if args.enabled is False else "Renaming" if renamed else "Sharing"
            model.require(
                await model.devices([args.device_id]),
                confirm=args.confirm,
                allowed=call.device_allowed,
                what=f"{what} device {args.device_id}",
            )
        result = await call.hub.devices.admin.update_device(
            args.device_id, upd, confirm=args.confirm, allowed=call.device_allowed
        )
        label = result["device"].get("label")
        applied = ", ".join(result["applied"]) or "nothing (already as requested)"
        summary = f"Updated {label} (device {args.device_id}): {applied}"
        return {"summary": summary + _clash_note(result.get("warnings")), **result}


def _clash_note(warnings: list[NameWarning] | None) -> str:
    """The summary's word on a name other items also have."""
    if not warnings:
        return ""
    named = ", ".join(f"{w['kind']} {w['id']}" for w in warnings)
    return f" (warning: the name is also used by {named})"


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateDeviceArgs(ToolArgs):
    driver: str = arg(
        vol.All(vol.Coerce(str), vol.Length(min=1, max=200)),
        "Driver name (e.g. 'Virtual Switch'), id or namespace:name",
        required=True,
    )
    label: str | None = arg(vol.All(str, vol.Length(min=1, max=200)), "Label of the new device")
    room: str | None = arg(vol.All(str, vol.Length(min=1, max=200)), "Room name or id")


class CreateDeviceTool(HubTool[CreateDeviceArgs]):
    name = "hub_create_device"
    covers = (
        on_hub("hub_manage_virtual_device"),
        on_hub("hub_create_device"),
    )
    title = "Create device"
    description = (
        "Create a device from a built-in virtual type ('Virtual Switch', 'Virtual Dimmer', "
        "'Virtual Contact Sensor', 'Virtual Presence', ...) or a custom driver "
        "(hub_list_code type=driver), with its label and room. A Z-Wave/Zigbee driver only "
        "makes an unpaired shell: pair hardware with hub_call_radio_action."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CreateDeviceArgs) -> dict[str, Any]:
        result = await call.hub.devices.admin.create_device(
            args.driver, args.label, args.room, allowed=call.device_allowed
        )
        dev = result["device"]
        if not result.get("virtual"):
            include = "To include: hub_call_radio_action action=inclusion_start."
            result["note"] = f"{result['note']} {include}" if result.get("note") else include
        summary = f"Created {dev['label']} (device {dev['device_id']}, {result['driver']})"
        return {"summary": summary + _clash_note(result.get("warnings")), **result}


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteDeviceArgs(ToolArgs):
    device_id: str = arg(DEVICE_ID, "Device id to delete", required=True)


class DeleteDeviceTool(HubTool[DeleteDeviceArgs]):
    name = "hub_delete_device"
    covers = (
        on_hub("hub_manage_virtual_device"),
        on_hub("hub_delete_device"),
        on_hub("hub_delete_connector"),
    )
    title = "Delete device"
    description = (
        "Permanently delete (remove) a device (virtual or real: its radio pairing and child "
        "devices go too). Apps and rules using it lose it: check apps_using (hub_get_device) "
        "first and tell the user. To disable instead: hub_update_device(enabled=false)."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = True

    async def run(self, call: ToolCall, args: DeleteDeviceArgs) -> dict[str, Any]:
        result = await call.hub.devices.admin.delete_device(args.device_id)
        apps = result["apps_that_used_it"]
        summary = f"Deleted {result['label']} (device {result['device_id']})"
        if apps:
            summary += f"; {len(apps)} app(s) used it: " + ", ".join(
                str(a.get("label") or a.get("name")) for a in apps
            )
        return {"summary": summary, **result}


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaceDeviceArgs(ToolArgs):
    old_device_id: str = arg(DEVICE_ID, "Device to keep (id, apps, room)", required=True)
    new_device_id: str = arg(DEVICE_ID, "Device whose hardware it takes", required=True)


class ReplaceDeviceTool(HubTool[ReplaceDeviceArgs]):
    name = "hub_replace_device"
    covers = (on_hub("hub_call_device_replace"),)
    title = "Replace device hardware"
    description = (
        "The hub's device Replace: the OLD device keeps its id, label, room and app/rule "
        "references and takes the NEW device's hardware (network id, driver, states); the "
        "new record goes. For a physical device re-paired as a new one; the hub must offer "
        "it (hub_list_replacement_candidates). To point apps at another device instead: "
        "hub_swap_device."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: ReplaceDeviceArgs) -> dict[str, Any]:
        result = await call.hub.devices.admin.replace_device(
            args.old_device_id, args.new_device_id, allowed=call.device_allowed
        )
        kept, new = result["kept"], result["new_hardware_from"]
        return {
            "summary": f"{kept['label']} (device {kept['device_id']}) now uses the hardware of "
            f"{new['label']} (device {new['device_id']}, removed)",
            **result,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplacementCandidatesArgs(ToolArgs):
    device_id: str = arg(DEVICE_ID, "Device whose hardware would be replaced", required=True)


class ListReplacementCandidatesTool(HubTool[ReplacementCandidatesArgs]):
    name = "hub_list_replacement_candidates"
    covers = (on_hub("hub_call_device_replace", "the devices it may take"),)
    example = {"device_id": "128"}  # Office Motion
    search_words = ("repaired", "re-paired", "new hardware")
    title = "List replacement candidates"
    description = (
        "The devices the hub offers as new hardware for a device (its Replace dialog): id, "
        "label, drivers. Read before hub_replace_device."
    )

    async def run(self, call: ToolCall, args: ReplacementCandidatesArgs) -> dict[str, Any]:
        found = await call.hub.devices.admin.replacement_candidates(
            args.device_id, allowed=call.device_allowed
        )
        return {"count": len(found["candidates"]), **found}


@dataclass(frozen=True, slots=True, kw_only=True)
class SwapDeviceArgs(ToolArgs):
    old_device_id: str = arg(DEVICE_ID, "Device the apps use now", required=True)
    new_device_id: str = arg(DEVICE_ID, "Device the apps should use", required=True)


class SwapDeviceTool(HubTool[SwapDeviceArgs]):
    name = "hub_swap_device"
    covers = (on_hub("hub_call_device_swap"),)
    title = "Swap a device in every app"
    description = (
        "The hub's Swap Device: every app and rule using the OLD device uses the NEW one "
        "instead (both keep their ids; the old one stays, unused). A replaced physical device "
        "that should keep its id, label and room: hub_replace_device. Both must be "
        "free-standing (not child devices), the old one used by an app. Answers which apps "
        "moved."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: SwapDeviceArgs) -> dict[str, Any]:
        result = await call.hub.swap.swap_device(args.old_device_id, args.new_device_id)
        if result.get("warning"):  # an error after a partial move, or apps left behind
            result["warning"] += " Check them with hub_get_app before swapping again."
        old, new = result["old_device"], result["new_device"]
        return {
            "summary": f"{len(result['apps_moved'])} app(s) moved from {old['label']} to "
            f"{new['label']}",
            **result,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchCompatibleDevicesArgs(ToolArgs):
    text: str | None = arg(vol.All(str, vol.Length(max=200)), "Words to match, e.g. 'zooz dimmer'")
    protocol: str | None = arg(
        vol.All(str, vol.Length(max=20)), "Z-Wave, Zigbee, Matter, LAN, Cloud"
    )
    limit: int = arg(vol.All(int, vol.Range(min=1, max=100)), "Max devices", default=20)
    include_instructions: bool = arg(bool, "Pairing/exclusion/reset steps", default=True)


class SearchCompatibleDevicesTool(HubTool[SearchCompatibleDevicesArgs]):
    name = "hub_search_compatible_devices"
    covers = (on_hub("hub_get_compatible_devices"),)
    title = "Search compatible devices"
    description = (
        "Search Hubitat's list of compatible devices by brand, name, product number, type or "
        "driver words and by protocol: which built-in driver a product uses and how to pair, "
        "exclude or factory-reset it. Devices on this hub: hub_list_devices; pairing: "
        "hub_call_radio_action."
    )
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: SearchCompatibleDevicesArgs) -> dict[str, Any]:
        if not args.text and not args.protocol:
            raise ToolError(
                "Give text or protocol: the full catalog has about a thousand entries.",
                hint="For example text='zooz dimmer' or protocol='Matter'.",
            )
        found = await call.hub.devices.compatible.search(
            args.text, args.protocol, args.limit, args.include_instructions
        )
        return {**found}


ORDER = 25

TOOLS: tuple[type[HubTool[Any]], ...] = (
    UpdateDeviceTool,
    CreateDeviceTool,
    DeleteDeviceTool,
    ReplaceDeviceTool,
    ListReplacementCandidatesTool,
    SwapDeviceTool,
    SearchCompatibleDevicesTool,
)
