"""Rule and automation health through the tools (issue 28, item 2): the answer's shape, the
summaries that name rules with findings, and the allowlist screening of findings. The checks
themselves are tested without hass in tests/managers/test_rule_checks.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok
from ..helpers.hostile import allow_only
from ..home_util import dev_id


def _rule(motion: str, command: str, light: str, name: str, **extra: Any) -> dict[str, Any]:
    trigger = {"device_id": motion, "attribute": "motion", "is": "active"}
    return {
        "name": name,
        "triggers": [trigger],
        "actions": [{"command": command, "device_ids": [light]}],
        **extra,
    }


async def test_rule_health_and_the_summaries_name_the_seeded_faults(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' answers: the findings as data, one rule's page markers merged in, and the
    owner's summaries naming the rules (the checks themselves: tests/managers)."""
    data = await ok(call_tool, "hub_get_rule_health")
    assert data["rules_checked"] >= 4 and data["healthy"] is False
    assert data["rules_with_findings"] == len({f["app_id"] for f in data["findings"]})
    goodnight = next(f for f in data["findings"] if f["rule"] == "Goodnight")
    assert set(goodnight) == {"app_id", "rule", "kind", "evidence", "fix"}
    one = await ok(call_tool, "hub_get_rule_health", {"app_id": goodnight["app_id"]})
    assert {f["rule"] for f in one["findings"]} == {"Goodnight"}
    assert "broken_markers" in one and one["rules_checked"] == 1
    home = await ok(call_tool, "hub_get_home_summary")
    named = {r["rule"]: r["kinds"] for r in home["rules_with_findings"]}
    assert "never_runs" in named["Goodnight"] and "broken" in named["Leak Alarm"]
    health = await ok(call_tool, "hub_get_device_health")
    assert {r["rule"] for r in health["rules_with_findings"]} >= {"Goodnight", "Leak Alarm"}


async def test_findings_about_devices_outside_the_allowlist_are_counted_not_shown(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    motion, porch = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Porch Light")
    await ok(call_tool, "hub_create_rule", {"rule": _rule(motion, "on", porch, "Porch on")})
    await ok(call_tool, "hub_create_rule", {"rule": _rule(motion, "off", porch, "Porch off")})
    allow_only(hass, entry, motion)
    await hass.async_block_till_done()
    data = await ok(call_tool, "hub_get_rule_health")
    assert not [f for f in data["findings"] if f["kind"] == "conflict"]
    assert data["findings_about_devices_outside_allowlist"] >= 2
    assert porch not in str(data["findings"])
