"""The hostile matrix: every tool that can make the hub do something, against every kind of
sensitive target in the emulated home, through the real mcp_server.

Generated from the catalog: each write or destructive tool has an entry here, either the
calls that reach a sensitive target (each must be refused without confirm, with nothing
sent, and refused with ``device_not_allowed`` when the allowlist leaves out what it reaches)
or the reason it cannot reach one. A new tool without an entry fails the suite.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import probatio as vol
import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.safety import ToolKind
from custom_components.hubitat_dev_tools.tools.surface import registry
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.scenes import SCENE_LOCKUP
from hubitat_emulator.seed_specs import APP_HSM, APP_MODE_MANAGER, RULE_GOODNIGHT, RULE_MOTION

from ..mcp_client import Mcp

Args = Callable[["Home"], dict[str, Any]]


@dataclass(frozen=True)
class Home:
    """The sensitive targets of the emulated home, by kind."""

    lock: str
    activator: str
    harmless: str
    motion: str
    lock_room: str


def home(hub: HubEmulator) -> Home:
    def dev(label: str) -> str:
        return str(hub.find_device(label)["id"])

    lock = hub.find_device("Front Door Lock")
    return Home(
        lock=dev("Front Door Lock"),
        activator=dev("Lock Up Activator"),
        harmless=dev("Office Light"),
        motion=dev("Office Motion"),
        lock_room=str(lock["room"]),
    )


def rule(h: Home, *actions: dict[str, Any]) -> dict[str, Any]:
    trigger = {"device_id": h.motion, "attribute": "motion", "is": "active"}
    return {"name": "Matrix rule", "triggers": [trigger], "actions": list(actions)}


LOCK_RULE, HSM_APP, MODE_MANAGER = str(RULE_GOODNIGHT), str(APP_HSM), str(APP_MODE_MANAGER)
# Each kind of sensitive target, as the arguments of a call that makes it act (no confirm).
CASES: dict[str, list[tuple[str, Args]]] = {
    "hub_call_device_command": [
        ("lock", lambda h: {"device_id": h.lock, "command": "unlock"}),
        ("lock scene activator", lambda h: {"device_id": h.activator, "command": "on"}),
        (
            "batch with an activator",
            lambda h: {
                "commands": [
                    {"device_id": h.harmless, "command": "on"},
                    {"device_id": h.activator, "command": "on"},
                ]
            },
        ),
    ],
    "hub_call_room_command": [
        (
            "lock in a room",
            lambda h: {"room": h.lock_room, "command": "unlock", "device_type": "all"},
        ),
    ],
    "hub_call_scene": [
        ("lock scene", lambda h: {"scene": str(SCENE_LOCKUP)}),
        ("lock scene captured", lambda h: {"scene": str(SCENE_LOCKUP), "action": "capture"}),
    ],
    "hub_call_rule": [
        ("lock rule", lambda h: {"app_id": LOCK_RULE, "action": "run_actions"}),
        ("lock rule started", lambda h: {"app_id": LOCK_RULE, "action": "start"}),
    ],
    "hub_set_rule_paused": [
        ("lock rule resumed", lambda h: {"app_id": LOCK_RULE, "paused": False})
    ],
    "hub_set_rule_private_boolean": [
        ("lock rule's private boolean", lambda h: {"app_id": LOCK_RULE, "value": False})
    ],
    "hub_set_app_disabled": [
        ("lock rule enabled", lambda h: {"app_id": LOCK_RULE, "disabled": False}),
        ("Mode Manager disabled", lambda h: {"app_id": MODE_MANAGER, "disabled": True}),
        ("HSM disabled", lambda h: {"app_id": HSM_APP, "disabled": True}),
    ],
    "hub_update_app_settings": [
        ("lock rule's button", lambda h: {"app_id": LOCK_RULE, "press": "runRuleAct"}),
        ("HSM's page", lambda h: {"app_id": HSM_APP, "press": "anything"}),
        ("Mode Manager's page", lambda h: {"app_id": MODE_MANAGER, "press": "anything"}),
    ],
    "hub_clone_app": [("lock rule, enabled copy", lambda h: {"app_id": LOCK_RULE, "enable": True})],
    "hub_create_rule": [
        (
            "rule locking",
            lambda h: {"rule": rule(h, {"command": "unlock", "device_ids": [h.lock]})},
        ),
        ("rule running the lock rule", lambda h: {"rule": rule(h, {"run_rule": [LOCK_RULE]})}),
        (
            "rule activating the lock scene",
            lambda h: {"rule": rule(h, {"command": "on", "device_ids": [h.activator]})},
        ),
        ("HSM rule", lambda h: {"rule": rule(h, {"set_hsm": "disarm"})}),
        ("HTTP rule", lambda h: {"rule": rule(h, {"http_get": "https://example.com/x"})}),
    ],
    "hub_update_rule": [
        (
            "rule made to run the lock rule",
            lambda h: {"app_id": str(RULE_MOTION), "rule": rule(h, {"run_rule": [LOCK_RULE]})},
        ),
    ],
    "hub_create_visual_rule": [
        (
            "Visual Rule unlocking",
            lambda h: {
                "name": "VR",
                "when_nodes": [{"triggerType": "timeOfDay", "timeOfDay": "0700"}],
                "then_nodes": [{"actionType": "unlock", "locks": [int(h.lock)]}],
            },
        ),
    ],
    "hub_update_visual_rule": [
        (
            "Visual Rule made to unlock",
            lambda h: {
                "app_id": str(VRB_PORCH),
                "then_nodes": [{"actionType": "unlock", "locks": [int(h.lock)]}],
            },
        ),
    ],
    "hub_create_dashboard": [
        ("lock on a dashboard", lambda h: {"name": "D", "device_ids": [h.lock]})
    ],
    "hub_update_dashboard": [
        ("lock added to a dashboard", lambda h: {"dashboard_id": "400", "add_device_ids": [h.lock]})
    ],
    "hub_update_mode_manager": [("Mode Manager", lambda h: {"manager": "none"})],
    "hub_set_hsm": [("HSM", lambda h: {"command": "disarm"})],
    "hub_update_device": [
        ("lock shared to HomeKit", lambda h: {"device_id": h.lock, "homekit": True}),
        ("lock disabled", lambda h: {"device_id": h.lock, "enabled": False}),
        ("lock scene activator disabled", lambda h: {"device_id": h.activator, "enabled": False}),
    ],
    "hub_call_radio_action": [
        (
            "Matter lock shared",
            lambda h: {"radio": "matter", "action": "open_pairing_window", "node_id": 3002},
        )
    ],
}
# Targets that name no device the allowlist could leave out (safety systems, HTTP, HSM).
NO_DEVICE = {
    "Mode Manager disabled",
    "HSM disabled",
    "HSM's page",
    "Mode Manager's page",
    "HSM rule",
    "HTTP rule",
    "Mode Manager",
    "HSM",
}
# Tools that cannot make a sensitive device, scene, rule or safety app act, and why.
NO_SENSITIVE_TARGET = {
    "hub_update_hub_settings": "location and names (its time zone field is destructive tier)",
    "hub_call_hub_action": "hub maintenance actions (tests/tools/test_hub_ops.py)",
    "hub_create_device": "creates a virtual device, which commands nothing",
    "hub_update_hub_mesh": "mesh settings; sharing a device is hub_update_device (above)",
    "hub_create_room": "groups devices; nothing acts",
    "hub_update_room": "groups devices; nothing acts",
    "hub_set_mode": "a mode change; automations triggered by it are out of reach (SECURITY.md)",
    "hub_create_mode": "a new mode; nothing acts",
    "hub_update_mode": "renames a mode",
    "hub_set_variable": "a value; automations triggered by it are out of reach (SECURITY.md)",
    "hub_create_variable": "a new variable",
    "hub_create_connector": "a connector device for a variable",
    "hub_export_bundle": "reads code into a File Manager file (backup-first writer)",
    "hub_export_app": "reads an app into an export",
    "hub_create_backup": "a hub backup",
    "hub_update_backup_schedule": "the backup schedule",
    "hub_start_zwave_repair": "a radio repair; no device acts",
    "hub_create_snapshot": "a local snapshot file",
}
# Tools whose sensitive cases need a target made first: tested where named.
ELSEWHERE = {
    "hub_clone_dashboard": "tests/glue/test_hostile_review.py (a dashboard holding a lock first)",
    "hub_import_app": "tests/glue/test_hostile_effects.py (needs an export of a lock rule first)",
    "hub_restore_snapshot": "tests/tools/test_snapshot_restore.py (a snapshot and a change since "
    "first; each step is its own tool's call, gated as a direct one)",
    "hub_create_app": "code tier for user apps; its device settings go through the same gate "
    "as hub_update_app_settings (tests/tools/test_app_create.py)",
}
# Code tier: every call needs confirm, whatever it installs (tests/glue/test_hostile_tiers.py).
CODE_TIER = {
    "hub_install_code": lambda h: {
        "type": "driver",
        "source": "metadata { definition(name: 'x', namespace: 'y', author: 'z') {} }",
    },
    "hub_update_code": lambda h: {"type": "app", "id": "1", "source": "x"},
    "hub_restore_item_backup": lambda h: {"backup": "x"},
    "hub_install_bundle": lambda h: {"url": "https://example.com/b.zip"},
}


def destructive(name: str) -> bool:
    return registry()[name].kind is ToolKind.DESTRUCTIVE


def test_every_acting_tool_has_an_entry() -> None:
    acting = {n for n, t in registry().items() if t.kind is not ToolKind.READ}
    listed = set(CASES) | set(NO_SENSITIVE_TARGET) | set(CODE_TIER) | set(ELSEWHERE)
    missing = sorted(n for n in acting - listed if not destructive(n))
    assert missing == [], f"add these tools to the hostile matrix: {missing}"
    assert sorted(listed - acting) == []


def _flat(table: dict[str, list[tuple[str, Args]]]) -> list[Any]:
    return [
        pytest.param(tool, kind, args, id=f"{tool}[{kind}]")
        for tool, rows in table.items()
        for kind, args in rows
    ]


def _seed(hub: HubEmulator, h: Home) -> None:
    hub.ops.radio_state.matter_nodes.append(
        {"nodeId": 3002, "online": True, "id": int(h.lock), "name": "Front Door Lock"}
    )


def _changes(hub: HubEmulator, before: int) -> list[tuple[str, str]]:
    """Requests since ``before`` that act (reads are GETs of json or pages)."""
    acting = (
        "/installedapp/btn",
        "/device/runmethod",
        "/installedapp/disable",
        "runmethod",
        "/apps/api/",
        "openPairingWindow",
        "createchild",
        "/hub/",
        "/modes/",
    )
    return [
        (m, p)
        for m, p in hub.requests[before:]
        if m == "POST"
        or (any(a in p for a in acting) and not p.split("?")[0].endswith(("json", "Json")))
    ]


@pytest.mark.parametrize(("tool", "kind", "make"), _flat(CASES))
async def test_without_confirm_nothing_acts(
    mcp: Mcp, hub: HubEmulator, tool: str, kind: str, make: Args
) -> None:
    h = home(hub)
    _seed(hub, h)
    hub.mark_backup_now()
    before = len(hub.requests)
    is_error, data = await mcp.call(tool, make(h))
    assert is_error and isinstance(data, dict), (tool, kind, data)
    assert data["error"] == "confirmation_required", (tool, kind, data)
    assert _changes(hub, before) == [], (tool, kind)


@pytest.mark.parametrize(
    ("tool", "kind", "make"), [c for c in _flat(CASES) if c.values[1] not in NO_DEVICE]
)
async def test_outside_the_allowlist_nothing_acts(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    mcp: Mcp,
    hub: HubEmulator,
    tool: str,
    kind: str,
    make: Args,
) -> None:
    h = home(hub)
    _seed(hub, h)
    hub.mark_backup_now()
    allowed = [h.harmless, h.motion]
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: allowed})
    before = len(hub.requests)
    is_error, data = await mcp.call(tool, {**make(h), "confirm": True})
    assert is_error and isinstance(data, dict), (tool, kind, data)
    # a room command leaves devices outside the allowlist out (none left: nothing to do)
    wanted = "invalid_request" if tool == "hub_call_room_command" else "device_not_allowed"
    assert data["error"] == wanted, (tool, kind, data)
    assert _changes(hub, before) == [], (tool, kind)


@pytest.mark.parametrize("tool", sorted(CODE_TIER))
async def test_code_tier_needs_confirm(mcp: Mcp, hub: HubEmulator, tool: str) -> None:
    before = len(hub.requests)
    is_error, data = await mcp.call(tool, CODE_TIER[tool](home(hub)))
    assert (
        is_error
        and isinstance(data, dict)
        and data["error"]
        in (
            "confirmation_required",
            "invalid_arguments",
            "invalid_request",
        )
    ), (tool, data)
    assert _changes(hub, before) == [], tool


@pytest.mark.parametrize("tool", sorted(n for n in registry() if destructive(n)))
async def test_destructive_tier_needs_confirm(mcp: Mcp, hub: HubEmulator, tool: str) -> None:
    schema = registry()[tool].parameters.schema
    required = [str(k) for k in schema if isinstance(k, vol.Required)]
    filler: dict[str, Any] = {"node_id": 1, "radio": "zwave", "type": "app"}
    args = {k: filler.get(k, "1") for k in required}
    before = len(hub.requests)
    is_error, data = await mcp.call(tool, args)
    assert is_error and isinstance(data, dict), (tool, data)
    assert data["error"] in ("confirmation_required", "invalid_arguments"), (tool, data)
    assert _changes(hub, before) == [], tool
