"""Hostile reads (security issue: findings of a hostile review of the log and event reads).

1. A text filter (``hub_get_logs`` patterns, ``hub_tail_logs`` text and source, the event
   name filters) sees only the redacted text the answer shows: probing a redacted
   ``access_token`` prefix by prefix learns nothing.
2. The device allowlist holds on every read path of the logs and events tools: a log query
   scoped to a device outside it is refused (``device_not_allowed``) before anything is sent,
   and unscoped reads leave out that device's lines, events, changes and statistics.

Each test first shows that the path answers (no allowlist, or an allowed device), then that
the hostile call gets nothing more than a call with garbage.
"""

from __future__ import annotations

import asyncio
import json
import string
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from custom_components.hubitat_dev_tools.hub import logs as hub_logs
from custom_components.hubitat_dev_tools.hub.logs import fetch_location_events
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from custom_components.hubitat_dev_tools.redact import REDACTED
from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import fmt_event, utcnow

from ..conftest import ToolCaller, add_entry, ok, refused, until
from ..helpers.hostile import allow_only
from ..mcp_client import Mcp

TOKEN = "7c41e9d2-5b3a-4f80-9e6d-2a1b0c3d4e5f"  # a Maker API token quoted in a log line
PASSWORD = "hunter2-s3cret"
MARK = "hostile-read-probe"  # every line and event this file adds carries it
GARBAGE = "zq"  # no hex token starts with it
MAKER_APP = 12


def log_secret(hub: HubEmulator, marker: str = MARK) -> None:
    """The hub logs a line quoting a token and a password (as a Maker API debug line does)."""
    hub.add_log(
        "debug",
        f"{marker} GET http://10.0.0.9/apps/api/{MAKER_APP}/devices/all?access_token={TOKEN} "
        f"(bridge login failed: password={PASSWORD})",
        source_type="app",
        source_id=MAKER_APP,
        name="Maker API",
    )


def two_switches(hub: HubEmulator) -> tuple[int, int]:
    """Two enabled switches: the first goes on the allowlist, the second stays outside."""
    found = [
        d
        for d in hub.device_ids()
        if "switch" in hub.device(d)["attributes"] and not hub.device(d).get("disabled")
    ]
    assert len(found) >= 2, found
    return found[0], found[1]


async def all_logs(call_tool: ToolCaller, args: dict[str, Any]) -> list[dict[str, Any]]:
    """Every page of ``hub_get_logs`` for ``args``."""
    out: list[dict[str, Any]] = []
    page = await ok(call_tool, "hub_get_logs", {"limit": 200, **args})
    out += page["logs"]
    while page.get("next_cursor"):
        page = await ok(
            call_tool, "hub_get_logs", {"limit": 200, **args, "cursor": page["next_cursor"]}
        )
        out += page["logs"]
    assert len(out) == page["matched"]
    return out


def outside_lines(lines: list[dict[str, Any]], allowed: set[str]) -> list[dict[str, Any]]:
    """The device lines of devices outside ``allowed``."""
    return [
        line
        for line in lines
        if line["source_type"] == "dev" and line["source_id"] and line["source_id"] not in allowed
    ]


# ------------------------------------------------------------------ 1. text filters


