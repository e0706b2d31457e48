"""Installed apps: the tree, one app's page and state, enable/disable, delete."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, NotRequired, TypedDict, cast

from ...device_refs import DeviceScreen
from ...errors import TIER_SAFETY, ToolError
from ...hub.apps import InstalledApp
from ...hub.client import HubClient
from ...hub.controllers import AppsController, DevicesController, RulesController
from ...hub.errors import HubBadResponseError, HubError, HubNotFoundError, HubRefusedError
from ...hub.scenes import device_settings
from ...redact import redact_document
from ..confirm import require_confirm
from ..item_backups import ItemBackups, SavedBackup
from .page_model import bounded, summarize_page

# An app's App Cloner export for its item backup (``AppCloner.backup_export``).
BackupExport = Callable[[InstalledApp], Awaitable[dict[str, Any]]]


class AppDisabled(TypedDict):
    """An app's disabled state after it was disabled or enabled (``unchanged``: it already was)."""

    app_id: str
    name: str
    disabled: bool
    unchanged: NotRequired[bool]


class DeletedApp(TypedDict):
    """A deleted app and the item backup taken first."""

    app_id: str
    name: str
    type: str
    children_deleted: int
    still_listed: bool  # a soft delete the app refused: it is still installed
    item_backup: SavedBackup


# Built-in apps that keep the home safe or keep this integration working, by type or name.
_SAFETY_APP_TYPES = {
    "safety monitor": "the Hubitat Safety Monitor (alarms, intrusion, leak and smoke alerts)",
    "mode manager": "Mode Manager (the home's modes, which many automations follow)",
    "maker api": "a Maker API instance (this integration's device control goes through one)",
}


def _plain(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum() or c == " ")


async def find_app(apps: AppsController, app_id: str) -> InstalledApp:
    """One app from the tree, or not_found."""
    for app in await apps.list():
        if app.id == app_id:
            return app
    raise HubNotFoundError(f"No installed app with id {app_id}", subject="app")


