"""hub_call_rule run_actions on a Button Rule (its button device's event, as the hub runs it)
and hub_list_rules engine=button, against the emulated controller and runner.

The tools' part is here: their answers and summaries (one rule and a batch), the refusal of
stop as the model sees it, the confirmation a Button Rule commanding a lock needs, the device
allowlist, running the rule the list describes and the tool's refusal of an unknown engine.
Running a Button Rule through its button (alone and batched), its refused stop and start and
a Visual Rule that cannot be run are tested without hass in
tests/managers/test_button_rules.py; the listing in tests/managers/test_rules.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry, ok, refused
from ..helpers.button_rules import _dev as dev
from ..helpers.button_rules import _settled as settled
from ..helpers.button_rules import _switch_action as switch_action
from ..helpers.button_rules import _value as value


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


async def test_a_button_rule_runs_through_its_button(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answers (running it, stop and start refused, a batch:
    tests/managers/test_button_rules.py)."""
    await add_entry(hass, hub)
    rule = await button_rule(hub, call_tool, "2 held", switch_action(hub, "Office Light", False))
    data = await ok(call_tool, "hub_call_rule", {"app_id": rule, "action": "run_actions"})
    assert data["app_id"] == rule and "hold 2" in data["via"], data
    assert data["summary"] == f"run_actions on rule {rule} ({data['name']})"
    assert await settled(lambda: value(hub, "Office Light", "switch") == "off")
    # its only action: stop is refused, nothing sent
    sent = len(hub.requests)
    stop = await refused(call_tool, "hub_call_rule", {"app_id": rule, "action": "stop"})
    assert "Button Rule" in stop["message"] and "run_actions" in stop["message"], stop
    assert [m for m, _p in hub.requests[sent:] if m == "POST"] == []
    # batched with an RM rule: both run
    hub.home.set_device_attribute(dev(hub, "Office Light"), "switch", "on")
    batch = {"app_ids": [rule, "140"], "action": "run_actions"}
    done = await ok(call_tool, "hub_call_rule", batch)
    assert done["failed"] == 0, done
    assert done["summary"] == "run_actions on 2 rules: 2 done, 0 failed"
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
