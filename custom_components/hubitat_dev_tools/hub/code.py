"""Apps Code, Drivers Code, Libraries Code and bundles endpoints (hub reference §11).

The requests follow what the hub's own editor sends (``docs/hub-endpoints.md``, "Code and
bundles", names the evidence for each):

- **Saving** goes by firmware: 2.5 and newer save through the editor's JSON path
  (``/<kind>/saveOrUpdateJson``); older firmware saves apps and drivers with the legacy forms
  (``/<kind>/save`` to create, ``/<kind>/ajax/update`` to update). Libraries have only the
  JSON path. Every save is then read back: the source must be the one sent (and an update's
  version must have moved on), whatever the answer said.
- **Deleting** uses the editor's own paths. The editor refuses code that is still in use
  before it sends anything, and so does :func:`refuse_if_in_use`; whether the delete
  happened is decided by listing the code again, never by the answer alone.
- **Bundles** are deleted through ``/bundle/deleteJson/<id>`` and checked the same way.
"""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import quote

from .client import HubClient
from .effects import poll_until
from .errors import (
    HubBadResponseError,
    HubError,
    HubNotFoundError,
    HubRefusedError,
    failure_reason,
)
from .firmware import Platform
from .models import norm_id

CodeKind = Literal["app", "driver", "library"]
CODE_KINDS: tuple[CodeKind, ...] = ("app", "driver", "library")
SaveRoute = Literal["json", "form"]

# The editor saves through JSON from this firmware on; older hubs take the legacy forms.
JSON_SAVE_FIRMWARE = (2, 5)

_LIST_PATHS = {
    "app": "/hub2/userAppTypes",
    "driver": "/hub2/userDeviceTypes",
    "library": "/hub2/userLibraries",
}
_JSON_SAVE_PATHS = {
    "app": "/app/saveOrUpdateJson",
    "driver": "/driver/saveOrUpdateJson",
    "library": "/library/saveOrUpdateJson",
}
_FORM_CREATE_PATHS = {"app": "/app/save", "driver": "/driver/save"}
_FORM_UPDATE_PATHS = {"app": "/app/ajax/update", "driver": "/driver/ajax/update"}
_DELETE_PATHS = {
    "app": "/app/edit/deleteJson/{id}",
    "driver": "/driver/editor/deleteJson/{id}",
    "library": "/library/edit/deleteJson/{id}",
}
_IN_USE = {
    "app": "there are installed instances of this app",
    "driver": "devices use this driver",
    "library": "apps or drivers include this library",
}

_NO_PAGE_MESSAGE = (
    "no compiler message: the hub's legacy editor answered a page without one and created "
    "nothing (open the code editor on the hub and save the source there to see why)"
)

# A delete the hub says it made may take a moment to leave the list: look again this long.
EFFECT_WAIT = 2.0
EFFECT_STEP = 0.5


class HubCompileError(HubError):
    """The hub refused to save code: its compiler message is verbatim in the error."""

    code = "compile_error"
    default_hint = (
        "The hub's compiler rejected the code; the message above is verbatim and names the "
        "line. Fix that line and call again with the whole corrected source."
    )


class HubVersionConflictError(HubError):
    """The code changed on the hub since it was read (optimistic version check)."""

    code = "version_conflict"
    default_hint = (
        "Someone (or something) saved this code since you read it. Read it again, re-apply "
        "your change to the current source, and save with the version you just read."
    )


@dataclass(slots=True)
class CodeSource:
    """One item's source and version."""

    kind: CodeKind
    id: str
    name: str
    version: int | None
    source: str


@dataclass(slots=True)
class SaveResult:
    """A save that reading the code back confirmed (``message``: the hub's words, if any)."""

    id: str
    version: int | None
    message: str | None = None


@dataclass(frozen=True, slots=True)
class SaveAnswer:
    """What the hub answered to a save (to be confirmed by reading the code back)."""

    ok: bool
    id: str | None = None
    version: int | None = None
    message: str | None = None


# ---------------------------------------------------------------------------- answers


