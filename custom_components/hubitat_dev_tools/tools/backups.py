"""Hub database backup tools: list, delete, restore (hub_create_backup is in tools/hub.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..safety import ToolKind
from .args import ToolArgs, arg, match
from .base import HubTool, ToolCall

TOOL_DOMAIN = "backups"

BACKUP_NAME = vol.All(str, vol.Strip, vol.Length(min=1, max=200), match(r"^[^/\\]+$"))


@dataclass(frozen=True, slots=True, kw_only=True)
class BackupNameArgs(ToolArgs):
    file_name: str = arg(
        BACKUP_NAME, "Backup file name exactly as hub_list_backups shows", required=True
    )


class CreateBackupTool(HubTool[ToolArgs]):
    name = "hub_create_backup"
    title = "Create hub backup"
    description = (
        "Back up the hub now: a hub database backup, stored on the hub. Do this before "
        "risky changes; destructive tools require a backup from the last 24 hours (it "
        "counts once the hub lists it: verified=true). A backup slower than this call may "
        "wait is finished by the hub on its own (verified=false: check hub_list_backups). "
        "Does not download it."
    )
    kind = ToolKind.WRITE
    idempotent = False

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        """Ask the hub to create a backup, then read the backup list back."""
        # answers within the call budget; a slow hub keeps creating it (verified: false)
        return await call.hub.backups.create(call.deadline - 3.0)


class ListBackupsTool(HubTool[ToolArgs]):
    name = "hub_list_backups"
    title = "List hub backups"
    description = (
        "List the hub's local database backups, newest first, with creation time, age, size, "
        "whether the newest satisfies the destructive tier's 24-hour rule, whether a backup is "
        "running, and the automatic backup schedule. To make one now use hub_create_backup. "
        "Cloud backups are not listed."
    )

    async def run(self, call: ToolCall, args: ToolArgs) -> dict[str, Any]:
        return await call.hub.backups.list()


class DeleteBackupTool(HubTool[BackupNameArgs]):
    name = "hub_delete_backup"
    title = "Delete hub backup"
    description = (
        "Delete one local hub database backup by file name (checked to exist first). It cannot "
        "be undone; do not delete the only recent backup. To see names use hub_list_backups."
    )
    kind = ToolKind.DESTRUCTIVE

    async def run(self, call: ToolCall, args: BackupNameArgs) -> dict[str, Any]:
        return await call.hub.backups.delete(args.file_name)


class RestoreBackupTool(HubTool[BackupNameArgs]):
    name = "hub_restore_backup"
    title = "Restore hub backup"
    description = (
        "Restore the hub's database from one local backup. The hub REBOOTS and is offline for "
        "a few minutes; every change made after that backup (devices, apps, rules, settings) "
        "is lost. It first backs up the current state (the answer names that backup). Cloud and "
        "uploaded backups are not supported."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    async def run(self, call: ToolCall, args: BackupNameArgs) -> dict[str, Any]:
        # the call answers in time: the backup first and the restore request share its budget
        return await call.hub.backups.restore(args.file_name, call.deadline - 3.0)


ORDER = 71

TOOLS: tuple[type[HubTool[Any]], ...] = (
    CreateBackupTool,
    ListBackupsTool,
    DeleteBackupTool,
    RestoreBackupTool,
)
