"""Load through the real mcp_server: 100 concurrent calls, bounded hub concurrency."""

from __future__ import annotations

import asyncio
from typing import Any

from hubitat_emulator import HubEmulator

from ..mcp_client import Mcp


async def test_hundred_concurrent_calls(mcp: Mcp, hub: HubEmulator) -> None:
    hub.faults.delay = 0.01  # make overlap likely
    listing = await mcp.ok("hub_list_devices", {"capability": "Switch", "limit": 200})
    # scene activators are left out: turning one on sets its members, which other calls here
    # command too
    activators = {i for i, d in hub.state.devices.items() if d.parent_app_id is not None}
    switches = [
        d
        for d in listing["devices"]
        if not d.get("disabled")
        and "Lock" not in d["capabilities"]
        and int(d["device_id"]) not in activators
    ]
    targets = switches[:40]
    assert len(targets) >= 20
    before_events = {d["device_id"]: len(hub.device_events(int(d["device_id"]))) for d in targets}
    wanted: dict[str, str] = {}
    calls: list[Any] = []
    for dev in targets:
        state = hub.device(int(dev["device_id"]))["attributes"].get("switch")
        command = "off" if state == "on" else "on"
        wanted[dev["device_id"]] = command
        calls.append(
            mcp.call("hub_call_device_command", {"device_id": dev["device_id"], "command": command})
        )
    reads = 100 - len(calls)
    for i in range(reads):
        if i % 2:
            calls.append(mcp.call("hub_list_rooms"))
        else:
            calls.append(
                mcp.call("hub_get_device", {"device_id": targets[i % len(targets)]["device_id"]})
            )
    hub.max_in_flight_seen = 0
    results = await asyncio.gather(*calls)
    assert all(not is_error for is_error, _data in results), [d for e, d in results if e][:3]
    assert hub.max_in_flight_seen <= 4
    # every command landed exactly once
    for device_id, command in wanted.items():
        state = hub.device(int(device_id))["attributes"]["switch"]
        assert state == ("off" if command == "off" else "on"), device_id
        new = hub.device_events(int(device_id))[before_events[device_id] :]
        switch_events = [e for e in new if getattr(e, "name", None) == "switch"]
        assert len(switch_events) == 1, (device_id, switch_events)
