"""An acting call lets go of the hub's change lock once its command is sent (hostile review of
stop 39; before, it kept it through its wait_for (up to 45 s,
MAX_WAIT_MS) after its command was sent, when nothing it judged can still be changed under
it. With the real values (a 30 s change wait, a 45 s wait_for) every change made meanwhile is
refused hub_busy while the hub is idle, and, first come first served, every acting call that
arrives behind that queued change waits too (a light switched up to 30 s late).
The waits are shortened here (3 s change wait, 8 s wait_for): same order, same outcome."""

from __future__ import annotations

import asyncio
import time

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.tools import base
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, until
from ..home_util import dev_id


async def test_a_wait_for_does_not_hold_off_every_other_write(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(base, "CHANGE_WAIT_S", 3.0)
    lamp, light = dev_id(hub, "Guest Lamp"), dev_id(hub, "Office Light")
    await ok(call_tool, "hub_get_device", {"device_id": lamp})
    await ok(call_tool, "hub_get_device", {"device_id": light})
    before = len(hub.requests)
    # A: switch the lamp on and wait for a value it never reaches (8 s)
    wait = {"attribute": "switch", "expected_value": "never", "timeout_ms": 8000}
    a = asyncio.create_task(
        call_tool("hub_call_device_command", {"device_id": lamp, "command": "on", "wait_for": wait})
    )
    await until(
        lambda: any(
            "/device/runmethod" in p or "/apps/api/" in p for _m, p in hub.requests[before:]
        ),
        what="A's command sent",
    )
    await asyncio.sleep(0.3)
    # C: a harmless new rule, made while A only waits
    trigger = {"device_id": light, "attribute": "switch", "is": "on"}
    spec = {
        "name": "Review2",
        "triggers": [trigger],
        "actions": [{"command": "on", "device_ids": [lamp]}],
    }
    c = asyncio.create_task(call_tool("hub_create_rule", {"rule": spec}))
    await asyncio.sleep(0.3)
    # D: a light command right after
    started = time.monotonic()
    d = await call_tool("hub_call_device_command", {"device_id": light, "command": "off"})
    d_took = time.monotonic() - started
    made = await c
    await a
    problems = []
    if made.error:
        problems.append(f"the rule was refused while A only waited: {made.data.get('error')}")
    if d_took > 1.5:
        problems.append(f"the light command waited {d_took:.1f} s behind the queued change")
    assert not d.error, d.data
    assert not problems, problems
