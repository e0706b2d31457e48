"""Location tools: modes, HSM (Hubitat Safety Monitor) and hub variables."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..hub.models import parse_hub_time
from ..managers.location import (
    HSM_COMMANDS,
    VARIABLE_TYPES,
    HsmManager,
    ModeManager,
    VariableManager,
)
from ..safety import ToolKind
from .base import HubTool, ToolCall

NAME = vol.All(vol.Coerce(str), vol.Length(min=1, max=100))
MAKER_NOTE = (
    "Needs the hub's Maker API (app id + token in the integration); without it the error "
    "says what to configure."
)


def _modes(call: ToolCall) -> ModeManager:
    return call.hub.modes


def _hsm(call: ToolCall) -> HsmManager:
    return call.hub.hsm


def _vars(call: ToolCall) -> VariableManager:
    return call.hub.variables


class ListModesTool(HubTool):
    """hub_list_modes."""

    name = "hub_list_modes"
    title = "List modes"
    description = (
        "The hub's location modes (Day, Night, Away, ...) with ids and which one is active. "
        "To switch the mode use hub_set_mode."
    )
    domain = "modes"
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the modes."""
        return await _modes(call).list_modes()


class SetModeTool(HubTool):
    """hub_set_mode."""

    name = "hub_set_mode"
    title = "Set mode"
    description = (
        "Switch the home's active mode, e.g. 'set the house to Away': pass the mode name "
        "(case-insensitive) or id. Unknown names are refused with the hub's modes (no mode "
        "is created; use hub_create_mode). Uses the Maker API when configured, else the hub "
        "UI's endpoint. Does not arm HSM (use hub_set_hsm)."
    )
    domain = "modes"
    kind = ToolKind.WRITE
    idempotent = True
    fields = {vol.Required("mode", description="Mode name or id, e.g. Away"): NAME}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Activate it."""
        result = await _modes(call).set_mode(args["mode"])
        if result["changed"]:
            summary = f"Mode set to {result['mode']} (was {result['previous_mode']})"
        else:
            summary = f"Mode was already {result['mode']}"
        return {"summary": summary, **result}


class CreateModeTool(HubTool):
    """hub_create_mode."""

    name = "hub_create_mode"
    title = "Create mode"
    description = (
        "Create a location mode (unique name). It does not become active: use hub_set_mode."
    )
    domain = "modes"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("name", description="Mode name"): NAME,
        vol.Optional("icon", description="Font Awesome icon, e.g. fa-moon"): NAME,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Create it."""
        result = await _modes(call).create(args["name"], args.get("icon"))
        return {"summary": f"Created mode {result['name']} (id {result['mode_id']})", **result}


