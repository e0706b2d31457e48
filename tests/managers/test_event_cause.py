"""Why did it happen (issue 28, item 1), explained by the event cause manager
(``managers/event_cause.py``) on its own, no hass: the event, its producer (recorded by the
hub: a rule, the Maker API, the device itself when physical; or the candidates with their
evidence: a command this integration's audit trail names, nothing at all) and what that
producer reacted to, over the emulated hub.

Moved from tests/tools/test_event_cause.py (test_a_rule_is_the_recorded_producer_and_its_
trigger_follows, test_the_maker_api_is_recorded_and_physical_is_physical, the unknown
producer and the not-found refusal of test_no_evidence_is_said_and_bad_input_is_refused, and
test_last_nights_kitchen_light_in_the_seeded_story); the audit trail read by the tool, its
parsing of at= and the tool's answers stay there, the library's reading of the hub's
producedBy link is tested in tests/hub/test_event_producers.py."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, time, timedelta
from typing import Any

import aiohttp
import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..conftest import until
from ..home_util import dev_id


def _no_audit(_device_id: str, _start: datetime, _end: datetime) -> list[Mapping[str, Any]]:
    """This integration sent nothing (the tool reads its audit trail)."""
    return []


async def _explain(
    manager_hub: Hub,
    device_id: str,
    *,
    attribute: str | None = None,
    value: str | None = None,
    at: datetime | None = None,
) -> dict[str, Any]:
    return await manager_hub.event_causes.explain(
        device_id, attribute=attribute, value=value, at=at, audit=_no_audit
    )


def _rule(motion: str, light: str) -> dict[str, Any]:
    return {
        "name": "Porch on motion",
        "triggers": [{"device_id": motion, "attribute": "motion", "is": "active"}],
        "actions": [{"command": "on", "device_ids": [light]}],
    }


async def test_a_rule_is_the_recorded_producer_and_its_trigger_follows(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    motion, light = dev_id(emu, "Kitchen Motion"), dev_id(emu, "Porch Light")
    rule = await manager_hub.rule_authoring.create(
        _rule(motion, light), confirm=False, validate_only=False
    )
    emu.home.set_device_attribute(int(motion), "motion", "inactive")
    emu.home.set_device_attribute(int(motion), "motion", "active")  # someone walks in
    await until(lambda: emu.device(int(light))["attributes"]["switch"] == "on", what="rule")
    why = await _explain(manager_hub, light, attribute="switch", value="on")
    producer = why["producer"]
    assert (producer["kind"], producer["confidence"]) == ("app", "recorded"), why
    assert producer["app_id"] == rule["app_id"] and producer["name"] == "Porch on motion"
    (link,) = why["chain"]
    assert link["event"]["device_id"] == motion and link["event"]["value"] == "active"
    assert link["producer"]["kind"] == "physical"
    assert "Porch on motion" in why["summary"] and "Kitchen Motion" in why["summary"]


async def test_the_maker_api_is_recorded_and_physical_is_physical(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    lamp = dev_id(emu, "Office Light")
    url = f"{emu.url}/apps/api/{emu.maker_app_id}/devices/{lamp}/off"
    async with (
        aiohttp.ClientSession() as session,
        session.get(url, params={"access_token": emu.maker_token}) as resp,
    ):
        assert resp.status == 200
    why = await _explain(manager_hub, lamp, attribute="switch", value="off")
    assert why["producer"]["confidence"] == "recorded"
    assert "Maker API" in why["producer"]["name"]
    door = dev_id(emu, "Front Door Contact") if _has(emu, "Front Door Contact") else None
    sensor = door or dev_id(emu, "Kitchen Motion")
    attribute = "contact" if door else "motion"
    emu.home.set_device_attribute(int(sensor), attribute, "open" if door else "active", force=True)
    why = await _explain(manager_hub, sensor, attribute=attribute)
    assert why["producer"]["kind"] == "physical"


def _has(emu: HubEmulator, label: str) -> bool:
    try:
        emu.find_device(label)
    except KeyError:
        return False
    return True


async def test_a_command_the_audit_trail_names_is_the_likely_producer(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """The audit records the tool hands over (here one, as the tool would find it) rank this
    integration first; without them the same command has no recorded caller."""
    light = dev_id(emu, "Office Light")
    commands = manager_hub.devices.commands
    for command in ("off", "on"):
        await commands.execute(
            await commands.prepare(light, command, None, confirm=False, allowed=None)
        )
    await until(lambda: emu.device(int(light))["attributes"]["switch"] == "on", what="on")
    asked: list[tuple[str, datetime, datetime]] = []

    def audit(device_id: str, start: datetime, end: datetime) -> list[Mapping[str, Any]]:
        asked.append((device_id, start, end))
        return [{"tool": "hub_call_device_command", "time": end.isoformat(), "user": None}]

    why = await manager_hub.event_causes.explain(
        light, attribute="switch", value=None, at=None, audit=audit
    )
    assert why["event"]["value"] == "on"
    assert why["producer"]["kind"] == "this_integration", why
    assert why["producer"]["name"] == "hub_call_device_command by an assistant"
    assert asked and asked[0][0] == light and asked[0][1] < asked[0][2]
    plain = await _explain(manager_hub, light, attribute="switch")
    assert plain["producer"]["kind"] != "this_integration", plain


async def test_no_evidence_is_said_and_an_unknown_attribute_is_not_found(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    light = dev_id(emu, "Office Light")
    emu.home.set_device_attribute(int(light), "switch", "on", etype="digital", force=True)
    why = await _explain(manager_hub, light, attribute="switch")
    assert why["producer"]["kind"] == "unknown" and why["producer"]["evidence"]
    with pytest.raises(ToolError) as err:
        await _explain(manager_hub, light, attribute="nonsense")
    assert err.value.code == "not_found"
    with pytest.raises(ToolError) as missing:
        await _explain(manager_hub, "99999")
    assert missing.value.code == "not_found"


async def test_last_nights_kitchen_light_in_the_seeded_story(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """The demo's own history (hubitat_emulator/story.py): the light a person asks about
    was turned on by the motion rule, which reacted to the sensor; the sensor's reading is
    the sensor's own (the rule logged after it, so it is not its cause)."""
    light = dev_id(emu, "Kitchen Light")
    await manager_hub.info.identity()  # as the integration reads it when set up
    zone = manager_hub.time_zone or UTC
    # at=00:10 hub time (the last such time), as the tool reads it
    now = datetime.now(zone)
    at = datetime.combine(now.date(), time(0, 10), zone)
    at = at - timedelta(days=1) if at > now else at
    why = await _explain(manager_hub, light, attribute="switch", value="on", at=at)
    assert why["producer"]["name"] == "Motion Lights - Kitchen"
    assert why["producer"]["confidence"] == "recorded"
    link = why["chain"][0]
    assert link["event"]["device"] == "Kitchen Motion" and link["event"]["value"] == "active"
    assert link["producer"]["kind"] == "device", link
    assert "Motion Lights - Kitchen" in why["summary"] and "Kitchen Motion" in why["summary"]
