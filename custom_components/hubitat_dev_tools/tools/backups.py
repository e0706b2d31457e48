"""Hub database backup tools: local and cloud backups, uploaded restores, the schedule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..hub.backups import CloudRestoreParts
from ..managers.backup_cloud import FREQUENCIES
from ..safety import ToolKind
from .args import ToolArgs, arg, match
from .base import HubTool, ToolCall, on_hub
from .errors import add_advice

TOOL_DOMAIN = "backups"

BACKUP_NAME = vol.All(str, vol.Strip, vol.Length(min=1, max=200), match(r"^[^/\\]+$"))
# cloud backup paths may hold slashes (the cloud's own key)
BACKUP_REF = vol.All(str, vol.Strip, vol.Length(min=1, max=300), match(r"^(?!/)(?!.*\.\.)[^\\]+$"))
LOCAL_OR_CLOUD = vol.In(["local", "cloud"])
PASSWORD = vol.All(str, vol.Length(max=200))


def _this_hub(call: ToolCall) -> str:
    return call.runtime.identity.hub_uid


def _local_name(name: str) -> str:
    """A local backup's file name (no folders: only cloud paths have them)."""
    if "/" in name:
        raise ToolError(
            f"'{name}' is not a local backup name. Nothing was changed.",
            code="invalid_arguments",
            hint="hub_list_backups shows the local file names; cloud paths need location='cloud'.",
        )
    return name


@dataclass(frozen=True, slots=True, kw_only=True)
class LocationArgs(ToolArgs):
    """hub_create_backup and hub_list_backups: which backups."""

    location: str = arg(LOCAL_OR_CLOUD, "local (default) or cloud", default="local")


@dataclass(frozen=True, slots=True, kw_only=True)
class BackupNameArgs(ToolArgs):
    file_name: str = arg(
        BACKUP_REF,
        "Local: the file name; cloud: the path (as hub_list_backups shows)",
        required=True,
    )
    location: str = arg(LOCAL_OR_CLOUD, "local (default) or cloud", default="local")


@dataclass(frozen=True, slots=True, kw_only=True)
class RestoreBackupArgs(ToolArgs):
    file_name: str = arg(
        BACKUP_REF,
        "Local: the file name; cloud: the path; uploaded: a File Manager .lzf file",
        required=True,
    )
    location: str = arg(
        vol.In(["local", "cloud", "uploaded"]),
        "local (default), cloud or uploaded",
        default="local",
    )
    restore_zigbee: bool = arg(bool, "Cloud only: also the Zigbee radio", default=False)
    restore_zwave: bool = arg(bool, "Cloud only: also the Z-Wave radio", default=False)
    restore_files: bool = arg(bool, "Cloud only: also File Manager files", default=False)
    backup_password: str | None = arg(PASSWORD, "Cloud only: the backup's password, if set")


class CreateBackupTool(HubTool[LocationArgs]):
    name = "hub_create_backup"
    covers = (on_hub("hub_create_backup"),)
    title = "Create hub backup"
    description = (
        "Back up the hub now: a hub database backup, stored on the hub. Do this before "
        "risky changes; destructive tools require a backup from the last 24 hours (it "
        "counts once the hub lists it: verified=true). A backup slower than this call may "
        "wait is finished by the hub on its own (verified=false: check hub_list_backups). "
        "Does not download it. location='cloud' makes a cloud backup instead (needs the "
        "hub's cloud subscription; it does not count for the 24-hour rule)."
    )
    kind = ToolKind.WRITE
    idempotent = False

    open_world = True  # location='cloud' reaches Hubitat's cloud

    async def run(self, call: ToolCall, args: LocationArgs) -> dict[str, Any]:
        """Ask the hub to create a backup, then read the backup list back."""
        # answers within the call budget; a slow hub keeps creating it (verified: false)
        if args.location == "cloud":
            made = await call.hub.cloud_backups.create(_this_hub(call), call.deadline - 3.0)
            if made.get("verified") is False:
                add_advice(
                    made, "note", "Check hub_list_backups with location='cloud' in a few minutes."
                )
            return made
        made = await call.hub.backups.create(call.deadline - 3.0)
        if made.get("verified") is False:
            add_advice(made, "note", "Check hub_list_backups in a minute.")
        return made


class ListBackupsTool(HubTool[LocationArgs]):
    name = "hub_list_backups"
    covers = (on_hub("hub_list_backups"),)
    title = "List hub backups"
    description = (
        "List the hub's local database backups, newest first, with creation time, age, size, "
        "whether the newest satisfies the destructive tier's 24-hour rule, whether a backup is "
        "running, and the automatic backup schedule (change it with "
        "hub_update_backup_schedule). To make one now use hub_create_backup. "
        "location='cloud': the cloud backups instead, with each one's path and hub."
    )

    open_world = True  # location='cloud' reaches Hubitat's cloud

    async def run(self, call: ToolCall, args: LocationArgs) -> dict[str, Any]:
        if args.location == "cloud":
            return await call.hub.cloud_backups.listing(_this_hub(call))
        return await call.hub.backups.list()


