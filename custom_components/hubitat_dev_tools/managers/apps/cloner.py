"""Export, import and clone through the hub's App Cloner (a transient classic app)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ...errors import ToolError
from ...hub.app_cloner import ClonerPage, cloner_action_index, cloner_export_text
from ...hub.app_page import Setting, TransientApp, setting_fields
from ...hub.apps import InstalledApp
from ...hub.controllers import AppsController, DevicesController, FilesController
from ...hub.errors import HubBadResponseError, HubError
from ...redact import redact_document, strip_redacted
from ..files import FilesManager, check_name
from ..item_backups import ItemBackups
from .export_doc import describe_export, export_root, parse_export, read_export_source
from .installed import find_app
from .page_model import text_of

_LOGGER = logging.getLogger(__name__)

# The cloner re-renders asynchronously after a state change: poll its page this long.
CLONER_POLL_DELAYS = (0.25, 0.5, 1.0, 2.0)
MAX_INLINE_EXPORT_CHARS = 60_000
UNCLONEABLE_TYPES = ("App Cloner", "Hub Variables")


def _add_warnings(out: dict[str, Any], warning: str | None, left: str | None) -> None:
    notes = [out["warning"]] if out.get("warning") else []
    if warning:
        notes.append(warning)
    if left:
        out["cloner_left_behind"] = left
        notes.append(f"The temporary App Cloner app {left} could not be removed.")
    if notes:
        out["warning"] = " ".join(notes)


_NAME_FIELD_RE = re.compile(r"newName(\d+)")


def _name_field(page: dict[str, Any]) -> str | None:
    """The import page's new-name input (``newName<originalId>``), if that page is shown."""
    config = page.get("configPage")
    m = _NAME_FIELD_RE.search(json.dumps(config)) if isinstance(config, dict) else None
    return m.group(0) if m else None


@dataclass(slots=True)
class _Target:
    """How to recognise the app a clone or import creates."""

    before: set[str]
    cloner_id: str
    name: str
    parent_id: str | None
    app_type: str


class _NewApp:
    """What a clone or import created, once identified in the app tree."""

    def __init__(self, root: InstalledApp, tree: list[InstalledApp]) -> None:
        self.root = root
        by_id = {a.id: a for a in tree}
        self.descendants: list[InstalledApp] = []
        todo = list(root.children)
        while todo:
            node = by_id.get(todo.pop(0))
            if node is not None:
                self.descendants.append(node)
                todo.extend(node.children)


