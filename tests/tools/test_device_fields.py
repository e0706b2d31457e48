"""hub_update_device's device-page fields through the tools: Show on Home, default current
state, Hub Mesh and HomeKit sharing (each read back), and the data values hub_get_device
shows (read-only).

The tools' part is here: the answer of hub_update_device (applied steps, summary, the device
as read back), the page fields and data values in hub_get_device's answer, the shared device
in hub_get_hub_mesh, the confirmation for sharing a lock and the advice naming
hub_get_hub_mesh when the hub does not offer Hub Mesh. The saves (which request carries which
field, the complete edit form), the refusals of what the page does not offer, a switch the
hub ignores and the parsing of the page are tested without hass in
tests/managers/test_device_fields.py."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..home_util import dev_id, sent


async def test_show_on_home_and_default_state_are_answered_and_read_back(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    dev = hub.state.devices[int(did)]
    data = await ok(
        call_tool,
        "hub_update_device",
        {"device_id": did, "show_on_home": False, "default_current_state": "switch"},
    )
    assert data["applied"] == ["show_on_home+default_current_state"]
    assert data["summary"] == (
        f"Updated Garage Light (device {did}): show_on_home+default_current_state"
    )
    assert (dev.show_on_home, dev.default_current_state) == (False, "switch")
    assert data["device"]["show_on_home"] is False
    assert data["device"]["default_current_state"] == "switch"
    # read back through hub_get_device
    got = await ok(call_tool, "hub_get_device", {"device_id": did})
    assert got["device"]["show_on_home"] is False
    assert got["device"]["default_current_state"] == "switch"
    # a refusal of the manager is the tool's error, nothing sent
    before = len(hub.requests)
    data = await refused(
        call_tool, "hub_update_device", {"device_id": did, "default_current_state": "colour"}
    )
    assert "switch" in data["message"]
    assert sent(hub, before) == []


async def test_hub_mesh_sharing_shows_in_the_mesh_and_the_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    data = await ok(call_tool, "hub_update_device", {"device_id": did, "hub_mesh": True})
    assert data["applied"] == ["hub_mesh"] and data["device"]["hub_mesh"] is True
    mesh = await ok(call_tool, "hub_get_hub_mesh")
    assert did in [d["device_id"] for d in mesh["shared_devices"]]
    data = await ok(
        call_tool, "hub_update_device", {"device_id": did, "hub_mesh": False, "homekit": True}
    )
    assert data["applied"] == ["hub_mesh+homekit"]
    got = await ok(call_tool, "hub_get_device", {"device_id": did})
    assert (got["device"]["hub_mesh"], got["device"]["homekit"]) == (False, True)


async def test_hub_mesh_not_offered_advises_hub_get_hub_mesh(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.mesh.enabled = False
    before = len(hub.requests)
    data = await refused(
        call_tool,
        "hub_update_device",
        {"device_id": dev_id(hub, "Garage Light"), "hub_mesh": True},
        code="invalid_request",
    )
    assert "Hub Mesh" in data["message"] and "hub_get_hub_mesh" in data["hint"]
    assert sent(hub, before) == []


async def test_sharing_a_lock_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Front Door Lock")
    before = len(hub.requests)
    await refused(
        call_tool,
        "hub_update_device",
        {"device_id": did, "homekit": True},
        code="confirmation_required",
    )
    assert sent(hub, before) == []
    await ok(call_tool, "hub_update_device", {"device_id": did, "homekit": True, "confirm": True})
    assert hub.state.devices[int(did)].homekit_enabled is True
    # stopping the share needs nothing
    await ok(call_tool, "hub_update_device", {"device_id": did, "homekit": False})


async def test_data_values_are_read_in_hub_get_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    hub.state.devices[int(did)].data.update({"firmware": "1.2.3", "model": "ZW4005"})
    got = await ok(call_tool, "hub_get_device", {"device_id": did})
    assert got["device"]["data"]["firmware"] == "1.2.3"
