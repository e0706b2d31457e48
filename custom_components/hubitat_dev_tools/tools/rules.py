"""Rule tools: Rule Machine (list, health, locals, run/stop/start, pause) and Visual Rules."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..errors import ToolError
from ..managers.apps import RuleManager
from ..safety import ToolKind
from .apps import APP_ID
from .base import HubTool, ToolCall

NODES = vol.All(list, vol.Length(max=200))
RULE_NAME = vol.All(str, vol.Length(min=1, max=200))


def _manager(call: ToolCall) -> RuleManager:
    return call.hub.rules


class ListRulesTool(HubTool):
    """hub_list_rules."""

    name = "hub_list_rules"
    title = "List rules"
    description = (
        "List Rule Machine rules and Visual Rules Builder rules with app_id, name, engine, "
        "disabled, paused and (RM) stopped. engine=rule_machine or visual narrows it; "
        "with_status=false skips the per-rule status reads on hubs with many rules. Read a "
        "rule's page with hub_get_app, its health with hub_get_rule_health."
    )
    domain = "rules"
    fields = {
        vol.Optional("engine", default="all", description="all, rule_machine or visual"): vol.In(
            ["all", "rule_machine", "visual"]
        ),
        vol.Optional("with_status", default=True, description="Read paused/stopped"): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the rules."""
        rules = await _manager(call).list_rules(args["engine"], with_status=args["with_status"])
        return {"rules": rules, "count": len(rules)}


