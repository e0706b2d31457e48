"""Live event stream: state cache, reconnects, waits, Repairs, clean shutdown.

Real hass, the real emulated hub over loopback websockets; timings are shrunk through
``event_stream.STREAM_CONFIG``.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools import event_stream
from custom_components.hubitat_dev_tools.const import DOMAIN
from custom_components.hubitat_dev_tools.hub.events import (
    HubEvent,
    HubSocket,
    backoff_delay,
    parse_event_frame,
    parse_log_frame,
)
from custom_components.hubitat_dev_tools.hub.info import hub_time_zone
from custom_components.hubitat_dev_tools.hub.state_cache import StateCache
from hubitat_emulator import HubEmulator
from hubitat_emulator.clock import HUB_TZ_NAME

from ..conftest import FAST, ToolCaller, a_switch, add_entry, ensure_stream, until
from ..contract import load_fixture

pytestmark = pytest.mark.usefixtures("fast_stream")


async def streaming(
    hass: HomeAssistant, hub: HubEmulator
) -> tuple[MockConfigEntry, StateCache, HubSocket]:
    """An entry for ``hub`` with its stream live: the entry, its cache and event socket."""
    entry = await add_entry(hass, hub)
    cache = await ensure_stream(hass, entry)
    sock = cache.event_socket
    assert sock is not None
    return entry, cache, sock


def reqs(hub: HubEmulator, prefix: str) -> int:
    return sum(1 for _m, p in hub.requests if p.startswith(prefix))


# ---------------------------------------------------------------------- frames


def test_parse_frames_tolerates_null_zero_and_junk() -> None:
    ev = parse_event_frame(
        '{"source":"DEVICE","name":"switch","displayName":"Lamp","value":"on","type":"null",'
        '"unit":"null","deviceId":34,"hubId":0,"installedAppId":0,"descriptionText":"null"}'
    )
    assert ev is not None
    assert (ev.kind, ev.device_id, ev.value, ev.type, ev.unit, ev.app_id) == (
        "device",
        "34",
        "on",
        None,
        None,
        None,
    )
    app = parse_event_frame(
        '{"source":"APP","name":"x","displayName":"null","value":"5","deviceId":0,'
        '"installedAppId":93}'
    )
    assert app is not None and app.kind == "app" and app.device_id is None and app.app_id == "93"
    mode = parse_event_frame('{"source":"LOCATION","name":"mode","value":"Night","deviceId":0}')
    assert mode is not None and mode.kind == "mode"
    var = parse_event_frame('{"source":"LOCATION","name":"variable:guests","value":"3"}')
    assert var is not None and var.kind == "variable" and var.variable_name == "guests"
    for name, kind in (("hsmStatus", "hsm_status"), ("hsmAlert", "hsm_alert")):
        hsm = parse_event_frame(f'{{"source":"LOCATION","name":"{name}","value":"armedAway"}}')
        assert hsm is not None and hsm.kind == kind
    hub_ev = parse_event_frame('{"source":"HUB","name":"systemStart","value":"2.4"}')
    assert hub_ev is not None and hub_ev.kind == "hub"
    for junk in ("Hubitat: not a JSON frame", "[1,2]", '"text"', "{}", '{"name":"null"}', ""):
        assert parse_event_frame(junk) is None
    line = parse_log_frame(
        '{"name":"Lamp","msg":"a &lt;b&gt; c","id":12,"time":"2026-07-14 08:05:53.760",'
        '"type":"dev","level":"info"}'
    )
    assert line is not None and line.message == "a <b> c" and line.source_id == "12"
    assert parse_log_frame("junk") is None


def test_log_frame_time_is_hub_local_with_offset() -> None:
    # /logsocket times are hub-local (the hub UI formats them as local), past logs are UTC.
    denver = hub_time_zone("America/Denver")
    assert denver is not None
    frame = '{"name":"L","msg":"m","id":1,"time":"%s","type":"dev","level":"info"}'
    summer = parse_log_frame(frame % "2026-07-14 08:05:53.760", denver)
    winter = parse_log_frame(frame % "2026-01-14 08:05:53.760", denver)
    assert summer is not None and summer.time == "2026-07-14T08:05:53.760-06:00"
    assert winter is not None and winter.time == "2026-01-14T08:05:53.760-07:00"
    no_ms = parse_log_frame(frame % "2026-07-14 08:05:53", denver)
    assert no_ms is not None and no_ms.time == "2026-07-14T08:05:53.000-06:00"
    unknown_zone = parse_log_frame(frame % "2026-07-14 08:05:53.760")
    assert unknown_zone is not None and unknown_zone.time == "2026-07-14T08:05:53.760"
    odd = parse_log_frame(frame % "yesterday", denver)
    assert odd is not None and odd.time == "yesterday"
    assert hub_time_zone("Nowhere/Atlantis") is None
    assert hub_time_zone(None) is None and hub_time_zone("") is None


async def test_live_log_times_are_read_in_the_hubs_zone(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    hub.add_log("warn", "zone check", source_type="app", source_id=5, name="Zone")
    await until(lambda: any(x.message == "zone check" for x in live.logs), what="the log line")
    line = next(x for x in live.logs if x.message == "zone check")
    assert line.time is not None
    when = datetime.fromisoformat(line.time)
    assert when.utcoffset() is not None  # ISO 8601 with the hub's offset
    assert when.utcoffset() == datetime.now(ZoneInfo(HUB_TZ_NAME)).utcoffset()
    assert abs((datetime.now(UTC) - when).total_seconds()) < 10


def test_backoff_grows_with_jitter_and_is_capped() -> None:
    first = [backoff_delay(0, 1.0, 60.0) for _ in range(50)]
    assert all(0.5 <= d <= 1.0 for d in first)
    assert len(set(first)) > 1  # jitter
    assert all(4.0 <= backoff_delay(3, 1.0, 60.0) <= 8.0 for _ in range(20))
    assert all(30.0 <= backoff_delay(40, 1.0, 60.0) <= 60.0 for _ in range(20))


# ---------------------------------------------------------------------- cache


async def test_hydration_then_reads_need_no_requests(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    assert live.hydrations == 1
    assert len(live.devices) == len(hub.device_ids())
    assert live.mode == hub.current_mode
    assert live.hsm_status == hub.hsm_status
    assert set(live.variables) == set(hub.variables)
    before = len(hub.requests)
    devices, fresh = await live.read_devices()
    mode, _ = await live.read_mode()
    hsm, _ = await live.read_hsm()
    variables, _ = await live.read_variables()
    assert len(hub.requests) == before, "cached reads must not touch the hub"
    assert fresh["source"] == "live_cache" and fresh["live"] is True
    assert len(devices) == len(hub.device_ids())
    assert mode == hub.current_mode and hsm["status"] == hub.hsm_status
    assert {v["name"] for v in variables} == set(hub.variables)


async def test_cache_follows_changes_on_the_hub(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    dev_id = a_switch(hub)
    new = "off" if hub.device(dev_id)["attributes"]["switch"] == "on" else "on"
    hub.set_device_attribute(dev_id, "switch", new)
    other_mode = next(m["name"] for m in hub.modes if m["name"] != hub.current_mode)
    hub.set_mode(other_mode)
    hub.set_hsm("armedNight")
    hub.set_variable("eventsTestVar", 7)
    hub.hsm_alert("water")
    await until(lambda: live.hsm_alert == "water", what="all events")
    assert live.devices[str(dev_id)].states["switch"] == new
    assert live.mode == other_mode
    assert live.hsm_status == "armedNight"
    assert live.variables["eventsTestVar"]["value"] == "7"
    kinds = [e.kind for e in live.recent_events(limit=10)]
    assert {"device", "mode", "hsm_status", "variable", "hsm_alert"} <= set(kinds)
    before = len(hub.requests)
    devices, _ = await live.read_devices()
    assert next(d for d in devices if d.id == str(dev_id)).states["switch"] == new
    assert len(hub.requests) == before


async def test_cache_follows_commands_through_the_tools(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, call_tool: ToolCaller
) -> None:
    dev_id = a_switch(hub)
    new = "off" if hub.device(dev_id)["attributes"]["switch"] == "on" else "on"
    waiting = asyncio.ensure_future(
        live.wait_device_attribute(str(dev_id), "switch", lambda v: v == new, 3.0)
    )
    await asyncio.sleep(0)
    result = await call_tool(
        "hub_call_device_command", {"device_id": str(dev_id), "command": new, "confirm": True}
    )
    assert not result.error, result.data
    outcome = await waiting
    assert outcome.met and outcome.via == "event"
    assert live.devices[str(dev_id)].states["switch"] == new


async def test_events_are_absorbed_in_order_with_junk_and_split_frames(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    hub.faults.junk_frames = True
    hub.faults.split_frames = True
    for i in range(20):
        hub.set_variable("counter", i + 1)
    await until(lambda: live.variables.get("counter", {}).get("value") == "20")
    assert live.junk_frames >= 20
    values = [e.value for e in live.recent_events(lambda e: e.name == "variable:counter")]
    assert values[:20] == [str(i) for i in range(20, 0, -1)]


# ---------------------------------------------------------------------- reconnects


async def test_drop_reconnects_and_rehydrates_once(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    sock = live.event_socket
    assert sock is not None
    dev_id = a_switch(hub)
    trees_before = reqs(hub, "/hub2/devicesList")
    hub.faults.down = True
    hub.drop_sockets()
    await until(lambda: not sock.connected, what="disconnect")
    assert not live.live
    # a read while down falls back to the hub (which is down: an error, not stale data)
    new = "off" if hub.device(dev_id)["attributes"]["switch"] == "on" else "on"
    hub.set_device_attribute(dev_id, "switch", new)  # missed: no socket
    await asyncio.sleep(0.3)  # several failed attempts, with backoff
    failed_attempts = sock.stats.failures
    assert failed_attempts >= 2
    assert reqs(hub, "/hub2/devicesList") == trees_before, "no hydration while down"
    hub.faults.down = False
    await until(lambda: live.live, what="reconnect")
    assert sock.stats.reconnects == 1
    assert live.hydrations == 2
    assert reqs(hub, "/hub2/devicesList") == trees_before + 1, "one re-hydration per reconnect"
    assert live.devices[str(dev_id)].states["switch"] == new, "missed change recovered"


async def test_hub_reboot_reconnects(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    sock = live.event_socket
    assert sock is not None
    task = hub.reboot(downtime=0.2, starting=0.2)
    await until(lambda: not sock.connected, what="disconnect")
    await task
    await until(lambda: live.live and sock.stats.reconnects >= 1, what="reconnect after reboot")
    await until(lambda: any(e.name == "systemStart" for e in live.events), what="systemStart")
    assert live.hydrations >= 2


async def test_dead_peer_is_detected_and_pings_keep_alive(
    hass: HomeAssistant, socket_enabled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(event_stream, "STREAM_CONFIG", replace(FAST, dead_peer_timeout=1.5))
    emu = HubEmulator(ping_interval=0.4)
    await emu.start()
    try:
        entry, _cache, sock = await streaming(hass, emu)
        await asyncio.sleep(2.5)  # a quiet home, but the hub pings every 0.4 s of silence
        assert sock.stats.pings >= 3, sock.stats
        assert sock.stats.reconnects == 0, sock.stats
        await hass.config_entries.async_unload(entry.entry_id)
        await hass.async_block_till_done()
    finally:
        await emu.stop()


async def test_silent_peer_reconnects(
    hass: HomeAssistant, hub: HubEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the hub fixture pings every 120 s: with a 0.3 s dead-peer timer the quiet socket is dead
    monkeypatch.setattr(event_stream, "STREAM_CONFIG", replace(FAST, dead_peer_timeout=0.3))
    entry, cache, sock = await streaming(hass, hub)
    await until(lambda: sock.stats.reconnects >= 1, what="dead-peer reconnect")
    assert "dead peer" in (sock.stats.last_error or "") or sock.connected
    assert cache.hydrations == sock.stats.connects
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()


async def test_hub_security_cookie_and_relogin(
    hass: HomeAssistant, secure_hub: HubEmulator
) -> None:
    entry, cache, sock = await streaming(hass, secure_hub)
    logins = reqs(secure_hub, "/login")
    secure_hub.expire_sessions()
    secure_hub.drop_sockets()
    await until(lambda: sock.stats.reconnects >= 1 and cache.live, what="reconnect with login")
    assert reqs(secure_hub, "/login") == logins + 1
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()


async def test_changed_password_on_the_socket_starts_reauth(
    hass: HomeAssistant, secure_hub: HubEmulator
) -> None:
    entry, _cache, sock = await streaming(hass, secure_hub)
    assert not hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    secure_hub.password = "changed-on-the-hub"
    secure_hub.expire_sessions()
    secure_hub.drop_sockets()
    await until(lambda: sock.stats.auth_failed, what="login refused on reconnect")
    await hass.async_block_till_done()
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == ["reauth"]
    assert "login" in (sock.stats.last_error or "").lower()
    await until(lambda: sock.stats.failures >= 2, what="a second refused attempt")
    await hass.async_block_till_done()
    assert len(hass.config_entries.flow.async_progress_by_handler(DOMAIN)) == 1  # once only
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()


# ---------------------------------------------------------------------- waits


async def test_wait_resolves_on_the_event(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    dev_id = a_switch(hub)
    new = "off" if hub.device(dev_id)["attributes"]["switch"] == "on" else "on"
    loop = asyncio.get_running_loop()
    sent_at: list[float] = []

    def change() -> None:
        sent_at.append(time.monotonic())
        hub.set_device_attribute(dev_id, "switch", new)

    loop.call_later(0.1, change)
    before = len(hub.requests)
    outcome = await live.wait_device_attribute(str(dev_id), "switch", lambda v: v == new, 3.0)
    latency = time.monotonic() - sent_at[0]
    assert outcome.met and outcome.via == "event"
    assert outcome.event is not None and outcome.event.value == new
    assert latency < 1.0
    assert len(hub.requests) == before, "waits never poll"
    # already true: answered from the cache at once
    again = await live.wait_device_attribute(str(dev_id), "switch", lambda v: v == new, 3.0)
    assert again.met and again.via == "state" and again.waited_s < 0.05


async def test_wait_times_out(hass: HomeAssistant, hub: HubEmulator, live: StateCache) -> None:
    dev_id = a_switch(hub)
    started = time.monotonic()
    outcome = await live.wait_device_attribute(str(dev_id), "switch", lambda v: v == "never", 0.3)
    elapsed = time.monotonic() - started
    assert not outcome.met and outcome.via == "timeout"
    assert 0.28 <= elapsed < 2.0
    assert not live._waiters, "timed-out waiters are removed"


async def test_wait_generic_predicate(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    asyncio.get_running_loop().call_later(0.05, hub.set_hsm, "armedHome")
    outcome = await live.wait_for(
        lambda e: e.kind == "hsm_status" and e.value == "armedHome", timeout=2.0
    )
    assert outcome.met
    assert isinstance(outcome.event, HubEvent)


# ---------------------------------------------------------------------- Repairs & cleanup


async def test_stale_stream_raises_and_clears_repairs(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache, entry: MockConfigEntry
) -> None:
    registry = ir.async_get(hass)
    issue = event_stream.issue_id(entry.entry_id)
    assert registry.async_get_issue(DOMAIN, issue) is None
    hub.faults.down = True
    hub.drop_sockets()
    await until(lambda: registry.async_get_issue(DOMAIN, issue) is not None, what="issue")
    raised = registry.async_get_issue(DOMAIN, issue)
    assert raised is not None
    assert raised.translation_key == event_stream.ISSUE_STREAM_DOWN
    assert raised.translation_placeholders is not None
    assert raised.translation_placeholders["hub"] == entry.title
    assert raised.translation_placeholders["reason"]
    hub.faults.down = False
    await until(lambda: registry.async_get_issue(DOMAIN, issue) is None, what="issue cleared")
    assert live.live


async def test_unload_leaves_nothing_behind(
    hass: HomeAssistant, hub: HubEmulator, entry: MockConfigEntry
) -> None:
    cache = await ensure_stream(hass, entry)
    runtime = entry.runtime_data
    await until(lambda: hub.event_socket_count == 1 and hub.log_socket_count == 1)
    pending = asyncio.ensure_future(cache.wait_for(lambda e: False, 30.0))
    await asyncio.sleep(0)
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    assert runtime.hub.cache is None
    with pytest.raises(Exception, match="stream stopped"):
        await pending
    await until(lambda: hub.event_socket_count == 0 and hub.log_socket_count == 0)
    names = [t.get_name() for t in asyncio.all_tasks() if not t.done()]
    assert not [n for n in names if DOMAIN in n], names


async def test_hass_stop_closes_the_stream(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    # verify_cleanup (phcc) checks that nothing lingers after hass stops with a live stream
    assert hub.event_socket_count == 1


async def test_failing_hydration_never_storms(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    sock = live.event_socket
    assert sock is not None
    trees, upgrades = reqs(hub, "/hub2/devicesList"), reqs(hub, "/eventsocket")
    hub.faults.html_login = True  # websockets still open, every admin read fails
    hub.drop_sockets()
    await asyncio.sleep(0.6)
    assert not live.live
    new_upgrades = reqs(hub, "/eventsocket") - upgrades
    assert new_upgrades >= 2
    # one hydration attempt per connection, never a retry loop of reads (the newest
    # connection may not have sent its read yet when we count)
    hydrations = reqs(hub, "/hub2/devicesList") - trees
    assert new_upgrades - 1 <= hydrations <= new_upgrades
    assert sock.stats.failures >= 2
    hub.faults.html_login = False
    await until(lambda: live.live, what="recovery")


async def test_diagnostics_fields(hass: HomeAssistant, hub: HubEmulator, live: StateCache) -> None:
    hub.set_variable("diagVar", 1)
    await until(lambda: "diagVar" in live.variables)
    diag = live.diagnostics()
    assert diag["connected"] is True
    assert diag["last_event_at"]
    assert diag["reconnects"] == 0
    assert diag["cache_size"]["devices"] == len(hub.device_ids())
    assert diag["cache_size"]["events"] >= 1
    assert diag["event_socket"]["connects"] == 1
    assert diag["log_socket"]["connected"] is True


async def test_waits_see_changes_missed_while_down(
    hass: HomeAssistant, hub: HubEmulator, live: StateCache
) -> None:
    dev_id = a_switch(hub)
    new = "off" if hub.device(dev_id)["attributes"]["switch"] == "on" else "on"
    waiting = asyncio.ensure_future(
        live.wait_device_attribute(str(dev_id), "switch", lambda v: v == new, 5.0)
    )
    resync = asyncio.ensure_future(live.wait_for(lambda e: False, 5.0, wake_on_resync=True))
    await asyncio.sleep(0.05)
    hub.faults.down = True
    hub.drop_sockets()
    woke = await resync  # the stream went stale: a looping caller re-reads
    assert woke.met and woke.via == "resync"
    hub.set_device_attribute(dev_id, "switch", new)  # no socket: only hydration sees it
    hub.faults.down = False
    outcome = await waiting
    assert outcome.met and outcome.via == "state"
    assert live.live


def test_socket_frame_fixtures_parse() -> None:
    log = load_fixture("events/log_frame").answer
    line = parse_log_frame(json.dumps(log), hub_time_zone("America/Denver"))
    assert line is not None and line.message == "Kitchen Light was turned <on>"
    assert line.time == "2026-07-14T08:05:53.760-06:00" and line.source_id == "12"
    event = parse_event_frame(json.dumps(load_fixture("events/event_frame").answer))
    assert event is not None and event.kind == "device" and event.device_id == "12"
    assert event.type is None and event.unit is None and event.app_id is None
