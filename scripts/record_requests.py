"""Record the requests a fixed sequence of tool runs sends to the emulated hub.

    scripts/dev py scripts/record_requests.py > after.json

Run it in two checkouts (``git worktree add /tmp/before <rev>``, then the same command
there) and compare the files: a restructuring that changes no behaviour sends the same
requests (method and path with its query, long numbers masked) for every run. The tools run
without Home Assistant, as the benchmarks run them, on a home seeded at a frozen noon; a
tool that needs Home Assistant is recorded with its error, the same on both sides.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import aiohttp  # noqa: E402

from custom_components.hubitat_dev_tools.hub.client import (  # noqa: E402
    HubClient,
    HubConnection,
)
from custom_components.hubitat_dev_tools.managers.hub import Hub  # noqa: E402
from custom_components.hubitat_dev_tools.tools.args import build_args  # noqa: E402
from custom_components.hubitat_dev_tools.tools.base import ToolCall  # noqa: E402
from custom_components.hubitat_dev_tools.tools.surface import registry  # noqa: E402
from hubitat_emulator import clock  # noqa: E402
from scripts.ha_launcher import hub_settings, running_hub  # noqa: E402

CALLS = [
    ("hub_get_info", {}),
    ("hub_list_devices", {}),
    ("hub_get_device", {"device_id": "6"}),
    ("hub_get_device_attribute", {"device_id": "6", "attribute": "switch"}),
    ("hub_list_device_events", {"device_id": "6", "limit": 5}),
    ("hub_list_rooms", {}),
    ("hub_get_room", {"room": "Kitchen"}),
    ("hub_list_modes", {}),
    ("hub_get_hsm_status", {}),
    ("hub_list_variables", {}),
    ("hub_list_scenes", {}),
    ("hub_list_apps", {}),
    ("hub_list_rules", {}),
    ("hub_get_app", {"app_id": "140"}),
    ("hub_get_rule", {"app_id": "140"}),
    ("hub_get_rule_health", {}),
    ("hub_get_logs", {"limit": 20}),
    ("hub_list_events", {}),
    ("hub_list_changes", {}),
    ("hub_get_health_report", {}),
    ("hub_list_backups", {}),
    ("hub_list_files", {}),
    ("hub_list_code", {}),
    ("hub_list_dashboards", {}),
    ("hub_get_radio_details", {"radio": "all"}),
    ("hub_get_network_settings", {}),
    ("hub_get_hub_mesh", {}),
    ("hub_check_firmware_update", {}),
    ("hub_get_jobs", {}),
    ("hub_get_device_health", {}),
    ("hub_get_home_summary", {}),
    ("hub_list_replacement_candidates", {"device_id": "128"}),
    ("hub_call_device_command", {"device_id": "6", "command": "off"}),
    ("hub_set_mode", {"mode": "Away"}),
    ("hub_create_room", {"name": "Sunroom"}),
    ("hub_set_variable", {"name": "guestCount", "value": 3}),
    ("hub_write_file", {"file_name": "x.txt", "content": "hello"}),
]


async def main() -> None:
    """Run every call and print what each sent, as JSON."""
    clock.freeze(clock.utcnow().replace(hour=12, minute=0, second=0, microsecond=0))
    out: list[Any] = []
    async with aiohttp.ClientSession() as session, running_hub() as emu:
        client = HubClient(session, HubConnection(**hub_settings(emu)))
        hub = Hub(client)
        runtime = SimpleNamespace(hub=hub)
        call = ToolCall(
            hass=cast(Any, None), runtime=cast(Any, runtime), caller=cast(Any, None), tool_name=""
        )
        tools = registry()
        for name, args in CALLS:
            tool = tools.get(name)
            if tool is None:
                out.append((name, "missing"))
                continue
            before = len(emu.requests)
            try:
                validated = tool.parameters(args)
                typed = build_args(tool.args_type, validated)
                await tool.run(call, typed)
                status = "ok"
            except Exception as err:
                status = f"error {type(err).__name__}"
            reqs = [f"{m} {re.sub(r'\d{10,}', 'N', p)}" for m, p in emu.requests[before:]]
            out.append((name, status, sorted(reqs)))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
