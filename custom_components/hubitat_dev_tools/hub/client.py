"""Low-level HTTP client for a Hubitat hub.

Admin endpoints (optionally behind Hub Security) and the Maker API. The client never
creates its own session: the glue passes Home Assistant's shared aiohttp session.
Every request goes through one semaphore (bounded requests in flight, waited for at most
``acquire_timeout`` seconds: then :class:`HubBusyError`), a timeout, and a size cap on the
answer (read as a stream; over the cap: :class:`HubResponseTooLargeError`). Requests with a
long timeout (backups, installs) may hold all slots but one, so short reads always get through.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any, Literal
from urllib.parse import quote

import aiohttp
import orjson

from .answers import (
    check_success,
    header,
    is_login_form,
    is_login_rejected,
    looks_like_html,
    redact_snippet,
)
from .errors import (
    HubAuthError,
    HubBadResponseError,
    HubBusyError,
    HubNotFoundError,
    HubResponseTooLargeError,
    HubTimeoutError,
    HubUnreachableError,
    MakerNotConfiguredError,
)
from .firmware import UNKNOWN_PLATFORM, Platform

_LOGGER = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_IN_FLIGHT = 4
# How long a request waits for a free slot before it gives up with HubBusyError.
DEFAULT_ACQUIRE_TIMEOUT = 15.0
# The largest answer read by default (the ~1 MB compatible-device catalog fits); calls that
# download files pass their own ``max_bytes``.
DEFAULT_MAX_BODY = 4 * 1024 * 1024
# Binary downloads (File Manager files, bundle .zip exports).
MAX_DOWNLOAD_BYTES = 16 * 1024 * 1024
# A request whose timeout is longer than this is "slow": slow ones never take the last slot.
_SLOW_AFTER = DEFAULT_TIMEOUT
_SNIPPET_CHARS = 300
_CHUNK = 1 << 16
# Statuses worth one retry for idempotent GETs: the hub is briefly overloaded.
_RETRY_STATUSES = frozenset({408, 502, 503, 504})
_RETRY_DELAY = 0.5
_REDIRECTS = frozenset({301, 302, 303, 307, 308})

Expect = Literal["json", "text", "bytes", "any", "discard"]
_PEEK_BYTES = 2048


def loads(text: str) -> Any:
    """Decode a hub answer's JSON text (ValueError when it is not JSON).

    orjson first (about four times faster on a device list); what it refuses but the standard
    decoder takes (NaN, integers beyond 64 bits) goes to the standard one, so the answers are
    the standard decoder's.
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


@dataclass(frozen=True, slots=True)
class HubConnection:
    """How to reach one hub."""

    host: str
    port: int | None = None
    use_ssl: bool = False
    username: str | None = None
    password: str | None = None
    maker_app_id: str | None = None
    maker_token: str | None = None

    @property
    def base_url(self) -> str:
        """Return the hub's base URL, e.g. http://192.0.2.10."""
        scheme = "https" if self.use_ssl else "http"
        host = self.host.strip().rstrip("/")
        for prefix in ("http://", "https://"):
            host = host.removeprefix(prefix)
        if ":" in host and not host.startswith("["):
            if host.count(":") == 1:  # host:port given in the host field
                return f"{scheme}://{host}"
            host = f"[{host}]"  # bare IPv6 literal
        port = f":{self.port}" if self.port else ""
        return f"{scheme}://{host}{port}"

    @property
    def has_security(self) -> bool:
        """Return True when Hub Security credentials are configured."""
        return bool(self.username and self.password)

    @property
    def has_maker(self) -> bool:
        """Return True when a Maker API app id and token are configured."""
        return bool(self.maker_app_id and self.maker_token)


@dataclass(frozen=True, slots=True)
class _Reply:
    """One HTTP reply, fully read."""

    status: int
    body: str
    raw: bytes
    headers: dict[str, str]
    cookies: dict[str, str]


