"""The Visual Rules manager (``managers/apps/visual_rules.py``) on its own, no hass: read,
create, update (merged into the stored definition) and delete a classic Visual Rule, and the
writes the hub answers but does not keep, over the emulated hub; the devices a node names
checked before anything is sent (they exist and declare the attribute the node reads or the
command it sends); and rule health (a classic rule with no trigger, no action, an unknown
node or a device gone; a graph rule's own validation errors).

Moved from tests/tools/test_apps.py (the rule logic is the manager's; the tools' delete
confirmation, the "nothing to change" refusal and the summaries stay there) and from
tests/tools/test_visual_rules_nodes.py (the tools' answers, the hint naming hub_list_devices,
the device allowlist and the confirmation a lock action needs stay there; the node schema is
tested in tests/managers/test_visual_nodes.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.seed import RULE_MOTION

from .visual_rules_util import refused_unsent


def _classic(name: str, when: list[Any], then: list[Any]) -> dict[str, Any]:
    """A new classic rule's body as the create tool builds it from its arguments."""
    return {
        "rulePaused": False,
        "whenNodes": when,
        "thenNodes": then,
        "elseNodes": [],
        "name": name,
    }


async def test_visual_rules_crud(emu: HubEmulator, manager_hub: Hub) -> None:
    visual = manager_hub.rules.visual
    got = await visual.get(str(VRB_PORCH))
    assert got["format"] == "classic"
    nodes = got["definition"]
    created = await visual.create(_classic("Copy", nodes["whenNodes"], nodes["thenNodes"]))
    new_id = int(created["app_id"])
    assert created["name"] == "Copy"
    assert emu.state.dev.vrb[new_id]["thenNodes"] == nodes["thenNodes"]
    updated = await visual.update(str(new_id), {"name": "Renamed"})
    assert updated["name"] == "Renamed" and updated["item_backup"]
    assert emu.state.dev.vrb[new_id]["name"] == "Renamed"
    assert emu.state.dev.vrb[new_id]["thenNodes"] == nodes["thenNodes"]  # merged
    with pytest.raises(ToolError, match="not a Visual Rule"):
        await visual.get(str(RULE_MOTION))
    deleted = await visual.delete(str(new_id))
    assert deleted["definition"]["name"] == "Renamed"
    assert new_id not in emu.state.apps


async def test_a_refused_definition_is_cleaned_up(emu: HubEmulator, manager_hub: Hub) -> None:
    visual = manager_hub.rules.visual
    before = set(emu.state.apps)
    sent = len(emu.requests)
    # malformed nodes are refused before the first request, naming the node
    with pytest.raises(ToolError) as bad:
        await visual.create(_classic("Bad", ["x"], []))
    assert bad.value.code == "invalid_request" and "when_nodes[0]" in str(bad.value)
    assert emu.requests[sent:] == [] and set(emu.state.apps) == before
    # a save the hub answers but does not keep: the new empty rule is removed again
    emu.hubvar_routes.fallback.drop_rule_writes = True
    rule = (await visual.get(str(VRB_PORCH)))["definition"]
    with pytest.raises(HubBadResponseError, match="does not hold"):
        await visual.create(_classic("Bad", rule["whenNodes"], rule["thenNodes"]))
    assert set(emu.state.apps) == before
    assert any("/forcedelete/" in p for _m, p in emu.requests)