class GetRuleHealthTool(HubTool):
    """hub_get_rule_health."""

    name = "hub_get_rule_health"
    title = "Get rule health"
    description = (
        "Check a Rule Machine or Visual Rule for broken state: BROKEN markers on its page "
        "(e.g. a deleted device), page errors, RM's compiled broken flag (which can lag the "
        "markers), and Visual Rule validation errors. healthy=true when none are found."
    )
    domain = "rules"
    fields = {vol.Required("app_id", description="Rule app id (from hub_list_rules)"): APP_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the health."""
        return await _manager(call).rule_health(args["app_id"])


class ListRuleLocalVariablesTool(HubTool):
    """hub_list_rule_local_variables."""

    name = "hub_list_rule_local_variables"
    title = "List rule local variables"
    description = (
        "List a Rule Machine rule's local variables (name, type, value). These belong to "
        "the rule; hub variables (global) are a different list."
    )
    domain = "rules"
    fields = {vol.Required("app_id", description="RM rule app id"): APP_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the variables."""
        return await _manager(call).local_variables(args["app_id"])


class CallRuleTool(HubTool):
    """hub_call_rule."""

    name = "hub_call_rule"
    title = "Run, stop or start a rule"
    description = (
        "Rule Machine rule lifecycle: action=run_actions runs the rule's actions now (via "
        "the rule page's own Run Actions button), stop stops it (cancels waits, no "
        "triggers), start starts a stopped rule. stop/start are no-ops when already so. "
        "Setting a rule's private boolean is not reachable over the LAN. Pause with "
        "hub_set_rule_paused."
    )
    domain = "rules"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {
        vol.Required("app_id", description="RM rule app id"): APP_ID,
        vol.Required("action", description="run_actions, stop or start"): vol.In(
            ["run_actions", "stop", "start"]
        ),
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Click the right button."""
        result = await _manager(call).call_rule(args["app_id"], args["action"])
        note = " (already so)" if result.get("unchanged") else ""
        return {
            "summary": f"{args['action']} on rule {args['app_id']} ({result['name']}){note}",
            **result,
        }


class SetRulePausedTool(HubTool):
    """hub_set_rule_paused."""

    name = "hub_set_rule_paused"
    title = "Pause or resume a rule"
    description = (
        "Pause (paused=true) or resume (paused=false) a Rule Machine rule or a Visual Rule. "
        "The current state is read first, so calling it twice is safe. A paused rule stays "
        "enabled; to disable an app entirely use hub_set_app_disabled."
    )
    domain = "rules"
    kind = ToolKind.WRITE
    fields = {
        vol.Required("app_id", description="Rule app id"): APP_ID,
        vol.Required("paused", description="true to pause, false to resume"): bool,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Pause or resume."""
        result = await _manager(call).set_paused(args["app_id"], args["paused"])
        verb = "paused" if args["paused"] else "resumed"
        note = " (already so)" if result.get("unchanged") else ""
        return {"summary": f"Rule {args['app_id']} ({result['name']}) {verb}{note}", **result}


class GetVisualRuleTool(HubTool):
    """hub_get_visual_rule."""

    name = "hub_get_visual_rule"
    title = "Get Visual Rule"
    description = (
        "Read a Visual Rules Builder rule's full definition and its format (classic: name, "
        "rulePaused, whenNodes, thenNodes, elseNodes; graph: ruleJson). Use it as the "
        "template for hub_create_visual_rule / hub_update_visual_rule. List Visual Rules "
        "with hub_list_rules engine=visual."
    )
    domain = "rules"
    fields = {vol.Required("app_id", description="Visual Rule app id"): APP_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the definition."""
        return await _manager(call).get_visual_rule(args["app_id"])


_NODE_FIELDS = {
    vol.Optional("when_nodes", description="whenNodes (triggers/conditions) list"): NODES,
    vol.Optional("then_nodes", description="thenNodes (actions) list"): NODES,
    vol.Optional("else_nodes", description="elseNodes list"): NODES,
    vol.Optional("paused", description="Start paused"): bool,
}


def _body(args: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if "name" in args:
        body["name"] = args["name"]
    if "paused" in args:
        body["rulePaused"] = args["paused"]
    for arg, key in (
        ("when_nodes", "whenNodes"),
        ("then_nodes", "thenNodes"),
        ("else_nodes", "elseNodes"),
    ):
        if arg in args:
            body[key] = args[arg]
    return body


class CreateVisualRuleTool(HubTool):
    """hub_create_visual_rule."""

    name = "hub_create_visual_rule"
    title = "Create Visual Rule"
    description = (
        "Create a Visual Rules Builder rule (classic format) from a name and node lists; "
        "copy the node shapes from an existing rule (hub_get_visual_rule). If the hub "
        "refuses the definition the new empty rule is removed again."
    )
    domain = "rules"
    kind = ToolKind.WRITE
    idempotent = False
    fields = {vol.Required("name", description="Rule name"): RULE_NAME, **_NODE_FIELDS}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Create and write."""
        body = {"rulePaused": False, "whenNodes": [], "thenNodes": [], "elseNodes": []}
        body.update(_body(args))
        result = await _manager(call).create_visual_rule(body)
        return {"summary": f"Created Visual Rule {result['app_id']} ({args['name']})", **result}


class UpdateVisualRuleTool(HubTool):
    """hub_update_visual_rule."""

    name = "hub_update_visual_rule"
    title = "Update Visual Rule"
    description = (
        "Change a classic Visual Rule: pass only what changes (name, paused, or whole "
        "when/then/else node lists; omitted parts are kept). The previous definition is "
        "saved as an item backup first."
    )
    domain = "rules"
    kind = ToolKind.WRITE
    fields = {
        vol.Required("app_id", description="Visual Rule app id"): APP_ID,
        vol.Optional("name", description="New name"): RULE_NAME,
        **_NODE_FIELDS,
    }

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Read, merge, back up, write."""
        changes = _body(args)
        if not changes:
            raise ToolError(
                "Nothing to change: pass name, paused or a node list. Nothing was sent."
            )
        result = await _manager(call).update_visual_rule(args["app_id"], changes)
        return {"summary": f"Updated Visual Rule {args['app_id']}", **result}


class DeleteVisualRuleTool(HubTool):
    """hub_delete_visual_rule."""

    name = "hub_delete_visual_rule"
    title = "Delete Visual Rule"
    description = (
        "Delete a Visual Rules Builder rule. Returns its pre-delete definition (also saved "
        "as an item backup) so it can be re-created with hub_create_visual_rule. Only "
        "Visual Rules: other apps are refused (use hub_delete_app). Destructive: needs "
        "confirm=true and a hub backup from the last 24 hours."
    )
    domain = "rules"
    kind = ToolKind.DESTRUCTIVE
    fields = {vol.Required("app_id", description="Visual Rule app id"): APP_ID}

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Back up and delete."""
        result = await _manager(call).delete_visual_rule(args["app_id"])
        return {"summary": f"Deleted Visual Rule {args['app_id']} ({result['name']})", **result}


ORDER = 64

TOOLS: tuple[type[HubTool], ...] = (
    ListRulesTool,
    GetRuleHealthTool,
    ListRuleLocalVariablesTool,
    CallRuleTool,
    SetRulePausedTool,
    GetVisualRuleTool,
    CreateVisualRuleTool,
    UpdateVisualRuleTool,
    DeleteVisualRuleTool,
)