async def test_get_logs_patterns_cannot_probe_a_redacted_token(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    log_secret(hub)
    # the path answers: the line is found, shown redacted, and patterns see that text
    found = await ok(call_tool, "hub_get_logs", {"patterns": [MARK]})
    assert found["matched"] == 1, found
    message = found["logs"][0]["message"]
    assert f"access_token={REDACTED}" in message and f"password={REDACTED}" in message
    assert TOKEN not in json.dumps(found) and PASSWORD not in json.dumps(found)
    placeholder = await ok(
        call_tool,
        "hub_get_logs",
        {"patterns": [MARK, f"ACCESS_TOKEN={REDACTED}"], "pattern_mode": "all"},
    )
    assert placeholder["matched"] == 1, placeholder

    # the hostile probes: the secret's real prefix matches no more than garbage does
    async def matched(*patterns: str, mode: str = "all") -> dict[str, Any]:
        return await ok(
            call_tool, "hub_get_logs", {"patterns": list(patterns), "pattern_mode": mode}
        )

    garbage = await matched(MARK, f"access_token={GARBAGE}")
    assert garbage["matched"] == 0 and garbage["logs"] == []
    for probe in (
        f"access_token={TOKEN[:1]}",
        f"access_token={TOKEN[:8]}",
        f"access_token={TOKEN}",
        f"password={PASSWORD[:3]}",
        TOKEN,
        PASSWORD,
    ):
        real = await matched(MARK, probe)
        assert (real["matched"], real["logs"]) == (garbage["matched"], garbage["logs"]), probe
        alone = await matched(probe, mode="any")
        assert alone["matched"] == 0 and alone["logs"] == [], probe


async def test_prefix_attack_on_get_logs_learns_nothing(hub: HubEmulator, mcp: Mcp) -> None:
    """The review's attack, through the real mcp_server: guess the token's first character."""
    log_secret(hub)
    is_error, data = await mcp.call("hub_get_logs", {"patterns": [MARK]})
    assert not is_error and data["matched"] == 1, data  # the line is there to probe
    hits = []
    for char in string.hexdigits.lower()[:16]:
        is_error, data = await mcp.call(
            "hub_get_logs",
            {"patterns": [MARK, f"access_token={char}"], "pattern_mode": "all"},
        )
        assert not is_error, data
        if data["matched"]:
            hits.append(char)
    assert hits == []  # before the fix: exactly [TOKEN[0]]


@pytest.mark.usefixtures("fast_stream")
async def test_tail_logs_text_cannot_probe_a_redacted_token(
    hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    await until(lambda: live.logs_live, what="log socket")
    log_secret(hub)
    await until(lambda: any(MARK in line.message for line in live.logs), what="line in the ring")
    # the path answers: the recent line, redacted; name and text filters see that text
    seen = await ok(call_tool, "hub_tail_logs", {"window_s": 0, "text": MARK, "source": "maker"})
    assert len(seen["recent"]) == 1, seen
    assert f"access_token={REDACTED}" in seen["recent"][0]["message"]
    assert TOKEN not in json.dumps(seen)
    placeholder = await ok(
        call_tool, "hub_tail_logs", {"window_s": 0, "text": f"access_token={REDACTED}"}
    )
    assert [line["message"] for line in placeholder["recent"]] == [seen["recent"][0]["message"]]
    # the hostile probes, against the ring
    garbage = await ok(call_tool, "hub_tail_logs", {"window_s": 0, "text": f"token={GARBAGE}"})
    assert garbage["recent"] == []
    for probe in (f"access_token={TOKEN[:1]}", f"access_token={TOKEN[:8]}", TOKEN, PASSWORD):
        real = await ok(call_tool, "hub_tail_logs", {"window_s": 0, "text": probe})
        assert real["recent"] == garbage["recent"], probe
    # ...and against lines arriving while the call listens
    loop = asyncio.get_running_loop()
    loop.call_later(0.1, lambda: log_secret(hub, f"{MARK}-live"))
    listened = await ok(
        call_tool,
        "hub_tail_logs",
        {"window_s": 0.6, "text": f"{MARK}-live", "include_recent": False},
    )
    assert len(listened["lines"]) == 1, listened  # the path answers live
    loop.call_later(0.1, lambda: log_secret(hub, f"{MARK}-live2"))
    probed = await ok(
        call_tool,
        "hub_tail_logs",
        {"window_s": 0.6, "text": f"access_token={TOKEN[:8]}", "include_recent": False},
    )
    assert probed["lines"] == [], probed


# ------------------------------------------------------------------ 2. the device allowlist


async def test_get_logs_for_a_device_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    allowed, other = two_switches(hub)
    for dev in (allowed, other):
        hub.add_log("info", f"{MARK} {dev}", source_type="dev", source_id=dev, name=f"D{dev}")
    # no allowlist: each device's query answers with its line, and so does the whole log
    for dev in (allowed, other):
        one = await ok(
            call_tool,
            "hub_get_logs",
            {"source_type": "dev", "source_id": str(dev), "patterns": [MARK]},
        )
        assert [line["source_id"] for line in one["logs"]] == [str(dev)], one
    every = await all_logs(call_tool, {"patterns": [MARK]})
    assert {line["source_id"] for line in every} == {str(allowed), str(other)}
    assert outside_lines(await all_logs(call_tool, {}), {str(allowed)})  # others' lines exist

    allow_only(hass, entry, allowed)
    before = len(hub.requests)
    data = await refused(
        call_tool,
        "hub_get_logs",
        {"source_type": "dev", "source_id": str(other)},
        "device_not_allowed",
    )
    assert str(other) in data["message"] and "allowlist" in data["message"]
    assert hub.requests[before:] == []  # refused before anything was sent
    one = await ok(call_tool, "hub_get_logs", {"source_type": "dev", "source_id": str(allowed)})
    assert one["logs"] and {line["source_id"] for line in one["logs"]} == {str(allowed)}
    # unscoped reads leave the other devices' lines out (every page, every count)
    marked = await ok(call_tool, "hub_get_logs", {"patterns": [MARK]})
    assert [line["source_id"] for line in marked["logs"]] == [str(allowed)]
    assert marked["matched"] == 1 and sum(marked["matched_by_level"].values()) == 1
    assert outside_lines(await all_logs(call_tool, {}), {str(allowed)}) == []
    devices_only = await all_logs(call_tool, {"source_type": "dev"})
    assert devices_only and outside_lines(devices_only, {str(allowed)}) == []
    # an app's lines are not a device's: app scoping still answers
    log_secret(hub)
    app = await ok(call_tool, "hub_get_logs", {"source_type": "app", "source_id": str(MAKER_APP)})
    assert app["logs"], app


async def test_tail_logs_for_a_device_outside_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    allowed, other = two_switches(hub)
    entry = await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(allowed)]})
    live = entry.runtime_data.hub.live
    assert live.cache is None  # no stream: the one-shot socket

    def later(delay: float, dev: int, text: str) -> None:
        asyncio.get_running_loop().call_later(
            delay,
            lambda: hub.add_log("info", text, source_type="dev", source_id=dev, name=f"D{dev}"),
        )

    # the path answers for the allowed device
    later(0.15, allowed, f"{MARK} allowed")
    scoped = await ok(
        call_tool,
        "hub_tail_logs",
        {"window_s": 0.6, "source_type": "dev", "source_id": str(allowed)},
    )
    assert [line["message"] for line in scoped["lines"]] == [f"{MARK} allowed"], scoped
    # an unscoped tail leaves the other device's line out
    later(0.15, allowed, f"{MARK} allowed 2")
    later(0.2, other, f"{MARK} other")
    unscoped = await ok(call_tool, "hub_tail_logs", {"window_s": 0.7, "text": MARK})
    assert [line["message"] for line in unscoped["lines"]] == [f"{MARK} allowed 2"], unscoped
    # the other device's own tail is refused before any socket is opened
    await until(lambda: hub.log_socket_count == 0, what="one-shot socket closed")
    sockets, before = live.log_tail.sockets_opened, len(hub.requests)
    data = await refused(
        call_tool,
        "hub_tail_logs",
        {"window_s": 0.5, "source_type": "dev", "source_id": str(other)},
        "device_not_allowed",
    )
    assert str(other) in data["message"]
    assert live.log_tail.sockets_opened == sockets and hub.requests[before:] == []
    assert hub.log_socket_count == 0