def _epoch_iso(value: Any) -> str | None:
    """A listing's ``lastModified``: epoch milliseconds or an ISO-like text, as ISO 8601."""
    if value in (None, ""):
        return None
    text = str(value)
    if text.isdigit():
        return datetime.fromtimestamp(int(text) / 1000, tz=UTC).isoformat(timespec="seconds")
    try:
        return datetime.fromisoformat(text).isoformat(timespec="seconds")
    except ValueError:
        return text


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def used_by_names(value: Any) -> list[str]:
    """Who uses an item: a list of ``{id, name}`` (apps, drivers) or, for libraries, the
    hub's comma-separated text of names (``""`` when unused). Names are HTML-decoded."""
    if isinstance(value, str):
        inner = value.strip().removeprefix("[").removesuffix("]")
        return [html.unescape(part.strip()) for part in inner.split(",") if part.strip()]
    out: list[str] = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, dict):
            label = html.unescape(str(item.get("name") or item.get("label") or ""))
            out.append(f"{label} ({norm_id(item.get('id'))})" if item.get("id") else label)
        elif item is not None:
            out.append(html.unescape(str(item)))
    return out


def read_json_save_answer(answer: Any) -> SaveAnswer:
    """``saveOrUpdateJson``: ``{success, id, version, message}`` (the compiler's words in
    ``message`` when it refused)."""
    if not isinstance(answer, dict):
        return SaveAnswer(False, message=str(answer)[:200] if answer else None)
    return SaveAnswer(
        answer.get("success") in (True, "true"),
        norm_id(answer.get("id")),
        _int(answer.get("version")),
        failure_reason(answer),
    )


def read_form_update_answer(answer: Any) -> SaveAnswer:
    """The legacy ``ajax/update`` form: ``{status: "success"}`` or ``{status: "error",
    errorMessage}``."""
    if not isinstance(answer, dict):
        return SaveAnswer(False, message=legacy_page_error(answer))
    return SaveAnswer(
        str(answer.get("status")).lower() == "success", message=failure_reason(answer)
    )


_ALERT = re.compile(r"alert-close[^>]*>.*?</div>(.+?)</div>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")


def legacy_page_error(page: Any) -> str | None:
    """The message in the alert box of a legacy editor page, or None when it shows none."""
    if not isinstance(page, str):
        return None
    match = _ALERT.search(page[:200_000])
    if match is None:
        return None
    text = html.unescape(_TAG.sub(" ", match.group(1)))
    return " ".join(text.split()) or None


def read_delete_answer(answer: Any) -> tuple[bool, str | None]:
    """Did the hub say it deleted, and its words. Apps and drivers answer ``status`` (the
    boolean or the string ``"true"``; a refusal ``"error"`` with ``errorMessage``),
    libraries and bundles ``{success, message}``."""
    if not isinstance(answer, dict):
        return False, None
    said = {str(answer[key]).lower() for key in ("status", "success") if key in answer}
    return bool(said & {"true", "success"}), failure_reason(answer)


# ---------------------------------------------------------------------------- reads


def _capabilities(value: Any) -> list[str]:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(c) for c in value] if isinstance(value, list) else []


def parse_code_list(kind: CodeKind, data: Any) -> list[dict[str, Any]]:
    """A ``/hub2/user*Types`` / ``userLibraries`` answer as our listing entries."""
    out: list[dict[str, Any]] = []
    for item in data if isinstance(data, list) else []:
        if not isinstance(item, dict) or norm_id(item.get("id")) is None:
            continue
        entry: dict[str, Any] = {
            "type": kind,
            "id": norm_id(item.get("id")),
            "name": item.get("name"),
            "namespace": item.get("namespace"),
        }
        if item.get("version") is not None:
            entry["version"] = _int(item.get("version"))
        if item.get("lastModified") is not None:
            entry["last_modified"] = _epoch_iso(item.get("lastModified"))
        if kind == "library":
            entry["used_by_apps"] = used_by_names(item.get("usedByAppTypes"))
            entry["used_by_drivers"] = used_by_names(item.get("usedByDeviceTypes"))
            if item.get("author"):
                entry["author"] = item["author"]
        else:
            entry["used_by"] = used_by_names(item.get("usedBy"))
        if kind == "driver" and (caps := _capabilities(item.get("capabilities"))):
            entry["capabilities"] = caps
        if kind == "app" and item.get("oauth"):
            entry["oauth"] = True
        out.append(entry)
    return out


