"""Hub identity and health endpoints (/hub/details/json, /hub2/hubData, plain-text health)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .client import HubClient
from .errors import HubBadResponseError
from .firmware import platform_from

_TAG_RE = re.compile(r"<[^>]+>")


def strip_html(text: Any) -> str | None:
    """Remove HTML tags (the hub puts HTML into some string fields)."""
    if text is None:
        return None
    return _TAG_RE.sub("", str(text)).strip() or None


@dataclass(slots=True)
class HubIdentity:
    """Who the hub is: the stable id and the basics."""

    hub_uid: str
    name: str
    firmware: str | None
    hardware: str | None
    mac: str | None
    ip: str | None
    time_zone: str | None
    mdns_name: str | None


async def fetch_identity(client: HubClient) -> HubIdentity:
    """Read /hub/details/json (logs in first when Hub Security is configured).

    Also remembers the hub's platform (firmware, model) on the client: endpoints that
    differ by firmware choose by it.
    """
    data = await client.get_json("/hub/details/json")
    identity = identity_from(data)
    client.platform = platform_from(data)
    client.time_zone = hub_time_zone(identity.time_zone)
    return identity


def hub_time_zone(name: Any) -> tzinfo | None:
    """The zone a ``/hub/details/json`` ``timeZone`` names (an IANA id such as
    ``America/Denver``); None when it is missing or unknown here."""
    if not isinstance(name, str) or not name.strip():
        return None
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def identity_from(data: Any) -> HubIdentity:
    """The identity in a /hub/details/json answer."""
    if not isinstance(data, dict) or not data.get("hubUID"):
        raise HubBadResponseError(
            "The hub's /hub/details/json has no hubUID; is this a Hubitat Elevation hub?"
        )
    ip = strip_html(data.get("ipAddress"))
    if ip:
        ip = ip.split(" ")[0]
    return HubIdentity(
        hub_uid=str(data["hubUID"]),
        name=str(data.get("hubName") or "Hubitat"),
        firmware=data.get("platformVersion"),
        hardware=data.get("hardwareVersion"),
        mac=data.get("macAddress"),
        ip=ip,
        time_zone=data.get("timeZone") if isinstance(data.get("timeZone"), str) else None,
        mdns_name=data.get("mdnsName"),
    )


async def fetch_hub_data(client: HubClient) -> dict[str, Any]:
    """Read /hub2/hubData (model, version, safe mode, alerts)."""
    data = await client.get_json("/hub2/hubData")
    return data if isinstance(data, dict) else {}


async def fetch_plain_number(client: HubClient, path: str) -> float | None:
    """Read a plain-text numeric health endpoint; None when absent or unparsable."""
    text = (await client.get_text(path)).strip()
    match = re.search(r"-?\d+(?:\.\d+)?", text)
    return float(match.group(0)) if match else None


# POST /location/update key -> the /hub/details/json key it is read from (§18.2).
LOCATION_FIELDS: dict[str, str] = {
    "name": "hubName",
    "timeZone": "timeZone",
    "latitude": "latitude",
    "longitude": "longitude",
    "clock": "timeFormat",
    "dateFormat": "dateFormat",
    "zipCode": "zipCode",
    "temperatureScale": "tempScale",
    "voice": "ttsCurrent",
    "mdnsName": "mdnsName",
}


async def fetch_details(client: HubClient) -> dict[str, Any]:
    """``/hub/details/json`` as it is (about 49 KB: it carries the time-zone list)."""
    data = await client.get_json("/hub/details/json")
    if not isinstance(data, dict):
        raise HubBadResponseError("The hub's /hub/details/json is not an object")
    return data


async def save_location(client: HubClient, body: dict[str, Any]) -> None:
    """``POST /location/update``: WHOLESALE (an omitted field is blanked on the hub)."""
    await client.post_json("/location/update", body, what="save the location settings")
