"""The read matrix: no read shows a device outside the device allowlist (security issue,
item 3 and the read half of item 8).

Generated from the registry: every read tool has an entry here, either the calls that can
show a device of the hub (its case from ``tests/mcp_cases/`` or its class's example, plus
calls that reach the home's locks, valve and keypad: an app, a rule, a Visual Rule, a
dashboard, an item backup, radio nodes, a snapshot diff, the audit trail) or the reason it
cannot show one. A new read tool with neither an entry nor an example fails the suite (one
with an example is called with it and checked like the others).

Every call runs through the real mcp_server twice: first without an allowlist (an entry
marked ``live`` must then show an outside device, so the path is proved to carry one), then
with the allowlist set to a few harmless devices: each call must answer without an error and
show neither the id (as the value of a device key: ``device_id``, ``deviceIds``, a
``devices`` list, a Visual Rule node's ``locks``, a map keyed by device...) nor the label of
any outside device.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.device_refs import (
    OUTSIDE,
    OUTSIDE_COUNT,
    DeviceScreen,
    device_refs,
)
from custom_components.hubitat_dev_tools.diagnostics import async_get_config_entry_diagnostics
from custom_components.hubitat_dev_tools.managers.apps.visual_nodes import DEVICE_KEYS
from custom_components.hubitat_dev_tools.managers.automation.parse_rule_acts import (
    DEVICE_LIST_KINDS,
)
from custom_components.hubitat_dev_tools.safety import ToolKind
from custom_components.hubitat_dev_tools.tools.surface import registry
from hubitat_emulator import HubEmulator
from hubitat_emulator.scenes import SCENE_LOCKUP
from hubitat_emulator.seed_specs import DASH_MAIN

from .. import mcp_cases
from ..mcp_client import Mcp

# Devices that must never show while outside the allowlist (their labels are unique).
OUTSIDE_LABELS = ("Front Door Lock", "Back Door Lock", "Water Main Valve", "Security Keypad")
HARMLESS = ("Office Light", "Office Motion")  # the allowlist, with the devices cases name
EASY_DASHBOARD = "400"


@dataclass(frozen=True)
class Home:
    """What the seeded home adds for this matrix: things that name the locks."""

    front: str  # Front Door Lock
    back: str  # Back Door Lock
    rule: str  # a Rule Machine rule: Back Door Lock unlocked -> lock Front Door Lock
    visual: str  # a Visual Rule unlocking Front Door Lock
    backup: str  # the item backup of that rule, taken before an update


Calls = Callable[[Home], list[dict[str, Any]]]


def _none(_h: Home) -> list[dict[str, Any]]:
    return []


@dataclass(frozen=True)
class Reads:
    """A read that can show the hub's devices: its case, plus these calls."""

    extra: Calls = _none
    live: bool = False  # without the allowlist, these calls show an outside device
    case: bool = True  # also call it with its tests/mcp_cases arguments


