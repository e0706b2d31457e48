"""The device page's fields in the device administration manager
(``managers/devices/admin.py``) on its own, no hass: Show on Home and the default current
state ride the page's preferences save (with the driver preferences, in one save), Hub Mesh
and HomeKit sharing ride the complete edit form, each read back; what the page does not offer
(Show on Home of a child device, a switch the hub does not offer, a default state that is not
an attribute) is refused before anything is sent, and a switch the hub ignores is a failure;
the data values and the page fields as the device reads parse them, over the emulated hub.

Moved from tests/tools/test_device_fields.py (the edits and refusals are the manager's; the
confirmation for sharing a lock and one call of hub_update_device, hub_get_device and
hub_get_hub_mesh stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubError
from custom_components.hubitat_dev_tools.hub.models import parse_device_page
from custom_components.hubitat_dev_tools.managers.devices import DeviceUpdate, UpdateResult
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator

from ..contract import load_fixture
from ..home_util import dev_id, sent


def every_device(_device_id: str) -> bool:
    """No device allowlist."""
    return True


async def update(manager_hub: Hub, device_id: str, **fields: Any) -> UpdateResult:
    """The manager's device edit as hub_update_device asks it (no allowlist, no confirm)."""
    return await manager_hub.devices.admin.update_device(device_id, DeviceUpdate(**fields))


async def shared_ids(manager_hub: Hub) -> list[str]:
    """The devices the Hub Mesh page lists as shared."""
    mesh = await manager_hub.devices.mesh.overview(every_device)
    return [d["device_id"] for d in mesh["shared_devices"]]


def test_the_fixture_page_fields_parse() -> None:
    page = parse_device_page(load_fixture("devices/full_json").answer)
    assert page["show_on_home"] is True
    assert page["default_current_state"] is None
    assert page["hub_mesh"] is False
    assert page["homekit"] is False
    # the fixture's hub has no HomeKit integration: the page does not offer the switch
    assert page["homekit_offered"] is False
    assert "hub_mesh_offered" not in page


async def test_show_on_home_and_default_state_ride_the_preferences_save(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    did = dev_id(emu, "Garage Light")
    dev = emu.state.devices[int(did)]
    dev.retry_enabled = True
    before = len(emu.requests)
    data = await update(manager_hub, did, show_on_home=False, default_current_state="switch")
    assert data["applied"] == ["show_on_home+default_current_state"]
    assert sent(emu, before) == ["/device/preference/save"]
    assert dev.show_on_home is False
    assert dev.default_current_state == "switch"
    assert dev.retry_enabled is True  # the page's other field, sent back as it was
    device: dict[str, Any] = dict(data["device"])
    assert device["show_on_home"] is False
    assert device["default_current_state"] == "switch"
    # read back; '' clears the default state
    got = await manager_hub.devices.get_device_full(did)
    assert got.page["show_on_home"] is False
    await update(manager_hub, did, default_current_state="")
    assert emu.state.devices[int(did)].default_current_state is None
    await update(manager_hub, did, show_on_home=True)
    assert emu.state.devices[int(did)].show_on_home is True


async def test_preferences_and_page_fields_are_one_save(emu: HubEmulator, manager_hub: Hub) -> None:
    did = dev_id(emu, "Garage Light")
    prefs = (await manager_hub.devices.get_device_full(did)).preferences
    flag = next(p for p in prefs if p.get("type") == "bool")
    before = len(emu.requests)
    data = await update(
        manager_hub, did, preferences={flag["name"]: not flag["value"]}, show_on_home=False
    )
    assert data["applied"] == ["preferences+show_on_home"]
    assert sent(emu, before) == ["/device/preference/save"]
    assert emu.state.devices[int(did)].show_on_home is False
    assert emu.device(did)["settings"][flag["name"]] is (not flag["value"])


async def test_default_state_must_be_an_attribute_of_the_device(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    did = dev_id(emu, "Garage Light")
    before = len(emu.requests)
    with pytest.raises(ToolError, match="switch") as err:
        await update(manager_hub, did, default_current_state="colour")
    assert "no attribute 'colour'" in str(err.value)
    assert sent(emu, before) == []


async def test_show_on_home_is_not_offered_for_a_child_device(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    before = len(emu.requests)
    with pytest.raises(ToolError, match="child"):
        await update(manager_hub, dev_id(emu, "Dehumidifier"), show_on_home=False)
    assert sent(emu, before) == []


async def test_hub_mesh_and_homekit_sharing_ride_the_complete_edit_form(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    did = dev_id(emu, "Garage Light")
    dev = emu.state.devices[int(did)]
    dev.notes = "keep me"
    before = len(emu.requests)
    data = await update(manager_hub, did, hub_mesh=True)
    assert data["applied"] == ["hub_mesh"]
    assert sent(emu, before) == ["/device/update"]
    assert dev.mesh_enabled is True
    assert dev.notes == "keep me"  # the wholesale form went out complete
    assert dev.label == "Garage Light"
    assert dict(data["device"])["hub_mesh"] is True
    assert did in await shared_ids(manager_hub)
    data = await update(manager_hub, did, hub_mesh=False, homekit=True)
    assert data["applied"] == ["hub_mesh+homekit"]
    assert (dev.mesh_enabled, dev.homekit_enabled) == (False, True)
    assert did not in await shared_ids(manager_hub)
    got = await manager_hub.devices.get_device_full(did)
    assert (got.page["hub_mesh"], got.page["homekit"]) == (False, True)


async def test_a_switch_the_page_does_not_offer_is_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    did = dev_id(emu, "Garage Light")
    emu.state.mesh.enabled = False
    emu.state.mesh.homekit_available = False
    before = len(emu.requests)
    for field, word in (("hub_mesh", "Hub Mesh"), ("homekit", "HomeKit")):
        with pytest.raises(ToolError, match=word) as err:
            await update(manager_hub, did, **{field: True})
        assert err.value.subject == f"{field}_not_offered"
    assert sent(emu, before) == []
    # turning a switch off is always possible
    data = await update(manager_hub, did, homekit=False)
    assert data["applied"] == ["homekit"]


async def test_a_switch_the_hub_ignores_is_a_failure_not_a_success(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    did = dev_id(emu, "Garage Light")
    # the hub answers success but the device is not shared (e.g. refused by the hub)
    emu.faults.reshape_paths["/device/fullJson/"] = lambda page: {
        **page,
        "device": {**page["device"], "meshEnabled": False},
    }
    with pytest.raises(HubError, match="NOT applied: hub_mesh"):
        await update(manager_hub, did, hub_mesh=True)


async def test_data_values_are_read_with_the_device(emu: HubEmulator, manager_hub: Hub) -> None:
    did = dev_id(emu, "Garage Light")
    emu.state.devices[int(did)].data.update({"firmware": "1.2.3", "model": "ZW4005"})
    got = await manager_hub.devices.get_device_full(did)
    assert got.page["data"]["firmware"] == "1.2.3" and got.page["data"]["model"] == "ZW4005"
