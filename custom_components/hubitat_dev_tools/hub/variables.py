"""Hub variables: the Maker API's endpoints (only the variables selected in its instance) and
the hub's own list of every variable (the Hub Mesh page); the Hub Variables wizard is in
variables_wizard.py."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from urllib.parse import quote

from .client import HubClient
from .errors import HubBadResponseError
from .mesh import OwnVariable, fetch_hub_mesh
from .models import dict_list, parse_hub_time


async def fetch_variables(client: HubClient) -> list[dict[str, Any]]:
    """Maker GET /hubvariables: [{name, value, type}]."""
    data = await client.maker_get("hubvariables")
    return dict_list(data)


async def fetch_variable(client: HubClient, name: str) -> dict[str, Any]:
    """Maker GET /hubvariables/<name>."""
    data = await client.maker_get(f"hubvariables/{quote(name, safe='')}")
    if not isinstance(data, dict):
        raise HubBadResponseError(f"Unexpected answer for hub variable {name}")
    return data


async def fetch_own_variables(client: HubClient) -> list[OwnVariable]:
    """Every variable of this hub, selected in the Maker API instance or not: ``GET
    /hub2/hubMeshJson`` ``localHubVariables`` + ``sharedHubVariables`` (``[{name, type}]``,
    the Hub Mesh page's private and shared lists; hub UI ``populatePage``). Name and type
    only: no value and no connector (no LAN source of either outside the Maker API was found).
    A hub whose firmware lacks the page answers :class:`HubNotFoundError`."""
    return (await fetch_hub_mesh(client)).variables


async def set_variable(client: HubClient, name: str, value: str) -> dict[str, Any]:
    """Maker GET /hubvariables/<name>/<value> -> the variable with its new value."""
    data = await client.maker_get(
        f"hubvariables/{quote(name, safe='')}/{quote(value, safe='')}", retry=False
    )
    if not isinstance(data, dict):
        raise HubBadResponseError(f"Unexpected answer setting hub variable {name}")
    return data


# DateTime hub variables as the hub stores them (the on-hub server issue #447, fw 2.5.1.181, read
# back from a live hub): a full value ``2026-01-01T12:30:00.000-0500``; a date-only value keeps the
# time part ``T99:99:99.999-9999``. A time-only value keeps ``9999-99-99`` as its date
# (``9999-99-99T07:15:00.000-0500``): evcallia/hubitat's schedule-manager app reads hub
# variables in that form and formats them back with ``'9999-99-99T'HH:mm:ss.SSSXX``.
DATE_ONLY_SUFFIX = "T99:99:99.999-9999"
TIME_ONLY_PREFIX = "9999-99-99T"
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CLOCK_RE = re.compile(r"^(\d{2}):(\d{2})")


def datetime_form(value: Any) -> str | None:
    """``date``, ``time`` or ``datetime``: which parts a DateTime variable's value holds
    (None: not a value of the hub's forms)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.endswith(DATE_ONLY_SUFFIX) and _DATE_RE.match(text.removesuffix(DATE_ONLY_SUFFIX)):
        return "date"
    if text.startswith(TIME_ONLY_PREFIX) and _CLOCK_RE.match(text.removeprefix(TIME_ONLY_PREFIX)):
        return "time"
    return "datetime" if parse_hub_time(text) is not None else None


def datetime_answer(value: Any) -> Any:
    """A DateTime variable's value for an answer: ISO 8601 with offset (a full value),
    ``YYYY-MM-DD`` (date-only) or ``HH:MM`` (time-only); other text unchanged."""
    form = datetime_form(value)
    text = str(value).strip()
    if form == "date":
        return text.removesuffix(DATE_ONLY_SUFFIX)
    if form == "time":
        m = _CLOCK_RE.match(text.removeprefix(TIME_ONLY_PREFIX))
        return f"{m.group(1)}:{m.group(2)}" if m else value
    when = parse_hub_time(text) if form == "datetime" else None
    return when.isoformat() if when is not None else value


def hub_datetime(when: datetime) -> str:
    """A full date-time in the hub's stored form ``yyyy-MM-ddTHH:mm:ss.SSS±hhmm``."""
    millis = when.microsecond // 1000
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis:03d}" + when.strftime("%z")
