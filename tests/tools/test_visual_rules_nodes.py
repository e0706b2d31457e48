"""Visual Rule nodes: the classic schema checked before any request, and rule health.

Node shapes as the hub UI's builder saves them (docs/visual-rules.md): a refusal names the
node (``then_nodes[0].switches[0]``) and sends nothing; a valid rule reads back as stored.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.managers.apps.visual_nodes import (
    ACTIONS,
    TRIGGERS,
    check_nodes,
    node_problems,
)
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH

from ..conftest import ToolCaller, ok, refused

MOTION_STARTS = "Motion starts"


def dev(hub: HubEmulator, label: str) -> int:
    return int(hub.find_device(label)["id"])


def motion(device_id: int) -> dict[str, Any]:
    return {
        "triggerType": "motion",
        "motionSensors": [device_id],
        "motionSensorEvent": MOTION_STARTS,
    }


def turn_on(device_id: int) -> dict[str, Any]:
    return {"actionType": "turnOn", "switches": [device_id]}


async def refused_unsent(
    call_tool: ToolCaller, hub: HubEmulator, args: dict[str, Any], code: str = "invalid_request"
) -> dict[str, Any]:
    """The create is refused with ``code`` and nothing is written to the hub."""
    before, rules = len(hub.requests), dict(hub.state.dev.vrb)
    data = await refused(call_tool, "hub_create_visual_rule", args, code)
    writes = [p for _m, p in hub.requests[before:] if "ruleBuilder" in p or "create" in p]
    assert writes == [] and hub.state.dev.vrb == rules
    return data


def porch_rule(hub: HubEmulator, **changes: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "name": "Porch",
        "when_nodes": [motion(dev(hub, "Front Porch Motion"))],
        "then_nodes": [turn_on(dev(hub, "Porch Light"))],
    }
    args.update(changes)
    return args


async def test_unknown_node_type_is_refused_naming_the_known_ones(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev(hub, "Porch Light")
    data = await refused_unsent(
        call_tool, hub, porch_rule(hub, then_nodes=[turn_on(light), {"actionType": "time"}])
    )
    assert data["message"].startswith("then_nodes[1].actionType: unknown node type 'time'")
    assert "turnOn" in data["hint"] and "wait" in data["hint"]
    # a trigger type in the then list is unknown there, an action in the when list too
    data = await refused_unsent(
        call_tool, hub, porch_rule(hub, when_nodes=[{"triggerType": "turnOn"}])
    )
    assert "when_nodes[0].triggerType: unknown node type 'turnOn'" in data["message"]
    assert "motion" in data["hint"] and "timeIsBetween" in data["hint"]


async def test_missing_keys_are_refused_with_the_fix(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    sensor = dev(hub, "Front Porch Motion")
    no_event = {"triggerType": "motion", "motionSensors": [sensor]}
    data = await refused_unsent(call_tool, hub, porch_rule(hub, when_nodes=[no_event]))
    assert data["message"].startswith("when_nodes[0].motionSensorEvent: missing")
    assert MOTION_STARTS in data["hint"]
    no_devices = {"actionType": "turnOn"}
    data = await refused_unsent(call_tool, hub, porch_rule(hub, then_nodes=[no_devices]))
    assert data["message"].startswith("then_nodes[0].switches: needs device ids")
    wait = {"actionType": "wait", "minutes": 5}
    data = await refused_unsent(call_tool, hub, porch_rule(hub, else_nodes=[wait]))
    assert data["message"].startswith("else_nodes[0].seconds: missing")
    data = await refused_unsent(call_tool, hub, porch_rule(hub, when_nodes=[]))
    assert "needs at least one trigger" in data["message"]
    data = await refused_unsent(call_tool, hub, porch_rule(hub, then_nodes=[]))
    assert "needs at least one action" in data["message"]


async def test_unknown_device_is_refused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await refused_unsent(
        call_tool, hub, porch_rule(hub, then_nodes=[turn_on(99999)]), "not_found"
    )
    assert data["message"].startswith("then_nodes[0].switches[0]: no device 99999")
    assert "hub_list_devices" in data["hint"]


async def test_device_outside_the_allowlist_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    sensor, light = dev(hub, "Front Porch Motion"), dev(hub, "Porch Light")
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [str(sensor)]})
    # the per-type list alone (no deviceIds) still counts
    data = await refused_unsent(call_tool, hub, porch_rule(hub), "device_not_allowed")
    assert data["message"].startswith(f"then_nodes[0].switches[0]: device {light} is outside")


async def test_attribute_or_command_not_declared_is_refused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light, leak = dev(hub, "Porch Light"), dev(hub, "Kitchen Sink Leak")
    data = await refused_unsent(call_tool, hub, porch_rule(hub, when_nodes=[motion(light)]))
    assert data["message"].startswith(
        f"when_nodes[0].motionSensors[0]: device {light} (Porch Light) has no 'motion'"
    )
    data = await refused_unsent(call_tool, hub, porch_rule(hub, then_nodes=[turn_on(leak)]))
    assert data["message"].startswith(f"then_nodes[0].switches[0]: device {leak}")
    assert "has no 'on' command" in data["message"]
    mismatch = {**turn_on(light), "deviceIds": [leak]}
    data = await refused_unsent(call_tool, hub, porch_rule(hub, then_nodes=[mismatch]))
    assert data["message"].startswith("then_nodes[0].deviceIds: does not match switches")


async def test_sensitive_action_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lock = dev(hub, "Front Door Lock")
    args = porch_rule(hub, then_nodes=[{"actionType": "unlock", "locks": [lock]}])
    data = await refused_unsent(call_tool, hub, args, "confirmation_required")
    assert "then_nodes[0].locks[0] (Front Door Lock)" in data["message"]
    created = await ok(call_tool, "hub_create_visual_rule", {**args, "confirm": True})
    stored = hub.state.dev.vrb[int(created["app_id"])]["thenNodes"][0]
    assert stored["locks"] == [lock] and stored["deviceIds"] == [lock]
    # reading a lock (a trigger) commands nothing: no confirm needed
    locked = {"triggerType": "lock", "locks": [lock], "lockEvent": "Unlocked"}
    await ok(call_tool, "hub_create_visual_rule", porch_rule(hub, when_nodes=[locked]))


async def test_valid_rule_is_created_and_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    sensor, light = dev(hub, "Front Porch Motion"), dev(hub, "Porch Light")
    after_dark = {"triggerType": "timeIsBetween", "triggerCondition": "sunsetToSunrise"}
    wait = {"actionType": "wait", "minutes": 5, "seconds": 0}
    off = {"actionType": "turnOff", "switches": [str(light)], "rect": {"x": 1}}
    args = porch_rule(
        hub, when_nodes=[motion(sensor), after_dark], then_nodes=[turn_on(light), wait, off]
    )
    created = await ok(call_tool, "hub_create_visual_rule", args)
    got = await ok(call_tool, "hub_get_visual_rule", {"app_id": created["app_id"]})
    definition = got["definition"]
    assert got["format"] == "classic" and definition["name"] == "Porch"
    when, then = definition["whenNodes"], definition["thenNodes"]
    assert [n["triggerType"] for n in when] == ["motion", "timeIsBetween"]
    assert when[0]["deviceIds"] == [sensor] and when[0]["type"] == "when"
    assert [n["actionType"] for n in then] == ["turnOn", "wait", "turnOff"]
    # ids as numbers, deviceIds mirrored, the builder's own drawing keys dropped
    assert then[2]["switches"] == [light] and then[2]["deviceIds"] == [light]
    assert "rect" not in then[2] and [n["index"] for n in then] == [0, 1, 2]
    health = await ok(call_tool, "hub_get_rule_health", {"app_id": created["app_id"]})
    assert health["healthy"] is True and health["node_problems"] == []
    # an update's new nodes are checked the same way
    data = await refused(
        call_tool,
        "hub_update_visual_rule",
        {"app_id": created["app_id"], "then_nodes": [{"actionType": "time"}]},
    )
    assert data["message"].startswith("then_nodes[0].actionType: unknown node type")


async def test_health_flags_empty_unknown_and_unresolved_rules(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    porch = await ok(call_tool, "hub_get_rule_health", {"app_id": VRB_PORCH})
    assert porch["healthy"] is True, porch
    rule = hub.state.dev.vrb[VRB_PORCH]
    light = rule["thenNodes"][0]["switches"][0]
    hub.state.devices.pop(light)  # deleted behind the rule's back
    gone = await ok(call_tool, "hub_get_rule_health", {"app_id": VRB_PORCH})
    assert gone["healthy"] is False
    assert gone["node_problems"] == [f"then_nodes[0].switches[0]: device {light} no longer exists"]
    rule.update(whenNodes=[], thenNodes=[{"actionType": "time"}])
    empty = await ok(call_tool, "hub_get_rule_health", {"app_id": VRB_PORCH})
    assert empty["healthy"] is False
    problems = empty["node_problems"]
    assert problems[0].startswith("no trigger") and problems[1].startswith("no action")
    assert "then_nodes[0]: unknown node type 'time'" in problems


def test_schema_covers_the_builder_lists() -> None:
    # the hub UI's builder lists 18 trigger and 24 action types (vue-hub2.min.js)
    assert len(TRIGGERS) == 18 and len(ACTIONS) == 24
    assert {"timeOfDay", "sunriseSunset", "systemMode", "button"} <= set(TRIGGERS)
    assert {"wait", "cancelWait", "setMode", "pushButton"} <= set(ACTIONS)
    push = {"actionType": "pushButton", "button": "7", "buttonAction": "Push", "buttonIndex": 1}
    checked = check_nodes({"then_nodes": [push]})
    assert [u.path for u in checked.uses] == ["then_nodes[0].button"]
    node = checked.lists["then_nodes"][0]
    assert node["button"] == 7 and node["deviceIds"] == [7] and node["type"] == "then"
    assert node_problems({"whenNodes": [{"triggerType": "sample"}], "thenNodes": []})[:2] == [
        "no trigger: whenNodes holds no trigger node, so the rule never runs",
        "no action: thenNodes holds no action node, so the rule does nothing",
    ]


async def test_the_guide_holds_the_node_schema(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    guide = await ok(call_tool, "hub_get_tool_guide", {"section": "visual_rules"})
    text = str(guide)
    for name in (*TRIGGERS, *ACTIONS):
        assert name in text, name


async def test_health_reports_a_graph_rules_validation_errors(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    new_id = max(hub.state.apps) + 1
    porch = hub.state.apps[VRB_PORCH]
    hub.state.apps[new_id] = replace(porch, id=new_id, label="Garage graph rule")
    graph = {"name": "Garage graph rule", "rulePaused": False, "ruleJson": '{"nodes": []}'}
    hub.state.dev.vrb_graph[new_id] = {**graph, "validationErrors": ["Node 3 has no device"]}
    health = await ok(call_tool, "hub_get_rule_health", {"app_id": str(new_id)})
    assert health["healthy"] is False
    assert health["validation_errors"] == ["Node 3 has no device"]
    assert health["node_problems"] == []  # the hub validates graph rules itself
    hub.state.dev.vrb_graph[new_id]["validationErrors"] = []
    health = await ok(call_tool, "hub_get_rule_health", {"app_id": str(new_id)})
    assert health["healthy"] is True, health
    got = await ok(call_tool, "hub_get_visual_rule", {"app_id": str(new_id)})
    assert got["format"] == "graph" and got["definition"]["ruleJson"] == '{"nodes": []}'