# Every read tool that can show a device, with the calls that reach one.
MATRIX: dict[str, Reads] = {
    "hub_list_devices": Reads(lambda h: [{"limit": 500}], live=True),
    "hub_get_device": Reads(),  # an outside device is refused; parents: see below
    # its example (Office Motion) shares Battery and MotionSensor with the lock and keypad
    "hub_list_replacement_candidates": Reads(live=True),
    "hub_get_device_attribute": Reads(),
    "hub_list_device_events": Reads(),
    "hub_get_home_summary": Reads(live=True),
    "hub_get_hub_mesh": Reads(),  # the hub's shared devices (other hubs' are not the hub's)
    "hub_list_rooms": Reads(live=True),
    "hub_get_room": Reads(lambda h: [{"room": "Front Porch"}], live=True),
    "hub_list_scenes": Reads(live=True),
    "hub_tail_logs": Reads(),
    "hub_list_recent_events": Reads(),
    "hub_get_event_cause": Reads(),  # an outside device is refused; a link back is cut
    # a keypad's warning line; an app's line quoting a device's label ("Goodnight: Action:
    # Lock: Front Door Lock, Back Door Lock"): the labels are screened out of the text
    "hub_get_logs": Reads(lambda h: [{"limit": 200}], live=True),
    "hub_get_jobs": Reads(),
    "hub_list_events": Reads(),
    "hub_get_performance_stats": Reads(),
    "hub_list_changes": Reads(),
    "hub_get_device_health": Reads(live=True),  # the keypad's log errors
    "hub_get_app": Reads(
        lambda h: [{"app_id": h.rule}, {"app_id": str(SCENE_LOCKUP)}, {"app_id": h.visual}],
        live=True,
    ),
    "hub_get_rule": Reads(lambda h: [{"app_id": h.rule}], live=True),
    "hub_get_rule_health": Reads(lambda h: [{"app_id": h.rule}, {"app_id": h.visual}]),
    "hub_get_visual_rule": Reads(lambda h: [{"app_id": h.visual}], live=True),
    "hub_get_dashboard": Reads(
        lambda h: [{"dashboard_id": EASY_DASHBOARD}, {"dashboard_id": str(DASH_MAIN)}],
        live=True,
    ),
    "hub_get_item_backup": Reads(lambda h: [{"backup": h.backup}], live=True, case=True),
    "hub_get_radio_details": Reads(
        lambda h: [
            {"radio": "all", "limit": 500},
            {"radio": "zwave", "include": ["firmware"], "limit": 500},
        ],
        live=True,
    ),
    "hub_get_zwave_repair_status": Reads(),  # its progress text names nodes' devices
    "hub_diff_snapshots": Reads(live=True),  # its case: the snapshot taken before the seeds
    "hub_get_restore_plan": Reads(live=True),  # the seeds are changes since that snapshot
    "hub_list_audit_entries": Reads(lambda h: [{"limit": 200}], live=True),
}
# Read tools that cannot show a device of the hub, and why (each is still called with its
# case, with the allowlist set, and checked like the others).
NO_DEVICE: dict[str, str] = {
    "hub_get_info": "the hub's identity, resources and settings",
    "hub_check_compatibility": "key names and JSON types only; ids and labels are counted",
    "hub_call_network_test": "network test results",
    "hub_search_compatible_devices": "the hub's catalog of compatible products, not devices",
    "hub_list_modes": "modes and which is active",
    "hub_get_hsm_status": "HSM's arm state and alerts (open sensors: hub_set_hsm, filtered)",
    "hub_list_variables": "hub variables (a connector is a device: hub_list_devices)",
    "hub_get_variable": "one hub variable and its changes",
    "hub_list_code": "user code items",
    "hub_get_code": "one code item's source",
    "hub_list_item_backups": "backup names (the item's type and id, never a device)",
    "hub_list_bundles": "bundles of code",
    "hub_list_apps": "the app tree (a device_id filter outside the allowlist is refused)",
    "hub_list_hpm_packages": "HPM packages and code",
    "hub_list_rules": "rules' names and paused/stopped status",
    "hub_list_rule_local_variables": "a rule's local variables (none holds a device)",
    "hub_list_dashboards": "dashboards' names and types",
    "hub_list_files": "File Manager file names",
    "hub_list_backups": "hub backup files",
    "hub_get_health_report": "the hub's resources, alerts and history",
    "hub_check_firmware_update": "the platform version",
    "hub_list_snapshots": "snapshot names and sizes",
    "hub_search_tools": "the tool catalog (no hub data)",
    "hub_get_tool_guide": "the tool guide (no hub data)",
}
# Reads that show what is stored as it is stored (SECURITY.md, "Device allowlist"); each is
# called with its case and must answer.
AS_STORED: dict[str, str] = {
    "hub_read_file": "a File Manager file's content: the owner's and apps' data, readable on "
    "the LAN at /local/; which numbers in it are devices cannot be told",
}


def read_tools() -> set[str]:
    return {name for name, tool in registry().items() if tool.kind is ToolKind.READ}


def test_every_read_tool_has_an_entry() -> None:
    """Listed here, or declaring an example call on its class: every read tool is called
    with its case or example below and checked; an entry adds the calls that reach a device
    and proves the path (live)."""
    listed = [*MATRIX, *NO_DEVICE, *AS_STORED]
    assert len(listed) == len(set(listed)), "a tool is listed twice"
    by_example = {n for n, t in registry().items() if t.example is not None}
    missing = sorted(read_tools() - set(listed) - by_example)
    assert missing == [], f"add these read tools to the read matrix: {missing}"
    assert sorted(set(listed) - read_tools()) == []