async def fetch_code_list(client: HubClient, kind: CodeKind) -> list[dict[str, Any]]:
    """User code of one kind: id, name, namespace, version, last modified, what uses it."""
    return parse_code_list(kind, await client.get_json(_LIST_PATHS[kind]))


async def _listed_ids(client: HubClient, kind: CodeKind) -> set[str]:
    return {str(item["id"]) for item in await fetch_code_list(client, kind)}


def _not_found(kind: CodeKind, item_id: str) -> HubNotFoundError:
    return HubNotFoundError(f"No {kind} code with id {item_id} on the hub", subject="code")


def parse_source(kind: CodeKind, item_id: str, data: Any) -> CodeSource | None:
    """A ``/library/list/single/data/<id>`` or ``/<kind>/ajax/code`` answer (None: no such
    code). The ``ajax/code`` answer need not carry the name: it is then ``""``."""
    if kind == "library":
        item = data[0] if isinstance(data, list) and data else data
        if not isinstance(item, dict) or not isinstance(item.get("source"), str):
            return None
    elif isinstance(data, dict) and data.get("status") != "error":
        item = data
        if not isinstance(item.get("source"), str):
            return None
    else:
        return None
    name = str(item.get("name") or "")
    return CodeSource(kind, item_id, name, _int(item.get("version")), item["source"])


async def fetch_source(
    client: HubClient, kind: CodeKind, item_id: str, *, named: bool = True
) -> CodeSource:
    """Full source and version of one app, driver or library (``named``: look the name up
    in the listing when the answer has none)."""
    if kind == "library":
        data = await client.get_json(f"/library/list/single/data/{quote(item_id, safe='')}")
    else:
        data = await client.get_json(f"/{kind}/ajax/code", params={"id": item_id})
    found = parse_source(kind, item_id, data)
    if found is None:
        raise _not_found(kind, item_id)
    if named and not found.name:  # the listing names it
        listed = await fetch_code_list(client, kind)
        found.name = next((str(i["name"]) for i in listed if str(i["id"]) == item_id), "")
    return found


async def _read_back(client: HubClient, kind: CodeKind, item_id: str) -> CodeSource | None:
    try:
        return await fetch_source(client, kind, item_id, named=False)
    except HubNotFoundError:
        return None


# ---------------------------------------------------------------------------- save


def save_route(platform: Platform, kind: CodeKind) -> SaveRoute:
    """How this hub saves code: the 2.5 editor's JSON path, or the legacy forms (apps and
    drivers on older firmware; libraries have only the JSON path)."""
    if kind == "library" or platform.at_least(*JSON_SAVE_FIRMWARE):
        return "json"
    return "form"


def _same_source(stored: str, sent: str) -> bool:
    """The hub stored what was sent (line endings and trailing blanks aside)."""

    def norm(text: str) -> str:
        return text.replace("\r\n", "\n").rstrip()

    return norm(stored) == norm(sent)


def _is_version_conflict(message: str) -> bool:
    text = message.lower()
    return "version" in text and any(w in text for w in ("mismatch", "modified", "changed"))


def _refused(kind: CodeKind, item_id: str | None, message: str | None) -> HubError:
    text = message or "Unknown error (the hub gave no message)"
    if item_id and _is_version_conflict(text):
        return HubVersionConflictError(f"Version conflict saving {kind} {item_id}: {text}")
    return HubCompileError(f"The hub did not save the {kind} code. Hub message:\n{text}")


async def _send_save(
    client: HubClient, kind: CodeKind, item_id: str | None, source: str, version: int | None
) -> SaveAnswer:
    """Send one save the way this hub's editor does; the answer is not trusted yet."""
    if save_route(client.platform, kind) == "json":
        # The editor sends the id only for existing code, and version 1 when it has none.
        body: dict[str, Any] = {"source": source, "version": 1 if version is None else version}
        if item_id:
            body = {"id": int(item_id), **body}
        answer = await client.post_json(_JSON_SAVE_PATHS[kind], body, check=False)
        return read_json_save_answer(answer)
    if item_id:
        form = {"id": item_id, "version": "" if version is None else str(version)}
        answer = await client.post_form(
            _FORM_UPDATE_PATHS[kind], form | {"source": source}, check=False
        )
        return read_form_update_answer(answer)
    # Create answers a redirect to the new item's editor page (followed: its HTML), or the
    # form's page again with the compiler's message in its alert box.
    page = await client.post_form(
        _FORM_CREATE_PATHS[kind],
        {"id": "", "version": "", "create": "", "source": source},
        check=False,
    )
    # Whether it created anything is read from the listing; the page only says why not.
    return SaveAnswer(False, message=legacy_page_error(page) or _NO_PAGE_MESSAGE)