def inject_device_events(
    monkeypatch: pytest.MonkeyPatch, device_ids: tuple[int, ...]
) -> Callable[[], None]:
    """The hub's location event list also names these devices (events with a deviceId);
    returns what adds them (after the devices' own changes, so they are the newest)."""
    rows: list[dict[str, Any]] = []

    def add() -> None:
        for dev in device_ids:
            rows.append(
                {
                    "name": "switch",
                    "value": "on",
                    "deviceId": dev,
                    "descriptionText": f"{MARK} {dev}",
                    "isStateChange": True,
                    "type": "physical",
                    "date": fmt_event(utcnow()),
                }
            )

    real = fetch_location_events

    async def with_devices(client: Any) -> list[dict[str, Any]]:
        return [*rows, *await real(client)]

    fake: Callable[[Any], Awaitable[list[dict[str, Any]]]] = with_devices
    # the hub library's function, which every manager's read of location events goes through
    monkeypatch.setattr(hub_logs, "fetch_location_events", fake)
    return add


async def test_event_reads_leave_out_devices_outside_the_allowlist(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    allowed, other = two_switches(hub)
    for dev in (allowed, other):
        hub.set_device_attribute(dev, "switch", "off", force=True)
    inject_device_events(monkeypatch, (allowed, other))()
    both = {str(allowed), str(other)}

    async def seen() -> dict[str, set[str]]:
        recent = await ok(call_tool, "hub_list_recent_events", {"limit": 500})
        assert recent["freshness"]["source"] == "hub_history"  # no stream: the fallback
        events = await ok(call_tool, "hub_list_events", {"name": "SWITCH", "limit": 500})
        changes = await ok(call_tool, "hub_list_changes", {"hours_back": 1, "limit": 500})
        return {
            "recent": {e["device_id"] for e in recent["events"] if "device_id" in e},
            "events": {
                e["description"].split()[-1]
                for e in events["events"]
                if MARK in e.get("description", "")
            },
            "changed": {c["device_id"] for c in changes["changes"] if c["kind"] == "device"},
            "located": {
                c["description"].split()[-1]
                for c in changes["changes"]
                if c["kind"] != "device" and MARK in c.get("description", "")
            },
        }

    # no allowlist: every read path answers with both devices
    before = await seen()
    assert before["recent"] == both and before["events"] == both and before["located"] == both
    assert both <= before["changed"]
    # with the allowlist, the other device is left out of each
    allow_only(hass, entry, allowed)
    after = await seen()
    assert after == {
        "recent": {str(allowed)},
        "events": {str(allowed)},
        "changed": {str(allowed)},
        "located": {str(allowed)},
    }, after


async def test_performance_stats_leave_out_devices_outside_the_allowlist(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    every = await ok(call_tool, "hub_get_performance_stats", {"type": "device", "limit": 200})
    ids = [row["device_id"] for row in every["devices"]]
    assert len(ids) >= 2, every
    allow_only(hass, entry, ids[1])
    data = await ok(call_tool, "hub_get_performance_stats", {"type": "device", "limit": 200})
    assert [row["device_id"] for row in data["devices"]] == [ids[1]]
    assert "devices_note" not in data  # the hub did list statistics
    allow_only(hass, entry, "999999")
    none = await ok(call_tool, "hub_get_performance_stats", {"type": "device"})
    assert none["devices"] == [] and "devices_note" not in none
