"""A hub_busy refusal (nothing sent: another call is changing the hub) does not use up the
owner's approval (hostile review of stop 39): the change lock is taken before the approval is
(single use), so a transient wait does not make the owner approve the same call again."""

from __future__ import annotations

import asyncio

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.hubitat_dev_tools.tools import base
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller
from ..helpers.approvals import decide, repairs_client
from ..home_util import dev_id


async def test_hub_busy_does_not_use_up_the_owners_approval(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(base, "CHANGE_WAIT_S", 0.5)  # the 30 s wait, shortened
    lock = dev_id(hub, "Front Door Lock")
    hub.set_device_attribute(int(lock), "lock", "locked")
    call = {"device_id": lock, "command": "unlock"}
    asked = await call_tool("hub_call_device_command", call)
    assert asked.data["error"] == "approval_required", asked.data
    client = await repairs_client(hass, hass_client)
    await decide(hass, client, approving_entry, asked.data["approval_id"])

    # another call is changing the hub (holds the change lock alone) as the approved call comes
    # (held by its own task, as a concurrent call is)
    release, taken = asyncio.Event(), asyncio.Event()

    async def other_change() -> None:
        async with approving_entry.runtime_data.changes.hold("hub_update_rule", acting=False):
            taken.set()
            await release.wait()

    other = asyncio.create_task(other_change())
    await taken.wait()
    busy = await call_tool("hub_call_device_command", call)
    release.set()
    await other
    assert busy.error and busy.data["error"] == "hub_busy", busy.data
    assert hub.find_device("Front Door Lock")["attributes"]["lock"] == "locked"

    # the change is over: the approved call, called again as hub_busy's hint says, runs
    again = await call_tool("hub_call_device_command", call)
    assert not again.error, (
        "the owner's approval was used up by a hub_busy refusal that sent nothing",
        again.data,
    )
