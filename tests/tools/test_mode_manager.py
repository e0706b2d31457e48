"""Mode Manager through the tool: its answer (the summary, the note naming hub_get_app, a
refusal as an error answer that sends nothing) and the device allowlist. What the manager
reads and writes, and every refusal of a bad trigger, day, mode or trigger set, are tested
without hass in tests/managers/test_mode_manager.py; the library's reading of the hub's
recorded save and select answers, and the emulated hub answering in those shapes, in
tests/hub/test_mode_manager.py."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry


@pytest.fixture
def call_tool(call_tool: ToolCaller) -> ToolCaller:
    """These tests are about what Mode Manager edits do, so they come confirmed (a safety
    system: tests/glue/test_hostile_effects.py shows the refusal without confirm)."""

    async def confirmed(name: str, args: dict[str, Any] | None = None, **kw: Any) -> Any:
        if name == "hub_update_mode_manager":
            args = {"confirm": True, **(args or {})}
        return await call_tool(name, args, **kw)

    return confirmed


def _phones(hub: HubEmulator) -> list[int]:
    return [d.id for d in hub.state.devices.values() if d.label in ("Alice's Phone", "Bob's Phone")]


async def test_a_bad_spec_is_answered_as_an_error_and_sends_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Every refusal is the manager's (tests/managers/test_mode_manager.py); here the tool's
    answer to one."""
    before = len(hub.requests)
    bad = {"mode": "Night", "triggers": [{"type": "time", "at": "25:00"}]}
    result = await call_tool("hub_update_mode_manager", bad)
    assert result.error and result.data["error"] == "invalid_request", result.data
    assert "25:00" in result.data["message"]
    posts = [p for m, p in hub.requests[before:] if m == "POST"]
    assert posts == []


async def test_a_change_is_answered_with_a_summary(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    args = {"mode": "Night", "triggers": [{"type": "time", "at": "23:15"}]}
    result = await call_tool("hub_update_mode_manager", args)
    assert not result.error, result.data
    assert result.data["summary"] == "Mode Manager: changed mode triggers of Night"
    assert [t["timeOfDay"] for t in hub.state.mode_manager.conditions["3"]] == ["23:15"]
    picked = await call_tool("hub_update_mode_manager", {"manager": "app"})
    assert not picked.error, picked.data
    assert "hub_get_app" in picked.data["mode_manager"]["note"]  # where the app's settings are


async def test_trigger_devices_pass_the_device_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    alice, bob = _phones(hub)
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(alice)]})
    before = len(hub.requests)
    spec = {"type": "presence", "event": "leaves", "device_ids": [alice, bob]}
    result = await call_tool("hub_update_mode_manager", {"mode": "Away", "triggers": [spec]})
    assert result.error and result.data["error"] == "device_not_allowed"
    assert len(hub.requests) == before
