"""The hub's alerts as Repairs issues (hub_alerts.py) and the diagnostics health report."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.hubitat_dev_tools.const import DOMAIN
from custom_components.hubitat_dev_tools.hub_alerts import (
    CHECK_INTERVAL,
    UNREACHABLE_AFTER,
    alert_issue_id,
    async_check_hub_alerts,
    async_health_diagnostics,
    async_setup_hub_alerts,
    get_alert_state,
    unreachable_issue_id,
)
from hubitat_emulator import HubEmulator

from ..conftest import our_issues, until


async def _setup(hass: HomeAssistant, entry: MockConfigEntry) -> Callable[[], None] | None:
    """Start the check unless __init__.py already does."""
    if get_alert_state(hass, entry.entry_id) is not None:
        return None
    unload = async_setup_hub_alerts(hass, entry)
    await hass.async_block_till_done()
    return unload


async def test_alerts_become_issues_and_clear(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    unload = await _setup(hass, entry)
    low = alert_issue_id(entry.entry_id, "hubLowMemory")
    zb = alert_issue_id(entry.entry_id, "zigbeeOffline")
    assert not {low, zb} & our_issues(hass)
    hub.ops.alerts.update(hubLowMemory=True, zigbeeOffline=True)
    await async_check_hub_alerts(hass, entry)
    assert {low, zb} <= our_issues(hass)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, zb)
    assert issue is not None and issue.translation_key == "hub_alert"
    assert issue.severity == ir.IssueSeverity.ERROR and not issue.is_fixable
    assert issue.translation_placeholders is not None
    assert issue.translation_placeholders["title"] == "Zigbee radio offline"
    assert issue.translation_placeholders["hub"] == entry.title
    hub.ops.alerts["zigbeeOffline"] = False
    await async_check_hub_alerts(hass, entry)
    assert low in our_issues(hass) and zb not in our_issues(hass)
    if unload is not None:
        unload()
        assert low not in our_issues(hass)


async def test_periodic_check(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    unload = await _setup(hass, entry)
    state = get_alert_state(hass, entry.entry_id)
    assert state is not None
    await until(lambda: state.last_check is not None, 3.0)  # the first check has run
    first = state.last_check
    await asyncio.sleep(0.05)
    hub.ops.alerts["localBackupFailed"] = True
    async_fire_time_changed(hass, dt_util.utcnow() + CHECK_INTERVAL * 1.1)
    await hass.async_block_till_done()
    issue = alert_issue_id(entry.entry_id, "localBackupFailed")
    await until(lambda: issue in our_issues(hass), 3.0)
    assert state.last_check != first
    if unload is not None:
        unload()


async def test_unreachable_hub_issue_clears_when_back(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator, caplog: pytest.LogCaptureFixture
) -> None:
    unload = await _setup(hass, entry)
    hub.ops.alerts["hubLowMemory"] = True
    await async_check_hub_alerts(hass, entry)
    hub.faults.down = True
    caplog.set_level(logging.INFO, logger="custom_components.hubitat_dev_tools.hub_alerts")
    for _ in range(UNREACHABLE_AFTER):
        await async_check_hub_alerts(hass, entry)
    assert unreachable_issue_id(entry.entry_id) in our_issues(hass)
    # One log line for the outage, however many checks fail.
    assert len([r for r in caplog.records if "is unavailable" in r.message]) == 1
    # the alert issues stay as they were while the hub is away
    assert alert_issue_id(entry.entry_id, "hubLowMemory") in our_issues(hass)
    hub.faults.down = False
    hub.ops.alerts["hubLowMemory"] = False
    await async_check_hub_alerts(hass, entry)
    assert not {
        unreachable_issue_id(entry.entry_id),
        alert_issue_id(entry.entry_id, "hubLowMemory"),
    } & our_issues(hass)
    state = get_alert_state(hass, entry.entry_id)
    assert state is not None and state.failures == 0
    assert len([r for r in caplog.records if "is available again" in r.message]) == 1
    await async_check_hub_alerts(hass, entry)
    assert len([r for r in caplog.records if "is available again" in r.message]) == 1
    if unload is not None:
        unload()


async def test_leftover_issues_from_before_restart_are_cleared(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    stale = alert_issue_id(entry.entry_id, "hubLargeDatabase")
    ir.async_create_issue(
        hass,
        DOMAIN,
        stale,
        is_fixable=False,
        severity=ir.IssueSeverity.ERROR,
        translation_key="hub_alert",
        translation_placeholders={"hub": "x", "title": "y", "detail": "z"},
    )
    state = get_alert_state(hass, entry.entry_id)
    if state is not None:  # already wired: the next check must still clear it
        state.issues.add(stale)
        await async_check_hub_alerts(hass, entry)
        unload = None
    else:
        unload = await _setup(hass, entry)
    await until(lambda: stale not in our_issues(hass), 3.0)
    if unload is not None:
        unload()


async def test_health_diagnostics_redacted(
    hass: HomeAssistant, entry: MockConfigEntry, hub: HubEmulator
) -> None:
    unload = await _setup(hass, entry)
    hub.ops.alerts["hubLowMemory"] = True
    await async_check_hub_alerts(hass, entry)
    diag = await async_health_diagnostics(hass, entry)
    text = json.dumps(diag)
    assert hub.hub_uid not in text and hub.state.mac not in text and hub.hub_name not in text
    assert "127.0.0.1" not in text
    assert diag["alert_check"]["open_issues"] == ["hubLowMemory"]
    assert diag["health_report"]["alerts"][0]["key"] == "hubLowMemory"
    hub.faults.down = True
    down = await async_health_diagnostics(hass, entry)
    assert down["health_report"]["unavailable"] in ("hub_unreachable", "hub_bad_response")
    hub.faults.down = False
    if unload is not None:
        unload()
