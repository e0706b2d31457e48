"""Dashboards: Easy Dashboards (full CRUD) and legacy Hubitat Dashboards (create/list/read/
rename/layout/delete).

``/dashboard/all`` lists both kinds (``version`` "2.0" Easy, "1.0" legacy); every Easy-only
path switches on that, and the apps tree adds the legacy dashboards it may not list. Writes
are confirmed by their effect in ``hub/dashboards.py``.
"""

from __future__ import annotations

import re
from typing import Any, cast

from ..errors import ToolError
from ..hub.answers import real_value
from ..hub.app_page import Setting
from ..hub.controllers import AppsController, DashboardsController
from ..hub.dashboards import PIN_OPTIONS, Dashboard, navigation_csv
from ..hub.effects import poll_until
from ..hub.errors import HubBadResponseError, HubNotFoundError
from ..hub.results import DashboardOptions, LegacyLayout
from .apps import AppManager
from .item_backups import ItemBackups

LEGACY_PARENT = "Hubitat® Dashboard"
LEGACY_DEVICES = "devicesPicked"  # the legacy dashboard page's authorised devices (on-hub server)
_PIN = re.compile(r"^\d{4}$")
_NAV = re.compile(r"^\d+(,\d+)*$")
THEMES = ("legacy", "light", "dark", "auto")  # the hub UI's choices


def clean_options(options: dict[str, Any]) -> dict[str, Any]:
    """A caller's options in the form the hub parses: ``navigationSelection`` as the plain
    comma list of dashboard ids, a placeholder PIN (``"null"``, ``"None"``) as no PIN."""
    out = dict(options)
    if "theme" in out and real_value(out["theme"]) not in ("", *THEMES):
        raise ToolError(
            f"theme must be one of {', '.join(THEMES)}; got {out['theme']!r}. Nothing was sent."
        )
    if "navigationSelection" in out:
        nav = navigation_csv(out["navigationSelection"])
        if nav and not _NAV.match(nav):
            raise ToolError(
                f"navigationSelection must list dashboard ids (0 = the dashboards menu), "
                f"e.g. '0,412'; got {out['navigationSelection']!r}. Nothing was sent.",
                subject="dashboard_ids",
            )
        out["navigationSelection"] = nav
    for key in PIN_OPTIONS:
        if key in out:
            pin = real_value(out[key])
            if pin and not _PIN.match(pin):
                raise ToolError(f"{key} must be 4 digits (or empty for no PIN). Nothing was sent.")
            out[key] = pin
    return out