class AppCloner:
    """Export, import and clone through the hub's own App Cloner, one operation at a time
    per hub (so that the app an operation creates is identified unambiguously)."""

    def __init__(
        self,
        apps: AppsController,
        devices: DevicesController,
        hub_files: FilesController,
        backups: ItemBackups,
        files: FilesManager,
    ) -> None:
        self._apps = apps
        self._devices = devices  # an import's device references must exist
        self._hub_files = hub_files  # an export to import from a File Manager file
        self._backups = backups
        self._files = files
        self._lock = asyncio.Lock()

    async def backup_export(self, app: InstalledApp) -> dict[str, Any]:
        """The App Cloner export an item backup of ``app`` carries (or why there is none),
        so that :meth:`AppCloner.import_app` can re-create the app."""
        snap: dict[str, Any] = {}
        try:
            await self._cloneable(app.id, "exported")
            doc, _repaired, left = await self.export_document(app)
        except (HubError, ToolError) as err:
            snap["native_export_error"] = str(err)
        else:
            snap["native_export"] = json.dumps(doc, ensure_ascii=False)
            if left:
                snap["cloner_left_behind"] = left
        return snap

    async def _cloneable(self, app_id: str, purpose: str) -> InstalledApp:
        app = await find_app(self._apps, app_id)
        if app.type in UNCLONEABLE_TYPES:
            raise ToolError(
                f"App {app_id} ({app.name}) is the hub's {app.type} app; it cannot be "
                f"{purpose}. Nothing was sent."
            )
        if app.is_visual_rule:
            raise ToolError(
                f"App {app_id} is a Visual Rule; the App Cloner handles classic apps only. "
                "Nothing was sent.",
                subject="visual_rule_not_cloneable",
            )
        if not app.user and app.parent_id is None:
            raise ToolError(
                f"App {app_id} ({app.name}) is a built-in top-level app; the App Cloner "
                f"works on the automations under it (rules, room lights, ...). It cannot be "
                f"{purpose}. Nothing was sent.",
                subject="top_level_app",
            )
        return app

    @contextlib.asynccontextmanager
    async def _open(self, source_id: str) -> AsyncIterator[tuple[ClonerPage, TransientApp]]:
        """A primed cloner on ``source_id``, removed on exit (``left_behind`` if it could
        not be)."""
        session = await self._apps.open_cloner(source_id)
        async with self._apps.transient(session.app_id, verify=False) as helper:
            await session.prime()
            yield session, helper

    async def _poll(
        self, session: ClonerPage, found: Callable[[dict[str, Any]], bool]
    ) -> dict[str, Any] | None:
        for delay in CLONER_POLL_DELAYS:
            await asyncio.sleep(delay)
            await session.reload()
            page = session.config
            if found(page):
                return page
        return None

    async def _poll_import_index(self, session: ClonerPage) -> int | None:
        """The import link's index once the cloner's page shows it (None if it does not)."""
        polled = await self._poll(
            session, lambda p: cloner_action_index(p, "importRule") is not None
        )
        return cloner_action_index(polled, "importRule") if polled else None

    # ------------------------------------------------------------------ export

    async def _export_text(self, app: InstalledApp) -> tuple[str, str | None]:
        """Run the cloner's Export; returns (document text, cloner id left behind)."""
        async with self._open(app.id) as (session, helper):
            await session.click("exportRuleButton")
            page = await session.refresh(page="main", view="source", referrer=session.context_url)
            text = cloner_export_text(page)
        left = session.app_id if helper.left_behind else None
        if text is None:
            raise HubBadResponseError(
                f"The hub's App Cloner produced no export for app {app.id} ({app.name}).",
                hint="The App Cloner cannot export a Rule Machine rule that has a Required "
                "Expression: remove it in the hub UI, export, then add it back. For other "
                "apps this firmware's cloner page may differ; report the firmware version.",
            )
        return text, left

    async def export_document(self, app: InstalledApp) -> tuple[dict[str, Any], bool, str | None]:
        """(canonical export document, repaired, cloner id left behind) for one app."""
        async with self._lock:
            text, left = await self._export_text(app)
        try:
            doc, repaired = parse_export(text)
        except ToolError as err:
            raise HubBadResponseError(
                f"The hub's App Cloner export of app {app.id} could not be read: {err}",
                hint="This firmware's export format may differ; report the firmware version.",
            ) from err
        # exports are shown, saved to the File Manager and kept in item backups: no secret
        # setting travels (an import leaves those to be entered again)
        return redact_document(doc), repaired, left

    async def export_app(self, app_id: str, save_as: str | None) -> dict[str, Any]:
        """Export one app (with its child apps) to the cloner's JSON; large ones go to a file."""
        if save_as is not None:
            check_name(save_as)
        app = await self._cloneable(app_id, "exported")
        doc, repaired, left = await self.export_document(app)
        text = json.dumps(doc, ensure_ascii=False)
        out: dict[str, Any] = {
            "app_id": app_id,
            "name": app.name,
            "type": app.type,
            **describe_export(doc),
            "chars": len(text),
        }
        if repaired:
            out["repaired_escaping"] = True
        _add_warnings(out, None, left)
        target = save_as
        if target is None and len(text) > MAX_INLINE_EXPORT_CHARS:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            target = f"hdt-export_app-{app_id}_{stamp}.json"
        if target is not None:
            written = await self._files.write(target, text)
            out["saved_as"] = target
            if written.get("backup_file"):
                out["replaced_file_backup"] = written["backup_file"]
            out["note"] = f"Saved to the File Manager as {target}."
        else:
            out["export"] = doc
        return out

    # ------------------------------------------------------------------ clone / import

    async def _commit(
        self, session: ClonerPage, *, index: int, referrer: str, target: _Target
    ) -> tuple[_NewApp, str | None]:
        """Open the cloner's import page, name the app, press Import; find the new app.

        Returns (new app, warning). Once Import has been pressed an app may exist, so from
        then on a hub error is answered by looking for the app rather than by giving up.
        """
        link = f"_action_href_name|importRule|{index}"
        page = await session.refresh(
            page="main",
            view="confirmation",
            referrer=referrer,
            extras={link: "", f"params_for_action_href_name|importRule|{index}": ""},
        )
        if (field_name := _name_field(page)) is None:
            polled = await self._poll(session, lambda p: _name_field(p) is not None)
            field_name = _name_field(polled) if polled else None
        if field_name is None:
            raise HubBadResponseError(
                "The App Cloner did not open its import page; nothing was created.",
                hint="Retry once; if it persists, report the firmware version.",
            )
        press = {  # the import page's inputs: the new name and the Import button
            **setting_fields(field_name, Setting(target.name, "text", False)),
            "importNow.type": "button",
            "importNow.multiple": "false",
            "settings[importNow]": "",
        }
        await session.refresh(page="importRule", view="importRule", referrer=referrer, extras=press)
        # The hub can lose the first Import click. A second press is made only after the
        # first had time to show its app, so a slow hub never gets two presses.
        waits = (CLONER_POLL_DELAYS[:2], CLONER_POLL_DELAYS)
        for attempt, delays in enumerate(waits):
            try:
                await session.click("importNow")
                await session.refresh(
                    page="importRule",
                    view="importRule",
                    referrer=referrer,
                    extras=press,
                )
            except HubError as err:
                return await self._after_failed_press(target, err)
            for delay in (0.0, *delays):
                await asyncio.sleep(delay)
                try:
                    new = await self._find_new(target)
                except HubError as err:
                    if attempt == len(waits) - 1 and delay == delays[-1]:
                        return await self._after_failed_press(target, err)
                    continue
                if new is not None:
                    return new, None
        raise HubBadResponseError(
            "The App Cloner accepted the import but no new app appeared.",
            hint="Check the apps in a minute before retrying: a late copy may appear, "
            "and retrying would make a second one.",
            subject="clone_late",
        )

    async def _after_failed_press(self, target: _Target, err: HubError) -> tuple[_NewApp, str]:
        """The hub failed after Import was pressed: the app may exist all the same."""
        with contextlib.suppress(HubError):
            new = await self._find_new(target)
            if new is not None:
                return new, f"The hub reported an error after creating the app ({err})."
        raise HubBadResponseError(
            f"The hub failed after Import was pressed ({err}); the new app may still appear.",
            hint="Check the apps before anything else; do not repeat this call blindly "
            "(that could make a second copy).",
            subject="clone_failed_after_press",
        ) from err

    async def _find_new(self, target: _Target) -> _NewApp | None:
        """The app this operation created, if it is in the tree yet."""
        tree = await self._apps.list()
        fresh = [
            a
            for a in tree
            if a.id not in target.before
            and a.id != target.cloner_id
            and a.parent_id == target.parent_id
        ]
        named = [a for a in fresh if a.name == target.name]
        if len(named) == 1:
            return _NewApp(named[0], tree)
        if len(named) > 1:
            # Ours by name (e.g. a hub that made a copy per press): stop them all.
            for app in named:
                with contextlib.suppress(HubError):
                    await self._apps.set_disabled(app.id, True)
            ids = ", ".join(a.id for a in named)
            raise HubBadResponseError(
                f"The hub made several apps named '{target.name}' ({ids}); all were disabled.",
                hint="Keep one and delete the others; do not repeat this call.",
                subject="clone_several",
            )
        typed = [a for a in fresh if a.type == target.app_type]
        if len(typed) == 1:  # a hub that ignored the name: same parent, same type, new
            return _NewApp(typed[0], tree)
        return None

    async def _stage(self, new: _NewApp, enable: bool) -> dict[str, Any]:
        """Disable the new app and its child apps unless ``enable``; verified."""
        ids = [new.root.id, *(a.id for a in new.descendants)]
        out: dict[str, Any] = {
            "new_app_id": new.root.id,
            "name": new.root.name,
            "type": new.root.type,
            "parent_id": new.root.parent_id,
            "child_app_ids": ids[1:],
        }
        if enable:
            out["enabled"] = True
            return out
        failed: set[str] = set()
        for app_id in ids:
            try:
                await self._apps.set_disabled(app_id, True)
            except HubError as err:
                _LOGGER.warning("Could not disable new app %s: %s", app_id, err)
                failed.add(app_id)
        try:
            failed |= {a.id for a in await self._apps.list() if a.id in ids and not a.disabled}
        except HubError:
            out["disable_unverified"] = True
        live = sorted(failed, key=int)
        out["enabled"] = new.root.id in failed
        out["disabled_app_ids"] = [i for i in ids if i not in failed]
        if live:
            out["still_enabled_app_ids"] = live
            out["warning"] = (
                f"The new app WAS created, but app(s) {', '.join(live)} could not be "
                "disabled and are live. Do not repeat this call (that makes a second copy)."
            )
        return out

    async def clone_app(self, app_id: str, new_name: str | None, enable: bool) -> dict[str, Any]:
        """Deep-copy one app (child apps, settings, state) under the same parent."""
        app = await self._cloneable(app_id, "cloned")
        name = (new_name or f"{app.name} (copy)").strip()
        async with self._lock:
            async with self._open(app.id) as (session, helper):
                before = {a.id for a in await self._apps.list()}
                index: int | None = None
                for _attempt in range(2):  # the hub can lose the first Clone click
                    await session.click("cloneRuleButton")
                    page = await session.refresh(
                        page="main",
                        view="source",
                        referrer=session.context_url,
                    )
                    index = cloner_action_index(page, "importRule")
                    if index is not None:
                        break
                if index is None:
                    index = await self._poll_import_index(session)
                if index is None:
                    raise HubBadResponseError(
                        f"The App Cloner did not offer a copy of app {app_id}; nothing was "
                        "created.",
                        hint="Retry once; if it persists, report the firmware version.",
                    )
                target = _Target(before, session.app_id, name, app.parent_id, app.type)
                new, warning = await self._commit(
                    session, index=index, referrer=session.context_url, target=target
                )
            left = session.app_id if helper.left_behind else None
        out = {"source_app_id": app_id, **await self._stage(new, enable)}
        _add_warnings(out, warning, left)
        return out

    async def import_app(
        self,
        *,
        export: Any,
        from_file: str | None,
        from_backup: str | None,
        seed_app_id: str | None,
        new_name: str | None,
        enable: bool,
        allow_missing_devices: bool,
        device_allowed: Callable[[str], bool] = lambda _device_id: True,
        check: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    ) -> dict[str, Any]:
        """Create a new app from an export, under the parent of a seed app of the same type.

        ``check`` sees the parsed export (with the device ids it names) before anything is
        sent: the sensitivity gate."""
        text, origin = await read_export_source(
            self._hub_files, self._backups, export, from_file, from_backup
        )
        doc, repaired = parse_export(text)
        doc, reenter = strip_redacted(doc)  # our exports carry no secret setting
        original_id, first = export_root(doc)
        app_type = str(first.get("appTypeName") or "")
        devs = doc.get("deviceReplacements")
        wanted = [str(k) for k in devs] if isinstance(devs, dict) else []
        if check is not None:
            await check({"export": doc, "device_ids": wanted})
        hidden = [d for d in wanted if not device_allowed(d)]
        if hidden:
            raise ToolError(
                f"The export uses device(s) {', '.join(hidden)}, outside the assistant's device "
                "allowlist. Nothing was created.",
                code="device_not_allowed",
                hint="Do not retry with this export; an admin can change the allowlist.",
            )
        missing: list[str] = []
        if wanted:
            have = {d.id for d in await self._devices.list()}
            missing = [d for d in wanted if d not in have]
        if missing and not allow_missing_devices:
            labels = {
                k: v.get("deviceLabel") if isinstance(v, dict) else None
                for k, v in (devs or {}).items()
            }
            listed = ", ".join(f"{d} ({labels.get(d) or 'unknown'})" for d in missing)
            raise ToolError(
                f"The export uses device(s) that are no longer on the hub: {listed}. Nothing "
                "was created.",
                hint="Pass allow_missing_devices=true to import anyway (the new app will be "
                "BROKEN until you pick replacement devices in it), or re-add the devices.",
            )
        tree = await self._apps.list()
        if seed_app_id is not None:
            seed = await self._cloneable(seed_app_id, "used to seed an import")
        else:
            same = [
                a
                for a in tree
                if a.type == app_type
                and app_type
                and a.type not in UNCLONEABLE_TYPES
                and not (not a.user and a.parent_id is None)
            ]
            if not same:
                raise ToolError(
                    f"No installed app of type '{app_type or 'unknown'}' to seed the import: "
                    "the hub's App Cloner imports next to an existing app of the same kind. "
                    "Nothing was created.",
                    hint="Create one such app in the hub UI (e.g. an empty rule), or pass "
                    "seed_app_id: any app under the parent that should hold the import.",
                )
            seed = same[0]
        name = (new_name or str(first.get("appLabel") or "Imported app")).strip()
        canonical = json.dumps(doc, ensure_ascii=False)
        async with self._lock:
            async with self._open(seed.id) as (session, helper):
                before = {a.id for a in await self._apps.list()}
                page = await session.refresh(
                    page="main",
                    view="source",
                    referrer=session.config_url,
                    extras={"settings[ruleUpload]": canonical},
                )
                config = page.get("configPage")
                refused = config.get("error") if isinstance(config, dict) else None
                if refused:
                    raise HubBadResponseError(
                        f"The App Cloner refused the export: {text_of(refused)}. Nothing was "
                        "created.",
                        hint="Use a document made by an app export, unchanged.",
                        subject="cloner_import",
                    )
                index = cloner_action_index(page, "importRule")
                if index is None:
                    index = await self._poll_import_index(session)
                if index is None:
                    raise HubBadResponseError(
                        "The App Cloner did not accept the uploaded export; nothing was created.",
                        hint="Retry once; if it persists, report the firmware version.",
                    )
                target = _Target(before, session.app_id, name, seed.parent_id, app_type)
                new, warning = await self._commit(
                    session, index=index, referrer=session.config_url, target=target
                )
            left = session.app_id if helper.left_behind else None
        out: dict[str, Any] = {
            "source": origin,
            "original_app_id": original_id,
            "seed_app_id": seed.id,
            **await self._stage(new, enable),
        }
        if missing:
            out["missing_devices"] = missing
        if repaired:
            out["repaired_escaping"] = True
        if reenter:
            out["secrets_to_reenter"] = reenter
        _add_warnings(out, warning, left)
        return out
