"""Dashboard tools: Easy Dashboards (list/get/create/update/clone/delete) and legacy ones."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..hub.dashboards import BOOL_OPTIONS, TEXT_OPTIONS
from ..managers.dashboards import DashboardManager
from ..safety import ToolKind
from .args import ascii_re
from .base import HubTool, ToolCall

DASH_ID = vol.All(
    vol.Coerce(str), vol.Match(ascii_re(r"^\d+$"), msg="dashboard_id must be a numeric id")
)
DEVICE_IDS = vol.All(
    [vol.All(vol.Coerce(str), vol.Match(ascii_re(r"^\d+$"), msg="device ids are numeric"))],
    vol.Length(max=500),
)
OPTIONS = vol.Schema(
    {
        **{vol.Optional(k): bool for k in BOOL_OPTIONS},
        **{vol.Optional(k): vol.All(str, vol.Length(max=200)) for k in TEXT_OPTIONS},
    }
)
OPTIONS_DESC = "Easy Dashboard display options (true/false flags and texts)"
NAME = vol.All(str, vol.Length(min=1, max=100))
_SPAN = vol.All(int, vol.Range(min=1, max=100))


def _tile(*required: str) -> vol.Schema:
    """A legacy tile; ``required`` keys must be present (one flat schema per shape)."""
    keys: dict[str, Any] = {
        "id": int,
        "template": str,
        "device": vol.Coerce(str),
        "col": _SPAN,
        "row": _SPAN,
        "colSpan": _SPAN,
        "rowSpan": _SPAN,
    }
    return vol.Schema(
        {(vol.Required(k) if k in required else vol.Optional(k)): v for k, v in keys.items()},
        extra=vol.ALLOW_EXTRA,
    )


NEW_TILE = _tile("template", "col", "row")
TILE_UPDATE = _tile("id")


def _manager(call: ToolCall) -> DashboardManager:
    return call.hub.dashboards


class ListDashboardsTool(HubTool):
    """hub_list_dashboards."""

    name = "hub_list_dashboards"
    title = "List dashboards"
    description = (
        "List the hub's dashboards: Easy Dashboards and legacy Hubitat Dashboards, with "
        "dashboard_id, name and type (easy or legacy). Read one with hub_get_dashboard."
    )
    domain = "dashboards"

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the dashboards."""
        items = await _manager(call).list_all()
        return {"dashboards": items, "count": len(items)}


