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
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
