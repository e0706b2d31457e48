"""The hub's own alerts as Repairs issues, and a redacted health report for diagnostics.

Wiring (``__init__.py``): ``entry.async_on_unload(async_setup_hub_alerts(hass, entry))`` after
``entry.runtime_data`` is set. Every ``CHECK_INTERVAL`` (and once right away) we read
``/hub2/hubData`` alerts: each active alert becomes one issue
(``hub_alert_<entry_id>_<alert>``, translation key ``hub_alert``), created and cleared as the
hub reports it. A hub that does not answer ``UNREACHABLE_AFTER`` checks in a row raises
``hub_unreachable_<entry_id>``; it clears as soon as the hub answers again (after a reboot,
for example). Nothing here caches the hub's state between checks: every check is a fresh
request through the client, which logs in again when the hub forgot the session.

Diagnostics: ``await async_health_diagnostics(hass, entry)`` returns the health report
without identifying data (no hub UID, IP, MAC, name) plus the last check's outcome.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.event import async_track_time_interval

from .const import DOMAIN
from .hub.errors import HubAuthError, HubError

_LOGGER = logging.getLogger(__name__)

CHECK_INTERVAL = timedelta(minutes=5)
UNREACHABLE_AFTER = 3
ISSUE_ALERT = "hub_alert"
ISSUE_UNREACHABLE = "hub_unreachable"
DATA_ALERTS = f"{DOMAIN}_hub_alerts"

_SEVERITY = {
    "error": ir.IssueSeverity.ERROR,
    "warning": ir.IssueSeverity.WARNING,
    "info": ir.IssueSeverity.WARNING,
}


@dataclass(slots=True)
class HubAlertState:
    """What the periodic check knows about one hub (for diagnostics and clearing)."""

    issues: set[str] = field(default_factory=set)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    failures: int = 0
    last_check: datetime | None = None
    last_error: str | None = None


def alert_issue_id(entry_id: str, key: str) -> str:
    """Issue id of one hub alert of one hub."""
    return f"{ISSUE_ALERT}_{entry_id}_{key}"


def unreachable_issue_id(entry_id: str) -> str:
    """Issue id of the 'hub unreachable' issue of one hub."""
    return f"{ISSUE_UNREACHABLE}_{entry_id}"


def get_alert_state(hass: HomeAssistant, entry_id: str) -> HubAlertState | None:
    """The alert state of one hub entry, if the check runs for it."""
    states: dict[str, HubAlertState] = hass.data.get(DATA_ALERTS, {})
    return states.get(entry_id)


def _hub_title(entry: ConfigEntry[Any]) -> str:
    return entry.title or "Hubitat"


async def async_check_hub_alerts(hass: HomeAssistant, entry: ConfigEntry[Any]) -> None:
    """One check: sync Repairs issues with the hub's current alerts."""
    state = get_alert_state(hass, entry.entry_id)
    runtime = getattr(entry, "runtime_data", None)
    if state is None or runtime is None:
        return
    state.last_check = datetime.now(UTC)
    try:
        alerts = await runtime.hub.health.alerts()
    except HubAuthError as err:
        # Re-authentication has its own flow; keep the alert issues as they are.
        state.last_error = err.code
        return
    except HubError as err:
        state.last_error = err.code
        state.failures += 1
        if state.failures == 1:
            # Once per outage (quality scale: log-when-unavailable), not on every check.
            _LOGGER.info("Hub %s is unavailable (%s): %s", _hub_title(entry), err.code, err)
        if state.failures >= UNREACHABLE_AFTER:
            issue = unreachable_issue_id(entry.entry_id)
            ir.async_create_issue(
                hass,
                DOMAIN,
                issue,
                is_fixable=False,
                severity=ir.IssueSeverity.ERROR,
                translation_key=ISSUE_UNREACHABLE,
                translation_placeholders={
                    "hub": _hub_title(entry),
                    "minutes": str(int(state.failures * CHECK_INTERVAL.total_seconds() // 60)),
                },
            )
            state.issues.add(issue)
        return
    if state.failures:
        _LOGGER.info("Hub %s is available again", _hub_title(entry))
    state.failures = 0
    state.last_error = None
    state.alerts = alerts
    wanted: dict[str, dict[str, Any]] = {
        alert_issue_id(entry.entry_id, str(a["key"])): a for a in alerts
    }
    wanted_ids = set(wanted)
    for issue in sorted(state.issues - wanted_ids):
        ir.async_delete_issue(hass, DOMAIN, issue)
    for issue, alert in wanted.items():
        ir.async_create_issue(
            hass,
            DOMAIN,
            issue,
            is_fixable=False,
            is_persistent=False,
            severity=_SEVERITY.get(str(alert["severity"]), ir.IssueSeverity.WARNING),
            translation_key=ISSUE_ALERT,
            translation_placeholders={
                "hub": _hub_title(entry),
                "title": str(alert["title"]),
                "detail": str(alert["detail"]),
            },
        )
    state.issues = wanted_ids


@callback
def async_setup_hub_alerts(hass: HomeAssistant, entry: ConfigEntry[Any]) -> Callable[[], None]:
    """Start the periodic alert check for one hub entry; returns the unload callback."""
    state = HubAlertState()
    # Issues left over from before a restart: cleared by the first check if not active.
    prefixes = (f"{ISSUE_ALERT}_{entry.entry_id}_", unreachable_issue_id(entry.entry_id))
    registry = ir.async_get(hass)
    for domain, issue_id in list(registry.issues):
        if domain == DOMAIN and issue_id.startswith(prefixes):
            state.issues.add(issue_id)
    hass.data.setdefault(DATA_ALERTS, {})[entry.entry_id] = state

    async def _check(_now: datetime | None = None) -> None:
        try:
            await async_check_hub_alerts(hass, entry)
        except Exception:  # a check must never break the timer
            _LOGGER.exception("Hub alert check failed for %s", entry.title)

    entry.async_create_background_task(hass, _check(), f"{DOMAIN} hub alerts {entry.entry_id}")
    unsub = async_track_time_interval(
        hass, _check, CHECK_INTERVAL, name=f"{DOMAIN} hub alerts", cancel_on_shutdown=True
    )

    @callback
    def _unload() -> None:
        unsub()
        states: dict[str, HubAlertState] = hass.data.get(DATA_ALERTS, {})
        gone = states.pop(entry.entry_id, None)
        for issue in sorted(gone.issues if gone else ()):
            ir.async_delete_issue(hass, DOMAIN, issue)

    return _unload


async def async_health_diagnostics(hass: HomeAssistant, entry: ConfigEntry[Any]) -> dict[str, Any]:
    """The health report for diagnostics, without identifying data, plus the last check."""
    out: dict[str, Any] = {}
    state = get_alert_state(hass, entry.entry_id)
    if state is not None:
        out["alert_check"] = {
            "last_check": state.last_check.isoformat() if state.last_check else None,
            "last_error": state.last_error,
            "consecutive_failures": state.failures,
            "open_issues": sorted(
                i.removeprefix(f"{ISSUE_ALERT}_{entry.entry_id}_") for i in state.issues
            ),
        }
    runtime = getattr(entry, "runtime_data", None)
    if runtime is None:
        return out
    try:
        report = await runtime.hub.health.report(history_points=0)
    except HubError as err:
        out["health_report"] = {"unavailable": err.code}
        return out
    report.pop("hub", None)  # the hub's name is user data
    out["health_report"] = report
    return out
