"""Creating installed apps (reference §12): Add Built-In/User App (``create/<typeId>``),
``createchild``, and the transient Swap Device app (§12.7). :class:`AppCreateRoutes` is the
base of :class:`~.routes_apps.AppRoutes`, whose ``setup`` registers these handlers
(``createchild`` goes through ``routes_rule_machine.py``, which keeps the rules for Rule Machine).

Swap Device (§12.7): ``/installedapp/direct/swapDevice`` answers ``302`` to
``/installedapp/create/<SWAP_TYPE_ID>``, which creates a new transient instance (every visit)
and answers ``302`` to ``/installedapp/configure/<id>``. Its page has ``oldDev`` and
``newDev`` (``capability.*``); once both are set (``update/json``) a ``swapDevices`` button
appears. Pressing it moves every app using the old device (its "in use by" and the device
inputs of its page) to the new one; it refuses the same device twice, a child device, or an
old device no app uses. Other ``create/<typeId>`` ids add a built-in or user app
(``app_types.py``); unknown ids are 404.
"""

from __future__ import annotations

import secrets
from typing import Any

from aiohttp import web

from .app_types import ROOM_LIGHTS_INPUTS, SYSTEM_BY_ID, child_type, user_first_page
from .button_controller import CONTROLLER_APP, controller_inputs
from .devstate import AppInternals
from .installed_apps import add_instance
from .model import App
from .responses import redirect
from .routes_common import Routes

SWAP_TYPE = "Swap Device"
SWAP_TYPE_ID = 160


class AppCreateRoutes(Routes):
    """New app instances (the base of :class:`~.routes_apps.AppRoutes`)."""

    def _internals(self, app: App) -> AppInternals:
        return self.dev.internals.setdefault(app.id, AppInternals(page_title=app.label or app.name))

    async def swap_direct(self, request: web.Request) -> web.StreamResponse:
        return web.Response(
            status=302, headers={"Location": f"/installedapp/create/{SWAP_TYPE_ID}"}
        )

    async def create_instance(self, request: web.Request) -> web.StreamResponse:
        raw = request.match_info["type_id"]
        if raw != str(SWAP_TYPE_ID):
            return self._add_app(int(raw) if raw.isdigit() else -1)
        new_id = self.dev.alloc_app_id()
        self.apps[new_id] = App(new_id, SWAP_TYPE, None, SWAP_TYPE, app_type_id=SWAP_TYPE_ID)
        self.dev.internals[new_id] = AppInternals(
            page_title="Swap Apps Device",
            inputs=[
                {"name": "oldDev", "type": "capability.*", "title": "Old device"},
                {"name": "newDev", "type": "capability.*", "title": "New device"},
            ],
        )
        return redirect(f"/installedapp/configure/{new_id}")

    def _add_app(self, type_id: int) -> web.StreamResponse:
        """Add Built-In/User App (``app_types.py``): a new instance, or the singleton's."""
        builtin = SYSTEM_BY_ID.get(type_id)
        code = next((c for c in self.dev.items("app") if c.id == type_id), None)
        if builtin is not None:
            same = [a for a in self.apps.values() if a.type == builtin.name and not a.user]
            if builtin.singleton and same:
                return redirect(f"/installedapp/configure/{same[0].id}")
            new_id = self.add_instance(
                builtin.name,
                type_id,
                [dict(i) for i in builtin.inputs],
                user=False,
                pending=not builtin.installs_on_open,
            )
            return redirect(f"/installedapp/configure/{new_id}")
        if code is None:
            return self.http.not_found()
        page, inputs = user_first_page(code.source)
        new_id = self.add_instance(code.name, code.id, inputs, user=True)
        return redirect(f"/installedapp/configure/{new_id}/{page}")

    def create_child(self, ns: str, app_name: str, parent: App | None) -> web.StreamResponse:
        """``createchild`` of a built-in child app under its parent type, or of user app
        code (by namespace and name) under a user app; anything else is a 404."""
        if parent is None:
            return self.http.not_found()
        kind = child_type(ns, app_name)
        if kind is not None:
            if parent.type != kind.parent_type or parent.user:
                return self.http.not_found()
            label = app_name.split("-")[0]
            inputs: list[dict[str, Any]] = []
            if app_name == CONTROLLER_APP:
                inputs = controller_inputs()
            if app_name == "Room Lights":
                inputs = [dict(i) for i in ROOM_LIGHTS_INPUTS]
            if app_name == "Dashboard":
                inputs = [
                    {
                        "name": "devicesPicked",
                        "type": "capability.*",
                        "multiple": True,
                        "title": "Authorized devices",
                    },
                    {"name": "localAccess", "type": "bool", "title": "Local access", "value": True},
                ]
            new_id = self.add_instance(
                # the on-hub server: its appType name
                app_name if app_name == CONTROLLER_APP else label,
                kind.type_id,
                inputs,
                user=False,
                parent_id=parent.id,
                pending=not kind.installs_on_open,
            )
            # installs itself and mints its access token (on-hub server)
            if app_name == "Dashboard":
                self.dev.internals[new_id].state["accessToken"] = secrets.token_hex(8)
                self.dev.layouts[new_id] = {"name": label, "cols": 6, "rows": 4, "tiles": []}
            return redirect(f"/installedapp/configure/{new_id}")
        code = next(
            (c for c in self.dev.items("app") if (c.namespace, c.name) == (ns, app_name)), None
        )
        if code is None or not parent.user:
            return self.http.not_found()
        _page, inputs = user_first_page(code.source)
        new_id = self.add_instance(code.name, code.id, inputs, user=True, parent_id=parent.id)
        return redirect(f"/installedapp/configure/{new_id}")

    def add_instance(
        self,
        type_name: str,
        type_id: int,
        inputs: list[dict[str, Any]],
        *,
        user: bool,
        parent_id: int | None = None,
        pending: bool = True,
    ) -> int:
        """A new app instance (a pending shell until its Done, unless ``pending`` False)."""
        return add_instance(
            self.st, type_name, type_id, inputs, user=user, parent_id=parent_id, pending=pending
        )

    def _swap(self, internals: AppInternals) -> str | None:
        chosen = {i["name"]: i.get("value") for i in internals.inputs}
        devices = self.st.devices
        try:
            old = devices[int(str(chosen.get("oldDev")))]
            new = devices[int(str(chosen.get("newDev")))]
        except (KeyError, ValueError):
            return "Select both devices"
        if old.id == new.id:
            return "Pick two different devices"
        if old.parent_id is not None or new.parent_id is not None:
            return "Child devices cannot be swapped"
        users = [a for a in old.apps_using if a in self.apps]
        if not users:
            return "No app uses the old device"
        for app_id in users:
            old.apps_using.remove(app_id)
            if app_id not in new.apps_using:
                new.apps_using.append(app_id)
            for inp in self._internals(self.apps[app_id]).inputs:
                ids = inp.get("deviceIdsForDeviceList")
                if isinstance(ids, list) and old.id in ids:
                    inp["deviceIdsForDeviceList"] = [new.id if i == old.id else i for i in ids]
                    inp["value"] = ",".join(str(i) for i in inp["deviceIdsForDeviceList"])
        return None
