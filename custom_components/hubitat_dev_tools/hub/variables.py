"""Hub variable endpoints of the Maker API (the Hub Variables wizard: variables_wizard.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .client import HubClient
from .errors import HubBadResponseError
from .models import dict_list


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


async def set_variable(client: HubClient, name: str, value: str) -> dict[str, Any]:
    """Maker GET /hubvariables/<name>/<value> -> the variable with its new value."""
    data = await client.maker_get(
        f"hubvariables/{quote(name, safe='')}/{quote(value, safe='')}", retry=False
    )
    if not isinstance(data, dict):
        raise HubBadResponseError(f"Unexpected answer setting hub variable {name}")
    return data
