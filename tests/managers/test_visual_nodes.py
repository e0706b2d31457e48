"""The classic Visual Rule node schema (``managers/apps/visual_nodes.py``) on its own and
through the Visual Rules manager, no hass: node lists checked before any request (a refusal
names the node, ``then_nodes[0].switches``, gives the fix and sends nothing), a valid rule
written in the builder's shape (ids as numbers, ``deviceIds`` mirrored, drawing keys dropped)
and read back as stored, an update's new nodes checked the same way, and the schema's lists.

Node shapes as the hub UI's builder saves them (docs/visual-rules.md).

Moved from tests/tools/test_visual_rules_nodes.py (the tools' answers, the hint naming
hub_list_devices, the device allowlist, the confirmation a lock action needs and the tool
guide's node schema stay there; the devices a node names and rule health are tested in
tests/managers/test_visual_rules.py)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.apps.visual_nodes import (
    ACTIONS,
    TRIGGERS,
    check_nodes,
    node_problems,
)
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..helpers.visual_nodes import MOTION_STARTS, dev, motion, turn_on
from .visual_rules_util import refused_unsent


def porch_rule(emu: HubEmulator, **changes: Any) -> dict[str, Any]:
    """A new classic rule's body as the create tool builds it (wire keys: whenNodes...)."""
    body: dict[str, Any] = {
        "rulePaused": False,
        "whenNodes": [motion(dev(emu, "Front Porch Motion"))],
        "thenNodes": [turn_on(dev(emu, "Porch Light"))],
        "elseNodes": [],
        "name": "Porch",
    }
    body.update(changes)
    return body


async def test_unknown_node_type_is_refused_naming_the_known_ones(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    light = dev(emu, "Porch Light")
    err = await refused_unsent(
        emu, manager_hub, porch_rule(emu, thenNodes=[turn_on(light), {"actionType": "time"}])
    )
    assert str(err).startswith("then_nodes[1].actionType: unknown node type 'time'")
    assert err.hint is not None and "turnOn" in err.hint and "wait" in err.hint
    # a trigger type in the then list is unknown there, an action in the when list too
    err = await refused_unsent(
        emu, manager_hub, porch_rule(emu, whenNodes=[{"triggerType": "turnOn"}])
    )
    assert "when_nodes[0].triggerType: unknown node type 'turnOn'" in str(err)
    assert err.hint is not None and "motion" in err.hint and "timeIsBetween" in err.hint


async def test_missing_keys_are_refused_with_the_fix(emu: HubEmulator, manager_hub: Hub) -> None:
    sensor = dev(emu, "Front Porch Motion")
    no_event = {"triggerType": "motion", "motionSensors": [sensor]}
    err = await refused_unsent(emu, manager_hub, porch_rule(emu, whenNodes=[no_event]))
    assert str(err).startswith("when_nodes[0].motionSensorEvent: missing")
    assert err.hint is not None and MOTION_STARTS in err.hint
    no_devices = {"actionType": "turnOn"}
    err = await refused_unsent(emu, manager_hub, porch_rule(emu, thenNodes=[no_devices]))
    assert str(err).startswith("then_nodes[0].switches: needs device ids")
    wait = {"actionType": "wait", "minutes": 5}
    err = await refused_unsent(emu, manager_hub, porch_rule(emu, elseNodes=[wait]))
    assert str(err).startswith("else_nodes[0].seconds: missing")
    err = await refused_unsent(emu, manager_hub, porch_rule(emu, whenNodes=[]))
    assert "needs at least one trigger" in str(err)
    err = await refused_unsent(emu, manager_hub, porch_rule(emu, thenNodes=[]))
    assert "needs at least one action" in str(err)


async def test_valid_rule_is_created_and_read_back(emu: HubEmulator, manager_hub: Hub) -> None:
    visual = manager_hub.rules.visual
    sensor, light = dev(emu, "Front Porch Motion"), dev(emu, "Porch Light")
    after_dark = {"triggerType": "timeIsBetween", "triggerCondition": "sunsetToSunrise"}
    wait = {"actionType": "wait", "minutes": 5, "seconds": 0}
    off = {"actionType": "turnOff", "switches": [str(light)], "rect": {"x": 1}}
    body = porch_rule(
        emu, whenNodes=[motion(sensor), after_dark], thenNodes=[turn_on(light), wait, off]
    )
    created = await visual.create(body)
    app_id = created["app_id"]
    assert created["name"] == "Porch"
    got = await visual.get(app_id)
    definition = got["definition"]
    assert got["format"] == "classic" and definition["name"] == "Porch"
    assert definition == emu.state.dev.vrb[int(app_id)]  # read back as stored
    when, then = definition["whenNodes"], definition["thenNodes"]
    assert [n["triggerType"] for n in when] == ["motion", "timeIsBetween"]
    assert when[0]["deviceIds"] == [sensor] and when[0]["type"] == "when"
    assert [n["actionType"] for n in then] == ["turnOn", "wait", "turnOff"]
    # ids as numbers, deviceIds mirrored, the builder's own drawing keys dropped
    assert then[2]["switches"] == [light] and then[2]["deviceIds"] == [light]
    assert "rect" not in then[2] and [n["index"] for n in then] == [0, 1, 2]
    health = await manager_hub.rules.rule_health(app_id)
    assert health["healthy"] is True and health["node_problems"] == []
    # an update's new nodes are checked the same way, before anything is sent
    before = len(emu.requests)
    with pytest.raises(ToolError) as bad:
        await visual.update(app_id, {"thenNodes": [{"actionType": "time"}]})
    assert str(bad.value).startswith("then_nodes[0].actionType: unknown node type")
    assert [p for m, p in emu.requests[before:] if m == "POST"] == []
    assert emu.state.dev.vrb[int(app_id)]["thenNodes"] == then


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
