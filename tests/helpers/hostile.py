"""Helpers of the hostile-model tests used across folders: the device allowlist setter
(``allow_only``) and every read tool called over the seeded home (``call_all_reads``, with the
arguments table it reads by and the lock lookups that table needs). Used by
glue/test_hostile_reads.py, glue/test_hostile_secrets.py, glue/test_snapshots.py and the tool
tests tools/test_rule_checks.py, tools/test_snapshot_restore.py,
tools/test_snapshot_restore_hostile.py and tools/test_timestamps.py.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.safety import ToolKind
from custom_components.hubitat_dev_tools.tools import TOOL_CLASSES
from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import DASH_MAIN, DASH_TABLET, RULE_GOODNIGHT, RULE_MOTION

from ..conftest import ToolCaller


def allow_only(hass: HomeAssistant, entry: MockConfigEntry, *device_ids: int | str) -> None:
    hass.config_entries.async_update_entry(
        entry, options={OPT_ALLOWED_DEVICES: [str(d) for d in device_ids]}
    )


def lock_ids(hub: HubEmulator) -> list[int]:
    """Devices holding lock codes."""
    return [d for d in hub.device_ids() if "lockCodes" in hub.device(d)["attributes"]]


def front_door_lock(hub: HubEmulator) -> int:
    return next(d for d in hub.device_ids() if hub.device(d)["label"] == "Front Door Lock")


def read_args(hub: HubEmulator) -> dict[str, list[dict[str, Any]]]:
    """Arguments for the read tools that need an id (the others run with none)."""
    locks = lock_ids(hub)
    lock = front_door_lock(hub)
    apps = sorted(hub.home.state.apps)
    rooms = [r.name for r in hub.home.state.rooms.values()]
    return {
        "hub_list_devices": [
            {"limit": 500},
            {"text": "Front Door Lock", "fields": ["states.lockCodes"]},
            {"attribute": "lockCodes", "limit": 500},
        ],
        "hub_get_device": [{"device_id": str(d)} for d in locks],
        "hub_get_device_attribute": [
            {"device_ids": [str(d) for d in locks], "attribute": "lockCodes"},
            {
                "device_id": str(lock),
                "attribute": "lockCodes",
                "expected_value": "never",
                "timeout_ms": 100,
            },
        ],
        "hub_list_device_events": [{"device_id": str(d), "limit": 200} for d in locks]
        + [{"device_id": str(lock), "attribute": "lockCodes"}],
        "hub_get_event_cause": [
            {"device_id": str(lock)},
            {"device_id": str(lock), "attribute": "lockCodes"},
        ],
        "hub_get_room": [{"room": name} for name in rooms],
        "hub_get_variable": [{"name": next(iter(hub.home.state.variables))}],
        "hub_get_code": [{"type": "app", "id": "1"}],
        "hub_get_app": [{"app_id": str(a), "include_state": True} for a in apps],
        "hub_get_rule_health": [{"app_id": str(RULE_MOTION)}, {"app_id": str(RULE_GOODNIGHT)}],
        "hub_list_rule_local_variables": [{"app_id": str(RULE_MOTION)}],
        "hub_get_rule": [{"app_id": str(RULE_MOTION)}, {"app_id": str(RULE_GOODNIGHT)}],
        "hub_get_visual_rule": [{"app_id": str(a)} for a in hub.home.state.dev.vrb],
        "hub_get_dashboard": [
            {"dashboard_id": str(d)}
            for d in (DASH_MAIN, DASH_TABLET, *hub.home.state.dev.easy_dashboards)
        ],
        "hub_list_apps": [{"limit": 500}, {"include_hidden": True, "limit": 500}],
        "hub_list_events": [{"hours_back": 168, "limit": 500}],
        "hub_get_logs": [{"hours_back": 168, "limit": 200}],
        "hub_search_compatible_devices": [{"text": "lock"}],
        "hub_tail_logs": [{"window_s": 0, "limit": 500}],
        "hub_list_recent_events": [{"limit": 500}, {"device_id": str(lock)}],
        "hub_search_tools": [{"query": "lock codes"}],
        "hub_call_network_test": [{"test": t} for t in ("ping", "ping_gateway", "speed_test")]
        + [{"test": "traceroute", "host": "1.1.1.1"}],
    }


async def call_all_reads(
    call_tool: ToolCaller, hub: HubEmulator, extra: dict[str, list[dict[str, Any]]]
) -> list[Any]:
    """Every read tool's answers: by the table, else its example call, else no arguments."""
    table = read_args(hub) | extra
    outputs: list[Any] = []
    for cls in TOOL_CLASSES:
        if cls.kind is not ToolKind.READ:
            continue
        example = [dict(cls.example)] if cls.example is not None else [{}]
        for args in table.get(cls.name, example):
            result = await call_tool(cls.name, args)
            outputs.append({"tool": cls.name, "args": args, "result": result.data})
            assert not result.error, (cls.name, args, result.data)  # every read really ran
    return outputs
