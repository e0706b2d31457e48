"""Fault injection switches for :class:`~hubitat_emulator.HubEmulator`.

All fields can be changed at any time while the emulator runs; they are read per request.

* ``down``: every HTTP request and websocket upgrade is answered by aborting the TCP connection
  (no HTTP response at all), so the client sees a connection error such as
  ``aiohttp.ServerDisconnectedError``. The listening socket stays open (use
  ``HubEmulator.reboot()`` for "connection refused").
* ``delay``: seconds slept before answering every request (websocket upgrades included).
* ``delay_paths``: ``{path_prefix: seconds}``; every prefix matching ``request.path`` adds its
  delay on top of ``delay``.
* ``error_burst``: the next N requests are answered with ``error_status`` (and an HTML error
  page); decremented per request.
* ``fail_paths``: ``{path_prefix: status}``; a request whose path starts with a prefix is
  answered with that status and an HTML error page (every time, until cleared).
* ``html_login``: every admin endpoint (everything except the Maker API, ``/login``,
  ``/logout`` and ``/hubStatus``) answers ``200 text/html`` with the login page, whatever the
  method and even with a valid session cookie (a broken session). Websockets are unaffected.
* ``pad_paths``: ``{path_prefix: n}``; a response to a matching path gets ``n`` trailing
  spaces appended to its body (JSON stays valid: an oversized answer, e.g. a huge list).
* ``oversize_frames``: when > 0, each eventsocket/logsocket JSON frame is preceded by a valid
  JSON frame of about that many characters (an event and log line with a huge text).
* ``junk_frames``: each eventsocket/logsocket JSON frame is preceded by a non-JSON text frame.
* ``split_frames``: each eventsocket/logsocket JSON message is sent as a *fragmented* websocket
  message (a text frame with FIN=0 holding the first half, then a continuation frame). This is
  the websocket-level analogue of helog's "split JSON" case: the message is still one valid
  JSON document, and a compliant websocket library reassembles it transparently.
* ``reshape_paths``: ``{path: mode}``; a JSON answer to that path (or under it, for a key
  ending in ``/``) changes shape, as a different firmware might answer (see :func:`reshape`):
  ``"drop_key:<k>"``, ``"rename_key:<k>:<new>"``, ``"wrap_list"``, ``"html"``, ``"404"``,
  or a callable taking and returning the decoded JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .responses import Responses

Reshape = str | Callable[[Any], Any]


@dataclass
class Faults:
    down: bool = False
    delay: float = 0.0
    delay_paths: dict[str, float] = field(default_factory=dict)
    error_burst: int = 0
    error_status: int = 500
    fail_paths: dict[str, int] = field(default_factory=dict)
    html_login: bool = False
    pad_paths: dict[str, int] = field(default_factory=dict)
    oversize_frames: int = 0
    junk_frames: bool = False
    split_frames: bool = False
    reshape_paths: dict[str, Reshape] = field(default_factory=dict)

    def delay_for(self, path: str) -> float:
        total = self.delay
        for prefix, extra in self.delay_paths.items():
            if path.startswith(prefix):
                total += extra
        return total

    def fail_status(self, path: str) -> int | None:
        for prefix, status in self.fail_paths.items():
            if path.startswith(prefix):
                return status
        return None

    def pad_for(self, path: str) -> int:
        return sum(n for prefix, n in self.pad_paths.items() if path.startswith(prefix))

    def reset(self) -> None:
        """Clear every fault."""
        self.down = False
        self.delay = 0.0
        self.delay_paths = {}
        self.error_burst = 0
        self.error_status = 500
        self.fail_paths = {}
        self.html_login = False
        self.pad_paths = {}
        self.oversize_frames = 0
        self.junk_frames = False
        self.split_frames = False
        self.reshape_paths = {}

    def reshaped(
        self, path: str, response: web.StreamResponse, http: Responses
    ) -> web.StreamResponse:
        """``response`` as the ``reshape_paths`` mode for ``path`` changes it (JSON only)."""
        mode = next(
            (
                m
                for key, m in self.reshape_paths.items()
                if path == key or (key.endswith("/") and path.startswith(key))
            ),
            None,
        )
        if mode is None or not isinstance(response, web.Response) or response.status != 200:
            return response
        if mode == "404":
            return http.not_found()
        if mode == "html":
            return http.html_page("<html><body><h2>Hubitat Elevation</h2></body></html>")
        try:
            data = json.loads(response.text or "")
        except ValueError:
            return response  # not a JSON answer: left alone
        body = json.dumps(reshape(mode, data), separators=(",", ":"))
        return web.Response(text=body, content_type=response.content_type, charset="utf-8")


def reshape(mode: Reshape, data: Any) -> Any:
    """Apply one reshape mode to decoded JSON (``drop_key``/``rename_key``: at any depth)."""
    if callable(mode):
        return mode(data)
    if mode == "wrap_list":
        return {"items": data} if isinstance(data, list) else [data]
    op, _, arg = mode.partition(":")
    old, _, new = arg.partition(":")

    def walk(value: Any) -> Any:
        if isinstance(value, list):
            return [walk(item) for item in value]
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key == old and op == "drop_key":
                continue
            out[new if key == old and op == "rename_key" else key] = walk(item)
        return out

    if op not in ("drop_key", "rename_key") or not old:
        raise ValueError(f"unknown reshape mode {mode!r}")
    return walk(data)
