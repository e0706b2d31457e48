"""Device management tools of the home surface, against the emulated hub through the real
llm.API: editing, creating, deleting, replacing and swapping devices, the compatible-device
catalog (and the device writes in the contract shapes). Reading devices and their commands:
``test_devices.py``. The manager logic behind these tools, without Home Assistant:
tests/managers/test_device_admin.py, test_device_compatible.py and test_swap.py; here stay
the tools' summaries, confirmations, argument refusals, allowlist and error advice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from yarl import URL

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub import HubClient, HubConnection, effects
from custom_components.hubitat_dev_tools.hub import devices as hub_devices
from custom_components.hubitat_dev_tools.hub.errors import (
    HubBadResponseError,
    HubNotFoundError,
    HubRefusedError,
)
from custom_components.hubitat_dev_tools.managers.devices import edit_form
from hubitat_emulator import HubEmulator
from hubitat_emulator.catalog import DRIVERS

from ..conftest import ToolCaller, add_entry, ok
from ..contract import assert_same_shape, load_fixture
from ..home_util import dev_id, sent
from ..hub_fake import FakeHub

# ---------------------------------------------------------------- hub_update_device


async def test_update_device_tool_passes_each_field_and_summarises(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: every argument reaches the edit and the summary names the steps
    applied (the edit itself, its order and what it keeps:
    tests/managers/test_device_admin.py::test_update_device)."""
    light = dev_id(hub, "Kitchen Light")
    prefs = (await ok(call_tool, "hub_get_device", {"device_id": light}))["device"]["preferences"]
    bool_pref = next(p for p in prefs if p["type"] == "bool")
    data = await ok(
        call_tool,
        "hub_update_device",
        {
            "device_id": light,
            "label": "Kitchen Ceiling",
            "room": "office",
            "tags": ["a", "b"],
            "preferences": {bool_pref["name"]: "false"},
            "enabled": False,
        },
    )
    assert data["summary"] == (
        f"Updated Kitchen Ceiling (device {light}): label+room+tags, preferences, disabled"
    )
    after = hub.device(light)
    assert (after["label"], after["room"], after["tags"], after["disabled"]) == (
        "Kitchen Ceiling",
        "Office",
        ["a", "b"],
        True,
    )
    assert after["settings"][bool_pref["name"]] is False


def test_edit_form_is_the_device_page_model() -> None:
    raw = load_fixture("devices/full_json").answer
    form = edit_form(raw)
    assert (form["roomId"], form["defaultIcon"]) == (str(raw["device"]["roomId"]), "")
    no_room = {**raw, "device": {**raw["device"], "roomId": None, "icon": "fa-lamp"}}
    form = edit_form(no_room)
    assert (form["roomId"], form["defaultIcon"]) == ("", "fa-lamp")
    both = {**raw, "device": {**raw["device"], "defaultIcon": "fa-bulb", "icon": "fa-lamp"}}
    assert edit_form(both)["defaultIcon"] == "fa-bulb"


async def test_update_device_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    light = dev_id(hub, "Kitchen Light")
    rooms_before = len(hub.rooms)
    before = len(hub.requests)
    for args, word in (
        ({"device_id": light, "room": "Attic"}, "Attic"),
        ({"device_id": light, "preferences": {"noSuchPref": 1}}, "noSuchPref"),
        ({"device_id": light}, "Nothing to change"),
        ({"device_id": light, "label": "  "}, "empty"),
    ):
        result = await call_tool("hub_update_device", args)
        assert result.error and word in result.data["message"], (args, result.data)
    assert sent(hub, before) == []
    assert len(hub.rooms) == rooms_before  # never creates a room
    result = await call_tool("hub_update_device", {"device_id": "99999", "label": "x"})
    assert result.error and result.data["error"] == "not_found"


# ---------------------------------------------------------------- create / delete