async def save_source(
    client: HubClient, kind: CodeKind, item_id: str | None, source: str, version: int | None
) -> SaveResult:
    """Install (item_id None) or update code, confirmed by reading it back.

    Raises :class:`HubCompileError` / :class:`HubVersionConflictError` with the hub's words
    when the code is not there afterwards, and :class:`HubBadResponseError` when the hub
    said it saved but the code read back is not what was sent.
    """
    if item_id is None:
        return await _create(client, kind, source)
    answer = await _send_save(client, kind, item_id, source, version)
    stored = await _read_back(client, kind, item_id)
    moved_on = stored is not None and (
        version is None or stored.version is None or stored.version > version
    )
    if stored is not None and moved_on and _same_source(stored.source, source):
        return SaveResult(item_id, stored.version, answer.message)
    if not answer.ok:
        raise _refused(kind, item_id, answer.message)
    state = "is gone" if stored is None else f"has version {stored.version} and another source"
    raise HubBadResponseError(
        f"The hub answered that it saved {kind} {item_id}, but reading it back it {state}."
    )


async def fetch_app_instances(client: HubClient, app_code_id: str) -> list[tuple[str, str]]:
    """The installed apps running one app code: ``(id, name)`` from the ``usedBy`` of its
    ``/hub2/userAppTypes`` entry (the list the hub UI's Apps Code page reads; the editor
    refuses a delete while it is not empty). Unknown code raises :class:`HubNotFoundError`."""
    data = await client.get_json(_LIST_PATHS["app"])
    for item in data if isinstance(data, list) else []:
        if isinstance(item, dict) and norm_id(item.get("id")) == app_code_id:
            out: list[tuple[str, str]] = []
            for use in item.get("usedBy") or []:
                if isinstance(use, dict) and (use_id := norm_id(use.get("id"))) is not None:
                    out.append((use_id, html.unescape(str(use.get("name") or ""))))
            return out
    raise _not_found("app", app_code_id)


async def _create(client: HubClient, kind: CodeKind, source: str) -> SaveResult:
    """New code: the id the hub names, else the one new item listed with this source."""
    before = await _listed_ids(client, kind)
    answer = await _send_save(client, kind, None, source, None)
    if answer.id is not None:
        stored = await _read_back(client, kind, answer.id)
        if stored is not None and _same_source(stored.source, source):
            return SaveResult(answer.id, stored.version)
    new_ids = (await _listed_ids(client, kind)) - before - {answer.id or ""}
    for new_id in sorted(new_ids, key=lambda v: (len(v), v), reverse=True):
        stored = await _read_back(client, kind, new_id)
        if stored is not None and _same_source(stored.source, source):
            return SaveResult(new_id, stored.version)
    if not answer.ok:
        raise _refused(kind, None, answer.message)
    raise HubBadResponseError(
        f"The hub answered that it saved the new {kind} code"
        + (f" as id {answer.id}" if answer.id else "")
        + ", but no such code is listed."
    )


# ---------------------------------------------------------------------------- delete


async def _until_absent(
    list_ids: Callable[[], Awaitable[set[str]]], item_id: str, wait: float
) -> bool:
    """True once ``item_id`` is no longer listed; look again for up to ``wait`` seconds."""
    listed = await poll_until(
        list_ids, lambda ids: item_id not in ids, seconds=wait, interval=EFFECT_STEP
    )
    return item_id not in listed


async def refuse_if_in_use(client: HubClient, kind: CodeKind, item_id: str) -> None:
    """Refuse, as the editor does before it sends a delete, code that is missing or in use."""
    entry = next((i for i in await fetch_code_list(client, kind) if str(i["id"]) == item_id), None)
    if entry is None:
        raise _not_found(kind, item_id)
    users = [*entry.get("used_by", []), *entry.get("used_by_apps", [])]
    users += entry.get("used_by_drivers", [])
    if users:
        reason = f"{_IN_USE[kind]} ({', '.join(users)}); remove them first"
        raise HubRefusedError(
            f"The hub did not delete {kind} {item_id}: {reason}.",
            reason=reason,
            subject="code_delete",
        )


