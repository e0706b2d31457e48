"""Shared fixtures for the library tests: the hub library runs here without hass.

The suite's autouse ``auto_enable_custom_integrations`` (tests/conftest.py) sets up a Home
Assistant (``hass``) for every test; it is replaced here by a fixture of the same name that
does nothing unless the test itself asks for ``hass`` (as tests/managers/conftest.py does),
so a library test runs without one while the tests that need the integration loaded (the
compatibility check through a config entry, tests/hub/test_compat.py) still get it.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(request: pytest.FixtureRequest) -> None:
    """Replaces the suite's autouse fixture of that name, which sets up a Home Assistant
    (``hass``) for every test: the library runs here without one. A test that asks for
    ``hass`` itself (through ``entry``, ``add_entry`` or ``call_tool``) still gets the
    integration loaded."""
    if "hass" in request.fixturenames:
        request.getfixturevalue("enable_custom_integrations")
