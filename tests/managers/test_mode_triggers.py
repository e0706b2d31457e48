"""Mode Manager triggers (``managers/mode_triggers.py``) on their own, no hass: each trigger
shape is built and read back by meaning.

Moved from tests/tools/test_mode_manager.py (it calls the manager's functions, not a tool)."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.hubitat_dev_tools.errors import ToolError
from custom_components.hubitat_dev_tools.managers import mode_triggers as triggers


def test_trigger_shapes_round_trip() -> None:
    specs: list[dict[str, Any]] = [
        {"type": "time", "at": "06:05"},
        {"type": "sunrise", "offset_minutes": -10},
        {"type": "sunset", "offset_minutes": 0},
        {"type": "switch", "event": "off", "device_ids": ["7"], "stays_minutes": 5},
        {"type": "illuminance", "event": "falls_below", "value": 40, "device_ids": [8]},
    ]
    for spec in specs:
        meaning = triggers.describe(triggers.build(spec))
        meaning.pop("description")
        for key, value in spec.items():
            got = meaning[key]
            wanted = [str(v) for v in value] if isinstance(value, list) else value
            assert got == wanted, (spec, meaning)
    with pytest.raises(ToolError):
        triggers.build({"type": "sunrise", "offset_minutes": 5000})
