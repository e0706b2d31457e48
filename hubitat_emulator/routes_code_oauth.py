"""OAuth on app code: the Apps Code editor's detail read and its OAuth dialog.

- ``GET /app/list/single/data/<id>``: a list of one app code item as the editor loads it
  (``id, name, version, source, oauthClientId, oauthClientSecret, importUrl,
  installedAppCount, private``); ``[]`` when there is no such code.
- ``GET /app/updateOAuth?id&oauthEnabled&clientId&clientSecret&refreshSecret``: what the
  dialog sends. Enabling keeps the client id and secret sent (the dialog sends the current
  ones back), generates any that is empty, and a new secret when ``refreshSecret=true``;
  the answer is ``{success, clientId, clientSecret}`` (``{success: false, message}`` for a
  missing app). ``oauthEnabled=false`` (the on-hub server sends it; the dialog never does) turns the
  listing's ``oauth`` flag off and keeps the credentials.
- Knobs: ``dev.oauth_refusal`` (the hub answers ``{success: false, message}`` and changes
  nothing), ``dev.oauth_ignored`` (it answers success and changes nothing).
"""

from __future__ import annotations

import secrets
import uuid

from aiohttp import web

from .devstate import CodeItem
from .home import Home
from .responses import Responses
from .routes_common import Routes


def setup(app: web.Application, home: Home, http: Responses) -> None:
    r = _OAuthRoutes(home, http)
    app.router.add_get("/app/list/single/data/{id}", r.app_detail)
    app.router.add_get("/app/updateOAuth", r.update_oauth)


class _OAuthRoutes(Routes):
    def _app(self, raw: str) -> CodeItem | None:
        return self.dev.code.get(("app", int(raw))) if raw.isdigit() else None

    async def app_detail(self, request: web.Request) -> web.StreamResponse:
        item = self._app(request.match_info["id"])
        if item is None:
            return self.http.json([])
        users = [a for a in self.st.apps.values() if a.user and a.app_type_id == item.id]
        return self.http.json(
            [
                {
                    "id": item.id,
                    "name": item.name,
                    "version": item.version,
                    "source": item.source,
                    "oauthClientId": item.oauth_client_id or None,
                    "oauthClientSecret": item.oauth_client_secret or None,
                    "importUrl": None,
                    "installedAppCount": len(users),
                    "private": False,
                }
            ]
        )

    async def update_oauth(self, request: web.Request) -> web.StreamResponse:
        q = request.query
        item = self._app(q.get("id", ""))
        if item is None:
            return self.http.result(False, f"App {q.get('id', '')} not found")
        if self.dev.oauth_refusal:
            return self.http.result(False, self.dev.oauth_refusal)
        enable = q.get("oauthEnabled", "").lower() == "true"
        client_id = q.get("clientId", "") or item.oauth_client_id or str(uuid.uuid4())
        secret = q.get("clientSecret", "") or item.oauth_client_secret
        if not secret or q.get("refreshSecret", "").lower() == "true":
            secret = str(uuid.UUID(bytes=secrets.token_bytes(16)))
        if not self.dev.oauth_ignored:
            item.oauth = enable
            if enable:
                item.oauth_client_id, item.oauth_client_secret = client_id, secret
        shown_id = item.oauth_client_id if self.dev.oauth_ignored else client_id
        return self.http.json(
            {"success": True, "clientId": shown_id or None, "clientSecret": secret}
        )