class UpdateModeTool(HubTool):
    """hub_update_mode."""

    name = "hub_update_mode"
    title = "Rename mode"
    description = (
        "Rename a location mode (and optionally change its icon). Rules that react to the "
        "mode keep working (they use its id). To switch modes use hub_set_mode."
    )
    domain = "modes"
    kind = ToolKind.WRITE
    idempotent = True
    fields = {
        vol.Required("mode", description="Current mode name or id"): NAME,
        vol.Required("new_name", description="New name"): NAME,
        vol.Optional("icon", description="Font Awesome icon, e.g. fa-moon"): NAME,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Rename it."""
        result = await _modes(call).rename(args["mode"], args["new_name"], args.get("icon"))
        return {
            "summary": f"Renamed mode {result['renamed_from']} to {result['name']}",
            **result,
        }


class DeleteModeTool(HubTool):
    """hub_delete_mode."""

    name = "hub_delete_mode"
    title = "Delete mode"
    description = (
        "Delete a location mode (never the active one: switch first with hub_set_mode). Rules "
        "and apps that use the mode stop matching it. Needs confirm=true and a hub backup "
        "from the last 24 hours."
    )
    domain = "modes"
    kind = ToolKind.DESTRUCTIVE
    idempotent = True
    fields = {vol.Required("mode", description="Mode name or id"): NAME}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Delete it."""
        result = await _modes(call).delete(args["mode"])
        return {"summary": f"Deleted mode {result['name']}", **result}


class GetHsmStatusTool(HubTool):
    """hub_get_hsm_status."""

    name = "hub_get_hsm_status"
    title = "Get HSM status"
    description = (
        "Hubitat Safety Monitor: armed status (armedAway, armingAway, armedHome, armedNight, "
        "disarmed, allDisarmed), any active alert (intrusion, smoke, water, ...) and the "
        "commands hub_set_hsm accepts. Works without the Maker API."
    )
    domain = "hsm"
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the status."""
        return await _hsm(call).status()


class SetHsmTool(HubTool):
    """hub_set_hsm."""

    name = "hub_set_hsm"
    title = "Arm, disarm or cancel HSM alerts"
    description = (
        "Change Hubitat Safety Monitor: armAway, armHome, armNight, armAll, disarm, "
        "disarmAll, armRules, disarmRules or cancelAlerts. Security-sensitive: needs "
        "confirm=true after the user agreed. Arming goes through an exit delay (status "
        "arming*); read hub_get_hsm_status later. " + MAKER_NOTE
    )
    domain = "hsm"
    kind = ToolKind.WRITE
    idempotent = True
    fields = {
        vol.Required("command", description="HSM command, e.g. armAway"): vol.In(HSM_COMMANDS),
        vol.Optional("confirm", default=False, description="Must be true (user agreed)"): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Run the command."""
        result = await _hsm(call).command(args["command"], confirm=args["confirm"])
        return {
            "summary": f"HSM {args['command']}: {result['previous_status']} -> {result['status']}",
            **result,
        }


class ListVariablesTool(HubTool):
    """hub_list_variables."""

    name = "hub_list_variables"
    title = "List hub variables"
    description = (
        "Hub variables with name, type (integer, bigdecimal, boolean, string, datetime) and "
        "value; include_changes adds recent changes of all variables. Only variables the "
        "Maker API instance may see. " + MAKER_NOTE
    )
    domain = "variables"
    kind = ToolKind.READ
    fields = {
        vol.Optional(
            "include_changes", default=False, description="Also list recent variable changes"
        ): bool,
        vol.Optional(
            "changes_since", description="With include_changes: only changes after this date"
        ): str,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the variables."""
        manager = _vars(call)
        variables = await manager.list_variables()
        out: dict[str, Any] = {"variables": variables, "count": len(variables)}
        if args["include_changes"]:
            since = parse_hub_time(args.get("changes_since"))
            out["recent_changes"] = await manager.changes(since=since)
        return out


class GetVariableTool(HubTool):
    """hub_get_variable."""

    name = "hub_get_variable"
    title = "Get hub variable"
    description = (
        "One hub variable: type, value and its recent changes (newest first). To list all, "
        "use hub_list_variables. " + MAKER_NOTE
    )
    domain = "variables"
    kind = ToolKind.READ
    fields = {
        vol.Required("name", description="Variable name, case-sensitive"): NAME,
        vol.Optional("history", default=10, description="How many recent changes"): vol.All(
            int, vol.Range(min=0, max=100)
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the variable."""
        return await _vars(call).get_variable(args["name"], history=args["history"])


class SetVariableTool(HubTool):
    """hub_set_variable."""

    name = "hub_set_variable"
    title = "Set hub variable"
    description = (
        "Set an existing hub variable. The value is checked against the variable's type "
        "first (integer: whole number; bigdecimal: number; boolean: true/false; datetime: ISO "
        "date-time; string: non-empty text); a mismatch is refused before anything is sent. "
        "To add or remove one use hub_create_variable / hub_delete_variable. " + MAKER_NOTE
    )
    domain = "variables"
    kind = ToolKind.WRITE
    idempotent = True
    fields = {
        vol.Required("name", description="Variable name, case-sensitive"): NAME,
        vol.Required("value", description="New value"): vol.Any(str, int, float, bool),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Set it."""
        result = await _vars(call).set_variable(args["name"], args["value"])
        return {
            "summary": f"Set {result['name']} to {result['value']} (was {result['previous']})",
            **result,
        }


class CreateVariableTool(HubTool):
    """hub_create_variable."""

    name = "hub_create_variable"
    title = "Create hub variable"
    description = (
        "Create a hub variable with a type and initial value (checked first, like "
        "hub_set_variable). Name: letter, then letters/digits/_; an existing name is refused "
        "(change it with hub_set_variable). Drives the hub's Hub Variables app; the Maker API "
        "instance must be allowed to see new variables. " + MAKER_NOTE
    )
    domain = "variables"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("name", description="New variable name, e.g. guestCount"): NAME,
        vol.Required("type", description="Variable type"): vol.In(VARIABLE_TYPES),
        vol.Required("value", description="Initial value"): vol.Any(str, int, float, bool),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Create it."""
        result = await _vars(call).create_variable(args["name"], args["type"], args["value"])
        return {
            "summary": f"Created {result['type']} variable {result['name']} = {result['value']}",
            **result,
        }


class DeleteVariableTool(HubTool):
    """hub_delete_variable."""

    name = "hub_delete_variable"
    title = "Delete hub variable"
    description = (
        "Delete a hub variable. Refused, listing them, while a Rule Machine rule or Visual "
        "Rule mentions it, unless force=true (those rules then break). Needs confirm=true "
        "and a hub backup from the last 24 hours. " + MAKER_NOTE
    )
    domain = "variables"
    kind = ToolKind.DESTRUCTIVE
    idempotent = True
    fields = {
        vol.Required("name", description="Variable name, case-sensitive"): NAME,
        vol.Optional("force", default=False, description="Delete even if rules use it"): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Delete it."""
        result = await _vars(call).delete_variable(args["name"], force=args["force"])
        summary = f"Deleted hub variable {result['name']}"
        if result.get("broken_users"):
            summary += f" (forced; {len(result['broken_users'])} rule(s) used it)"
        return {"summary": summary, **result}


ORDER = 40

TOOLS: tuple[type[HubTool], ...] = (
    ListModesTool,
    SetModeTool,
    CreateModeTool,
    UpdateModeTool,
    DeleteModeTool,
    GetHsmStatusTool,
    SetHsmTool,
    ListVariablesTool,
    GetVariableTool,
    SetVariableTool,
    CreateVariableTool,
    DeleteVariableTool,
)
