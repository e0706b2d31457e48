"""The App Cloner system app: export, import and clone classic apps (reference §12.3, §12.6).

The flow the hub UI drives, as modelled here (each step's precondition is what the reference
observed on real hubs; a step whose precondition is missing is silently ignored, as there):

1. ``GET /installedapp/sysAppApi/appCloner/app/<sourceId>`` creates a hidden cloner instance
   (type ``App Cloner``, label ``Export/Import/Clone``) and answers ``302``. Location is
   ``/apps/api/<clonerId>/app/<sourceId>?access_token=<t>`` (current firmware) or, with
   ``knobs.legacy_redirect``, ``/installedapp/configure/<clonerId>`` (older firmware). An
   unknown source is a 404 page.
2. ``GET`` of that Location (the source-context render) seeds the cloner with its source; the
   legacy ``/installedapp/configure/<clonerId>`` page does the same. A wrong token is a 401.
   Unseeded, the cloner's page has no buttons and every click does nothing.
3. ``GET /installedapp/configure/json/<clonerId>/main`` renders the current view (``source``:
   ``exportRuleButton``, ``ruleUpload`` (file-text), ``cloneRuleButton``; ``confirmation``: a
   ``_action_href_name|importRule|<idx>`` button in a paragraph plus ``cancelUpload``;
   ``importRule``: ``newName<originalId>`` (text) and ``importNow``). It also "primes" the
   cloner: an upload posted before any configure/json read is dropped.
4. ``POST /installedapp/btn`` records a click; the form refresh (``POST
   /installedapp/update/json``) that follows applies it. A refresh must carry the type
   markers of the view on screen (``<input>.type`` for each of its inputs) and ``url`` = the
   cloner's own configure URL, else it changes nothing. With ``knobs.swallow_first_click``
   (default on) the first ``cloneRuleButton`` and the first ``importNow`` click of each cloner
   are lost, as observed.
5. Export: ``exportRuleButton`` + a form refresh on the source view answers the page with a
   download input whose ``filecontent`` is the export JSON (also mirrored in ``body``). It is
   not stored: a later read shows the plain source view. With ``knobs.over_escape`` (default
   on) multi-select enum values inside it carry one extra level of escaping (``\\\\"``), so the
   text is not valid JSON, as observed. A rule with a Required Expression exports nothing.
6. Clone: ``cloneRuleButton`` + a refresh whose ``referrer`` is the source-context URL moves to
   ``confirmation`` (href index 0). Import: ``settings[ruleUpload]=<json>`` on the source view,
   sent with ``referrer`` = the cloner's own configure URL, moves to ``confirmation`` (href
   index 55); invalid JSON or a file without ``appReplacements`` stays on the source view with
   a page error. Referrers are compared by path.
7. ``_action_href_name|importRule|<idx>`` with the current index opens ``importRule``;
   ``settings[newName<originalId>]`` sets the new label (default: the original label);
   ``importNow`` + a refresh on ``importRule`` creates the app: under the parent of the
   cloner's source, enabled, with its child apps, settings, state (paused included) and device
   uses. Devices of the export that no longer exist are dropped and the app gets a
   ``**BROKEN**`` line. Every press that lands creates an app (press twice, get two).
   ``knobs.slow_create`` delays the app's appearance; ``knobs.error_after_create`` makes the
   creating refresh answer HTTP 500 although the app is made.
8. The cloner stays until ``/installedapp/forcedelete/<clonerId>/quiet``.

Export document (emulator's shape; the reference fixes only the two replacement maps):
``{"exportVersion": 1, "appReplacements": {"<id>": {"appLabel", "appTypeName",
"appTypeNamespace", "parentAppId"}}, "deviceReplacements": {"<id>": {"deviceLabel",
"deviceTypeName"}}, "appData": {"<id>": {"settings": [...], "ruleText": [...], "buttons":
[...], "state": {...}}}}``; the first app is the source, its descendants follow.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from .devstate import AppInternals
from .home import Home
from .model import App
from .responses import Responses, redirect
from .routes_apps import page_answer, page_model_answer
from .routes_common import AppPages, Routes

CLONER_TYPE = "App Cloner"
CLONER_LABEL = "Export/Import/Clone"
CLONER_TYPE_ID = 150
UPLOAD_HREF_INDEX = 55
CLONER_PAGE = "<html><body><div id='cloner'>Export/Import/Clone</div></body>"
_HREF_RE = re.compile(r"^_action_href_name\|(\w+)\|(\d+)$")
# what a form refresh must carry for each view (its inputs' type markers)
VIEW_INPUTS = {
    "source": ("exportRuleButton.type", "ruleUpload.type", "cloneRuleButton.type"),
    "confirmation": ("cancelUpload.type",),
    "importRule": ("importNow.type",),
}


@dataclass
class ClonerKnobs:
    """Switches for behaviours observed on real hubs (see the module docstring)."""

    swallow_first_click: bool = True
    legacy_redirect: bool = False
    over_escape: bool = True
    slow_create: float = 0.0  # seconds before a created app shows up (it still will)
    error_after_create: bool = False  # the refresh that creates the app answers HTTP 500


@dataclass
class ClonerSession:
    id: int
    source_id: int
    token: str
    location: str
    seeded: bool = False
    primed: bool = False
    view: str = "source"  # source | confirmation | importRule
    pending: str | None = None
    payload: dict[str, Any] | None = None
    href_index: int = 0
    new_name: str | None = None
    page_error: str | None = None
    clicks: dict[str, int] = field(default_factory=dict)
    created: list[int] = field(default_factory=list)


def setup(app: web.Application, r: ClonerRoutes) -> None:
    """Register before routes_maker (``/apps/api``) and routes_hubvars (shared paths)."""
    add = app.router
    add.add_get("/installedapp/sysAppApi/appCloner/app/{src}", r.entry)
    add.add_get("/apps/api/{cid}/app/{src}", r.source_context)
    add.add_get("/installedapp/configure/{id}", r.configure_page)
    add.add_get("/installedapp/configure/json/{id}", r.configure_json)
    add.add_get("/installedapp/configure/json/{id}/{page}", r.configure_json)
    add.add_post("/installedapp/btn", r.button)
    add.add_post("/installedapp/update/json", r.update)


def _plain(label: str | None) -> str:
    return re.sub(r"<[^>]+>", "", label or "").strip()


class ClonerRoutes(Routes):
    """The cloner instances; requests for other apps go to ``fallback``."""

    def __init__(self, home: Home, http: Responses, *, fallback: AppPages) -> None:
        super().__init__(home, http)
        self.fallback = fallback
        self.knobs = ClonerKnobs()
        self.sessions: dict[int, ClonerSession] = {}

    def _session(self, raw: str) -> ClonerSession | None:
        if not raw.isdigit():
            return None
        s = self.sessions.get(int(raw))
        if s is None or s.id not in self.apps:  # force-deleted
            return None
        return s

    # ------------------------------------------------------------------ entry

    async def entry(self, request: web.Request) -> web.StreamResponse:
        raw = request.match_info["src"]
        source = self.apps.get(int(raw)) if raw.isdigit() else None
        if source is None:
            return self.http.not_found()
        cid = self.dev.alloc_app_id()
        self.apps[cid] = App(
            cid, CLONER_TYPE, CLONER_LABEL, CLONER_TYPE, hidden=True, app_type_id=CLONER_TYPE_ID
        )
        self.dev.internals[cid] = AppInternals(page_title=CLONER_LABEL)
        token = secrets.token_hex(8)
        if self.knobs.legacy_redirect:
            location = f"/installedapp/configure/{cid}"
        else:
            location = f"/apps/api/{cid}/app/{source.id}?access_token={token}"
        self.sessions[cid] = ClonerSession(cid, source.id, token, location)
        return redirect(location)

    async def source_context(self, request: web.Request) -> web.StreamResponse:
        s = self._session(request.match_info["cid"])
        if s is None or request.match_info["src"] != str(s.source_id):
            return self.http.not_found()
        if request.query.get("access_token") != s.token:
            return self.http.text("Unauthorized", status=401)
        s.seeded = True
        return self.http.html_page(CLONER_PAGE)

    async def configure_page(self, request: web.Request) -> web.StreamResponse:
        s = self._session(request.match_info["id"])
        if s is None:
            return await self.fallback.configure_page(request)
        if s.location == f"/installedapp/configure/{s.id}":
            s.seeded = True
        return self.http.html_page(CLONER_PAGE)

    async def configure_json(self, request: web.Request) -> web.StreamResponse:
        s = self._session(request.match_info["id"])
        if s is None:
            return await self.fallback.configure(request)
        s.primed = True
        return self.http.json(self._page(s))

    # ------------------------------------------------------------------ clicks and refreshes

    async def button(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        s = self._session(str(form.get("id", "")))
        if s is None:
            return await self.fallback.button(request)
        name = str(form.get("name", ""))
        s.clicks[name] = s.clicks.get(name, 0) + 1
        swallowable = name in ("cloneRuleButton", "importNow")
        if swallowable and self.knobs.swallow_first_click and s.clicks[name] == 1:
            return page_answer(self.http, True)
        if s.seeded:
            s.pending = name
        return page_answer(self.http, True)

    async def update(self, request: web.Request) -> web.StreamResponse:
        form = await request.post()
        s = self._session(str(form.get("id", "")))
        if s is None:
            return await self.fallback.update(request)
        values = {str(k): str(v) for k, v in form.items()}
        referrer = urlsplit(values.get("referrer", "")).path
        page = values.get("currentPage", "main")
        pending, s.pending = s.pending, None
        s.page_error = None
        export_text: str | None = None
        upload = values.get("settings[ruleUpload]", "")
        own_url = urlsplit(values.get("url", "")).path == f"/installedapp/configure/{s.id}/main"
        if not s.seeded or not own_url or not all(k in values for k in VIEW_INPUTS[s.view]):
            # the wrong view's fields (or a foreign page) stall the cloner silently
            return page_model_answer(self.http, self._page(s))
        if s.view == "source" and upload and s.primed:
            if referrer == f"/installedapp/configure/{s.id}/main":
                self._take_upload(s, upload)
        elif s.view == "source" and pending == "exportRuleButton":
            export_text = self._export_text(s.source_id)
        elif (
            s.view == "source"
            and pending == "cloneRuleButton"
            and referrer == urlsplit(s.location).path
        ):
            s.payload = self._export(s.source_id)
            s.view, s.href_index = "confirmation", 0
        for key in values:
            m = _HREF_RE.match(key)
            if m and m.group(1) == "importRule" and s.view == "confirmation":
                s.view = "importRule" if int(m.group(2)) == s.href_index else s.view
        if s.view == "importRule" and s.payload is not None:
            original = next(iter(s.payload["appReplacements"]))
            if (name := values.get(f"settings[newName{original}]")) is not None:
                s.new_name = name.strip() or None
            if pending == "importNow" and page == "importRule":
                # every press that lands makes an app (a second press, a second app)
                self._schedule_create(s)
                if self.knobs.error_after_create:
                    return self.http.error(500, "Server Error")
        return page_model_answer(self.http, self._page(s, export_text=export_text))

    def _schedule_create(self, s: ClonerSession) -> None:
        if self.knobs.slow_create <= 0:
            s.created += self._create(s)
            return

        def later() -> None:
            s.created += self._create(s)

        asyncio.get_running_loop().call_later(self.knobs.slow_create, later)

    def _take_upload(self, s: ClonerSession, upload: str) -> None:
        try:
            doc = json.loads(upload)
        except ValueError:
            s.page_error = "The selected file is not a valid export file."
            return
        reps = doc.get("appReplacements") if isinstance(doc, dict) else None
        if not isinstance(reps, dict) or not reps:
            s.page_error = "The selected file is not a valid export file."
            return
        s.payload = doc
        s.view, s.href_index = "confirmation", UPLOAD_HREF_INDEX

    # ------------------------------------------------------------------ pages

    def _page(self, s: ClonerSession, *, export_text: str | None = None) -> dict[str, Any]:
        source = self.apps.get(s.source_id)
        inputs: list[dict[str, Any]] = []
        body: list[dict[str, Any]] = []
        page_name = "main"
        if not s.seeded:
            body.append({"element": "paragraph", "description": "No app selected."})
        elif s.view == "source":
            label = _plain(source.label or source.name) if source else f"app {s.source_id}"
            body.append({"element": "paragraph", "description": f"<b>Source</b>: {label}"})
            inputs = [
                {"name": "exportRuleButton", "type": "button", "title": "Export"},
                {"name": "ruleUpload", "type": "file-text", "title": "Import from a file"},
                {"name": "cloneRuleButton", "type": "button", "title": "Clone"},
            ]
            if export_text is not None:
                file_name = re.sub(r"\W+", "_", label) + ".json"
                inputs.append(
                    {
                        "name": "exportDownload",
                        "type": "download",
                        "title": "Download",
                        "filename": file_name,
                        "filecontent": export_text,
                    }
                )
                body.append({"element": "download", "filecontent": export_text})
        elif s.view == "confirmation":
            assert s.payload is not None
            first = next(iter(s.payload["appReplacements"].values()))
            title = "Clone" if s.href_index == 0 else "Restore or import"
            body.append(
                {
                    "element": "paragraph",
                    "description": f"{title} <b>{first.get('appLabel')}</b>: "
                    f"<button name='_action_href_name|importRule|{s.href_index}'>"
                    f"{title}...</button>",
                }
            )
            inputs = [{"name": "cancelUpload", "type": "button", "title": "Cancel"}]
        else:
            assert s.payload is not None
            original, first = next(iter(s.payload["appReplacements"].items()))
            page_name = "importRule"
            inputs = [
                {
                    "name": f"newName{original}",
                    "type": "text",
                    "title": "Name for the new app",
                    "defaultValue": first.get("appLabel"),
                    "value": s.new_name,
                },
                {"name": "importNow", "type": "button", "title": "Import"},
            ]
            if s.created:
                body.append({"element": "paragraph", "description": f"Created app {s.created[0]}."})
        return {
            "app": {
                "id": s.id,
                "name": CLONER_TYPE,
                "label": CLONER_LABEL,
                "installed": True,
                "version": 1,
                "parentAppId": None,
                "appType": {"name": CLONER_TYPE, "namespace": "hubitat"},
                "disabled": False,
            },
            "configPage": {
                "name": page_name,
                "title": CLONER_LABEL,
                "install": False,
                "error": s.page_error,
                "sections": [{"title": "", "input": inputs, "body": body}],
            },
            "settings": {},
            "childApps": [],
        }

    # ------------------------------------------------------------------ export / create

    def _tree(self, root: int) -> list[int]:
        out = [root]
        for kid in sorted(a.id for a in self.apps.values() if a.parent_id == root):
            out.extend(self._tree(kid))
        return out

    def _export(self, source_id: int) -> dict[str, Any]:
        devices = self.st.devices
        app_reps: dict[str, Any] = {}
        dev_reps: dict[str, Any] = {}
        data: dict[str, Any] = {}
        for app_id in self._tree(source_id):
            app = self.apps[app_id]
            info = self.dev.internals.get(app_id) or AppInternals(page_title=app.name)
            app_reps[str(app_id)] = {
                "appLabel": _plain(app.label or app.name),
                "appTypeName": app.type,
                "appTypeNamespace": "hubitat",
                "parentAppId": app.parent_id,
            }
            used = {d.id for d in devices.values() if app_id in d.apps_using}
            for inp in info.inputs:
                used.update(int(x) for x in inp.get("deviceIdsForDeviceList") or [])
            for dev_id in sorted(used):
                if dev_id in devices:
                    d = devices[dev_id]
                    dev_reps[str(dev_id)] = {
                        "deviceLabel": d.display_name,
                        "deviceTypeName": d.driver.name,
                    }
            data[str(app_id)] = {
                "settings": [dict(i) for i in info.inputs],
                "ruleText": list(info.paragraphs),
                "buttons": [dict(b) for b in info.buttons],
                "state": json.loads(json.dumps(info.state, default=str)),
                "devices": sorted(used),
            }
        return {
            "exportVersion": 1,
            "appReplacements": app_reps,
            "deviceReplacements": dev_reps,
            "appData": data,
        }

    def _export_text(self, source_id: int) -> str | None:
        info = self.dev.internals.get(source_id)
        if info and any("Required Expression" in p for p in info.paragraphs):
            return None  # the cloner renders no download for such rules
        doc = self._export(source_id)
        text = json.dumps(doc)
        if not self.knobs.over_escape:
            return text
        for app_data in doc["appData"].values():
            for inp in app_data["settings"]:
                value = inp.get("value")
                if inp.get("multiple") and isinstance(value, str) and value.startswith("["):
                    canonical = json.dumps(value)[1:-1]
                    text = text.replace(canonical, canonical.replace('\\"', '\\\\"'))
        return text

    def _create(self, s: ClonerSession) -> list[int]:
        assert s.payload is not None
        doc = s.payload
        seed = self.apps.get(s.source_id)
        target_parent = seed.parent_id if seed else None
        devices = self.st.devices
        raw_data = doc.get("appData")
        data: dict[str, Any] = raw_data if isinstance(raw_data, dict) else {}
        id_map: dict[str, int] = {}
        created: list[int] = []
        for n, (old_id, rep) in enumerate(doc["appReplacements"].items()):
            rep = rep if isinstance(rep, dict) else {}
            new_id = self.dev.alloc_app_id()
            id_map[old_id] = new_id
            if n == 0:
                parent = target_parent
                label = s.new_name or str(rep.get("appLabel") or "Imported app")
            else:
                parent = id_map.get(str(rep.get("parentAppId")), created[0])
                label = str(rep.get("appLabel") or "Imported app")
            app_type = str(rep.get("appTypeName") or "Imported App")
            self.apps[new_id] = App(new_id, app_type, label, app_type, parent_id=parent)
            raw_item = data.get(old_id)
            item: dict[str, Any] = raw_item if isinstance(raw_item, dict) else {}
            missing = [d for d in item.get("devices") or [] if int(d) not in devices]
            paragraphs = [str(p) for p in item.get("ruleText") or []]
            paragraphs += [f"**BROKEN** missing device {d}" for d in missing]
            inputs = []
            for inp in item.get("settings") or []:
                if not isinstance(inp, dict):
                    continue
                inp = dict(inp)
                if inp.get("name") == "origLabel":
                    inp["value"] = label
                if "deviceIdsForDeviceList" in inp:
                    inp["deviceIdsForDeviceList"] = [
                        x for x in inp["deviceIdsForDeviceList"] if int(x) in devices
                    ]
                inputs.append(inp)
            self.dev.internals[new_id] = AppInternals(
                page_title=label,
                inputs=inputs,
                paragraphs=paragraphs,
                buttons=[dict(b) for b in item.get("buttons") or [] if isinstance(b, dict)],
                state=dict(item.get("state") or {}),
            )
            for dev_id in item.get("devices") or []:
                if int(dev_id) in devices:
                    devices[int(dev_id)].apps_using.append(new_id)
            created.append(new_id)
        return created