async def test_an_update_the_hub_does_not_keep_is_an_error(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.hubvar_routes.fallback.drop_rule_writes = True
    with pytest.raises(HubBadResponseError, match="does not hold"):
        await manager_hub.rules.visual.update(str(VRB_PORCH), {"name": "Renamed"})
    assert emu.state.dev.vrb[VRB_PORCH]["name"] == "Porch light on motion"


# ------------------------------------------------------------- the devices a node names


def _dev(emu: HubEmulator, label: str) -> int:
    return int(emu.find_device(label)["id"])


def _porch(emu: HubEmulator, **changes: Any) -> dict[str, Any]:
    """Motion on the porch turns the porch light on, as the create tool builds it."""
    motion = {
        "triggerType": "motion",
        "motionSensors": [_dev(emu, "Front Porch Motion")],
        "motionSensorEvent": "Motion starts",
    }
    turn_on = {"actionType": "turnOn", "switches": [_dev(emu, "Porch Light")]}
    return {**_classic("Porch", [motion], [turn_on]), **changes}


async def test_unknown_device_is_refused(emu: HubEmulator, manager_hub: Hub) -> None:
    turn_on = {"actionType": "turnOn", "switches": [99999]}
    body = _porch(emu, thenNodes=[turn_on])
    err = await refused_unsent(emu, manager_hub, body, "not_found")
    assert err.subject == "device_ids"  # the tool's hint names hub_list_devices
    assert str(err).startswith("then_nodes[0].switches[0]: no device 99999")


async def test_attribute_or_command_not_declared_is_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    light, leak = _dev(emu, "Porch Light"), _dev(emu, "Kitchen Sink Leak")
    on_light = {"triggerType": "motion", "motionSensors": [light],
                "motionSensorEvent": "Motion starts"}  # fmt: skip
    err = await refused_unsent(emu, manager_hub, _porch(emu, whenNodes=[on_light]))
    assert str(err).startswith(
        f"when_nodes[0].motionSensors[0]: device {light} (Porch Light) has no 'motion'"
    )
    turn_on_leak = {"actionType": "turnOn", "switches": [leak]}
    err = await refused_unsent(emu, manager_hub, _porch(emu, thenNodes=[turn_on_leak]))
    assert str(err).startswith(f"then_nodes[0].switches[0]: device {leak}")
    assert "has no 'on' command" in str(err)
    mismatch = {"actionType": "turnOn", "switches": [light], "deviceIds": [leak]}
    err = await refused_unsent(emu, manager_hub, _porch(emu, thenNodes=[mismatch]))
    assert str(err).startswith("then_nodes[0].deviceIds: does not match switches")


# ------------------------------------------------------------------------- rule health


async def test_health_flags_empty_unknown_and_unresolved_rules(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    rules = manager_hub.rules
    porch = await rules.rule_health(str(VRB_PORCH))
    assert porch["healthy"] is True, porch
    rule = emu.state.dev.vrb[VRB_PORCH]
    light = rule["thenNodes"][0]["switches"][0]
    emu.state.devices.pop(light)  # deleted behind the rule's back
    gone = await rules.rule_health(str(VRB_PORCH))
    assert gone["healthy"] is False
    assert gone["node_problems"] == [f"then_nodes[0].switches[0]: device {light} no longer exists"]
    rule.update(whenNodes=[], thenNodes=[{"actionType": "time"}])
    empty = await rules.rule_health(str(VRB_PORCH))
    assert empty["healthy"] is False
    problems = empty["node_problems"]
    assert problems[0].startswith("no trigger") and problems[1].startswith("no action")
    assert "then_nodes[0]: unknown node type 'time'" in problems


async def test_health_reports_a_graph_rules_validation_errors(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    new_id = max(emu.state.apps) + 1
    porch = emu.state.apps[VRB_PORCH]
    emu.state.apps[new_id] = replace(porch, id=new_id, label="Garage graph rule")
    graph = {"name": "Garage graph rule", "rulePaused": False, "ruleJson": '{"nodes": []}'}
    emu.state.dev.vrb_graph[new_id] = {**graph, "validationErrors": ["Node 3 has no device"]}
    health = await manager_hub.rules.rule_health(str(new_id))
    assert health["healthy"] is False
    assert health["validation_errors"] == ["Node 3 has no device"]
    assert health["node_problems"] == []  # the hub validates graph rules itself
    emu.state.dev.vrb_graph[new_id]["validationErrors"] = []
    health = await manager_hub.rules.rule_health(str(new_id))
    assert health["healthy"] is True, health
    got = await manager_hub.rules.visual.get(str(new_id))
    assert got["format"] == "graph" and got["definition"]["ruleJson"] == '{"nodes": []}'
