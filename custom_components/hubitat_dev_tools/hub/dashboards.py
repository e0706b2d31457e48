"""Dashboards: Easy Dashboards (``/dashboard/*``) and legacy Hubitat® Dashboards.

What the hub's own UI shows (``docs/hub-endpoints.md``, section Dashboards):

- ``/dashboard/all?pinToken=`` lists Easy (``version`` "2.0") AND legacy (``version`` "1.0")
  dashboards, each with its ``accessToken`` (a secret: kept on :class:`Dashboard`, never in
  :meth:`Dashboard.as_dict`). An entry without ``version`` counts as Easy.
- ``/dashboard/create`` and ``/dashboard/update`` replace the whole configuration. The hub
  stores ``navigationSelection`` as the string ``"[1,2]"`` but parses a plain comma list on
  save (``"[1]"`` reads as 0), and reads unset PINs back as ``""``, ``"null"`` or ``"None"``:
  :func:`config_query` sends the plain list and an empty PIN for those.
- ``/dashboard/delete?id=`` answers ``success: false`` even when it deleted.

So every write here is decided by its effect (the list read back, polled briefly), never
by the answer alone. Legacy dashboards are installed apps; their page and layout endpoints
(``/apps/api/<id>/dashboard/<id>[/layout]``) rest only on the on-hub server's code, so a layout save
is confirmed by reading the layout back, and every layout request (read, POST, read-back)
takes a fresh ``requestToken`` from the page, as the on-hub server does: the hub rejects stale ones.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .answers import real_value
from .client import HubClient
from .effects import poll_until
from .errors import HubBadResponseError, HubRefusedError, failure_reason
from .models import dict_list, norm_id

_PIN_RE = re.compile(r"globalDashboardPinToken\s*=\s*['\"]([^'\"]*)['\"]")
BOOL_OPTIONS = (
    "showModeTile",
    "showClockTile",
    "showCalendarTile",
    "showHSMTile",
    "showEdit",
    "showNavigation",
    "showTutorial",
)
PIN_OPTIONS = ("dashboardPin", "hsmPin")
TEXT_OPTIONS = ("theme", "navigationSelection", *PIN_OPTIONS)
EASY_VERSION = "2.0"
# How long a write's effect is polled for (seconds) and how often.
EFFECT_WAIT_S = 2.0
EFFECT_POLL_S = 0.25


def navigation_csv(value: Any) -> str:
    """``navigationSelection`` in the plain comma form the hub parses on save.

    The hub stores and lists it as ``"[1,2]"``; a list, that string or ``"1,2"`` all give
    ``"1,2"``; a placeholder gives ``""``.
    """
    items: list[Any]
    if isinstance(value, list):
        items = value
    else:
        text = real_value(value)
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        items = text.split(",")
    return ",".join(t for v in items if (t := real_value(v)))


def parse_device_ids(value: Any) -> list[str]:
    """``deviceIds`` arrives as a string ``"[12,34]"`` (or a list): return string ids."""
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else []
        except ValueError:
            value = [v for v in re.split(r"[,\s\[\]]+", value) if v]
    return [i for v in value or [] if (i := norm_id(v))] if isinstance(value, list) else []


def _flag(value: Any) -> bool:
    return value is True or str(value).strip().lower() == "true"


def parse_options(item: dict[str, Any]) -> dict[str, Any]:
    """The display options of one ``/dashboard/all`` entry, placeholders normalised.

    Flags are booleans (``"true"`` strings accepted), ``navigationSelection`` is the plain
    comma list, an unset PIN is ``""``. Keys the entry lacks are left out.
    """
    out: dict[str, Any] = {k: _flag(item[k]) for k in BOOL_OPTIONS if k in item}
    if "theme" in item and real_value(item["theme"]):
        out["theme"] = real_value(item["theme"])
    if "navigationSelection" in item:
        out["navigationSelection"] = navigation_csv(item["navigationSelection"])
    for key in PIN_OPTIONS:
        if key in item:
            out[key] = real_value(item[key])
    return out


@dataclass(frozen=True, slots=True)
class Dashboard:
    """One dashboard as ``/dashboard/all`` lists it."""

    dashboard_id: str
    name: str | None
    legacy: bool
    device_ids: list[str]
    options: dict[str, Any]
    version: str | None = None
    access_token: str | None = field(default=None, repr=False)  # a secret: never returned

    @property
    def type(self) -> str:
        return "legacy" if self.legacy else "easy"

    def as_dict(self) -> dict[str, Any]:
        """The configuration a tool may show (no access token)."""
        return {
            "dashboard_id": self.dashboard_id,
            "name": self.name,
            "type": self.type,
            "device_ids": list(self.device_ids),
            "options": dict(self.options),
        }


def parse_dashboard(item: dict[str, Any]) -> Dashboard | None:
    """One ``/dashboard/all`` entry (``installedAppId``, or ``id``), or None without an id."""
    dashboard_id = norm_id(item.get("installedAppId") or item.get("id"))
    if dashboard_id is None:
        return None
    version = real_value(item.get("version")) or None
    return Dashboard(
        dashboard_id=dashboard_id,
        name=item.get("name"),
        legacy=version is not None and version.startswith("1"),
        device_ids=parse_device_ids(item.get("deviceIds")),
        options=parse_options(item),
        version=version,
        access_token=real_value(item.get("accessToken")) or None,
    )


def parse_dashboards(answer: Any) -> list[Dashboard]:
    """Every dashboard of a ``/dashboard/all`` answer."""
    return [d for item in dict_list(answer) if (d := parse_dashboard(item)) is not None]


def parse_pin_token(html: str) -> str:
    """The ``globalDashboardPinToken`` of the ``/dashboard/select`` page ("" if absent)."""
    m = _PIN_RE.search(html)
    return m.group(1) if m else ""


def written_id(answer: Any) -> str | None:
    """The dashboard id a create/update answer names: ``id`` (hub UI) or ``installedAppId``."""
    if not isinstance(answer, dict):
        return None
    return norm_id(answer.get("id")) or norm_id(answer.get("installedAppId"))


def config_query(
    name: str, device_ids: list[str], options: dict[str, Any], *, version: str | None = None
) -> dict[str, str]:
    """The full query of ``/dashboard/create``/``update``: every key the hub UI sends.

    ``navigationSelection`` goes as the plain comma list and unset PINs as ``""``, never
    the placeholders the hub reads back (``"[1,2]"``, ``"null"``, ``"None"``).
    """
    q = {"name": name}
    if version is not None:
        q["version"] = version
    q["deviceIds"] = ",".join(device_ids)
    for key in BOOL_OPTIONS:
        q[key] = "true" if _flag(options.get(key)) else "false"
    q["navigationSelection"] = navigation_csv(options.get("navigationSelection"))
    for key in PIN_OPTIONS:
        q[key] = real_value(options.get(key))
    if real_value(options.get("theme")):
        q["theme"] = real_value(options["theme"])
    return q


def config_mismatches(
    want_name: str, want_ids: list[str], want_options: dict[str, Any], got: Dashboard
) -> list[str]:
    """What of the asked configuration the dashboard read back does not show (empty: all)."""
    wrong = []
    if (got.name or "") != want_name:
        wrong.append("name")
    if set(got.device_ids) != set(want_ids):
        wrong.append("deviceIds")
    sent = parse_options(config_query(want_name, want_ids, want_options))
    wrong += [k for k, v in sent.items() if k in got.options and got.options[k] != v]
    return wrong


async def fetch_pin_token(client: HubClient) -> str:
    """Scrape the dashboard pin token ``/dashboard/all`` needs."""
    return parse_pin_token(str(await client.request("GET", "/dashboard/select", expect="text")))


async def fetch_dashboards(client: HubClient, pin: str) -> list[Dashboard]:
    """Every dashboard the hub lists (Easy and legacy)."""
    return parse_dashboards(await client.get_json("/dashboard/all", params={"pinToken": pin}))


async def _poll(
    read: Callable[[], Awaitable[list[Dashboard]]], done: Callable[[list[Dashboard]], bool]
) -> list[Dashboard]:
    """Re-read until ``done`` holds or :data:`EFFECT_WAIT_S` passed; the last read."""
    return await poll_until(read, done, seconds=EFFECT_WAIT_S, interval=EFFECT_POLL_S)


def _find(listed: list[Dashboard], dashboard_id: str | None) -> Dashboard | None:
    return next((d for d in listed if d.dashboard_id == dashboard_id), None)


def _no_effect(answer: Any, message: str) -> HubBadResponseError:
    """The error for a write whose effect is missing: the hub's refusal if it said so."""
    if isinstance(answer, dict) and answer.get("success") in (False, "false"):
        reason = failure_reason(answer)
        return HubRefusedError(f"{message}: {reason or 'no reason given'}", reason=reason)
    return HubBadResponseError(f"{message}, although the hub answered that it did")


