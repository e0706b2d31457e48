"""The manager tests run without Home Assistant (tests/managers/conftest.py)."""

from __future__ import annotations

import pytest

from custom_components.hubitat_dev_tools.managers.hub import Hub


def test_no_home_assistant_here(request: pytest.FixtureRequest) -> None:
    assert "hass" not in request.fixturenames


async def test_the_manager_hub_has_no_home_assistant(
    request: pytest.FixtureRequest, manager_hub: Hub
) -> None:
    assert "hass" not in request.fixturenames and "entry" not in request.fixturenames
    assert manager_hub.client.connection.maker_app_id
