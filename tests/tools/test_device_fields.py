"""hub_update_device's device-page fields: Show on Home, default current state, Hub Mesh and
HomeKit sharing (each read back), and the data values hub_get_device shows (read-only)."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub.models import parse_device_page
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused
from ..contract import load_fixture
from ..home_util import dev_id, sent


async def test_the_fixture_page_fields_parse() -> None:
    page = parse_device_page(load_fixture("devices/full_json").answer)
    assert page["show_on_home"] is True
    assert page["default_current_state"] is None
    assert page["hub_mesh"] is False
    assert page["homekit"] is False
    # the fixture's hub has no HomeKit integration: the page does not offer the switch
    assert page["homekit_offered"] is False
    assert "hub_mesh_offered" not in page


async def test_show_on_home_and_default_state_ride_the_preferences_save(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    dev = hub.state.devices[int(did)]
    dev.retry_enabled = True
    before = len(hub.requests)
    data = await ok(
        call_tool,
        "hub_update_device",
        {"device_id": did, "show_on_home": False, "default_current_state": "switch"},
    )
    assert data["applied"] == ["show_on_home+default_current_state"]
    assert sent(hub, before) == ["/device/preference/save"]
    assert dev.show_on_home is False
    assert dev.default_current_state == "switch"
    assert dev.retry_enabled is True  # the page's other field, sent back as it was
    assert data["device"]["show_on_home"] is False
    assert data["device"]["default_current_state"] == "switch"
    # read back through hub_get_device; '' clears the default state
    got = await ok(call_tool, "hub_get_device", {"device_id": did})
    assert got["device"]["show_on_home"] is False
    await ok(call_tool, "hub_update_device", {"device_id": did, "default_current_state": ""})
    assert hub.state.devices[int(did)].default_current_state is None
    await ok(call_tool, "hub_update_device", {"device_id": did, "show_on_home": True})
    assert hub.state.devices[int(did)].show_on_home is True


async def test_preferences_and_page_fields_are_one_save(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    prefs = (await ok(call_tool, "hub_get_device", {"device_id": did}))["device"]["preferences"]
    flag = next(p for p in prefs if p.get("type") == "bool")
    before = len(hub.requests)
    data = await ok(
        call_tool,
        "hub_update_device",
        {
            "device_id": did,
            "preferences": {flag["name"]: not flag["value"]},
            "show_on_home": False,
        },
    )
    assert data["applied"] == ["preferences+show_on_home"]
    assert sent(hub, before) == ["/device/preference/save"]
    assert hub.state.devices[int(did)].show_on_home is False


async def test_default_state_must_be_an_attribute_of_the_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    before = len(hub.requests)
    data = await refused(
        call_tool, "hub_update_device", {"device_id": did, "default_current_state": "colour"}
    )
    assert "switch" in data["message"]
    assert sent(hub, before) == []


async def test_show_on_home_is_not_offered_for_a_child_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    before = len(hub.requests)
    data = await refused(
        call_tool,
        "hub_update_device",
        {"device_id": dev_id(hub, "Dehumidifier"), "show_on_home": False},
    )
    assert "child" in data["message"]
    assert sent(hub, before) == []


async def test_hub_mesh_and_homekit_sharing_ride_the_complete_edit_form(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    dev = hub.state.devices[int(did)]
    dev.notes = "keep me"
    before = len(hub.requests)
    data = await ok(call_tool, "hub_update_device", {"device_id": did, "hub_mesh": True})
    assert data["applied"] == ["hub_mesh"]
    assert sent(hub, before) == ["/device/update"]
    assert dev.mesh_enabled is True
    assert dev.notes == "keep me"  # the wholesale form went out complete
    assert dev.label == "Garage Light"
    assert data["device"]["hub_mesh"] is True
    mesh = await ok(call_tool, "hub_get_hub_mesh")
    assert did in [d["device_id"] for d in mesh["shared_devices"]]
    data = await ok(
        call_tool, "hub_update_device", {"device_id": did, "hub_mesh": False, "homekit": True}
    )
    assert data["applied"] == ["hub_mesh+homekit"]
    assert (dev.mesh_enabled, dev.homekit_enabled) == (False, True)
    mesh = await ok(call_tool, "hub_get_hub_mesh")
    assert did not in [d["device_id"] for d in mesh["shared_devices"]]
    got = await ok(call_tool, "hub_get_device", {"device_id": did})
    assert (got["device"]["hub_mesh"], got["device"]["homekit"]) == (False, True)


async def test_a_switch_the_page_does_not_offer_is_refused(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    hub.state.mesh.enabled = False
    hub.state.mesh.homekit_available = False
    before = len(hub.requests)
    for field, word in (("hub_mesh", "Hub Mesh"), ("homekit", "HomeKit")):
        data = await refused(call_tool, "hub_update_device", {"device_id": did, field: True})
        assert word in data["message"]
    assert sent(hub, before) == []
    # turning a switch off is always possible
    await ok(call_tool, "hub_update_device", {"device_id": did, "homekit": False})


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


async def test_a_switch_the_hub_ignores_is_a_failure_not_a_success(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    # the hub answers success but the device is not shared (e.g. refused by the hub)
    hub.faults.reshape_paths["/device/fullJson/"] = lambda page: {
        **page,
        "device": {**page["device"], "meshEnabled": False},
    }
    data = await refused(call_tool, "hub_update_device", {"device_id": did, "hub_mesh": True})
    assert "NOT applied: hub_mesh" in data["message"]


async def test_data_values_are_read_in_hub_get_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    did = dev_id(hub, "Garage Light")
    hub.state.devices[int(did)].data.update({"firmware": "1.2.3", "model": "ZW4005"})
    got = await ok(call_tool, "hub_get_device", {"device_id": did})
    assert got["device"]["data"]["firmware"] == "1.2.3"
