"""hub_update_rule's own part of an in-place edit: its summary and answer (the same app id,
edited_in_place, the edits, the item backup), a refusal as an error result with the hints that
name the page to edit by hand and the tool for it, and the rule read back with hub_get_rule.

The in-place update itself (only the parts that differ removed, added or moved, the rest
untouched byte for byte, the unknown parts kept or the change refused with nothing sent, a
disabled rule staying disabled, the owner's open action editor, a failure and a cancel putting
the rule back) is tested without hass in tests/managers/test_rule_inplace.py."""

from __future__ import annotations

import copy
from typing import Any

import aiohttp
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import RULE_GOODNIGHT

from ..conftest import ToolCaller
from ..helpers.rule_inplace import _new, _old
from ..home_util import dev_id
from ..rm_util import Wizard


async def _made(call_tool: ToolCaller, spec: dict[str, Any]) -> str:
    made = await call_tool("hub_create_rule", {"rule": spec})
    assert not made.error, made.data
    return str(made.data["app_id"])


async def test_an_update_is_made_in_place_and_the_rule_keeps_its_app_id(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    rules = set(hub.state.apps)
    new = _new(hub)
    updated = await call_tool("hub_update_rule", {"app_id": app_id, "rule": new})
    assert not updated.error, updated.data
    data = updated.data
    assert data["summary"] == f"Updated rule {app_id} in place"
    assert data["app_id"] == app_id and data["edited_in_place"] is True, data
    assert data["edits"]["triggers_added"] == 1 and data["edits"]["name"] == "changed"
    assert data["item_backup"]["backup"].startswith(f"hdt-backup_installedapp-{app_id}_")
    assert set(hub.state.apps) == rules
    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [] and got.data["paused"] is False
    assert {k: got.data["spec"][k] for k in new} == new


async def test_pages_that_lack_the_delete_control_get_a_refusal_not_a_new_rule(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    app_id = await _made(call_tool, _old(hub))
    rules = set(hub.state.apps)
    hub.rule_machine.hidden_fields = ["trashAll"]  # a firmware without the Delete button
    refused = await call_tool("hub_update_rule", {"app_id": app_id, "rule": _new(hub)})
    hub.rule_machine.hidden_fields = []
    assert refused.error and refused.data["error"] == "not_supported", refused.data
    assert "trashAll" in refused.data["message"]
    assert "hub_update_app_settings" in refused.data["hint"]
    assert set(hub.state.apps) == rules


async def test_a_change_that_needs_an_unknown_part_removed_names_the_page_to_edit(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
    app_id = await _made(
        call_tool,
        {
            "name": "Hall helper",
            "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
            "actions": [{"command": "on", "device_ids": [light]}, {"log": "hello"}],
        },
    )
    # a private boolean set on this rule and on another, added through the rule's raw pages:
    # the decoder reads it as a placeholder
    async with aiohttp.ClientSession(base_url=hub.url) as session:
        w = Wizard(session, int(app_id))
        await w.add_action(
            "rulesActs",
            "getSetPrivateBoolean",
            ("pvRuleType.<N>", "Rule Machine"),
            ("pvTF.<N>", False),
            ("privateT.<N>", ["*", str(RULE_GOODNIGHT)]),
        )
        await w.click(None, "updateRule")
    model = hub.rule_machine.rules[int(app_id)]
    before = copy.deepcopy(model.settings)
    patch = [{"op": "remove", "path": "/actions/2"}]
    refused = await call_tool("hub_update_rule", {"app_id": app_id, "patch": patch})
    assert refused.error and refused.data["error"] == "not_supported", refused.data
    assert "rule.actions[2]" in refused.data["message"]
    assert "page=selectActions" in refused.data["hint"], refused.data
    assert model.settings == before
