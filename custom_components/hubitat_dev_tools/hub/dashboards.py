"""Easy Dashboard endpoints (hub reference §13.1); legacy dashboards are installed apps."""

from __future__ import annotations

import json
import re
from typing import Any

from .answers import require_success
from .client import HubClient
from .errors import HubBadResponseError, HubRefusedError
from .models import norm_id

_PIN_RE = re.compile(r"globalDashboardPinToken\s*=\s*['\"]([^'\"]*)['\"]")
BOOL_OPTIONS = (
    "showModeTile",
    "showClockTile",
    "showCalendarTile",
    "showHSMTile",
    "showEdit",
    "showNavigation",
    "showTutorial",
)
TEXT_OPTIONS = ("theme", "navigationSelection", "dashboardPin", "hsmPin")


def parse_device_ids(value: Any) -> list[str]:
    """``deviceIds`` arrives as a string ``"[12,34]"`` (or a list): return string ids."""
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else []
        except ValueError:
            value = [v for v in re.split(r"[,\s\[\]]+", value) if v]
    return [i for v in value or [] if (i := norm_id(v))] if isinstance(value, list) else []


def easy_to_dict(item: dict[str, Any]) -> dict[str, Any]:
    """Normalise one ``/dashboard/all`` entry."""
    out: dict[str, Any] = {
        "dashboard_id": norm_id(item.get("installedAppId") or item.get("id")),
        "name": item.get("name"),
        "type": "easy",
        "device_ids": parse_device_ids(item.get("deviceIds")),
        "options": {k: item[k] for k in (*BOOL_OPTIONS, *TEXT_OPTIONS) if k in item},
    }
    return out


async def fetch_pin_token(client: HubClient) -> str:
    """Scrape the dashboard pin token the Easy Dashboard endpoints need."""
    html = await client.request("GET", "/dashboard/select", expect="text")
    m = _PIN_RE.search(str(html))
    return m.group(1) if m else ""


async def fetch_easy_dashboards(client: HubClient, pin: str) -> list[dict[str, Any]]:
    """Every Easy Dashboard's configuration."""
    data = await client.get_json("/dashboard/all", params={"pinToken": pin})
    return [easy_to_dict(d) for d in data if isinstance(d, dict)] if isinstance(data, list) else []


def _query(name: str, device_ids: list[str], options: dict[str, Any]) -> dict[str, str]:
    q = {"name": name, "deviceIds": ",".join(device_ids)}
    for key in BOOL_OPTIONS:
        q[key] = "true" if options.get(key) else "false"
    for key in TEXT_OPTIONS:
        if options.get(key) not in (None, ""):
            q[key] = str(options[key])
    return q


def _check(result: Any, what: str) -> dict[str, Any]:
    """The hub's answer to ``what``, which must say ``"success": true``."""
    return require_success(result, what)


async def create_easy(
    client: HubClient, name: str, device_ids: list[str], options: dict[str, Any]
) -> str:
    """Create an Easy Dashboard; return its id."""
    what = f"create dashboard {name!r}"
    result = await client.request(
        "GET", "/dashboard/create", params=_query(name, device_ids, options), retry=False, what=what
    )
    new_id = norm_id(_check(result, what).get("installedAppId"))
    if new_id is None:
        raise HubBadResponseError("The hub did not say the new dashboard's id")
    return new_id


async def update_easy(
    client: HubClient, dashboard_id: str, name: str, device_ids: list[str], options: dict[str, Any]
) -> None:
    """Wholesale update (the caller must read-merge first)."""
    what = f"update {dashboard_id}"
    params = {"id": dashboard_id, **_query(name, device_ids, options)}
    _check(await client.get_json("/dashboard/update", params=params, what=what), what)


async def delete_easy(client: HubClient, dashboard_id: str, pin: str) -> None:
    """Delete an Easy Dashboard."""
    what = f"delete dashboard {dashboard_id}"
    params = {"id": dashboard_id, "pinToken": pin}
    _check(await client.get_json("/dashboard/delete", params=params, what=what), what)


_REQ_RE = re.compile(r"javascriptRequestToken\s*=\s*['\"]([^'\"]+)['\"]")


async def legacy_tokens(client: HubClient, dashboard_id: str, access_token: str) -> str:
    """Scrape the request token a legacy dashboard's layout endpoint needs."""
    html = await client.request(
        "GET",
        f"/apps/api/{dashboard_id}/dashboard/{dashboard_id}",
        params={"access_token": access_token},
        expect="text",
    )
    m = _REQ_RE.search(str(html))
    if m is None:
        raise HubBadResponseError(
            f"Legacy dashboard {dashboard_id} did not give a request token",
            hint="Open the dashboard once in the hub's web UI (it may need local access enabled).",
        )
    return m.group(1)


async def fetch_legacy_layout(
    client: HubClient, dashboard_id: str, access_token: str, request_token: str
) -> dict[str, Any]:
    """A legacy dashboard's layout (name, cols, rows, tiles...)."""
    data = await client.get_json(
        f"/apps/api/{dashboard_id}/dashboard/{dashboard_id}/layout",
        params={"access_token": access_token, "requestToken": request_token},
    )
    if not isinstance(data, dict):
        raise HubBadResponseError(f"Unexpected layout of legacy dashboard {dashboard_id}")
    return data


async def save_legacy_layout(
    client: HubClient,
    dashboard_id: str,
    access_token: str,
    request_token: str,
    layout: dict[str, Any],
) -> None:
    """POST a whole layout back."""
    try:
        await client.request(
            "POST",
            f"/apps/api/{dashboard_id}/dashboard/{dashboard_id}/layout",
            params={"access_token": access_token, "requestToken": request_token},
            json_body=layout,
            expect="any",
            what=f"save the layout of dashboard {dashboard_id}",
        )
    except HubRefusedError as err:
        err.subject = "dashboard_layout"
        raise
