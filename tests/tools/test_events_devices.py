"""Device, HSM, variable and mode reads through the tools, answered by the live cache and its
events.

The tools' part is here: the freshness of an answer from the live cache, a read right after
the tool's own command, and one call of each tool on the cache. The device reads, attribute
waits resolving on the events (stable or timing out, no polling) and a command followed by a
wait are tested without hass in tests/managers/test_devices.py and
tests/managers/test_device_commands.py; the HSM, variable and mode reads answered from the
cache with no hub request in tests/managers/test_events.py."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant

from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, a_switch, until
from ..helpers.devices import other

pytestmark = pytest.mark.usefixtures("fast_stream")


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


async def test_hsm_and_variables_from_the_cache(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    """The tools' answers on the cache (no hub request: tests/managers/test_events.py)."""
    hub.set_hsm("armedHome")
    hub.set_variable("cachedVar", 42)
    await until(lambda: live.variables.get("cachedVar", {}).get("value") == "42")
    await until(lambda: live.hsm_status == "armedHome")
    hsm = await call_tool("hub_get_hsm_status")
    assert not hsm.error, hsm.data
    assert hsm.data["status"] == "armedHome"
    assert hsm.data["freshness"]["source"] == "live_cache"
    variables = await call_tool("hub_list_variables")
    assert not variables.error, variables.data
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
    again = await call_tool("hub_list_devices", {"text": str(dev_id)})
    assert again.data["devices"][0]["states"]["switch"] == new
    assert again.data["freshness"]["source"] == "live_cache"


async def test_modes_from_the_cache(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    """The mode tools' answers on the cache (the cache's mode list, re-read after our own
    edit: tests/managers/test_events.py)."""
    first = await call_tool("hub_list_modes")
    assert not first.error, first.data
    target = next(m["name"] for m in first.data["modes"] if not m["active"])
    hub.set_mode(target)  # changed on the hub itself
    await until(lambda: live.mode == target)
    again = await call_tool("hub_list_modes")
    assert again.data["active_mode"] == target
    created = await call_tool("hub_create_mode", {"name": "Vacation"})
    assert not created.error, created.data
    listed = await call_tool("hub_list_modes")
    assert "Vacation" in [m["name"] for m in listed.data["modes"]]
    back = next(m["name"] for m in listed.data["modes"] if m["name"] != target)
    switched = await call_tool("hub_set_mode", {"mode": back})
    assert not switched.error, switched.data
    assert (await call_tool("hub_list_modes")).data["active_mode"] == back