async def create_easy(
    client: HubClient, pin: str, name: str, device_ids: list[str], options: dict[str, Any]
) -> Dashboard:
    """Create an Easy Dashboard; the new dashboard as the hub lists it afterwards."""
    before = {d.dashboard_id for d in await fetch_dashboards(client, pin)}
    query = config_query(name, device_ids, options, version=EASY_VERSION)
    answer = await client.request("GET", "/dashboard/create", params=query, retry=False)
    answered = written_id(answer)

    def new(listed: list[Dashboard]) -> Dashboard | None:
        if answered is not None:
            return _find(listed, answered)
        fresh = [d for d in listed if d.dashboard_id not in before and d.name == name]
        return fresh[0] if len(fresh) == 1 else None

    created = new(await _poll(lambda: fetch_dashboards(client, pin), lambda x: new(x) is not None))
    if created is None:
        raise _no_effect(answer, f"The hub does not list the new dashboard {name!r}")
    return created


async def update_easy(
    client: HubClient,
    pin: str,
    dashboard_id: str,
    name: str,
    device_ids: list[str],
    options: dict[str, Any],
) -> Dashboard:
    """Replace an Easy Dashboard's configuration (the caller read-merged it); the result
    as read back. Raises unless the hub then lists what was sent."""
    query = {**config_query(name, device_ids, options), "id": dashboard_id}
    answer = await client.request("GET", "/dashboard/update", params=query, retry=False)

    def wrong(listed: list[Dashboard]) -> list[str]:
        got = _find(listed, dashboard_id)
        return ["dashboard"] if got is None else config_mismatches(name, device_ids, options, got)

    listed = await _poll(lambda: fetch_dashboards(client, pin), lambda x: not wrong(x))
    if missing := wrong(listed):
        raise _no_effect(
            answer, f"Dashboard {dashboard_id} does not show the update ({', '.join(missing)})"
        )
    saved = _find(listed, dashboard_id)
    assert saved is not None
    return saved


