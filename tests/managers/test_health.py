"""The health manager (``managers/health.py``) on its own, no hass: the memory trend over
the hub's memory history.

Moved from tests/tools/test_health.py (it calls the manager's function, not a tool)."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.hub.health import parse_memory_history
from custom_components.hubitat_dev_tools.managers.health import memory_trend


def test_memory_history_both_date_forms() -> None:
    text = (
        "Date/time,Free OS,5m CPU avg,Total Java,Free Java,Direct Java\n"
        "2026-04-19 10:00,200000,0.5,500000,100000,2000\n"
        "04-12 03:20:19,150000,0.6,500000, 90000\n"
    )
    rows = parse_memory_history(text)
    assert [r.free_os_kb for r in rows] == [200000, 150000]
    assert rows[1].direct_java_kb is None and rows[1].free_java_kb == 90000
    trend = memory_trend(rows)
    assert trend["samples"] == 2 and trend["free_memory_kb"]["min"] == 150000
