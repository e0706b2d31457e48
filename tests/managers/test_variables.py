"""The variables manager (``managers/variables.py``) on its own, no hass: a DateTime value
reads in ISO 8601 with the hub's offset, a date-only one as a date.

Moved from tests/tools/test_variables_inventory.py (it calls the manager's function, not a
tool)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.hub.variables import fetch_variables
from custom_components.hubitat_dev_tools.managers.variables import _variable

from ..fixture_client import fixture_client


async def test_datetime_fixture_reads_in_iso_with_offset() -> None:
    items = await fetch_variables(fixture_client("variables/datetime_values"))
    by_name = {v["name"]: _variable(v) for v in items}
    assert by_name["alarmAt"]["value"] == "2026-01-01T12:30:00-05:00"
    assert "datetime_form" not in by_name["alarmAt"]
    assert by_name["holiday"] == {
        "name": "holiday",
        "type": "datetime",
        "value": "2026-07-04",
        "datetime_form": "date",
    }
    assert by_name["guestCount"]["value"] == 3
