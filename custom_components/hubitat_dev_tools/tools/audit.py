"""The audit trail of changes made through these tools.

It never talks to a hub (``hub_access = False``): no ``hub`` argument, the Read/Write
masters do not apply; the admin check and the disable lists do, like for every tool.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol
from homeassistant.core import HomeAssistant

from ..audit import OUTCOMES
from ..device_refs import OUTSIDE, OUTSIDE_COUNT, DeviceScreen
from ..domain_data import get_domain_data
from ..managers.apps.visual_nodes import DEVICE_KEYS
from ..managers.automation.parse_device_acts import DEVICE_LIST_KEYS
from ..managers.automation.parse_rule_acts import DEVICE_LIST_KINDS
from ..safety import device_predicate, loaded_runtimes
from .args import ToolArgs, arg
from .base import HubTool, ToolCall
from .paging import cursor_arg, limit_arg, paginate

TOOL_DOMAIN = "hub"


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditEntriesArgs(ToolArgs):
    tool: str | None = arg(str, "Only this tool")
    outcome: str | None = arg(vol.In(list(OUTCOMES)), "Only this outcome")
    hub_name: str | None = arg(str, "Only this hub")
    limit: int = limit_arg(default=50, maximum=200)
    cursor: str | None = cursor_arg()


class ListAuditEntriesTool(HubTool[AuditEntriesArgs]):
    name = "hub_list_audit_entries"
    title = "List audit entries"
    description = (
        "The audit trail of changes made through these tools, newest first: time, Home "
        "Assistant user, tool, gateway, hub, redacted arguments, outcome (ok, refused, "
        "failed, interrupted; started while running). Answers 'who changed X' or 'what did "
        "the assistant do'."
    )
    hub_access = False

    async def run(self, call: ToolCall, args: AuditEntriesArgs) -> dict[str, Any]:
        """Filter and page the stored records."""
        shared = get_domain_data(call.hass)
        records = shared.audit.recent(None) if shared else []
        if tool := args.tool:
            records = [r for r in records if r.get("tool") == tool or r.get("gateway") == tool]
        if outcome := args.outcome:
            records = [r for r in records if r.get("outcome") == outcome]
        if hub := args.hub_name:
            records = [r for r in records if str(r.get("hub") or "").lower() == hub.lower()]
        return paginate(screened_records(call.hass, records), args, key="entries", default_limit=50)


def screened_records(hass: HomeAssistant, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Audit records as a read may show them under each hub's device allowlist.

    A record whose arguments name a device outside its hub's allowlist keeps who, when, which
    tool, hub and outcome; its arguments and detail (which can name that device by label)
    are left out and the devices counted. The trail itself keeps everything.
    """
    allowlists = {rt.title: device_predicate(rt) for rt in loaded_runtimes(hass)}
    out = []
    for record in records:
        allowed = allowlists.get(str(record.get("hub")))
        screen = DeviceScreen(allowed) if allowed is not None else None
        if screen is not None and screen.active:
            screen(
                record.get("args") or {},
                id_keys=(*DEVICE_LIST_KINDS, *DEVICE_LIST_KEYS, *DEVICE_KEYS),
            )
        if screen is None or not screen.hidden:
            out.append(record)
            continue
        shown = {**record, "args": {}, OUTSIDE_COUNT: len(screen.hidden)}
        if record.get("detail"):
            shown["detail"] = OUTSIDE
        out.append(shown)
    return out


# Right after the catalog tools (ORDER 900), as when they shared one module.
ORDER = 901

TOOLS: tuple[type[HubTool[Any]], ...] = (ListAuditEntriesTool,)
