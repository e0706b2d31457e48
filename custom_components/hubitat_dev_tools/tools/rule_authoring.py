"""Rule authoring tools: native Rule Machine rules from one automation spec."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..managers.automation.parse_device_acts import DEVICE_LIST_KEYS
from ..managers.automation.parse_rule_acts import DEVICE_LIST_KINDS
from ..safety import ToolKind
from .args import ToolArgs, arg, numeric_id
from .base import HubTool, ToolCall, on_hub

TOOL_DOMAIN = "rules"

APP_ID = numeric_id("app_id")
SPEC_HELP = (
    "Spec: {name, triggers:[...], conditions?, actions:[...], paused?, enabled?, logging?, "
    "local_variables?:[{name, type: integer|bigdecimal|string|boolean|datetime, value}]}. "
    "Trigger: {device_id, attribute, is|op+value|changes, stays_for?, all?} | "
    "{time:'HH:MM', date?} | {sun:sunset|sunrise, offset_minutes?} | {every:{minutes}|{hours}} "
    "| {periodic:{frequency, ...}} | {mode:[names]} | {variable, op, value} | "
    "{button_device_id, button, event}; any + only_if:condition. "
    "Condition (or {all:[...]} / {any:[...]}, nesting): {device_id, attribute, is|op+value} | "
    "{mode:[...]} | {between:{from,to}} | {dates:{from,to}} | {variable, op, value} | "
    "compare_to:{device_id|variable} | {private_boolean} | {not:{...}}. "
    "Action: {command, device_ids, arguments?, delay?, cancelable?} | {delay:{minutes}, "
    "cancelable?, random?} | {wait:[device tests], timeout?} | {wait_until:condition} | "
    "{set_mode} | {set_variable, value|from_variable|from_device|math} | {notify, device_ids} "
    "| {log} | {if, then, else_if?, else?} | {repeat_while, every, do} | {repeat:times, every, "
    "do} | {cancel_delays:true} | {run_rule|pause_rules|resume_rules:[ids]} | "
    "{set_private_boolean, rule_ids?} | {exit_rule:true}; also delay_per_mode, "
    "delay_from_variable, cancel_timers, *_per_mode, fade_level, fade_color_temperature, "
    "start/stop_level_change, adjust_level, set_hsm, capture/restore, disable/enable_devices, "
    "write/append/delete_file, http_get/http_post, ping, comment. op: eq ne lt lte gt gte. "
    "Every shape and examples: hub_get_tool_guide section=rules."
)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateRuleArgs(ToolArgs):
    rule: dict[str, Any] = arg(dict, "The automation spec", required=True)
    validate_only: bool = arg(
        bool, "true: check and show the plan and rule text only", default=False
    )
    confirm: bool = arg(
        bool, "true when actions command locks, garage doors, valves etc.", default=False
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateRuleArgs(ToolArgs):
    app_id: str = arg(APP_ID, "RM rule app id", required=True)
    rule: dict[str, Any] | None = arg(dict, "A whole new spec (name kept when omitted)")
    patch: list[Any] | None = arg(
        vol.All(list, vol.Length(min=1, max=50)),
        "JSON Patch on hub_get_rule's spec, e.g. [{op:replace, path:/actions/3/delay, "
        "value:{minutes:10}}]",
    )
    validate_only: bool = arg(bool, "true: check and show the plan only", default=False)
    confirm: bool = arg(
        bool, "true when actions command locks, garage doors, valves etc.", default=False
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class GetRuleArgs(ToolArgs):
    app_id: str = arg(APP_ID, "RM rule app id (hub_list_rules)", required=True)


class CreateRuleTool(HubTool[CreateRuleArgs]):
    name = "hub_create_rule"
    covers = (
        on_hub("hub_set_native_app"),
        on_hub("hub_set_rule"),
    )
    title = "Create automation rule"
    description = (
        "Make an automation (when X happens do Y) as a native Rule Machine rule the hub runs "
        "and shows in its UI. Everything is checked first (devices, attributes, commands, "
        "modes, variables, rules); the rule is built paused, read back and compared, resumed "
        "only when it matches, removed on any failure. validate_only=true answers the plan "
        "and rule text without sending. Returns app_id and the hub's rule text. Edit with "
        "hub_update_rule; read with hub_get_rule. " + SPEC_HELP
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: CreateRuleArgs) -> dict[str, Any]:
        result = await call.hub.rule_authoring.create(
            args.rule,
            confirm=args.confirm,
            validate_only=args.validate_only,
            device_allowed=call.device_allowed,
        )
        if args.validate_only:
            return {"summary": "Spec is valid; nothing was sent", **result}
        return {"summary": f"Created rule {result['app_id']} ({result['name']})", **result}


class UpdateRuleTool(HubTool[UpdateRuleArgs]):
    name = "hub_update_rule"
    covers = (on_hub("hub_set_rule"),)
    title = "Update automation rule"
    description = (
        "Change a Rule Machine rule: a whole spec (rule) or a JSON Patch (patch) of the spec "
        "hub_get_rule returns. Edited in place (same app_id): backed up, paused, only the "
        "parts that differ changed through the rule's pages, verified like hub_create_rule; "
        "put back on a failure or cancel. Parts hub_get_rule could not read stay as they "
        "are; a change that needs one removed or rebuilt is refused (edit it by hand: "
        "hub_get_app page=, hub_update_app_settings). validate_only=true shows the plan only."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: UpdateRuleArgs) -> dict[str, Any]:
        result = await call.hub.rule_authoring.update(
            args.app_id,
            args.rule,
            args.patch,
            confirm=args.confirm,
            validate_only=args.validate_only,
            device_allowed=call.device_allowed,
        )
        if args.validate_only:
            return {"summary": "Change is valid; nothing was sent", **result}
        return {"summary": f"Updated rule {args.app_id} in place", **result}


class GetRuleTool(HubTool[GetRuleArgs]):
    name = "hub_get_rule"
    covers = (on_hub("hub_set_rule"),)
    hub_text = ("rule_text", "undecompiled")
    title = "Get automation rule"
    description = (
        "What a Rule Machine rule does: its triggers, conditions and actions as a spec (the "
        "hub_create_rule format), the hub's rule text, paused and stopped. Every part the "
        "rule text shows is in the spec or listed in undecompiled {part, why, text: the "
        "hub's line for it}, with an {unknown} placeholder left in the spec (a restriction, "
        "which the spec has no form for, under restrictions); an update keeps them. "
        "Use before hub_update_rule. Visual Rules: "
        "hub_get_visual_rule."
    )

    async def run(self, call: ToolCall, args: GetRuleArgs) -> dict[str, Any]:
        rule = await call.hub.rule_authoring.get(args.app_id)
        # devices outside the allowlist are left out of the spec (such a rule cannot be
        # updated here: hub_update_rule refuses it) and their labels out of the rule text
        screen = await call.hub.devices.screen(call.device_allowed)
        return screen.answer(rule, id_keys=(*DEVICE_LIST_KINDS, *DEVICE_LIST_KEYS))


ORDER = 65

TOOLS: tuple[type[HubTool[Any]], ...] = (CreateRuleTool, UpdateRuleTool, GetRuleTool)
