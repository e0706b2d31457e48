"""hub_call_rule run_actions on a Button Rule (its button device's event, as the hub runs it)
and on a Visual Rule (refused: no LAN route), against the emulated controller and runner."""

from __future__ import annotations

import asyncio
from typing import Any

from homeassistant.core import HomeAssistant

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator
from hubitat_emulator.devstate import VRB_PORCH

from ..conftest import ToolCaller, add_entry, ok, refused


def dev(hub: HubEmulator, label: str) -> int:
    return next(d.id for d in hub.state.devices.values() if d.label == label)


def value(hub: HubEmulator, label: str, attribute: str) -> Any:
    return hub.state.devices[dev(hub, label)].value(attribute)


async def button_rule(
    hub: HubEmulator, call_tool: ToolCaller, button: str, actions: dict[str, Any]
) -> str:
    """A Button Rule on the Pico made by its controller, given ``actions`` (action 1) as the
    hub UI would."""
    await ok(call_tool, "hub_create_app", {"app_type": "Button Controllers"})
    pico = dev(hub, "Living Room Pico")
    made = await ok(
        call_tool,
        "hub_create_app",
        {
            "app_type": "Button Controller",
            "name": "Pico",
            "settings": {"buttonDev": [str(pico)], "origLabel": "Pico"},
        },
    )
    rule = await ok(
        call_tool,
        "hub_create_app",
        {"app_type": "Button Rule", "parent_app_id": str(made["app_id"]), "button": button},
    )
    hub.buttons.give_actions(int(rule["app_id"]), actions, [1])
    return str(rule["app_id"])


def switch_action(hub: HubEmulator, label: str, on: bool) -> dict[str, Any]:
    return {
        "actType.1": "switchActs",
        "actSubType.1": "getOnOffSwitch",
        "onOffSwitch.1": str(dev(hub, label)),
        "onOff.1": on,
    }


async def settled(check: Any) -> bool:
    for _ in range(40):
        if check():
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_button_rule_runs_through_its_button(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub)
    assert value(hub, "Office Light", "switch") == "on"
    rule = await button_rule(hub, call_tool, "2 held", switch_action(hub, "Office Light", False))
    data = await ok(call_tool, "hub_call_rule", {"app_id": rule, "action": "run_actions"})
    assert data["app_id"] == rule and "hold 2" in data["via"], data
    assert value(hub, "Living Room Pico", "held") == 2
    assert await settled(lambda: value(hub, "Office Light", "switch") == "off")
    # its only action: stop/start are refused, nothing sent
    sent = len(hub.requests)
    stop = await refused(call_tool, "hub_call_rule", {"app_id": rule, "action": "stop"})
    assert "Button Rule" in stop["message"] and "run_actions" in stop["message"], stop
    assert [m for m, _p in hub.requests[sent:] if m == "POST"] == []
    # batched with an RM rule: both run
    hub.home.set_device_attribute(dev(hub, "Office Light"), "switch", "on")
    batch = {"app_ids": [rule, "140"], "action": "run_actions"}
    done = await ok(call_tool, "hub_call_rule", batch)
    assert done["failed"] == 0, done
    assert await settled(lambda: value(hub, "Office Light", "switch") == "off")


async def test_a_button_rule_commanding_a_lock_needs_confirm(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub)
    lock = dev(hub, "Front Door Lock")
    actions = {
        "actType.1": "lockActs",
        "actSubType.1": "getLULock",
        "lockLockUnlock.1": str(lock),
        "lockRL.1": True,
    }
    rule = await button_rule(hub, call_tool, "3 pushed", actions)
    before = value(hub, "Living Room Pico", "pushed")
    data = await refused(
        call_tool,
        "hub_call_rule",
        {"app_id": rule, "action": "run_actions"},
        "confirmation_required",
    )
    assert "Front Door Lock" in data["message"], data
    assert value(hub, "Living Room Pico", "pushed") == before
    done = await ok(
        call_tool, "hub_call_rule", {"app_id": rule, "action": "run_actions", "confirm": True}
    )
    assert "push 3" in done["via"] and value(hub, "Living Room Pico", "pushed") == 3


async def test_button_device_outside_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    entry = await add_entry(hass, hub)
    rule = await button_rule(hub, call_tool, "1 pushed", switch_action(hub, "Office Light", False))
    light = str(dev(hub, "Office Light"))
    hass.config_entries.async_update_entry(entry, options={OPT_ALLOWED_DEVICES: [light]})
    before = value(hub, "Living Room Pico", "pushed")
    await refused(
        call_tool, "hub_call_rule", {"app_id": rule, "action": "run_actions"}, "device_not_allowed"
    )
    assert value(hub, "Living Room Pico", "pushed") == before
    assert value(hub, "Office Light", "switch") == "on"


async def test_a_visual_rule_cannot_be_run(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    await add_entry(hass, hub)
    sent = len(hub.requests)
    data = await refused(
        call_tool, "hub_call_rule", {"app_id": str(VRB_PORCH), "action": "run_actions"}
    )
    assert "Visual Rule" in data["message"] and "over the LAN" in data["message"], data
    assert [m for m, _p in hub.requests[sent:] if m == "POST"] == []


async def test_running_a_listed_button_rule_sends_what_the_list_says(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The listing itself: tests/managers/test_rules.py."""
    await add_entry(hass, hub)
    rule = await button_rule(hub, call_tool, "2 held", switch_action(hub, "Office Light", False))
    pico = str(dev(hub, "Living Room Pico"))
    buttons = await ok(call_tool, "hub_list_rules", {"engine": "button"})
    assert buttons["count"] == len(buttons["rules"]) == 1
    (listed,) = buttons["rules"]
    assert listed["app_id"] == rule and listed["button_device_ids"] == [pico]
    # what the list says is what running it sends: hold 2 on the Pico
    ran = await ok(call_tool, "hub_call_rule", {"app_id": rule, "action": "run_actions"})
    assert f"hold {listed['button']}" in ran["via"] and f"device {pico}" in ran["via"], ran
    await refused(call_tool, "hub_list_rules", {"engine": "buttons"}, "invalid_arguments")
