"""The library's Mode Manager writes (``hub/mode_manager.py``) on their own, no hass: the
hub's recorded answers to saving the Integrated Mode Manager's triggers and to selecting a
manager read as the hub means them (a success, a refusal returned to the caller, a refusal
raised when saving), and the emulated hub answering those two requests in the recorded
shapes.

Moved from tests/tools/test_mode_manager.py
(test_save_and_select_fixtures_and_the_emulator_answers: the answers are the library's
contract; the tool's answer (the summary, the note naming hub_get_app, a refusal answered
as an error) and the device allowlist stay there, and what the manager reads, writes and
refuses is tested in tests/managers/test_mode_manager.py)."""

from __future__ import annotations

import aiohttp
import pytest

from custom_components.hubitat_dev_tools.hub import mode_manager as api
from custom_components.hubitat_dev_tools.hub.errors import HubRefusedError
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape
from ..fixture_client import fixture_client


async def test_save_and_select_fixtures_and_the_emulator_answers(hub: HubEmulator) -> None:
    await api.save_conditions(fixture_client("modes/mode_manager_save"), {})  # success
    refusal = await api.select_manager(fixture_client("modes/mode_manager_select"), "easy")
    assert refusal == {"success": False, "message": "Invalid mode manager"}
    with pytest.raises(HubRefusedError, match="refused to save"):
        await api.save_conditions(fixture_client("modes/mode_manager_select"), {})

    async with aiohttp.ClientSession() as session:
        async with session.post(f"{hub.url}/modes/easyModeManager/json", data="{}") as r:
            assert_same_shape("modes/mode_manager_save", await r.json(content_type=None))
        async with session.get(f"{hub.url}/modes/setModeManager/easy") as r:
            assert_same_shape("modes/mode_manager_select", await r.json(content_type=None))
