"""Hub database backup tools: local and cloud backups, uploaded restores, the schedule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import probatio as vol

from ..errors import ToolError
from ..hub.backups import CloudRestoreParts
from ..managers.backup_cloud import FREQUENCIES, UPLOAD_MAX_BYTES
from ..safety import ToolKind
from .args import ToolArgs, arg, match
from .base import HubTool, ToolCall, on_hub
from .code import url_check
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


# a backup of at most UPLOAD_MAX_BYTES, as base64 (4 characters per 3 bytes), line breaks allowed
BASE64_MAX = (UPLOAD_MAX_BYTES + 2) // 3 * 4 + 1_000_000
SOURCE_URL = vol.All(
    str, vol.Strip, vol.Length(max=2000), match(r"^https?://\S+$", msg="an http(s) URL")
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RestoreBackupArgs(ToolArgs):
    file_name: str | None = arg(
        BACKUP_REF,
        "Local: file name; cloud: path; uploaded: a File Manager .lzf",
    )
    location: str = arg(
        vol.In(["local", "cloud", "uploaded"]),
        "local (default), cloud or uploaded",
        default="local",
    )
    source_url: str | None = arg(SOURCE_URL, "Uploaded: https link to the .lzf")
    content_base64: str | None = arg(
        vol.All(str, vol.Length(min=1, max=BASE64_MAX)),
        "Uploaded: the .lzf in base64",
    )
    restore_zigbee: bool = arg(bool, "Cloud only: also the Zigbee radio", default=False)
    restore_zwave: bool = arg(bool, "Cloud only: also the Z-Wave radio", default=False)
    restore_files: bool = arg(bool, "Cloud only: also File Manager files", default=False)
    backup_password: str | None = arg(PASSWORD, "Cloud only: the backup's password, if set")
    migrate_from_other_hub: bool = arg(
        bool,
        "Cloud: restore another hub's backup here",
        default=False,
    )


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


def _uploaded_source(args: RestoreBackupArgs) -> str:
    """Which one source an uploaded restore names (exactly one of three)."""
    given = [
        n
        for n, v in (
            ("file_name", args.file_name),
            ("source_url", args.source_url),
            ("content_base64", args.content_base64),
        )
        if v is not None
    ]
    if len(given) != 1:
        raise ToolError(
            "location='uploaded' takes exactly one of file_name (a File Manager .lzf), "
            f"source_url or content_base64 (got {', '.join(given) or 'none'}). Nothing was "
            "changed.",
            code="invalid_arguments",
        )
    return given[0]


def _check_combination(args: RestoreBackupArgs) -> None:
    """Each argument belongs to one location; refuse the rest before anything is sent."""
    cloud_only = args.restore_zigbee or args.restore_zwave or args.restore_files
    if args.location != "cloud" and (
        cloud_only or args.backup_password is not None or args.migrate_from_other_hub
    ):
        raise ToolError(
            "restore_zigbee, restore_zwave, restore_files, backup_password and "
            "migrate_from_other_hub apply to cloud backups only. Nothing was changed.",
            code="invalid_arguments",
            hint="Pass location='cloud', or leave those arguments out.",
        )
    if args.location != "uploaded" and (
        args.source_url is not None or args.content_base64 is not None
    ):
        raise ToolError(
            "source_url and content_base64 restore a file that is not on the hub yet: they "
            "need location='uploaded'. Nothing was changed.",
            code="invalid_arguments",
            hint="Pass location='uploaded' with exactly one of them.",
        )
    if args.location != "uploaded" and args.file_name is None:
        raise ToolError(
            f"file_name is required for location='{args.location}'. Nothing was changed.",
            code="invalid_arguments",
            hint="hub_list_backups shows the names (location='cloud': the paths).",
        )


class RestoreBackupTool(HubTool[RestoreBackupArgs]):
    name = "hub_restore_backup"
    covers = (on_hub("hub_restore_backup"),)
    title = "Restore hub backup"
    description = (
        "Restore the hub's database from a backup: local (file name), cloud (by path; radios "
        "and files only when asked) or uploaded (.lzf of at most 25 MiB: file_name in the File "
        "Manager, source_url that this integration downloads, or content_base64). The hub "
        "REBOOTS (offline for minutes); changes made after that backup are lost. It first "
        "backs up the current state. Another hub's cloud backup (a migration) needs "
        "migrate_from_other_hub=true."
    )
    kind = ToolKind.DESTRUCTIVE
    idempotent = False

    open_world = True  # cloud backups and source_url reach the internet

    async def run(self, call: ToolCall, args: RestoreBackupArgs) -> dict[str, Any]:
        _check_combination(args)
        # the call answers in time: the backup first and the restore request share its budget
        deadline = call.deadline - 3.0
        if args.location == "cloud":
            parts = CloudRestoreParts(
                zigbee=args.restore_zigbee, zwave=args.restore_zwave, files=args.restore_files
            )
            result = await call.hub.cloud_backups.restore(
                str(args.file_name),
                parts,
                args.backup_password or "",
                _this_hub(call),
                deadline,
                migrate=args.migrate_from_other_hub,
            )
        elif args.location == "uploaded":
            source = _uploaded_source(args)
            backups = call.hub.cloud_backups
            if source == "source_url":
                result = await backups.restore_from_url(
                    str(args.source_url), url_check(call), call.hub.code.download_session, deadline
                )
            elif source == "content_base64":
                result = await backups.restore_from_bytes(str(args.content_base64), deadline)
            else:
                result = await backups.restore_uploaded(str(args.file_name), deadline)
        else:
            result = await call.hub.backups.restore(_local_name(str(args.file_name)), deadline)
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
