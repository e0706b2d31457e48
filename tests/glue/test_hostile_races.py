"""Two calls at once: a call is judged and done with no other call's change in between.

mcp_server runs an assistant's calls concurrently. Found by the hostile review of stop 39:
``hub_call_rule`` judged rule R harmless (several hub reads), then pressed Run Actions; an
edit of R landing in between (confirmed, for "R runs the unlock rule on motion") made that
press run the unlock rule now, on a call without confirm. Every write now holds the hub's
change lock (``change_lock.py``) from its judgement to its end: acting calls shared, changes
alone.
"""

from __future__ import annotations

import asyncio

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.tools import base
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, until
from ..home_util import dev_id


async def _unlock_rule_and_harmless_rule(
    call_tool: ToolCaller, hub: HubEmulator
) -> tuple[str, str, dict[str, str]]:
    back = dev_id(hub, "Back Door Lock")
    trigger = {"device_id": dev_id(hub, "Office Motion"), "attribute": "motion", "is": "active"}
    unlock = await ok(
        call_tool,
        "hub_create_rule",
        {
            "rule": {
                "name": "Unlock for the cleaner",
                "triggers": [trigger],
                "actions": [{"command": "unlock", "device_ids": [back]}],
            },
            "confirm": True,
        },
    )
    light = {"command": "on", "device_ids": [dev_id(hub, "Office Light")]}
    made = await ok(
        call_tool,
        "hub_create_rule",
        {"rule": {"name": "R", "triggers": [trigger], "actions": [light]}},
    )
    return str(unlock["app_id"]), str(made["app_id"]), trigger


async def test_a_rule_run_is_not_changed_between_its_judgement_and_its_press(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    back = dev_id(hub, "Back Door Lock")
    unlock, rule, trigger = await _unlock_rule_and_harmless_rule(call_tool, hub)
    hub.set_device_attribute(int(back), "lock", "locked")
    # B: run the harmless rule R (no confirm); its judgement reads a device page (slow hub)
    hub.faults.delay_paths["/device/fullJson/"] = 1.0
    before = len(hub.requests)
    b = asyncio.create_task(call_tool("hub_call_rule", {"app_id": rule, "action": "run_actions"}))
    await until(
        lambda: any("/device/fullJson/" in p for _m, p in hub.requests[before:]),
        what="B's judgement to read a device",
    )
    hub.faults.delay_paths.clear()
    # A, while B is being judged: the owner agrees that R shall run the unlock rule on motion
    spec = {"name": "R", "triggers": [trigger], "actions": [{"run_rule": [unlock]}]}
    a = asyncio.create_task(
        call_tool("hub_update_rule", {"app_id": rule, "rule": spec, "confirm": True})
    )
    result_b, result_a = await b, await a
    await asyncio.sleep(0.3)  # what the rule engine runs, it runs at once
    # B ran R as judged (the light), A changed R after it: the door never acted
    assert not result_b.error, result_b.data
    assert not result_a.error, result_a.data
    assert hub.device(back)["attributes"]["lock"] == "locked"
    # and run now, R reaches the lock: judged afresh, refused without confirm
    again = await call_tool("hub_call_rule", {"app_id": rule, "action": "run_actions"})
    assert again.error and again.data["error"] == "confirmation_required", again.data
    assert hub.device(back)["attributes"]["lock"] == "locked"


async def test_acting_calls_run_side_by_side(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Two commands at once are both sent while the hub is still answering the first
    (acting calls hold the lock shared); a change waits for them."""
    lamp, light = dev_id(hub, "Guest Lamp"), dev_id(hub, "Office Light")
    await ok(call_tool, "hub_get_device", {"device_id": lamp})  # warm: no reads left to overlap
    hub.faults.delay_paths["/device/runmethod"] = 0.5
    hub.server.max_in_flight_seen = 0
    one, two = await asyncio.gather(
        call_tool("hub_call_device_command", {"device_id": lamp, "command": "on"}),
        call_tool("hub_call_device_command", {"device_id": light, "command": "on"}),
    )
    assert not one.error and not two.error, (one.data, two.data)
    assert hub.server.max_in_flight_seen >= 2


async def test_a_change_cut_off_keeps_others_waiting_until_it_may_have_landed(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cancelled change may still land at the hub: for a while no call is judged."""
    monkeypatch.setattr(base, "CHANGE_WAIT_S", 0.3)
    monkeypatch.setattr(base, "LATE_WRITE_S", 1.0)
    unlock, rule, trigger = await _unlock_rule_and_harmless_rule(call_tool, hub)
    hub.faults.delay_paths["/installedapp/btn"] = 2.0
    hub.faults.delay_paths["/installedapp/update/json"] = 2.0
    before = len(hub.requests)
    spec = {"name": "R", "triggers": [trigger], "actions": [{"run_rule": [unlock]}]}
    a = asyncio.create_task(
        call_tool("hub_update_rule", {"app_id": rule, "rule": spec, "confirm": True})
    )
    await until(lambda: any(m == "POST" for m, _p in hub.requests[before:]), what="A's first write")
    a.cancel()
    with pytest.raises(asyncio.CancelledError):
        await a
    hub.faults.delay_paths.clear()
    busy = await call_tool("hub_call_rule", {"app_id": rule, "action": "run_actions"})
    assert busy.error and busy.data["error"] == "hub_busy", busy.data
    assert "hub_update_rule" in busy.data["message"]
    await asyncio.sleep(1.2)
    after = await call_tool("hub_call_rule", {"app_id": rule, "action": "run_actions"})
    assert after.data.get("error") != "hub_busy", after.data
