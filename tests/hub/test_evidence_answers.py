"""The library's parsers fed the answers real hubs give, as the sources of the endpoint
table show them (``docs/hub-endpoints.md``): hub data of two firmware lines, the CPU
information's two lines, the boot status."""

from __future__ import annotations

from custom_components.hubitat_dev_tools.hub.health import fetch_cpu_info, fetch_memory_history
from custom_components.hubitat_dev_tools.hub.info import fetch_hub_data
from custom_components.hubitat_dev_tools.hub.lifecycle import hub_status
from custom_components.hubitat_dev_tools.managers.health import active_alerts

from ..contract import load_fixture
from ..fixture_client import fixture_client


async def test_cpu_info_two_lines() -> None:
    info = await fetch_cpu_info(fixture_client("health/cpu_info"))
    assert info == {"processors": 4, "load_average": 0.07000000000000006}


async def test_hub_status_while_running() -> None:
    assert await hub_status(fixture_client("lifecycle/hub_status")) == "running"


async def test_hub_data_alerts_on_both_firmware_lines() -> None:
    """2.5.0 and 2.5.1 name their alerts differently and carry numbers and lists among
    them: only flags that are true are active, and an unknown one is still shown."""
    old = await fetch_hub_data(fixture_client("info/hub_data"))
    assert [a["key"] for a in active_alerts(old)] == ["hubLowMemory", "platformUpdateAvailable"]
    update = next(a for a in active_alerts(old) if a["key"] == "platformUpdateAvailable")
    assert "2.5.0.153" in update["detail"]
    new = await fetch_hub_data(fixture_client("info/hub_data_2_5_1"))
    assert [a["key"] for a in active_alerts(new)] == ["hubHugeDatabase"]
    assert load_fixture("info/hub_data_2_5_1").answer["hubVersion"] == 9  # a number, not the model


async def test_memory_history_keeps_every_column() -> None:
    """Total, free and direct Java heap as well as free OS memory and CPU (the on-hub
    server's CSV has all five after the time)."""
    samples = await fetch_memory_history(fixture_client("health/memory_history"))
    row = samples[0].as_dict()
    assert row["free_os_kb"] == 200000 and row["cpu_avg_5m"] == 0.5
    assert (row["total_java_kb"], row["free_java_kb"], row["direct_java_kb"]) == (
        500000,
        100000,
        2000,
    )
