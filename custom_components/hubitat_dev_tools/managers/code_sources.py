"""Where code to install or update comes from, and several items in one call.

- **Inline** text, a **URL** or a **File Manager file**: exactly one per item. The hub's
  own code editor imports from a URL by fetching it in the BROWSER (its "Import Code from
  Website" dialog puts the page's text into the editor, then the usual save sends it), so
  here the integration is the one that downloads it: every URL (and every redirect it
  leads to) passes the caller's URL check first, the body is capped, and an HTML page (a
  GitHub "blob" link rather than the raw file) is refused. The download goes through a
  session that checks TLS certificates (Home Assistant's default one), never the hub's
  session (which cannot, the hub's certificate being self-signed): otherwise https would
  not keep a man in the middle from changing the code. A file is read through the File
  Manager.
- **Bulk**: every item is checked and every source fetched before anything is written;
  then the items are saved one by one and each gets its own result (one failure does not
  stop the rest, and nothing is left out of the report).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

import aiohttp

from ..errors import ToolError
from ..hub.code import CodeKind
from ..hub.errors import HubError
from .files import FilesManager

UrlCheck = Callable[[str], Awaitable[None]]

MAX_SOURCE_CHARS = 1_000_000
MAX_SOURCE_BYTES = 4 * MAX_SOURCE_CHARS  # UTF-8: a character is at most four bytes
URL_TIMEOUT = 30.0
MAX_REDIRECTS = 3
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
SOURCE_FIELDS = ("source", "source_url", "file_name")


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """One item's source: inline text, a URL or a File Manager file name."""

    source: str | None = None
    source_url: str | None = None
    file_name: str | None = None

    def given(self) -> list[str]:
        return [n for n in SOURCE_FIELDS if getattr(self, n) is not None]

    def origin(self) -> dict[str, str]:
        """Where the source came from, for the answer (nothing for inline text)."""
        if self.source_url is not None:
            return {"source_url": self.source_url}
        if self.file_name is not None:
            return {"file_name": self.file_name}
        return {}


@dataclass(frozen=True, slots=True)
class CodeItemSpec:
    """One item of a batch: new code (``item_id`` None) or an update."""

    kind: CodeKind
    item_id: str | None
    spec: SourceSpec
    expected_version: int | None = None


def require_one_source(spec: SourceSpec, where: str = "") -> None:
    """Exactly one of source, source_url, file_name."""
    given = spec.given()
    if len(given) == 1:
        return
    what = f"{where}: " if where else ""
    found = f" (got {', '.join(given)})" if given else ""
    raise ToolError(
        f"{what}give exactly one of source, source_url or file_name{found}. Nothing was sent.",
        hint="source = the Groovy text; source_url = a raw-text https link; file_name = a "
        "File Manager file holding the source.",
    )


def _unavailable(url: str, why: str) -> ToolError:
    return ToolError(
        f"Could not download the source from {url}: {why}. Nothing was sent to the hub.",
        code="source_unavailable",
        hint="Check the link in a browser: it must show the raw Groovy text (on GitHub "
        "use the 'Raw' link, raw.githubusercontent.com/...).",
    )


def _untrusted(url: str, current: str, err: aiohttp.ClientConnectorCertificateError) -> ToolError:
    reason = getattr(err.certificate_error, "verify_message", None) or str(err.certificate_error)
    where = "" if current == url else f" (redirected to {current})"
    return ToolError(
        f"Not downloading {url}{where}: the server's TLS certificate is not trusted "
        f"({reason}). Nothing was sent to the hub.",
        code="certificate_not_trusted",
        hint="Code downloads check the server's certificate, so nobody on the way can change "
        "the code. Use a link on a host with a valid certificate (on GitHub the 'Raw' link, "
        "raw.githubusercontent.com/...). For code on a server with a self-signed "
        "certificate, pass the text as source, or put it in the File Manager and use "
        "file_name.",
    )