class GetDashboardTool(HubTool):
    """hub_get_dashboard."""

    name = "hub_get_dashboard"
    title = "Get dashboard"
    description = (
        "Read one dashboard: an Easy Dashboard's devices and options, or a legacy "
        "dashboard's authorised devices and its tile layout (tiles with id, template, "
        "device, col, row, spans)."
    )
    domain = "dashboards"
    fields = {vol.Required("dashboard_id", description="Dashboard id"): DASH_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the dashboard."""
        return await _manager(call).get(args["dashboard_id"])


class CreateDashboardTool(HubTool):
    """hub_create_dashboard."""

    name = "hub_create_dashboard"
    title = "Create Easy Dashboard"
    description = (
        "Create an Easy Dashboard with a name, the devices to show and options (mode, "
        "clock, calendar, HSM tiles, theme, PINs). Legacy dashboards are created in the "
        "hub UI. To copy an existing one use hub_clone_dashboard."
    )
    domain = "dashboards"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("name", description="Dashboard name"): NAME,
        vol.Optional("device_ids", default=list, description="Device ids to show"): DEVICE_IDS,
        vol.Optional("options", default=dict, description=OPTIONS_DESC): OPTIONS,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Create."""
        result = await _manager(call).create(args["name"], args["device_ids"], args["options"])
        return {
            "summary": f"Created Easy Dashboard {result['dashboard_id']} ({args['name']})",
            **result,
        }


class UpdateDashboardTool(HubTool):
    """hub_update_dashboard."""

    name = "hub_update_dashboard"
    title = "Update dashboard"
    description = (
        "Change an Easy Dashboard: rename, replace the device list (device_ids), add or "
        "remove single devices (add_device_ids / remove_device_ids), or change options. "
        "Omitted parts are kept (the current configuration is read and merged, because the "
        "hub's update replaces everything); the previous configuration is returned and "
        "saved as an item backup. Legacy dashboards: replace the whole tile layout (layout) "
        "or edit single tiles (add_tiles, update_tiles by id, remove_tile_ids); their name "
        "and devices are not changed here."
    )
    domain = "dashboards"
    kind = ToolKind.WRITE
    fields = {
        vol.Required("dashboard_id", description="Easy Dashboard id"): DASH_ID,
        vol.Optional("name", description="New name"): NAME,
        vol.Optional("device_ids", description="Replace the device list"): DEVICE_IDS,
        vol.Optional("add_device_ids", default=list, description="Devices to add"): DEVICE_IDS,
        vol.Optional("remove_device_ids", default=list, description="Devices to remove"): (
            DEVICE_IDS
        ),
        vol.Optional("options", default=dict, description=OPTIONS_DESC): OPTIONS,
        vol.Optional("layout", description="Legacy: the whole new layout (cols, rows, tiles)"): (
            vol.Schema({vol.Required("tiles"): [NEW_TILE]}, extra=vol.ALLOW_EXTRA)
        ),
        vol.Optional("add_tiles", default=list, description="Legacy: tiles to add"): vol.All(
            [NEW_TILE], vol.Length(max=100)
        ),
        vol.Optional(
            "update_tiles", default=list, description="Legacy: tile changes by id"
        ): vol.All([TILE_UPDATE], vol.Length(max=100)),
        vol.Optional("remove_tile_ids", default=list, description="Legacy: tile ids"): vol.All(
            [int], vol.Length(max=100)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Read, merge, write."""
        manager = _manager(call)
        tile_ops = (
            "layout" in args or args["add_tiles"] or args["update_tiles"] or args["remove_tile_ids"]
        )
        if tile_ops:
            result = await manager.update_legacy_layout(
                args["dashboard_id"],
                layout=args.get("layout"),
                add_tiles=args["add_tiles"],
                update_tiles=args["update_tiles"],
                remove_tile_ids=args["remove_tile_ids"],
            )
            return {"summary": f"Updated the layout of dashboard {args['dashboard_id']}", **result}
        result = await manager.update(
            args["dashboard_id"],
            name=args.get("name"),
            device_ids=args.get("device_ids"),
            add_device_ids=args["add_device_ids"],
            remove_device_ids=args["remove_device_ids"],
            options=args["options"],
        )
        return {"summary": f"Updated Easy Dashboard {args['dashboard_id']}", **result}


class CloneDashboardTool(HubTool):
    """hub_clone_dashboard."""

    name = "hub_clone_dashboard"
    title = "Clone Easy Dashboard"
    description = (
        "Copy an Easy Dashboard (devices and options) into a new Easy Dashboard with a new "
        "name (default '<name> (copy)'). Legacy dashboards are refused."
    )
    domain = "dashboards"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("dashboard_id", description="Easy Dashboard id to copy"): DASH_ID,
        vol.Optional("name", description="Name of the copy"): NAME,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Clone."""
        result = await _manager(call).clone(args["dashboard_id"], args.get("name"))
        return {
            "summary": f"Cloned dashboard {args['dashboard_id']} as {result['dashboard_id']}",
            **result,
        }


class DeleteDashboardTool(HubTool):
    """hub_delete_dashboard."""

    name = "hub_delete_dashboard"
    title = "Delete dashboard"
    description = (
        "Delete an Easy or legacy dashboard. Its configuration is saved as an item backup "
        "first and (Easy) returned, so it can be re-created with hub_create_dashboard. "
        "Destructive: needs confirm=true and a hub backup from the last 24 hours."
    )
    domain = "dashboards"
    kind = ToolKind.DESTRUCTIVE
    fields = {vol.Required("dashboard_id", description="Dashboard id"): DASH_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Back up and delete."""
        result = await _manager(call).delete(args["dashboard_id"])
        return {"summary": f"Deleted dashboard {args['dashboard_id']}", **result}


ORDER = 66

TOOLS: tuple[type[HubTool], ...] = (
    ListDashboardsTool,
    GetDashboardTool,
    CreateDashboardTool,
    UpdateDashboardTool,
    CloneDashboardTool,
    DeleteDashboardTool,
)
