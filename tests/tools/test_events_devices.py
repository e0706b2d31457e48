"""Device reads and waits through the tools, answered by the live cache and its events."""

from __future__ import annotations

import asyncio
import time

import pytest
from homeassistant.core import HomeAssistant

from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, a_switch, until

pytestmark = pytest.mark.usefixtures("fast_stream")


def other(hub: HubEmulator, dev_id: int) -> str:
    return "off" if hub.device(dev_id)["attributes"]["switch"] == "on" else "on"


async def test_list_devices_from_the_cache(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    new = other(hub, dev_id)
    hub.set_device_attribute(dev_id, "switch", new)
    await until(lambda: live.devices[str(dev_id)].states["switch"] == new)
    before = len(hub.requests)
    result = await call_tool("hub_list_devices", {"text": str(dev_id)})
    assert not result.error, result.data
    assert len(hub.requests) == before, hub.requests[before:]
    assert result.data["devices"][0]["states"]["switch"] == new
    assert result.data["freshness"]["source"] == "live_cache"


async def test_read_attribute_from_the_cache(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    before = len(hub.requests)
    result = await call_tool(
        "hub_get_device_attribute", {"device_id": str(dev_id), "attribute": "switch"}
    )
    assert not result.error, result.data
    assert len(hub.requests) == before
    assert result.data["values"][str(dev_id)] == hub.device(dev_id)["attributes"]["switch"]


async def test_attribute_wait_resolves_on_the_event(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    new = other(hub, dev_id)
    changed_at: list[float] = []

    def change() -> None:
        changed_at.append(time.monotonic())
        hub.set_device_attribute(dev_id, "switch", new)

    asyncio.get_running_loop().call_later(0.2, change)
    before = len(hub.requests)
    result = await call_tool(
        "hub_get_device_attribute",
        {
            "device_id": str(dev_id),
            "attribute": "switch",
            "expected_value": new,
            "timeout_ms": 5000,
        },
    )
    done_at = time.monotonic()
    assert not result.error, result.data
    assert result.data["matched"] is True
    assert len(hub.requests) == before, "an event-driven wait sends nothing"
    assert done_at - changed_at[0] < 1.0  # resolves on the event (generous under load)


async def test_attribute_wait_times_out_without_polling(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    before = len(hub.requests)
    started = time.monotonic()
    result = await call_tool(
        "hub_get_device_attribute",
        {
            "device_id": str(dev_id),
            "attribute": "switch",
            "expected_value": "neither",
            "timeout_ms": 600,
        },
    )
    assert not result.error, result.data
    assert result.data["matched"] is False
    assert 0.55 <= time.monotonic() - started < 3.0
    assert len(hub.requests) == before


async def test_command_wait_for_resolves_on_the_event(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    new = other(hub, dev_id)
    before = len(hub.requests)
    result = await call_tool(
        "hub_call_device_command",
        {
            "device_id": str(dev_id),
            "command": new,
            "confirm": True,
            "wait_for": {"attribute": "switch", "expected_value": new, "timeout_ms": 5000},
        },
    )
    assert not result.error, result.data
    assert result.data["wait"]["matched"] is True
    sent = [p for _m, p in hub.requests[before:]]
    assert not [p for p in sent if p.startswith("/hub2/devicesList")], sent
    assert live.devices[str(dev_id)].states["switch"] == new


async def test_stable_wait_is_event_driven(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    new = other(hub, dev_id)
    asyncio.get_running_loop().call_later(0.1, hub.set_device_attribute, dev_id, "switch", new)
    before = len(hub.requests)
    started = time.monotonic()
    result = await call_tool(
        "hub_get_device_attribute",
        {
            "device_id": str(dev_id),
            "attribute": "switch",
            "expected_value": new,
            "stable_for_ms": 300,
            "timeout_ms": 5000,
        },
    )
    elapsed = time.monotonic() - started
    assert not result.error, result.data
    assert result.data["matched"] is True
    assert 0.35 <= elapsed < 3.0
    assert len(hub.requests) == before


async def test_hsm_and_variables_from_the_cache(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    hub.set_hsm("armedHome")
    hub.set_variable("cachedVar", 41)
    hub.set_variable("cachedVar", 42)
    await until(lambda: live.variables.get("cachedVar", {}).get("value") == "42")
    await until(lambda: live.hsm_status == "armedHome")
    # a variable first seen in an event has no type yet: one hub read, then cached
    first = await call_tool("hub_list_variables")
    assert not first.error, first.data
    before = len(hub.requests)
    hsm = await call_tool("hub_get_hsm_status")
    assert not hsm.error, hsm.data
    assert hsm.data["status"] == "armedHome"
    variables = await call_tool("hub_list_variables")
    assert not variables.error, variables.data
    assert len(hub.requests) == before, hub.requests[before:]
    found = [v for v in variables.data["variables"] if v["name"] == "cachedVar"]
    assert found and found[0]["value"] == 42


async def test_read_right_after_our_command_is_exact(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    """After our own command, reads of that device go to the hub until its event arrives."""
    dev_id = a_switch(hub)
    new = other(hub, dev_id)
    hub.command_delay = 0.0
    sent = await call_tool("hub_call_device_command", {"device_id": str(dev_id), "command": new})
    assert not sent.error, sent.data
    now = await call_tool(
        "hub_get_device_attribute", {"device_id": str(dev_id), "attribute": "switch"}
    )
    assert not now.error, now.data
    assert str(dev_id) in str(now.data) and new in str(now.data)
    listed = await call_tool("hub_list_devices", {"text": str(dev_id)})
    assert listed.data["devices"][0]["states"]["switch"] == new
    # once the event arrived, reads are back on the cache with no hub request
    await until(lambda: not live.is_dirty(str(dev_id)))
    before = len(hub.requests)
    again = await call_tool("hub_list_devices", {"text": str(dev_id)})
    assert again.data["devices"][0]["states"]["switch"] == new
    assert len(hub.requests) == before


async def test_modes_from_the_cache(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    """The active mode is event-driven; the mode list is re-read at most once a minute."""
    first = await call_tool("hub_list_modes")
    assert not first.error, first.data
    target = next(m["name"] for m in first.data["modes"] if not m["active"])
    hub.set_mode(target)  # changed on the hub itself
    await until(lambda: live.mode == target)
    before = len(hub.requests)
    again = await call_tool("hub_list_modes")
    assert again.data["active_mode"] == target
    assert len(hub.requests) == before  # answered from the cache
    created = await call_tool("hub_create_mode", {"name": "Vacation"})
    assert not created.error, created.data
    listed = await call_tool("hub_list_modes")
    assert "Vacation" in [m["name"] for m in listed.data["modes"]]
    back = next(m["name"] for m in listed.data["modes"] if m["name"] != target)
    switched = await call_tool("hub_set_mode", {"mode": back})
    assert not switched.error, switched.data
    assert (await call_tool("hub_list_modes")).data["active_mode"] == back
