"""Reboot, shutdown, boot status and platform firmware update (§18.1, §18.5)."""

from __future__ import annotations

from typing import Any

from .answers import require_success
from .client import HubClient
from .errors import HubError, HubNotFoundError


async def reboot(client: HubClient) -> Any:
    """``POST /hub/reboot`` (GET answers 404). The hub is gone for a while afterwards."""
    return await client.request("POST", "/hub/reboot", json_body={}, expect="any")


async def shutdown(client: HubClient) -> Any:
    """``POST /hub/shutdown``: the hub powers off and needs a power cycle."""
    return await client.request("POST", "/hub/shutdown", expect="any")


async def hub_status(client: HubClient) -> str:
    """``running`` / ``starting`` / ``brokenDatabase`` / ``unreachable`` (never raises)."""
    try:
        data = await client.request("GET", "/hubStatus", expect="any", timeout=5)
    except HubNotFoundError:
        return "running"  # the reference: /hubStatus may 404 once fully booted
    except HubError:
        return "unreachable"
    if isinstance(data, dict) and data.get("status"):
        return str(data["status"])
    return "running"


async def check_for_update(client: HubClient) -> dict[str, Any]:
    """``/hub/cloud/checkForUpdate`` without the owner's account e-mails."""
    data = await client.get_json("/hub/cloud/checkForUpdate")
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if "email" not in k.lower()}


async def update_status(client: HubClient) -> dict[str, Any]:
    """``/hub/cloud/checkUpdateStatus``: ``{status, percent?}``."""
    data = await client.get_json("/hub/cloud/checkUpdateStatus")
    return data if isinstance(data, dict) else {}


async def install_update(client: HubClient, *, timeout: float = 60) -> None:
    """``/hub/cloud/updatePlatform``: download, install and reboot.

    Any answer other than ``{"success": true}`` raises :class:`HubRefusedError` (with the
    hub's reason when it sent its failure envelope).
    """
    data = await client.request(
        "GET", "/hub/cloud/updatePlatform", expect="any", timeout=timeout, retry=False
    )
    require_success(data, "start the firmware update")
