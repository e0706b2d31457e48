"""Hub variable tools: list, read, set, create, delete (Maker API; the variables its
instance does not select from the hub's list of every variable)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..hub.models import parse_hub_time
from ..hub.variables_wizard import CONNECTOR_TYPES
from ..managers.variables import VARIABLE_TYPES
from ..safety import ToolKind
from .args import ToolArgs, arg, short_text
from .base import HubTool, ToolCall, on_hub
from .maker import MAKER_NOTE

TOOL_DOMAIN = "variables"

NAME = short_text()
NAME_DESC = "Variable name, case-sensitive"
VALUE = vol.Any(str, int, float, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class ListVariablesArgs(ToolArgs):
    include_changes: bool = arg(bool, "Also list recent variable changes", default=False)
    changes_since: str | None = arg(str, "With include_changes: only changes after this date")


@dataclass(frozen=True, slots=True, kw_only=True)
class GetVariableArgs(ToolArgs):
    name: str = arg(NAME, NAME_DESC, required=True)
    history: int = arg(
        vol.All(int, vol.Range(min=0, max=100)), "How many recent changes", default=10
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class SetVariableArgs(ToolArgs):
    name: str = arg(NAME, NAME_DESC, required=True)
    value: str | int | float | bool = arg(VALUE, "New value", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateVariableArgs(ToolArgs):
    name: str = arg(NAME, "New variable name, e.g. guestCount", required=True)
    type: str = arg(vol.In(VARIABLE_TYPES), "Variable type", required=True)
    value: str | int | float | bool = arg(VALUE, "Initial value", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteVariableArgs(ToolArgs):
    name: str = arg(NAME, NAME_DESC, required=True)
    force: bool = arg(bool, "Delete even if rules use it", default=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateConnectorArgs(ToolArgs):
    name: str = arg(NAME, NAME_DESC, required=True)
    connector_type: str | None = arg(
        vol.In(CONNECTOR_TYPES), "Number/Decimal only; default Variable"
    )


class ListVariablesTool(HubTool[ListVariablesArgs]):
    name = "hub_list_variables"
    covers = (
        on_hub("hub_list_variables"),
        on_hub("hub_list_variable_changes", "include_changes"),
    )
    title = "List hub variables"
    description = (
        "Hub variables with name, type (integer, bigdecimal, boolean, string, datetime) and "
        "value; include_changes adds recent changes of all variables. Not seen by the Maker "
        "API: maker_visible=false, value of last change. " + MAKER_NOTE
    )

    async def run(self, call: ToolCall, args: ListVariablesArgs) -> dict[str, Any]:
        manager = call.hub.variables
        out = await manager.inventory()
        out["count"] = len(out["variables"])
        if args.include_changes:
            since = parse_hub_time(args.changes_since)
            out["recent_changes"] = await manager.changes(since=since)
        return out


class GetVariableTool(HubTool[GetVariableArgs]):
    name = "hub_get_variable"
    covers = (
        on_hub("hub_get_variable"),
        on_hub("hub_list_variable_changes"),
    )
    title = "Get hub variable"
    description = (
        "One hub variable: type, value and its recent changes (newest first). To list all, "
        "use hub_list_variables. " + MAKER_NOTE
    )

    async def run(self, call: ToolCall, args: GetVariableArgs) -> dict[str, Any]:
        return dict(await call.hub.variables.get_variable(args.name, history=args.history))


class SetVariableTool(HubTool[SetVariableArgs]):
    name = "hub_set_variable"
    acting = True
    covers = (on_hub("hub_set_variable"),)
    title = "Set hub variable"
    description = (
        "Set an existing hub variable. The value is checked against its type first (integer: "
        "whole number; bigdecimal: number; boolean: true/false; datetime: ISO date-time, "
        "YYYY-MM-DD for a date-only one, HH:MM for a time-only one; string: non-empty text). "
        + MAKER_NOTE
    )
    kind = ToolKind.WRITE
    idempotent = True

    async def run(self, call: ToolCall, args: SetVariableArgs) -> dict[str, Any]:
        result = await call.hub.variables.set_variable(args.name, args.value)
        return {
            "summary": f"Set {result['name']} to {result['value']} (was {result['previous']})",
            **result,
        }


class CreateVariableTool(HubTool[CreateVariableArgs]):
    name = "hub_create_variable"
    covers = (on_hub("hub_create_variable"),)
    title = "Create hub variable"
    description = (
        "Create a hub variable with a type and initial value (checked like "
        "hub_set_variable). Name: letter, then letters/digits/_; a name in use is refused. "
        + MAKER_NOTE
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CreateVariableArgs) -> dict[str, Any]:
        result = await call.hub.variables.create_variable(args.name, args.type, args.value)
        return {
            "summary": f"Created {result['type']} variable {result['name']} = {result['value']}",
            **result,
        }


class DeleteVariableTool(HubTool[DeleteVariableArgs]):
    name = "hub_delete_variable"
    covers = (on_hub("hub_delete_variable"),)
    title = "Delete hub variable"
    description = (
        "Delete a hub variable. Refused, listing them, while a Rule Machine rule or Visual "
        "Rule mentions it, unless force=true (those rules then break). " + MAKER_NOTE
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = True

    async def run(self, call: ToolCall, args: DeleteVariableArgs) -> dict[str, Any]:
        result = await call.hub.variables.delete_variable(args.name, force=args.force)
        summary = f"Deleted hub variable {result['name']}"
        if broken := result.get("broken_users"):
            summary += f" (forced; {len(broken)} rule(s) used it)"
        return {"summary": summary, **result}


class CreateConnectorTool(HubTool[CreateConnectorArgs]):
    name = "hub_create_connector"
    covers = (on_hub("hub_create_connector"),)
    title = "Create variable connector"
    description = (
        "A hub variable's connector device; answers its id. Delete: hub_delete_device. "
        + MAKER_NOTE
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CreateConnectorArgs) -> dict[str, Any]:
        result = await call.hub.variables.create_connector(args.name, args.connector_type)
        ids = ", ".join(result["device_ids"])
        return {"summary": f"Created a connector for {args.name} (device {ids})", **result}


ORDER = 42  # after modes (40) and hsm (41)

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListVariablesTool,
    GetVariableTool,
    SetVariableTool,
    CreateVariableTool,
    DeleteVariableTool,
    CreateConnectorTool,
)