class AppManager:
    """Installed apps. Before a delete or an edit an app is backed up, with its App Cloner
    export (``backup_export``) so that ``AppCloner.import_app`` can re-create it.

    ``client``: only for its connection (which app is the Maker API instance we use)."""

    def __init__(
        self,
        client: HubClient,
        apps: AppsController,
        rules: RulesController,
        devices: DevicesController,
        backups: ItemBackups,
        backup_export: BackupExport,
    ) -> None:
        self._client = client
        self._hub_apps = apps
        self._rules = rules  # a rule's compiled state, for its snapshot
        self._devices = devices  # which apps use a device
        self._backups = backups
        self._backup_export = backup_export

    async def tree(self) -> list[InstalledApp]:
        """Every installed app in tree order."""
        return await self._hub_apps.list()

    async def find(self, app_id: str) -> InstalledApp:
        """One app from the tree, or not_found."""
        return await find_app(self._hub_apps, app_id)

    async def list_apps(
        self,
        *,
        text: str | None,
        kind: str,
        device_id: str | None,
        include_hidden: bool,
    ) -> list[dict[str, Any]]:
        """Apps in tree order, filtered."""
        apps = await self.tree()
        using: set[str] | None = None
        if device_id is not None:
            payload = await self._devices.raw(device_id)
            rows = cast(dict[str, Any], payload).get("appsUsing")
            using = {str(a.get("id")) for a in rows or [] if isinstance(a, dict)}
        needle = text.strip().lower() if text else None
        out = []
        for app in apps:
            if app.hidden and not include_hidden and using is None:
                continue
            if kind == "user" and not app.user:
                continue
            if kind == "builtin" and app.user:
                continue
            if kind == "disabled" and not app.disabled:
                continue
            if kind == "parents" and not app.children:
                continue
            if using is not None and app.id not in using:
                continue
            if (
                needle
                and needle not in app.name.lower()
                and needle not in app.type.lower()
                and needle != app.id
            ):
                continue
            out.append(app.as_dict())
        return out

    async def get_app(
        self,
        app_id: str,
        page: str | None,
        *,
        include_state: bool,
        screen: DeviceScreen | None = None,
    ) -> dict[str, Any]:
        """Config page (settings with values) and, optionally, the app's state.

        ``screen``: the call's device allowlist; the devices outside it are left out of the
        page, the settings (device inputs known by their types in statusJson, read for this)
        and the state (maps keyed by device), and their labels out of every text.
        """
        if include_state or (screen is not None and screen.active):
            config, status = await self._page_and_status(app_id, page)
        else:
            config, status = await self._config_page(app_id, page), None
        info = config.get("app") or {}
        app_type = info.get("appType")
        out: dict[str, Any] = {
            "app_id": app_id,
            "name": info.get("name"),
            # hub/ has cleaned the names (markup removed, entities decoded)
            "label": info.get("trueLabel") or info.get("label") or None,
            "type": app_type.get("name") if isinstance(app_type, dict) else app_type,
            "disabled": bool(info.get("disabled")),
            "parent_id": str(info["parentAppId"]) if info.get("parentAppId") else None,
            "config_version": info.get("version"),
            "config_page": summarize_page(config.get("configPage") or {}),
            "settings": {k: bounded(v) for k, v in (config.get("settings") or {}).items()},
            "child_apps": config.get("childApps") or [],
        }
        if status is not None and include_state:
            out["state"] = {k: bounded(v) for k, v in status["appState"].items()}
            out["subscriptions"] = [
                s.get("name") for s in status.get("eventSubscriptions") or [] if isinstance(s, dict)
            ]
            out["scheduled_jobs"] = bounded(status.get("scheduledJobs") or [])
            out["child_app_count"] = status.get("childAppCount")
            out["child_device_count"] = status.get("childDeviceCount")
        # secrets leave no app read: password-type settings (by the page's types, also in
        # the settings map), tokens and OAuth secrets in state (by key)
        redacted: dict[str, Any] = redact_document(out, types_from=config)
        if screen is None or not screen.active:
            return redacted
        inputs = {str(s.get("name")) for s in device_settings(status or {})}
        return screen.answer(redacted, device_inputs=inputs, keyed_maps=True)

    async def _config_page(self, app_id: str, page: str | None) -> dict[str, Any]:
        return cast(dict[str, Any], await self._hub_apps.config_page(app_id, page))

    async def _status(self, app_id: str) -> dict[str, Any]:
        return cast(dict[str, Any], await self._hub_apps.status(app_id))

    async def _page_and_status(
        self, app_id: str, page: str | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """An app's page and its status, read together."""
        config, status = await asyncio.gather(self._config_page(app_id, page), self._status(app_id))
        return config, status

    def safety_system(self, app: InstalledApp) -> str | None:
        """What a safety-system app is (HSM, Mode Manager, the Maker API we use), or None.

        By app type or name, and the Maker API instance by the configured maker app id.
        """
        if app.id == (self._client.connection.maker_app_id or "").strip():
            return "the Maker API instance this integration uses"
        for text in (app.type, app.name):
            plain = _plain(text)
            for key, what in _SAFETY_APP_TYPES.items():
                if key in plain:
                    return what
        return None

    def require_safety_confirm(self, app: InstalledApp, action: str, confirm: bool) -> None:
        """Refuse ``action`` on a safety-system app unless confirm=true."""
        what = self.safety_system(app)
        if what is not None:
            require_confirm(
                confirm, f"App {app.id} ({app.name}) is {what}; {action} it.", tier=TIER_SAFETY
            )

    async def set_disabled(
        self, app_id: str, disabled: bool, *, confirm: bool = False
    ) -> AppDisabled:
        """Enable or disable an app; verified by reading it back.

        Disabling a safety system (HSM, Mode Manager, the Maker API we use) needs confirm.
        """
        app = await self.find(app_id)
        if disabled:
            self.require_safety_confirm(app, "disabling", confirm)
        if app.disabled == disabled:
            return {"app_id": app_id, "name": app.name, "disabled": disabled, "unchanged": True}
        await self._hub_apps.set_disabled(app_id, disabled)
        now = await self._hub_apps.record(app_id)
        if isinstance(now, dict) and bool(now.get("disabled")) != disabled:
            raise HubBadResponseError(f"The hub still reports app {app_id} disabled={not disabled}")
        return {"app_id": app_id, "name": app.name, "disabled": disabled}

    async def snapshot(self, app: InstalledApp) -> dict[str, Any]:
        """Everything readable about one app (with its App Cloner export, when it has one),
        for an item backup before a delete or an edit."""
        config, status = await self._page_and_status(app.id, None)
        snap: dict[str, Any] = {
            "name": app.name,
            "app_type": app.type,
            "parent_id": app.parent_id,
            "config": config,
            "status": status,
        }
        if app.is_rm_rule or app.is_visual_rule:
            snap["rule_builder"] = await self._rules.compiled(app.id)
        snap.update(await self._backup_export(app))
        return snap

    async def delete(self, app_id: str, *, force: bool) -> DeletedApp:
        """Snapshot to the File Manager, then delete (children go too)."""
        apps = await self.tree()
        app = next((a for a in apps if a.id == app_id), None)
        if app is None:
            raise HubNotFoundError(f"No installed app with id {app_id}")
        if not app.user and app.parent_id is None and app.children:
            raise ToolError(
                f"App {app_id} ({app.name}) is a built-in parent app with {len(app.children)} "
                "child apps; deleting it removes all of them. Refused.",
                hint="Delete the child apps (rules, dashboards, ...) one by one, or use the "
                "hub UI.",
            )
        backup = await self._backups.save(
            "installedapp", app_id, await self.snapshot(app), reason="before delete"
        )
        try:
            await self._hub_apps.delete(app_id, force=force)
        except HubRefusedError:
            if app_id in {a.id for a in await self.tree()}:
                raise  # refused, and the app is still there
        remaining = {a.id for a in await self.tree()}  # the effect decides
        if app_id in remaining and force:
            raise HubError(f"The hub still lists app {app_id} after deleting it")
        return {
            "app_id": app_id,
            "name": app.name,
            "type": app.type,
            "children_deleted": len(app.children),
            "still_listed": app_id in remaining,
            "item_backup": backup,
        }
