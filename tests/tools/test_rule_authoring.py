"""hub_create_rule's own part of native Rule Machine authoring: the dry run's summary and
answer, sending nothing; a refusal as an error result (the part at fault, the code and the
hint); the device allowlist from the integration's options; the tool search finding the rule
tools for owners' sentences. ``porch_spec`` (defined with the manager tests) is imported from
here by other tests.

The authoring itself (the dry run's text and plan, the spec's shape errors, what the spec
cannot say, the checks against the hub before anything is sent, the confirm gate, the schema
and the parser agreeing) is tested without hass in tests/managers/test_rule_authoring.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..helpers.rule_authoring import porch_spec
from ..home_util import dev_id


async def test_validate_only_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    result = await call_tool("hub_create_rule", {"rule": porch_spec(hub), "validate_only": True})
    assert not result.error, result.data
    data = result.data
    assert data["summary"] == "Spec is valid; nothing was sent"
    assert data["valid"] is True and data["sent"] is False
    assert "Required Expression: Time between Sunset and Sunrise" in data["rule_text"]
    assert data["plan"]["steps"]
    writes = [r for r in hub.requests[before:] if r[0] != "GET"]
    assert writes == []


async def _refused(call_tool: ToolCaller, rule: dict[str, Any], **extra: Any) -> dict[str, Any]:
    result = await call_tool("hub_create_rule", {"rule": rule, "validate_only": True, **extra})
    assert result.error, result.data
    data: dict[str, Any] = result.data
    return data


async def test_refusals_are_error_results(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    base = porch_spec(hub)
    before = [r for r in hub.requests if r[0] != "GET"]
    data = await _refused(call_tool, {**base, "actions": [{"delay": {"minutes": -1}}]})
    assert data["error"] == "invalid_request"
    assert "rule.actions[0].delay.minutes" in data["message"], data
    data = await _refused(call_tool, {**base, "triggers": [{"hsm": "armedAway"}]})
    assert data["error"] == "not_supported"
    assert "sun (sunrise|sunset" in data["hint"]
    data = await _refused(
        call_tool,
        {**base, "triggers": [{"device_id": "9999", "attribute": "motion", "is": "active"}]},
    )
    assert data["error"] == "not_found" and "9999" in data["message"]
    lock = dev_id(hub, "Front Door Lock")
    unlock = {**base, "actions": [{"command": "unlock", "device_ids": [lock]}]}
    data = await _refused(call_tool, unlock)
    assert data["error"] == "confirmation_required"
    assert [r for r in hub.requests if r[0] != "GET"] == before
    result = await call_tool(
        "hub_create_rule", {"rule": unlock, "validate_only": True, "confirm": True}
    )
    assert not result.error, result.data


async def test_search_finds_rule_tools_for_owner_sentences(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    sentences = [
        "when Front Porch Motion detects motion after sunset, turn on the Porch Light and "
        "turn it off 5 minutes after motion stops",
        "make an automation that turns off the kitchen lights at 11pm",
        "when the garage door opens send me a notification",
        "every day at 7 set the thermostat to 70",
        "create a rule: if the temperature is above 80 then turn on the fan",
        "what does my motion lighting rule do",
    ]
    for sentence in sentences:
        result = await call_tool("hub_search_tools", {"query": sentence})
        assert not result.error, result.data
        names = [t["name"] for t in result.data["results"]][:3]
        assert "hub_create_rule" in names or "hub_get_rule" in names, (sentence, names)


async def test_devices_outside_the_allowlist_are_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES

    light = dev_id(hub, "Porch Light")
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [light]})
    data = await _refused(call_tool, porch_spec(hub))
    assert data["error"] == "device_not_allowed", data
