"""hub_create_rule, hub_get_rule and hub_list_rules on a rule with actions on rules and on the
hub (pausing rules, a private boolean, HSM, Exit Rule and a comment): the confirmation refusal
as an error result, the dry run's and the build's summaries, the rule read back through the
tool and, once it ran, the private boolean the rule list shows.

The rule authoring itself (each of these actions and Wait until, ELSE-IF, Repeat n times,
capture and restore, disabling devices, File Manager writes, delays per mode and modes named in
another case: checked, built, read back and run; the refusals) is tested without hass in
tests/managers/test_rule_hub_actions.py."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..helpers.rule_hub_actions import _night_guard
from ..home_util import dev_id


async def test_rule_and_hub_actions_through_the_tools(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, light = dev_id(hub, "Office Motion"), dev_id(hub, "Office Light")
    follower = await call_tool(
        "hub_create_rule",
        {
            "rule": {
                "name": "Office light follower",
                "triggers": [{"device_id": motion, "attribute": "motion", "is": "inactive"}],
                "actions": [{"command": "off", "device_ids": [light]}],
            }
        },
    )
    assert not follower.error, follower.data
    other = str(follower.data["app_id"])
    spec = _night_guard(motion, other)
    refused = await call_tool("hub_create_rule", {"rule": spec})
    assert refused.error and refused.data["error"] == "confirmation_required", refused.data
    assert "HSM: armNight" in refused.data["message"]
    dry = await call_tool("hub_create_rule", {"rule": spec, "validate_only": True, "confirm": True})
    assert not dry.error, dry.data
    assert dry.data["summary"] == "Spec is valid; nothing was sent" and dry.data["sent"] is False
    assert "Set HSM: armNight" in str(dry.data["rule_text"])
    made = await call_tool("hub_create_rule", {"rule": spec, "confirm": True})
    assert not made.error, made.data
    app_id = str(made.data["app_id"])
    assert made.data["summary"] == f"Created rule {app_id} (Night guard)"
    assert made.data["verified"] is True and made.data["rule_text"]

    got = await call_tool("hub_get_rule", {"app_id": app_id})
    assert not got.error, got.data
    assert got.data["undecompiled"] == [] and got.data["spec"]["actions"] == spec["actions"]
    assert "Rule Boolean False: This Rule" in got.data["rule_text"]

    hub.set_mode("Day")
    hub.set_device_attribute(int(motion), "motion", "inactive")
    hub.set_device_attribute(int(motion), "motion", "active")
    await hub.clock.settle()
    listed = await call_tool("hub_list_rules", {"engine": "rule_machine"})
    assert not listed.error, listed.data
    guard = next(r for r in listed.data["rules"] if str(r["app_id"]) == app_id)
    assert guard.get("private_boolean") is False, guard