def as_source_text(data: bytes, where: str) -> str:
    """Downloaded bytes as source text: UTF-8 (a leading byte order mark dropped), not an
    HTML page, not empty."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise _unavailable(where, "it is not UTF-8 text") from None
    head = text.lstrip()[:200].lower()
    if head.startswith(("<!doctype html", "<html")):
        raise _unavailable(where, "it is a web page, not the raw source")
    if not text.strip():
        raise _unavailable(where, "it is empty")
    return text


async def fetch_url_bytes(
    session: aiohttp.ClientSession,
    url: str,
    check: UrlCheck,
    *,
    max_bytes: int,
    timeout: float = URL_TIMEOUT,
    accept: str = "*/*",
    unavailable: Callable[[str, str], ToolError] | None = None,
) -> bytes:
    """GET ``url`` (redirects followed by hand, each target checked first) as at most
    ``max_bytes`` bytes (a larger body, announced or read, is refused while reading).

    ``session`` must check certificates (not the hub's session): an untrusted certificate
    is ``certificate_not_trusted``. ``unavailable(url, why)`` words the other failures.
    """
    fail = unavailable or _unavailable
    current = url
    for _hop in range(MAX_REDIRECTS + 1):
        await check(current)
        try:
            async with session.get(
                current,
                allow_redirects=False,
                timeout=aiohttp.ClientTimeout(total=timeout, sock_connect=min(timeout, 15.0)),
                headers={"Accept": accept},
            ) as resp:
                if resp.status in _REDIRECTS:
                    location = resp.headers.get("Location")
                    if not location:
                        raise fail(url, f"HTTP {resp.status} without a Location")
                    current = urljoin(current, location)
                    continue
                if resp.status != 200:
                    raise fail(url, f"the server answered HTTP {resp.status}")
                if resp.content_length is not None and resp.content_length > max_bytes:
                    raise fail(url, f"it is larger than {max_bytes} bytes")
                data = bytearray()
                async for chunk in resp.content.iter_chunked(65536):
                    data += chunk
                    if len(data) > max_bytes:
                        raise fail(url, f"it is larger than {max_bytes} bytes")
        except aiohttp.ClientConnectorCertificateError as err:
            raise _untrusted(url, current, err) from None
        except aiohttp.ClientSSLError:
            raise fail(url, "the TLS (https) connection failed") from None
        except (aiohttp.ClientError, TimeoutError) as err:
            raise fail(url, type(err).__name__) from None
        return bytes(data)
    raise fail(url, f"more than {MAX_REDIRECTS} redirects")


async def fetch_url_text(session: aiohttp.ClientSession, url: str, check: UrlCheck) -> str:
    """GET ``url`` (redirects followed by hand, each target checked) as source text.

    ``session`` must check certificates (not the hub's session): an untrusted certificate
    is ``certificate_not_trusted``.
    """
    data = await fetch_url_bytes(
        session, url, check, max_bytes=MAX_SOURCE_BYTES, accept="text/plain, */*"
    )
    return as_source_text(data, url)


async def read_file_source(files: FilesManager, name: str) -> str:
    """A File Manager file's text as source."""
    found = await files.read(name, 0, MAX_SOURCE_CHARS)
    content = found.get("content")
    if not isinstance(content, str):
        raise ToolError(
            f"'{name}' in the File Manager is not a text file. Nothing was sent.",
            hint="Point file_name at the .groovy (text) file that holds the source.",
        )
    if found.get("next_offset") is not None:
        raise ToolError(
            f"'{name}' has more than {MAX_SOURCE_CHARS} characters: too large for code. "
            "Nothing was sent."
        )
    return as_source_text(content.encode(), name)


def item_error(err: ToolError | HubError) -> dict[str, Any]:
    """A failed item's reason: the error code, message and hint, and its subject (the tools
    layer turns code and subject into its advice, as for an error)."""
    out: dict[str, Any] = {"error": err.code, "message": str(err)}
    if err.hint:
        out["hint"] = err.hint
    if err.subject:
        out["subject"] = err.subject
    return out
