"""The Visual Rules manager (``managers/apps/visual_rules.py``) on its own, no hass: read,
create, update (merged into the stored definition) and delete a classic Visual Rule, and the
writes the hub answers but does not keep, over the emulated hub.

Moved from tests/tools/test_apps.py (the rule logic is the manager's; the tools' delete
confirmation, the "nothing to change" refusal and the summaries stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH
from hubitat_emulator.seed import RULE_MOTION


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