async def test_create_and_delete_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tools' part: the summary, the radio note's inclusion pointer, the destructive
    tier's confirmation and a gone device's not_found (the create and delete themselves:
    tests/managers/test_device_admin.py::test_create_and_delete_device)."""
    data = await ok(call_tool, "hub_create_device", {"driver": "virtual switch", "label": "Fake"})
    new_id = data["device"]["device_id"]
    assert data["summary"] == f"Created Fake (device {new_id}, Virtual Switch)"
    assert hub.device(new_id)["label"] == "Fake"
    real = await ok(
        call_tool, "hub_create_device", {"driver": "Generic Z-Wave Switch", "label": "Shell"}
    )
    assert real["virtual"] is False and "inclusion_start" in real["note"]
    # delete: destructive tier
    before = len(hub.requests)
    refused = await call_tool("hub_delete_device", {"device_id": new_id})
    assert refused.error and refused.data["error"] == "confirmation_required"
    assert sent(hub, before) == [] and int(new_id) in hub.device_ids()
    hub.mark_backup_now()
    done = await ok(call_tool, "hub_delete_device", {"device_id": new_id, "confirm": True})
    assert done["summary"] == f"Deleted Fake (device {new_id})"
    assert int(new_id) not in hub.device_ids()
    gone = await call_tool("hub_delete_device", {"device_id": new_id, "confirm": True})
    assert gone.error and gone.data["error"] == "not_found"


async def test_replace_device(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the destructive tier's confirmation and the summary (the replacement
    itself and its refusal: tests/managers/test_device_admin.py::test_replace_device)."""
    old = dev_id(hub, "Kitchen Light")
    new = (
        await ok(
            call_tool,
            "hub_create_device",
            {"driver": "Generic Z-Wave Dimmer", "label": "New Dimmer"},
        )
    )["device"]["device_id"]
    args = {"old_device_id": old, "new_device_id": new}
    before = len(hub.requests)
    gate = await call_tool("hub_replace_device", args)
    assert gate.error and gate.data["error"] == "confirmation_required"
    assert sent(hub, before) == [] and int(new) in hub.device_ids()
    hub.mark_backup_now()
    data = await ok(call_tool, "hub_replace_device", {**args, "confirm": True})
    assert data["summary"] == (
        f"Kitchen Light (device {old}) now uses the hardware of New Dimmer (device {new}, removed)"
    )
    assert int(new) not in hub.device_ids()


async def test_list_replacement_candidates(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """What the hub's Replace dialog offers, before any destructive call; an outside device
    is only counted, in the list and in the replace refusal alike."""
    light = dev_id(hub, "Kitchen Light")
    data = await ok(call_tool, "hub_list_replacement_candidates", {"device_id": light})
    offered = {c["device_id"]: c for c in data["candidates"]}
    assert data["device"] == {"device_id": light, "label": "Kitchen Light"}
    assert data["count"] == len(offered) > 0 and light not in offered
    pendants = offered[dev_id(hub, "Kitchen Island Pendants")]
    assert pendants["label"] == "Kitchen Island Pendants" and pendants["drivers"]
    assert dev_id(hub, "Kitchen Motion") not in offered  # no shared capability

    keep = [light, dev_id(hub, "Kitchen Motion")]
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: keep})
    narrowed = await ok(call_tool, "hub_list_replacement_candidates", {"device_id": light})
    assert narrowed["candidates"] == [] and narrowed["hidden"] == len(offered)
    hub.mark_backup_now()
    refused = await call_tool(
        "hub_replace_device",
        {"old_device_id": light, "new_device_id": dev_id(hub, "Kitchen Motion"), "confirm": True},
    )
    assert refused.error and "The hub offers: none" in refused.data["message"]
    assert "Pendants" not in refused.data["message"]


# ---------------------------------------------------------------- hub_search_compatible_devices


async def test_search_compatible_devices(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: its arguments reach the search, and a search with neither text nor
    protocol is refused, nothing read (the search itself:
    tests/managers/test_device_compatible.py)."""
    contacts = await ok(
        call_tool,
        "hub_search_compatible_devices",
        {"text": "contact", "protocol": "zigbee", "include_instructions": False},
    )
    assert [d["brand"] for d in contacts["devices"]] == ["Aqara"]
    assert "pairing" not in contacts["devices"][0]
    zooz = await ok(call_tool, "hub_search_compatible_devices", {"text": "zooz", "limit": 1})
    assert zooz["count"] == 1 and zooz["matches"] == 2 and zooz["devices"][0]["pairing"]
    before = len(hub.requests)
    nothing = await call_tool("hub_search_compatible_devices", {})
    assert nothing.error and nothing.data["error"] == "invalid_request"
    assert len(hub.requests) == before


# ---------------------------------------------------------------- hub_swap_device


async def test_swap_device_moves_every_app(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's part: the destructive tier's confirmation and the summary (the swap itself:
    tests/managers/test_swap.py::test_swap_device_moves_every_app)."""
    old_id, new_id = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Office Motion")
    old = hub.state.devices[int(old_id)]
    users = list(old.apps_using)
    assert users
    before = len(hub.requests)
    gate = await call_tool("hub_swap_device", {"old_device_id": old_id, "new_device_id": new_id})
    assert gate.error and gate.data["error"] == "confirmation_required"
    assert sent(hub, before) == [] and old.apps_using == users
    hub.mark_backup_now()
    data = await ok(
        call_tool,
        "hub_swap_device",
        {"old_device_id": old_id, "new_device_id": new_id, "confirm": True},
    )
    assert data["summary"] == f"{len(users)} app(s) moved from Kitchen Motion to Office Motion"
    assert old.apps_using == []


async def test_swap_device_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    light = dev_id(hub, "Kitchen Light")
    unused = await ok(
        call_tool, "hub_create_device", {"driver": "Virtual Switch", "label": "Spare"}
    )
    spare = unused["device"]["device_id"]
    child = next(str(d.id) for d in hub.state.devices.values() if d.parent_id is not None)
    start = len(hub.requests)
    for old_id, new_id, needle in (
        (light, light, "must differ"),
        (spare, light, "No app uses"),
        (child, light, "free-standing"),
    ):
        result = await call_tool(
            "hub_swap_device",
            {"old_device_id": old_id, "new_device_id": new_id, "confirm": True},
        )
        assert result.error and needle in result.data["message"], result.data
    assert not [p for _m, p in hub.requests[start:] if "swapDevice" in p or "/create/" in p]


async def test_swap_device_respects_the_allowlist(
    hass: Any, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    old_id, new_id = dev_id(hub, "Kitchen Motion"), dev_id(hub, "Office Motion")
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [old_id]})
    hub.mark_backup_now()
    start = len(hub.requests)
    result = await call_tool(
        "hub_swap_device", {"old_device_id": old_id, "new_device_id": new_id, "confirm": True}
    )
    assert result.error and result.data["error"] == "device_not_allowed"
    assert hub.requests[start:] == []


