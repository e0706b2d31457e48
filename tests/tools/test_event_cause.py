"""Why did it happen (issue 28, item 1): the event, its producer (recorded by the hub, or
candidates ranked with their evidence) and what that producer reacted to."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.events import parse_produced_by
from custom_components.hubitat_dev_tools.tools.events import parse_when
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused, until
from ..home_util import dev_id


def _rule(motion: str, light: str) -> dict[str, Any]:
    return {
        "name": "Porch on motion",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"command": "on", "device_ids": [light]}],
    }


async def test_a_rule_is_the_recorded_producer_and_its_trigger_follows(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, light = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Porch Light")
    rule = await ok(call_tool, "hub_create_rule", {"rule": _rule(motion, light)})
    hub.home.set_device_attribute(int(motion), "motion", "inactive")
    hub.home.set_device_attribute(int(motion), "motion", "active")  # someone walks in
    await until(lambda: hub.device(int(light))["attributes"]["switch"] == "on", what="rule")
    why = await ok(
        call_tool,
        "hub_get_event_cause",
        {"device_id": light, "attribute": "switch", "value": "on"},
    )
    producer = why["producer"]
    assert (producer["kind"], producer["confidence"]) == ("app", "recorded"), why
    assert producer["app_id"] == rule["app_id"] and producer["name"] == "Porch on motion"
    (link,) = why["chain"]
    assert link["event"]["device_id"] == motion and link["event"]["value"] == "active"
    assert link["producer"]["kind"] == "physical"
    assert "Porch on motion" in why["summary"] and "Kitchen Motion" in why["summary"]


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


async def test_the_maker_api_is_recorded_and_physical_is_physical(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp = dev_id(hub, "Office Light")
    url = f"{hub.url}/apps/api/{hub.maker_app_id}/devices/{lamp}/off"
    async with (
        aiohttp.ClientSession() as session,
        session.get(url, params={"access_token": hub.maker_token}) as resp,
    ):
        assert resp.status == 200
    why = await ok(
        call_tool, "hub_get_event_cause", {"device_id": lamp, "attribute": "switch", "value": "off"}
    )
    assert why["producer"]["confidence"] == "recorded"
    assert "Maker API" in why["producer"]["name"]
    door = dev_id(hub, "Front Door Contact") if _has(hub, "Front Door Contact") else None
    sensor = door or dev_id(hub, "Kitchen Motion")
    attribute = "contact" if door else "motion"
    hub.home.set_device_attribute(int(sensor), attribute, "open" if door else "active", force=True)
    why = await ok(call_tool, "hub_get_event_cause", {"device_id": sensor, "attribute": attribute})
    assert why["producer"]["kind"] == "physical"


def _has(hub: HubEmulator, label: str) -> bool:
    try:
        hub.find_device(label)
    except KeyError:
        return False
    return True


async def test_no_evidence_is_said_and_bad_input_is_refused(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Office Light")
    hub.home.set_device_attribute(int(light), "switch", "on", etype="digital", force=True)
    why = await ok(call_tool, "hub_get_event_cause", {"device_id": light, "attribute": "switch"})
    assert why["producer"]["kind"] == "unknown" and why["producer"]["evidence"]
    await refused(
        call_tool,
        "hub_get_event_cause",
        {"device_id": light, "attribute": "nonsense"},
        "not_found",
    )
    await refused(
        call_tool,
        "hub_get_event_cause",
        {"device_id": light, "at": "yesterday"},
        "invalid_arguments",
    )


def test_produced_by_and_times_parse() -> None:
    link = "<a href='/installedapp/configure/583' target='_blank'>HomeKit Integration</a>"
    found = parse_produced_by(link)
    assert found is not None and (found.kind, found.id, found.name) == (
        "app",
        "583",
        "HomeKit Integration",
    )
    assert parse_produced_by("null") is None and parse_produced_by(None) is None
    other = parse_produced_by("Dashboard")
    assert other is not None and other.kind == "other"
    now = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    assert parse_when("11:30", UTC, now) == now - timedelta(minutes=30)
    assert parse_when("13:00", UTC, now) == now - timedelta(hours=23)  # yesterday's
    assert parse_when("2026-12-02T23:58:00+00:00", UTC, now).day == 2


async def test_last_nights_kitchen_light_in_the_seeded_story(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The demo's own history (hubitat_emulator/story.py): the light a person asks about
    was turned on by the motion rule, which reacted to the sensor; the sensor's reading is
    the sensor's own (the rule logged after it, so it is not its cause)."""
    light = dev_id(hub, "Kitchen Light")
    why = await ok(
        call_tool,
        "hub_get_event_cause",
        {"device_id": light, "attribute": "switch", "value": "on", "at": "00:10"},
    )
    assert why["producer"]["name"] == "Motion Lights - Kitchen"
    assert why["producer"]["confidence"] == "recorded"
    link = why["chain"][0]
    assert link["event"]["device"] == "Kitchen Motion" and link["event"]["value"] == "active"
    assert link["producer"]["kind"] == "device", link
    assert "Motion Lights - Kitchen" in why["summary"] and "Kitchen Motion" in why["summary"]
