"""A known limit (hostile review of stop 39; SECURITY.md, "Approval outside the model"): an
approval is judged when asked and used later, with no re-judgement: the owner
approves "run rule R" on the effect shown then (R locks the Back Door), R is changed in
between (here by another approved edit: R now runs the unlock rule on motion, which the owner
wants as an automation), and the approved call then unlocks the door now. The owner approved
a lock and got an unlock. (Gate 13 keeps R unchanged between one call's judgement and its
press; an approval's judgement and its use are two calls.)"""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok
from ..helpers.approvals import decide, repairs_client
from ..home_util import dev_id


@pytest.mark.xfail(
    strict=True,
    reason="known limit: an approval is bound to the call's arguments, not re-judged when used",
)
async def test_an_approval_is_not_used_for_an_effect_the_owner_never_saw(
    hass: HomeAssistant,
    approving_entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    hass_client: ClientSessionGenerator,
) -> None:
    client = await repairs_client(hass, hass_client)

    async def approved(name: str, args: dict[str, Any]) -> tuple[dict[str, Any], str]:
        asked = await call_tool(name, args)
        assert asked.error and asked.data["error"] == "approval_required", asked.data
        await decide(hass, client, approving_entry, asked.data["approval_id"])
        return await ok(call_tool, name, args), asked.data["effect"]

    back = dev_id(hub, "Back Door Lock")
    trigger = {"device_id": dev_id(hub, "Office Motion"), "attribute": "motion", "is": "active"}
    unlock, _ = await approved(
        "hub_create_rule",
        {
            "rule": {
                "name": "Unlock",
                "triggers": [trigger],
                "actions": [{"command": "unlock", "device_ids": [back]}],
            }
        },
    )
    made, _ = await approved(
        "hub_create_rule",
        {
            "rule": {
                "name": "R",
                "triggers": [trigger],
                "actions": [{"command": "lock", "device_ids": [back]}],
            }
        },
    )
    rule = str(made["app_id"])
    hub.set_device_attribute(int(back), "lock", "locked")

    # the owner approves running R: the effect shown is the lock
    run = {"app_id": rule, "action": "run_actions"}
    asked = await call_tool("hub_call_rule", run)
    assert asked.data["error"] == "approval_required", asked.data
    shown = asked.data["effect"]
    assert "Unlock" not in shown, shown
    await decide(hass, client, approving_entry, asked.data["approval_id"])

    # R is changed meanwhile (the owner approves that edit too, as an automation on motion)
    spec = {"name": "R", "triggers": [trigger], "actions": [{"run_rule": [str(unlock["app_id"])]}]}
    await approved("hub_update_rule", {"app_id": rule, "rule": spec})
    assert hub.device(back)["attributes"]["lock"] == "locked"  # the edit itself ran nothing

    # the approved run is used: it must not unlock the door now
    result = await call_tool("hub_call_rule", run)
    assert hub.device(back)["attributes"]["lock"] == "locked", (
        f"approved on {shown!r}, the call ran the unlock rule",
        result.data,
    )