class DashboardManager:
    """Easy and legacy dashboards."""

    def __init__(
        self,
        dashboards: DashboardsController,
        hub_apps: AppsController,
        apps: AppManager,
        backups: ItemBackups,
    ) -> None:
        self._dashboards = dashboards
        self._hub_apps = hub_apps  # a legacy dashboard is an app: its status, its page
        self._apps = apps
        self._backups = backups

    async def _listed(self) -> tuple[str, list[Dashboard]]:
        """The pin token and every dashboard ``/dashboard/all`` lists."""
        pin = await self._dashboards.pin_token()
        return pin, await self._dashboards.list(pin)

    async def _legacy(self, listed: list[Dashboard] | None = None) -> list[dict[str, Any]]:
        """Legacy dashboards: the dashboard app's children, then any other ``version`` 1.0
        entry of the list."""
        tree = await self._apps.tree()
        parents = {a.id for a in tree if a.type == LEGACY_PARENT or a.name == LEGACY_PARENT}
        out = [
            {"dashboard_id": a.id, "name": a.name, "type": "legacy", "disabled": a.disabled}
            for a in tree
            if a.parent_id in parents
        ]
        known = {d["dashboard_id"] for d in out}
        out += [
            {"dashboard_id": d.dashboard_id, "name": d.name, "type": "legacy"}
            for d in listed or []
            if d.legacy and d.dashboard_id not in known
        ]
        return out

    async def list_all(self) -> list[dict[str, Any]]:
        """Every dashboard, Easy first."""
        _pin, listed = await self._listed()
        return [
            {"dashboard_id": d.dashboard_id, "name": d.name, "type": "easy"}
            for d in listed
            if not d.legacy
        ] + await self._legacy(listed)

    async def get(self, dashboard_id: str) -> dict[str, Any]:
        """One dashboard: Easy configuration, or a legacy dashboard's app page."""
        _pin, listed = await self._listed()
        entry = next((d for d in listed if d.dashboard_id == dashboard_id), None)
        if entry is not None and not entry.legacy:
            return entry.as_dict()
        legacy = {d["dashboard_id"]: d for d in await self._legacy(listed)}
        if dashboard_id not in legacy:
            raise HubNotFoundError(f"No dashboard with id {dashboard_id}", subject="dashboard")
        status = cast(dict[str, Any], await self._hub_apps.status(dashboard_id))
        settings = {
            str(x.get("name")): x.get("deviceIdsForDeviceList") or x.get("value")
            for x in status.get("appSettings") or []
            if isinstance(x, dict)
        }
        _access, layout = await self._layout(dashboard_id, status, entry)
        return {
            **legacy[dashboard_id],
            "device_ids": [str(i) for i in settings.get("devicesPicked") or []],
            "local_access": settings.get("localAccess"),
            "layout": layout,
        }

    async def _layout(
        self,
        dashboard_id: str,
        status: dict[str, Any] | None = None,
        entry: Dashboard | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """The access token and the layout of a legacy dashboard.

        The access token is the app's (statusJson ``appState``), else the one
        ``/dashboard/all`` lists; it only goes to the hub, never into a result. Request
        tokens are not kept: every layout request takes a fresh one (``hub/dashboards.py``)."""
        status = status or cast(dict[str, Any], await self._hub_apps.status(dashboard_id))
        access = real_value(status["appState"].get("accessToken"))
        if not access:
            if entry is None:
                _pin, listed = await self._listed()
                entry = next((d for d in listed if d.dashboard_id == dashboard_id), None)
            access = (entry.access_token if entry is not None else None) or ""
        if not access:
            raise ToolError(
                f"Legacy dashboard {dashboard_id} has no access token yet; its layout cannot "
                "be read.",
                hint="Open the dashboard once in the hub UI, then retry.",
            )
        layout = await self._dashboards.legacy_layout(dashboard_id, access)
        return access, cast(dict[str, Any], layout)

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
        access, current = await self._layout(dashboard_id)
        new = dict(layout) if layout is not None else dict(current)
        tiles = [dict(t) for t in new.get("tiles") or [] if isinstance(t, dict)]
        ids = {t.get("id") for t in tiles}
        missing = [t.get("id") for t in update_tiles if t.get("id") not in ids]
        missing += [i for i in remove_tile_ids if i not in ids]
        if missing:
            raise ToolError(
                f"No tiles with id {missing} on dashboard {dashboard_id}. Nothing was sent.",
                subject="dashboard_tiles",
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
        await self._dashboards.save_legacy_layout(dashboard_id, access, cast(LegacyLayout, new))
        self._backups.edited("dashboard", dashboard_id, {"layout": new})
        return {
            "dashboard_id": dashboard_id,
            "type": "legacy",
            "tiles": len(tiles),
            "previous_layout": current,
            "item_backup": backup,
        }

    async def kind(self, dashboard_id: str) -> str:
        """``easy`` or ``legacy`` (an unknown id: :class:`HubNotFoundError`)."""
        _pin, listed = await self._listed()
        entry = next((d for d in listed if d.dashboard_id == dashboard_id), None)
        if entry is not None and not entry.legacy:
            return "easy"
        if entry is not None or dashboard_id in {d["dashboard_id"] for d in await self._legacy()}:
            return "legacy"
        raise HubNotFoundError(f"No dashboard with id {dashboard_id}", subject="dashboard")

    def _picked(self, status: dict[str, Any]) -> list[str]:
        """The authorised devices a legacy dashboard's statusJson lists."""
        for item in status.get("appSettings") or []:
            if isinstance(item, dict) and item.get("name") == LEGACY_DEVICES:
                ids = item.get("deviceIdsForDeviceList") or []
                return sorted(str(i) for i in ids) if isinstance(ids, list) else []
        return []

    async def rename_legacy(self, dashboard_id: str, name: str) -> dict[str, Any]:
        """Rename a legacy dashboard as its app page does: the page's settings submit with
        the bare ``label`` field (hub UI ``main.js``: the "Assign a name" ``name="label"``
        input; the on-hub server's ``_updateLegacyDashboard`` renames with the same submit).
        Confirmed by the dashboard list read back (polled ~2 s) and by its authorised
        devices reading as before."""
        name = name.strip()
        if not name:
            raise ToolError("name must not be blank. Nothing was sent.")
        current = {d["dashboard_id"]: d for d in await self._legacy()}.get(dashboard_id)
        if current is None:
            raise HubNotFoundError(f"No legacy dashboard with id {dashboard_id}")
        previous = current.get("name")
        if previous == name:
            return {"dashboard_id": dashboard_id, "type": "legacy", "name": name,
                    "previous_name": previous, "unchanged": True}  # fmt: skip
        devices = self._picked(cast(dict[str, Any], await self._hub_apps.status(dashboard_id)))
        page = await self._hub_apps.page(dashboard_id)
        form = page.settings_form({})
        form["label"] = name
        await page.post_update(form, what=f"rename legacy dashboard {dashboard_id}")

        def named(rows: list[dict[str, Any]]) -> bool:
            return any(r["dashboard_id"] == dashboard_id and r["name"] == name for r in rows)

        listed = await poll_until(self._legacy, named)
        after = self._picked(cast(dict[str, Any], await self._hub_apps.status(dashboard_id)))
        problems = []
        if not named(listed):
            got = next((r["name"] for r in listed if r["dashboard_id"] == dashboard_id), None)
            problems.append(f"its name reads {got!r}")
        if after != devices:
            problems.append(f"its devices changed from {devices} to {after}")
        if problems:
            raise HubBadResponseError(
                f"Legacy dashboard {dashboard_id} was sent the new name but {'; '.join(problems)}",
                hint="Read it; fix its name or devices on its app page.",
                subject="legacy_dashboard",
            )
        return {"dashboard_id": dashboard_id, "type": "legacy", "name": name,
                "previous_name": previous}  # fmt: skip

    async def _require_easy(self, dashboard_id: str) -> tuple[str, Dashboard]:
        """The pin token and the Easy Dashboard ``dashboard_id`` (legacy ones are refused)."""
        pin, listed = await self._listed()
        entry = next((d for d in listed if d.dashboard_id == dashboard_id), None)
        if entry is not None and not entry.legacy:
            return pin, entry
        if entry is not None or dashboard_id in {d["dashboard_id"] for d in await self._legacy()}:
            raise ToolError(
                f"Dashboard {dashboard_id} is a legacy Hubitat Dashboard: change its tiles "
                "with layout/add_tiles/update_tiles/remove_tile_ids and its name with name; "
                "its devices and cloning are not reachable here. Nothing was sent.",
                hint="Use the tile arguments, or the hub UI.",
            )
        raise HubNotFoundError(f"No dashboard with id {dashboard_id}", subject="dashboard")

    async def create(
        self, name: str, device_ids: list[str], options: dict[str, Any]
    ) -> dict[str, Any]:
        """Create an Easy Dashboard (confirmed by the hub listing it)."""
        options = clean_options(options)
        name = name.strip()  # as the hub UI sends it
        pin = await self._dashboards.pin_token()
        created = await self._dashboards.create(
            pin, name, device_ids, cast(DashboardOptions, options)
        )
        return {"dashboard_id": created.dashboard_id, "name": name, "device_ids": device_ids}

    async def create_legacy(self, name: str, device_ids: list[str]) -> dict[str, Any]:
        """A legacy dashboard, as the Hubitat® Dashboard app's page adds one: a child app
        (``createchild``: it installs itself and mints its access token, the on-hub server), then
        its name and devices in one settings submit; confirmed by the dashboard list and its
        settings read back."""
        name = name.strip()
        tree = await self._apps.tree()
        parent = next(
            (a for a in tree if a.parent_id is None and LEGACY_PARENT in (a.type, a.name)), None
        )
        if parent is None:
            raise ToolError(
                f"The built-in {LEGACY_PARENT} app is not installed, so there is no legacy "
                "dashboard parent. Nothing was sent.",
                code="not_found",
                outcome="failed",
                subject="parent_not_installed",
                extra={"parent_type": LEGACY_PARENT, "child_kind": "legacy dashboard"},
            )
        new_id = await self._hub_apps.create_child("hubitat", "Dashboard", parent.id)
        page = await self._hub_apps.page(new_id)
        fields = {}
        if device_ids:
            fields[LEGACY_DEVICES] = Setting(",".join(device_ids), "capability.*", True)
        form = page.settings_form(fields)
        form["label"] = name  # the page's name field (hub UI: a bare ``label`` input)
        await page.post_update(form, what=f"name the new legacy dashboard {new_id}")
        listed = {d["dashboard_id"]: d for d in await self._legacy()}
        status = cast(dict[str, Any], await self._hub_apps.status(new_id))
        picked = next(
            (
                x.get("deviceIdsForDeviceList") or []
                for x in status.get("appSettings") or []
                if isinstance(x, dict) and x.get("name") == LEGACY_DEVICES
            ),
            [],
        )
        got_ids = [str(i) for i in picked] if isinstance(picked, list) else []
        entry = listed.get(new_id)
        problems = []
        if entry is None:
            problems.append("it is not listed")
        elif entry["name"] != name:
            problems.append(f"its name reads {entry['name']!r}")
        if sorted(got_ids) != sorted(device_ids):
            problems.append(f"its devices read {got_ids}")
        if problems:
            raise HubBadResponseError(
                f"Legacy dashboard {new_id} was created but {'; '.join(problems)}",
                hint="Read it; fix its name or devices on its page or delete it.",
                subject="legacy_dashboard",
            )
        return {
            "dashboard_id": new_id,
            "name": name,
            "type": "legacy",
            "device_ids": got_ids,
            "parent_id": parent.id,
        }

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
        """Read-merge-write (the hub's update is wholesale), confirmed by reading it back;
        the previous configuration is backed up."""
        options = clean_options(options)
        pin, entry = await self._require_easy(dashboard_id)
        current = entry.as_dict()
        ids = list(device_ids if device_ids is not None else entry.device_ids)
        ids += [i for i in add_device_ids if i not in ids]
        ids = [i for i in ids if i not in set(remove_device_ids)]
        merged_options = {**entry.options, **options}
        new_name = (name or entry.name or "").strip()
        backup = await self._backups.save(
            "dashboard",
            dashboard_id,
            {"name": entry.name, "definition": current},
            reason="before update",
            series=True,
        )
        saved = await self._dashboards.update(
            pin, dashboard_id, new_name, ids, cast(DashboardOptions, merged_options)
        )
        after = {"name": new_name, "device_ids": ids, "options": merged_options}
        self._backups.edited("dashboard", dashboard_id, {"definition": after})
        return {
            "dashboard_id": dashboard_id,
            "name": new_name,
            "device_ids": saved.device_ids,
            "options": merged_options,
            "previous": current,
            "item_backup": backup,
        }

    async def clone(self, dashboard_id: str, new_name: str | None) -> dict[str, Any]:
        """Copy an Easy Dashboard's configuration into a new one."""
        pin, entry = await self._require_easy(dashboard_id)
        name = new_name or f"{entry.name} (copy)"
        created = await self._dashboards.create(
            pin, name, entry.device_ids, cast(DashboardOptions, entry.options)
        )
        return {"dashboard_id": created.dashboard_id, "name": name, "cloned_from": dashboard_id}

    async def delete(self, dashboard_id: str) -> dict[str, Any]:
        """Back up and delete an Easy Dashboard, or delete a legacy one (app snapshot); both
        confirmed by the dashboard no longer being listed."""
        pin, listed = await self._listed()
        entry = next((d for d in listed if d.dashboard_id == dashboard_id), None)
        if entry is None or entry.legacy:
            legacy = {d["dashboard_id"] for d in await self._legacy(listed)}
            if dashboard_id not in legacy:
                raise HubNotFoundError(f"No dashboard with id {dashboard_id}")
            # /dashboard/delete does not remove a legacy dashboard: it is an app.
            result = await self._apps.delete(dashboard_id, force=True)
            # the app delete's own answer names the app's type ("Dashboard"): ours says which
            # kind of dashboard went
            return {**result, "dashboard_id": dashboard_id, "type": "legacy"}
        definition = entry.as_dict()
        backup = await self._backups.save(
            "dashboard",
            dashboard_id,
            {"name": entry.name, "definition": definition},
            reason="before delete",
        )
        await self._dashboards.delete(pin, dashboard_id)
        return {
            "dashboard_id": dashboard_id,
            "name": entry.name,
            "type": "easy",
            "definition": definition,
            "item_backup": backup,
        }