# ------------------------------------------------------------------ what an answer shows


def shown_ids(value: Any) -> set[str]:
    """Device ids ``value`` names as the value of a device key (never a raw substring)."""
    found = set(device_refs(value))
    extra_keys = {*DEVICE_KEYS, *DEVICE_LIST_KINDS, "child_ids"}

    def ids(item: Any) -> set[str]:
        return device_refs({"device_ids": item})

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, sub in node.items():
                skey = str(key)
                if skey.isdigit():
                    found.add(skey)  # a map keyed by device id (a scene's captured states)
                if skey in extra_keys or skey.lower().endswith("devices"):
                    found.update(i for i in ids(sub) if i.isdigit())
                walk(sub)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(value)
    return found


def leaks(data: Any, outside: dict[str, str]) -> list[str]:
    """The outside devices an answer shows, by id or label."""
    text = json.dumps(data, ensure_ascii=False)
    named = sorted(i for i in shown_ids(data) if i in outside)
    return [f"id {i} ({outside[i]})" for i in named] + [
        f"label {label!r}" for label in outside.values() if label in text
    ]


# ------------------------------------------------------------------ the seeded home


async def _all_cases(mcp: Mcp) -> dict[str, dict[str, Any]]:
    """Every tool's case: its class's example call, or its case in tests/mcp_cases/ (each
    module's setup runs once, through the real mcp_server)."""
    merged = {t.name: dict(t.example) for t in registry().values() if t.example is not None}
    for info in pkgutil.iter_modules(mcp_cases.__path__):
        module = importlib.import_module(f"{mcp_cases.__name__}.{info.name}")
        merged.update(await module.cases(mcp))
    return merged


async def seed(mcp: Mcp, hub: HubEmulator) -> Home:
    """Automations, a dashboard, a backup and radio nodes that name the locks."""
    front, back = (str(hub.find_device(label)["id"]) for label in OUTSIDE_LABELS[:2])
    trigger = {"device_id": back, "attribute": "lock", "is": "unlocked"}
    rule = await mcp.ok(
        "hub_create_rule",
        {
            "rule": {
                "name": "Matrix lock rule",
                "triggers": [trigger],
                "actions": [{"command": "lock", "device_ids": [front]}],
            },
            "confirm": True,
        },
    )
    updated = await mcp.ok(
        "hub_update_rule",
        {
            "app_id": rule["app_id"],
            "patch": [{"op": "replace", "path": "/name", "value": "Matrix lock rule 2"}],
            "confirm": True,
        },
    )
    assert updated.get("edited_in_place"), updated  # same app id, backed up first
    visual = await mcp.ok(
        "hub_create_visual_rule",
        {
            "name": "Matrix unlock",
            "when_nodes": [{"triggerType": "timeOfDay", "timeOfDay": "0700"}],
            "then_nodes": [{"actionType": "unlock", "locks": [int(front)]}],
            "confirm": True,
        },
    )
    await mcp.ok(
        "hub_update_dashboard",
        {"dashboard_id": EASY_DASHBOARD, "add_device_ids": [front], "confirm": True},
    )
    # a legacy dashboard authorised for the back door lock, with a tile for it
    legacy = hub.home.state.dev.internals[DASH_MAIN]
    picked = legacy.inputs[0]
    picked["value"] = [*picked["value"], back]
    picked["deviceIdsForDeviceList"] = [*picked["deviceIdsForDeviceList"], int(back)]
    hub.home.state.dev.layouts[DASH_MAIN]["tiles"].append(
        {"id": 7, "template": "lock", "device": back, "col": 3, "row": 1, "colSpan": 1}
    )
    # a Matter node of the front door lock
    hub.ops.radio_state.matter_nodes.append(
        {"nodeId": 3002, "online": False, "id": int(front), "name": "Front Door Lock"}
    )
    return Home(
        front=front,
        back=back,
        rule=str(rule["app_id"]),
        visual=str(visual["app_id"]),
        backup=str(updated["item_backup"]["backup"]),
    )


