"""Apps Code, Drivers Code, Libraries Code and bundles endpoints (hub reference §11)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import quote

from .client import HubClient
from .errors import HubBadResponseError, HubError, HubNotFoundError, HubRefusedError
from .models import norm_id

CodeKind = Literal["app", "driver", "library"]
CODE_KINDS: tuple[CodeKind, ...] = ("app", "driver", "library")

_LIST_PATHS = {
    "app": "/hub2/userAppTypes",
    "driver": "/hub2/userDeviceTypes",
    "library": "/hub2/userLibraries",
}
_SAVE_PATHS = {
    "app": "/app/saveOrUpdateJson",
    "driver": "/driver/saveOrUpdateJson",
    "library": "/library/saveOrUpdateJson",
}
_DELETE_PATHS = {
    "app": "/app/edit/deleteJsonSafe/{id}",
    "driver": "/driver/editor/deleteJson/{id}",
    "library": "/library/edit/deleteJson/{id}",
}


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
    """What a successful save answered."""

    id: str
    version: int | None


def _epoch_iso(value: Any) -> str | None:
    if value in (None, ""):
        return None
    text = str(value)
    if text.isdigit():
        return datetime.fromtimestamp(int(text) / 1000, tz=UTC).isoformat(timespec="seconds")
    return text


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _names(value: Any) -> list[str]:
    out: list[str] = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, dict):
            label = item.get("name") or item.get("label")
            out.append(f"{label} ({norm_id(item.get('id'))})" if item.get("id") else str(label))
        elif item is not None:
            out.append(str(item))
    return out


async def fetch_code_list(client: HubClient, kind: CodeKind) -> list[dict[str, Any]]:
    """User code of one kind: id, name, namespace, version, last modified, what uses it."""
    data = await client.get_json(_LIST_PATHS[kind])
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
            entry["used_by_apps"] = _names(item.get("usedByAppTypes"))
            entry["used_by_drivers"] = _names(item.get("usedByDeviceTypes"))
            if item.get("author"):
                entry["author"] = item["author"]
        else:
            entry["used_by"] = _names(item.get("usedBy"))
        if kind == "driver" and item.get("capabilities"):
            entry["capabilities"] = [str(c) for c in item["capabilities"]]
        if kind == "app" and item.get("oauth"):
            entry["oauth"] = True
        out.append(entry)
    return out


def _not_found(kind: CodeKind, item_id: str) -> HubNotFoundError:
    return HubNotFoundError(f"No {kind} code with id {item_id} on the hub", subject="code")


async def fetch_source(client: HubClient, kind: CodeKind, item_id: str) -> CodeSource:
    """Full source and version of one app, driver or library."""
    sid = quote(item_id, safe="")
    if kind == "library":
        data = await client.get_json(f"/library/list/single/data/{sid}")
        item = data[0] if isinstance(data, list) and data else data
        if not isinstance(item, dict) or item.get("source") is None:
            raise _not_found(kind, item_id)
        return CodeSource(
            kind, item_id, str(item.get("name") or ""), _int(item.get("version")), item["source"]
        )
    data = await client.get_json(f"/{kind}/ajax/code", params={"id": item_id})
    if not isinstance(data, dict) or data.get("status") == "error" or "source" not in data:
        raise _not_found(kind, item_id)
    return CodeSource(
        kind, item_id, str(data.get("name") or ""), _int(data.get("version")), data["source"]
    )


def _is_version_conflict(message: str) -> bool:
    text = message.lower()
    return "version" in text and any(w in text for w in ("mismatch", "modified", "changed"))


async def save_source(
    client: HubClient, kind: CodeKind, item_id: str | None, source: str, version: int | None
) -> SaveResult:
    """Install (item_id None) or update code; raise compile / version-conflict errors."""
    body: dict[str, Any] = {
        "id": int(item_id) if item_id else None,
        "source": source,
        "version": version if item_id else (None if kind == "library" else 1),
    }
    result = await client.post_json(_SAVE_PATHS[kind], body, check=False)
    if not isinstance(result, dict):
        raise HubBadResponseError(f"Unexpected answer saving {kind} code: {str(result)[:200]}")
    if result.get("success") is True:
        new_id = norm_id(result.get("id")) or item_id
        if new_id is None:
            raise HubBadResponseError(f"The hub saved the {kind} code but did not say its id")
        return SaveResult(new_id, _int(result.get("version")))
    message = str(result.get("message") or result.get("errorMessage") or "Unknown error")
    if item_id and _is_version_conflict(message):
        raise HubVersionConflictError(f"Version conflict saving {kind} {item_id}: {message}")
    raise HubCompileError(f"The hub did not save the {kind} code. Hub message:\n{message}")


async def delete_code(client: HubClient, kind: CodeKind, item_id: str) -> None:
    """Delete one item; raise with the hub's message when it refuses."""
    result = await client.request(
        "GET", _DELETE_PATHS[kind].format(id=quote(item_id, safe="")), retry=False
    )
    ok = isinstance(result, dict) and (
        result.get("status") is True or result.get("success") is True
    )
    if not ok:
        message = ""
        if isinstance(result, dict):
            message = str(result.get("errorMessage") or result.get("message") or "")
        raise HubRefusedError(
            f"The hub did not delete {kind} {item_id}: {message or 'no reason given'}",
            reason=message or None,
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


async def fetch_bundles(client: HubClient) -> list[dict[str, Any]]:
    """Installed bundles: id, name, namespace, private, contents."""
    data = await client.get_json("/hub2/userBundles")
    out = []
    for item in data if isinstance(data, list) else []:
        if isinstance(item, dict) and norm_id(item.get("id")):
            out.append(
                {
                    "id": norm_id(item.get("id")),
                    "name": item.get("name"),
                    "namespace": item.get("namespace"),
                    "private": bool(item.get("private")),
                    "contains": _split_content(str(item.get("content") or "")),
                }
            )
    return out


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


async def delete_bundle(client: HubClient, bundle_id: str) -> None:
    """Delete one bundle container (answers a redirect; verify by listing)."""
    await client.request(
        "GET", f"/bundle/delete/{quote(bundle_id, safe='')}", expect="text", retry=False
    )


async def export_bundle(client: HubClient, bundle_id: str) -> bytes:
    """The bundle's .zip (``GET /bundle/export/<id>``)."""
    data = await client.get_bytes(f"/bundle/export/{quote(bundle_id, safe='')}")
    if not data.startswith(b"PK"):
        raise HubBadResponseError(f"The hub did not answer bundle {bundle_id} with a .zip")
    return data
