"""Why did it happen (issue 28, item 1) through hub_get_event_cause: the tool's part is here
(the commands this integration sent, found in its audit trail; at= read as hub time, and
refused when it is no time; the not-found refusal as the tool answers it; a chain cut at a
device outside the allowlist; one answer from the seeded story). The manager's explaining
(the producer recorded by the hub, a rule and the trigger it reacted to, the Maker API, a
physical event, the audit records ranked, no evidence, the seeded story's chain) is tested
without hass in tests/managers/test_event_cause.py; the library's reading of the hub's
producedBy link in tests/hub/test_event_producers.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.tools.events import parse_when
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..home_util import dev_id


async def test_a_command_through_this_integration_is_found_in_the_audit(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Office Light")
    await ok(call_tool, "hub_call_device_command", {"device_id": light, "command": "off"})
    await ok(call_tool, "hub_call_device_command", {"device_id": light, "command": "on"})
    why = await ok(call_tool, "hub_get_event_cause", {"device_id": light, "attribute": "switch"})
    assert why["event"]["value"] == "on"
    assert why["producer"]["kind"] == "this_integration", why
    assert "hub_call_device_command" in why["producer"]["name"]


async def test_bad_input_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the refusals as it answers them (no such event: the manager's, in
    tests/managers/test_event_cause.py; at= that is no time: the tool's, before any read)."""
    light = dev_id(hub, "Office Light")
    await refused(
        call_tool,
        "hub_get_event_cause",
        {"device_id": light, "attribute": "nonsense"},
        "not_found",
    )
    before = len(hub.requests)
    await refused(
        call_tool,
        "hub_get_event_cause",
        {"device_id": light, "at": "yesterday"},
        "invalid_arguments",
    )
    assert len(hub.requests) == before


def test_times_parse() -> None:
    now = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    assert parse_when("11:30", UTC, now) == now - timedelta(minutes=30)
    assert parse_when("13:00", UTC, now) == now - timedelta(hours=23)  # yesterday's
    assert parse_when("2026-12-02T23:58:00+00:00", UTC, now).day == 2


async def test_last_nights_kitchen_light_in_the_seeded_story(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The demo's own history (hubitat_emulator/story.py), asked at=00:10 hub time: the
    motion rule turned the light on, reacting to the sensor (the chain itself:
    tests/managers/test_event_cause.py)."""
    light = dev_id(hub, "Kitchen Light")
    why = await ok(
        call_tool,
        "hub_get_event_cause",
        {"device_id": light, "attribute": "switch", "value": "on", "at": "00:10"},
    )
    assert why["producer"]["name"] == "Motion Lights - Kitchen"
    assert why["chain"][0]["event"]["device"] == "Kitchen Motion"
    assert "Motion Lights - Kitchen" in why["summary"] and "Kitchen Motion" in why["summary"]


async def test_the_chain_stops_at_a_device_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The seeded story again, with only the light allowed: the sensor the rule reacted to
    is outside the allowlist, so the chain is cut before it."""
    light = dev_id(hub, "Kitchen Light")
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [light]})
    await hass.async_block_till_done()
    why = await ok(
        call_tool,
        "hub_get_event_cause",
        {"device_id": light, "attribute": "switch", "value": "on", "at": "00:10"},
    )
    assert why["producer"]["name"] == "Motion Lights - Kitchen"
    assert why["chain"] == [] and "allowlist" in why["chain_cut"], why
    assert "Kitchen Motion" not in str(why), why
