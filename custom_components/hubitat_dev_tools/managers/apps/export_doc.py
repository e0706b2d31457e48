"""App Cloner export documents: where one comes from, parsing (with the one known repair)
and what it holds."""

from __future__ import annotations

import json
from typing import Any

from ...errors import ToolError
from ...hub.controllers import FilesController
from ...hub.errors import HubNotFoundError
from ..files import check_name
from ..item_backups import ItemBackups


def parse_export(text: str) -> tuple[dict[str, Any], bool]:
    """Parse an App Cloner export; returns (document, repaired).

    Some firmwares escape multi-select values once too often (``\\\\"`` where JSON needs
    ``\\"``), which makes the text invalid JSON. Only when the text does not parse as it is,
    that one escape is collapsed, and the result is used only if it then parses.
    """
    repaired = False
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        try:
            doc = json.loads(text.replace('\\\\"', '\\"'))
            repaired = True
        except (ValueError, RecursionError) as err:
            raise ToolError(
                f"The export is not valid JSON ({err}). Nothing was sent to the hub.",
                subject="export_json",
            ) from err
    reps = doc.get("appReplacements") if isinstance(doc, dict) else None
    if (
        not isinstance(reps, dict)
        or not reps
        or not all(isinstance(v, dict) for v in reps.values())
    ):
        raise ToolError(
            "This is not an App Cloner export (it has no appReplacements map). Nothing was "
            "sent to the hub.",
            subject="not_an_export",
        )
    return doc, repaired


def describe_export(doc: dict[str, Any]) -> dict[str, Any]:
    """The apps and devices an export holds, for the model to check before importing."""
    apps = [
        {
            "original_app_id": key,
            "label": rep.get("appLabel"),
            "type": rep.get("appTypeName"),
        }
        for key, rep in doc["appReplacements"].items()
    ]
    devs = doc.get("deviceReplacements")
    devices = [
        {"device_id": key, "label": rep.get("deviceLabel") if isinstance(rep, dict) else None}
        for key, rep in (devs.items() if isinstance(devs, dict) else [])
    ]
    return {"apps": apps, "devices": devices}


def export_root(doc: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(original id, entry) of the export's top app: the one whose parent is not in it."""
    reps: dict[str, Any] = doc["appReplacements"]
    for key, rep in reps.items():
        if str(rep.get("parentAppId")) not in reps:
            return key, rep
    key = next(iter(reps))
    return key, reps[key]


async def read_export_source(
    files: FilesController,
    backups: ItemBackups,
    export: Any,
    from_file: str | None,
    from_backup: str | None,
) -> tuple[str, str]:
    """(export text, where it came from): an item backup, a File Manager file or the
    argument itself."""
    if from_backup is not None:
        snap = await backups.read(from_backup)
        text = snap.get("native_export")
        if not isinstance(text, str):
            raise ToolError(
                f"Backup {from_backup} holds no App Cloner export"
                + (f" ({snap['native_export_error']})" if snap.get("native_export_error") else "")
                + ". Nothing was sent.",
                hint="Only the backups taken when an installed app is deleted hold an export; "
                "re-create the app from the settings in the backup by hand.",
                subject="backup_without_export",
            )
        return text, f"backup {from_backup}"
    if from_file is not None:
        check_name(from_file)
        try:
            return await files.read_text(from_file), f"file {from_file}"
        except HubNotFoundError as err:
            raise ToolError(
                f"There is no file '{from_file}' in the File Manager. Nothing was sent.",
                subject="file_name",
            ) from err
    if isinstance(export, str):
        return export, "argument"
    try:
        return json.dumps(export), "argument"
    except (TypeError, ValueError, RecursionError) as err:
        raise ToolError(
            f"The export object cannot be read ({err}). Nothing was sent.",
            subject="export_object",
        ) from err