class HubClient:
    """Talks HTTP to one hub, with login, retries, timeouts and a concurrency bound."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        connection: HubConnection,
        *,
        max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
        timeout: float = DEFAULT_TIMEOUT,
        acquire_timeout: float = DEFAULT_ACQUIRE_TIMEOUT,
    ) -> None:
        self._session = session
        self.connection = connection
        self._sem = asyncio.Semaphore(max_in_flight)
        # Slow requests (long timeouts) may hold every slot but one.
        self._slow_sem = asyncio.Semaphore(max(1, max_in_flight - 1))
        self._timeout = timeout
        self.acquire_timeout = acquire_timeout
        self._cookie: tuple[str, str] | None = None
        self._login_lock = asyncio.Lock()
        # What the hub runs (set by fetch_identity at setup); unknown until then.
        self.platform: Platform = UNKNOWN_PLATFORM
        # The hub's time zone (set by fetch_identity): ``/logsocket`` times are hub-local.
        self.time_zone: tzinfo | None = None
        self.requests_sent = 0
        self.in_flight = 0
        self.max_in_flight_seen = 0

    @property
    def base_url(self) -> str:
        """Return the hub's base URL."""
        return self.connection.base_url

    @property
    def session(self) -> aiohttp.ClientSession:
        """Return the shared aiohttp session (the sockets connect through it)."""
        return self._session

    @property
    def session_cookie(self) -> tuple[str, str] | None:
        """Return the Hub Security session cookie (name, value), if logged in."""
        return self._cookie

    # ------------------------------------------------------------------ transport

    async def _send(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, str] | None = None,
        data: Any = None,
        json_body: Any = None,
        headers: dict[str, str] | None = None,
        timeout: float | None = None,
        allow_redirects: bool = True,
        use_cookie: bool = True,
        discard: bool = False,
        max_bytes: int | None = None,
    ) -> _Reply:
        """Send one request under the concurrency bound; return the whole reply.

        The body is read as a stream up to ``max_bytes`` (default :data:`DEFAULT_MAX_BODY`);
        a larger answer raises :class:`HubResponseTooLargeError` without being read further.
        """
        url = f"{self.base_url}{path}"
        cookies = None
        if use_cookie and self._cookie is not None:
            cookies = {self._cookie[0]: self._cookie[1]}
        client_timeout = aiohttp.ClientTimeout(total=timeout or self._timeout)
        slow = (timeout or self._timeout) > _SLOW_AFTER
        async with (
            self._slot(self._slow_sem, method, path, enabled=slow),
            self._slot(self._sem, method, path),
        ):
            self.in_flight += 1
            self.max_in_flight_seen = max(self.max_in_flight_seen, self.in_flight)
            self.requests_sent += 1
            try:
                async with self._session.request(
                    method,
                    url,
                    params=params,
                    data=data,
                    json=json_body,
                    headers=headers,
                    cookies=cookies,
                    timeout=client_timeout,
                    allow_redirects=allow_redirects,
                    # Hubs serve HTTPS with self-signed certificates: do not verify.
                    ssl=not self.connection.use_ssl,
                ) as resp:
                    if discard:  # large downloads (backups): keep a peek, drain the rest
                        raw = await resp.content.read(_PEEK_BYTES)
                        async for _chunk in resp.content.iter_chunked(_CHUNK):
                            pass
                    else:
                        raw = await self._read_capped(resp, method, path, max_bytes)
                    body = raw.decode(resp.charset or "utf-8", errors="replace")
                    cookies = {name: morsel.value for name, morsel in resp.cookies.items()}
                    return _Reply(resp.status, body, raw, dict(resp.headers), cookies)
            except TimeoutError as err:
                raise HubTimeoutError(
                    f"The hub did not answer {method} {path} within {timeout or self._timeout:g} s"
                ) from err
            except aiohttp.ClientConnectionError as err:
                raise HubUnreachableError(
                    f"Cannot connect to the hub at {self.base_url}: {self.redact(str(err))}"
                ) from err
            except aiohttp.ClientError as err:
                raise HubBadResponseError(
                    f"HTTP error talking to the hub: {self.redact(str(err))}"
                ) from err
            finally:
                self.in_flight -= 1

    @contextlib.asynccontextmanager
    async def _slot(
        self, sem: asyncio.Semaphore, method: str, path: str, *, enabled: bool = True
    ) -> AsyncIterator[None]:
        """Hold one slot of ``sem``; HubBusyError if none frees up within acquire_timeout."""
        if not enabled:
            yield
            return
        try:
            if sem.locked():  # every slot taken: wait, at most acquire_timeout
                await asyncio.wait_for(sem.acquire(), self.acquire_timeout)
            else:  # a free slot is taken at once (no timer to set up)
                await sem.acquire()
        except TimeoutError as err:
            raise HubBusyError(
                f"The hub still had {self.in_flight} requests running after "
                f"{self.acquire_timeout:g} s, so {method} {path.split('?')[0]} was not sent"
            ) from err
        try:
            yield
        finally:
            sem.release()

    @staticmethod
    async def _read_capped(
        resp: aiohttp.ClientResponse, method: str, path: str, max_bytes: int | None
    ) -> bytes:
        """The whole body, read in chunks; HubResponseTooLargeError past ``max_bytes``."""
        cap = DEFAULT_MAX_BODY if max_bytes is None else max_bytes

        def too_large(size: str) -> HubResponseTooLargeError:
            return HubResponseTooLargeError(
                f"The hub's answer to {method} {path.split('?')[0]} is {size}, over the "
                f"{cap} byte limit of this call; it was not read"
            )

        declared = resp.content_length
        if declared is not None and declared > cap:
            raise too_large(f"{declared} bytes")
        encodings = {e.strip().lower() for e in resp.headers.getall("Content-Encoding", [])}
        if declared is not None and encodings <= {"", "identity"}:
            # A declared, uncompressed length within the cap: read it in one go. A compressed
            # answer's declared length says nothing of its decoded size, so it is read in
            # chunks below (every Content-Encoding header counts: the decoder follows the
            # last), and the check after the read catches a body longer than declared.
            raw = await resp.read()
            if len(raw) > cap:
                raise too_large(f"{len(raw)} bytes")
            return raw
        parts: list[bytes] = []
        total = 0
        async for chunk in resp.content.iter_chunked(_CHUNK):
            total += len(chunk)
            if total > cap:
                raise too_large(f"more than {cap} bytes")
            parts.append(chunk)
        return b"".join(parts)

    async def login(self) -> None:
        """Log in to Hub Security and keep the session cookie."""
        conn = self.connection
        if not conn.has_security:
            return
        assert conn.username is not None and conn.password is not None
        reply = await self._send(
            "POST",
            "/login",
            data={"username": conn.username, "password": conn.password, "submit": "Login"},
            allow_redirects=False,
            use_cookie=False,
        )
        status, body = reply.status, reply.body
        if is_login_rejected(body):  # the hub's page saying the credentials are wrong
            self._cookie = None
            raise HubAuthError(
                "Hub Security login failed: the hub rejected the username or password",
                subject="login",
            )
        location = header(reply.headers, "Location")
        cookie = None
        for name in ("HUBSESSION", "JSESSIONID"):
            if reply.cookies.get(name):
                cookie = (name, reply.cookies[name])
                break
        redirected_ok = status in (301, 302, 303, 307) and "login" not in location.lower()
        if (
            status in (401, 403)
            or cookie is None
            or not (redirected_ok or (status == 200 and not looks_like_html(body)))
        ):
            self._cookie = None
            raise HubAuthError(
                "Hub Security login failed: the hub rejected the username or password",
                subject="login",
            )
        self._cookie = cookie
        _LOGGER.debug("Logged in to hub %s", self.base_url)

    async def ensure_login(self, stale: tuple[str, str] | None = None) -> None:
        """Log in once, even when many requests need it at the same time."""
        async with self._login_lock:
            if self._cookie is not None and self._cookie != stale:
                return  # someone else already logged in
            await self.login()

    async def _send_logged_in(
        self,
        method: str,
        path: str,
        login_page: Callable[[_Reply], bool],
        *,
        relogin: bool = True,
        **send: Any,
    ) -> tuple[_Reply, bool]:
        """Send with the Hub Security session: log in first when needed; if the hub answers
        with its login (``login_page``), log in again once (when ``relogin``) and resend.

        Returns the reply and whether it took a re-login; raises :class:`HubAuthError` when
        the hub still asks for a login, or asks for one and no credentials are configured.
        """
        conn = self.connection
        if conn.has_security and self._cookie is None:
            await self.ensure_login()
        used_cookie = self._cookie
        reply = await self._send(method, path, **send)
        if not login_page(reply):
            return reply, False
        if not conn.has_security:
            raise HubAuthError(
                f"The hub asks for a Hub Security login on {path}, but no credentials "
                "are configured.",
                subject="no_credentials",
            )
        if relogin:
            await self.ensure_login(stale=used_cookie)
            reply = await self._send(method, path, **send)
            if not login_page(reply):
                return reply, True
        raise HubAuthError(
            f"The hub refused {path} even after logging in again (it served its login page).",
            subject="login",
        )

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, str] | None = None,
        data: Any = None,
        json_body: Any = None,
        expect: Expect = "json",
        timeout: float | None = None,
        retry: bool = True,
        what: str | None = None,
        max_bytes: int | None = None,
    ) -> Any:
        """Call an admin endpoint: log in when needed, re-login and retry once on auth.

        A GET is retried once on a busy-hub status (408/502/503/504) unless ``retry`` is
        False (GETs that trigger something on the hub, e.g. radio operations).
        With ``what`` (what was asked, e.g. "disable app 12"), the hub's failure envelope
        (``{"success": false}``) raises :class:`HubRefusedError` instead of being returned.
        ``max_bytes`` caps the answer (default :data:`DEFAULT_MAX_BODY`).
        """

        def login_page(reply: _Reply) -> bool:
            return reply.status in (401, 403) or (
                expect in ("json", "any", "discard")
                and reply.status == 200
                and is_login_form(reply.body)
            )

        relogin = True  # one re-login per call, whatever else is retried
        retried_status = False
        while True:
            reply, relogged = await self._send_logged_in(
                method,
                path,
                login_page,
                relogin=relogin,
                params=params,
                data=data,
                json_body=json_body,
                timeout=timeout,
                discard=expect == "discard",
                max_bytes=max_bytes,
            )
            relogin = relogin and not relogged
            status, body = reply.status, reply.body
            if status in _RETRY_STATUSES and method == "GET" and retry and not retried_status:
                retried_status = True
                await asyncio.sleep(_RETRY_DELAY)
                continue
            answer = self._decode(status, body, path, expect)
            if what is not None:
                check_success(answer, what)
            return answer

    def snippet(self, body: str) -> str:
        """A short, redacted excerpt of a hub answer for an error message."""
        return redact_snippet(self.redact(body.strip()[: _SNIPPET_CHARS * 4]))[:_SNIPPET_CHARS]

    def _decode(self, status: int, body: str, path: str, expect: Expect) -> Any:
        if status == 404:
            raise HubNotFoundError(f"The hub has no {path.split('?')[0]} (HTTP 404)")
        if status >= 400:
            snippet = self.snippet(body)
            raise HubBadResponseError(
                f"The hub answered HTTP {status} to {path.split('?')[0]}"
                + (f": {snippet}" if snippet else ""),
                hint="The hub rejected the request. Check the arguments; if they are right, "
                "the hub may be busy: retry once.",
            )
        if expect == "text":
            return body
        if expect == "discard":
            return None
        if expect == "any":
            try:
                return loads(body) if body.strip() else None
            except ValueError:
                return body
        try:
            return loads(body)
        except ValueError as err:
            raise HubBadResponseError(
                f"The hub answered {path.split('?')[0]} with something that is not JSON",
                hint="The hub's firmware may not support this endpoint. Retry once; "
                "if it persists, report it with the firmware version.",
            ) from err

    async def get_location(self, path: str) -> str:
        """GET an endpoint that answers with a redirect; return its Location, not followed."""

        def login_page(reply: _Reply) -> bool:
            location = header(reply.headers, "Location")
            to_login = reply.status in _REDIRECTS and "/login" in location
            form = reply.status == 200 and is_login_form(reply.body)
            return reply.status in (401, 403) or to_login or form

        reply, _ = await self._send_logged_in("GET", path, login_page, allow_redirects=False)
        location = header(reply.headers, "Location")
        if reply.status >= 400:
            self._decode(reply.status, reply.body, path, "text")
        if reply.status not in _REDIRECTS or not location:
            raise HubBadResponseError(
                f"The hub answered {path.split('?')[0]} with HTTP {reply.status} instead "
                "of a redirect",
                hint="This firmware may not have the endpoint; report it with the "
                "firmware version.",
            )
        return location

    async def get_json(
        self,
        path: str,
        params: dict[str, str] | None = None,
        *,
        what: str | None = None,
        max_bytes: int | None = None,
    ) -> Any:
        """GET an admin endpoint and parse JSON (content type is ignored: often text/html)."""
        return await self.request("GET", path, params=params, what=what, max_bytes=max_bytes)

    async def get_text(
        self, path: str, params: dict[str, str] | None = None, *, max_bytes: int | None = None
    ) -> str:
        """GET an admin endpoint that answers plain text."""
        result: str = await self.request(
            "GET", path, params=params, expect="text", max_bytes=max_bytes
        )
        return result

    async def get_bytes(
        self,
        path: str,
        params: dict[str, str] | None = None,
        *,
        max_bytes: int = MAX_DOWNLOAD_BYTES,
    ) -> bytes:
        """GET a binary admin endpoint (e.g. a bundle .zip); one re-login on an auth page.

        Only the hub's own login form counts as an auth page (an ``.html`` file is data).
        """

        def login_page(reply: _Reply) -> bool:
            html = "text/html" in header(reply.headers, "Content-Type") and is_login_form(
                reply.body
            )
            return reply.status in (401, 403) or (reply.status == 200 and html)

        reply, _ = await self._send_logged_in(
            "GET", path, login_page, params=params, max_bytes=max_bytes
        )
        if reply.status >= 400:
            self._decode(reply.status, reply.body, path, "text")
        return reply.raw

    async def post_json(
        self, path: str, body: Any, *, what: str | None = None, check: bool = True
    ) -> Any:
        """POST a JSON body to an admin endpoint; parse a JSON answer if any.

        The hub's failure envelope raises :class:`HubRefusedError` (``what`` says what was
        asked; by default the path) unless ``check`` is False.
        """
        what = (what or f"accept POST {path}") if check else None
        return await self.request("POST", path, json_body=body, expect="any", what=what)

    async def post_form(
        self, path: str, form: dict[str, str], *, what: str | None = None, check: bool = True
    ) -> Any:
        """POST a form to an admin endpoint; parse a JSON answer if any.

        The hub's failure envelope raises :class:`HubRefusedError` (``what`` says what was
        asked; by default the path) unless ``check`` is False.
        """
        what = (what or f"accept POST {path}") if check else None
        return await self.request("POST", path, data=form, expect="any", what=what)

    # ------------------------------------------------------------------ Maker API

    async def maker_get(
        self, path: str, *, timeout: float | None = None, retry: bool = True
    ) -> Any:
        """GET a Maker API path (relative, e.g. "modes" or "devices/12/on").

        A busy answer (408/502/503/504) is retried once unless ``retry`` is False: every
        Maker GET that changes something (a command, a mode, HSM, a variable) passes False.
        """
        conn = self.connection
        if not conn.has_maker:
            raise MakerNotConfiguredError(
                "This operation needs the hub's Maker API, which is not configured"
            )
        assert conn.maker_app_id is not None and conn.maker_token is not None
        full = f"/apps/api/{quote(str(conn.maker_app_id), safe='')}/{path.lstrip('/')}"
        retried = False
        while True:
            reply = await self._send(
                "GET",
                full,
                params={"access_token": conn.maker_token},
                timeout=timeout,
                use_cookie=False,
            )
            status, body = reply.status, reply.body
            if status == 401:
                raise HubAuthError(
                    "The hub rejected the Maker API access token", subject="maker_token"
                )
            if status in _RETRY_STATUSES and retry and not retried:
                retried = True
                await asyncio.sleep(_RETRY_DELAY)
                continue
            if status == 404:
                raise HubNotFoundError(
                    f"The Maker API has no {path.split('?')[0]} (HTTP 404)",
                    hint="Check the id or name. The Maker API only sees the devices and "
                    "variables enabled in its app settings on the hub.",
                    subject="maker",
                )
            return self._decode(status, body, full, "any")

    def redact(self, text: str) -> str:
        """Remove secrets (token, password, session cookie) from a message."""
        conn = self.connection
        secrets = [conn.maker_token, conn.password, self._cookie[1] if self._cookie else None]
        for secret in secrets:
            if secret:
                text = text.replace(secret, "**REDACTED**")
        return text