@dataclass
class Run:
    """One phase's answers: tool -> (args, is_error, data) per call."""

    answers: dict[str, list[tuple[dict[str, Any], bool, Any]]] = field(default_factory=dict)


async def call_all(mcp: Mcp, cases: dict[str, dict[str, Any]], h: Home) -> Run:
    run = Run()
    for name in sorted(read_tools()):
        entry = MATRIX.get(name)
        calls = [cases[name]] if entry is None or entry.case else []
        calls += entry.extra(h) if entry is not None else []
        for args in calls:
            is_error, data = await mcp.call(name, args)
            run.answers.setdefault(name, []).append((args, is_error, data))
    return run


async def test_no_read_shows_a_device_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator
) -> None:
    cases = await _all_cases(mcp)
    assert read_tools() <= set(cases), sorted(read_tools() - set(cases))
    h = await seed(mcp, hub)
    outside = {str(hub.find_device(label)["id"]): label for label in OUTSIDE_LABELS}
    allowed = {str(hub.find_device(label)["id"]) for label in HARMLESS}
    for name in read_tools():  # the devices the cases name (a dimmer, a light)
        allowed |= device_refs(cases[name])
    assert not allowed & set(outside), allowed

    # without the allowlist: each live path shows an outside device
    before = await call_all(mcp, cases, h)
    not_live = []
    for name, reads in MATRIX.items():
        shown = [leaks(data, outside) for _args, _err, data in before.answers[name]]
        if reads.live and not any(shown):
            not_live.append(name)
    assert not_live == [], (
        f"these paths show no outside device even without an allowlist: {not_live}"
    )

    # with it: every call answers, and no answer shows one
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: sorted(allowed)})
    after = await call_all(mcp, cases, h)
    failures = []
    for name, answers in sorted(after.answers.items()):
        for args, is_error, data in answers:
            if is_error:
                failures.append(f"{name}({args}) failed: {data}")
            elif name not in AS_STORED and (found := leaks(data, outside)):
                failures.append(f"{name}({args}) shows {found}")
    assert failures == [], "\n".join(failures)

    # what was left out is said, not silently dropped
    counted = {
        name
        for name, answers in after.answers.items()
        if any(f'"{OUTSIDE_COUNT}": ' in json.dumps(d) for _a, _e, d in answers)
    }
    assert {
        "hub_get_app",
        "hub_get_rule",
        "hub_get_visual_rule",
        "hub_get_dashboard",
        "hub_get_item_backup",
        "hub_get_radio_details",
        "hub_diff_snapshots",
        "hub_list_audit_entries",
    } <= counted, counted
    rule = next(d for a, _e, d in after.answers["hub_get_rule"] if a == {"app_id": h.rule})
    assert rule["spec"]["triggers"][0]["device_id"] == OUTSIDE  # the shape stays readable
    assert rule["spec"]["actions"][0]["device_ids"] == []
    assert any(OUTSIDE in line for line in rule["rule_text"]), rule["rule_text"]

    # the diagnostics download leaves them out of the audit trail too
    diagnostics = await async_get_config_entry_diagnostics(hass, entry)
    assert leaks(diagnostics["audit_recent"], outside) == []
    assert any(r.get(OUTSIDE_COUNT) for r in diagnostics["audit_recent"])


