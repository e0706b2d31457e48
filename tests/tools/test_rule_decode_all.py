"""hub_get_rule's answer accounts for every part a rule's page shows (each line of the hub's
rule text in the spec or quoted in ``undecompiled``), for a seeded rule with broken parts and
for a rule made with hub_create_rule; hub_get_rule_health's verdict on that seeded rule,
hub_get_app's subscriptions of the seeded rules, and hub_update_rule's refusal of a change that
would drop an unread part, with its hint naming the tool to edit it by hand.

The read itself (every seeded rule's parts, each read or listed, the broken parts kept, the
refusal with nothing sent and a change to a part read whole, a wide spec read back) is tested
without hass in tests/managers/test_rule_decode_all.py, what a page shows and the settings do
not in tests/managers/test_automation_shown.py."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator
from hubitat_emulator.seed_specs import RULE_GOODNIGHT, RULE_LEAK, RULE_MOTION

from ..conftest import ToolCaller, ok, refused
from ..helpers.rule_decode_all import assert_accounted, wide_spec_and_a_wait


async def test_a_seeded_rule_with_broken_parts_through_the_tools(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_get_rule", {"app_id": str(RULE_LEAK)})
    assert_accounted(data)
    assert data["name"] and data["app_id"] == str(RULE_LEAK)
    by_part = {u["part"]: u for u in data["undecompiled"]}
    assert by_part["actions[0]"]["text"] == "Siren: **BROKEN** Hall Siren"
    assert len(data["broken_markers"]) == 2
    health = await ok(call_tool, "hub_get_rule_health", {"app_id": str(RULE_LEAK)})
    assert health["healthy"] is False and health["compiled_broken"] is True


async def test_seeded_rules_subscribe_to_their_triggers(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    want = {RULE_MOTION: ["motion"], RULE_LEAK: ["water"], RULE_GOODNIGHT: ["mode"]}
    for app_id, subscriptions in want.items():
        app = await ok(call_tool, "hub_get_app", {"app_id": str(app_id)})
        assert app["subscriptions"] == subscriptions, app_id


async def test_a_change_that_would_drop_an_unread_part_is_refused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    # removing the restriction (no form in the spec): refused, nothing sent
    before = len(hub.requests)
    dropped = [{"op": "remove", "path": "/restrictions/0"}]
    args = {"app_id": str(RULE_GOODNIGHT), "patch": dropped, "confirm": True}
    data = await refused(call_tool, "hub_update_rule", args)
    assert data["error"] == "not_supported" and "rule.restrictions" in data["message"]
    assert "hub_update_app_settings" in data["hint"]
    assert [p for m, p in hub.requests[before:] if m != "GET"] == []
    # a change to a part read whole keeps the restriction as it is, and the app id
    patch = [{"op": "replace", "path": "/name", "value": "Goodnight 2"}]
    done = await ok(call_tool, "hub_update_rule", {**args, "patch": patch})
    assert done["app_id"] == str(RULE_GOODNIGHT) and done["edits"]["name"] == "changed"
    again = await ok(call_tool, "hub_get_rule", {"app_id": str(RULE_GOODNIGHT)})
    assert again["spec"]["name"] == "Goodnight 2"
    assert [u["part"] for u in again["undecompiled"]] == ["restrictions[0]"]


async def test_a_rule_made_with_the_tools_reads_back_every_part(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    spec = wide_spec_and_a_wait(hub)
    made = await ok(call_tool, "hub_create_rule", {"rule": spec})
    data = await ok(call_tool, "hub_get_rule", {"app_id": made["app_id"]})
    assert data["undecompiled"] == []
    assert data["spec"]["actions"] == spec["actions"]
    assert_accounted(data)
