"""Apps/Drivers/Libraries code and bundles (reference §11). Decisions: see ``devstate.py``."""

from __future__ import annotations

import io
import json
import zipfile
from functools import partial
from html import escape
from typing import Any

from aiohttp import web

from .clock import utcnow
from .devstate import Bundle, CodeItem, compile_source, source_capabilities
from .home import Home
from .responses import Responses, redirect
from .routes_code_oauth import setup as setup_oauth
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
    for kind in ("app", "driver"):  # the legacy editor's forms
        add.add_post(f"/{kind}/save", partial(r.form_create, kind))
        add.add_post(f"/{kind}/ajax/update", partial(r.form_update, kind))
        add.add_get(f"/{kind}/editor/{{id}}", r.editor_page)
    add.add_get("/app/edit/deleteJson/{id}", r.delete_app)
    add.add_get("/app/edit/deleteJsonSafe/{id}", r.delete_app)
    add.add_get("/driver/editor/deleteJson/{id}", r.delete_driver)
    add.add_get("/library/edit/deleteJson/{id}", r.delete_library)
    add.add_get("/bundle2/uploadZipFromUrl", r.bundle_install)
    add.add_get("/bundle/deleteJson/{id}", r.bundle_delete_json)
    add.add_get("/bundle/delete/{id}", r.bundle_delete)
    add.add_get("/bundle/export/{id}", r.bundle_export)
    add.add_get("/bundle/list", r.bundle_list_page)
    setup_oauth(app, home, http)  # the app code editor's detail read and OAuth dialog


def _ident(item: CodeItem | Bundle) -> dict[str, Any]:
    """The ``id``, ``name`` and ``namespace`` that lead every code and bundle listing entry."""
    return {"id": item.id, "name": item.name, "namespace": item.namespace}


def _ms(item: CodeItem) -> int | None:
    return int(item.modified.timestamp() * 1000) if item.modified else None


def _stamp(item: CodeItem) -> str | None:
    """``lastModified`` as the library pages write it (``2026-05-08T00:00:00+0000``)."""
    return item.modified.strftime("%Y-%m-%dT%H:%M:%S%z") if item.modified else None


def _firmware(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p.isdigit())


