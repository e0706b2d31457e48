"""Rule tools: Rule Machine (list, health, locals, run/stop/start, pause, private boolean),
Button Rules (run) and Visual Rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..managers.apps.visual_rules import screened_rule
from ..safety import ToolKind
from .args import ToolArgs, arg, numeric_id
from .base import HubTool, ToolCall, connector, on_hub

TOOL_DOMAIN = "rules"

APP_ID = numeric_id("app_id")
NODES = vol.All(list, vol.Length(max=200))
RULE_NAME = vol.All(str, vol.Length(min=1, max=200))
EDGES = vol.All(list, vol.Length(max=400))
APP_IDS = vol.All([APP_ID], vol.Length(min=1, max=25))
GRAPH_NODES_DOC = (
    "Graph format (VRB 2.0) instead of the lists: {id, type trigger|condition|action, "
    "triggerType|actionType and keys as in when/then nodes, condition: sub-choice}"
)
EDGES_DOC = "Graph edges {from, to, port}: next; a condition's true|false"
VALIDATE_DOC = "true: only check the draft, answer every problem, send nothing"
# The node schema in brief (long form: docs/visual-rules.md, guide section visual_rules).
WHEN_DOC = (
    "Triggers, then conditions: {triggerType, <device list>: [ids], <event>: exact text}. "
    "motion: motionSensors, motionSensorEvent 'Motion starts'|'Motion stops'; switch: "
    "switches, switchEvent 'Turns on'|'Turns off'; other sensors alike; timeOfDay: "
    "timeOfDay 'HHMM'; sunriseSunset: triggerCondition "
    "sunset|sunrise|afterSunset+minutesAfterSunset... Conditions: timeIsBetween "
    "(triggerCondition sunsetToSunrise|sunriseToSunset), switchCondition (switches, "
    "switchState 'Turned on'), daysOfWeek [0-6]"
)
THEN_DOC = (
    "Actions {actionType, <device list>: [ids]}: turnOn|turnOff|toggle (switches), "
    "setBrightness (dimmers, brightness), sendNotification (notificationDevices, "
    "notificationMessage), setMode (mode id), wait (minutes, seconds), cancelWait"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ListRulesArgs(ToolArgs):
    engine: str = arg(
        vol.In(["all", "rule_machine", "visual", "button"]),
        "all, rule_machine, visual or button",
        default="all",
    )
    with_status: bool = arg(bool, "Read paused/stopped, a Button Rule's button", default=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleArgs(ToolArgs):
    app_id: str = arg(APP_ID, "Rule app id", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleHealthArgs(ToolArgs):
    app_id: str | None = arg(APP_ID, "One rule's app id; omit: every rule")


@dataclass(frozen=True, slots=True, kw_only=True)
class RmRuleArgs(ToolArgs):
    app_id: str = arg(APP_ID, "RM rule app id", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallRuleArgs(ToolArgs):
    app_id: str | None = arg(APP_ID, "RM rule or Button Rule app id")
    app_ids: list[str] | None = arg(APP_IDS, "Several rule ids instead")
    action: str = arg(
        vol.In(["run_actions", "stop", "start"]), "run_actions, stop or start", required=True
    )
    confirm: bool = arg(bool, "true to run actions that command locks, sirens etc.", default=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class SetRulePrivateBooleanArgs(ToolArgs):
    app_id: str | None = arg(APP_ID, "RM rule app id")
    app_ids: list[str] | None = arg(APP_IDS, "Several RM rule ids instead: all checked first")
    value: bool = arg(bool, "true or false", required=True)
    confirm: bool = arg(bool, "true for rules commanding locks etc.", default=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class SetRulePausedArgs(ToolArgs):
    app_id: str = arg(APP_ID, "Rule app id", required=True)
    confirm: bool = arg(bool, "true to resume a rule that commands locks etc.", default=False)
    paused: bool = arg(bool, "true to pause, false to resume", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class VisualRuleArgs(ToolArgs):
    app_id: str = arg(APP_ID, "Visual Rule app id", required=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateVisualRuleArgs(ToolArgs):
    name: str = arg(RULE_NAME, "Rule name", required=True)
    when_nodes: list[Any] | None = arg(NODES, WHEN_DOC)
    then_nodes: list[Any] | None = arg(NODES, THEN_DOC)
    else_nodes: list[Any] | None = arg(NODES, "Actions when a condition is false (as then_nodes)")
    nodes: list[Any] | None = arg(NODES, GRAPH_NODES_DOC)
    edges: list[Any] | None = arg(EDGES, EDGES_DOC)
    paused: bool | None = arg(bool, "Start paused")
    confirm: bool = arg(bool, "true when nodes command locks, valves etc.", default=False)
    validate_only: bool = arg(bool, VALIDATE_DOC, default=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateVisualRuleArgs(ToolArgs):
    app_id: str = arg(APP_ID, "Visual Rule app id", required=True)
    name: str | None = arg(RULE_NAME, "New name")
    when_nodes: list[Any] | None = arg(NODES, "whenNodes list (as hub_create_visual_rule)")
    then_nodes: list[Any] | None = arg(NODES, "thenNodes list (as hub_create_visual_rule)")
    else_nodes: list[Any] | None = arg(NODES, "elseNodes list")
    nodes: list[Any] | None = arg(NODES, GRAPH_NODES_DOC)
    edges: list[Any] | None = arg(EDGES, EDGES_DOC)
    paused: bool | None = arg(bool, "Start paused")
    confirm: bool = arg(bool, "true when nodes command locks, valves etc.", default=False)
    validate_only: bool = arg(bool, VALIDATE_DOC, default=False)


class ListRulesTool(HubTool[ListRulesArgs]):
    name = "hub_list_rules"
    covers = (
        on_hub("hub_list_rules"),
        on_hub("hub_get_visual_rule", "engine=visual"),
        on_hub("hub_set_rule_private_boolean", "private_boolean, read"),
        connector("list_actions"),
    )
    title = "List rules"
    description = (
        "List Rule Machine rules, Visual Rules Builder rules and Button Rules with app_id, "
        "name, engine, disabled; RM: paused, stopped, private_boolean (where its state "
        "shows it); Visual: paused; Button: parent_id (its controller), button_device_ids, "
        "button, event. engine=rule_machine, visual or button narrows it; "
        "with_status=false skips the per-rule status reads on hubs with many rules. Read a "
        "rule's page with hub_get_app, its health with hub_get_rule_health."
    )

    async def run(self, call: ToolCall, args: ListRulesArgs) -> dict[str, Any]:
        rules = await call.hub.rules.list_rules(
            args.engine, with_status=args.with_status, with_button_rules=True
        )
        return {"rules": rules, "count": len(rules)}


class GetRuleHealthTool(HubTool[RuleHealthArgs]):
    name = "hub_get_rule_health"
    covers = (
        on_hub("hub_get_rule_health"),
        connector("Visual Rules 2.0: validate (later review)"),
    )
    title = "Get rule health"
    description = (
        "Is any rule broken? Every rule (or app_id): findings with evidence and fix: BROKEN "
        "or missing/disabled devices, a restriction excluding its own trigger, a trigger "
        "that fired without a run, log errors, opposite commands with another rule, runs a "
        "disabled/paused rule, undefined variables. With app_id: its page's markers."
    )
    hub_text = ("findings", "broken_markers")

    async def run(self, call: ToolCall, args: RuleHealthArgs) -> dict[str, Any]:
        screen = await call.hub.devices.screen(call.device_allowed)
        # one rule: also its page's own markers and flags (read once, by the checks)
        found, checked, page = await call.hub.rule_checks.check(args.app_id)
        shown = [f for f in found if all(call.device_allowed(d) for d in f.devices)]
        findings = [{**f.as_dict(), "evidence": screen.text(f.evidence)} for f in shown]
        out: dict[str, Any] = {
            "rules_checked": checked,
            "findings": findings,
            "healthy": not found,
        }
        if len(shown) < len(found):
            out["findings_about_devices_outside_allowlist"] = len(found) - len(shown)
        if page is not None:
            # a BROKEN marker quotes the page's text, which names devices
            out = {**page, **out}
        else:
            out["rules_with_findings"] = len({f.app_id for f in found})
        return screen.answer(out)


class ListRuleLocalVariablesTool(HubTool[RmRuleArgs]):
    name = "hub_list_rule_local_variables"
    covers = (on_hub("hub_list_rule_local_variables"),)
    title = "List rule local variables"
    description = (
        "List a Rule Machine rule's local variables (name, type, value). These belong to "
        "the rule; hub variables (global) are a different list."
    )

    async def run(self, call: ToolCall, args: RmRuleArgs) -> dict[str, Any]:
        return dict(await call.hub.rules.local_variables(args.app_id))


class CallRuleTool(HubTool[CallRuleArgs]):
    name = "hub_call_rule"
    acting = True
    covers = (
        on_hub("hub_call_rule"),
        connector("hubitat_run_action", "run_actions, also batched"),
    )
    title = "Run, stop or start a rule"
    description = (
        "Rule Machine rule lifecycle: action=run_actions runs the rule's actions now (via "
        "its Run Actions button), stop stops it (cancels waits, no triggers), start starts a "
        "stopped rule (no-ops when already so). A Button Rule: run_actions only, by its "
        "button device's event (others on that button act too). Visual Rules cannot be run. "
        "app_ids: several rules, all checked first, answered per rule. Pause with "
        "hub_set_rule_paused. Running or starting a rule that reaches a lock, garage door, "
        "valve, keypad, siren, HSM, a file or an HTTP call (also through rules it runs or a "
        "scene it activates) needs confirm=true; the error names what it reaches."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CallRuleArgs) -> dict[str, Any]:
        ids = ([args.app_id] if args.app_id else []) + (args.app_ids or [])
        if not ids:
            raise ToolError("Give app_id or app_ids. Nothing was sent.")
        if args.app_ids is not None:
            batch = await call.hub.rules.call_rules(
                ids, args.action, confirm=args.confirm, allowed=call.device_allowed
            )
            done = batch["count"] - batch["failed"]
            return {
                "summary": f"{args.action} on {batch['count']} rules: {done} done, "
                f"{batch['failed']} failed",
                **batch,
            }
        result = await call.hub.rules.call_rule(
            ids[0], args.action, confirm=args.confirm, allowed=call.device_allowed
        )
        note = " (already so)" if result.get("unchanged") else ""
        return {
            "summary": f"{args.action} on rule {ids[0]} ({result['name']}){note}",
            **result,
        }


class SetRulePrivateBooleanTool(HubTool[SetRulePrivateBooleanArgs]):
    name = "hub_set_rule_private_boolean"
    covers = (on_hub("hub_set_rule_private_boolean"),)
    title = "Set rules' private boolean"
    description = (
        "Set Rule Machine rules' private boolean, read back (hub_list_rules shows it). No "
        "direct request exists: a temporary rule with one Set Private Boolean action is run "
        "once, then deleted. A rule reaching a lock, siren, HSM etc. needs confirm=true."
    )
    example = {"app_id": "140", "value": False}
    search_words = ("private boolean", "rule boolean", "flag", "setRuleBoolean")
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: SetRulePrivateBooleanArgs) -> dict[str, Any]:
        ids = ([args.app_id] if args.app_id else []) + (args.app_ids or [])
        if not ids:
            raise ToolError("Give app_id or app_ids. Nothing was sent.")
        result = await call.hub.rule_flags.set(
            ids, args.value, confirm=args.confirm, allowed=call.device_allowed
        )
        state = "verified" if result["verified"] else "not verified"
        if not result["helper_removed"]:
            result["warning"] += f" Or delete app {result['helper_app_id']} with hub_delete_app."
        return {
            "summary": f"Private boolean {str(args.value).lower()} on {result['count']} "
            f"rule(s), {state}",
            **result,
        }


class SetRulePausedTool(HubTool[SetRulePausedArgs]):
    name = "hub_set_rule_paused"
    acting = True
    covers = (on_hub("hub_set_rule_paused"),)
    title = "Pause or resume a rule"
    description = (
        "Pause (paused=true) or resume (paused=false) a Rule Machine rule or a Visual Rule. "
        "The current state is read first, so calling it twice is safe. A paused rule stays "
        "enabled; to disable an app entirely use hub_set_app_disabled. Resuming a rule that "
        "reaches something sensitive needs confirm=true."
    )
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: SetRulePausedArgs) -> dict[str, Any]:
        result = await call.hub.rules.set_paused(
            args.app_id, args.paused, confirm=args.confirm, allowed=call.device_allowed
        )
        verb = "paused" if args.paused else "resumed"
        note = " (already so)" if result.get("unchanged") else ""
        return {"summary": f"Rule {args.app_id} ({result['name']}) {verb}{note}", **result}


class GetVisualRuleTool(HubTool[VisualRuleArgs]):
    name = "hub_get_visual_rule"
    covers = (
        on_hub("hub_get_visual_rule"),
        connector("Visual Rules 2.0: read (later review)"),
    )
    title = "Get Visual Rule"
    description = (
        "Read a Visual Rules Builder rule's full definition and its format (classic: name, "
        "rulePaused, whenNodes, thenNodes, elseNodes; graph: ruleJson, and graph parsed to "
        "{version, nodes, edges}). Use it as the template for hub_create_visual_rule / "
        "hub_update_visual_rule. List Visual Rules with hub_list_rules engine=visual."
    )

    async def run(self, call: ToolCall, args: VisualRuleArgs) -> dict[str, Any]:
        rule = await call.hub.rules.visual.get(args.app_id)
        return screened_rule(rule, await call.hub.devices.screen(call.device_allowed))


def _body(args: CreateVisualRuleArgs | UpdateVisualRuleArgs) -> dict[str, Any]:
    """The Visual Rule definition keys the call gives."""
    body: dict[str, Any] = {}
    if args.name is not None:
        body["name"] = args.name
    if args.paused is not None:
        body["rulePaused"] = args.paused
    for nodes, key in (
        (args.when_nodes, "whenNodes"),
        (args.then_nodes, "thenNodes"),
        (args.else_nodes, "elseNodes"),
    ):
        if nodes is not None:
            body[key] = nodes
    for key, value in (("nodes", args.nodes), ("edges", args.edges)):
        if value is not None:
            body[key] = value
    if "nodes" in body and any(k in body for k in ("whenNodes", "thenNodes", "elseNodes")):
        raise ToolError(
            "Give either nodes/edges (graph format) or when/then/else nodes (classic), "
            "not both. Nothing was sent.",
            hint="hub_get_visual_rule shows which format a rule uses.",
        )
    return body


async def _draft(
    call: ToolCall, body: dict[str, Any], confirm: bool, app_id: str | None = None
) -> dict[str, Any]:
    checked = await call.hub.rules.visual.check_draft(
        body, app_id=app_id, device_allowed=call.device_allowed, confirm=confirm
    )
    verdict = "valid" if checked["valid"] else f"{len(checked['problems'])} problem(s)"
    draft: dict[str, Any] = {"summary": f"Draft checked, nothing sent: {verdict}", **checked}
    if not checked["graph"]:
        draft.pop("graph")
    return draft


class CreateVisualRuleTool(HubTool[CreateVisualRuleArgs]):
    name = "hub_create_visual_rule"
    covers = (
        on_hub("hub_set_visual_rule"),
        connector("Visual Rules 2.0: validate (later review)"),
        connector("Visual Rules 2.0: create / update (later review)"),
    )
    title = "Create Visual Rule"
    description = (
        "Create a Visual Rule: classic node lists (at least one trigger and one action), or "
        "a graph (nodes+edges) where the hub's firmware creates graph rules. "
        "Every node is checked before anything is sent: known type, required keys, devices "
        "exist, are allowed and declare what the node reads or sends. Actions on sensitive "
        "devices need confirm=true. If the hub does not keep the definition "
        "the new rule is removed. Full node schema: hub_get_tool_guide section visual_rules."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CreateVisualRuleArgs) -> dict[str, Any]:
        given = _body(args)
        if args.validate_only:
            return await _draft(call, given, args.confirm)
        body: dict[str, Any] = {"rulePaused": False}
        if "nodes" not in given and "edges" not in given:
            body.update({"whenNodes": [], "thenNodes": [], "elseNodes": []})
        body.update(given)
        result = await call.hub.rules.visual.create(
            body, confirm=args.confirm, device_allowed=call.device_allowed
        )
        return {"summary": f"Created Visual Rule {result['app_id']} ({args.name})", **result}


class UpdateVisualRuleTool(HubTool[UpdateVisualRuleArgs]):
    name = "hub_update_visual_rule"
    covers = (
        on_hub("hub_set_visual_rule"),
        connector("Visual Rules 2.0: validate (later review)", "validate_only"),
        connector("Visual Rules 2.0: create / update (later review)"),
    )
    title = "Update Visual Rule"
    description = (
        "Change a Visual Rule: pass only what changes (name, paused, or whole "
        "when/then/else node lists, or a graph rule's nodes/edges; checked as in "
        "hub_create_visual_rule; omitted parts are kept). The previous definition is saved "
        "as an item backup first."
    )
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: UpdateVisualRuleArgs) -> dict[str, Any]:
        changes = _body(args)
        if args.validate_only:
            return await _draft(call, changes, args.confirm, args.app_id)
        if not changes:
            raise ToolError(
                "Nothing to change: pass name, paused or a node list. Nothing was sent."
            )
        result = await call.hub.rules.visual.update(
            args.app_id, changes, confirm=args.confirm, device_allowed=call.device_allowed
        )
        return {"summary": f"Updated Visual Rule {args.app_id}", **result}


class DeleteVisualRuleTool(HubTool[VisualRuleArgs]):
    name = "hub_delete_visual_rule"
    covers = (on_hub("hub_delete_visual_rule"),)
    title = "Delete Visual Rule"
    description = (
        "Delete a Visual Rules Builder rule. Returns its pre-delete definition (also saved "
        "as an item backup) so it can be re-created with hub_create_visual_rule. Only "
        "Visual Rules: other apps are refused (use hub_delete_app)."
    )
    kind = ToolKind.DESTRUCTIVE

    async def run(self, call: ToolCall, args: VisualRuleArgs) -> dict[str, Any]:
        result = await call.hub.rules.visual.delete(args.app_id)
        return {"summary": f"Deleted Visual Rule {args.app_id} ({result['name']})", **result}


ORDER = 64

TOOLS: tuple[type[HubTool[Any]], ...] = (
    ListRulesTool,
    GetRuleHealthTool,
    ListRuleLocalVariablesTool,
    CallRuleTool,
    SetRulePrivateBooleanTool,
    SetRulePausedTool,
    GetVisualRuleTool,
    CreateVisualRuleTool,
    UpdateVisualRuleTool,
    DeleteVisualRuleTool,
)