class DeleteBackupTool(HubTool[BackupNameArgs]):
    name = "hub_delete_backup"
    covers = (on_hub("hub_delete_backup"),)
    title = "Delete hub backup"
    description = (
        "Delete one hub database backup: local by file name, or (location='cloud') one of "
        "this hub's cloud backups by path; checked to exist first and re-listed after. It "
        "cannot be undone; do not delete the only recent backup. Names: hub_list_backups."
    )
    kind = ToolKind.DESTRUCTIVE

    open_world = True  # location='cloud' reaches Hubitat's cloud

    async def run(self, call: ToolCall, args: BackupNameArgs) -> dict[str, Any]:
        if args.location == "cloud":
            return await call.hub.cloud_backups.delete(args.file_name, _this_hub(call))
        return await call.hub.backups.delete(_local_name(args.file_name))


class RestoreBackupTool(HubTool[RestoreBackupArgs]):
    name = "hub_restore_backup"
    covers = (on_hub("hub_restore_backup"),)
    title = "Restore hub backup"
    description = (
        "Restore the hub's database from a backup: local (file name), cloud (this hub's, by "
        "path; radios and files only when asked) or uploaded (a .lzf file in the File "
        "Manager). The hub REBOOTS and is offline for a few minutes; every change made after "
        "that backup is lost. It first backs up the current state (the answer names it). "
        "Another hub's cloud backup (a migration) is refused: use the hub's own page."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    open_world = True  # location='cloud' reaches Hubitat's cloud

    async def run(self, call: ToolCall, args: RestoreBackupArgs) -> dict[str, Any]:
        cloud_only = args.restore_zigbee or args.restore_zwave or args.restore_files
        if args.location != "cloud" and (cloud_only or args.backup_password is not None):
            raise ToolError(
                "restore_zigbee, restore_zwave, restore_files and backup_password apply to "
                "cloud backups only. Nothing was changed.",
                code="invalid_arguments",
                hint="Pass location='cloud', or leave those arguments out.",
            )
        # the call answers in time: the backup first and the restore request share its budget
        deadline = call.deadline - 3.0
        if args.location == "cloud":
            parts = CloudRestoreParts(
                zigbee=args.restore_zigbee, zwave=args.restore_zwave, files=args.restore_files
            )
            return await call.hub.cloud_backups.restore(
                args.file_name, parts, args.backup_password or "", _this_hub(call), deadline
            )
        if args.location == "uploaded":
            return await call.hub.cloud_backups.restore_uploaded(args.file_name, deadline)
        result = await call.hub.backups.restore(_local_name(args.file_name), deadline)
        if result.get("status") == "in_progress":
            add_advice(
                result,
                "pending",
                "Check hub_get_health_report in a few minutes (a short uptime means it is back "
                "on the restored backup).",
            )
        else:
            add_advice(result, "note", "hub_get_health_report shows when.")
        return result


FREQUENCY = vol.All(vol.Coerce(int), vol.In(list(FREQUENCIES)))


@dataclass(frozen=True, slots=True, kw_only=True)
class ScheduleArgs(ToolArgs):
    local_frequency_days: int | None = arg(FREQUENCY, "Local backups every N days (0: off)")
    cloud_frequency_days: int | None = arg(FREQUENCY, "Cloud backups every N days (0: off)")
    time: str | None = arg(vol.All(str, vol.Length(max=10)), "When, HH:MM (24-hour)")
    cloud_backup_password: str | None = arg(
        PASSWORD, "Needed while cloud backups are on if the hub does not give it back"
    )


class UpdateBackupScheduleTool(HubTool[ScheduleArgs]):
    name = "hub_update_backup_schedule"
    covers = (on_hub("hub_create_backup"),)
    title = "Update backup schedule"
    description = (
        "Change the hub's automatic backups: how often local and cloud backups run (days: "
        "1, 2, 3, 5, 7, 14, 21, 28; 0 turns one off) and at what time. Omitted parts stay; "
        "the schedule is read back. hub_list_backups shows the current one."
    )
    kind = ToolKind.WRITE

    async def run(self, call: ToolCall, args: ScheduleArgs) -> dict[str, Any]:
        if all(
            v is None for v in (args.local_frequency_days, args.cloud_frequency_days, args.time)
        ):
            raise ToolError(
                "Nothing to change: pass local_frequency_days, cloud_frequency_days or time.",
                code="invalid_arguments",
            )
        return await call.hub.cloud_backups.update_schedule(
            local_frequency=args.local_frequency_days,
            cloud_frequency=args.cloud_frequency_days,
            at=args.time,
            password=args.cloud_backup_password,
        )


ORDER = 71

TOOLS: tuple[type[HubTool[Any]], ...] = (
    CreateBackupTool,
    ListBackupsTool,
    DeleteBackupTool,
    RestoreBackupTool,
    UpdateBackupScheduleTool,
)
