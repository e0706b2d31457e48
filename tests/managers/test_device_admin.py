"""The device administration manager (``managers/devices/admin.py``) on its own, no hass:
editing a device (the hub UI's edit form, preferences, enable and disable), creating and
deleting devices as the hub UI does, and replacing one device's hardware with another's,
over the emulated hub.

Moved from tests/tools/test_device_admin.py (the edits, creates, deletes and replacements
are the manager's; the tools' summaries, the confirmation for destructive calls, the
allowlist, the argument refusals and the advice that names a tool stay there)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub import HubClient
from custom_components.hubitat_dev_tools.hub import devices as hub_devices
from custom_components.hubitat_dev_tools.hub.errors import HubNotFoundError
from custom_components.hubitat_dev_tools.managers.devices import DeviceUpdate
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator, render

from ..home_util import dev_id, sent


async def test_update_device(emu: HubEmulator, manager_hub: Hub) -> None:
    admin = manager_hub.devices.admin
    light = dev_id(emu, "Kitchen Light")
    before_dev = emu.device(light)
    prefs = (await manager_hub.devices.get_device_full(light)).preferences
    bool_pref = next(p for p in prefs if p["type"] == "bool")
    data = await admin.update_device(
        light,
        DeviceUpdate(
            label="Kitchen Ceiling",
            room="office",
            tags=["a", "b"],
            preferences={bool_pref["name"]: "false"},
            enabled=False,
        ),
    )
    assert data["applied"] == ["label+room+tags", "preferences", "disabled"]
    assert data["room_name"] == "Office" and data["device"]["label"] == "Kitchen Ceiling"
    after = emu.device(light)
    assert after["label"] == "Kitchen Ceiling" and after["disabled"] is True
    assert after["room"] == "Office"
    assert after["tags"] == ["a", "b"]
    assert after["settings"][bool_pref["name"]] is False
    # fields not named are not blanked by the wholesale form
    for key in ("name", "dni", "notes", "type"):
        assert after[key] == before_dev[key], key
    # enabling runs first, then room can be cleared
    data = await admin.update_device(light, DeviceUpdate(enabled=True, room="unassigned"))
    assert data["applied"] == ["enabled", "room"]
    assert data["device"]["room"] is None and data["room_name"] is None
    assert emu.device(light)["disabled"] is False and emu.device(light)["room"] is None


async def test_update_posts_the_hub_ui_form_for_room_and_icon(
    emu: HubEmulator, manager_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hub UI's device page sends roomId as read ("" for no room, null as "") and the
    # custom icon as device.defaultIcon || device.icon. This hub reports a device's custom
    # icon as `icon` (defaultIcon null): a form that sends defaultIcon "" removes it.
    lamp = dev_id(emu, "Guest Lamp")
    dev = emu.state.devices[int(lamp)]
    dev.room_id, dev.default_icon = None, "fa-lamp"
    real_page = render.full_json

    def icon_as_icon(state: Any, device: Any) -> dict[str, Any]:
        page = real_page(state, device)
        page["device"]["icon"], page["device"]["defaultIcon"] = page["device"]["defaultIcon"], None
        return page

    monkeypatch.setattr(render, "full_json", icon_as_icon)
    forms: list[dict[str, str]] = []
    real_post = hub_devices.post_device_update

    async def recorded(client: HubClient, form: dict[str, str]) -> None:
        forms.append(dict(form))
        await real_post(client, form)

    monkeypatch.setattr(hub_devices, "post_device_update", recorded)
    admin = manager_hub.devices.admin
    data = await admin.update_device(lamp, DeviceUpdate(label="Guest Light"))
    assert data["applied"] == ["label"]
    assert [(f["roomId"], f["defaultIcon"]) for f in forms] == [("", "fa-lamp")]
    # read back: the label changed, still in no room, the custom icon kept
    assert (dev.label, dev.room_id, dev.default_icon) == ("Guest Light", None, "fa-lamp")
    assert data["device"]["room"] is None
    # clearing a room sends the page's "No room assigned" (0); it reads back as no room
    dev.room_id = next(iter(emu.state.rooms))
    await admin.update_device(lamp, DeviceUpdate(room="unassigned"))
    assert forms[-1]["roomId"] == "0" and dev.room_id is None


async def test_create_and_delete_device(emu: HubEmulator, manager_hub: Hub) -> None:
    admin = manager_hub.devices.admin
    data = await admin.create_device("virtual switch", "Fake")
    new_id = data["device"]["device_id"]
    assert data["virtual"] is True and data["driver"] == "Virtual Switch"
    assert emu.device(new_id)["label"] == "Fake" and "note" not in data
    real = await admin.create_device("Generic Z-Wave Switch", "Shell")
    assert real["virtual"] is False and "unpaired shell" in real["note"]
    assert emu.device(real["device"]["device_id"])["label"] == "Shell"
    before = len(emu.requests)
    with pytest.raises(ToolError, match="Virtual Switch"):
        await admin.create_device("Virtual Swich", None)
    assert sent(emu, before) == []
    done = await admin.delete_device(new_id)
    assert done["label"] == "Fake" and done["device_id"] == new_id
    assert int(new_id) not in emu.device_ids()
    with pytest.raises(HubNotFoundError):
        await admin.delete_device(new_id)


async def test_replace_device(emu: HubEmulator, manager_hub: Hub) -> None:
    admin = manager_hub.devices.admin
    old = dev_id(emu, "Kitchen Light")
    new = (await admin.create_device("Generic Z-Wave Dimmer", "New Dimmer"))["device"]["device_id"]
    new_dni = emu.device(new)["dni"]
    before = len(emu.requests)
    with pytest.raises(ToolError, match="not a valid replacement"):
        await admin.replace_device(old, dev_id(emu, "Kitchen Motion"))
    assert not [p for _m, p in emu.requests[before:] if p.startswith("/device/replace")]
    data = await admin.replace_device(old, new)
    after = emu.device(old)
    assert after["label"] == "Kitchen Light" and after["room"] == "Kitchen"
    assert after["dni"] == new_dni and int(new) not in emu.device_ids()
    assert data["kept"]["device_id"] == old and data["kept"]["label"] == "Kitchen Light"
    assert data["new_hardware_from"]["device_id"] == new
    assert data["new_hardware_from"]["label"] == "New Dimmer"


async def test_create_and_delete_follow_the_hub_ui(emu: HubEmulator, manager_hub: Hub) -> None:
    admin = manager_hub.devices.admin
    before = len(emu.requests)
    data = await admin.create_device("Virtual Switch", "Porch")
    new_id = data["device"]["device_id"]
    creates = [p for _m, p in emu.requests[before:] if p.startswith("/device/createVirtual")]
    assert len(creates) == 1 and "label" not in creates[0]  # the label comes by the edit
    assert data["device"]["label"] == "Porch" and emu.device(new_id)["label"] == "Porch"
    assert sent(emu, before) == ["/device/update"]
    # a real hub may answer "partial": the device is gone, with leftovers
    emu.state.force_delete_status = "partial"
    done = await admin.delete_device(new_id)
    assert "partial" in done["note"] and int(new_id) not in emu.device_ids()
    assert any(p == f"/device/forceDelete/{new_id}/json" for _m, p in emu.requests)
    # the hub says it failed but deleted: a success
    other = await admin.create_device("Virtual Switch", None)
    emu.state.force_delete_status = "failed"
    other_id = other["device"]["device_id"]
    done = await admin.delete_device(other_id)
    assert "note" not in done and int(other_id) not in emu.device_ids()
