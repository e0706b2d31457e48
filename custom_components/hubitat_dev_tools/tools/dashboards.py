"""Dashboard tools: Easy Dashboards (list/get/create/update/clone/delete) and legacy ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import TIER_SAFETY, ToolError
from ..hub.dashboards import BOOL_OPTIONS, TEXT_OPTIONS
from ..managers.confirm import require_confirm
from ..safety import ToolKind
from .args import ToolArgs, arg, numeric_id
from .base import HubTool, ToolCall, on_hub

TOOL_DOMAIN = "dashboards"

DASH_ID = numeric_id("dashboard_id")
DEVICE_IDS = vol.All([numeric_id("device_id")], vol.Length(max=500))
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


@dataclass(frozen=True, slots=True, kw_only=True)
class DashboardIdArgs(ToolArgs):
    dashboard_id: str = arg(DASH_ID, "Dashboard id", required=True)


class ListDashboardsTool(HubTool[ToolArgs]):
    name = "hub_list_dashboards"
    covers = (on_hub("hub_list_dashboards"),)
    title = "List dashboards"
    description = (
        "List the hub's dashboards: Easy Dashboards and legacy Hubitat Dashboards, with "
        "dashboard_id, name and type (easy or legacy). Read one with hub_get_dashboard."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        items = await call.hub.dashboards.list_all()
        return {"dashboards": items, "count": len(items)}


class GetDashboardTool(HubTool[DashboardIdArgs]):
    name = "hub_get_dashboard"
    covers = (on_hub("hub_get_dashboard"),)
    title = "Get dashboard"
    description = (
        "Read one dashboard: an Easy Dashboard's devices and options, or a legacy "
        "dashboard's authorised devices and its tile layout (tiles with id, template, "
        "device, col, row, spans)."
    )

    async def run(self, call: ToolCall, args: DashboardIdArgs) -> dict[str, Any]:
        dashboard = await call.hub.dashboards.get(args.dashboard_id)
        # its devices and tiles: only those in the device allowlist
        return (await call.hub.devices.screen(call.device_allowed)).answer(dashboard)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateDashboardArgs(ToolArgs):
    name: str = arg(NAME, "Dashboard name", required=True)
    device_ids: list[str] = arg(DEVICE_IDS, "Device ids to show", default=list)
    options: dict[str, Any] = arg(OPTIONS, OPTIONS_DESC, default=dict)
    confirm: bool = arg(bool, "true for a lock-like device, HSM or PINs", default=False)
    kind: str = arg(vol.In(["easy", "legacy"]), "easy or legacy", default="easy")


class CreateDashboardTool(HubTool[CreateDashboardArgs]):
    name = "hub_create_dashboard"
    covers = (on_hub("hub_create_dashboard"),)
    title = "Create dashboard"
    description = (
        "Create an Easy Dashboard with a name, the devices to show and options (mode, "
        "clock, calendar, HSM tiles, theme, PINs). kind=legacy: a classic Hubitat Dashboard "
        "(name, devices; empty layout, tiles via hub_update_dashboard) under the installed "
        "Hubitat® Dashboard app. To copy an existing one use hub_clone_dashboard. A lock or "
        "other sensitive device on it needs confirm=true."
    )
    kind = ToolKind.WRITE
    idempotent = False
    effect_devices = ("device_ids",)

    async def run(self, call: ToolCall, args: CreateDashboardArgs) -> dict[str, Any]:
        require_hsm_confirm(args.options, args.confirm)
        if args.kind == "legacy":
            if args.options:
                raise ToolError(
                    "options are Easy Dashboard settings; a legacy dashboard's look is its "
                    "layout. Nothing was sent.",
                    hint="Create it without options, then add tiles with hub_update_dashboard.",
                )
            legacy = await call.hub.dashboards.create_legacy(args.name, args.device_ids)
            return {
                "summary": f"Created legacy dashboard {legacy['dashboard_id']} ({legacy['name']})",
                **legacy,
            }
        result = await call.hub.dashboards.create(args.name, args.device_ids, args.options)
        return {
            "summary": f"Created Easy Dashboard {result['dashboard_id']} ({args.name})",
            **result,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateDashboardArgs(ToolArgs):
    dashboard_id: str = arg(DASH_ID, "Dashboard id", required=True)
    name: str | None = arg(NAME, "New name")
    device_ids: list[str] | None = arg(DEVICE_IDS, "Replace the device list")
    add_device_ids: list[str] = arg(DEVICE_IDS, "Devices to add", default=list)
    remove_device_ids: list[str] = arg(DEVICE_IDS, "Devices to remove", default=list)
    options: dict[str, Any] = arg(OPTIONS, OPTIONS_DESC, default=dict)
    layout: dict[str, Any] | None = arg(
        vol.Schema({vol.Required("tiles"): [NEW_TILE]}, extra=vol.ALLOW_EXTRA),
        "Legacy: the whole new layout (cols, rows, tiles)",
    )
    add_tiles: list[dict[str, Any]] = arg(
        vol.All([NEW_TILE], vol.Length(max=100)), "Legacy: tiles to add", default=list
    )
    update_tiles: list[dict[str, Any]] = arg(
        vol.All([TILE_UPDATE], vol.Length(max=100)), "Legacy: tile changes by id", default=list
    )
    remove_tile_ids: list[int] = arg(
        vol.All([int], vol.Length(max=100)), "Legacy: tile ids", default=list
    )
    confirm: bool = arg(bool, "true for a lock-like device, HSM or PINs", default=False)


class UpdateDashboardTool(HubTool[UpdateDashboardArgs]):
    name = "hub_update_dashboard"
    covers = (on_hub("hub_update_dashboard"),)
    title = "Update dashboard"
    description = (
        "Change an Easy Dashboard: rename, replace the device list (device_ids), add or "
        "remove single devices (add_device_ids / remove_device_ids), or change options. "
        "Omitted parts are kept (the current configuration is read and merged, because the "
        "hub's update replaces everything); the previous configuration is returned and "
        "saved as an item backup. Legacy dashboards: replace the whole tile layout (layout) "
        "or edit single tiles (add_tiles, update_tiles by id, remove_tile_ids) or rename "
        "(name); their devices are not changed here. Putting a lock or other sensitive "
        "device on a dashboard needs confirm=true."
    )
    kind = ToolKind.WRITE
    effect_devices = ("device_ids", "add_device_ids", "layout", "add_tiles", "update_tiles")

    async def run(self, call: ToolCall, args: UpdateDashboardArgs) -> dict[str, Any]:
        require_hsm_confirm(args.options, args.confirm)
        manager = call.hub.dashboards
        tile_ops = (
            args.layout is not None or args.add_tiles or args.update_tiles or args.remove_tile_ids
        )
        kind = await manager.kind(args.dashboard_id)
        if kind == "legacy":
            return await self._legacy(call, args, bool(tile_ops))
        if tile_ops:
            raise ToolError(
                f"Dashboard {args.dashboard_id} is an Easy Dashboard: layout, add_tiles, "
                "update_tiles and remove_tile_ids are for legacy dashboards. Nothing was sent.",
                hint="Change its devices (device_ids, add_device_ids) or options instead.",
            )
        result = await manager.update(
            args.dashboard_id,
            name=args.name,
            device_ids=args.device_ids,
            add_device_ids=args.add_device_ids,
            remove_device_ids=args.remove_device_ids,
            options=args.options,
        )
        return {"summary": f"Updated Easy Dashboard {args.dashboard_id}", **result}

    async def _legacy(
        self, call: ToolCall, args: UpdateDashboardArgs, tile_ops: bool
    ) -> dict[str, Any]:
        """A legacy dashboard: its tiles first (checked before anything is sent), then its
        name; Easy-only arguments are refused before either."""
        easy_only = [
            name
            for name, given in (
                ("device_ids", args.device_ids is not None),
                ("add_device_ids", bool(args.add_device_ids)),
                ("remove_device_ids", bool(args.remove_device_ids)),
                ("options", bool(args.options)),
            )
            if given
        ]
        if easy_only:
            raise ToolError(
                f"Dashboard {args.dashboard_id} is a legacy Hubitat Dashboard: "
                f"{', '.join(easy_only)} apply to Easy Dashboards only. Nothing was sent.",
                hint="Change its tiles (layout, add_tiles, update_tiles, remove_tile_ids) or "
                "its name; its devices are set on its app page in the hub UI.",
            )
        if not tile_ops and args.name is None:
            raise ToolError(
                f"Nothing to change on legacy dashboard {args.dashboard_id}: give name or a "
                "tile argument. Nothing was sent."
            )
        manager = call.hub.dashboards
        out: dict[str, Any] = {"dashboard_id": args.dashboard_id, "type": "legacy"}
        done = []
        if tile_ops:
            out.update(
                await manager.update_legacy_layout(
                    args.dashboard_id,
                    layout=args.layout,
                    add_tiles=args.add_tiles,
                    update_tiles=args.update_tiles,
                    remove_tile_ids=args.remove_tile_ids,
                )
            )
            done.append("layout")
        if args.name is not None:
            out.update(await manager.rename_legacy(args.dashboard_id, args.name))
            done.append("name")
        return {
            "summary": f"Updated the {' and '.join(done)} of legacy dashboard {args.dashboard_id}",
            **out,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class CloneDashboardArgs(ToolArgs):
    dashboard_id: str = arg(DASH_ID, "Easy Dashboard id to copy", required=True)
    name: str | None = arg(NAME, "Name of the copy")
    confirm: bool = arg(bool, "true to copy a dashboard showing a lock or HSM", default=False)


class CloneDashboardTool(HubTool[CloneDashboardArgs]):
    name = "hub_clone_dashboard"
    covers = (on_hub("hub_clone_dashboard"),)
    title = "Clone Easy Dashboard"
    description = (
        "Copy an Easy Dashboard (devices and options) into a new Easy Dashboard with a new "
        "name (default '<name> (copy)'). Legacy dashboards are refused. A copy of one showing "
        "a lock or other sensitive device, or HSM, needs confirm=true."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CloneDashboardArgs) -> dict[str, Any]:
        source = await call.hub.dashboards.get(args.dashboard_id)
        model = call.hub.sensitivity
        model.require(
            await model.devices(source.get("device_ids") or []),
            confirm=args.confirm,
            allowed=call.device_allowed,
            what=f"A copy of dashboard {args.dashboard_id}",
        )
        shown = source.get("options") or {}
        require_hsm_confirm({"showHSMTile": shown.get("showHSMTile")}, args.confirm)
        result = await call.hub.dashboards.clone(args.dashboard_id, args.name)
        return {
            "summary": f"Cloned dashboard {args.dashboard_id} as {result['dashboard_id']}",
            **result,
        }


class DeleteDashboardTool(HubTool[DashboardIdArgs]):
    name = "hub_delete_dashboard"
    covers = (on_hub("hub_delete_dashboard"),)
    title = "Delete dashboard"
    description = (
        "Delete an Easy or legacy dashboard. Its configuration is saved as an item backup "
        "first and (Easy) returned, so it can be re-created with hub_create_dashboard."
    )
    kind = ToolKind.DESTRUCTIVE

    async def run(self, call: ToolCall, args: DashboardIdArgs) -> dict[str, Any]:
        result = await call.hub.dashboards.delete(args.dashboard_id)
        return {"summary": f"Deleted dashboard {args.dashboard_id}", **result}


ORDER = 66

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListDashboardsTool,
    GetDashboardTool,
    CreateDashboardTool,
    UpdateDashboardTool,
    CloneDashboardTool,
    DeleteDashboardTool,
)


def require_hsm_confirm(options: dict[str, Any], confirm: bool) -> None:
    """An HSM tile arms and disarms the home from the dashboard, and its PINs are what keep
    that (and the dashboard) from anyone on the LAN: showing HSM or changing a PIN is the
    safety tier, as hub_set_hsm is."""
    touched = [k for k in options if (k == "showHSMTile" and options[k]) or "pin" in k.lower()]
    if touched:
        require_confirm(
            confirm,
            f"Dashboard options {', '.join(sorted(touched))} control HSM or the dashboard's "
            "PINs (a safety system).",
            tier=TIER_SAFETY,
        )