async def delete_easy(client: HubClient, pin: str, dashboard_id: str) -> None:
    """Delete an Easy Dashboard: the hub UI sends only ``id``; the answer says
    ``success: false`` even when it deleted, so the list read back decides."""
    answer = await client.request(
        "GET", "/dashboard/delete", params={"id": dashboard_id}, retry=False
    )
    listed = await _poll(
        lambda: fetch_dashboards(client, pin), lambda x: _find(x, dashboard_id) is None
    )
    if _find(listed, dashboard_id) is not None:
        message = f"The hub still lists dashboard {dashboard_id} after deleting it"
        reason = failure_reason(answer)
        raise HubRefusedError(f"{message}: {reason}" if reason else message, reason=reason)


# ---------------------------------------------------------------- legacy dashboards

_REQ_RE = re.compile(r"javascriptRequestToken\s*=\s*['\"]([^'\"]+)['\"]")


async def legacy_request_token(client: HubClient, dashboard_id: str, access_token: str) -> str:
    """A fresh request token for ONE layout request: render the dashboard page and scrape it.

    Every page load mints a new token; tokens are timestamped by the hub and stale ones are
    rejected (the on-hub server's ``mcp-dashboards-lib.groovy`` ``_legacyMintRequestToken``), so
    each layout read and write takes its own, never a cached one.
    """
    html = await client.request(
        "GET",
        f"/apps/api/{dashboard_id}/dashboard/{dashboard_id}",
        params={"access_token": access_token},
        expect="text",
    )
    m = _REQ_RE.search(str(html))
    if m is None:
        raise HubBadResponseError(
            f"Legacy dashboard {dashboard_id} did not give a request token",
            hint="Open the dashboard once in the hub's web UI (it may need local access enabled).",
        )
    return m.group(1)


def _layout_path(dashboard_id: str) -> str:
    return f"/apps/api/{dashboard_id}/dashboard/{dashboard_id}/layout"


async def fetch_legacy_layout(
    client: HubClient, dashboard_id: str, access_token: str
) -> dict[str, Any]:
    """A legacy dashboard's layout (name, cols, rows, tiles...), with a token of its own."""
    token = await legacy_request_token(client, dashboard_id, access_token)
    data = await client.request(
        "GET",
        _layout_path(dashboard_id),
        params={"access_token": access_token, "requestToken": token},
        retry=False,  # a retry would resend the token already used
    )
    if not isinstance(data, dict):
        raise HubBadResponseError(f"Unexpected layout of legacy dashboard {dashboard_id}")
    return data


def layout_mismatches(sent: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Where the layout read back differs from the one sent (tiles by id, sent keys only)."""
    wrong = [k for k, v in sent.items() if k != "tiles" and got.get(k) != v]
    want = {t.get("id"): t for t in dict_list(sent.get("tiles"))}
    have = {t.get("id"): t for t in dict_list(got.get("tiles"))}
    if set(want) != set(have):
        return [*wrong, "tile ids"]
    wrong += [
        f"tile {i}" for i, tile in want.items() if any(have[i].get(k) != v for k, v in tile.items())
    ]
    return wrong


async def save_legacy_layout(
    client: HubClient, dashboard_id: str, access_token: str, layout: dict[str, Any]
) -> None:
    """POST a whole layout back, then read it back: the layout shown decides. The POST and
    the read-back each take a fresh request token."""
    token = await legacy_request_token(client, dashboard_id, access_token)
    answer = await client.request(
        "POST",
        _layout_path(dashboard_id),
        params={"access_token": access_token, "requestToken": token},
        json_body=layout,
        expect="any",
        retry=False,
    )
    got = await fetch_legacy_layout(client, dashboard_id, access_token)
    if wrong := layout_mismatches(layout, got):
        err = _no_effect(
            answer,
            f"Legacy dashboard {dashboard_id} does not show the new layout ({', '.join(wrong)})",
        )
        err.subject = "dashboard_layout"
        raise err