async def test_a_device_shows_only_its_allowed_parent_and_children(
    hass: HomeAssistant, entry: MockConfigEntry, mcp: Mcp, hub: HubEmulator
) -> None:
    parent = hub.find_device("Basement Double Plug")
    children = [str(hub.find_device(label)["id"]) for label in ("Dehumidifier", "Chest Freezer")]
    parent_id = str(parent["id"])
    listed = await mcp.ok("hub_list_devices", {"text": parent_id})
    assert sorted(listed["devices"][0]["child_ids"]) == sorted(children)  # the path shows them
    detail = await mcp.ok("hub_get_device", {"device_id": children[0]})
    assert detail["device"]["parent_id"] == parent_id

    hass.config_entries.async_update_entry(
        entry, options={OPT_ALLOWED_DEVICES: [parent_id, children[0]]}
    )
    listed = await mcp.ok("hub_list_devices", {"text": parent_id})
    assert listed["devices"][0]["child_ids"] == [children[0]]
    detail = await mcp.ok("hub_get_device", {"device_id": parent_id})
    assert detail["device"]["child_ids"] == [children[0]]
    assert detail[OUTSIDE_COUNT] == 1
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [children[0]]})
    detail = await mcp.ok("hub_get_device", {"device_id": children[0]})
    assert detail["device"]["parent_id"] == OUTSIDE
    listed = await mcp.ok("hub_list_devices", {})
    assert [d["device_id"] for d in listed["devices"]] == [children[0]]
    assert listed["devices"][0]["parent_id"] == OUTSIDE


# ------------------------------------------------------------------ the screen itself


def _screen(allowed: set[str], labels: dict[str, str]) -> DeviceScreen:
    screen = DeviceScreen(allowed.__contains__)
    screen.learn(labels)
    return screen


def test_screen_without_an_allowlist_changes_nothing() -> None:
    screen = DeviceScreen()
    value = {"device_id": "28", "text": "Lock: Front Door Lock", "devices": [{"id": 28}]}
    assert screen(value) is value and screen.text("Front Door Lock") == "Front Door Lock"
    assert screen.answer(dict(value)) == value  # no count either


def test_screen_shapes() -> None:
    labels = {"28": "Back Door Lock", "31": "Back Door", "6": "Kitchen Light", "191": "Front"}
    screen = _screen({"6", "31"}, labels)
    got = screen.answer(
        {
            "device_id": 28,
            "device_ids": ["6", "28"],
            "deviceIdsForDeviceList": "6,28",
            "devices": [{"id": 28, "name": "x"}, {"id": 6}, 191, "6"],
            "inactive_devices": [{"id": "191", "name": "Front"}],
            "device_count": 28,  # a count, not an id
            "checked_devices": 191,
            "input": {"name": "locks", "type": "capability.lock", "value": "28"},
            "settings": {"locks": "6,28", "delay": "28", "modes": ["1"]},
            "text": "Lock: Back Door Lock; Back Door open; Back Doorbell; Front-Door",
            "nodeId": 28,  # a Z-Wave node number is not a device id
        }
    )
    assert got == {
        "device_id": OUTSIDE,
        "device_ids": ["6"],
        "deviceIdsForDeviceList": "6",
        "devices": [{"id": 6}, "6"],
        "inactive_devices": [],
        "device_count": 28,
        "checked_devices": 191,
        "input": {"name": "locks", "type": "capability.lock", "value": OUTSIDE},
        # the typed input names the device setting; other settings stay as they are
        "settings": {"locks": "6", "delay": "28", "modes": ["1"]},
        "text": f"Lock: {OUTSIDE}; Back Door open; Back Doorbell; {OUTSIDE}-Door",
        "nodeId": 28,
        OUTSIDE_COUNT: 2,
    }


def test_screen_keyed_maps_and_untyped_settings() -> None:
    screen = _screen({"6"}, {"6": "Kitchen Light", "28": "Back Door Lock"})
    state = {"capturedStates": {"28": {"lock": "locked"}, "6": {"switch": "off"}}}
    assert screen(state, keyed_maps=True) == {"capturedStates": {"6": {"switch": "off"}}}
    assert screen(state) == state  # only where a map keyed by device is expected
    # settings with no types known: values made only of the hub's device ids
    settings = {"settings": {"tDev1": "28", "scene": "6,28", "minutes": 28, "level": "99"}}
    assert screen(settings) == {
        "settings": {"tDev1": OUTSIDE, "scene": "6", "minutes": 28, "level": "99"}
    }
    assert screen.hidden == {"28"}
    # rule specs and Visual Rule nodes keep devices under keys of their own
    spec = {"capture": ["6", "28"], "locks": [28], "deviceIds": [28]}
    assert screen(spec, id_keys=("capture", "locks")) == {
        "capture": ["6"],
        "locks": [],
        "deviceIds": [],
    }
