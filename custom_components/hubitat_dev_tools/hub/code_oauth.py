"""OAuth on app code (the Apps Code editor's OAuth dialog; hub reference §11.3).

- The editor loads ``GET /app/list/single/data/<id>`` (a list of one app code item with
  ``oauthClientId`` and ``oauthClientSecret``) and its dialog sends ``GET /app/updateOAuth``
  with ``id``, ``oauthEnabled``, ``clientId``, ``clientSecret`` and ``refreshSecret``: the
  current id and secret go back unchanged (empty on an app without OAuth: the hub generates
  them), so enabling again never replaces a live client's credentials.
- The dialog only ever sends ``oauthEnabled=true``; the on-hub server sends ``false`` to disable.
- The client SECRET never leaves this module: it is read only to be sent back, the
  answer's copy is dropped, and any error text is scrubbed of it.
- Whether it worked is read back (the Apps Code listing's ``oauth`` flag and the detail's
  client id), never taken from the answer alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from .answers import redact_snippet
from .client import HubClient
from .effects import poll_until
from .errors import HubBadResponseError, HubError, HubNotFoundError, HubRefusedError
from .models import norm_id

OAUTH_WAIT = 2.0
OAUTH_STEP = 0.5


@dataclass(frozen=True, slots=True)
class AppOAuth:
    """An app code item's OAuth state (never its secret)."""

    enabled: bool
    client_id: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"enabled": self.enabled, "client_id": self.client_id}


@dataclass(frozen=True, slots=True)
class _Detail:
    """What the editor's detail read says about OAuth (the secret kept for sending back)."""

    client_id: str
    secret: str
    enabled: bool | None  # when the detail itself says (``oauthEnabled``/``oauth``)

    def __repr__(self) -> str:  # never the secret, not even in a traceback
        return f"_Detail(client_id={self.client_id!r}, enabled={self.enabled!r})"


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("true", "false"):
        return str(value).lower() == "true"
    return None


def _text(value: Any) -> str:
    return "" if value in (None, "", "null") else str(value)


def parse_app_detail(data: Any) -> _Detail | None:
    """A ``/app/list/single/data/<id>`` answer (a list of one, or the item): None when empty."""
    item = data[0] if isinstance(data, list) and data else data
    if not isinstance(item, dict) or norm_id(item.get("id")) is None:
        return None
    enabled = _flag(item.get("oauthEnabled", item.get("oauth")))
    return _Detail(_text(item.get("oauthClientId")), _text(item.get("oauthClientSecret")), enabled)


async def _detail(client: HubClient, app_id: str) -> _Detail:
    data = await client.get_json(f"/app/list/single/data/{quote(app_id, safe='')}")
    found = parse_app_detail(data)
    if found is None:
        raise HubNotFoundError(f"No app code with id {app_id} on the hub", subject="code")
    return found


async def _listed_flag(client: HubClient, app_id: str) -> bool | None:
    """The Apps Code listing's ``oauth`` column for this item (None: not shown)."""
    listed = await client.get_json("/hub2/userAppTypes")
    for item in listed if isinstance(listed, list) else []:
        if isinstance(item, dict) and norm_id(item.get("id")) == app_id:
            return _flag(item.get("oauth"))
    return None


async def fetch_app_oauth(client: HubClient, app_id: str) -> AppOAuth:
    """Is OAuth on for this app code, and its client id."""
    detail = await _detail(client, app_id)
    enabled = detail.enabled
    if enabled is None:
        enabled = await _listed_flag(client, app_id)
    if enabled is None:
        enabled = bool(detail.client_id)
    return AppOAuth(enabled, detail.client_id or None)


def _scrub(text: str, secret: str) -> str:
    if secret:
        text = text.replace(secret, "**REDACTED**")
    return redact_snippet(text)


async def set_app_oauth(client: HubClient, app_id: str, enabled: bool) -> AppOAuth:
    """Turn OAuth on or off for one app code item, as the editor's dialog does; read back."""
    detail = await _detail(client, app_id)
    params = {
        "id": app_id,
        "oauthEnabled": "true" if enabled else "false",
        "clientId": detail.client_id,
        "clientSecret": detail.secret,
        "refreshSecret": "false",
    }
    try:
        answer = await client.request(
            "GET", "/app/updateOAuth", params=params, expect="any", retry=False
        )
    except HubError as err:  # no secret in the message or in a chained cause
        err.args = (_scrub(str(err), detail.secret),)
        err.__cause__ = err.__context__ = None
        err.__suppress_context__ = True
        raise err from None
    said_ok = isinstance(answer, dict) and _flag(answer.get("success")) is True
    reason = ""
    if isinstance(answer, dict) and not said_ok:
        reason = _scrub(str(answer.get("message") or answer.get("error") or ""), detail.secret)
    del answer, params  # the answer carries the secret

    def landed(state: AppOAuth) -> bool:
        return state.enabled == enabled and (not enabled or bool(state.client_id))

    state = await poll_until(
        lambda: fetch_app_oauth(client, app_id),
        landed,
        seconds=OAUTH_WAIT if said_ok else 0,
        interval=OAUTH_STEP,
    )
    if landed(state):
        return state
    verb = "enable" if enabled else "disable"
    if not said_ok:
        raise HubRefusedError(
            f"The hub did not {verb} OAuth for app code {app_id}: {reason or 'no reason given'}",
            reason=reason or None,
            subject="code_oauth",
        )
    raise HubBadResponseError(
        f"The hub answered that it would {verb} OAuth for app code {app_id}, but reading it "
        f"back OAuth is {'on' if state.enabled else 'off'}."
    )
