"""Hub database backup tools: list, delete, restore (hub_create_backup is in tools/hub.py)."""

from __future__ import annotations

from typing import Any

import probatio as vol

from ..safety import ToolKind
from .base import HubTool, ToolCall

BACKUP_NAME = {
    vol.Required("file_name", description="Backup file name exactly as hub_list_backups shows"): (
        vol.All(str, vol.Strip, vol.Length(min=1, max=200), vol.Match(r"^[^/\\]+$"))
    )
}


class ListBackupsTool(HubTool):
    """hub_list_backups."""

    name = "hub_list_backups"
    title = "List hub backups"
    description = (
        "List the hub's local database backups, newest first, with creation time, age, size, "
        "whether the newest satisfies the destructive tier's 24-hour rule, whether a backup is "
        "running, and the automatic backup schedule. To make one now use hub_create_backup. "
        "Cloud backups are not listed."
    )
    domain = "backups"
    kind = ToolKind.READ

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Return the backups."""
        return await call.hub.backups.list()


class DeleteBackupTool(HubTool):
    """hub_delete_backup."""

    name = "hub_delete_backup"
    title = "Delete hub backup"
    description = (
        "Delete one local hub database backup by file name (checked to exist first). It cannot "
        "be undone. Destructive tier: needs confirm=true and a backup from the last 24 hours; "
        "do not delete the only recent backup. To see names use hub_list_backups."
    )
    domain = "backups"
    kind = ToolKind.DESTRUCTIVE
    fields = BACKUP_NAME

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Delete and verify."""
        return await call.hub.backups.delete(args["file_name"])


class RestoreBackupTool(HubTool):
    """hub_restore_backup."""

    name = "hub_restore_backup"
    title = "Restore hub backup"
    description = (
        "Restore the hub's database from one local backup. The hub REBOOTS and is offline for "
        "a few minutes; every change made after that backup (devices, apps, rules, settings) "
        "is lost. Destructive tier: needs confirm=true and a backup from the last 24 hours "
        "(make one first so today's state can be restored too). Cloud and uploaded backups "
        "are not supported."
    )
    domain = "backups"
    kind = ToolKind.DESTRUCTIVE
    idempotent = False
    fields = BACKUP_NAME

    async def run(self, call: ToolCall, args: dict[str, Any]) -> dict[str, Any]:
        """Restore (the hub reboots)."""
        return await call.hub.backups.restore(args["file_name"])


ORDER = 71

TOOLS: tuple[type[HubTool], ...] = (ListBackupsTool, DeleteBackupTool, RestoreBackupTool)
