"""Diagnostics with secrets redacted."""

from __future__ import annotations

import time
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_PASSWORD, CONF_USERNAME
from homeassistant.core import HomeAssistant

from .const import CONF_MAKER_TOKEN
from .domain_data import get_domain_data
from .hub.errors import HubError
from .hub_alerts import async_health_diagnostics
from .mcp_exposure import exposure_state
from .redact import redact, redact_arguments
from .runtime import HubitatConfigEntry
from .tools.audit import screened_records
from .tools.surface import registry, served_tools, visibility

TO_REDACT = {
    CONF_PASSWORD,
    CONF_USERNAME,
    CONF_MAKER_TOKEN,
    "mac",
    "macAddress",
    "hub_uid",
    "latitude",
    "longitude",
    "zipCode",
    "unique_id",
}

# The compatibility section reads about 30 endpoints; a slow hub must not stall the download.
COMPAT_BUDGET_S = 30.0


# Tool arguments whose values are typed by the hub (driver preferences, app settings): the
# audit trail cannot tell a password-type one, so diagnostics keep their names only.
def _audit_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """One audit record for diagnostics: redacted, typed argument values dropped."""
    out: dict[str, Any] = redact(entry)
    if isinstance(out.get("args"), dict):
        out["args"] = redact_arguments(out["args"])
    return out


def _surface(hass: HomeAssistant) -> dict[str, Any]:
    """What the assistant sees now: surface, listed tools, hidden tools."""
    vis = visibility(hass)
    return {
        "surface": vis.surface,
        "listed": [t.name for t in served_tools(hass)],
        "hidden": sorted(set(registry()) - vis.visible),
    }


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: HubitatConfigEntry
) -> dict[str, Any]:
    """Return redacted diagnostics for one hub entry."""
    rt = entry.runtime_data
    try:
        info: dict[str, Any] = await rt.hub.info.info()
    except HubError as err:
        info = {"error": str(err)}
    compatibility = await rt.hub.info.compatibility(time.monotonic() + COMPAT_BUDGET_S)
    domain = get_domain_data(hass)
    data: dict[str, Any] = async_redact_data(
        {
            "entry": {"data": dict(entry.data), "options": dict(entry.options)},
            "hub": info,
            "client": {
                "requests_sent": rt.hub.client.requests_sent,
                "max_in_flight_seen": rt.hub.client.max_in_flight_seen,
                "logged_in": rt.hub.client.session_cookie is not None,
            },
            "hub_health": await async_health_diagnostics(hass, entry),
            "compatibility": compatibility,
            "event_stream": rt.hub.cache.diagnostics() if rt.hub.cache else {"running": False},
            "mcp_server_exposure": exposure_state(hass),
            "tool_surface": _surface(hass),
            "audit_total": len(domain.audit) if domain else 0,
            "audit_recent": [
                _audit_entry(e) for e in screened_records(hass, domain.audit.recent(50))
            ]
            if domain
            else [],
            "audit_stats": domain.audit.stats() if domain else {},
        },
        TO_REDACT,
    )
    # then the value-aware rules (lock codes, tokens and secrets in any spelling)
    redacted: dict[str, Any] = redact(data)
    return redacted
