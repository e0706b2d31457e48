"""Location mode tools: list, switch, create, rename, delete."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..hub.mode_manager import MANAGER_IDS
from ..managers.mode_manager import TRIGGER_SETS
from ..safety import ToolKind
from .args import ToolArgs, arg, short_text
from .base import HubTool, ToolCall, connector, on_hub
from .errors import add_advice

TOOL_DOMAIN = "modes"

MODE = short_text()
ICON_DESC = "Font Awesome icon, e.g. fa-moon"


@dataclass(frozen=True, slots=True, kw_only=True)
class ModeArgs(ToolArgs):
    mode: str = arg(MODE, "Mode name or id", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class SetModeArgs(ToolArgs):
    mode: str = arg(MODE, "Mode name or id, e.g. Away", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateModeArgs(ToolArgs):
    name: str = arg(MODE, "Mode name", required=True)
    icon: str | None = arg(MODE, ICON_DESC)


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateModeArgs(ToolArgs):
    mode: str = arg(MODE, "Current mode name or id", required=True)
    new_name: str = arg(MODE, "New name", required=True)
    icon: str | None = arg(MODE, ICON_DESC)


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateModeManagerArgs(ToolArgs):
    mode: str | None = arg(MODE, "Mode name or id")
    triggers: list[dict[str, Any]] | None = arg(
        vol.All([dict], vol.Length(max=20)),
        "Replaces the list ([] clears): {type:time,at:'22:30'}|{type:sunrise|sunset,"
        "offset_minutes:-15}|{type:presence,event:leaves|arrives}|{type:button,button,"
        "event:pushed|held|released|double_tapped}|{type:switch,event:on|off}|"
        "{type:illuminance,event:rises_above|falls_below,value}; device kinds add device_ids",
    )
    add: bool = arg(bool, "Append instead of replace", default=False)
    trigger_set: str = arg(
        vol.In(TRIGGER_SETS),
        "mode: its own; other_days: days outside days; exit_away: ends Away",
        default="mode",
    )
    days: list[str] | None = arg(
        vol.All([str], vol.Length(min=1, max=7)), "Days its triggers apply"
    )
    manager: str | None = arg(vol.In(MANAGER_IDS), "Which manager runs (builtIn: Integrated)")


class ListModesTool(HubTool[ToolArgs]):
    name = "hub_list_modes"
    covers = (
        on_hub("hub_list_modes"),
        connector("list_modes"),
    )
    title = "List modes"
    description = (
        "The hub's location modes (Day, Night, Away, ...) with ids and which one is active, "
        "and the Mode Manager (which runs, each mode's triggers). To switch the mode use "
        "hub_set_mode."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return _manager_advice(await call.hub.modes.list_with_manager())


class SetModeTool(HubTool[SetModeArgs]):
    name = "hub_set_mode"
    acting = True
    covers = (
        on_hub("hub_manage_mode"),
        connector("hubitat_set_mode"),
    )
    title = "Set mode"
    description = (
        "Switch the home's active mode, e.g. 'set the house to Away': pass the mode name "
        "(case-insensitive) or id. Unknown names are refused with the hub's modes (no mode "
        "is created; use hub_create_mode). Uses the Maker API when configured, else the hub "
        "UI's endpoint. Does not arm HSM (use hub_set_hsm)."
    )
    kind = ToolKind.WRITE
    idempotent = True

    async def run(self, call: ToolCall, args: SetModeArgs) -> dict[str, Any]:
        result = await call.hub.modes.set_mode(args.mode)
        if result["changed"]:
            summary = f"Mode set to {result['mode']} (was {result['previous_mode']})"
        else:
            summary = f"Mode was already {result['mode']}"
        return {"summary": summary, **result}


class CreateModeTool(HubTool[CreateModeArgs]):
    name = "hub_create_mode"
    covers = (on_hub("hub_manage_mode"),)
    title = "Create mode"
    description = (
        "Create a location mode (unique name). It does not become active: use hub_set_mode."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CreateModeArgs) -> dict[str, Any]:
        result = await call.hub.modes.create(args.name, args.icon)
        return {"summary": f"Created mode {result['name']} (id {result['mode_id']})", **result}


class UpdateModeTool(HubTool[UpdateModeArgs]):
    name = "hub_update_mode"
    covers = (on_hub("hub_manage_mode"),)
    title = "Rename mode"
    description = (
        "Rename a location mode (and optionally change its icon). Rules that react to the "
        "mode keep working (they use its id). To switch modes use hub_set_mode."
    )
    kind = ToolKind.WRITE
    idempotent = True

    async def run(self, call: ToolCall, args: UpdateModeArgs) -> dict[str, Any]:
        result = await call.hub.modes.rename(args.mode, args.new_name, args.icon)
        return {
            "summary": f"Renamed mode {result['renamed_from']} to {result['name']}",
            **result,
        }


class DeleteModeTool(HubTool[ModeArgs]):
    name = "hub_delete_mode"
    covers = (on_hub("hub_manage_mode"),)
    title = "Delete mode"
    description = (
        "Delete a location mode (never the active one: switch first with hub_set_mode). Rules "
        "and apps that use the mode stop matching it."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = True

    async def run(self, call: ToolCall, args: ModeArgs) -> dict[str, Any]:
        result = await call.hub.modes.delete(args.mode)
        return {"summary": f"Deleted mode {result['name']}", **result}


class UpdateModeManagerTool(HubTool[UpdateModeManagerArgs]):
    name = "hub_update_mode_manager"
    covers = (on_hub("hub_set_mode_manager"),)
    title = "Update Mode Manager"
    description = (
        "When modes switch by themselves (Integrated Mode Manager), e.g. 'Night at 22:30': "
        "mode=Night, triggers=[{type:time,at:'22:30'}]. Read it with hub_list_modes. Mode "
        "Manager is a safety system: every change needs confirm=true."
    )
    kind = ToolKind.WRITE
    idempotent = False
    safety_system = "Mode Manager"

    async def run(self, call: ToolCall, args: UpdateModeManagerArgs) -> dict[str, Any]:
        result = await call.hub.modes.manager_config.update(
            mode=args.mode,
            trigger_specs=args.triggers,
            add=args.add,
            trigger_set=args.trigger_set,
            days=args.days,
            manager=args.manager,
        )
        summary = "Mode Manager: changed " + ", ".join(result["changed"])
        return _manager_advice({"summary": summary, **result})


def _manager_advice(out: dict[str, Any]) -> dict[str, Any]:
    """Where a classic Mode Manager app's settings are read."""
    manager = out.get("mode_manager")
    if isinstance(manager, dict) and "note" in manager:
        add_advice(manager, "note", "Read them with hub_get_app app_id.")
    return out


ORDER = 40  # before hsm (41) and variables (42)

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListModesTool,
    SetModeTool,
    CreateModeTool,
    UpdateModeTool,
    DeleteModeTool,
    UpdateModeManagerTool,
)
