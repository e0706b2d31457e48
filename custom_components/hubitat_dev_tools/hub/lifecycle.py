"""Reboot, shutdown, boot status and platform firmware update (§18.1, §18.5)."""

from __future__ import annotations

import contextlib
from typing import Any

from .answers import require_success
from .client import HubClient
from .errors import HubError, HubNotFoundError


async def reboot(client: HubClient) -> Any:
    """``POST /hub/reboot`` (GET answers 404). The hub is gone for a while afterwards.

    The body is the hub UI's: a plain reboot (no database rebuild, logs kept)."""
    body = {"rebuildDatabase": False, "purgeLogs": False}
    return await client.request("POST", "/hub/reboot", json_body=body, expect="any")


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


# checkUpdateStatus statuses that show an install under way (hub UI: the update page)
UPDATE_RUNNING = frozenset(
    {
        "DOWNLOAD_STARTED",
        "DOWNLOAD_IN_PROGRESS",
        "DOWNLOAD_FINISHED",
        "DOWNLOAD_VERIFY",
        "EXTRACT_IN_PROGRESS",
        "EXTRACT_FINISHED",
        "UPDATE_STARTED",
    }
)


def update_started(answer: Any) -> bool | None:
    """What ``/hub/cloud/updatePlatform`` said: True (started), False (refused), None (an
    answer in no known shape: decide by the effect).

    The hub UI reads ``{"success": "true"}`` (a string) on one page and ``{"success": true}``
    on another; a bare ``true``/``"true"`` body counts too.
    """
    if answer in (True, "true") or (isinstance(answer, str) and answer.strip() == "true"):
        return True
    if isinstance(answer, dict):
        if answer.get("success") in (True, "true"):
            return True
        if answer.get("success") in (False, "false"):
            return False
    return None


async def install_update(client: HubClient, *, timeout: float = 60) -> None:
    """``/hub/cloud/updatePlatform``: download, install and reboot.

    The hub's failure envelope raises :class:`HubRefusedError` with its reason. An answer in
    no known shape is checked by its effect: ``checkUpdateStatus`` must show the install
    under way, else :class:`HubRefusedError`.
    """
    data = await client.request(
        "GET", "/hub/cloud/updatePlatform", expect="any", timeout=timeout, retry=False
    )
    started = update_started(data)
    if started is None:
        with contextlib.suppress(HubError):
            status = str((await update_status(client)).get("status") or "").upper()
            started = True if status in UPDATE_RUNNING else None
    if not started:
        require_success(data, "start the firmware update")
