"""The porch visual rule as a graph, a graph rule on the emulated hub and readers of them, for
managers/test_visual_graph.py and tools/test_visual_graph.py.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH


def dev(emu: HubEmulator, label: str) -> int:
    return int(emu.find_device(label)["id"])


def porch_graph(emu: HubEmulator, *, dark_only: bool = False) -> dict[str, Any]:
    """Motion on the porch turns the porch light on (between sunset and sunrise)."""
    motion = dev(emu, "Front Porch Motion")
    light = dev(emu, "Porch Light")
    nodes: list[dict[str, Any]] = [
        {"id": "trigger-1", "type": "trigger", "triggerType": "motion",
         "motionSensors": [motion], "motionSensorEvent": "Motion starts"},
        {"id": "action-1", "type": "action", "actionType": "turnOn", "deviceIds": [light]},
    ]  # fmt: skip
    edges = [{"from": "trigger-1", "to": "action-1", "port": "next"}]
    if dark_only:
        nodes.append(
            {"id": "condition-1", "type": "condition", "triggerType": "timeIsBetween",
             "condition": "sunsetToSunrise"}
        )  # fmt: skip
        edges = [
            {"from": "trigger-1", "to": "condition-1"},
            {"from": "condition-1", "to": "action-1", "port": "true"},
        ]
    return {"nodes": nodes, "edges": edges}


def paused(emu: HubEmulator, rule: int) -> Any:
    """The stored graph rule's pause state, read afresh."""
    return emu.state.dev.vrb_graph[rule]["rulePaused"]


def graph_rule(emu: HubEmulator) -> int:
    """A graph rule installed next to the seeded classic porch rule."""
    new_id = max(emu.state.apps) + 1
    emu.state.apps[new_id] = replace(emu.state.apps[VRB_PORCH], id=new_id, label="Graph porch")
    text = json.dumps({"version": 1, **porch_graph(emu)})
    emu.state.dev.vrb_graph[new_id] = {
        "name": "Graph porch", "rulePaused": False, "ruleJson": text, "validationErrors": [],
    }  # fmt: skip
    return new_id
