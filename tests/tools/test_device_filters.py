"""hub_list_devices' comparator arguments: each malformed one is refused before any request.

The filtering itself (the lights notion, the comparators, the text match) is tested on the
manager, without hass: tests/managers/test_device_filters.py."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from hubitat_emulator import HubEmulator

from ..conftest import ToolCaller, refused
from ..home_util import dev_id


@pytest.mark.parametrize(
    ("args", "word"),
    [
        ({"attribute": "battery", "comparator": "below", "value": 9}, "comparator"),
        ({"attribute": "battery", "comparator": "between", "value": 9}, "values [low, high]"),
        ({"attribute": "battery", "comparator": "between", "values": [1, 2, 3]}, "values"),
        ({"attribute": "battery", "comparator": "between", "values": [1, "x"]}, "numbers"),
        ({"attribute": "battery", "comparator": "lt", "value": "low"}, "numeric"),
        ({"attribute": "battery", "comparator": "lt"}, "needs value"),
        ({"comparator": "lt", "value": 20}, "need attribute"),
        ({"values": [1, 2]}, "need attribute"),
    ],
)
async def test_comparator_refusals_send_nothing(
    entry: MockConfigEntry,
    hub: HubEmulator,
    call_tool: ToolCaller,
    args: dict[str, Any],
    word: str,
) -> None:
    dev_id(hub, "Kitchen Light")  # the hub is up
    before = len(hub.requests)
    data = await refused(call_tool, "hub_list_devices", args)
    assert word in data["message"], data
    assert hub.requests[before:] == []