async def test_triggering_gets_are_not_retried(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """A busy answer to a GET that creates something is reported, never sent twice."""
    before = len(hub.state.devices)
    hub.faults.fail_paths = {"/device/createVirtual": 503}
    result = await call_tool("hub_create_device", {"driver": "Virtual Switch", "label": "Once"})
    assert result.error and result.data["error"] == "hub_bad_response"
    assert len([p for _m, p in hub.requests if p.startswith("/device/createVirtual")]) == 1
    assert len(hub.state.devices) == before
    # a plain read is still retried once on the same answer
    hub.faults.fail_paths = {}
    hub.faults.error_burst, hub.faults.error_status = 1, 503
    reads = await call_tool("hub_list_rooms")
    assert not reads.error, reads.data


# ---------------------------------------------------------------- contract: real-hub shapes


@pytest.fixture
def quick_effects(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes decided by effect give up after a short wait (the failure cases)."""
    monkeypatch.setattr(effects, "EFFECT_WAIT", 0.05)
    monkeypatch.setattr(effects, "EFFECT_INTERVAL", 0.01)


@asynccontextmanager
async def hub_client(hub: HubEmulator) -> AsyncIterator[HubClient]:
    url = URL(hub.url)
    conn = HubConnection(
        host=str(url.host), port=url.port, username=hub.username, password=hub.password
    )
    async with aiohttp.ClientSession() as session:
        yield HubClient(session, conn)


async def test_device_creation_reads_the_contract_answers() -> None:
    fake = FakeHub(
        {
            "GET /device/createVirtual": load_fixture("devices/create_virtual").answer,
            "GET /device/sysDriverByIdJson/500": load_fixture("devices/sys_driver_create").answer,
        }
    )
    assert await hub_devices.create_virtual(fake.client, "200") == "778"
    # the hub UI sends only deviceTypeId
    assert fake.calls[0][2]["params"] == {"deviceTypeId": "200"}
    assert await hub_devices.create_from_driver(fake.client, "500") == "777"


def _device_read(*, gone: bool = False, disabled: bool = False) -> Any:
    if gone:
        return HubNotFoundError("gone")
    raw = load_fixture("devices/full_json").answer
    return {**raw, "device": {**raw["device"], "disabled": disabled}}


@pytest.mark.usefixtures("quick_effects")
async def test_force_delete_is_decided_by_the_device_being_gone() -> None:
    answer = load_fixture("devices/force_delete").answer
    reads = iter([_device_read(), _device_read(gone=True)])
    fake = FakeHub(
        {
            "GET /device/forceDelete/41/json": answer,
            "GET /device/fullJson/41": lambda: next(reads),
        }
    )
    assert await hub_devices.force_delete(fake.client, "41") == "success"  # polled until gone
    fake.answers["GET /device/forceDelete/41/json"] = {**answer, "status": "partial"}
    fake.answers["GET /device/fullJson/41"] = _device_read(gone=True)
    assert await hub_devices.force_delete(fake.client, "41") == "partial"
    # a failure status whose effect is there anyway is a success
    fake.answers["GET /device/forceDelete/41/json"] = {**answer, "status": "failed"}
    assert await hub_devices.force_delete(fake.client, "41") is None
    # ... and without the effect, the hub's refusal stands
    fake.answers["GET /device/fullJson/41"] = _device_read()
    with pytest.raises(HubRefusedError, match="status 'failed'"):
        await hub_devices.force_delete(fake.client, "41")
    # "success" with the device still there is a failure, not a success
    fake.answers["GET /device/forceDelete/41/json"] = answer
    with pytest.raises(HubBadResponseError, match="still there"):
        await hub_devices.force_delete(fake.client, "41")
    # firmware without the /json form: the older confirm link
    fake.answers["GET /device/forceDelete/41/json"] = HubNotFoundError("no such path")
    fake.answers["GET /device/forceDelete/41/yes"] = "<html>deleted</html>"
    fake.answers["GET /device/fullJson/41"] = _device_read(gone=True)
    assert await hub_devices.force_delete(fake.client, "41") is None
    assert fake.calls[-2][1] == "/device/forceDelete/41/yes"


@pytest.mark.usefixtures("quick_effects")
async def test_disable_sends_what_the_hub_ui_sends_and_checks_the_flag() -> None:
    fake = FakeHub(
        {
            "POST /device/disable": {"success": True},
            "GET /device/fullJson/41": _device_read(disabled=True),
        }
    )
    await hub_devices.set_disabled(fake.client, "41", True)
    assert fake.calls[0][2]["json_body"] == {"id": 41, "disable": True}
    with pytest.raises(HubBadResponseError, match="still reads as disabled"):
        await hub_devices.set_disabled(fake.client, "41", False)


async def test_device_writes_answer_in_the_contract_shapes(hub: HubEmulator) -> None:
    vswitch = str(next(d.id for d in DRIVERS.values() if d.name == "Virtual Switch"))
    async with hub_client(hub) as client:
        created = await client.request(
            "GET", "/device/createVirtual", params={"deviceTypeId": vswitch}
        )
        assert_same_shape("devices/create_virtual", created)
        made = await client.get_json(f"/device/sysDriverByIdJson/{vswitch}")
        assert_same_shape("devices/sys_driver_create", made)
        gone = await client.get_json(f"/device/forceDelete/{created['deviceId']}/json")
        assert_same_shape("devices/force_delete", gone)
        old = dev_id(hub, "Kitchen Motion")
        options = await client.get_json(f"/device/getReplacementOptions/{old}")
        replaced = await client.request(
            "GET", "/device/replace", params={"oldId": old, "newId": str(options[0]["id"])}
        )
        assert_same_shape("devices/replace", replaced)


async def test_disable_is_the_hub_ui_json_and_verified(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    lamp = dev_id(hub, "Guest Lamp")
    data = await ok(call_tool, "hub_update_device", {"device_id": lamp, "enabled": False})
    assert data["applied"] == ["disabled"] and hub.device(lamp)["disabled"] is True
    data = await ok(call_tool, "hub_update_device", {"device_id": lamp, "enabled": True})
    assert data["applied"] == ["enabled"] and hub.device(lamp)["disabled"] is False


@pytest.mark.usefixtures("quick_effects")
async def test_preference_save_sends_the_hub_ui_body_and_reads_it_back() -> None:
    raw = load_fixture("devices/full_json").answer
    saved = {**raw, "settings": [{**raw["settings"][0], "value": True}]}
    reads = iter([raw, saved])
    fake = FakeHub(
        {
            "POST /device/preference/save": {"success": True},
            "GET /device/fullJson/41": lambda: next(reads),
        }
    )
    prefs = [{"name": "logEnable", "type": "bool", "value": True}]
    await hub_devices.save_preferences(fake.client, "41", prefs)
    assert fake.calls[1][2]["json_body"] == {
        "deviceId": 41,
        "defaultCurrentState": "",
        "commandRetry": False,
        "showOnHome": True,
        "preferences": prefs,
    }
    # a save that answers success but reads back unchanged is a failure
    fake.answers["GET /device/fullJson/41"] = raw
    with pytest.raises(HubBadResponseError, match="read back unchanged"):
        await hub_devices.save_preferences(fake.client, "41", prefs)


async def test_create_says_the_device_exists_when_the_label_fails(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.faults.fail_paths = {"/device/update": 500}
    result = await call_tool("hub_create_device", {"driver": "Virtual Switch", "label": "Porch"})
    assert result.error and result.data["error"] == "hub_bad_response"
    new_id = result.data["message"].split("created device ")[1].split(" ")[0]
    assert "label failed" in result.data["message"] and int(new_id) in hub.device_ids()
    assert "hub_update_device" in result.data["hint"]


async def test_a_deleted_device_read_as_an_error_page_is_settled_by_the_list() -> None:
    listed = load_fixture("devices/devices_list").answer
    fake = FakeHub(
        {
            "GET /device/forceDelete/41/json": load_fixture("devices/force_delete").answer,
            "GET /device/fullJson/41": HubBadResponseError("HTTP 500"),
            "GET /hub2/devicesList": listed,
        }
    )
    assert await hub_devices.force_delete(fake.client, "41") == "success"
    fake.answers["GET /device/fullJson/6"] = HubBadResponseError("HTTP 500")
    assert await hub_devices.device_gone(fake.client, "6") is False  # still listed
