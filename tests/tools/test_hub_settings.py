"""hub_update_hub_settings through the tool: its arguments reach the hub under the location
save's names, its summary, its argument refusals (nothing sent) and the manager's refusals
as it answers them. The read-merge-write of the hub's wholesale location save (every other
field sent back unchanged, placeholders sent back empty, a voice the hub does not offer or a
missing field refused, the change read back) is tested without hass in
tests/managers/test_hub_settings.py."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused


async def test_update_settings_answers_what_changed(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The tool's arguments, named as the hub names them, and its summary (what else is
    sent back: tests/managers/test_hub_settings.py::test_update_settings_keeps_the_others)."""
    data = await ok(
        call_tool,
        "hub_update_hub_settings",
        {"hub_name": "Cabin Hub", "temperature_scale": "C", "time_format": "24"},
    )
    assert data["changed"] == {
        "name": {"from": "Home Hub", "to": "Cabin Hub"},
        "temperatureScale": {"from": "F", "to": "C"},
        "clock": {"from": "12", "to": "24"},
    }
    assert data["summary"] == "Hub settings changed: name, temperatureScale, clock"
    assert "not_applied" not in data and "entry keeps its title" in data["note"]
    assert (hub.state.hub_name, hub.state.temp_scale, hub.state.time_format) == (
        "Cabin Hub",
        "C",
        "24",
    )
    info = await ok(call_tool, "hub_get_info")
    assert info["name"] == "Cabin Hub" and info["location"]["temperature_scale"] == "C"
    again = await ok(call_tool, "hub_update_hub_settings", {"temperature_scale": "C"})
    assert again["unchanged"] is True
    assert again["summary"] == "The hub already has these settings; nothing sent"


async def test_update_settings_numbers_and_voice(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    data = await ok(call_tool, "hub_update_hub_settings", {"latitude": 40, "longitude": -105})
    assert set(data["changed"]) == {"latitude", "longitude"} and "not_applied" not in data
    assert (hub.state.latitude, hub.state.longitude) == (40.0, -105.0)
    await ok(call_tool, "hub_update_hub_settings", {"tts_voice": "Matthew"})
    assert hub.state.tts_voice == "Matthew"


async def test_update_settings_refusals_send_nothing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    start = len(hub.requests)
    nothing = await refused(call_tool, "hub_update_hub_settings", {}, "invalid_request")
    assert "hub_get_info" in nothing["hint"]
    for args in (
        {"latitude": 91},
        {"temperature_scale": "K"},
        {"mdns_name": "my hub"},
        {"time_zone": ""},
    ):
        await refused(call_tool, "hub_update_hub_settings", args, "invalid_arguments")
    assert hub.requests[start:] == []
    voice = await refused(call_tool, "hub_update_hub_settings", {"tts_voice": "HAL"})
    assert "Joanna" in voice["message"]
    assert not [p for m, p in hub.requests[start:] if m == "POST"]


async def test_update_settings_refused_when_a_field_is_missing(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """The manager's refusal as the tool answers it (nothing saved:
    tests/managers/test_hub_settings.py)."""
    hub.details_omit = {"ttsCurrent"}  # a firmware without it: a save would blank it
    start = len(hub.requests)
    result = await refused(call_tool, "hub_update_hub_settings", {"hub_name": "X"})
    assert "ttsCurrent" in result["message"]
    assert not [p for m, p in hub.requests[start:] if m == "POST"]
    assert hub.state.hub_name == "Home Hub" and hub.state.tts_voice == "Joanna"


async def test_a_new_network_name_needs_confirm(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    """Whatever reaches the hub by its name (this integration when set up with it) loses it,
    and the old name is free for another device on the network: confirm first."""
    old = hub.state.mdns_name
    start = len(hub.requests)
    asked = await refused(
        call_tool, "hub_update_hub_settings", {"mdns_name": "cabin"}, "confirmation_required"
    )
    assert "cabin.local" in asked["message"]
    assert hub.requests[start:] == [] and hub.state.mdns_name == old
    await ok(call_tool, "hub_update_hub_settings", {"mdns_name": "cabin", "confirm": True})
    assert hub.state.mdns_name == "cabin"
