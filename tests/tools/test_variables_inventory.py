"""hub_create_connector through the tool: its summary naming the new device and its
refusals as it answers them. The connector logic (the Hub Variables page's button, the
connector type, the new device found), the DateTime forms, the hub's list of every variable
as the library reads it and the emulated wizard's DateTime handling are tested without hass
in tests/managers/test_variables_inventory.py; the manager's reads and writes (DateTime
forms, the inventory of unselected variables): tests/managers/test_variables.py."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok


async def test_create_connector_finds_the_new_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part (the button pressed and the device found:
    tests/managers/test_variables_inventory.py::test_create_connector_finds_the_new_device)."""
    data = await ok(
        call_tool, "hub_create_connector", {"name": "guestCount", "connector_type": "Dimmer"}
    )
    (device_id,) = data["device_ids"]  # the connector, not the parent made with it
    assert hub.state.devices[int(device_id)].label == "guestCount"
    assert data["connector_type"] == "Dimmer"
    assert data["summary"] == f"Created a connector for guestCount (device {device_id})"
    refused = await call_tool("hub_create_connector", {"name": "nope"})
    assert refused.error and "No hub variable 'nope'" in refused.data["message"]
    typed = await call_tool(
        "hub_create_connector", {"name": "wakeUpTime", "connector_type": "Dimmer"}
    )
    assert typed.error and "only Number and Decimal" in typed.data["message"]
    assert typed.data["hint"].startswith("Leave connector_type out.")
    assert "hub_get_tool_guide(section='variables')" in typed.data["hint"]
    unknown = await call_tool(
        "hub_create_connector", {"name": "guestCount", "connector_type": "Toaster"}
    )
    assert unknown.error and unknown.data["error"] == "invalid_arguments"
    data = await ok(call_tool, "hub_create_connector", {"name": "wakeUpTime"})
    assert data["connector_type"] is None and len(data["device_ids"]) == 1