def _legacy_page(kind: str, message: str | None) -> str:
    """The legacy editor's page: the compiler's message in its alert box, when there is one."""
    alert = ""
    if message:
        alert = (
            '<div class="alert alert-danger"><div class="alert-close close" '
            'data-dismiss="alert" aria-label="Close"><span aria-hidden="true">&times;</span>'
            f"</div>{escape(message)}</div>"
        )
    form = f'<form method="post" action="/{kind}/save"><textarea name="source"></textarea></form>'
    return f"<html><body>{alert}{form}</body></html>"


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
                    **_ident(c),
                    "version": c.version,
                    "private": False,
                    "lastModified": _stamp(c),
                    "usedByAppTypes": ", ".join(apps),
                    "usedByDeviceTypes": ", ".join(drivers),
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
        return self.http.json({"status": "ok", "version": item.version, "source": item.source})

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
                    **_ident(item),
                    "version": item.version,
                    "author": item.author,
                    "category": None,
                    "description": item.description,
                    "type": "usr",
                    "documentationLink": None,
                    "updateTime": _stamp(item),
                    "usedByAppTypes": ", ".join(apps),
                    "usedByDeviceTypes": ", ".join(drivers),
                    "usedByAppTypeCount": len(apps),
                    "usedByDeviceTypeCount": len(drivers),
                    "private": False,
                    "lastModified": _stamp(item),
                    "source": item.source,
                }
            ]
        )

    # ------------------------------------------------------------------ save

    def _apply_save(
        self, kind: str, raw_id: Any, version: Any, source: str
    ) -> tuple[CodeItem | None, str | None]:
        """Compile and store one save (both editors): the item, or the hub's message."""
        existing: CodeItem | None = None
        if str(raw_id or "").strip() not in ("", "0", "None", "null"):
            existing = self.dev.code.get((kind, int(str(raw_id))))
            if existing is None:
                return None, f"No {kind} with id {raw_id}"
            if version in (None, "") or int(version) != existing.version:
                return None, (
                    "Version mismatch: the code was modified since it was loaded (current "
                    f"version {existing.version}, sent {version}). Reload and try again."
                )
        error, meta = compile_source(self.dev, kind, source)
        if error:
            return None, error
        for other in self.dev.items(kind):
            if (
                other is not existing
                and other.name == meta["name"]
                and other.namespace == meta["namespace"]
            ):
                return None, (
                    f"A {kind} named {meta['namespace']}.{meta['name']} already exists "
                    f"(id {other.id})"
                )
        caps = source_capabilities(source) if kind == "driver" else []
        if existing is None:
            return self.dev.add_code(
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
                    capabilities=caps,
                )
            ), None
        existing.source = source
        existing.capabilities = caps
        existing.version += 1
        existing.name = meta["name"]
        existing.namespace = meta["namespace"]
        existing.modified = utcnow()
        return existing, None

    async def _save(self, kind: str, request: web.Request) -> web.StreamResponse:
        """``saveOrUpdateJson``: the 2.5 editor's JSON save."""
        if request.content_type != "application/json":
            return self.http.result(False, "Unknown error occurred")
        try:
            body = json.loads(await request.text())
        except ValueError:
            return self.http.result(False, "Unknown error occurred")
        if not isinstance(body, dict) or not isinstance(body.get("source"), str):
            return self.http.result(False, "Unknown error occurred")
        item, error = self._apply_save(kind, body.get("id"), body.get("version"), body["source"])
        answer: dict[str, Any] = {"success": item is not None, "id": body.get("id")}
        if item is not None:
            answer["id"] = item.id
        answer["message"] = error
        if kind == "library":  # the library editor's answer also carries the new version
            answer["version"] = item.version if item is not None else None
        return self.http.json(answer)

    def _legacy_editor(self) -> bool:
        """Firmware before 2.5 still saves through the legacy editor's forms."""
        return _firmware(self.st.version) < (2, 5)

    async def form_create(self, kind: str, request: web.Request) -> web.StreamResponse:
        """``/<kind>/save``: a redirect to the new item's editor, or the page with the error."""
        form = await request.post()
        source = form.get("source")
        if not self._legacy_editor() or not isinstance(source, str):
            return self.http.html_page(_legacy_page(kind, None))  # 2.5: creates nothing
        item, error = self._apply_save(kind, None, None, source)
        if item is None:
            return self.http.html_page(_legacy_page(kind, error))
        return redirect(f"/{kind}/editor/{item.id}")

    async def form_update(self, kind: str, request: web.Request) -> web.StreamResponse:
        """``/<kind>/ajax/update``: ``{status: "success"}``, or ``"error"`` + ``errorMessage``."""
        form = await request.post()
        source = form.get("source")
        if not isinstance(source, str) or not str(form.get("id", "")).isdigit():
            return self.http.json({"status": "error", "errorMessage": "Unknown error occurred"})
        item, error = self._apply_save(kind, form.get("id"), form.get("version"), source)
        if item is None:
            return self.http.json({"status": "error", "errorMessage": error})
        return self.http.json({"status": "success", "errorMessage": None})

    async def editor_page(self, request: web.Request) -> web.StreamResponse:
        return self.http.html_page(f"<html><body>editor {request.match_info['id']}</body></html>")

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

    def _delete(self, kind: str, item: CodeItem | None, in_use: str | None) -> web.Response:
        """Apps and drivers answer ``status`` (the string ``"true"``, or ``"error"`` with
        ``errorMessage``); libraries ``{success, message}``. The lie knobs: see DevState."""
        if item is None or in_use:
            message = in_use or f"{kind.capitalize()} not found"
            if kind == "library":
                return self.http.result(False, message)
            return self.http.json({"status": "error", "errorMessage": message})
        if not self.dev.delete_ignored:
            del self.dev.code[(kind, item.id)]
        if self.dev.delete_answers_failure:
            message = "Unable to delete"
            if kind == "library":
                return self.http.result(False, message)
            return self.http.json({"status": "error", "errorMessage": message})
        if kind == "library":
            return self.http.result(True)
        return self.http.json({"status": "true"})

    async def delete_app(self, request: web.Request) -> web.StreamResponse:
        item = self._item("app", request)
        in_use = item is not None and bool(self._used_by_apps(item.id))
        return self._delete(
            "app",
            item,
            "Cannot delete: there are installed instances of this app. Remove them first."
            if in_use
            else None,
        )

    async def delete_driver(self, request: web.Request) -> web.StreamResponse:
        item = self._item("driver", request)
        in_use = item is not None and any(
            d.driver.name == item.name for d in self.st.devices.values()
        )
        return self._delete(
            "driver", item, "Cannot delete: devices use this driver." if in_use else None
        )

    async def delete_library(self, request: web.Request) -> web.StreamResponse:
        return self._delete("library", self._item("library", request), None)

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

    async def bundle_delete_json(self, request: web.Request) -> web.StreamResponse:
        """``{success, message}``; ``full=true`` also deletes the code the bundle holds."""
        raw = request.match_info["id"]
        bundle = self.dev.bundles.get(int(raw)) if raw.isdigit() else None
        if bundle is None:
            return self.http.result(False, f"Bundle {raw} not found")
        if request.query.get("full") == "true":
            names = {"app": bundle.apps, "driver": bundle.drivers, "library": bundle.libraries}
            for kind, members in names.items():
                for item in self.dev.items(kind):
                    if item.name in members:
                        del self.dev.code[(kind, item.id)]
        if not self.dev.delete_ignored:
            del self.dev.bundles[bundle.id]
        return self.http.result(not self.dev.delete_answers_failure)

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
