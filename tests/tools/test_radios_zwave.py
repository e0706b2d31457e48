"""Radio tools on the Z-Wave radio: the repair (modern and C-5), inclusion and exclusion,
node actions and the removal of failed nodes, its settings (and their fixtures)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

import aiohttp
import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from yarl import URL

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubRefusedError
from custom_components.hubitat_dev_tools.hub.firmware import UNKNOWN_PLATFORM, Platform
from custom_components.hubitat_dev_tools.hub.radios import (
    js_param,
    update_zwave_settings,
    zwave_repair_modern,
)
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, refused
from ..contract import load_fixture
from ..ops_util import FixtureClient, fixture_manager, radio_manager


def zwave_mode(hub: HubEmulator) -> str | None:
    """The emulated Z-Wave mode read afresh: mypy keeps an attribute narrowed across awaits."""
    return hub.ops.zwave_mode


async def test_zwave_repair_start_progress_and_already_running(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.ops.repair_step = 0.2
    idle = await ok(call_tool, "hub_get_zwave_repair_status")
    assert idle["running"] is False
    started = await ok(call_tool, "hub_start_zwave_repair")
    assert started["started"] is True and started["running"] is True and "summary" in started
    again = await ok(call_tool, "hub_start_zwave_repair")
    assert again["started"] is False and "already running" in again["summary"]
    status = await ok(call_tool, "hub_get_zwave_repair_status")
    assert status["running"] is True and "Repairing node" in status["progress"]
    hub.ops.repair_step = 0.0
    for _ in range(200):
        if not hub.ops.repair_running:
            break
        await asyncio.sleep(0.05)
    done = await ok(call_tool, "hub_get_zwave_repair_status")
    assert done["running"] is False and "Finished" in done["progress"]


async def test_repair_respects_write_master(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    from custom_components.hubitat_dev_tools.const import OPT_ALLOW_WRITE

    from ..conftest import add_entry

    await add_entry(hass, hub, options={OPT_ALLOW_WRITE: False})
    before = len(hub.requests)
    await refused(call_tool, "hub_start_zwave_repair", {}, "writes_disabled")
    assert hub.requests[before:] == []
    assert (await ok(call_tool, "hub_get_zwave_repair_status"))["running"] is False


async def test_zwave_inclusion_exclusion_and_node_actions(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    started = await ok(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"}
    )
    assert hub.ops.zwave_mode == "including" and "pairing mode" in started["note"]
    busy = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"}
    )
    assert "including is running" in busy["message"]
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_stop"})
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"})
    assert hub.ops.zwave_mode == "excluding"
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_stop"})
    assert zwave_mode(hub) is None
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    node = next(n for n in details["zwave"]["nodes"] if n["nodeState"] == "OK" and n["nodeId"] > 1)
    refreshed = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_refresh", "node_id": node["nodeId"]},
    )
    assert refreshed["device_id"] == node["deviceId"]
    assert hub.ops.radio_calls[-1] == "/hub/zwave/refreshNodeStatus"


async def test_delete_failed_zwave_node(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    failed = next(iter(hub.ops.failed_zwave_nodes))
    gate = await refused(call_tool, "hub_delete_zwave_node", {"node_id": failed})
    assert gate["error"] == "confirmation_required"
    hub.mark_backup_now()
    details = await ok(call_tool, "hub_get_radio_details", {"radio": "zwave"})
    working = next(
        n for n in details["zwave"]["nodes"] if n["nodeState"] == "OK" and n["nodeId"] > 1
    )
    before = len(hub.ops.radio_calls)
    alive = await refused(
        call_tool, "hub_delete_zwave_node", {"node_id": working["nodeId"], "confirm": True}
    )
    assert "exclusion_start" in alive["hint"] and hub.ops.radio_calls[before:] == []
    device_id = next(
        n["device_id"] for n in details["zwave"]["failed_nodes"] if n["node_id"] == failed
    )
    removed = await ok(call_tool, "hub_delete_zwave_node", {"node_id": failed, "confirm": True})
    assert removed["removed"] is True and removed["device_id"] == device_id
    assert device_id not in hub.state.devices and failed not in hub.ops.failed_zwave_nodes


async def test_radio_actions_respect_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    failed = next(iter(hub.ops.failed_zwave_nodes))
    node_device = next(
        d
        for d in hub.state.devices.values()
        if d.driver.protocol == "zwave" and d.parent_id is None and int(d.dni, 16) == failed
    )
    other = next(
        d for d in hub.state.devices.values() if d.id != node_device.id and d.parent_id is None
    )
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(other.id)]})
    hub.mark_backup_now()
    start = len(hub.ops.radio_calls)
    refresh = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_refresh", "node_id": failed},
    )
    assert refresh["error"] == "device_not_allowed"
    exclusion = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "exclusion_start"}
    )
    assert exclusion["error"] == "device_not_allowed"
    removal = await refused(
        call_tool, "hub_delete_zwave_node", {"node_id": failed, "confirm": True}
    )
    assert removal["error"] == "device_not_allowed"
    assert hub.ops.radio_calls[start:] == [] and node_device.id in hub.state.devices
    # inclusion only adds devices: still allowed
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"})


# ---------------------------------------------------------------- contract fixtures


def test_repair_kind_follows_the_hub_flags_then_the_model() -> None:
    details = load_fixture("radios/zwave_details").answer
    assert zwave_repair_modern(details, Platform(model="C-5")) is True  # the flags win
    flags_off = {**details, "zwaveIP": False, "zwaveJS": False}
    assert zwave_repair_modern(flags_off, UNKNOWN_PLATFORM) is False
    assert zwave_repair_modern({**flags_off, "zwaveJS": True}, UNKNOWN_PLATFORM) is True
    no_flags = {k: v for k, v in details.items() if k not in ("zwaveIP", "zwaveJS")}
    assert zwave_repair_modern(no_flags, Platform(model="C-5")) is False
    assert zwave_repair_modern(no_flags, Platform(model="C-8 Pro")) is True
    assert zwave_repair_modern(no_flags, UNKNOWN_PLATFORM) is True
    # query values as the hub UI's URLSearchParams writes them
    assert (js_param(True), js_param(False), js_param("USLR")) == ("true", "false", "USLR")
    assert js_param(1) == js_param(1.0) == "1"


async def test_repair_from_the_fixtures_modern_and_c5() -> None:
    paths = {
        "/hub/zwaveDetails/json": "radios/zwave_details",
        "/hub/zwaveRepair2": "radios/zwave_repair_start",
        "/hub/zwaveRepair2Status": "radios/zwave_repair_status",
    }
    manager, fake = fixture_manager(paths)
    started = await manager.start_repair()
    assert started["started"] is True and started["running"] is False  # the fixture: IDLE
    assert ("/hub/zwaveRepair2", {"resetStats": "false", "maxHealth": "10"}) in fake.sent
    # a C-5 (flags off): checkZwaveRepairRunning first, then zwaveRepair; status by the flag
    legacy = {**load_fixture("radios/zwave_details").answer, "zwaveIP": False}
    c5 = FixtureClient(
        {
            "/hub/zwaveDetails/json": legacy,
            "/hub/checkZwaveRepairRunning": load_fixture("radios/zwave_repair_running").answer,
            "/hub/zwaveRepair": load_fixture("radios/zwave_repair_start").answer,
        }
    )
    started = await radio_manager(c5).start_repair()
    assert started["started"] is True and started["running"] is False
    assert [p for p, _ in c5.sent] == [
        "/hub/zwaveDetails/json",
        "/hub/checkZwaveRepairRunning",
        "/hub/zwaveRepair",
        "/hub/checkZwaveRepairRunning",
    ]


# ---------------------------------------------------------------- against the emulator


async def test_zwave_repair_on_a_c5(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.state.model = "C-5"
    hub.ops.repair_step = 0.2
    start = len(hub.requests)
    started = await ok(call_tool, "hub_start_zwave_repair")
    assert started["started"] is True and started["running"] is True
    sent = [p.split("?")[0] for _m, p in hub.requests[start:]]
    assert "/hub/zwaveRepair" in sent and "/hub/zwaveRepair2" not in sent
    again = await ok(call_tool, "hub_start_zwave_repair")
    assert again["started"] is False
    status = await ok(call_tool, "hub_get_zwave_repair_status")
    assert status["running"] is True and status["stage"] is None
    cancel = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "repair_cancel"}
    )
    assert cancel["error"] == "firmware_unsupported"
    details = await ok(
        call_tool, "hub_get_radio_details", {"radio": "zwave", "include_topology": True}
    )
    assert details["zwave"]["topology_unavailable"] == "firmware_unsupported"
    assert not any(p.startswith("/hub/zwaveRepair2") for _m, p in hub.requests[start:])


async def test_zwave_repair_modern_sends_what_the_hub_ui_sends(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    await ok(call_tool, "hub_start_zwave_repair")
    sent = [p for _m, p in hub.requests[start:]]
    assert "/hub/zwaveRepair2?resetStats=false&maxHealth=10" in sent
    assert "/hub/zwaveRepair" not in [p.split("?")[0] for p in sent]
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "repair_cancel"})
    assert hub.ops.repair_running is False


async def test_zwave_settings_refusals_and_effect_check(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    hub.mark_backup_now()
    args = {"radio": "zwave", "long_range_channel": 1, "confirm": True}
    hub.ops.zwave_region = "EU"  # no Long Range there
    start = len(hub.requests)
    eu = await refused(call_tool, "hub_update_radio_settings", args, "invalid_request")
    assert "Long Range" in eu["message"]
    hub.ops.zwave_region = "USLR"
    hub.ops.radio_enabled["zwave"] = False
    await refused(call_tool, "hub_update_radio_settings", args, "invalid_request")
    assert not any("/update" in p or "/enable/" in p for _m, p in hub.requests[start:])
    hub.ops.radio_enabled["zwave"] = True
    # the hub answers success but nothing changes: a failure, not a success
    hub.ops.settings_ignored = True
    lied = await refused(call_tool, "hub_update_radio_settings", args, "hub_bad_response")
    assert "long_range_channel" in lied["message"]


async def test_zwave_update_refused_but_applied_is_a_success() -> None:
    details = dict(load_fixture("radios/zwave_details").answer)

    class Refusing(FixtureClient):
        async def request(self, method: str, path: str, **kw: Any) -> Any:
            if path == "/hub/zwaveDetails/update":
                self.sent.append((path, kw.get("params")))
                details["longRangeChannel"] = 0  # the hub applied it ...
                raise HubRefusedError("The hub refused to change the Z-Wave settings")
            return await super().request(method, path, **kw)

    fake = Refusing({"/hub/zwaveDetails/json": details})
    result = await radio_manager(fake).update_settings("zwave", {"long_range_channel": 0})
    assert result["settings"] == {"long_range_channel": 0}  # ... so it is a success
    assert fake.sent[1] == (
        "/hub/zwaveDetails/update",
        {"enabled": "true", "region": "USLR", "secureJoin": "1", "longRangeChannel": "0"},
    )


async def test_zwave_update_that_resets_another_setting_is_a_failure() -> None:
    details = dict(load_fixture("radios/zwave_details").answer)

    class Resetting(FixtureClient):
        async def request(self, method: str, path: str, **kw: Any) -> Any:
            if path == "/hub/zwaveDetails/update":
                details.update(longRangeChannel=1, secureJoin=0)  # a full replacement's harm
                return {"success": True}
            return await super().request(method, path, **kw)

    manager = radio_manager(Resetting({"/hub/zwaveDetails/json": details}))
    with pytest.raises(HubBadResponseError, match="secureJoin=0"):
        await manager.update_settings("zwave", {"long_range_channel": 1})


async def test_zwave_update_leaves_out_a_secure_join_the_hub_did_not_report() -> None:
    # The hub UI sends secureJoin as zwaveDetails/json reported it; a hub that does not offer
    # Secure Join (showSecureJoin false) may report none: it is left out, never sent as "None".
    details = dict(load_fixture("radios/zwave_details").answer)
    details.update(showSecureJoin=False, secureJoin=None)

    class Applying(FixtureClient):
        async def request(self, method: str, path: str, **kw: Any) -> Any:
            if path == "/hub/zwaveDetails/update":
                params = kw["params"]
                self.sent.append((path, params))
                if "longRangeChannel" in params:
                    details["longRangeChannel"] = int(params["longRangeChannel"])
                return {"success": True}
            return await super().request(method, path, **kw)

    fake = Applying({"/hub/zwaveDetails/json": details})
    result = await radio_manager(fake).update_settings("zwave", {"long_range_channel": 0})
    assert result["settings"] == {"long_range_channel": 0}  # read back
    updates = [params for path, params in fake.sent if path == "/hub/zwaveDetails/update"]
    assert updates == [{"enabled": "true", "region": "USLR", "longRangeChannel": "0"}]
    # a placeholder the hub reports for "not set" is not sent back either
    await update_zwave_settings(
        cast(HubClient, fake),
        enabled=True,
        region="EU",
        secure_join="null",
        long_range_channel=None,
        timeout=1.0,
    )
    assert fake.sent[-1] == ("/hub/zwaveDetails/update", {"enabled": "true", "region": "EU"})
    # a value the hub reported goes back as the UI writes it
    await update_zwave_settings(
        cast(HubClient, fake),
        enabled=True,
        region="EU",
        secure_join=0,
        long_range_channel=None,
        timeout=1.0,
    )
    assert fake.sent[-1][1] == {"enabled": "true", "region": "EU", "secureJoin": "0"}


async def test_emulator_zwave_update_takes_secure_join_as_reported(hub: HubEmulator) -> None:
    url = URL(hub.url)
    async with aiohttp.ClientSession() as session:
        client = HubClient(session, HubConnection(host=str(url.host), port=url.port))
        before = await client.get_json("/hub/zwaveDetails/json")
        ui = {"enabled": "true", "region": "USLR", "secureJoin": "1", "longRangeChannel": "0"}
        await client.request("GET", "/hub/zwaveDetails/update", params=ui, expect="any")
        after = await client.get_json("/hub/zwaveDetails/json")
        assert (before["secureJoin"], after["secureJoin"], after["longRangeChannel"]) == (1, 1, 0)
        # the text "None" is no setting: Secure Join is reset, as when it is missing (assumed)
        await client.request(
            "GET", "/hub/zwaveDetails/update", params={**ui, "secureJoin": "None"}, expect="any"
        )
        assert (await client.get_json("/hub/zwaveDetails/json"))["secureJoin"] == 0


# ---------------------------------------------------------------- S2: a subset of the keys


def radio_calls_since(hub: HubEmulator, before: int) -> list[str]:
    return hub.ops.radio_calls[before:]


async def test_s2_grant_a_subset_of_the_requested_keys(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rs = hub.ops.radio_state
    rs.s2_device = True
    action = {"radio": "zwave", "action": "s2_grant_keys"}
    await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "inclusion_start"})
    # a key the device did not ask for (it asks for Access Control and Authenticated)
    before = len(hub.ops.radio_calls)
    wrong = await refused(call_tool, "hub_call_radio_action", {**action, "s2_keys": ["S0"]})
    assert "did not ask for S0" in wrong["message"]
    bad = await refused(call_tool, "hub_call_radio_action", {**action, "s2_keys": ["S3"]})
    assert bad["error"] == "invalid_arguments"
    skip = {"radio": "zwave", "action": "s2_skip", "s2_keys": ["S2 Authenticated"]}
    await refused(call_tool, "hub_call_radio_action", skip)
    assert radio_calls_since(hub, before) == [] and rs.s2_stage == "grantKeys"
    granted = await ok(
        call_tool, "hub_call_radio_action", {**action, "s2_keys": ["S2 Authenticated"]}
    )
    assert granted["granted_keys"] == ["S2 Authenticated"]
    assert granted["refused_keys"] == ["S2 Access Control"]
    assert rs.s2_granted == ["S2Authenticated"]
    assert granted["inclusion"]["waiting_for"] == "s2_pin"  # read back: the hub moved on
    done = await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "s2_enter_pin", "dsk_pin": rs.s2_pin},
    )
    assert done["inclusion"]["waiting_for"] is None
    assert rs.s2_result == "S2 Authenticated"  # joined with the subset, not Access Control
    assert rs.s2_pin not in json.dumps(done)


async def test_s2_keys_during_a_node_replace(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rs = hub.ops.radio_state
    rs.replace_s2 = True
    failed = next(iter(hub.ops.failed_zwave_nodes))
    action = {"radio": "zwave", "action": "s2_grant_keys"}
    await ok(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "node_replace", "node_id": failed},
    )
    read = {"radio": "zwave", "include": ["node_replace"]}
    status = (await ok(call_tool, "hub_get_radio_details", read))["node_replace"]
    assert status["waiting_for"] == "s2_keys"
    assert status["requested_keys"] == ["S2 Access Control", "S2 Authenticated"]
    before = len(hub.ops.radio_calls)
    await refused(call_tool, "hub_call_radio_action", {**action, "s2_keys": ["S2 Unauthenticated"]})
    await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "s2_enter_pin", "dsk_pin": rs.s2_pin},
    )
    assert radio_calls_since(hub, before) == []
    assert rs.replace["s2_stage"] == "grantKeys"
    granted = await ok(
        call_tool, "hub_call_radio_action", {**action, "s2_keys": ["S2 Access Control"]}
    )
    assert "node replace" in granted["summary"]
    assert granted["granted_keys"] == ["S2 Access Control"]
    # the replace dialog's fields, as a form
    assert radio_calls_since(hub, before) == [
        "/hub/zwave/nodeReplace/securityKeys application/x-www-form-urlencoded"
    ]
    assert rs.replace["granted"] == ["S2AccessControl"]
    assert granted["replace"]["waiting_for"] == "s2_pin"
    # the PIN of a replace: only the hub's own page takes it; nothing is sent
    before = len(hub.ops.radio_calls)
    pin = await refused(
        call_tool,
        "hub_call_radio_action",
        {"radio": "zwave", "action": "s2_enter_pin", "dsk_pin": rs.s2_pin},
    )
    assert "Replace page" in pin["message"]
    assert radio_calls_since(hub, before) == [] and rs.s2_pin not in json.dumps(pin)
    status = (await ok(call_tool, "hub_get_radio_details", read))["node_replace"]
    assert status["waiting_for"] == "s2_pin" and "Replace page" in status["note"]


async def test_s2_skip_during_a_node_replace_and_a_hub_that_ignores_it(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    rs = hub.ops.radio_state
    rs.replace_s2 = True
    failed = next(iter(hub.ops.failed_zwave_nodes))
    start = {"radio": "zwave", "action": "node_replace", "node_id": failed}
    await ok(call_tool, "hub_call_radio_action", start)
    rs.s2_ignored = True
    ignored = await refused(
        call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "s2_grant_keys"}
    )
    assert ignored["error"] == "hub_bad_response" and rs.replace["s2_stage"] == "grantKeys"
    rs.s2_ignored = False
    skipped = await ok(call_tool, "hub_call_radio_action", {"radio": "zwave", "action": "s2_skip"})
    assert skipped["replace"]["running"] is False and skipped["replace"]["waiting_for"] is None
    assert rs.replace["security"] == "None" and "granted_keys" not in skipped
