"""The Zigbee channel scan (``managers/radio_scan.py``, run through the radio manager's
``radio_action``) on its own, no hass: the hub's rows read from its JSON scan (never its HTML
page), a scan that outlasts the caller's deadline answered "running" and handed to the next
call (one request in all, never retried, handed out once), a scan that does not answer in
time, and a running scan cancelled when the manager closes, over the emulated hub and the
recorded hub answers. The library's parser of the scan's answer (both JSON shapes, the HTML
page refused) is tested in tests/hub/test_radios.py.

Moved from tests/tools/test_radios.py (the scan job is the manager's; the tool's call budget
turned into the scan's deadline, the scan cancelled when the config entry unloads and a scan
on a hub with its login security on stay there)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import pytest

from custom_components.hubitat_dev_tools.hub.errors import HubTimeoutError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from custom_components.hubitat_dev_tools.managers.radio_scan import SCAN_REQUEST_TIMEOUT
from hubitat_emulator import HubEmulator

from ..ops_util import FixtureClient, radio_manager


async def scan(manager_hub: Hub, budget: float | None = None) -> dict[str, Any]:
    """The channel scan, as a call with ``budget`` seconds left asks for it."""
    deadline = None if budget is None else time.monotonic() + budget
    return await manager_hub.radios.radio_action(
        "zigbee", "channel_scan", None, None, deadline=deadline
    )


async def test_channel_scan_reads_the_json_rows_once(emu: HubEmulator, manager_hub: Hub) -> None:
    start = len(emu.requests)
    result = await scan(manager_hub)
    # the rows of the hub's plain array (the emulator hears a network on 15, 20 and 25)
    assert [r["channel"] for r in result["channel_scan"]] == [15, 20, 25]
    assert set(result["channel_scan"][0]) == {
        "channel",
        "rssi",
        "lqi",
        "pan_id",
        "extended_pan_id",
    }
    assert result["summary"] == "zigbee channel_scan: done"
    assert (result["radio"], result["action"]) == ("zigbee", "channel_scan")
    # only the JSON scan, once: never the HTML page the hub UI opens
    assert [p for _m, p in emu.requests[start:]] == ["/hub/zigbeeChannelScanJson"]


async def test_channel_scan_waits_within_the_deadline_and_is_not_retried(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.ops.channel_scan_s = 1.0
    began = time.monotonic()
    done = await scan(manager_hub, budget=4.0)  # leaves the scan 2 s
    assert done["channel_scan"] and time.monotonic() - began >= 1.0
    # Longer than the call may wait: it answers "running", and the next call gets the
    # result of that same scan (one request to the hub in all, never retried).
    emu.ops.channel_scan_s = 2.6
    start = len(emu.requests)
    running = await scan(manager_hub, budget=4.0)
    assert running["status"] == "running" and running["retry_after_s"] >= 5
    assert "channel_scan" not in running
    assert running["summary"] == "zigbee channel_scan: still running"
    assert "retry_after_s" in running["note"]
    await asyncio.sleep(1.0)  # the emulated scan ends
    result = await scan(manager_hub, budget=4.0)
    assert result["channel_scan"] and result["started_at"] == running["started_at"]
    assert [p for _m, p in emu.requests[start:]] == ["/hub/zigbeeChannelScanJson"]
    # handed out once: the next call is a new scan
    emu.ops.channel_scan_s = 0.1
    again = await scan(manager_hub, budget=4.0)
    assert again["channel_scan"] and len(emu.requests[start:]) == 2


async def test_a_running_scan_is_cancelled_when_the_manager_closes(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.ops.channel_scan_s = 2.0  # the call waits 0.5 s of it
    running = await scan(manager_hub, budget=2.5)
    assert running["status"] == "running"
    job = manager_hub.radios.scan
    task = job._job.task if job._job else None
    assert task is not None and not task.done()
    manager_hub.radios.close()
    await asyncio.sleep(0)
    assert task.cancelled() and job._job is None
    await asyncio.sleep(1.7)  # the emulated hub finishes its own scan


async def test_scan_timeout_is_a_clear_error() -> None:
    class Slow(FixtureClient):
        async def request(self, method: str, path: str, **kw: Any) -> Any:
            self.sent.append((path, kw.get("timeout")))
            raise HubTimeoutError("late")

    slow = Slow({})
    manager = radio_manager(slow)
    with pytest.raises(HubTimeoutError, match="about a minute"):
        await manager.radio_action(
            "zigbee", "channel_scan", None, None, deadline=time.monotonic() + 30
        )
    ((path, timeout),) = slow.sent
    # the request runs in the background, bounded by the hub's minute plus a margin
    assert path == "/hub/zigbeeChannelScanJson" and cast(object, timeout) == SCAN_REQUEST_TIMEOUT
