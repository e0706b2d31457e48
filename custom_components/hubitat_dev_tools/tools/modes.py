"""Location mode tools: list, switch, create, rename, delete."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..safety import ToolKind
from .args import ToolArgs, arg, short_text
from .base import HubTool, ToolCall

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


class ListModesTool(HubTool[ToolArgs]):
    name = "hub_list_modes"
    title = "List modes"
    description = (
        "The hub's location modes (Day, Night, Away, ...) with ids and which one is active. "
        "To switch the mode use hub_set_mode."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return dict(await call.hub.modes.list_modes())


class SetModeTool(HubTool[SetModeArgs]):
    name = "hub_set_mode"
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


ORDER = 40  # before hsm (41) and variables (42)

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListModesTool,
    SetModeTool,
    CreateModeTool,
    UpdateModeTool,
    DeleteModeTool,
)
