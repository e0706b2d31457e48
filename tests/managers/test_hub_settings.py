"""The hub's own settings (``managers/hub_info.py``, ``update_settings``) on their own, no
hass: the hub's location save is wholesale, so the current settings are read, the change
laid over them and every other field sent back unchanged (a placeholder such as "null" sent
back empty); a voice the hub does not offer, or details lacking a field the save would
blank, refused before anything is sent; the change read back, over the emulated hub.

Moved from tests/tools/test_hub_settings.py (the read-merge-write is the manager's; the
tool's argument checks, its refusal of a call with nothing to change and its summary stay
there)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers.hub import Hub
from hubitat_emulator import HubEmulator


def posts(emu: HubEmulator, before: int) -> list[str]:
    """The POST requests the hub received since ``before``."""
    return [p for m, p in emu.requests[before:] if m == "POST"]


async def test_update_settings_keeps_the_others(emu: HubEmulator, manager_hub: Hub) -> None:
    st = emu.state
    before = (st.zip_code, st.latitude, st.longitude, st.tts_voice, st.mdns_name)
    data = await manager_hub.info.update_settings(
        {"name": "Cabin Hub", "temperatureScale": "C", "clock": "24"}
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
    assert emu.status == "running"  # no time-zone change, no reboot
    assert "rebooting" not in data and "note_time_zone" not in data
    info = await manager_hub.info.info()
    assert info["name"] == "Cabin Hub" and info["location"]["temperature_scale"] == "C"
    start = len(emu.requests)
    again = await manager_hub.info.update_settings({"temperatureScale": "C"})
    assert again == {"changed": {}, "unchanged": True}
    assert posts(emu, start) == []  # nothing to change: nothing saved


async def test_update_settings_numbers_and_voice(emu: HubEmulator, manager_hub: Hub) -> None:
    data = await manager_hub.info.update_settings({"latitude": 40.0, "longitude": -105.0})
    assert set(data["changed"]) == {"latitude", "longitude"} and "not_applied" not in data
    assert (emu.state.latitude, emu.state.longitude) == (40.0, -105.0)
    await manager_hub.info.update_settings({"voice": "Matthew"})
    assert emu.state.tts_voice == "Matthew"


async def test_a_voice_the_hub_does_not_offer_is_refused(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    start = len(emu.requests)
    with pytest.raises(ToolError, match="Joanna"):
        await manager_hub.info.update_settings({"voice": "HAL"})
    assert posts(emu, start) == [] and emu.state.tts_voice == "Joanna"


async def test_update_settings_refused_when_a_field_is_missing(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    emu.details_omit = {"ttsCurrent"}  # a firmware without it: a save would blank it
    start = len(emu.requests)
    with pytest.raises(ToolError, match="ttsCurrent") as refused:
        await manager_hub.info.update_settings({"name": "X"})
    assert "Settings > Location" in str(refused.value.hint)
    assert posts(emu, start) == []
    assert emu.state.hub_name == "Home Hub" and emu.state.tts_voice == "Joanna"


async def test_placeholders_are_not_echoed_by_the_wholesale_save(
    emu: HubEmulator, manager_hub: Hub
) -> None:
    # A hub that never had a zip code reads it back as the text "null": sending that back
    # would store "null" as the zip code. It goes back empty.
    emu.state.zip_code = "null"
    await manager_hub.info.update_settings({"temperatureScale": "C"})
    assert emu.state.temp_scale == "C"
    assert emu.state.zip_code == ""
