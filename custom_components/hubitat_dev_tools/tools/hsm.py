"""Hubitat Safety Monitor tools: read the status, arm, disarm, cancel alerts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..managers.hsm import HSM_COMMANDS
from ..safety import ToolKind
from .args import ToolArgs, arg
from .base import HubTool, ToolCall, on_hub
from .errors import add_advice
from .maker import MAKER_NOTE

TOOL_DOMAIN = "hsm"


@dataclass(frozen=True, slots=True, kw_only=True)
class SetHsmArgs(ToolArgs):
    command: str = arg(vol.In(HSM_COMMANDS), "HSM command, e.g. armAway", required=True)
    # Its own confirm (a write, not the destructive tier): security-sensitive.
    confirm: bool = arg(bool, "Must be true (user agreed)", default=False)


class GetHsmStatusTool(HubTool[ToolArgs]):
    name = "hub_get_hsm_status"
    covers = (on_hub("hub_get_hsm_status"),)
    title = "Get HSM status"
    description = (
        "Hubitat Safety Monitor: armed status (armedAway, armingAway, armedHome, armedNight, "
        "disarmed, allDisarmed), any active alert (intrusion, smoke, water, ...) and the "
        "commands hub_set_hsm accepts. Works without the Maker API."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return dict(await call.hub.hsm.status())


class SetHsmTool(HubTool[SetHsmArgs]):
    name = "hub_set_hsm"
    acting = True
    covers = (on_hub("hub_set_hsm"),)
    title = "Arm, disarm or cancel HSM alerts"
    description = (
        "Change Hubitat Safety Monitor: armAway, armHome, armNight, armAll, disarm, "
        "disarmAll, armRules, disarmRules or cancelAlerts. Security-sensitive: needs "
        "confirm=true after the user agreed. Arming goes through an exit delay (status "
        "arming*); read hub_get_hsm_status later. " + MAKER_NOTE
    )
    kind = ToolKind.WRITE
    idempotent = True

    async def run(self, call: ToolCall, args: SetHsmArgs) -> dict[str, Any]:
        result = await call.hub.hsm.command(
            args.command, confirm=args.confirm, device_allowed=call.device_allowed
        )
        out: dict[str, Any] = {
            "summary": f"HSM {args.command}: {result['previous_status']} -> {result['status']}",
            **result,
        }
        if "note" in out:  # arming
            add_advice(out, "note", "Read hub_get_hsm_status later to see it armed.")
        if "open_note" in out:
            add_advice(out, "open_note", "Read that page with hub_get_app.")
        return out


ORDER = 41  # after modes (40), before variables (42)

TOOLS: tuple[type[HubTool[Any]], ...] = (GetHsmStatusTool, SetHsmTool)
