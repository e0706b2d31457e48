"""Apps/Drivers/Libraries code and bundles (reference §11). Decisions: see ``devstate.py``."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from aiohttp import web

from .clock import utcnow
from .devstate import Bundle, CodeItem, compile_source
from .home import Home
from .responses import Responses, redirect
from .routes_common import Routes

KINDS = {"app": "app", "driver": "driver", "library": "library"}


def setup(app: web.Application, home: Home, http: Responses) -> None:
    r = _CodeRoutes(home, http)
    add = app.router
    add.add_get("/hub2/userAppTypes", r.user_app_types)
    add.add_get("/hub2/userDeviceTypes", r.user_device_types)
    add.add_get("/hub2/userLibraries", r.user_libraries)
    add.add_get("/hub2/userBundles", r.user_bundles)
    add.add_get("/app/ajax/code", r.app_code)
    add.add_get("/driver/ajax/code", r.driver_code)
    add.add_get("/library/list/single/data/{id}", r.library_code)
    add.add_post("/app/saveOrUpdateJson", r.save_app)
    add.add_post("/driver/saveOrUpdateJson", r.save_driver)
    add.add_post("/library/saveOrUpdateJson", r.save_library)
    add.add_get("/app/edit/deleteJsonSafe/{id}", r.delete_app)
    add.add_get("/driver/editor/deleteJson/{id}", r.delete_driver)
    add.add_get("/library/edit/deleteJson/{id}", r.delete_library)
    add.add_get("/bundle2/uploadZipFromUrl", r.bundle_install)
    add.add_get("/bundle/delete/{id}", r.bundle_delete)
    add.add_get("/bundle/export/{id}", r.bundle_export)
    add.add_get("/bundle/list", r.bundle_list_page)


def _ident(item: CodeItem | Bundle) -> dict[str, Any]:
    """The ``id``, ``name`` and ``namespace`` that lead every code and bundle listing entry."""
    return {"id": item.id, "name": item.name, "namespace": item.namespace}


def _ms(item: CodeItem) -> int | None:
    return int(item.modified.timestamp() * 1000) if item.modified else None


class _CodeRoutes(Routes):
    def _used_by_apps(self, code_id: int) -> list[dict[str, Any]]:
        return [
            {"id": a.id, "name": a.label or a.name}
            for a in self.st.apps.values()
            if a.user and a.app_type_id == code_id
        ]

    def _used_by_libs(self, lib: CodeItem) -> tuple[list[str], list[str]]:
        tag = f"#include {lib.namespace}.{lib.name}"
        apps = [c.name for c in self.dev.items("app") if tag in c.source]
        drivers = [c.name for c in self.dev.items("driver") if tag in c.source]
        return apps, drivers

    # ------------------------------------------------------------------ listings

    async def user_app_types(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(
            [
                {
                    **_ident(c),
                    "oauth": c.oauth,
                    "lastModified": _ms(c),
                    "usedBy": self._used_by_apps(c.id),
                }
                for c in self.dev.items("app")
            ]
        )

    async def user_device_types(self, request: web.Request) -> web.StreamResponse:
        out = []
        for c in self.dev.items("driver"):
            used = [
                {"id": d.id, "name": d.display_name}
                for d in self.st.devices.values()
                if d.driver.name == c.name
            ]
            out.append(
                {
                    **_ident(c),
                    "capabilities": list(c.capabilities),
                    "lastModified": _ms(c),
                    "usedBy": used,
                }
            )
        return self.http.json(out)

    async def user_libraries(self, request: web.Request) -> web.StreamResponse:
        out = []
        for c in self.dev.items("library"):
            apps, drivers = self._used_by_libs(c)
            out.append(
                {
                    "id": c.id,
                    "version": c.version,
                    "name": c.name,
                    "namespace": c.namespace,
                    "author": c.author,
                    "description": c.description,
                    "usedByAppTypes": apps,
                    "usedByDeviceTypes": drivers,
                }
            )
        return self.http.json(out)

    async def user_bundles(self, request: web.Request) -> web.StreamResponse:
        return self.http.json(
            [
                {
                    **_ident(b),
                    "private": b.private,
                    "content": b.content(),
                }
                for b in sorted(self.dev.bundles.values(), key=lambda b: b.id)
            ]
        )

    # ------------------------------------------------------------------ source

    def _ajax_code(self, kind: str, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("id", "")
        item = self.dev.code.get((kind, int(raw))) if raw.isdigit() else None
        if item is None:
            return self.http.json({"status": "error", "errorMessage": f"No {kind} with id {raw}"})
        return self.http.json(
            {
                "id": item.id,
                "name": item.name,
                "version": item.version,
                "source": item.source,
                "status": "ok",
            }
        )

    async def app_code(self, request: web.Request) -> web.StreamResponse:
        return self._ajax_code("app", request)

    async def driver_code(self, request: web.Request) -> web.StreamResponse:
        return self._ajax_code("driver", request)

    async def library_code(self, request: web.Request) -> web.StreamResponse:
        raw = request.match_info["id"]
        item = self.dev.code.get(("library", int(raw))) if raw.isdigit() else None
        if item is None:
            return self.http.json([])
        apps, drivers = self._used_by_libs(item)
        return self.http.json(
            [
                {
                    "id": item.id,
                    "version": item.version,
                    "name": item.name,
                    "namespace": item.namespace,
                    "source": item.source,
                    "lastModified": _ms(item),
                    "usedByAppTypes": apps,
                    "usedByDeviceTypes": drivers,
                }
            ]
        )

    # ------------------------------------------------------------------ save

    async def _save(self, kind: str, request: web.Request) -> web.StreamResponse:
        if request.content_type != "application/json":
            return self.http.result(False, "Unknown error occurred")
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.http.result(False, "Unknown error occurred")
        if not isinstance(body, dict) or not isinstance(body.get("source"), str):
            return self.http.result(False, "Unknown error occurred")
        raw_id = body.get("id")
        source: str = body["source"]
        existing: CodeItem | None = None
        if raw_id not in (None, "", 0):
            existing = self.dev.code.get((kind, int(str(raw_id))))
            if existing is None:
                return self.http.result(False, f"No {kind} with id {raw_id}")
            version = body.get("version")
            if version is None or int(version) != existing.version:
                return self.http.json(
                    {
                        "success": False,
                        "message": "Version mismatch: the code was modified since it was "
                        f"loaded (current version {existing.version}, sent {version}). "
                        "Reload and try again.",
                    }
                )
        error, meta = compile_source(self.dev, kind, source)
        if error:
            return self.http.json({"success": False, "id": raw_id, "message": error})
        for other in self.dev.items(kind):
            if (
                other is not existing
                and other.name == meta["name"]
                and other.namespace == meta["namespace"]
            ):
                return self.http.json(
                    {
                        "success": False,
                        "message": f"A {kind} named {meta['namespace']}.{meta['name']} "
                        f"already exists (id {other.id})",
                    }
                )
        if existing is None:
            existing = self.dev.add_code(
                CodeItem(
                    self.dev.alloc_code_id(kind),
                    kind,
                    meta["name"],
                    meta["namespace"],
                    source,
                    version=1,
                    modified=utcnow(),
                    author=meta.get("author", ""),
                    description=meta.get("description", ""),
                )
            )
        else:
            existing.source = source
            existing.version += 1
            existing.name = meta["name"]
            existing.namespace = meta["namespace"]
            existing.modified = utcnow()
        return self.http.json(
            {"success": True, "id": existing.id, "version": existing.version, "message": None}
        )

    async def save_app(self, request: web.Request) -> web.StreamResponse:
        return await self._save("app", request)

    async def save_driver(self, request: web.Request) -> web.StreamResponse:
        return await self._save("driver", request)

    async def save_library(self, request: web.Request) -> web.StreamResponse:
        return await self._save("library", request)

    # ------------------------------------------------------------------ delete

    def _item(self, kind: str, request: web.Request) -> CodeItem | None:
        raw = request.match_info["id"]
        return self.dev.code.get((kind, int(raw))) if raw.isdigit() else None

    async def delete_app(self, request: web.Request) -> web.StreamResponse:
        item = self._item("app", request)
        if item is None:
            return self.http.json({"status": False, "errorMessage": "App not found"})
        if self._used_by_apps(item.id):
            return self.http.json(
                {
                    "status": False,
                    "errorMessage": "Cannot delete: there are installed instances of this app. "
                    "Remove them first.",
                }
            )
        del self.dev.code[("app", item.id)]
        return self.http.json({"status": True})

    async def delete_driver(self, request: web.Request) -> web.StreamResponse:
        item = self._item("driver", request)
        if item is None:
            return self.http.json({"status": False, "errorMessage": "Driver not found"})
        if any(d.driver.name == item.name for d in self.st.devices.values()):
            return self.http.json(
                {"status": False, "errorMessage": "Cannot delete: devices use this driver."}
            )
        del self.dev.code[("driver", item.id)]
        return self.http.json({"status": True})

    async def delete_library(self, request: web.Request) -> web.StreamResponse:
        item = self._item("library", request)
        if item is None:
            return self.http.result(False, "Library not found")
        del self.dev.code[("library", item.id)]
        return self.http.result(True)

    # ------------------------------------------------------------------ bundles

    async def bundle_install(self, request: web.Request) -> web.StreamResponse:
        url = request.query.get("url", "")
        template = self.dev.bundle_urls.get(url)
        if template is None:
            return self.http.json(
                {"success": False, "message": f"Error downloading bundle from {url}: 404"}
            )
        new_id = max(self.dev.bundles, default=0) + 1
        self.dev.bundles[new_id] = Bundle(
            new_id,
            template.name,
            template.namespace,
            private=request.query.get("private") == "true",
            apps=list(template.apps),
            drivers=list(template.drivers),
            libraries=list(template.libraries),
        )
        return self.http.result(True)

    async def bundle_list_page(self, request: web.Request) -> web.StreamResponse:
        names = "".join(f"<li>{b.name}</li>" for b in self.dev.bundles.values())
        return self.http.html_page(f"<html><body><ul>{names}</ul></body></html>")

    async def bundle_delete(self, request: web.Request) -> web.StreamResponse:
        raw = request.match_info["id"]
        if raw.isdigit():
            self.dev.bundles.pop(int(raw), None)
        return redirect("/bundle/list")

    async def bundle_export(self, request: web.Request) -> web.StreamResponse:
        raw = request.match_info["id"]
        bundle = self.dev.bundles.get(int(raw)) if raw.isdigit() else None
        if bundle is None:
            return self.http.not_found()
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr("install.txt", f"{bundle.namespace}.{bundle.name}\n")
            for c in self.dev.items("app"):
                if c.name in bundle.apps:
                    zf.writestr(f"{c.namespace}.{c.name}.groovy", c.source)
        return web.Response(body=buf.getvalue(), content_type="application/zip")
