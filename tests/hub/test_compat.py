"""The compatibility self-check (hub/compat.py, hub_check_compatibility, diagnostics)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.hub import compat
from custom_components.hubitat_dev_tools.hub.compat import (
    ANY,
    ID,
    STR,
    AnyOf,
    Arr,
    MapOf,
    Obj,
    Of,
    check_compatibility,
    problems,
    shape,
)
from custom_components.hubitat_dev_tools.hub.firmware import UNKNOWN_PLATFORM
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry
from ..contract import fixture_names, load_fixture
from ..mcp_client import Mcp

ALL_PROBES = (compat.IDENTITY, compat.DEVICES_LIST, compat.DEVICE_FULL, *compat.PROBES)
DEVICE_FULL = "/device/fullJson/<id>"


async def _report(entry: MockConfigEntry, **kw: Any) -> dict[str, Any]:
    return await check_compatibility(entry.runtime_data.hub.client, **kw)


def _by_endpoint(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["endpoint"]: e for e in report["endpoints"]}


def _values(emu: HubEmulator) -> list[str]:
    """Values the report must never carry: labels, names, secrets."""
    labels = [str(emu.device(i).get("label") or "") for i in emu.device_ids()]
    secrets = [emu.maker_token, emu.password, emu.hub_uid, emu.hub_name]
    return [v for v in [*labels, *secrets] if v and len(v) > 3]


def _assert_no_values(report: dict[str, Any], emu: HubEmulator) -> None:
    text = json.dumps(report)
    leaked = [v for v in _values(emu) if v in text]
    assert not leaked, leaked


# ---------------------------------------------------------------------- the shape checker


def test_problems_name_paths_and_types_only() -> None:
    spec = Obj({"devices": Arr(Obj({"id": ID, "name": STR}))}, {"extra": Of(("boolean",))})
    assert problems(spec, {"devices": [{"id": 1, "name": "Lamp"}], "other": "x"}) == []
    found = problems(spec, {"devices": [{"id": True, "label": "Kitchen Lamp"}], "extra": 3})
    assert found == [
        "$.devices[].id: expected number|string, seen boolean",
        "$.devices[].name: missing (expected string)",
        "$.extra: expected boolean, seen number",
    ]
    assert "Kitchen" not in json.dumps(found)
    assert problems(spec, [1]) == ["$: expected object with devices, seen array"]


def test_problems_accept_either_shape_and_maps() -> None:
    spec = AnyOf((Of(("string", "null")), Arr(ANY)))
    assert problems(spec, "a, b") == [] and problems(spec, ["a"]) == []
    assert problems(spec, 4) == ["$: matches none of: (string|null) or (array of any); seen number"]
    nodes = MapOf(Obj({"id": ID}))
    assert problems(nodes, {"7": {"id": 7}, "8": {"id": 8}}) == []
    assert problems(nodes, {"7": {}}) == ["${*}.id: missing (expected number|string)"]


def test_shape_hides_keys_that_may_be_values() -> None:
    value = {
        "devices": [{"id": 1, "label": "Kitchen Lamp"}, {"id": 2, "label": "lamp"}],
        "Kitchen Lamp": {"id": 2},
        "Dehumidifier": {"id": 3},
        "lamp": {"id": 4},
        "7": {"id": 7},
        "maker-token-0001": 1,
    }
    seen = shape(value)
    assert seen == {
        "devices": [{"id": "number", "label": "string"}],
        "<5 other keys>": {"id": "number"},
    }


@pytest.mark.parametrize(
    "name",
    [n for n in fixture_names() if load_fixture(n).method == "GET" and load_fixture(n).answer],
)
def test_probes_accept_the_contract_fixtures(name: str) -> None:
    """Every contract fixture of an endpoint we probe has the shape the probe expects."""
    fx = load_fixture(name)
    for probe in (*ALL_PROBES, compat.MAKER_MODES):
        pattern = re.escape(probe.endpoint).replace(re.escape("<id>"), "[^/]+")
        if re.fullmatch(pattern, fx.path):
            assert problems(probe.expect, fx.answer) == [], (name, probe.endpoint)


# ---------------------------------------------------------------------- against the emulator


@pytest.mark.parametrize("maker", [True, False])
@pytest.mark.parametrize("security", [False, True])
async def test_all_ok_against_the_emulator(
    hass: HomeAssistant, hub: HubEmulator, maker: bool, security: bool
) -> None:
    hub.security = security
    entry = await add_entry(hass, hub, maker=maker)
    client = entry.runtime_data.hub.client
    sent_before = len(hub.requests)
    hub.max_in_flight_seen = 0
    report = await _report(entry)
    assert report["summary"]["ok"] == len(report["endpoints"]), report
    endpoints = [e["endpoint"] for e in report["endpoints"]]
    assert len(endpoints) == len(set(endpoints)) == len(ALL_PROBES) + maker
    assert ("/apps/api/<id>/modes" in endpoints) is maker
    assert report["hub"] == {"firmware": "2.5.0.143", "model": "C-8 Pro", "generation": 8}
    assert report["hub_security"] is security and report["maker_api"] is maker
    # only reads, one per endpoint (plus the dashboard pin page and a login), two at a time
    sent = hub.requests[sent_before:]
    assert {path for method, path in sent if method != "GET"} <= {"/login"}
    assert len(sent) == report["summary"]["requests"] <= 31
    assert hub.max_in_flight_seen <= compat.PARALLEL
    assert client.requests_sent >= len(sent)
    _assert_no_values(report, hub)


async def test_unknown_firmware_is_read_from_the_identity(
    hass: HomeAssistant, hub: HubEmulator
) -> None:
    hub.state.version = "2.5.0.143"
    entry = await add_entry(hass, hub)
    client = entry.runtime_data.hub.client
    client.platform = UNKNOWN_PLATFORM
    report = await _report(entry)
    assert report["hub"]["firmware"] == "2.5.0.143"
    assert client.platform.at_least(2, 5)


def _lists_as_strings(data: Any) -> Any:
    for item in data:
        for key in ("usedByAppTypes", "usedByDeviceTypes"):
            item[key] = ", ".join(map(str, item.get(key) or []))
    return data


def _keyed_by_label(data: Any) -> Any:
    return {str(item["label"]): item for item in data}


# (path, reshape mode or fail status, endpoint, status, text in seen/expected)
SHAPE_CHANGES: list[tuple[str, Any, str, str, str]] = [
    ("/hub2/devicesList", "drop_key:devices", "/hub2/devicesList", "unexpected_shape",
     "$.devices: missing"),
    ("/hub2/devicesList", "rename_key:data:node", "/hub2/devicesList", "unexpected_shape",
     "$.devices[].data: missing"),
    ("/modes/json", "wrap_list", "/modes/json", "unexpected_shape", "seen array"),
    ("/device/listWithCapabilities/json", "wrap_list", "/device/listWithCapabilities/json",
     "unexpected_shape", "seen object"),
    ("/device/listWithCapabilities/json", _keyed_by_label, "/device/listWithCapabilities/json",
     "unexpected_shape", "other keys"),
    ("/hub/zwaveDetails/json", "drop_key:enabled", "/hub/zwaveDetails/json",
     "unexpected_shape", "$.enabled: missing"),
    ("/device/fullJson/", "rename_key:device:dev", DEVICE_FULL, "unexpected_shape",
     "$.device: missing"),
    ("/hub2/hubData", "rename_key:version:platformVersion", "/hub2/hubData",
     "unexpected_shape", "$.version: missing"),
    ("/hub2/userLibraries", "404", "/hub2/userLibraries", "missing", "HTTP 404"),
    ("/hub2/hubData", "html", "/hub2/hubData", "missing", "HTML"),
    ("/hub/cpuInfo", "html", "/hub/cpuInfo", "missing", "HTML"),
    ("/hub/matterDetails/json", 500, "/hub/matterDetails/json", "missing", "HTTP 500"),
    ("/hub/advanced/freeOSMemory", "404", "/hub/advanced/freeOSMemory", "missing", "HTTP 404"),
    ("/apps/api/12/modes", "drop_key:id", "/apps/api/<id>/modes", "unexpected_shape",
     "$[].id: missing"),
    # the the on-hub server shape (strings) is as good as the older list shape
    ("/hub2/userLibraries", _lists_as_strings, "/hub2/userLibraries", "ok", ""),
]  # fmt: skip


@pytest.mark.parametrize(("path", "change", "endpoint", "status", "said"), SHAPE_CHANGES)
async def test_each_shape_change_is_reported(
    hass: HomeAssistant,
    hub: HubEmulator,
    path: str,
    change: Any,
    endpoint: str,
    status: str,
    said: str,
) -> None:
    entry = await add_entry(hass, hub)
    if isinstance(change, int):
        hub.faults.fail_paths = {path: change}
    else:
        hub.faults.reshape_paths = {path: change}
    report = await _report(entry)  # never raises
    entries = _by_endpoint(report)
    hit = entries[endpoint]
    assert hit["status"] == status, hit
    if said:
        assert said in json.dumps([hit.get("seen"), hit.get("expected")]), hit
    # a broken device tree gives no device to read in full; everything else is still ok
    tree_broken = endpoint == "/hub2/devicesList"
    others = {e: v["status"] for e, v in entries.items() if e != endpoint and v["status"] != "ok"}
    assert others == ({DEVICE_FULL: "skipped"} if tree_broken else {}), others
    counts = report["summary"]
    assert sum(counts[s] for s in compat.STATUSES) == len(entries)
    _assert_no_values(report, hub)


async def test_unexpected_shape_shows_the_keys_seen(hass: HomeAssistant, hub: HubEmulator) -> None:
    entry = await add_entry(hass, hub)
    hub.faults.reshape_paths = {"/modes/json": "rename_key:currentModeId:modeId"}
    hit = _by_endpoint(await _report(entry))["/modes/json"]
    assert hit["status"] == "unexpected_shape"
    assert hit["seen"]["modeId"] == "number" and "currentModeId" not in hit["seen"]
    assert hit["seen"]["modes"] == [{"id": "number", "name": "string", "icon": "string",
                                     "conditions": ["string"]}]  # fmt: skip
    assert hit["expected"] == ["$.currentModeId: missing (expected number|string)"]


async def test_slow_and_failing_hub_never_raises(hass: HomeAssistant, hub: HubEmulator) -> None:
    entry = await add_entry(hass, hub)
    hub.faults.delay_paths = {"/logs/past/json": 2.0}
    entries = _by_endpoint(await _report(entry, probe_timeout=0.3))
    assert entries["/logs/past/json"]["status"] == "error"
    assert entries["/logs/past/json"]["seen"] == "no answer within the probe's timeout"
    assert entries["/hub2/hubData"]["status"] == "ok"
    hub.faults.reset()
    hub.faults.down = True
    report = await _report(entry, probe_timeout=1.0)
    first, *rest = report["endpoints"]
    assert first["status"] == "error" and first["code"] == "hub_unreachable"
    # the rest would fail the same way: not sent
    assert {e["status"] for e in rest} == {"skipped"}
    assert rest[-1]["seen"] == "not sent: could not connect to the hub on the first request"
    assert report["summary"]["requests"] == 1


async def test_refused_login_is_tried_once(hass: HomeAssistant, secure_hub: HubEmulator) -> None:
    entry = await add_entry(hass, secure_hub)
    secure_hub.password = "changed-on-the-hub"
    secure_hub.expire_sessions()
    sent_before = len(secure_hub.requests)
    report = await _report(entry)
    first = report["endpoints"][0]
    assert first["status"] == "error" and first["code"] == "hub_auth"
    assert report["summary"]["skipped"] == len(report["endpoints"]) - 1
    logins = [p for _, p in secure_hub.requests[sent_before:] if p == "/login"]
    assert len(logins) <= 2
    _assert_no_values(report, secure_hub)


async def test_out_of_time_probes_are_skipped(hass: HomeAssistant, hub: HubEmulator) -> None:
    entry = await add_entry(hass, hub)
    sent_before = len(hub.requests)
    report = await _report(entry, deadline=time.monotonic())
    assert report["summary"]["skipped"] == len(report["endpoints"])
    assert len(hub.requests) == sent_before


async def test_wrong_maker_token_is_an_error_without_the_token(
    hass: HomeAssistant, hub: HubEmulator
) -> None:
    entry = await add_entry(hass, hub)
    hub.maker_token = "another-token-9999"
    report = await _report(entry)
    hit = _by_endpoint(report)["/apps/api/<id>/modes"]
    assert hit["status"] == "error" and hit["code"] == "hub_auth"
    _assert_no_values(report, hub)
    assert "maker-token" not in json.dumps(report)


# ---------------------------------------------------------------------- the tool


async def test_tool_through_call_tool(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    direct = await call_tool("hub_check_compatibility")
    assert not direct.error, direct.data
    assert direct.data["summary"]["ok"] == len(direct.data["endpoints"])
    via = await call_tool("hub_read_hub", {"tool": "hub_check_compatibility", "args": {}})
    assert not via.error, via.data
    hub.faults.reshape_paths = {"/hub2/roomsList": "drop_key:roomNodes"}
    changed = await call_tool("hub_check_compatibility")
    assert not changed.error
    assert changed.data["summary"]["unexpected_shape"] == 1
    _assert_no_values(changed.data, hub)


async def test_tool_through_mcp_server(mcp: Mcp, hub: HubEmulator) -> None:
    is_error, data = await mcp.call("hub_read_hub", {"tool": "hub_check_compatibility", "args": {}})
    assert not is_error, data
    assert isinstance(data, dict)
    assert data["summary"]["ok"] == len(data["endpoints"]) > 20
    assert data["hub"]["model"] == "C-8 Pro"
