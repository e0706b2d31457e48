"""Run pytest against a Home Assistant newer than the one phcc pins (e.g. 2026.11.0).

pytest-homeassistant-custom-component 0.13.375 pins HA 2026.10.4. With a newer HA
installed beside it (phcc installed --no-deps), two things must happen before pytest
loads the plugin:
- import homeassistant first: 2026.11 aliases httpx to httpx2 and refuses to start if
  something imported httpx before it;
- phcc imports ``_clear_logger_overwrites`` from ``homeassistant.components.logger``,
  which 2026.11 only has in ``logger.helpers``: re-export it.
The integration itself needs no shim; only the test plugin does. ``scripts/dev test`` loads
this module as an early plugin (``-p scripts.pytest_next_ha``), so every process, the
pytest-xdist workers too, runs it before phcc is imported.
"""

from __future__ import annotations

import sys

import homeassistant  # noqa: F401  - must come before anything imports httpx
import homeassistant.components.logger as ha_logger
import pytest

if not hasattr(ha_logger, "_clear_logger_overwrites"):
    from homeassistant.components.logger import helpers as logger_helpers

    ha_logger._clear_logger_overwrites = logger_helpers._clear_logger_overwrites  # type: ignore[attr-defined]

if __name__ == "__main__":
    sys.exit(pytest.main(sys.argv[1:]))
