"""Identity, health, history, logs and backups."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import aiohttp

from hubitat_emulator import HubEmulator

from .conftest import get_json

EVENT_DATE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}$")
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\t[A-Z]+\t(dev|app)\|\d+\|")


def parse_event_date(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z")


async def test_details_json(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    data = await get_json(session, f"{hub.url}/hub/details/json")
    assert data["platformVersion"] == "2.5.0.143"
    assert data["hardwareVersion"] == "Rev C-8 Pro"
    assert data["hubUID"] == hub.hub_uid
    assert data["macAddress"].startswith("34:E1:D1:")
    assert data["ipAddress"].startswith("<a href=") and "(Ethernet)" in data["ipAddress"]
    assert data["currentTime"].endswith("+0000")
    assert len(data["timeZones"]) > 100 and data["tempScale"] == "F"
    for key in ("hubName", "timeZone", "mdnsName", "sunrise", "sunset", "zipCode", "latitude"):
        assert key in data


async def test_identity_is_deterministic_per_seed(hub: HubEmulator) -> None:
    again = HubEmulator(seed=1)
    other = HubEmulator(seed=2)
    assert again.hub_uid == hub.hub_uid and again.state.mac == hub.state.mac
    assert other.hub_uid != hub.hub_uid
    assert [d.label for d in again.state.devices.values()] == [
        d.label for d in hub.state.devices.values()
    ]


async def test_hub_data_and_health(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    data = await get_json(session, f"{hub.url}/hub2/hubData")
    assert data["model"] == "C-8 Pro" and data["safeMode"] is False
    assert "databaseSize" in data["alerts"]
    status = await get_json(session, f"{hub.url}/hubStatus")
    assert status["status"] == "running"
    for path, pattern in (
        ("/hub/advanced/freeOSMemory", r"^\d+$"),
        ("/hub/advanced/internalTempCelsius", r"^\d+\.\d+$"),
        ("/hub/advanced/databaseSize", r"^\d+$"),
        ("/hub/cpuInfo", r"^Processors \d+\nLoad Average [\d.]+\n$"),
    ):
        async with session.get(hub.url + path) as resp:
            assert resp.status == 200 and resp.content_type == "text/plain"
            assert re.match(pattern, await resp.text()), path
    logs = await get_json(session, f"{hub.url}/logs/json")
    assert re.match(r"^\d+d \d+h", logs["uptime"])
    messages = await get_json(session, f"{hub.url}/hub/messages")
    assert messages["hsm"] == "disarmed" and messages["mode"]["name"] == hub.current_mode


async def test_past_logs(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    lines = await get_json(session, f"{hub.url}/logs/past/json")
    assert len(lines) >= 200 and all(isinstance(x, str) for x in lines)
    stamped = [x for x in lines if LOG_LINE.match(x)]
    continuation = [x for x in lines if not LOG_LINE.match(x)]
    assert continuation, "multi-line entries produce continuation lines"
    assert stamped == sorted(stamped, key=lambda x: x[:23])  # oldest first
    assert any("<b>" in x for x in stamped)
    newest = datetime.strptime(stamped[-1][:23], "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
    assert abs(datetime.now(UTC) - newest) < timedelta(hours=2)  # naive UTC
    hub.add_log("warn", "Hello <world>\nsecond line", source_type="app", source_id=77, name="T")
    scoped = await get_json(session, f"{hub.url}/logs/past/json?type=app&id=77")
    assert scoped[-2].endswith("\tWARN\tapp|77|T|Hello <world>")
    assert scoped[-1] == "second line"


async def test_location_and_hub_events(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    events = await get_json(session, f"{hub.url}/logs/eventsJson")
    dates = [parse_event_date(e["date"]) for e in events]
    assert dates == sorted(dates, reverse=True)
    assert all(EVENT_DATE.match(e["date"]) for e in events)
    names = {e["name"] for e in events}
    assert {"mode", "hsmStatus"} <= names and any(n.startswith("variable:") for n in names)
    hour_ago = datetime.now(UTC) - timedelta(hours=1)
    assert any(d > hour_ago for d in dates), "something changed in the last hour"
    assert min(dates) > datetime.now(UTC) - timedelta(days=8)
    hub_events = await get_json(session, f"{hub.url}/hub/eventsJson")
    assert hub_events[0]["name"] == "systemStart" and hub_events[0]["source"] == "HUB"
    assert hub_events[0]["value"] == "2.5.0.143"


async def test_device_history_recent(hub: HubEmulator) -> None:
    hour_ago = datetime.now(UTC) - timedelta(hours=1)
    recent = {
        e.device_id for d in hub.state.devices.values() for e in d.events if e.date > hour_ago
    }
    assert len(recent) >= 5


async def test_backups(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    backups = await get_json(session, f"{hub.url}/hub2/localBackups")
    assert len(backups) == 1
    orig = datetime.strptime(backups[0]["createTimeOrig"], "%Y-%m-%dT%H:%M:%S%z")
    age = datetime.now(UTC) - orig
    assert timedelta(hours=29) < age < timedelta(hours=31)
    assert {"name", "createTime", "size"} <= set(backups[0])
    async with session.get(f"{hub.url}/hub/backupDB?fileName=latest") as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"] == "application/octet-stream"
        body = await resp.read()
    assert len(body) > 1000
    backups = await get_json(session, f"{hub.url}/hub2/localBackups")
    assert len(backups) == 2
    status = await get_json(session, f"{hub.url}/hub/backup/statusJson")
    assert status == {"backupInProgress": False, "cloudBackupInProgress": False}
    hub.mark_backup_now()
    assert len(hub.backups) == 3
    name = backups[0]["name"]
    assert (await get_json(session, f"{hub.url}/hub2/deleteLocalBackup?fileName={name}"))["success"]
    assert name not in {b.name for b in hub.backups}


async def test_apps_list_tree(hub: HubEmulator, session: aiohttp.ClientSession) -> None:
    data = await get_json(session, f"{hub.url}/hub2/appsList")
    rm = next(a for a in data["apps"] if a["data"]["name"] == "Rule Machine")
    assert rm["children"] and all(c["child"] for c in rm["children"])
