"""The library's radio functions (``hub/radios.py``) on their own, no hass: the Zigbee
channel scan's rows read from the hub's JSON answer (a plain array or the older wrapped
one, never its HTML page), the radio operations' answers in the hub's recorded shapes (the
start and stop answers as the hub gives them, the C-5 repair checking for a running one
first, a refusal raised from the failure envelope), which Z-Wave repair a hub takes (its
flags, then its model) and the query values written as the hub UI writes them, the Z-Wave
settings update sending a Secure Join only as the hub reported it, and the emulated hub
answering the write requests in the recorded shapes and taking the Secure Join as reported.

Moved from tests/managers/test_radios.py (test_write_answers_have_the_fixture_shapes,
test_radio_operation_answers_in_the_real_shapes,
test_repair_kind_follows_the_hub_flags_then_the_model), tests/managers/test_radio_scan.py
(test_channel_scan_parser_reads_both_shapes) and tests/managers/test_radio_settings.py
(test_emulator_zwave_update_takes_secure_join_as_reported, and the library half of
test_zwave_update_leaves_out_a_secure_join_the_hub_did_not_report as
test_zwave_update_sends_secure_join_as_reported); the radio managers' logic stays there."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools.hub.answers import check_success
from custom_components.hubitat_dev_tools.hub.client import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.errors import HubBadResponseError, HubRefusedError
from custom_components.hubitat_dev_tools.hub.firmware import UNKNOWN_PLATFORM, Platform
from custom_components.hubitat_dev_tools.hub.radios import (
    RADIO_ACTIONS,
    call_radio_action,
    js_param,
    parse_channel_scan,
    start_zwave_repair,
    update_zwave_settings,
    zwave_repair_modern,
)
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape, load_fixture
from ..fixture_client import fixture_client
from ..hub_fake import FakeHub


def _action_for(path: str) -> str:
    return next(a for a, (_r, _m, p, _n) in RADIO_ACTIONS.items() if p == path)


# ------------------------------------------------------------------ recorded hub answers


def test_channel_scan_parser_reads_both_shapes() -> None:
    rows = parse_channel_scan(load_fixture("radios/zigbee_channel_scan").answer)
    assert rows[0] == {
        "channel": 15,
        "rssi": -71,
        "lqi": 188,
        "pan_id": "1A0F",
        "extended_pan_id": "00124B000000000F",
    }
    wrapped = {"results": load_fixture("radios/zigbee_channel_scan").answer}  # older reference
    assert parse_channel_scan(wrapped) == rows
    # the scan PAGE is HTML, not data: never read as a result
    with pytest.raises(HubBadResponseError):
        parse_channel_scan(load_fixture("radios/zigbee_channel_scan_page").answer_text)


async def test_radio_operation_answers_in_the_real_shapes() -> None:
    """The start/stop/pair answers the hub UI reads (success, message) through our parser."""
    for name, path in (
        ("radios/zwave_join", "/hub/startZwaveJoin"),
        ("radios/zwave_repair_cancel", "/hub/zwaveCancelRepair"),
    ):
        answer = await call_radio_action(fixture_client(name), _action_for(path))
        assert answer == load_fixture(name).answer
    c5 = FakeHub(
        {
            "GET /hub/checkZwaveRepairRunning": {"isZWaveNetworkHealRunning": "false"},
            "GET /hub/zwaveRepair": load_fixture("radios/zwave_repair_c5_start").answer,
        }
    )
    started = await start_zwave_repair(c5.client, modern=False)
    assert started["success"] is True
    assert [path for _m, path, _k in c5.calls] == [
        "/hub/checkZwaveRepairRunning",
        "/hub/zwaveRepair",
    ]
    # A refusal in the real shape is the failure envelope the client raises on.
    with pytest.raises(HubRefusedError) as err:
        check_success(load_fixture("radios/matter_pair").answer, "pair a Matter device")
    assert err.value.reason == "Invalid setup code"


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


async def test_zwave_update_sends_secure_join_as_reported() -> None:
    """The Z-Wave settings update sends ``secureJoin`` as ``zwaveDetails/json`` reported it:
    a placeholder the hub reports for "not set" is not sent back, a value it reported goes
    back as the UI writes it (the manager's merge of the current settings:
    tests/managers/test_radio_settings.py)."""
    fake = FakeHub({"GET /hub/zwaveDetails/update": {"success": True}})

    def last_sent() -> tuple[str, Any]:
        _method, path, kwargs = fake.calls[-1]
        return path, kwargs["params"]

    # a placeholder the hub reports for "not set" is not sent back either
    await update_zwave_settings(
        fake.client,
        enabled=True,
        region="EU",
        secure_join="null",
        long_range_channel=None,
        timeout=1.0,
    )
    assert last_sent() == ("/hub/zwaveDetails/update", {"enabled": "true", "region": "EU"})
    # a value the hub reported goes back as the UI writes it
    await update_zwave_settings(
        fake.client,
        enabled=True,
        region="EU",
        secure_join=0,
        long_range_channel=None,
        timeout=1.0,
    )
    assert last_sent()[1] == {"enabled": "true", "region": "EU", "secureJoin": "0"}


# ------------------------------------------------------------------ the emulated hub


async def test_write_answers_have_the_fixture_shapes(hub: HubEmulator) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{hub.url}/hub/zwaveRepair2?resetStats=false&maxHealth=10") as r:
            assert_same_shape("radios/zwave_repair_start", await r.json(content_type=None))
        async with session.get(f"{hub.url}/hub/matter/openPairingWindow?node=3001") as r:
            assert_same_shape("radios/matter_setup_code", await r.json(content_type=None))


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
