"""Hub-level tools: identity/health and backups."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..hub.backups import fetch_local_backups
from ..safety import ToolKind
from .base import HubTool, ToolCall


class GetHubInfoTool(HubTool):
    """hub_get_info."""

    name = "hub_get_info"
    title = "Get hub info"
    description = (
        "Identify the Hubitat hub and its health basics in one call: name, model, firmware, "
        "IP, safe mode, free memory, temperature, database size, active hub alerts, and whether "
        "Maker API and Hub Security are configured. Use it first when a question is about the "
        "hub itself. For devices use hub_list_devices."
    )
    domain = "hub"
    core = True
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the hub summary."""
        return await call.runtime.info.info()


class CreateBackupTool(HubTool):
    """hub_create_backup."""

    name = "hub_create_backup"
    title = "Create hub backup"
    description = (
        "Create a hub database backup now (stored on the hub). Do this before risky changes; "
        "destructive tools require a backup from the last 24 hours. Takes up to a minute on "
        "large hubs. Does not download the file."
    )
    domain = "hub"
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Ask the hub to create a backup, then read the backup list back."""
        client = call.runtime.client
        await client.request(
            "GET", "/hub/backupDB", params={"fileName": "latest"}, expect="discard", timeout=300
        )
        call.runtime.last_backup_at = datetime.now(UTC)
        backups = await fetch_local_backups(client)
        newest = backups[0] if backups else None
        return {
            "summary": f"Backup created: {newest.name if newest else 'latest'}",
            "backup": {
                "name": newest.name if newest else None,
                "created": newest.created.isoformat() if newest and newest.created else None,
                "size": newest.size if newest else None,
            },
        }


ORDER = 10

TOOLS: tuple[type[HubTool], ...] = (
    GetHubInfoTool,
    CreateBackupTool,
)
