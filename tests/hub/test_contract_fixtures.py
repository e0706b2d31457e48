"""The contract fixtures themselves, and the emulator held to them (see tests/contract.py)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from yarl import URL

from custom_components.hubitat_dev_tools.hub import HubClient, HubConnection
from hubitat_emulator import HubEmulator

from ..contract import assert_same_shape, fixture_names, load_fixture, shape_errors

TESTS = Path(__file__).parent.parent  # tests/, every folder
_SOURCES: tuple[str, ...] = ("hub UI", "on-hub server", "HPM", "cli", "helog", "hubitatmaker")
_SOURCES += ("bearmay", "netdash", "iamtrep", "dennypage", "Tile Mover")


@pytest.fixture(scope="module")
def test_sources() -> str:
    """Every test module's text except this one and the helper (where fixtures are named)."""
    skip = {Path(__file__).name, "contract.py"}
    return "\n".join(
        path.read_text(encoding="utf-8") for path in TESTS.rglob("*.py") if path.name not in skip
    )


@pytest.mark.parametrize("name", fixture_names())
def test_fixture_is_well_formed_and_used(name: str, test_sources: str) -> None:
    fx = load_fixture(name)
    assert re.fullmatch(r"(GET|POST) /\S+", fx.endpoint), fx.endpoint
    # The evidence names at least one source from the evidence page.
    assert any(source in fx.evidence for source in _SOURCES), fx.evidence
    # Some test feeds it to a parser (or checks an answer against it) by name.
    assert f'"{name}"' in test_sources, f"no test uses fixture {name}"
    # The shape checker accepts the fixture itself.
    if fx.answer_text is None:
        assert shape_errors(fx.answer, fx.answer, fx.maps) == []


def test_shape_checker_catches_drift() -> None:
    expected = {"a": 1, "b": [{"x": "s", "y": True}, {"x": "t"}], "c": None}
    assert shape_errors(expected, {"a": 2.5, "b": [{"x": "u"}], "c": None}) == []
    errors = shape_errors(expected, {"a": "1", "b": [{"y": False}, {"x": 1, "z": 0}]})
    assert "$: missing keys ['c']" in errors
    assert "$.a: str, the fixture has number" in errors
    assert "$.b[]: missing keys ['x']" in errors
    assert "$.b[]: keys the fixture does not have ['z']" in errors
    assert "$.b[].x: number, the fixture has str" in errors
    # Maps: keyed by ids, the values share one shape.
    assert shape_errors({"7": {"v": 1}}, {"9": {"v": 2}, "10": {"v": 3}}, ("$",)) == []
    assert shape_errors({"7": {"v": 1}}, {"9": {"w": 2}}, ("$",)) != []


@pytest.fixture
async def emulator_client(socket_enabled: None) -> AsyncIterator[tuple[HubEmulator, HubClient]]:
    emu = HubEmulator(security=True)
    await emu.start()
    url = URL(emu.url)
    conn = HubConnection(
        host=str(url.host),
        port=url.port,
        username=emu.username,
        password=emu.password,
        maker_app_id=str(emu.maker_app_id),
        maker_token=emu.maker_token,
    )
    try:
        async with aiohttp.ClientSession() as session:
            yield emu, HubClient(session, conn)
    finally:
        await emu.stop()


_READS = [name for name in fixture_names() if load_fixture(name).emulator is not None]


@pytest.mark.parametrize("name", _READS)
async def test_emulator_answers_in_the_fixture_shape(
    name: str, emulator_client: tuple[HubEmulator, HubClient]
) -> None:
    emu, client = emulator_client
    fx = load_fixture(name)
    request = fx.emulator or {}
    path = str(request.get("path", fx.path)).replace("{maker_app_id}", str(emu.maker_app_id))
    params = {str(k): str(v) for k, v in dict(request.get("params", {})).items()}
    if path.startswith("/apps/api/"):
        params["access_token"] = emu.maker_token
    if fx.answer_text is not None:
        answer = await client.request(fx.method, path, params=params or None, expect="text")
    else:
        answer = await client.request(fx.method, path, params=params or None)
    assert_same_shape(fx, answer)
