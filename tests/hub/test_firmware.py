"""Firmware awareness: the platform read at setup, version checks, the clear refusal."""

from __future__ import annotations

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools.hub import HubClient, HubConnection
from custom_components.hubitat_dev_tools.hub.errors import HubFirmwareError
from custom_components.hubitat_dev_tools.hub.firmware import (
    UNKNOWN_PLATFORM,
    Platform,
    parse_version,
    platform_from,
)
from custom_components.hubitat_dev_tools.hub.info import fetch_identity
from hubitat_emulator import HubEmulator


def test_versions_and_models() -> None:
    assert parse_version("2.5.0.143") == (2, 5, 0, 143)
    assert parse_version("2.4.4.156 beta") == (2, 4, 4, 156)
    assert parse_version("unknown") is None
    assert parse_version(None) is None
    c5 = platform_from({"platformVersion": "2.3.9.201", "hardwareVersion": "Rev C-5"})
    assert (c5.version, c5.model, c5.generation) == ((2, 3, 9, 201), "C-5", 5)
    pro = platform_from({"platformVersion": "2.5.0.143", "hardwareVersion": "Rev C-8 Pro"})
    assert (pro.model, pro.generation) == ("C-8 Pro", 8)
    assert pro.at_least(2, 5) and pro.at_least(2, 4, 9) and not pro.at_least(2, 5, 1)
    assert platform_from("junk") == UNKNOWN_PLATFORM
    # Unknown firmware is assumed current: nothing is refused on a guess.
    assert UNKNOWN_PLATFORM.at_least(9, 9)
    UNKNOWN_PLATFORM.require((9, 9), "Anything")


def test_require_refuses_clearly() -> None:
    old = Platform(version=(2, 4, 4, 156), model="C-7")
    with pytest.raises(HubFirmwareError) as err:
        old.require((2, 5), "Saving code with the 2.5 editor")
    assert err.value.code == "firmware_unsupported"
    assert "needs hub firmware 2.5 or newer" in str(err.value)
    assert "2.4.4.156" in str(err.value)
    assert old.as_dict() == {"firmware": "2.4.4.156", "model": "C-7", "generation": 7}


async def test_setup_reads_the_platform(socket_enabled: None) -> None:
    emu = HubEmulator()
    emu.state.version = "2.3.8.140"
    emu.state.model = "C-5"
    await emu.start()
    try:
        url = URL(emu.url)
        async with aiohttp.ClientSession() as session:
            client = HubClient(session, HubConnection(host=str(url.host), port=url.port))
            assert client.platform == UNKNOWN_PLATFORM
            await fetch_identity(client)
            assert client.platform == Platform(version=(2, 3, 8, 140), model="C-5")
    finally:
        await emu.stop()
