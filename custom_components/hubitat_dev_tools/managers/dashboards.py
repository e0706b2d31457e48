"""Dashboards: Easy Dashboards (full CRUD) and legacy Hubitat Dashboards (list/read/delete)."""

from __future__ import annotations

from typing import Any

from ..errors import ToolError
from ..hub.apps import fetch_status
from ..hub.client import HubClient
from ..hub.dashboards import (
    create_easy,
    delete_easy,
    fetch_easy_dashboards,
    fetch_legacy_layout,
    fetch_pin_token,
    legacy_tokens,
    save_legacy_layout,
    update_easy,
)
from ..hub.errors import HubNotFoundError
from .apps import AppManager
from .item_backups import ItemBackups

LEGACY_PARENT = "Hubitat® Dashboard"


class DashboardManager:
    """Easy and legacy dashboards."""

    def __init__(self, client: HubClient, apps: AppManager, backups: ItemBackups) -> None:
        self._client = client
        self._apps = apps
        self._backups = backups

    async def _easy(self) -> tuple[str, list[dict[str, Any]]]:
        pin = await fetch_pin_token(self._client)
        return pin, await fetch_easy_dashboards(self._client, pin)

    async def _legacy(self) -> list[dict[str, Any]]:
        tree = await self._apps.tree()
        parents = {a.id for a in tree if a.type == LEGACY_PARENT or a.name == LEGACY_PARENT}
        return [
            {"dashboard_id": a.id, "name": a.name, "type": "legacy", "disabled": a.disabled}
            for a in tree
            if a.parent_id in parents
        ]

    async def list_all(self) -> list[dict[str, Any]]:
        """Every dashboard, Easy first."""
        _pin, easy = await self._easy()
        return [
            {"dashboard_id": d["dashboard_id"], "name": d["name"], "type": "easy"} for d in easy
        ] + await self._legacy()

    async def _find_easy(self, dashboard_id: str) -> tuple[str, dict[str, Any] | None]:
        pin, easy = await self._easy()
        return pin, next((d for d in easy if d["dashboard_id"] == dashboard_id), None)

    async def get(self, dashboard_id: str) -> dict[str, Any]:
        """One dashboard: Easy configuration, or a legacy dashboard's app page."""
        _pin, easy = await self._find_easy(dashboard_id)
        if easy is not None:
            return easy
        legacy = {d["dashboard_id"]: d for d in await self._legacy()}
        if dashboard_id not in legacy:
            raise HubNotFoundError(
                f"No dashboard with id {dashboard_id}",
                hint="List dashboards with hub_list_dashboards.",
            )
        status = await fetch_status(self._client, dashboard_id)
        settings = {
            str(x.get("name")): x.get("deviceIdsForDeviceList") or x.get("value")
            for x in status.get("appSettings") or []
            if isinstance(x, dict)
        }
        _tokens, layout = await self._layout(dashboard_id, status)
        return {
            **legacy[dashboard_id],
            "device_ids": [str(i) for i in settings.get("devicesPicked") or []],
            "local_access": settings.get("localAccess"),
            "layout": layout,
        }

    async def _layout(
        self, dashboard_id: str, status: dict[str, Any] | None = None
    ) -> tuple[tuple[str, str], dict[str, Any]]:
        """(access token, request token) and the layout of a legacy dashboard."""
        status = status or await fetch_status(self._client, dashboard_id)
        access = status["appState"].get("accessToken")
        if not access:
            raise ToolError(
                f"Legacy dashboard {dashboard_id} has no access token yet; its layout cannot "
                "be read.",
                hint="Open the dashboard once in the hub UI, then retry.",
            )
        request_token = await legacy_tokens(self._client, dashboard_id, str(access))
        layout = await fetch_legacy_layout(self._client, dashboard_id, str(access), request_token)
        return (str(access), request_token), layout

    async def update_legacy_layout(
        self,
        dashboard_id: str,
        *,
        layout: dict[str, Any] | None,
        add_tiles: list[dict[str, Any]],
        update_tiles: list[dict[str, Any]],
        remove_tile_ids: list[int],
    ) -> dict[str, Any]:
        """Replace the layout or apply tile operations; the old layout is backed up."""
        if dashboard_id not in {d["dashboard_id"] for d in await self._legacy()}:
            raise HubNotFoundError(f"No legacy dashboard with id {dashboard_id}")
        (access, request_token), current = await self._layout(dashboard_id)
        new = dict(layout) if layout is not None else dict(current)
        tiles = [dict(t) for t in new.get("tiles") or [] if isinstance(t, dict)]
        ids = {t.get("id") for t in tiles}
        missing = [t.get("id") for t in update_tiles if t.get("id") not in ids]
        missing += [i for i in remove_tile_ids if i not in ids]
        if missing:
            raise ToolError(
                f"No tiles with id {missing} on dashboard {dashboard_id}. Nothing was sent.",
                hint="Read the tile ids with hub_get_dashboard.",
            )
        by_id = {t.get("id"): t for t in update_tiles}
        tiles = [
            {**t, **by_id.get(t.get("id"), {})}
            for t in tiles
            if t.get("id") not in set(remove_tile_ids)
        ]
        next_id = max((int(t["id"]) for t in tiles if isinstance(t.get("id"), int)), default=-1) + 1
        for tile in add_tiles:
            tiles.append({"colSpan": 1, "rowSpan": 1, **tile, "id": next_id})
            next_id += 1
        new["tiles"] = tiles
        backup = await self._backups.save(
            "dashboard",
            dashboard_id,
            {"name": current.get("name"), "layout": current},
            reason="before layout update",
            series=True,
        )
        await save_legacy_layout(self._client, dashboard_id, access, request_token, new)
        self._backups.edited("dashboard", dashboard_id, {"layout": new})
        return {
            "dashboard_id": dashboard_id,
            "type": "legacy",
            "tiles": len(tiles),
            "previous_layout": current,
            "item_backup": backup,
        }

    async def _require_easy(self, dashboard_id: str) -> tuple[str, dict[str, Any]]:
        pin, easy = await self._find_easy(dashboard_id)
        if easy is None:
            legacy = {d["dashboard_id"] for d in await self._legacy()}
            if dashboard_id in legacy:
                raise ToolError(
                    f"Dashboard {dashboard_id} is a legacy Hubitat Dashboard: change its tiles "
                    "with layout/add_tiles/update_tiles/remove_tile_ids; its name, devices and "
                    "cloning are not reachable here. Nothing was sent.",
                    hint="Use the tile arguments, or the hub UI.",
                )
            raise HubNotFoundError(
                f"No dashboard with id {dashboard_id}",
                hint="List dashboards with hub_list_dashboards.",
            )
        return pin, easy

    async def create(
        self, name: str, device_ids: list[str], options: dict[str, Any]
    ) -> dict[str, Any]:
        """Create an Easy Dashboard."""
        new_id = await create_easy(self._client, name, device_ids, options)
        return {"dashboard_id": new_id, "name": name, "device_ids": device_ids}

    async def update(
        self,
        dashboard_id: str,
        *,
        name: str | None,
        device_ids: list[str] | None,
        add_device_ids: list[str],
        remove_device_ids: list[str],
        options: dict[str, Any],
    ) -> dict[str, Any]:
        """Read-merge-write (the hub's update is wholesale); previous config backed up."""
        _pin, current = await self._require_easy(dashboard_id)
        ids = list(device_ids if device_ids is not None else current["device_ids"])
        ids += [i for i in add_device_ids if i not in ids]
        ids = [i for i in ids if i not in set(remove_device_ids)]
        merged_options = {**current["options"], **options}
        new_name = name or current["name"]
        backup = await self._backups.save(
            "dashboard",
            dashboard_id,
            {"name": current["name"], "definition": current},
            reason="before update",
            series=True,
        )
        await update_easy(self._client, dashboard_id, new_name, ids, merged_options)
        after = {"name": new_name, "device_ids": ids, "options": merged_options}
        self._backups.edited("dashboard", dashboard_id, {"definition": after})
        return {
            "dashboard_id": dashboard_id,
            "name": new_name,
            "device_ids": ids,
            "options": merged_options,
            "previous": current,
            "item_backup": backup,
        }

    async def clone(self, dashboard_id: str, new_name: str | None) -> dict[str, Any]:
        """Copy an Easy Dashboard's configuration into a new one."""
        _pin, current = await self._require_easy(dashboard_id)
        name = new_name or f"{current['name']} (copy)"
        new_id = await create_easy(self._client, name, current["device_ids"], current["options"])
        return {"dashboard_id": new_id, "name": name, "cloned_from": dashboard_id}

    async def delete(self, dashboard_id: str) -> dict[str, Any]:
        """Back up and delete an Easy Dashboard, or delete a legacy one (app snapshot)."""
        pin, easy = await self._find_easy(dashboard_id)
        if easy is None:
            legacy = {d["dashboard_id"] for d in await self._legacy()}
            if dashboard_id not in legacy:
                raise HubNotFoundError(f"No dashboard with id {dashboard_id}")
            result = await self._apps.delete(dashboard_id, force=True)
            return {"dashboard_id": dashboard_id, "type": "legacy", **result}
        backup = await self._backups.save(
            "dashboard",
            dashboard_id,
            {"name": easy["name"], "definition": easy},
            reason="before delete",
        )
        await delete_easy(self._client, dashboard_id, pin)
        return {
            "dashboard_id": dashboard_id,
            "name": easy["name"],
            "type": "easy",
            "definition": easy,
            "item_backup": backup,
        }