async def delete_code(client: HubClient, kind: CodeKind, item_id: str) -> None:
    """Delete one item (call :func:`refuse_if_in_use` first); done when it is no longer listed."""
    answer = await client.request(
        "GET", _DELETE_PATHS[kind].format(id=quote(item_id, safe="")), expect="any", retry=False
    )
    said_ok, message = read_delete_answer(answer)
    if await _until_absent(
        lambda: _listed_ids(client, kind), item_id, EFFECT_WAIT if said_ok else 0
    ):
        return
    if said_ok:
        raise HubBadResponseError(
            f"The hub answered that it deleted {kind} {item_id}, but it still lists it."
        )
    raise HubRefusedError(
        f"The hub did not delete {kind} {item_id}: {message or 'no reason given'}",
        reason=message,
        subject="code_delete",
    )


# ---------------------------------------------------------------------------- bundles


def _split_content(content: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"apps": [], "drivers": [], "libraries": []}
    for key in out:
        marker = f"{key} ["
        start = content.find(marker)
        if start < 0:
            continue
        end = content.find("]", start)
        inner = content[start + len(marker) : end if end > 0 else None]
        out[key] = [p.strip() for p in inner.split(",") if p.strip()]
    return out


# The hub downloads and installs the bundle before it answers; it gets time for that (kept
# under the 60 s an MCP request may take), and the request is never repeated.
BUNDLE_INSTALL_TIMEOUT = 50.0


def parse_bundles(data: Any) -> list[dict[str, Any]]:
    """A ``/hub2/userBundles`` answer: id, name, namespace, private, contents."""
    out = []
    for item in data if isinstance(data, list) else []:
        if isinstance(item, dict) and norm_id(item.get("id")):
            out.append(
                {
                    "id": norm_id(item.get("id")),
                    "name": item.get("name"),
                    "namespace": item.get("namespace"),
                    "private": item.get("private") in (True, "true"),
                    "contains": _split_content(str(item.get("content") or "")),
                }
            )
    return out


async def fetch_bundles(client: HubClient) -> list[dict[str, Any]]:
    """Installed bundles: id, name, namespace, private, contents."""
    return parse_bundles(await client.get_json("/hub2/userBundles"))


async def install_bundle(client: HubClient, url: str, *, private: bool) -> None:
    """Ask the hub to download and install a bundle zip (the hub fetches the URL)."""
    try:
        await client.request(
            "GET",
            "/bundle2/uploadZipFromUrl",
            params={"url": url, "pwd": "", "private": "true" if private else "false"},
            timeout=BUNDLE_INSTALL_TIMEOUT,
            retry=False,  # a slow install must not run twice
            what="install the bundle",
        )
    except HubRefusedError as err:
        err.hint = "Check that the URL is a bundle .zip the hub can download."
        raise


async def _bundle_ids(client: HubClient) -> set[str]:
    return {str(bundle["id"]) for bundle in await fetch_bundles(client)}


async def delete_bundle(client: HubClient, bundle_id: str) -> None:
    """Delete one bundle container (not its code, as the editor does without ``full``);
    done when the hub no longer lists it."""
    answer = await client.request(
        "GET", f"/bundle/deleteJson/{quote(bundle_id, safe='')}", expect="any", retry=False
    )
    said_ok, message = read_delete_answer(answer)
    if await _until_absent(lambda: _bundle_ids(client), bundle_id, EFFECT_WAIT if said_ok else 0):
        return
    if said_ok:
        raise HubBadResponseError(
            f"The hub answered that it deleted bundle {bundle_id}, but it still lists it."
        )
    raise HubRefusedError(
        f"The hub did not delete bundle {bundle_id}: {message or 'no reason given'}",
        reason=message,
    )


async def export_bundle(client: HubClient, bundle_id: str) -> bytes:
    """The bundle's .zip (``GET /bundle/export/<id>``)."""
    data = await client.get_bytes(f"/bundle/export/{quote(bundle_id, safe='')}")
    if not data.startswith(b"PK"):
        raise HubBadResponseError(f"The hub did not answer bundle {bundle_id} with a .zip")
    return data
