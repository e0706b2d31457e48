"""Hub Security: the login and the ``HUBSESSION`` sessions it issues."""

from __future__ import annotations

import secrets


def _fresh_token() -> str:
    return "node0" + secrets.token_hex(12)


class HubSecurity:
    """Whether Hub Security is on, its one account, and the valid session ids."""

    def __init__(self, *, enabled: bool, username: str, password: str) -> None:
        self.enabled = enabled
        self.username = username
        self.password = password
        self._sessions: set[str] = set()

    def accepts(self, username: str, password: str) -> bool:
        """Whether a login with these credentials succeeds (always, with security off)."""
        return not self.enabled or (username == self.username and password == self.password)

    def is_valid(self, token: str | None) -> bool:
        return token is not None and token in self._sessions

    def new_session(self) -> str:
        token = _fresh_token()
        self._sessions.add(token)
        return token

    def end_session(self, token: str) -> None:
        self._sessions.discard(token)

    def expire_all(self) -> None:
        self._sessions.clear()

    def cookie_token(self, token: str | None) -> str:
        """The ``HUBSESSION`` a response carries: a valid session (or, with security off, any
        id the client sent) is echoed, anything else gets a fresh (never valid) id."""
        if self.enabled:
            return token if token is not None and token in self._sessions else _fresh_token()
        return token or _fresh_token()
