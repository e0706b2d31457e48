"""Visual Rule nodes through the tools: hub_create_visual_rule, hub_get_visual_rule,
hub_update_visual_rule, hub_get_rule_health and the tool guide's node schema.

The tools' part is here: a refusal as the model sees it (the node named, the fix in the hint,
the hint naming hub_list_devices for an unknown device), the device allowlist, the
confirmation a lock action needs, the answers of a create, a read and rule health, and the
guide holding every node type. The node schema's refusals, a valid rule's stored shape and
the schema's lists are tested without hass in tests/managers/test_visual_nodes.py; the
devices a node names and rule health in tests/managers/test_visual_rules.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.managers.apps.visual_nodes import ACTIONS, TRIGGERS
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH

from ..conftest import ToolCaller, ok, refused
from ..helpers.visual_nodes import MOTION_STARTS, dev, motion, turn_on


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


async def test_a_node_refusal_names_the_node_and_the_fix(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The refusal as the model sees it (every refusal of the node schema:
    tests/managers/test_visual_nodes.py)."""
    light = dev(hub, "Porch Light")
    data = await refused_unsent(
        call_tool, hub, porch_rule(hub, then_nodes=[turn_on(light), {"actionType": "time"}])
    )
    assert data["message"].startswith("then_nodes[1].actionType: unknown node type 'time'")
    assert "turnOn" in data["hint"] and "wait" in data["hint"]
    sensor = dev(hub, "Front Porch Motion")
    no_event = {"triggerType": "motion", "motionSensors": [sensor]}
    data = await refused_unsent(call_tool, hub, porch_rule(hub, when_nodes=[no_event]))
    assert data["message"].startswith("when_nodes[0].motionSensorEvent: missing")
    assert MOTION_STARTS in data["hint"]


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


async def test_valid_rule_is_created_read_and_healthy(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' answers (the stored shape, read back: tests/managers/test_visual_nodes.py)."""
    sensor, light = dev(hub, "Front Porch Motion"), dev(hub, "Porch Light")
    off = {"actionType": "turnOff", "switches": [str(light)], "rect": {"x": 1}}
    args = porch_rule(hub, when_nodes=[motion(sensor)], then_nodes=[turn_on(light), off])
    created = await ok(call_tool, "hub_create_visual_rule", args)
    assert created["summary"] == f"Created Visual Rule {created['app_id']} (Porch)"
    got = await ok(call_tool, "hub_get_visual_rule", {"app_id": created["app_id"]})
    definition = got["definition"]
    assert got["format"] == "classic" and definition["name"] == "Porch"
    then = definition["thenNodes"]
    assert then[1]["switches"] == [light] and then[1]["deviceIds"] == [light]
    assert "rect" not in then[1]
    health = await ok(call_tool, "hub_get_rule_health", {"app_id": created["app_id"]})
    assert health["healthy"] is True and health["node_problems"] == []
    # an update's new nodes are checked the same way
    data = await refused(
        call_tool,
        "hub_update_visual_rule",
        {"app_id": created["app_id"], "then_nodes": [{"actionType": "time"}]},
    )
    assert data["message"].startswith("then_nodes[0].actionType: unknown node type")


async def test_health_answers_node_problems_and_validation_errors(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """hub_get_rule_health's answer for a classic and a graph rule (what each finds:
    tests/managers/test_visual_rules.py)."""
    hub.state.dev.vrb[VRB_PORCH].update(whenNodes=[], thenNodes=[{"actionType": "time"}])
    empty = await ok(call_tool, "hub_get_rule_health", {"app_id": VRB_PORCH})
    assert empty["healthy"] is False and empty["engine"] == "visual"
    assert "then_nodes[0]: unknown node type 'time'" in empty["node_problems"]
    new_id = max(hub.state.apps) + 1
    porch = hub.state.apps[VRB_PORCH]
    hub.state.apps[new_id] = replace(porch, id=new_id, label="Garage graph rule")
    graph = {"name": "Garage graph rule", "rulePaused": False, "ruleJson": '{"nodes": []}'}
    hub.state.dev.vrb_graph[new_id] = {**graph, "validationErrors": ["Node 3 has no device"]}
    health = await ok(call_tool, "hub_get_rule_health", {"app_id": str(new_id)})
    assert health["healthy"] is False
    assert health["validation_errors"] == ["Node 3 has no device"]
    assert health["node_problems"] == []


async def test_the_guide_holds_the_node_schema(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    guide = await ok(call_tool, "hub_get_tool_guide", {"section": "visual_rules"})
    text = str(guide)
    for name in (*TRIGGERS, *ACTIONS):
        assert name in text, name
