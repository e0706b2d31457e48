"""hub_update_hub_settings: read-merge-write of the hub's wholesale location save."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, ok, refused


async def test_update_settings_keeps_the_others(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    st = hub.state
    before = (st.zip_code, st.latitude, st.longitude, st.tts_voice, st.mdns_name)
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
    assert "not_applied" not in data and "entry keeps its title" in data["note"]
    assert (st.hub_name, st.temp_scale, st.time_format) == ("Cabin Hub", "C", "24")
    # the save is wholesale on the hub: every other field was sent back unchanged
    assert (st.zip_code, st.latitude, st.longitude, st.tts_voice, st.mdns_name) == before
    assert hub.status == "running"  # no time-zone change, no reboot
    info = await ok(call_tool, "hub_get_info")
    assert info["name"] == "Cabin Hub" and info["location"]["temperature_scale"] == "C"
    again = await ok(call_tool, "hub_update_hub_settings", {"temperature_scale": "C"})
    assert again["unchanged"] is True


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
    await refused(call_tool, "hub_update_hub_settings", {}, "invalid_request")
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
    hub.details_omit = {"ttsCurrent"}  # a firmware without it: a save would blank it
    start = len(hub.requests)
    result = await refused(call_tool, "hub_update_hub_settings", {"hub_name": "X"})
    assert "ttsCurrent" in result["message"]
    assert not [p for m, p in hub.requests[start:] if m == "POST"]
    assert hub.state.hub_name == "Home Hub" and hub.state.tts_voice == "Joanna"


async def test_placeholders_are_not_echoed_by_the_wholesale_save(
    entry: MockConfigEntry, hub: HubEmulator, call_tool: ToolCaller
) -> None:
    # A hub that never had a zip code reads it back as the text "null": sending that back
    # would store "null" as the zip code. It goes back empty.
    hub.state.zip_code = "null"
    await ok(call_tool, "hub_update_hub_settings", {"temperature_scale": "C"})
    assert hub.state.temp_scale == "C"
    assert hub.state.zip_code == ""
