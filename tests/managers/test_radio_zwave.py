"""The Z-Wave inclusion prompts, SmartStart and the Zigbee keep-alive ping
(``managers/radio_zwave.py``, through the radio manager's ``radio_action`` and ``details``) on
their own, no hass: the S2 keys (all requested ones or a chosen subset, never one the device
did not ask for) and the DSK PIN answered only while the hub asks for them, during an
inclusion or a node replace, and read back; the PIN sent once and never echoed or logged;
SmartStart entries named by a hash of their DSK and deleted only when listed and deletable;
the per-device ping read back per device; the arguments each operation takes; over the
emulated hub and the recorded hub answers.

Moved from tests/tools/test_radios_more.py and tests/tools/test_radios_zwave.py (the
inclusion logic is the manager's; the tools' argument checks (an unknown S2 key name), the
device allowlist, the PIN and the DSK kept out of the audit trail, and the notes that name
the next tool stay there)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.radio_zwave import (
    ActionExtra,
    inclusion_view,
    smartstart_id,
)
from hubitat_emulator import HubEmulator

from ..contract import load_fixture

PIN = "24680"


async def act(
    manager_hub: Hub,
    action: str,
    node_id: int | None = None,
    *,
    radio: str = "zwave",
    **extra: Any,
) -> dict[str, Any]:
    """One radio operation, with the arguments only some operations take."""
    return await manager_hub.radios.radio_action(
        radio, action, node_id, None, extra=ActionExtra(**extra)
    )


async def refused(
    manager_hub: Hub,
    action: str,
    node_id: int | None = None,
    *,
    radio: str = "zwave",
    **extra: Any,
) -> ToolError:
    """The operation, refused by the manager (before anything is sent)."""
    with pytest.raises(ToolError) as err:
        await act(manager_hub, action, node_id, radio=radio, **extra)
    return err.value


async def block(manager_hub: Hub, name: str) -> dict[str, Any]:
    """One ``include`` block of the Z-Wave details."""
    seen = await manager_hub.radios.details("zwave", None, False, 100, (name,))
    block: dict[str, Any] = seen[name]
    return block


def radio_calls_since(emu: HubEmulator, before: int) -> list[str]:
    return emu.ops.radio_calls[before:]


# ------------------------------------------------------------------ S2 during an inclusion


async def test_s2_inclusion_grant_keys_then_pin(
    emu: HubEmulator, manager_hub: Hub, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    rs = emu.ops.radio_state
    rs.s2_device = True
    # nothing pending yet: refused before anything is sent
    before = len(emu.ops.radio_calls)
    nothing = await refused(manager_hub, "s2_grant_keys")
    assert nothing.code == "invalid_request" and "waits for nothing" in str(nothing)
    assert radio_calls_since(emu, before) == []
    await act(manager_hub, "inclusion_start")
    inclusion = await block(manager_hub, "inclusion")
    assert inclusion["waiting_for"] == "s2_keys"
    assert inclusion["requested_keys"] == ["S2 Access Control", "S2 Authenticated"]
    # a PIN while the hub asks for keys: refused, nothing sent
    before = len(emu.ops.radio_calls)
    early = await refused(manager_hub, "s2_enter_pin", dsk_pin=PIN)
    assert early.code == "invalid_request" and "S2 PIN" in str(early)
    assert radio_calls_since(emu, before) == []
    granted = await act(manager_hub, "s2_grant_keys")
    assert granted["inclusion"]["waiting_for"] == "s2_pin"
    assert granted["granted_keys"] == ["S2 Access Control", "S2 Authenticated"]
    # the UI's bare fetch: JSON text, not a JSON content type
    assert "/hub/zwave/securityKeys text/plain" in emu.ops.radio_calls
    bad = await refused(manager_hub, "s2_enter_pin", dsk_pin="12ab5")
    assert bad.code == "invalid_request" and "5 digits" in str(bad)
    done = await act(manager_hub, "s2_enter_pin", dsk_pin=PIN)
    assert done["inclusion"]["waiting_for"] is None
    assert rs.s2_result == "S2 Access Control"
    assert done["inclusion"]["found_devices"] == [{"id": "77", "name": "Front Door Lock"}]
    # the PIN is nowhere: not in the answer or the logs
    assert PIN not in json.dumps(done)
    assert PIN not in caplog.text


async def test_s2_skip_and_a_hub_that_ignores_the_answer(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    rs = emu.ops.radio_state
    rs.s2_device = True
    await act(manager_hub, "inclusion_start")
    skipped = await act(manager_hub, "s2_skip")
    assert "skipped" in skipped["summary"] and rs.s2_result == "None"
    rs.s2_result, rs.s2_stage, rs.s2_ignored = None, None, True
    with pytest.raises(HubBadResponseError) as err:
        await act(manager_hub, "s2_grant_keys")
    assert err.value.code == "hub_bad_response"


async def test_s2_grant_a_subset_of_the_requested_keys(emu: HubEmulator, manager_hub: Hub) -> None:
    rs = emu.ops.radio_state
    rs.s2_device = True
    await act(manager_hub, "inclusion_start")
    # a key the device did not ask for (it asks for Access Control and Authenticated)
    before = len(emu.ops.radio_calls)
    wrong = await refused(manager_hub, "s2_grant_keys", s2_keys=["S0"])
    assert "did not ask for S0" in str(wrong)
    unknown = await refused(manager_hub, "s2_grant_keys", s2_keys=["S3"])
    assert "Unknown S2 key S3" in str(unknown)
    await refused(manager_hub, "s2_skip", s2_keys=["S2 Authenticated"])
    assert radio_calls_since(emu, before) == [] and rs.s2_stage == "grantKeys"
    granted = await act(manager_hub, "s2_grant_keys", s2_keys=["S2 Authenticated"])
    assert granted["granted_keys"] == ["S2 Authenticated"]
    assert granted["refused_keys"] == ["S2 Access Control"]
    assert rs.s2_granted == ["S2Authenticated"]
    assert granted["inclusion"]["waiting_for"] == "s2_pin"  # read back: the hub moved on
    done = await act(manager_hub, "s2_enter_pin", dsk_pin=rs.s2_pin)
    assert done["inclusion"]["waiting_for"] is None
    assert rs.s2_result == "S2 Authenticated"  # joined with the subset, not Access Control
    assert rs.s2_pin not in json.dumps(done)


# ------------------------------------------------------------------ S2 during a node replace


async def test_s2_keys_during_a_node_replace(emu: HubEmulator, manager_hub: Hub) -> None:
    rs = emu.ops.radio_state
    rs.replace_s2 = True
    failed = next(iter(emu.ops.failed_zwave_nodes))
    await act(manager_hub, "node_replace", failed)
    status = await block(manager_hub, "node_replace")
    assert status["waiting_for"] == "s2_keys"
    assert status["requested_keys"] == ["S2 Access Control", "S2 Authenticated"]
    before = len(emu.ops.radio_calls)
    await refused(manager_hub, "s2_grant_keys", s2_keys=["S2 Unauthenticated"])
    await refused(manager_hub, "s2_enter_pin", dsk_pin=rs.s2_pin)
    assert radio_calls_since(emu, before) == []
    assert rs.replace["s2_stage"] == "grantKeys"
    granted = await act(manager_hub, "s2_grant_keys", s2_keys=["S2 Access Control"])
    assert "node replace" in granted["summary"]
    assert granted["granted_keys"] == ["S2 Access Control"]
    # the replace dialog's fields, as a form
    assert radio_calls_since(emu, before) == [
        "/hub/zwave/nodeReplace/securityKeys application/x-www-form-urlencoded"
    ]
    assert rs.replace["granted"] == ["S2AccessControl"]
    assert granted["replace"]["waiting_for"] == "s2_pin"
    # the PIN of a replace: only the hub's own page takes it; nothing is sent
    before = len(emu.ops.radio_calls)
    pin = await refused(manager_hub, "s2_enter_pin", dsk_pin=rs.s2_pin)
    assert "Replace page" in str(pin) and pin.code == "invalid_request"
    assert radio_calls_since(emu, before) == [] and rs.s2_pin not in str(pin)
    status = await block(manager_hub, "node_replace")
    assert status["waiting_for"] == "s2_pin" and "Replace page" in status["note"]


async def test_s2_skip_during_a_node_replace_and_a_hub_that_ignores_it(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    rs = emu.ops.radio_state
    rs.replace_s2 = True
    failed = next(iter(emu.ops.failed_zwave_nodes))
    await act(manager_hub, "node_replace", failed)
    rs.s2_ignored = True
    with pytest.raises(HubBadResponseError) as ignored:
        await act(manager_hub, "s2_grant_keys")
    assert ignored.value.code == "hub_bad_response" and rs.replace["s2_stage"] == "grantKeys"
    rs.s2_ignored = False
    skipped = await act(manager_hub, "s2_skip")
    assert skipped["replace"]["running"] is False and skipped["replace"]["waiting_for"] is None
    assert rs.replace["security"] == "None" and "granted_keys" not in skipped


def test_inclusion_view_reads_the_ui_shapes() -> None:
    keys = inclusion_view(
        {"deviceMap": {}, "initMap": {"12": {"type": "zwave", "stage": "SECURITY"}},
         "userRequest": {"type": "grantKeys", "S2AccessControl": "true",
                         "S2Authenticated": "false", "S0Unauthenticated": "true"}}
    )  # fmt: skip
    assert keys["requested_keys"] == ["S2 Access Control", "S0"]
    assert keys["initializing"] == [{"id": "12", "stage": "SECURITY", "type": "zwave"}]
    pin = inclusion_view({"userRequest": {"type": "securityCode", "securityCode": "-1-2"}})
    assert pin["waiting_for"] == "s2_pin" and "-1-2" not in json.dumps(pin)


def test_fixtures_feed_the_parsers() -> None:
    status = load_fixture("radios/zwave_inclusion_s2").answer
    assert inclusion_view(status)["waiting_for"] == "s2_keys"
    items = load_fixture("radios/smartstart_list").answer["items"]
    assert items and all("dsk" in i and "nodeName" in i for i in items)


# ------------------------------------------------------------------ SmartStart


async def test_smartstart_list_and_delete(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await manager_hub.radios.details("zwave", None, False, 100, ("smartstart",))
    smartstart = data["smartstart"]
    assert smartstart["count"] == 2
    pending, included = smartstart["entries"]
    assert pending["name"] == "Garage Sensor" and pending["can_delete"] is True
    # no DSK digits in the answer: entries are named by a hash
    dsk = emu.ops.radio_state.smartstart[0]["dsk"]
    assert pending["id"] == smartstart_id(dsk)
    assert dsk[:5] not in json.dumps(data) and dsk[-5:] not in json.dumps(data)
    start = len(emu.requests)
    not_deletable = await refused(manager_hub, "smartstart_delete", smartstart_id=included["id"])
    assert "does not offer to delete" in str(not_deletable)
    missing = await refused(manager_hub, "smartstart_delete", smartstart_id="nothere")
    assert missing.subject == "smartstart_entry"
    assert not any("delete" in p.lower() for _m, p in emu.requests[start:])
    gone = await act(manager_hub, "smartstart_delete", smartstart_id=pending["id"])
    assert gone["deleted"] is True
    assert [e["nodeName"] for e in emu.ops.radio_state.smartstart] == ["Hall Dimmer"]
    assert dsk not in json.dumps(gone)


async def test_smartstart_delete_without_effect_is_an_error(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.ops.radio_state.smartstart_ignored = True
    entry_id = smartstart_id(emu.ops.radio_state.smartstart[0]["dsk"])
    with pytest.raises(HubBadResponseError) as err:
        await act(manager_hub, "smartstart_delete", smartstart_id=entry_id)
    assert err.value.code == "hub_bad_response"


# ------------------------------------------------------------------ arguments, Zigbee ping


async def test_action_arguments_are_paired(emu: HubEmulator, manager_hub: Hub) -> None:
    start = len(emu.requests)
    for radio, action, extra in (
        ("zwave", "s2_enter_pin", {}),
        ("zwave", "s2_skip", {"dsk_pin": PIN}),
        ("zwave", "smartstart_delete", {}),
        ("zigbee", "ping_on", {}),
        ("zigbee", "radio_reboot", {"device_ids": ["1"]}),
        ("zigbee", "s2_skip", {}),
    ):
        err = await refused(manager_hub, action, radio=radio, **extra)
        assert err.code == "invalid_request" and "Nothing was sent" in str(err)
    assert emu.requests[start:] == []


async def test_zigbee_keep_alive_ping(emu: HubEmulator, manager_hub: Hub) -> None:
    zigbee = [d for d in emu.state.devices.values() if d.driver.protocol == "zigbee"]
    device = next(d for d in zigbee if d.parent_id is None and d.id % 2 == 0)  # ping on
    zwave_device = next(d for d in emu.state.devices.values() if d.driver.protocol == "zwave")
    data = await act(
        manager_hub,
        "ping_off",
        radio="zigbee",
        device_ids=[str(device.id), str(zwave_device.id)],
    )
    first, second = data["devices"]
    assert first == {"device_id": str(device.id), "name": device.display_name, "ping": False}
    assert second["error"] == "not a Zigbee device"
    assert emu.ops.radio_state.zigbee_ping == {device.id: False}
    assert "1 of 2" in data["summary"]


async def test_ping_skips_a_device_outside_the_allowlist(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    """New: the manager's own per-device refusal (the tool's allowlist: the tool test)."""
    zigbee = [d for d in emu.state.devices.values() if d.driver.protocol == "zigbee"]
    device = next(d for d in zigbee if d.parent_id is None)
    start = len(emu.requests)
    data = await manager_hub.radios.radio_action(
        "zigbee",
        "ping_on",
        None,
        None,
        extra=ActionExtra(device_ids=[str(device.id)]),
        device_allowed=lambda _device_id: False,
    )
    assert data["devices"] == [{"device_id": str(device.id), "error": "device_not_allowed"}]
    assert "0 of 1" in data["summary"]
    assert not [p for _m, p in emu.requests[start:] if "updatePingDevice" in p]
