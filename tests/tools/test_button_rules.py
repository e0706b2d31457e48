"""hub_create_app app_type="Button Rule": a rule made by its Button Controller's own
add-button flow (the on-hub server, live), against the emulated controller.

The tool's part is here: its answer and the advice naming hub_update_app_settings, its own
check of the button text, how it answers a hub that makes nothing, and the device allowlist.
The add-button flow itself (the controller's clicks, the new rule's trigger, every refusal),
the shapes of a button text and of a device input and the emulated controller's add-button
mode are tested without hass in tests/managers/test_button_rules.py."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.hubitat_dev_tools.const import OPT_ALLOWED_DEVICES
from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, add_entry


def _pico(hub: HubEmulator) -> int:
    return next(d.id for d in hub.state.devices.values() if d.label == "Living Room Pico")


async def _controller(call_tool: ToolCaller, device: int | None) -> str:
    parents = await call_tool("hub_create_app", {"app_type": "Button Controllers"})
    assert not parents.error, parents.data
    args: dict[str, Any] = {"app_type": "Button Controller", "name": "Pico"}
    if device is not None:
        args["settings"] = {"buttonDev": [str(device)], "origLabel": "Pico"}
    made = await call_tool("hub_create_app", args)
    assert not made.error, made.data
    return str(made.data["app_id"])


async def test_button_rule_through_the_controller(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's answer (the flow and the controller after it:
    tests/managers/test_button_rules.py)."""
    pico = _pico(hub)
    ctrl = await _controller(call_tool, pico)
    result = await call_tool(
        "hub_create_app",
        {"app_type": "Button Rule", "parent_app_id": ctrl, "button": "3 held"},
    )
    assert not result.error, result.data
    new_id = int(result.data["app_id"])
    assert hub.state.apps[new_id].parent_id == int(ctrl)
    assert result.data["type"] == "Button Rule-5.1" and result.data["parent_id"] == ctrl
    assert result.data["page"] == "selectActions" and result.data["installed"] is False
    assert result.data["summary"].startswith("Created a Button Rule for button 3 held")
    assert "hub_update_app_settings" in result.data["next"] and "warning" not in result.data
    assert f"app_id={new_id}" in result.data["next"]
    assert int(ctrl) not in hub.buttons.modes


async def test_button_rule_refusals(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The refusals as the tool answers them (every refusal of the flow:
    tests/managers/test_button_rules.py)."""
    ctrl = await _controller(call_tool, _pico(hub))
    before = set(hub.state.apps)

    async def create(args: dict[str, Any]) -> Any:
        return await call_tool("hub_create_app", {"app_type": "Button Rule", **args})

    bad = await create({"parent_app_id": ctrl, "button": "1 wiggled"})  # the tool's own check
    assert bad.error and "button: '3 pushed'" in bad.data["message"], bad.data
    stray = await call_tool("hub_create_app", {"app_type": "Basic Rule", "button": "1 pushed"})
    assert stray.error and "Nothing was sent" in stray.data["message"]
    missing = await create({"parent_app_id": ctrl, "button": "9 pushed"})
    assert missing.error and "no button 9" in missing.data["message"], missing.data
    assert set(hub.state.apps) == before
    # the hub says success and makes nothing: answered as a bad hub response
    hub.buttons.spawns = False
    silent = await create({"parent_app_id": ctrl, "button": "1 pushed"})
    assert silent.error and silent.data["error"] == "hub_bad_response", silent.data
    assert "no new child app" in silent.data["message"] and set(hub.state.apps) == before


async def test_controller_device_outside_the_allowlist(
    hass: HomeAssistant, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    pico = _pico(hub)
    other = next(
        d.id
        for d in hub.state.devices.values()
        if "PushableButton" in d.driver.capabilities and d.id != pico
    )
    await add_entry(hass, hub, options={OPT_ALLOWED_DEVICES: [str(other)]})
    ctrl = await _controller(call_tool, other)
    inp = next(i for i in hub.state.dev.internals[int(ctrl)].inputs if i["name"] == "buttonDev")
    inp["deviceIdsForDeviceList"] = [pico]  # picked in the hub UI, outside the allowlist
    count = len(hub.state.apps)
    refused = await call_tool(
        "hub_create_app", {"app_type": "Button Rule", "parent_app_id": ctrl, "button": "1 pushed"}
    )
    assert refused.error and refused.data["error"] == "device_not_allowed", refused.data
    assert len(hub.state.apps) == count and int(ctrl) not in hub.buttons.modes
